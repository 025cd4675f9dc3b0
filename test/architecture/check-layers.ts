/**
 * `make deps`: checks the layer rules of `.dependency-cruiser.cjs` over the repository and exits non-zero
 * on any violation. One line when all is well; otherwise each violation, its rule and why the rule exists.
 */
import { cruiseLayers } from './cruise-layers.js';

const report = await cruiseLayers();
if (report.violations.length === 0) {
  process.stdout.write(
    `layer rules: no violations (${report.modulesCruised} modules, ${report.dependenciesCruised} imports)\n`,
  );
} else {
  process.stdout.write(report.text);
  process.exitCode = 1;
}
