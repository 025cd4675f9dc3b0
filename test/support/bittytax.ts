/**
 * BittyTax (github.com/BittyTax/BittyTax), the UK capital gains calculator that reads the pack's
 * `bittytax.csv`, run unchanged from its source as a second opinion on the pack's figures. It is on no
 * package registry reachable here, so it is never installed or committed: its source comes from
 * `BITTYTAX_SRC` (a clone's root, or its `src` folder), else from the bare mirror of its repository
 * (`BITTYTAX_GIT_DIR`, default below), whose HEAD is extracted once into node_modules/.cache/bittytax-<commit>.
 * Its imports come from Debian's `python3-*` packages under Debian's own python (/usr/bin/python3; a pyenv
 * `python3` on PATH lacks them); they are installed with apt-get when missing and this is root with apt, as
 * test/deploy/debian-tool.ts does for the deployment tools. Where none of that is possible the caller skips
 * with the reason `locateBittyTax` gives.
 *
 * Offline by construction: BittyTax's config (in a temporary BITTYTAX_DATA_DIR) names no price source, so it
 * constructs none (by default it fetches the symbol lists of BittyTaxAPI, CoinGecko and CoinPaprika at start,
 * even when every value is given) and a value it would have to look up comes out as its "Price for … is not
 * available" warning, which `runBittyTax` turns into an error. Where `unshare --net` works (root), it also
 * runs in a network namespace of its own, so a price source a later BittyTax adds cannot reach out either.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PYTHON = process.env['BITTYTAX_PYTHON'] ?? '/usr/bin/python3';
const MIRROR = process.env['BITTYTAX_GIT_DIR'] ?? '/work/.mirror/BittyTax+BittyTax/repo';

/**
 * Debian 12's packages for BittyTax's setup.cfg `install_requires` (all exist there). The command line
 * imports colorama, dateutil, yaml, jinja2, xhtml2pdf, openpyxl, xlrd, xlsxwriter, requests,
 * typing_extensions and tqdm at start-up, also with `--nopdf`; defusedxml and setuptools are not imported on
 * that path but are listed by BittyTax, so they are installed too.
 */
export const BITTYTAX_DEBIAN_PACKAGES = [
  'python3-colorama',
  'python3-defusedxml',
  'python3-jinja2',
  'python3-openpyxl',
  'python3-dateutil',
  'python3-yaml',
  'python3-requests',
  'python3-setuptools',
  'python3-typing-extensions',
  'python3-tqdm',
  'python3-xhtml2pdf',
  'python3-xlrd',
  'python3-xlsxwriter',
] as const;

/**
 * The config BittyTax reads from $BITTYTAX_DATA_DIR/.bittytax/bittytax.conf; keys not named keep BittyTax's
 * defaults (config.py DEFAULT_CONFIG). Days, same-day and 30-day matching and tax years are UK days, as in
 * the pack.
 */
export const OFFLINE_CONFIG = `local_currency: 'GBP'
local_timezone: 'Europe/London'
data_source_select: {}
data_source_fiat: []
data_source_crypto: []
price_via_btc: False
`;

/** Where BittyTax's package folder is (the PYTHONPATH entry), or why it cannot run here. */
export type BittyTaxLocation = { pythonPath: string } | { skip: string };

/** One tax year of BittyTax's capital gains summary; amounts are its pounds-and-pence text without £ or commas. */
export type BittyTaxYear = {
  /** '2025/26' */
  taxYear: string;
  disposals: number;
  /** "Disposal proceeds" */
  proceeds: string;
  /** "Allowable costs (including the purchase price)": cost plus fees of every disposal */
  costs: string;
  /** "Gains in the year, before losses": the sum of the disposals with a gain */
  gains: string;
  /** "Losses in the year", as a positive amount */
  losses: string;
};

export type RunBittyTaxOptions = {
  /** Only this tax year ('2025/26'); by default every year with a disposal. */
  taxYear?: string;
  /** `--skipint`: report even when its audit of balances disagrees with its pools. */
  skipIntegrity?: boolean;
  /** Warnings that are expected (e.g. /Transfers mismatch/); any other warning or error throws. */
  allowWarnings?: readonly RegExp[];
  /** The location from `locateBittyTax` (looked up when absent). */
  location?: BittyTaxLocation;
};

/** BittyTax failed, asked for a price, or warned: its whole output is in the message. */
export class BittyTaxError extends Error {
  override name = 'BittyTaxError';
}

let located: Promise<BittyTaxLocation> | undefined;

/** BittyTax's source and Python modules, found (and the modules installed) once per test process. */
export function locateBittyTax(): Promise<BittyTaxLocation> {
  located ??= locate();
  return located;
}

async function locate(): Promise<BittyTaxLocation> {
  if (!existsSync(PYTHON)) return { skip: `BittyTax needs Debian's python (${PYTHON} not found)` };
  const source = await findSource();
  if ('skip' in source) return source;
  const missing = await missingImport(source.pythonPath);
  if (missing === null) return source;
  const installed = installDebianPackages(missing);
  if (installed !== null) return { skip: installed };
  const stillMissing = await missingImport(source.pythonPath);
  return stillMissing === null ? source : { skip: `BittyTax cannot start after apt-get: ${stillMissing}` };
}

async function findSource(): Promise<BittyTaxLocation> {
  const given = process.env['BITTYTAX_SRC'];
  if (given) {
    for (const candidate of [join(given, 'src'), given]) {
      if (existsSync(join(candidate, 'bittytax', 'bittytax.py'))) return { pythonPath: candidate };
    }
    return { skip: `BITTYTAX_SRC=${given} holds no bittytax/bittytax.py (nor src/bittytax/bittytax.py)` };
  }
  if (!existsSync(MIRROR)) {
    return {
      skip: `BittyTax's source not found: set BITTYTAX_SRC to a clone of github.com/BittyTax/BittyTax (no mirror at ${MIRROR})`,
    };
  }
  let commit: string;
  try {
    commit = (await run('git', ['--git-dir', MIRROR, 'rev-parse', 'HEAD'])).stdout.trim();
  } catch (error) {
    return { skip: `BittyTax's mirror ${MIRROR} has no readable HEAD: ${message(error)}` };
  }
  const folder = join(ROOT, 'node_modules', '.cache', `bittytax-${commit}`);
  const pythonPath = join(folder, 'src');
  if (existsSync(join(pythonPath, 'bittytax', 'bittytax.py'))) return { pythonPath };
  // Extracted beside and renamed into place, so a concurrent test process sees all of it or none.
  const partial = `${folder}.partial-${process.pid}`;
  try {
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial, { recursive: true });
    await run('sh', [
      '-c',
      'git --git-dir="$1" archive "$2" src LICENSE | tar -x -C "$3"',
      'sh',
      MIRROR,
      commit,
      partial,
    ]);
    await rename(partial, folder).catch(async (error: unknown) => {
      if (!existsSync(join(pythonPath, 'bittytax', 'bittytax.py'))) throw error;
      await rm(partial, { recursive: true, force: true });
    });
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    return { skip: `could not extract BittyTax from ${MIRROR}: ${message(error)}` };
  }
  return { pythonPath };
}

/** The import error BittyTax's command line stops with under Debian's python, or null when it starts. */
async function missingImport(pythonPath: string): Promise<string | null> {
  // Importing bittytax writes its config folder: a throwaway one, never the user's ~/.bittytax.
  const dataDir = await mkdtemp(join(tmpdir(), 'bittytax-probe-'));
  try {
    await run(PYTHON, ['-c', 'import bittytax.bittytax'], {
      env: { ...process.env, PYTHONPATH: pythonPath, BITTYTAX_DATA_DIR: dataDir },
    });
    return null;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    return stderr.trim().split('\n').at(-1) || message(error);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** null when installed; otherwise the reason they could not be. */
function installDebianPackages(missing: string): string | null {
  const command = `apt-get install ${BITTYTAX_DEBIAN_PACKAGES.join(' ')}`;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    return `BittyTax's Python modules are missing (${missing}) and cannot be installed here (needs root and apt-get): ${command}`;
  }
  process.stderr.write(
    `[bittytax] installing Debian's ${BITTYTAX_DEBIAN_PACKAGES.join(' ')} with apt-get (once)...\n`,
  );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    execFileSync(
      'apt-get',
      ['install', '-y', '-qq', '--no-install-recommends', ...BITTYTAX_DEBIAN_PACKAGES],
      {
        stdio: 'ignore',
        env,
      },
    );
  try {
    install();
  } catch {
    try {
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
      install();
    } catch (error) {
      return `apt-get could not install BittyTax's Python modules (${missing}): ${message(error)}`;
    }
  }
  return null;
}

let isolated: boolean | undefined;

/** Whether BittyTax can be started without any network (a namespace with only a loopback that is down). */
export function networkNamespaceWorks(): boolean {
  isolated ??= spawnSync('unshare', ['--net', '--', 'true'], { stdio: 'ignore' }).status === 0;
  return isolated;
}

/**
 * Runs BittyTax's command line (`--nopdf --summary`: the capital gains of each tax year, no PDF, no
 * valuation of current holdings) on BittyTax transaction records and returns its Summary figures per tax
 * year, in year order. A year without a disposal is absent. Throws BittyTaxError when it fails to import a
 * row, fails its integrity check, would look a price up, meets an unsupported tax year or warns otherwise.
 */
export async function runBittyTax(
  csvText: string,
  options: RunBittyTaxOptions = {},
): Promise<BittyTaxYear[]> {
  const location = options.location ?? (await locateBittyTax());
  if ('skip' in location) throw new BittyTaxError(`BittyTax is not available: ${location.skip}`);
  const dir = await mkdtemp(join(tmpdir(), 'bittytax-'));
  try {
    await mkdir(join(dir, '.bittytax'));
    await writeFile(join(dir, '.bittytax', 'bittytax.conf'), OFFLINE_CONFIG);
    const records = join(dir, 'records.csv');
    await writeFile(records, csvText);
    const args = ['-m', 'bittytax.bittytax', records, '--nopdf', '--summary'];
    if (options.taxYear) args.push('--taxyear', String(endYear(options.taxYear)));
    if (options.skipIntegrity) args.push('--skipint');
    const [file, argv] = networkNamespaceWorks()
      ? ['unshare', ['--net', '--', PYTHON, ...args]]
      : [PYTHON, args];
    const env = {
      ...process.env,
      PYTHONPATH: location.pythonPath,
      BITTYTAX_DATA_DIR: dir,
      PYTHONIOENCODING: 'utf-8',
    };
    let output: string;
    try {
      const done = await run(file, argv, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
      output = done.stdout + done.stderr;
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      throw new BittyTaxError(`BittyTax failed: ${message(error)}\n${stdout}${stderr}`);
    }
    return parseBittyTaxSummary(output, options.allowWarnings ?? []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** '2025/26' → 2026, the year BittyTax's --taxyear names. */
function endYear(taxYear: string): number {
  const match = /^(\d{4})\/(\d{2})$/.exec(taxYear);
  if (!match) throw new Error(`a tax year is written 2025/26, not ${taxYear}`);
  return Number(match[1]) + 1;
}

// BittyTax's exits after a failed import or integrity check, and its price errors, have status 0: success is
// the report itself, and the lines below say what went wrong.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const PROBLEM = /\b(ERROR|WARNING)\b/;
const SUMMARY_LINES = {
  disposals: /^Number of disposals:\s+(\d+)$/,
  proceeds: /^Disposal proceeds:\s+\*?(£-?[\d,]+\.\d{2})$/,
  costs: /^Allowable costs \(including the\s+(£-?[\d,]+\.\d{2})$/,
  gains: /^Gains in the year, before losses:\s+(£-?[\d,]+\.\d{2})$/,
  losses: /^Losses in the year:\s+(£-?[\d,]+\.\d{2})$/,
};

/**
 * The Summary of each "Tax Year - 2025/26 (…)" section of BittyTax's text report (report.py
 * ReportLog._capital_gains): figures it already rounded to the penny per disposal (tax_event.py) and summed.
 */
export function parseBittyTaxSummary(
  rawOutput: string,
  allowWarnings: readonly RegExp[] = [],
): BittyTaxYear[] {
  const output = rawOutput.replace(ANSI, '').replace(/\r/g, '');
  const lines = output.split('\n').map((line) => line.trim());
  const problems = lines.filter(
    (line) => PROBLEM.test(line) && !allowWarnings.some((allowed) => allowed.test(line)),
  );
  if (problems.length > 0)
    throw new BittyTaxError(`BittyTax warned or failed:\n${problems.join('\n')}\n\n${output}`);
  if (!lines.includes('tax report output:'))
    throw new BittyTaxError(`BittyTax printed no report:\n${output}`);
  const years: BittyTaxYear[] = [];
  let current: Partial<Record<keyof typeof SUMMARY_LINES, string>> & { taxYear?: string } = {};
  const finish = () => {
    if (current.taxYear === undefined) return;
    const { taxYear, disposals, proceeds, costs, gains, losses } = current;
    if (disposals === undefined || !proceeds || !costs || !gains || !losses) {
      throw new BittyTaxError(`BittyTax's summary of ${taxYear} is incomplete:\n${output}`);
    }
    if (Number(disposals) > 0) {
      years.push({ taxYear, disposals: Number(disposals), proceeds, costs, gains, losses });
    }
  };
  for (const line of lines) {
    const year = /^Tax Year - (\d{4}\/\d{2}) \(/.exec(line);
    if (year) {
      finish();
      current = { taxYear: year[1]! };
      continue;
    }
    for (const [key, pattern] of Object.entries(SUMMARY_LINES) as [keyof typeof SUMMARY_LINES, RegExp][]) {
      const match = pattern.exec(line);
      if (match) current[key] = key === 'disposals' ? match[1]! : pounds(match[1]!);
    }
  }
  finish();
  return years;
}

/** '£-1,234.50' → '-1234.50' */
function pounds(text: string): string {
  return text.replace('£', '').replace(/,/g, '');
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
