/**
 * Issue 36, a revised pack at no charge: `POST /tax/orders/{id}/records?t=` on the real gateway (real
 * SQLite state, real folder store, the real reader of the buyer's files), the fulfilment job building
 * each revision once (its established seam: a stand-in `buildPack` that says which inputs it got).
 *
 * - only the order's token opens the route (the one 404), and only while the order takes uploads (409);
 * - hostile uploads (wrong encoding, 50 MB, a body without a length, formula cells, a row a byte long,
 *   the same file twice, another site's form) each get a 4xx with a detail and leave the store and the
 *   state exactly as they were;
 * - an accepted upload is version 2; the job builds it once, the download then serves it; a crash
 *   between the v2 upload and its UPDATE leaves v1 served and the next run keeps the stored v2 pack;
 *   two workers racing build every revision once, an order's versions in turn (both engines);
 * - a build that refuses the records marks the revision rejected, deletes its files, keeps v1 served;
 * - the purge deletes every object of the order; nothing of the buyer (token, names, content) is logged.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../../gateway/config.js';
import { catalogueWithPrices } from '../../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../../gateway/orders/create-order.js';
import { type FulfilmentDeps, runFulfilment } from '../../../gateway/orders/fulfilment-job.js';
import { outboxMailer } from '../../../gateway/orders/mailer.js';
import type { OrderAlert } from '../../../gateway/orders/order-alerts.js';
import { orderServicesFrom } from '../../../gateway/orders/order-services.js';
import { orderTokens } from '../../../gateway/orders/order-token.js';
import { purgeExpiredPacks } from '../../../gateway/orders/purge.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import type { OrderRecord } from '../../../gateway/state/order-state.js';
import { FolderObjectStore } from '../../../pipeline/store/index.js';
import {
  type CustomerInputs,
  CustomerInputsRejected,
} from '../../../pipeline/tax/products/own-records/customer-inputs.js';
import { type GatewayUnderTest, gatewayUnderTest } from '../../support/gateway-under-test.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';
import { NOW_MS, ORDER_SECRET, payThroughWebhook, WORLD_SKU } from './order-world.js';

const BASE = 'https://sbm.example';
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const tokens = orderTokens(ORDER_SECRET);
const KEYRING_ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const KEYRING_BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';

/** The buyer's files of these tests: their names and contents are what must never reach a log. */
const TRADES_NAME = 'kraken-trades-2026.csv';
const TRADES = [
  'time_utc,type,asset,quantity,gbp_value,fee',
  '2026-04-10T12:00:00Z,buy,TAO,10,3000,4.5',
  '2026-04-12T09:30:00Z,withdrawal,TAO,10,,',
].join('\n');
const MORE_NAME = 'binance-more.csv';
const MORE = ['time_utc,type,asset,quantity,gbp_value,fee', '2026-04-15T08:00:00Z,buy,TAO,2,640,'].join('\n');
const ADDRESSES = `address,label\n${KEYRING_BOB},Kraken deposit secret-label-xyz\n`;

let dir: string;
let store: FolderObjectStore;
let stateStore: TestStateStore;
let gw: GatewayUnderTest;
const alerts: OrderAlert[] = [];
let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;
const now = () => new Date(gw.clock.nowMs);

/** What the stand-in build was given, per order and version; set `refuse` to refuse the next build. */
const builds: { id: string; files: string[]; records: number; addresses: number }[] = [];
let refuse: CustomerInputsRejected | null = null;

async function fakeBuild(order: OrderRecord, customer?: CustomerInputs): Promise<Uint8Array> {
  if (customer && refuse) {
    const error = refuse;
    refuse = null;
    throw error;
  }
  const entry = {
    id: order.id,
    files: customer?.files.map((f) => `${f.name}:${f.rows}`) ?? [],
    records: customer?.records.length ?? 0,
    addresses: customer?.addresses.length ?? 0,
  };
  builds.push(entry);
  return new TextEncoder().encode(`PK fake pack ${JSON.stringify(entry)}`);
}

function jobDeps(extra: Partial<FulfilmentDeps> = {}): FulfilmentDeps {
  return {
    state: gw.state,
    store,
    now,
    baseUrl: BASE,
    tokens,
    mailer: outboxMailer(join(dir, 'outbox'), 'packs@sbm.example'),
    buildPack: fakeBuild,
    maxAttempts: 5,
    alert: (alert) => alerts.push(alert),
    ...extra,
  };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-records-'));
  store = new FolderObjectStore(join(dir, 'store'));
  stateStore = await STATE_ENGINES[0]!.start();
  const config = loadGatewayConfig({
    SBM_STATE_URL: stateStore.url,
    SBM_STORE_URL: `file:${join(dir, 'store')}`,
    SBM_BASE_URL: BASE,
    SBM_ORDER_SECRET: ORDER_SECRET,
    SBM_OUTBOX_DIR: join(dir, 'outbox'),
  });
  gw = await gatewayUnderTest({
    storeDir: join(dir, 'store'),
    stateUrl: stateStore.url,
    nowMs: NOW_MS,
    baseUrl: BASE,
    orders: orderServicesFrom(config.orders, store, (alert) => alerts.push(alert)),
    transport: 'http',
  });
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await stateStore?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A paid order (paid through the webhook); `fulfil`: its first pack built by the job. */
async function newOrder(fulfil = true): Promise<{ id: string; token: string }> {
  const order = await createOrder(
    { state: gw.state, now },
    checkOrderRequest(catalogueWithPrices(), WORLD_SKU, [KEYRING_ALICE]),
    'checkout',
  );
  expect(await payThroughWebhook(gw.state, order.id, now())).toBe('paid');
  if (fulfil) {
    const report = await runFulfilment(jobDeps());
    expect(report.fulfilled).toContain(order.id);
  }
  return { id: order.id, token: tokens.tokenFor(order.id) };
}

type Part = { field: string; name?: string; text: string | Uint8Array };

function form(parts: Part[]): FormData {
  const body = new FormData();
  for (const part of parts) {
    if (part.name === undefined) body.append(part.field, String(part.text));
    else body.append(part.field, new Blob([part.text]), part.name);
  }
  return body;
}

/** The route in-process (`app.fetch`, a fresh address each: the tax limit is 20 an hour per address). */
function upload(
  id: string,
  token: string | null,
  body: FormData | string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const query = token === null ? '' : `?t=${token}`;
  return gw.app.fetch(
    new Request(`${BASE}/tax/orders/${id}/records${query}`, { method: 'POST', headers, body }),
    { ip: freshIp() },
  );
}

const getJson = async (id: string, token: string) => {
  const response = await gw.app.fetch(new Request(`${BASE}/tax/orders/${id}?t=${token}`), { ip: freshIp() });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown> & {
    pack_version?: number;
    records_url?: string;
    revisions?: {
      version: number;
      status: string;
      files: { name: string; sha256: string; rows: number }[];
      problem?: string;
    }[];
  };
};

const download = (id: string, token: string) =>
  gw.app.fetch(new Request(`${BASE}/tax/orders/${id}/pack?t=${token}`), { ip: freshIp() });

/** Everything the store and the state hold of an order, to prove a refusal changed neither. */
async function snapshotOf(id: string) {
  return {
    keys: await store.list('tax-packs/'),
    revisions: await gw.state.orders.listRevisions(id),
    order: await gw.state.orders.getOrder(id),
  };
}

describe('adding records to an order', () => {
  let id: string;
  let token: string;

  beforeAll(async () => {
    ({ id, token } = await newOrder());
  });

  it('opens only with the order token: a wrong or missing token gets the one 404 and nothing is stored', async () => {
    const before = await snapshotOf(id);
    const good = form([{ field: 'records', name: TRADES_NAME, text: TRADES }]);
    const wrong = await upload(id, tokens.tokenFor('ord_00000000000000000000000000000000'), good);
    const missing = await upload(id, null, good);
    const unknown = await upload('ord_00000000000000000000000000000000', token, good);
    for (const response of [wrong, missing, unknown]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ detail: 'Unknown order, or wrong or missing token.' });
    }
    const page = await upload(id, 'x'.repeat(64), good, { accept: BROWSER });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('Order not found');
    expect(await snapshotOf(id)).toEqual(before);
  });

  it('accepts good files as version 2, pending; the job builds it once and the same link serves it', async () => {
    const v1 = new Uint8Array(await (await download(id, token)).arrayBuffer());
    expect((await getJson(id, token)).pack_version).toBe(1);

    const response = await upload(
      id,
      token,
      form([
        { field: 'records', name: TRADES_NAME, text: TRADES },
        { field: 'addresses', text: ADDRESSES },
        { field: 'opening', name: '', text: '' },
      ]),
    );
    expect(response.status).toBe(202);
    expect(response.headers.get('x-pack-version')).toBe('2');
    const view = (await response.json()) as Awaited<ReturnType<typeof getJson>>;
    expect(view.pack_version).toBe(1);
    expect(view.records_url).toBe(`${BASE}/tax/orders/${id}/records?t=${token}`);
    expect(view.revisions).toEqual([
      {
        version: 2,
        status: 'pending',
        created_at: now().toISOString(),
        files: [
          { name: TRADES_NAME, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), rows: 2, role: 'records' },
          {
            name: 'addresses (typed in)',
            sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
            rows: 1,
            role: 'addresses',
          },
        ],
      },
    ]);
    // The bytes are kept under the order's prefix, named by the upload, not by the buyer's file name.
    const keys = await store.list(`tax-packs/${id}.`);
    expect(keys).toHaveLength(3);
    expect(keys.filter((k) => k.includes('.files/'))).toHaveLength(2);
    expect(keys.join(' ')).not.toContain('kraken');
    // Until the job runs, the link serves version 1.
    expect(new Uint8Array(await (await download(id, token)).arrayBuffer())).toEqual(v1);

    const built = builds.length;
    const report = await runFulfilment(jobDeps());
    expect(report.revisionsBuilt).toEqual([{ id, version: 2 }]);
    expect(builds.slice(built)).toEqual([
      { id, files: [`${TRADES_NAME}:2`, 'addresses (typed in):1'], records: 2, addresses: 1 },
    ]);
    const served = await download(id, token);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-pack-version')).toBe('2');
    expect(served.headers.get('content-disposition')).toBe(
      `attachment; filename="sbm-tax-pack-${id}-v2.zip"`,
    );
    const v2 = new Uint8Array(await served.arrayBuffer());
    expect(v2).not.toEqual(v1);
    expect(await store.get(`tax-packs/${id}.v2.zip`)).toEqual(v2);
    expect(await store.get(`tax-packs/${id}.zip`)).toEqual(v1);
    const after = await getJson(id, token);
    expect(after.pack_version).toBe(2);
    expect(after.revisions?.[0]?.status).toBe('built');

    // Exactly once: another run builds nothing.
    const again = await runFulfilment(jobDeps());
    expect(again.revisionsBuilt).toEqual([]);
    expect(builds.filter((b) => b.id === id)).toHaveLength(2);
  });

  it('gives version 3 the files of versions 2 and 3, read again from the store', async () => {
    const response = await upload(id, token, form([{ field: 'records', name: MORE_NAME, text: MORE }]));
    expect(response.status).toBe(202);
    expect(response.headers.get('x-pack-version')).toBe('3');
    const report = await runFulfilment(jobDeps());
    expect(report.revisionsBuilt).toEqual([{ id, version: 3 }]);
    expect(builds.at(-1)).toEqual({
      id,
      files: [`${TRADES_NAME}:2`, 'addresses (typed in):1', `${MORE_NAME}:1`],
      records: 3,
      addresses: 1,
    });
    expect((await download(id, token)).headers.get('x-pack-version')).toBe('3');
  });

  describe('hostile uploads: a 4xx with a detail, and nothing stored', () => {
    const refused = async (
      response: Promise<Response>,
      status: number,
      match: RegExp,
    ): Promise<{
      detail: string;
      problems?: { file: string; line: number; column: string | null; reason: string }[];
    }> => {
      const before = await snapshotOf(id);
      const answer = await response;
      expect(answer.status).toBe(status);
      const body = (await answer.json()) as { detail: string; problems?: never[] };
      expect(body.detail).toMatch(match);
      expect(await snapshotOf(id)).toEqual(before);
      return body;
    };

    it('wrong encoding (UTF-16, Latin-1)', async () => {
      const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from(TRADES, 'utf16le')]);
      const body = await refused(
        upload(id, token, form([{ field: 'records', name: 'utf16.csv', text: utf16 }])),
        422,
        /not added/,
      );
      expect(body.problems).toEqual([
        { file: 'utf16.csv', line: 0, column: null, reason: expect.stringMatching(/UTF-8|encod/i) },
      ]);
      const latin1 = Buffer.from(`${TRADES}\n2026-04-16T08:00:00Z,buy,TAO,1,\xa3300,\n`, 'latin1');
      const second = await refused(
        upload(id, token, form([{ field: 'records', name: 'latin1.csv', text: new Uint8Array(latin1) }])),
        422,
        /not added/,
      );
      expect(second.problems?.[0]?.file).toBe('latin1.csv');
    });

    it('formula cells, a row a byte long, the same file twice', async () => {
      const formula = await refused(
        upload(
          id,
          token,
          form([{ field: 'addresses', text: `address,label\n${KEYRING_ALICE},=HYPERLINK("http://x")\n` }]),
        ),
        422,
        /not added/,
      );
      expect(formula.problems?.[0]).toMatchObject({ line: 2, column: 'label' });
      const tiny = await refused(
        upload(id, token, form([{ field: 'records', name: 'tiny.csv', text: `${TRADES}\n1\n` }])),
        422,
        /not added/,
      );
      expect(tiny.problems?.[0]).toMatchObject({ file: 'tiny.csv', line: 4 });
      // The same file again (already in version 2), and one file twice in one upload.
      const again = await refused(
        upload(id, token, form([{ field: 'records', name: 'renamed.csv', text: TRADES }])),
        422,
        /not added/,
      );
      expect(again.problems?.[0]?.reason).toMatch(/already added/);
      const twice = `${MORE}\n2026-04-20T08:00:00Z,buy,TAO,1,300,`;
      const both = await refused(
        upload(
          id,
          token,
          form([
            { field: 'records', name: 'a.csv', text: twice },
            { field: 'records', name: 'b.csv', text: twice },
          ]),
        ),
        422,
        /not added/,
      );
      expect(both.problems?.[0]).toMatchObject({
        file: 'b.csv',
        reason: expect.stringMatching(/already added/),
      });
    });

    it('not a form (415), an empty form (400), an unknown field (400), another site (403)', async () => {
      await refused(upload(id, token, TRADES, { 'content-type': 'text/csv' }), 415, /multipart\/form-data/);
      await refused(upload(id, token, form([{ field: 'addresses', text: '  ' }])), 400, /No file/);
      await refused(upload(id, token, form([{ field: 'evil', text: 'x' }])), 400, /Unknown form field/);
      await refused(
        upload(id, token, form([{ field: 'records', name: 'x.csv', text: MORE }]), {
          origin: 'https://evil.example',
        }),
        403,
        /Cross-origin/,
      );
    });

    it('50 MB: refused from its Content-Length before the body is read (413), over real HTTP', async () => {
      const before = await snapshotOf(id);
      const started = Date.now();
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(`${gw.url}/tax/orders/${id}/records?t=${token}`, {
          method: 'POST',
          headers: {
            'content-type': 'multipart/form-data; boundary=x',
            'content-length': String(50 * 1024 * 1024),
          },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.setTimeout(5_000, () =>
          req.destroy(new Error('no answer in 5 s: the server waited for the body')),
        );
        // Only the first kilobyte is ever sent: the answer must come without the rest.
        req.write('x'.repeat(1024));
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).detail).toMatch(/too large/);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await snapshotOf(id)).toEqual(before);
    });

    it('a body without a length is cut off at the limit while it is read (413), over real HTTP', async () => {
      gw.clock.nowMs += 3_600_000; // a fresh hour of the tax limit for 127.0.0.1
      const before = await snapshotOf(id);
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      let sent = 0;
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(`${gw.url}/tax/orders/${id}/records?t=${token}`, {
          method: 'POST',
          headers: { 'content-type': 'multipart/form-data; boundary=x', 'transfer-encoding': 'chunked' },
        });
        let answered = false;
        req.on('response', (res) => {
          answered = true;
          let body = '';
          res.on('data', (c) => {
            body += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', (error) => (answered ? undefined : reject(error)));
        const pump = () => {
          while (!answered && sent < 50) {
            sent++;
            if (!req.write(chunk)) return req.once('drain', pump);
          }
          if (!answered) req.end();
        };
        pump();
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).detail).toMatch(/too large/);
      expect(sent, 'the server answered before the 50 MB were sent').toBeLessThan(50);
      expect(await snapshotOf(id)).toEqual(before);
    });
  });

  it('shows a browser the problems as a page (escaped), with the way back', async () => {
    const before = await snapshotOf(id);
    const response = await upload(
      id,
      token,
      form([
        {
          field: 'records',
          name: 'Tom & Jerry\'s "trades".csv',
          text: `${TRADES.split('\n')[0]}\n2026-04-10T12:00:00Z,buy,<b>XYZ</b>,1,1,`,
        },
      ]),
      { accept: BROWSER, origin: BASE },
    );
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('Your files were not added');
    expect(html).toContain('Tom &amp; Jerry&#39;s &quot;trades&quot;.csv');
    expect(html).not.toContain('<b>XYZ</b>');
    expect(html).toMatch(/line 2, column asset: /);
    expect(html).toContain(`href="/tax/orders/${id}?t=${token}"`);
    expect(await snapshotOf(id)).toEqual(before);
  });

  it('refuses uploads before payment and after the pack expired (409), storing nothing', async () => {
    const unpaid = await createOrder(
      { state: gw.state, now },
      checkOrderRequest(catalogueWithPrices(), WORLD_SKU, [KEYRING_ALICE]),
      'checkout',
    );
    const r1 = await upload(
      unpaid.id,
      tokens.tokenFor(unpaid.id),
      form([{ field: 'records', name: 'a.csv', text: MORE }]),
    );
    expect(r1.status).toBe(409);
    expect(((await r1.json()) as { detail: string }).detail).toMatch(/not paid yet/);
    expect(await gw.state.orders.listRevisions(unpaid.id)).toEqual([]);
  });
});

describe('the fulfilment job and revisions', () => {
  it('a crash between the v2 pack upload and its UPDATE: v1 stays served, the next run keeps the stored v2', async () => {
    const { id, token } = await newOrder();
    expect(
      (await upload(id, token, form([{ field: 'records', name: TRADES_NAME, text: TRADES }]))).status,
    ).toBe(202);
    // The first worker stores the v2 pack, then stalls there (as if dead: its lease stays held).
    let stored!: () => void;
    const reached = new Promise<void>((resolve) => {
      stored = resolve;
    });
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const built = builds.length;
    const stalled = runFulfilment(
      jobDeps({
        worker: 'worker-that-dies',
        leaseMs: 60_000,
        afterPackStored: async (_order, version) => {
          if (version !== 2) return;
          stored();
          await woken;
        },
      }),
    );
    await reached;
    expect(builds.length).toBe(built + 1);
    const v2 = await store.get(`tax-packs/${id}.v2.zip`);
    expect(v2).not.toBeNull();
    const [held] = await gw.state.orders.listRevisions(id);
    expect(held).toMatchObject({ status: 'pending', leaseOwner: 'worker-that-dies', attempts: 1 });
    expect((await download(id, token)).headers.get('x-pack-version')).toBe('1');
    // While the lease lasts another run leaves it alone; after it, the run completes it without a rebuild.
    expect((await runFulfilment(jobDeps({ worker: 'early' }))).revisionsBuilt).toEqual([]);
    gw.clock.nowMs += 61_000;
    const report = await runFulfilment(jobDeps({ worker: 'next' }));
    expect(report.revisionsReused).toEqual([{ id, version: 2 }]);
    expect(report.revisionsBuilt).toEqual([{ id, version: 2 }]);
    expect(builds.length).toBe(built + 1);
    const served = await download(id, token);
    expect(served.headers.get('x-pack-version')).toBe('2');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(v2);
    const done = await gw.state.orders.listRevisions(id);
    expect(done).toMatchObject([{ status: 'built', attempts: 2, leaseOwner: null }]);
    // The stalled worker wakes up past its lease: its UPDATE finds the revision no longer its own.
    wake();
    const late = await stalled;
    expect(late.revisionsBuilt).toEqual([]);
    expect(late.revisionsLost).toEqual([{ id, version: 2 }]);
    expect(await gw.state.orders.listRevisions(id)).toEqual(done);
  });

  it('a build that refuses the records: the revision is rejected, its files deleted, v1 still served', async () => {
    const { id, token } = await newOrder();
    const v1 = new Uint8Array(await (await download(id, token)).arrayBuffer());
    expect(
      (await upload(id, token, form([{ field: 'records', name: 'sells.csv', text: TRADES }]))).status,
    ).toBe(202);
    const files = (await store.list(`tax-packs/${id}.`)).filter((k) => k.includes('.files/'));
    expect(files).toHaveLength(1);
    refuse = new CustomerInputsRejected([
      { file: 'sells.csv', line: 3, column: 'quantity', reason: 'the sell empties the TAO pool below zero' },
    ]);
    const alertsBefore = alerts.length;
    const report = await runFulfilment(jobDeps());
    expect(report.revisionsRejected).toEqual([{ id, version: 2 }]);
    expect(report.revisionsBuilt).toEqual([]);
    expect(await store.list(`tax-packs/${id}.`)).toEqual([`tax-packs/${id}.zip`]);
    const served = await download(id, token);
    expect(served.headers.get('x-pack-version')).toBe('1');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(v1);
    const view = await getJson(id, token);
    expect(view.pack_version).toBe(1);
    expect(view.revisions).toMatchObject([
      {
        version: 2,
        status: 'rejected',
        problem: 'sells.csv line 3, column quantity: the sell empties the TAO pool below zero',
      },
    ]);
    // The alert names the order and the version only.
    expect(JSON.stringify(alerts.slice(alertsBefore))).not.toContain('sells.csv');
    const page = await gw.app.fetch(
      new Request(`${BASE}/tax/orders/${id}?t=${token}`, { headers: { accept: BROWSER } }),
      {
        ip: freshIp(),
      },
    );
    const html = await page.text();
    expect(html).toContain('Version 2</strong>: not built');
    expect(html).toContain('the sell empties the TAO pool below zero');
    // Nothing is built again, and the next upload (the same file, since it was not kept) is version 3.
    expect((await runFulfilment(jobDeps())).revisionsRejected).toEqual([]);
    const next = await upload(id, token, form([{ field: 'records', name: 'sells.csv', text: TRADES }]));
    expect(next.status).toBe(202);
    expect(next.headers.get('x-pack-version')).toBe('3');
  });

  it('takes records while the first pack is still being made: one run builds version 1, then version 2', async () => {
    const { id, token } = await newOrder(false);
    const response = await upload(id, token, form([{ field: 'records', name: TRADES_NAME, text: TRADES }]));
    expect(response.status).toBe(202);
    const view = (await response.json()) as Awaited<ReturnType<typeof getJson>>;
    expect(view.status).toBe('paid');
    expect(view.pack_version).toBeUndefined();
    const report = await runFulfilment(jobDeps());
    expect(report.fulfilled).toEqual([id]);
    expect(report.revisionsBuilt.filter((r) => r.id === id)).toEqual([{ id, version: 2 }]);
    expect((await download(id, token)).headers.get('x-pack-version')).toBe('2');
  });

  it('a build that fails (not a refusal) is retried later; its alert masks the file names it quotes', async () => {
    const { id, token } = await newOrder();
    expect((await upload(id, token, form([{ field: 'records', name: MORE_NAME, text: MORE }]))).status).toBe(
      202,
    );
    const alertsBefore = alerts.length;
    const failing = await runFulfilment(
      jobDeps({
        buildPack: async (order, customer) => {
          if (customer) throw new Error(`cannot read ${MORE_NAME} row 2 at the chain`);
          return fakeBuild(order, customer);
        },
      }),
    );
    expect(failing.revisionsFailed).toEqual([
      { id, version: 2, error: 'Error: cannot read <file> row 2 at the chain', stuck: false },
    ]);
    expect(JSON.stringify(alerts.slice(alertsBefore))).not.toContain(MORE_NAME);
    const [held] = await gw.state.orders.listRevisions(id);
    expect(held).toMatchObject({
      status: 'pending',
      leaseOwner: null,
      lastError: 'Error: cannot read <file> row 2 at the chain',
    });
    // After the backoff (a minute) the next run builds it.
    gw.clock.nowMs += 61_000;
    expect((await runFulfilment(jobDeps())).revisionsBuilt).toContainEqual({ id, version: 2 });
  });

  it('the purge deletes every object of the order and the names of its files; uploads then get 409', async () => {
    const { id, token } = await newOrder();
    expect(
      (await upload(id, token, form([{ field: 'records', name: TRADES_NAME, text: TRADES }]))).status,
    ).toBe(202);
    await runFulfilment(jobDeps());
    expect(await store.list(`tax-packs/${id}.`)).toHaveLength(3);
    const order = (await gw.state.orders.getOrder(id))!;
    gw.clock.nowMs = order.packExpiresAt!.getTime();
    const purged = await purgeExpiredPacks({ state: gw.state, store }, now());
    expect(purged.purged).toContain(id);
    expect(await store.list(`tax-packs/${id}.`)).toEqual([]);
    expect((await gw.state.orders.listRevisions(id))[0]!.files).toEqual([]);
    const late = await upload(id, token, form([{ field: 'records', name: MORE_NAME, text: MORE }]));
    expect(late.status).toBe(409);
    expect(((await late.json()) as { detail: string }).detail).toMatch(/can no longer be added/);
  });

  it('logged nothing of the buyer: no token, no file name, no content', () => {
    const logged = JSON.stringify({ logs: gw.logs, alerts, errors: gw.errors.map(String) });
    expect(gw.logs.length).toBeGreaterThan(10);
    expect(gw.logs.some((entry) => entry.route === '/tax/orders/:order_id/records')).toBe(true);
    for (const secret of [
      TRADES_NAME,
      MORE_NAME,
      'sells.csv',
      'utf16.csv',
      'secret-label-xyz',
      'HYPERLINK',
      '3000',
      '?t=',
    ]) {
      expect(logged, secret).not.toContain(secret);
    }
    expect(logged).not.toMatch(/[0-9a-f]{64}/);
  });
});

describe.each(STATE_ENGINES)('two workers racing over revisions ($name)', (engine) => {
  let raceStore: TestStateStore;
  let a: GatewayState;
  let b: GatewayState;

  beforeAll(async () => {
    raceStore = await engine.start();
    a = await openGatewayState(raceStore.url);
    b = await openGatewayState(raceStore.url);
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await raceStore?.stop();
  });

  it('builds each revision of 6 orders exactly once, each order’s versions in turn', async () => {
    const at = new Date(NOW_MS);
    const raceDir = await mkdtemp(join(tmpdir(), 'sbm-race-'));
    const raceStoreObjects = new FolderObjectStore(raceDir);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const order = await createOrder(
        { state: a, now: () => at },
        checkOrderRequest(catalogueWithPrices(), WORLD_SKU, [KEYRING_ALICE]),
        'checkout',
      );
      expect(await payThroughWebhook(a, order.id, at)).toBe('paid');
      ids.push(order.id);
    }
    const log: string[] = [];
    const deps = (state: GatewayState, worker: string): FulfilmentDeps => ({
      state,
      store: raceStoreObjects,
      now: () => at,
      baseUrl: BASE,
      tokens,
      mailer: outboxMailer(join(raceDir, 'outbox'), 'packs@sbm.example'),
      buildPack: async (order, customer) => {
        await new Promise((resolve) => setTimeout(resolve, 15));
        const version = customer ? customer.files.length + 1 : 1;
        log.push(`${order.id} v${version} ${worker}`);
        return new TextEncoder().encode(`${order.id} v${version}`);
      },
      maxAttempts: 5,
      worker,
      alert: () => {},
    });
    await runFulfilment(deps(a, 'first'));
    // Two uploads per order, each one file: versions 2 and 3.
    for (const id of ids) {
      for (const n of [1, 2]) {
        const key = `tax-packs/${id}.files/race${n}/1`;
        const text = `time_utc,type,asset,quantity,gbp_value,fee\n2026-04-1${n}T08:00:00Z,buy,TAO,${n},${n * 300},`;
        await raceStoreObjects.put(key, new TextEncoder().encode(text), 'text/csv');
        const added = await a.orders.addRevision({
          orderId: id,
          createdAt: new Date(at.getTime() + n),
          files: [{ name: `r${n}.csv`, sha256: `s${n}`, rows: 1, role: 'records', key, bytes: text.length }],
        });
        expect(added).toMatchObject({ outcome: 'added', revision: { version: n + 1 } });
      }
    }
    const reports = await Promise.all([runFulfilment(deps(a, 'A')), runFulfilment(deps(b, 'B'))]);
    const built = log.filter((line) => !line.includes(' v1 '));
    expect(built).toHaveLength(12);
    expect(new Set(built.map((line) => line.split(' ').slice(0, 2).join(' '))).size).toBe(12);
    for (const id of ids) {
      const mine = built.filter((line) => line.startsWith(id)).map((line) => line.split(' ')[1]);
      expect(mine).toEqual(['v2', 'v3']);
      expect((await a.orders.listRevisions(id)).map((r) => r.status)).toEqual(['built', 'built']);
    }
    const done = reports.flatMap((r) => r.revisionsBuilt);
    expect(done).toHaveLength(12);
    expect(reports.flatMap((r) => [...r.revisionsLost, ...r.revisionsFailed, ...r.revisionsReused])).toEqual(
      [],
    );
    expect(new Set(built.map((line) => line.split(' ')[2])).size).toBe(2);
    await rm(raceDir, { recursive: true, force: true });
  }, 120_000);
});
