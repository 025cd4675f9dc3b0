/**
 * A fulfilment run watched as production would see it: a first worker builds a paid order while a second
 * one polls every `intervalMs` (cron's next run) and support looks at the order (`look`) after each poll.
 * Returns the first worker's report, the second worker's reports and how long the first one took.
 */
import type { FulfilmentReport } from '../../../gateway/orders/fulfilment-job.js';

export async function watchedFulfilment(
  worker: (name: string) => Promise<FulfilmentReport>,
  intervalMs: number,
  look: () => Promise<void>,
): Promise<{ report: FulfilmentReport; others: FulfilmentReport[]; ms: number }> {
  const started = performance.now();
  let done = false;
  const first = worker('worker-a').finally(() => {
    done = true;
  });
  const others: FulfilmentReport[] = [];
  while (!done) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    if (done) break;
    others.push(await worker('worker-b'));
    await look();
  }
  const report = await first;
  return { report, others, ms: performance.now() - started };
}
