/**
 * The order fault run: N orders (`SBM_FAULT_ORDERS`, 200 by default) paid through the real gateway
 * process (`sbm-gateway serve`), checkout over HTTP, the official Stripe client in the gateway talking to
 * the local Stripe stand-in, and the real `sbm-gateway orders fulfil` / `orders reconcile` processes,
 * while faults are injected:
 *
 * - the gateway killed with SIGKILL at random moments, and started again;
 * - PostgreSQL (a server of the run's own, see private-postgres.ts) restarted with `pg_ctl restart -m
 *   immediate` while orders are paid and fulfilled (on SQLite, said so, where no PostgreSQL is installed);
 * - the object store failing for a few seconds, answering 503 or timing out (fault-preload.ts);
 * - a share of webhooks (`SBM_FAULT_DROP_SHARE`, 0.2) never delivered: the buyer pays, Stripe sends nothing.
 *
 * Then the faults stop and the operator's pass runs once the leases of killed workers have ended:
 * `orders reconcile`, `orders retry` for orders out of tries, `orders fulfil`. It prints orders paid,
 * fulfilled, duplicated (a pack stored twice, or an order paid twice), lost (paid at Stripe, not
 * fulfilled), the emails written, and the faults survived by kind; it fails unless lost and duplicated are
 * 0 and every fulfilled order got exactly one email.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openGatewayState } from '../../gateway/state/open-gateway-state.js';
import { freePort, type RunningChild, startChild } from '../../pipeline/demo/child-process.js';
import { StripeFake } from '../../pipeline/devnet/stripe/stripe-fake.js';
import {
  ALICE,
  BOB,
  CHARLIE,
  NOW_MS,
  ORDER_SECRET,
  orderWorld,
  WEBHOOK_SECRET,
  WORLD_SKU,
} from '../gateway/orders/order-world.js';
import { type PrivatePostgres, startPrivatePostgres } from './private-postgres.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PRELOAD = join(ROOT, 'test', 'bench', 'fault-preload.ts');
const BUYERS = 4;
/** Past the fulfilment lease (ten minutes): the final pass runs after every killed worker's lease ended. */
const AFTER_LEASES_MS = 11 * 60_000;

type FaultKind = 'gateway SIGKILL' | 'PostgreSQL restart' | 'object store 503' | 'object store timeout';

interface Paid {
  orderId: string;
  sessionId: string;
  webhook: 'delivered' | 'dropped' | 'failed under a fault';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low));

/** Runs a gateway command to its end: its stdout and exit code, whatever the code. */
function gatewayCommand(env: NodeJS.ProcessEnv, args: string[]): Promise<{ out: string; code: number }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', PRELOAD, 'gateway/cli.ts', ...args],
      {
        env,
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', () => {});
    child.once('exit', (code) => resolve({ out, code: code ?? -1 }));
  });
}

export async function run(): Promise<void> {
  const count = Number(process.env['SBM_FAULT_ORDERS'] ?? '200');
  const dropShare = Number(process.env['SBM_FAULT_DROP_SHARE'] ?? '0.2');
  if (!Number.isInteger(count) || count < 1) throw new Error('SBM_FAULT_ORDERS must be a whole number ≥ 1');
  const offset = NOW_MS - Date.now();
  const world = await orderWorld();
  const dir = await mkdtemp(join(tmpdir(), 'sbm-faults-'));
  const postgres: PrivatePostgres | null = await startPrivatePostgres();
  const stateUrl = postgres?.url ?? `sqlite:${join(dir, 'gateway.sqlite')}`;
  process.stdout.write(
    postgres
      ? `state: a private PostgreSQL ${postgres.version} server, restarted during the run\n`
      : 'state: SQLite (no PostgreSQL binaries under /usr/lib/postgresql): no PostgreSQL restarts in this run\n',
  );
  const fake = new StripeFake({ now: () => Date.now() + offset });
  await fake.listen();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const flag = join(dir, 'store-fault');
  const log = join(dir, 'fault-log');
  const outboxDir = join(dir, 'outbox');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SBM_STATE_URL: stateUrl,
    SBM_STORE_URL: `file:${world.storeDir}`,
    SBM_CHAIN_URL: world.chainUrl,
    SBM_BASE_URL: base,
    SBM_ORDER_SECRET: ORDER_SECRET,
    STRIPE_SECRET_KEY: 'sk_test_faults',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
    SBM_OUTBOX_DIR: outboxDir,
    SBM_PUBLIC_LIMIT_PER_MIN: '0',
    // Each buyer from an address of their own (the tax interface allows 20 requests an hour per address).
    SBM_TRUST_PROXY: '1',
    SBM_FAULT_CLOCK_OFFSET_MS: String(offset),
    SBM_FAULT_STORE_FLAG: flag,
    SBM_FAULT_LOG: log,
  };
  fake.setWebhook(`${base}/tax/webhooks/stripe`, WEBHOOK_SECRET);

  const survived = new Map<FaultKind, number>();
  const note = (kind: FaultKind) => survived.set(kind, (survived.get(kind) ?? 0) + 1);
  let gateway: RunningChild | null = null;
  let gatewayStarts = 0;
  const startGateway = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        const started = await startChild(
          process.execPath,
          ['--import', 'tsx', '--import', PRELOAD, 'gateway/cli.ts', 'serve', '--port', String(port)],
          { env, ready: /listening on (\S+)/, label: 'the gateway', timeoutMs: 60_000 },
        );
        gateway = started.child;
        gatewayStarts += 1;
        return;
      } catch (error) {
        if (attempt >= 10) throw error;
        await sleep(1_000);
      }
    }
  };

  /** True while buyers pay and until fulfilment has caught up with them: the faults run that long. */
  let buying = true;
  let faulting = true;
  const paid: Paid[] = [];
  const fulfilledLines: string[] = [];
  let checkoutRetries = 0;
  const t0 = Date.now();
  try {
    await startGateway();

    const checkout = async (coldkey: string, buyerIp: string): Promise<string> => {
      let last = '';
      for (let attempt = 1; attempt <= 120; attempt++) {
        try {
          const response = await fetch(`${base}/tax/checkout`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': buyerIp },
            body: JSON.stringify({ sku: WORLD_SKU, coldkeys: [coldkey] }),
            signal: AbortSignal.timeout(20_000),
          });
          const text = await response.text();
          if (response.status === 201) return (JSON.parse(text) as { order_id: string }).order_id;
          if (response.status < 500 && response.status !== 429)
            throw new Error(`checkout answered ${response.status}: ${text.slice(0, 200)}`);
          last = `HTTP ${response.status} ${text.slice(0, 200)}`;
        } catch (error) {
          if (error instanceof Error && error.message.startsWith('checkout answered')) throw error;
          last = String(error instanceof Error && error.cause ? error.cause : error);
        }
        checkoutRetries += 1;
        await sleep(500);
      }
      throw new Error(
        `checkout failed 120 times in a row (last: ${last}; faults so far: ${[...survived].join(', ')})`,
      );
    };

    let next = 0;
    const buyer = async () => {
      while (next < count) {
        const i = next++;
        await sleep(between(0, 2_000));
        const orderId = await checkout(
          [ALICE, BOB, CHARLIE][i % 3]!,
          `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        );
        const session = fake.sessions().find((s) => s.client_reference_id === orderId);
        if (!session) throw new Error(`no Stripe session for ${orderId}`);
        const email = `${orderId.slice(4, 14)}@buyers.example`;
        if (Math.random() < dropShare) {
          fake.completeSession(session.id, email);
          paid.push({ orderId, sessionId: session.id, webhook: 'dropped' });
        } else {
          await fake.paySession(session.id, email);
          const event = fake.events.findLast(
            (e) => (e.event.data.object as { id?: string }).id === session.id,
          );
          paid.push({
            orderId,
            sessionId: session.id,
            webhook: event?.delivered === 200 ? 'delivered' : 'failed under a fault',
          });
        }
      }
    };

    const fulfiller = async () => {
      let pass = 0;
      const stopBy = () => buyingEnded + 10 * 60_000;
      let buyingEnded = Number.POSITIVE_INFINITY;
      while (faulting) {
        pass += 1;
        const wasBuying = buying;
        const args = pass % 4 === 0 ? ['orders', 'reconcile'] : ['orders', 'fulfil'];
        const { out } = await gatewayCommand(env, args);
        fulfilledLines.push(...out.split('\n').filter((line) => /^(fulfilled|emailed) ord_/.test(line)));
        if (!buying && buyingEnded === Number.POSITIVE_INFINITY) buyingEnded = Date.now();
        // Caught up: a whole fulfil pass after the last payment found nothing to do (or ten minutes passed).
        if (!wasBuying && args[1] === 'fulfil' && /^0 fulfilled, 0 failed/m.test(out)) faulting = false;
        if (Date.now() > stopBy()) faulting = false;
        await sleep(500);
      }
    };

    const injector = async () => {
      const kinds: FaultKind[] = ['gateway SIGKILL', 'object store 503', 'object store timeout'];
      if (postgres) kinds.push('PostgreSQL restart');
      while (faulting) {
        await sleep(between(1_000, 3_000));
        if (!faulting) break;
        const kind = kinds[Math.floor(Math.random() * kinds.length)]!;
        if (kind === 'gateway SIGKILL') {
          const running: RunningChild | null = gateway;
          if (!running) continue;
          running.process.kill('SIGKILL');
          await new Promise((resolve) => running.process.once('exit', resolve));
          await startGateway();
        } else if (kind === 'PostgreSQL restart') {
          await postgres!.restartImmediate();
        } else {
          await writeFile(flag, kind === 'object store 503' ? '5xx' : 'timeout');
          await sleep(between(2_000, 6_000));
          await unlink(flag);
        }
        note(kind);
      }
    };

    // A gateway that dies of anything but the injector's kill is started again, and counted.
    let unexpectedExits = 0;
    const watchdog = async () => {
      while (faulting) {
        await sleep(1_000);
        const running: RunningChild | null = gateway;
        if (running && running.process.exitCode !== null && running.process.signalCode !== 'SIGKILL') {
          unexpectedExits += 1;
          gateway = null;
          await startGateway();
        }
      }
    };

    const buyers = Promise.all(Array.from({ length: BUYERS }, buyer)).finally(() => {
      buying = false;
    });
    await Promise.all([buyers, fulfiller(), injector(), watchdog()]);
    const faultSeconds = (Date.now() - t0) / 1000;

    // The faults are over: the operator's pass, once every lease a killed worker held has ended.
    await rm(flag, { force: true });
    const later = { ...env, SBM_FAULT_CLOCK_OFFSET_MS: String(offset + AFTER_LEASES_MS) };
    const reconciled = await gatewayCommand(later, ['orders', 'reconcile']);
    const stuck = await gatewayCommand(later, ['orders', 'list', '--stuck', '--json']);
    const stuckIds = (JSON.parse(stuck.out || '[]') as { id: string }[]).map((o) => o.id);
    for (const id of stuckIds) await gatewayCommand(later, ['orders', 'retry', id]);
    for (let pass = 0; pass < 3; pass++) {
      const { out } = await gatewayCommand(later, ['orders', 'fulfil']);
      fulfilledLines.push(...out.split('\n').filter((line) => /^(fulfilled|emailed) ord_/.test(line)));
      if (/^0 fulfilled/m.test(out)) break;
    }

    // What a buyer and an accountant would check.
    const state = await openGatewayState(stateUrl);
    let fulfilled = 0;
    let paidTwice = 0;
    const lost: string[] = [];
    const stripePaid = fake.sessions().filter((s) => s.mode === 'payment' && s.payment_status === 'paid');
    const perOrderSessions = new Map<string, number>();
    for (const session of stripePaid) {
      const id = session.client_reference_id!;
      perOrderSessions.set(id, (perOrderSessions.get(id) ?? 0) + 1);
      const order = await state.orders.getOrder(id);
      if (order?.status === 'fulfilled') fulfilled += 1;
      else
        lost.push(
          `${id} (${order?.status ?? 'missing'}, webhook ${paid.find((p) => p.orderId === id)?.webhook})`,
        );
      const payments = (await state.orders.orderHistory(id)).payments.filter((p) => p.outcome === 'paid');
      if (payments.length > 1) paidTwice += 1;
    }
    paidTwice += [...perOrderSessions.values()].filter((n) => n > 1).length;
    await state.close();

    const lines = (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);
    const tally = (prefix: string) => {
      const seen = new Map<string, number>();
      for (const line of lines.filter((l) => l.startsWith(prefix)))
        seen.set(line.split(' ')[1]!, (seen.get(line.split(' ')[1]!) ?? 0) + 1);
      return seen;
    };
    const puts = tally('put ');
    const mails = tally('mail ');
    const builtTwice = [...puts.values()].filter((n) => n > 1).length;
    const mailedTwice = [...mails].filter(([, n]) => n > 1).map(([file]) => file);
    const emailsSent = [...mails.values()].reduce((a, b) => a + b, 0);
    const outboxFiles = (await readdir(outboxDir).catch(() => [])).filter((f) => f.endsWith('.eml')).length;
    const keptLines = reconciled.out.match(/\d+ paid now.*$/m)?.[0];

    const webhooks = (kind: Paid['webhook']) => paid.filter((p) => p.webhook === kind).length;
    const out = (text: string) => process.stdout.write(`${text}\n`);
    out(`orders: ${count} paid through the gateway in ${faultSeconds.toFixed(0)} s of faults`);
    out(
      `  webhooks: ${webhooks('delivered')} delivered, ${webhooks('dropped')} dropped on purpose, ` +
        `${webhooks('failed under a fault')} failed under a fault (gateway down or state restarting)`,
    );
    out(`  checkout retried ${checkoutRetries} times by buyers; gateway started ${gatewayStarts} times`);
    out(`  gateway exits not caused by the injector: ${unexpectedExits}`);
    out(`  final reconcile: ${keptLines ?? reconciled.out.trim().split('\n').at(-1)}`);
    out(`  stuck (out of tries) after the faults, put back with orders retry: ${stuckIds.length}`);
    out('faults survived:');
    for (const kind of [
      'gateway SIGKILL',
      'PostgreSQL restart',
      'object store 503',
      'object store timeout',
    ] as const)
      out(`  ${kind}: ${survived.get(kind) ?? 0}`);
    out(`paid at Stripe: ${stripePaid.length}`);
    out(`fulfilled: ${fulfilled}`);
    out(
      `duplicated: ${builtTwice + paidTwice} (packs stored twice: ${builtTwice}, orders paid twice: ${paidTwice})`,
    );
    out(`lost: ${lost.length}${lost.length ? ` — ${lost.slice(0, 10).join('; ')}` : ''}`);
    out(
      `emails sent: ${emailsSent} for ${fulfilled} pack versions (${outboxFiles} in the outbox` +
        `${mailedTwice.length ? `; sent twice: ${mailedTwice.slice(0, 10).join(', ')}` : ''})`,
    );
    const missed: string[] = [];
    if (stripePaid.length !== count) missed.push(`${stripePaid.length} paid at Stripe, ${count} expected`);
    if (lost.length > 0) missed.push(`${lost.length} lost`);
    if (builtTwice + paidTwice > 0) missed.push(`${builtTwice + paidTwice} duplicated`);
    if (emailsSent !== fulfilled || mailedTwice.length > 0)
      missed.push(`${emailsSent} emails for ${fulfilled} packs`);
    if (missed.length > 0) throw new Error(`fault run target missed: ${missed.join(', ')}`);
    out('target met: lost 0, duplicated 0, one email per pack version');
  } finally {
    buying = false;
    faulting = false;
    await (gateway as RunningChild | null)?.stop();
    await fake.close();
    await postgres?.stop();
    await world.close();
    await rm(dir, { recursive: true, force: true });
  }
}
