/**
 * The edges of HTTP on the real Node server (`startGateway`): requests Node's parser rejects get the
 * one error shape and a closed connection; a known path asked with a method it does not serve is a 405
 * with `Allow`; unknown paths stay 404; HEAD answers like GET without the body. Raw TCP where a fetch
 * client would refuse to send the bytes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, get as httpGet } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../gateway/app.js';
import { loadGatewayConfig } from '../../gateway/config.js';
import { KEEP_ALIVE_MS, type RunningGateway, startGateway } from '../../gateway/server.js';

let dir: string;
let gateway: RunningGateway;
let port: number;
const logs: RequestLogEntry[] = [];
const errors: unknown[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-http-edges-'));
  // Nothing published: data routes answer 503, which is all these tests need of them.
  const config = loadGatewayConfig({
    SBM_HOST: '127.0.0.1',
    SBM_PORT: '0',
    SBM_STATE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
    SBM_STORE_URL: `file:${join(dir, 'store')}`,
    SBM_BASE_URL: 'https://sbm.example',
  });
  gateway = await startGateway(config, {
    log: (entry) => logs.push(entry),
    onError: (error) => errors.push(error),
  });
  port = Number(new URL(gateway.url).port);
});

afterAll(async () => {
  await gateway?.close();
  await rm(dir, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
  /** The server closed the connection (we never do). */
  closedByServer: boolean;
}

/** Sends bytes on a fresh connection and reads until the server closes it (or 5 s pass). */
function rawRequest(bytes: Buffer | string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closedByServer = false;
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      closedByServer = true;
    });
    // The server may close while we are still writing an oversized request: what it sent still counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) {
        reject(new Error(`no complete HTTP answer: ${JSON.stringify(text)}`));
        return;
      }
      const [statusLine = '', ...headerLines] = text.slice(0, split).split('\r\n');
      const headers = new Map<string, string>();
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: text.slice(split + 4),
        closedByServer: closedByServer || socket.readableEnded,
      });
    });
    socket.write(bytes);
  });
}

function expectClosedWithDetail(answer: RawAnswer, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.headers.get('connection')).toBe('close');
  expect(Number(answer.headers.get('content-length'))).toBe(Buffer.byteLength(answer.body));
  const body = JSON.parse(answer.body) as { detail: unknown };
  expect(Object.keys(body)).toEqual(['detail']);
  expect(typeof body.detail).toBe('string');
  expect(answer.closedByServer).toBe(true);
}

describe('requests the HTTP parser rejects', () => {
  it('a bad byte in a header value: 400 with a {"detail"} body, connection closed', async () => {
    const answer = await rawRequest(
      Buffer.from('GET /api/v1/subnets HTTP/1.1\r\nHost: gateway.test\r\nX-Bad: a\x01b\r\n\r\n', 'latin1'),
    );
    expectClosedWithDetail(answer, 400);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).detail).toMatch(/^Bad request: /);
  });

  it('a bad byte in a header name and a broken request line: 400 likewise', async () => {
    expectClosedWithDetail(
      await rawRequest('GET /api/v1/subnets HTTP/1.1\r\nHost: gateway.test\r\nX(Bad: 1\r\n\r\n'),
      400,
    );
    expectClosedWithDetail(await rawRequest('NOT A REQUEST\r\n\r\n'), 400);
  });

  it('headers over the size limit: 431 with a {"detail"} body, connection closed', async () => {
    const answer = await rawRequest(
      `GET /api/v1/subnets HTTP/1.1\r\nHost: gateway.test\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectClosedWithDetail(answer, 431);
    expect(JSON.parse(answer.body)).toEqual({ detail: 'Request header fields too large' });
  });

  it('leaves the server serving: a well-formed request on a new connection still works', async () => {
    const response = await fetch(`${gateway.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(errors).toEqual([]);
  });
});

describe('methods', () => {
  for (const method of ['DELETE', 'OPTIONS', 'POST', 'PUT', 'PATCH']) {
    it(`${method} on a known path: 405 with Allow and a {"detail"} body`, async () => {
      const response = await fetch(`${gateway.url}/api/v1/subnets`, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ detail: 'Method Not Allowed' });
    });
  }

  it('a path with parameters counts as known: DELETE /api/v1/subnets/3/history is a 405', async () => {
    const response = await fetch(`${gateway.url}/api/v1/subnets/3/history?days=30`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('unknown paths are still 404, whatever the method', async () => {
    for (const method of ['GET', 'DELETE', 'OPTIONS', 'HEAD']) {
      const response = await fetch(`${gateway.url}/api/v1/nothing-here`, { method });
      expect(response.status, method).toBe(404);
      expect(response.headers.get('allow'), method).toBeNull();
      if (method !== 'HEAD') expect(await response.json()).toEqual({ detail: 'Not Found' });
    }
  });

  it('HEAD on a GET route: GET status and headers, the same Content-Length, no body', async () => {
    const get = await fetch(`${gateway.url}/api/v1/openapi.json`);
    const bytes = (await get.arrayBuffer()).byteLength;
    const head = await fetch(`${gateway.url}/api/v1/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('cache-control')).toBe(get.headers.get('cache-control'));
    expect(Number(head.headers.get('content-length'))).toBe(bytes);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    // The app itself answers without a body (not only Node's server dropping it), as fetch-style apps do.
    const inProcess = await gateway.app.fetch(
      new Request('http://gateway.test/api/v1/openapi.json', { method: 'HEAD' }),
    );
    expect(inProcess.status).toBe(200);
    expect(inProcess.body).toBeNull();
    expect(Number(inProcess.headers.get('content-length'))).toBe(bytes);
  });

  it('HEAD follows GET through errors too: 503 before the first publication, no body', async () => {
    const get = await fetch(`${gateway.url}/api/v1/subnets`);
    const head = await fetch(`${gateway.url}/api/v1/subnets`, { method: 'HEAD' });
    expect(get.status).toBe(503);
    expect(head.status).toBe(503);
    expect(head.headers.get('retry-after')).toBe(get.headers.get('retry-after'));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('logs a 405 as unmatched (no route pattern) and a HEAD under its GET route', () => {
    expect(logs).toContainEqual(
      expect.objectContaining({ method: 'DELETE', route: 'unmatched', status: 405 }),
    );
    expect(logs).toContainEqual(
      expect.objectContaining({ method: 'HEAD', route: '/api/v1/openapi.json', status: 200 }),
    );
  });
});

describe('kept-alive connections', () => {
  it("an idle connection is kept past Node's 5 s default, as long as a proxy keeps it for reuse", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; keepAlive: string | undefined; reused: boolean }>((resolve, reject) => {
        const request = httpGet({ host: '127.0.0.1', port, path: '/api/v1/subnets', agent }, (response) => {
          response.resume();
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              keepAlive: response.headers['keep-alive']?.toString(),
              reused: request.reusedSocket,
            }),
          );
        });
        request.on('error', reject);
      });
    try {
      const first = await get();
      expect(first.keepAlive).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
      // Idle longer than Node's default keep-alive (5 s), then the next request on the same connection.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const second = await get();
      expect(second).toEqual({ status: first.status, keepAlive: first.keepAlive, reused: true });
    } finally {
      agent.destroy();
    }
  });
});
