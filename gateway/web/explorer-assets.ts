/**
 * The explorer's built files, read once into memory at start-up (they are small: well under 150 KB
 * gzipped together), each with its gzip form made once, so serving one is a map lookup.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type AssetManifest, DIST_DIR, readAssetManifest } from './build-explorer.js';

export interface ExplorerAsset {
  body: Uint8Array;
  gzip: Uint8Array;
  contentType: string;
}

export interface ExplorerAssets {
  /** The hashed names the pages link (`explorer-<hash>.js`, `.css`). */
  manifest: AssetManifest;
  /** By file name, as served under `/assets/`. */
  files: ReadonlyMap<string, ExplorerAsset>;
}

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

export async function loadExplorerAssets(distDir = DIST_DIR): Promise<ExplorerAssets> {
  const manifest = await readAssetManifest(distDir);
  if (!manifest) throw new Error(`the explorer is not built in ${distDir} (run make web)`);
  const files = new Map<string, ExplorerAsset>();
  for (const name of [manifest.js, manifest.css]) {
    const body = new Uint8Array(await readFile(join(distDir, 'assets', name)));
    const extension = name.split('.').at(-1) ?? '';
    files.set(name, {
      body,
      gzip: new Uint8Array(gzipSync(body, { level: 9 })),
      contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
    });
  }
  return { manifest, files };
}
