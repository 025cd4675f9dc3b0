/**
 * A separate process that fires concurrent key creations (`insertKeyWithinLimit`) at one account, for
 * tests of the active-key limit across processes. Like `reserve-burst.ts`: it opens the state, warms its
 * connections, prints `ready`, waits for a `go` line on stdin, fires, and prints one JSON line of results.
 *
 *   node --import tsx test/gateway/state/insert-key-burst.ts <state-url> <account-id> <now-iso> <max-active> <count>
 */
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';

async function main(): Promise<void> {
  const [url, accountId, nowIso, maxRaw, countRaw] = process.argv.slice(2);
  if (!url || !accountId || !nowIso || !maxRaw || !countRaw) {
    throw new Error('usage: insert-key-burst.ts <state-url> <account-id> <now-iso> <max-active> <count>');
  }
  const now = new Date(nowIso);
  const state = await openGatewayState(url, { maxConnections: 16 });
  try {
    await Promise.all(Array.from({ length: 16 }, () => state.getAccount(accountId)));
    process.stdout.write('ready\n');
    const lines = createInterface({ input: process.stdin });
    for await (const line of lines) if (line.trim() === 'go') break;
    lines.close();
    const results = await Promise.all(
      Array.from({ length: Number(countRaw) }, () => {
        const id = `key_${randomUUID().slice(0, 12)}`;
        return state.insertKeyWithinLimit(
          {
            id,
            accountId,
            prefix: `sbm_live_${id.slice(-6)}`,
            hash: randomUUID().replaceAll('-', '').padEnd(64, '0'),
            createdAt: now,
            revokedAt: null,
            expiresAt: null,
          },
          Number(maxRaw),
          now,
        );
      }),
    );
    process.stdout.write(`${JSON.stringify(results)}\n`);
  } finally {
    await state.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`insert-key-burst: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
