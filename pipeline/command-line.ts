import { type Command, CommanderError } from 'commander';

/**
 * Runs a commander program and turns every failure into one line on stderr and an exit code,
 * so that no command prints a stack trace. The entry files call `process.exit` with the result.
 */
export async function runProgram(program: Command, argv: string[]): Promise<number> {
  applyRecursively(program, (command) => command.exitOverride());
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    process.stderr.write(`error: ${describeError(error)}\n`);
    if (process.env['SBM_DEBUG'] === '1' && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    return 1;
  }
}

function applyRecursively(command: Command, apply: (command: Command) => void): void {
  apply(command);
  for (const sub of command.commands) applyRecursively(sub, apply);
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  return String(error);
}
