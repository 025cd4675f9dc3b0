/**
 * A vitest reporter that prints each test file's wall time, hooks included (vitest's own summary and the
 * JSON report time the tests only, so a file whose `beforeAll` builds a world for minutes looks quick),
 * slowest first, at the end of the run. For finding what makes `make test` long:
 *
 *   npx vitest run test/gateway/orders/ --reporter=default --reporter=./test/support/file-durations-reporter.ts
 *
 * Times on a busy machine are longer than on idle cores; compare files within one run.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export default class FileDurationsReporter implements Reporter {
  private readonly durations: { file: string; ms: number }[] = [];

  onTestModuleEnd(module: TestModule): void {
    const { duration, collectDuration, prepareDuration, setupDuration } = module.diagnostic();
    this.durations.push({
      file: relative(process.cwd(), module.moduleId),
      ms: prepareDuration + setupDuration + collectDuration + duration,
    });
  }

  onTestRunEnd(): void {
    const lines = [...this.durations]
      .sort((a, b) => b.ms - a.ms)
      .map(({ file, ms }) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
    process.stdout.write(`\nwall time per test file, hooks included:\n${lines.join('\n')}\n`);
  }
}
