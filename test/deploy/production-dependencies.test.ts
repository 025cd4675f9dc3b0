/**
 * A production install is `npm ci --omit=dev` (docs/operating.md "Deployment files"): `dependencies` must
 * hold every package the service's code imports (gateway/, pipeline/, the explorer's sources, which the
 * gateway bundles at start) and the runner its units and cron lines start it with (`tsx`), and nothing
 * only the tests use (issue 37: PGlite, 28 MB, was a production dependency).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<
    string,
    { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }
  >;
};

/** What the service starts its programs with (deploy/systemd, deploy/cron): not imported, but run. */
const RUNNERS = ['tsx'];
/** @polkadot/api's own dependencies, pinned beside it at the versions the chain readers are tested with. */
const PINNED = ['@polkadot/keyring', '@polkadot/types-codec'];

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Packages a file imports at run time (`import type` is erased; node: built-ins are not packages). */
function importedPackages(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  const pattern = /(?:^|\n)\s*import\s+(?!type\s)[^'"]*?from\s+'([^'.][^']*)'|import\('([^'.][^']*)'\)/g;
  for (const match of text.matchAll(pattern)) {
    const specifier = match[1] ?? match[2]!;
    if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
    const parts = specifier.split('/');
    found.push(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
  }
  return found;
}

const serviceFiles = [...sources('gateway'), ...sources('pipeline')];
const used = new Map<string, string>();
for (const file of serviceFiles) for (const name of importedPackages(file)) used.set(name, file);

describe('production dependencies', () => {
  it('every package the service imports is a production dependency', () => {
    const missing = [...used].filter(([name]) => !(name in pkg.dependencies)).map(([n, f]) => `${n} (${f})`);
    expect(missing).toEqual([]);
  });

  it("every production dependency is imported by the service or runs it; none is only the tests'", () => {
    const unused = Object.keys(pkg.dependencies).filter(
      (name) => !used.has(name) && !RUNNERS.includes(name) && !PINNED.includes(name),
    );
    expect(unused).toEqual([]);
    expect(pkg.devDependencies).toHaveProperty('@electric-sql/pglite');
    expect(pkg.devDependencies).toHaveProperty('@electric-sql/pglite-socket');
  });

  it('the lock file names the same split (npm ci refuses a lock that disagrees)', () => {
    const root = lock.packages['']!;
    expect(root.dependencies).toEqual(pkg.dependencies);
    expect(root.devDependencies).toEqual(pkg.devDependencies);
  });
});
