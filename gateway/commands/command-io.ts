import type { AuthDeps } from '../auth/auth-deps.js';
import type { GatewayConfig } from '../config.js';
import { openGatewayState } from '../state/open-gateway-state.js';

/** Where operator commands write and what time it is; tests pass their own. */
export interface CommandIo {
  out: (text: string) => void;
  now: () => Date;
}

export const processIo: CommandIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  now: () => new Date(),
};

/** Opens the configured state for one command and always closes it, also when the command fails. */
export async function withState<T>(
  config: GatewayConfig,
  io: CommandIo,
  run: (deps: AuthDeps) => Promise<T>,
): Promise<T> {
  const state = await openGatewayState(config.stateUrl);
  try {
    return await run({ state, now: io.now });
  } finally {
    await state.close();
  }
}

export function printJson(io: CommandIo, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

export const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);
