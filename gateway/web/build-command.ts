/** `make web` (`tsx gateway/web/build-command.ts`): builds the explorer bundle when its sources changed. */
import { DIST_DIR, ensureExplorerBuilt } from './build-explorer.js';

try {
  const { built, manifest } = await ensureExplorerBuilt();
  process.stdout.write(
    `${built ? 'built' : 'up to date:'} the explorer bundle in ${DIST_DIR} (${manifest.js}, ${manifest.css})\n`,
  );
} catch (error) {
  process.stderr.write(
    `error: the explorer bundle did not build: ${error instanceof Error ? error.message : error}\n`,
  );
  process.exitCode = 1;
}
