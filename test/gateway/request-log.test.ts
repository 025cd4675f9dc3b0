/**
 * The request log: one JSON line per request, written once per event-loop turn to a real stream, in
 * order, and nothing left behind when the gateway flushes on close.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../gateway/app.js';
import { requestLogTo } from '../../gateway/request-log.js';

const entry = (status: number): RequestLogEntry => ({
  method: 'GET',
  route: '/api/v1/subnets',
  status,
  duration_ms: 0.5,
  account: null,
});

function collect(stream: PassThrough): { chunks: string[] } {
  const seen = { chunks: [] as string[] };
  stream.on('data', (chunk: Buffer) => seen.chunks.push(chunk.toString()));
  return seen;
}

describe('requestLogTo', () => {
  it('writes the lines of one turn together, after the turn, in order', async () => {
    const stream = new PassThrough();
    const seen = collect(stream);
    const log = requestLogTo(stream);
    log.log(entry(200));
    log.log(entry(401));
    log.log(entry(429));
    expect(seen.chunks).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.chunks).toHaveLength(1);
    const lines = seen.chunks[0]!.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => (JSON.parse(line) as RequestLogEntry).status)).toEqual([200, 401, 429]);
    // The next turn's lines are a write of their own.
    log.log(entry(304));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.chunks).toHaveLength(2);
  });

  it('writes what is queued when flushed, and nothing twice', async () => {
    const stream = new PassThrough();
    const seen = collect(stream);
    const log = requestLogTo(stream);
    log.log(entry(200));
    log.flush();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.chunks.join('').trim().split('\n')).toHaveLength(1);
  });
});
