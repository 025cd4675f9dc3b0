/**
 * The request log: one JSON line per request, written in batches (at most 10 ms late) to a real
 * stream, in order, and nothing left behind when the gateway flushes on close.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../gateway/app.js';
import { logLine, REQUEST_LOG_WRITE_MS, requestLogTo } from '../../gateway/request-log.js';

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
  it('writes the lines of a moment together, shortly after, in order', async () => {
    const stream = new PassThrough();
    const seen = collect(stream);
    const log = requestLogTo(stream);
    log.log(entry(200));
    log.log(entry(401));
    await new Promise((resolve) => setImmediate(resolve));
    log.log(entry(429));
    expect(seen.chunks).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, REQUEST_LOG_WRITE_MS * 3));
    expect(seen.chunks).toHaveLength(1);
    const lines = seen.chunks[0]!.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => (JSON.parse(line) as RequestLogEntry).status)).toEqual([200, 401, 429]);
    // Later lines are a write of their own.
    log.log(entry(304));
    await new Promise((resolve) => setTimeout(resolve, REQUEST_LOG_WRITE_MS * 3));
    expect(seen.chunks).toHaveLength(2);
  });

  it('writes a large batch at once, without waiting', () => {
    const stream = new PassThrough();
    const seen = collect(stream);
    const log = requestLogTo(stream);
    for (let i = 0; i < 2_000; i++) log.log(entry(200));
    expect(seen.chunks.length).toBeGreaterThan(0);
    log.flush();
    expect(seen.chunks.join('').trim().split('\n')).toHaveLength(2_000);
  });

  it('writes each line as JSON.stringify would, whatever its strings hold', () => {
    const entries: RequestLogEntry[] = [
      entry(200),
      {
        method: 'GET',
        route: '/api/v1/subnets/:netuid/history',
        status: 304,
        duration_ms: 12.34,
        account: 'acc_x-1',
      },
      { method: 'POST', route: 'un"matched\\ \u2028', status: 500, duration_ms: 0, account: 'a"b' },
      { method: 'GET', route: 'unmatched', status: 404, duration_ms: Number.NaN, account: null },
    ];
    for (const one of entries) expect(logLine(one)).toBe(`${JSON.stringify(one)}\n`);
  });

  it('writes every duration as JSON.stringify would (hundredths from integers, anything else as it is)', () => {
    const durations = [-0, 1e-7, 1 / 3, 2.005, 1e15, 1e16, -1, Number.POSITIVE_INFINITY];
    for (let hundredths = 0; hundredths <= 200_000; hundredths += 7) durations.push(hundredths / 100);
    for (let i = 0; i < 2_000; i++) durations.push(Math.round(Math.random() * 1e12) / 100);
    const wrong = durations.filter((duration_ms) => {
      const one = { ...entry(200), duration_ms };
      return logLine(one) !== `${JSON.stringify(one)}\n`;
    });
    expect(wrong).toEqual([]);
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
