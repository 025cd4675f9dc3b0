/**
 * The explorer's bundling step: `gateway/web/src/` (plain TypeScript and CSS, uPlot included) → one
 * JavaScript and one CSS file named by the hash of their contents, plus `asset-manifest.json` naming
 * them. The output is a build product (gitignored), never committed: `make web` builds it, `make demo`
 * and `make test` depend on that target, and the gateway builds it at start-up when it is missing or
 * older than the sources (so `sbm-gateway serve` on a fresh clone works too).
 *
 * The folder is written whole under a temporary name and renamed into place, so a gateway starting
 * while another builds never reads half a bundle (Observable Framework's build does the same).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEB_DIR = dirname(fileURLToPath(import.meta.url));
export const SOURCE_DIR = join(WEB_DIR, 'src');
export const DIST_DIR = join(WEB_DIR, 'dist');
export const MANIFEST_FILE = 'asset-manifest.json';

export interface AssetManifest {
  /** SHA-256 over the sources and the bundler's settings: a different value means a stale bundle. */
  source_hash: string;
  /** Hashed file names under `assets/`, as the pages link them. */
  js: string;
  css: string;
}

/** Bumped when the options below change, so an old bundle counts as stale. */
const BUILD_SETTINGS = 'esbuild es2020 minify v1';

/** SHA-256 over every source file (path and bytes), uPlot's version and the build settings. */
export async function sourceHash(sourceDir = SOURCE_DIR): Promise<string> {
  const hash = createHash('sha256').update(BUILD_SETTINGS);
  for (const file of await listFiles(sourceDir)) {
    hash
      .update(relative(sourceDir, file))
      .update('\0')
      .update(await readFile(file));
  }
  const uplot = JSON.parse(await readFile(join(WEB_DIR, '../../node_modules/uplot/package.json'), 'utf8'));
  return hash.update(String(uplot.version)).digest('hex');
}

export async function readAssetManifest(distDir = DIST_DIR): Promise<AssetManifest | null> {
  try {
    return JSON.parse(await readFile(join(distDir, MANIFEST_FILE), 'utf8')) as AssetManifest;
  } catch {
    return null;
  }
}

/** Builds the bundle unless the one in `distDir` was made from the current sources. */
export async function ensureExplorerBuilt(
  distDir = DIST_DIR,
): Promise<{ built: boolean; manifest: AssetManifest }> {
  const wanted = await sourceHash();
  const current = await readAssetManifest(distDir);
  if (current && current.source_hash === wanted) return { built: false, manifest: current };
  return { built: true, manifest: await buildExplorer(distDir, wanted) };
}

export async function buildExplorer(distDir = DIST_DIR, hash?: string): Promise<AssetManifest> {
  // esbuild is a build tool: loaded only when a build is needed, never on a gateway's request path.
  const esbuild = await import('esbuild');
  const source_hash = hash ?? (await sourceHash());
  const temp = `${distDir}.tmp-${randomBytes(4).toString('hex')}`;
  await mkdir(join(temp, 'assets'), { recursive: true });
  try {
    const result = await esbuild.build({
      entryPoints: { explorer: join(SOURCE_DIR, 'main.ts') },
      bundle: true,
      format: 'esm',
      target: 'es2020',
      minify: true,
      // Content hashes in the names: the files can be cached for a year, a new build gets new names.
      entryNames: '[name]-[hash]',
      outdir: join(temp, 'assets'),
      metafile: true,
      legalComments: 'eof',
      logLevel: 'silent',
    });
    const outputs = Object.keys(result.metafile.outputs).map((path) => path.split('/').at(-1)!);
    const js = outputs.find((name) => name.endsWith('.js'));
    const css = outputs.find((name) => name.endsWith('.css'));
    if (!js || !css)
      throw new Error(`the explorer bundle lacks a script or a style sheet: ${outputs.join(', ')}`);
    const manifest: AssetManifest = { source_hash, js, css };
    await writeFile(join(temp, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    // Swap the folders: the old one is moved aside first, since a rename cannot replace a non-empty folder.
    const old = `${distDir}.old-${randomBytes(4).toString('hex')}`;
    await rename(distDir, old).catch(() => {});
    try {
      await rename(temp, distDir);
    } catch (error) {
      // Another process built the same sources at the same moment and its folder won the rename.
      const other = await readAssetManifest(distDir);
      if (other?.source_hash !== source_hash) throw error;
      await rm(temp, { recursive: true, force: true });
    }
    await rm(old, { recursive: true, force: true });
    return manifest;
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(path)));
    else files.push(path);
  }
  return files;
}
