/**
 * A separate process that fires concurrent reservations at one account, for tests of the allowance
 * across processes. It opens the state, warms its connections, prints `ready`, waits for a `go` line
 * on stdin (so several processes start together), fires, and prints one JSON line of results.
 *
 *   node --import tsx test/gateway/state/reserve-burst.ts <state-url> <account-id> <period-start-iso> <limit> <count>
 */
import { createInterface } from 'node:readline';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';

async function main(): Promise<void> {
  const [url, accountId, periodIso, limitRaw, countRaw] = process.argv.slice(2);
  if (!url || !accountId || !periodIso || !limitRaw || !countRaw) {
    throw new Error('usage: reserve-burst.ts <state-url> <account-id> <period-start-iso> <limit> <count>');
  }
  const periodStart = new Date(periodIso);
  const limit = Number(limitRaw);
  const count = Number(countRaw);
  const state = await openGatewayState(url, { maxConnections: 16 });
  try {
    await Promise.all(Array.from({ length: 16 }, () => state.getUsage(accountId, periodStart)));
    process.stdout.write('ready\n');
    const lines = createInterface({ input: process.stdin });
    for await (const line of lines) if (line.trim() === 'go') break;
    lines.close();
    const results = await Promise.all(
      Array.from({ length: count }, () => state.reserveRequest(accountId, periodStart, limit)),
    );
    process.stdout.write(`${JSON.stringify(results)}\n`);
  } finally {
    await state.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`reserve-burst: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
