/**
 * Revisions as dependable as first packs, on both state engines, through the fulfilment job (its seam: a
 * stand-in `buildPack` that says which of the buyer's files it got) and the real `orders show|retry`:
 *
 * - a built revision sends the buyer one email with the same pack link; a failed send is retried later
 *   and a second worker racing the first sends nothing more;
 * - a revision out of tries no longer holds the later ones back: the newest accepted upload is built
 *   (its pack with every file before it) and the stuck one is `superseded`;
 * - `orders show` lists each version with its status, tries and errors; `orders retry` puts a stuck
 *   version back into the queue once, and refuses one that is not stuck.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../../gateway/config.js';
import { catalogueWithPrices } from '../../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../../gateway/orders/create-order.js';
import { type FulfilmentDeps, runFulfilment } from '../../../gateway/orders/fulfilment-job.js';
import type { Mailer, OutgoingMail } from '../../../gateway/orders/mailer.js';
import type { OrderAlert } from '../../../gateway/orders/order-alerts.js';
import { orderTokens } from '../../../gateway/orders/order-token.js';
import { packUrl } from '../../../gateway/orders/order-urls.js';
import { orderView } from '../../../gateway/orders/order-view.js';
import { uploadKeyFor } from '../../../gateway/orders/pack-key.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import type { OrderRecord } from '../../../gateway/state/order-state.js';
import { FolderObjectStore } from '../../../pipeline/store/index.js';
import type { CustomerInputs } from '../../../pipeline/tax/products/own-records/customer-inputs.js';
import { STATE_ENGINES } from '../state/state-engines.js';
import { ALICE, NOW_MS, ORDER_SECRET, payThroughWebhook, WORLD_SKU } from './order-world.js';
import { runOrderCommand } from './run-order-command.js';

const BASE = 'https://sbm.example';
const MINUTE = 60_000;
const tokens = orderTokens(ORDER_SECRET);
const BUYER = 'buyer@example.com';

interface World {
  url: string;
  dir: string;
  state: GatewayState;
  store: FolderObjectStore;
  clock: { ms: number };
  now: () => Date;
  /** Every email the mailer accepted, in order. */
  sent: OutgoingMail[];
  /** The mailer refuses while this is set. */
  mailDown: { down: boolean };
  /** The file names each revision build got, in order. */
  builds: { id: string; files: string[] }[];
  /** A build of the buyer's records fails while this says so. */
  failBuild: (customer: CustomerInputs) => boolean;
  alerts: OrderAlert[];
  close(): Promise<void>;
}

const open: World[] = [];

afterEach(async () => {
  for (const world of open.splice(0)) await world.close();
});

async function world(engine: (typeof STATE_ENGINES)[number]): Promise<World> {
  const stateStore = await engine.start();
  const dir = await mkdtemp(join(tmpdir(), 'sbm-revision-delivery-'));
  const state = await openGatewayState(stateStore.url);
  const clock = { ms: NOW_MS };
  const w: World = {
    url: stateStore.url,
    dir,
    state,
    store: new FolderObjectStore(join(dir, 'store')),
    clock,
    now: () => new Date(clock.ms),
    sent: [],
    mailDown: { down: false },
    builds: [],
    failBuild: () => false,
    alerts: [],
    async close() {
      await state.close();
      await stateStore.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  open.push(w);
  return w;
}

function deps(w: World, extra: Partial<FulfilmentDeps> = {}): FulfilmentDeps {
  const mailer: Mailer = {
    description: 'memory',
    send: async (mail) => {
      if (w.mailDown.down) throw new Error(`550 <${mail.to}>: mailbox unavailable`);
      w.sent.push(mail);
    },
    close: () => {},
  };
  return {
    state: w.state,
    store: w.store,
    now: w.now,
    baseUrl: BASE,
    tokens,
    mailer,
    buildPack: async (order: OrderRecord, customer?: CustomerInputs) => {
      if (customer) {
        if (w.failBuild(customer)) throw new Error('the published run cannot be read');
        w.builds.push({ id: order.id, files: customer.files.map((f) => f.name) });
      }
      return new TextEncoder().encode(`PK stand-in ${order.id} ${customer?.files.length ?? 0}`);
    },
    maxAttempts: 2,
    alert: (alert) => w.alerts.push(alert),
    ...extra,
  };
}

/** A paid order whose first pack the job built (and emailed). */
async function fulfilledOrder(w: World): Promise<string> {
  const order = await createOrder(
    { state: w.state, now: w.now },
    checkOrderRequest(catalogueWithPrices(), WORLD_SKU, [ALICE]),
    'checkout',
  );
  expect(await payThroughWebhook(w.state, order.id, w.now())).toBe('paid');
  expect((await runFulfilment(deps(w))).fulfilled).toEqual([order.id]);
  return order.id;
}

/** An accepted upload of one records file (its bytes stored as the route stores them): the next version. */
async function upload(w: World, id: string, name: string, day: number): Promise<number> {
  const text = `time_utc,type,asset,quantity,gbp_value,fee\n2026-04-${String(day).padStart(2, '0')}T08:00:00Z,buy,TAO,1,${day * 10},`;
  const key = uploadKeyFor(id, `upload-${name}`, 1);
  await w.store.put(key, new TextEncoder().encode(text), 'text/csv');
  const added = await w.state.orders.addRevision({
    orderId: id,
    createdAt: w.now(),
    files: [{ name, sha256: `sha-${name}`, rows: 1, role: 'records', key, bytes: text.length }],
  });
  if (added.outcome !== 'added') throw new Error(`upload not added: ${added.outcome}`);
  return added.revision.version;
}

describe.each(STATE_ENGINES)('revisions as dependable as first packs ($name)', (engine) => {
  it('emails the buyer once per built revision, with the same link; a failed send is retried, a racing worker sends nothing more', async () => {
    const w = await world(engine);
    const id = await fulfilledOrder(w);
    expect(w.sent.map((m) => m.key)).toEqual([id]);
    const link = packUrl(BASE, id, tokens.tokenFor(id));
    expect(w.sent[0]!.text).toContain(link);

    expect(await upload(w, id, 'kraken-secret-name.csv', 10)).toBe(2);
    w.mailDown.down = true;
    const first = await runFulfilment(deps(w));
    expect(first.revisionsBuilt).toEqual([{ id, version: 2 }]);
    expect(first.revisionsEmailed).toEqual([]);
    expect(first.revisionsMailFailed).toEqual([
      { id, version: 2, error: 'Error: 550 <<email>>: mailbox unavailable' },
    ]);
    expect(w.alerts.at(-1)).toMatchObject({ event: 'revision-delivery-failed', order_id: id, version: 2 });
    expect(JSON.stringify(w.alerts)).not.toContain(BUYER);
    const [failed] = await w.state.orders.listRevisions(id);
    expect(failed).toMatchObject({ status: 'built', emailedAt: null, leaseOwner: null });
    expect(failed!.lastError).toMatch(/^delivery: /);

    // The mail server is back; the revision waits out its ten minutes, then goes once.
    w.mailDown.down = false;
    expect((await runFulfilment(deps(w))).revisionsEmailed).toEqual([]);
    w.clock.ms += 10 * MINUTE;
    const second = await runFulfilment(deps(w));
    expect(second.revisionsEmailed).toEqual([{ id, version: 2 }]);
    const mail = w.sent.at(-1)!;
    expect(mail).toMatchObject({ key: `${id}.v2`, to: BUYER });
    expect(mail.subject).toContain('Version 2');
    expect(mail.text).toContain(link);
    expect(mail.text).not.toContain('kraken-secret-name');
    expect((await w.state.orders.listRevisions(id))[0]).toMatchObject({
      emailedAt: w.now(),
      lastError: null,
    });
    expect((await runFulfilment(deps(w))).revisionsEmailed).toEqual([]);

    // Version 3, and two workers on two connections racing over its build and its email.
    expect(await upload(w, id, 'more.csv', 11)).toBe(3);
    const other = await openGatewayState(w.url);
    try {
      const reports = await Promise.all([
        runFulfilment(deps(w, { worker: 'A' })),
        runFulfilment(deps(w, { state: other, worker: 'B' })),
      ]);
      expect(reports.flatMap((r) => r.revisionsBuilt)).toEqual([{ id, version: 3 }]);
      expect(reports.flatMap((r) => r.revisionsEmailed)).toEqual([{ id, version: 3 }]);
    } finally {
      await other.close();
    }
    expect(w.sent.map((m) => m.key)).toEqual([id, `${id}.v2`, `${id}.v3`]);
    expect(w.sent.filter((m) => m.text.includes(link))).toHaveLength(3);
  });

  it('does not let a revision out of tries hold the later ones back: the newest upload is built, the stuck one superseded', async () => {
    const w = await world(engine);
    const id = await fulfilledOrder(w);
    expect(await upload(w, id, 'first.csv', 10)).toBe(2);
    // Version 2's own build fails (its files alone); maxAttempts is 2.
    w.failBuild = (customer) => customer.files.length === 1;
    expect((await runFulfilment(deps(w))).revisionsFailed).toMatchObject([{ id, version: 2, stuck: false }]);
    w.clock.ms += MINUTE;
    expect((await runFulfilment(deps(w))).revisionsFailed).toMatchObject([{ id, version: 2, stuck: true }]);
    w.clock.ms += 60 * MINUTE;
    expect((await runFulfilment(deps(w))).revisionsFailed).toEqual([]);

    expect(await upload(w, id, 'second.csv', 11)).toBe(3);
    const report = await runFulfilment(deps(w));
    expect(report.revisionsBuilt).toEqual([{ id, version: 3 }]);
    expect(w.builds).toEqual([{ id, files: ['first.csv', 'second.csv'] }]);
    expect(report.revisionsEmailed).toEqual([{ id, version: 3 }]);
    const revisions = await w.state.orders.listRevisions(id);
    expect(revisions).toMatchObject([
      { version: 2, status: 'superseded', supersededBy: 3, leaseOwner: null, emailedAt: null },
      { version: 3, status: 'built' },
    ]);
    const order = (await w.state.orders.getOrder(id))!;
    const view = orderView(order, BASE, tokens.tokenFor(id), revisions, w.now());
    expect(view.pack_version).toBe(3);
    expect(view.revisions).toMatchObject([
      { version: 2, status: 'superseded', superseded_by: 3 },
      { version: 3, status: 'built' },
    ]);
    // Superseded is final: no retry, no build, no email of version 2.
    expect(await w.state.orders.requeueStuckRevision(id, 2, w.now(), 2)).toMatchObject({
      outcome: 'not-stuck',
    });
    w.clock.ms += 60 * MINUTE;
    const after = await runFulfilment(deps(w));
    expect([...after.revisionsBuilt, ...after.revisionsEmailed, ...after.revisionsFailed]).toEqual([]);
    expect(w.sent.map((m) => m.key)).toEqual([id, `${id}.v3`]);
  });

  it('requeues a stuck version once when operators retry it at once on two connections', async () => {
    const w = await world(engine);
    const id = await fulfilledOrder(w);
    expect(await upload(w, id, 'first.csv', 10)).toBe(2);
    w.failBuild = () => true;
    await runFulfilment(deps(w));
    w.clock.ms += MINUTE;
    expect((await runFulfilment(deps(w))).revisionsFailed).toMatchObject([{ stuck: true }]);
    const other = await openGatewayState(w.url);
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 ? other : w.state).orders.requeueStuckRevision(id, 2, w.now(), 2),
        ),
      );
      expect(outcomes.filter((o) => o.outcome === 'requeued')).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome === 'not-stuck')).toHaveLength(7);
    } finally {
      await other.close();
    }
    expect((await w.state.orders.orderHistory(id)).retries).toMatchObject([
      { version: 2, attemptsBefore: 2, errorBefore: 'Error: the published run cannot be read' },
    ]);
    expect(await w.state.orders.listRevisions(id)).toMatchObject([
      {
        status: 'pending',
        attempts: 0,
        nextAttemptAt: null,
        lastError: 'Error: the published run cannot be read',
      },
    ]);
  });

  it('shows each version in `orders show` and puts a stuck one back with `orders retry`, once', async () => {
    const w = await world(engine);
    const id = await fulfilledOrder(w);
    expect(await upload(w, id, 'kraken-secret-name.csv', 10)).toBe(2);
    w.failBuild = () => true;
    await runFulfilment(deps(w));
    w.clock.ms += MINUTE;
    expect((await runFulfilment(deps(w))).revisionsFailed).toMatchObject([{ id, version: 2, stuck: true }]);

    const config = loadGatewayConfig({
      SBM_STATE_URL: w.url,
      SBM_STORE_URL: `file:${join(w.dir, 'store')}`,
      SBM_FULFIL_MAX_ATTEMPTS: '2',
    });
    const run = (...args: string[]) => runOrderCommand(config, w.now, 'orders', ...args);
    const shown = (await run('show', id)).out;
    expect(shown).toContain('version 1  built');
    expect(shown).toMatch(/version 2 {2}pending {2}added .* \(1 file\)/);
    expect(shown).toContain('tries 2 of 2');
    expect(shown).toContain('last error: Error: the published run cannot be read');
    expect(shown).toContain(`STUCK: fix the cause, then \`sbm-gateway orders retry ${id} --version 2\``);
    const json = JSON.parse((await run('show', id, '--json')).out) as { versions: unknown[] };
    expect(json.versions).toEqual([
      expect.objectContaining({ version: 2, status: 'pending', files: 1, attempts: 2, stuck: true }),
    ]);
    for (const secret of ['kraken-secret-name', BUYER, ALICE, tokens.tokenFor(id)])
      expect(shown + JSON.stringify(json), secret).not.toContain(secret);

    // The order itself is not stuck: `orders retry ID` takes its stuck version; a second run changes nothing.
    expect((await run('retry', id)).out).toContain(`order ${id} version 2 is back in the queue`);
    expect((await run('retry', id)).out).toContain(`order ${id} version 2 was already put back in the queue`);
    expect(JSON.parse((await run('retry', id, '--version', '2', '--json')).out)).toMatchObject({
      id,
      version: 2,
      outcome: 'already-queued',
    });
    await expect(run('retry', id, '--version', '7')).rejects.toThrow(`order ${id} has no version 7`);
    expect(await w.state.orders.listRevisions(id)).toMatchObject([{ status: 'pending', attempts: 0 }]);

    w.failBuild = () => false;
    const fixed = await runFulfilment(deps(w));
    expect(fixed.revisionsBuilt).toEqual([{ id, version: 2 }]);
    expect(fixed.revisionsEmailed).toEqual([{ id, version: 2 }]);
    const after = (await run('show', id)).out;
    expect(after).toMatch(/version 2 {2}built {2}added .* built \S+ {2}email sent /);
    expect(after).toContain('version 2 put back into the queue by an operator after 2 tries');
    await expect(run('retry', id, '--version', '2')).rejects.toThrow(
      `order ${id} version 2 is not stuck: it is built`,
    );
    // The order-level retry answers as before.
    await expect(run('retry', id)).rejects.toThrow(`order ${id} is not stuck: it is fulfilled`);
  });
});
