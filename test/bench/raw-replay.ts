/**
 * The raw client of the pack benches: the requests a pack made, sent again in order with the same number in
 * flight, decoding nothing and doing no tax work. What the chain alone costs those reads.
 */
import { connectRpc } from '../../pipeline/chain/rpc-client.js';

export interface RecordedRequest {
  method: string;
  params: unknown[];
}

/** Sends `requests` to `url` with `concurrency` in flight; the seconds they took. */
export async function replayRequests(
  url: string,
  requests: readonly RecordedRequest[],
  concurrency: number,
): Promise<number> {
  const rpc = await connectRpc({ url, concurrency });
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      await rpc.send(request.method, request.params);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  await rpc.close();
  return seconds;
}
