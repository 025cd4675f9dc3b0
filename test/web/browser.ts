/**
 * The browser for the explorer's tests: Debian's `chromium`, installed by test/web/install-chromium.sh
 * when absent (root and apt-get), driven by puppeteer-core. When there is no browser and none can be
 * installed, `findChromium` prints a banner and returns null: the browser tests are then skipped (vitest
 * counts them as skipped, and `make test`'s closing lines name each with `NO_BROWSER`), never passed silently.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

const INSTALL_SCRIPT = join(import.meta.dirname, 'install-chromium.sh');

/** The reason the browser tests give in their titles when `findChromium` found none. */
export const NO_BROWSER =
  ' (skipped: no chromium, and it cannot be installed here: needs root and apt-get, or set SBM_CHROMIUM)';

export function findChromium(): string | null {
  try {
    const path = execFileSync('bash', [INSTALL_SCRIPT], {
      encoding: 'utf8',
      // The script's own lines (installing, why not) go straight to the run's output, so a first run
      // shows why it pauses for a minute.
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
    return path || null;
  } catch {
    process.stderr.write(
      [
        '',
        '########################################################################',
        '#  BROWSER TESTS SKIPPED: no chromium, and it cannot be installed here  #',
        '#  (needs root and apt-get; or set SBM_CHROMIUM to a Chromium binary)   #',
        '########################################################################',
        '',
      ].join('\n'),
    );
    return null;
  }
}

export function launchBrowser(executablePath: string): Promise<Browser> {
  return puppeteer.launch({
    executablePath,
    headless: true,
    args: [
      // Root in a container: Chromium's sandbox needs user namespaces it may not have.
      '--no-sandbox',
      '--disable-gpu',
      '--lang=en-US',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
    env: { ...process.env, LANG: 'en_US.UTF-8', TZ: 'Europe/London' },
  });
}
