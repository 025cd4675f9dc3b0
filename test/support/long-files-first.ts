/**
 * The order vitest starts test files in: the files known to take minutes first, then vitest's own order
 * (the slowest of the last run on this machine first; on a fresh clone, with no record, the largest files).
 *
 * Why: two forks work through one queue. On a fresh clone (CI) vitest orders by file size, and the
 * demo-flow test (a short file whose world runs from 4 April to today, so it grows by a day each day) came
 * mid-queue and could be the last file still running while the other fork sat idle. Started first, its
 * minutes overlap the rest of the suite. Order changes no test: each file is independent.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first, by their wall time in a full run (`file-durations-reporter.ts` measures them). */
export const LONG_FILES = [
  'test/gateway/orders/demo-flow.test.ts',
  'test/web/explorer-browser.test.ts',
  'test/gateway/orders/big-order.test.ts',
];

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONG_FILES.findIndex((long) => file.moduleId.endsWith(long));
      return index === -1 ? LONG_FILES.length : index;
    };
    // Array sort is stable: the other files keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
