/**
 * Where the app gets the explorer's bundle: loaded from `gateway/web/dist` on the first page or asset
 * request, and built there first when it is missing or older than the sources (a gateway started
 * without `make web` still serves the pages; the request that triggers a build waits about a second).
 * One attempt per process: a failed build is reported once and the pages then say the explorer is not
 * built, while every API route keeps answering.
 */
import { DIST_DIR, ensureExplorerBuilt } from './build-explorer.js';
import { type ExplorerAssets, loadExplorerAssets } from './explorer-assets.js';

export type ExplorerSource = () => Promise<ExplorerAssets | null>;

export function explorerFromDist(
  options: { distDir?: string; onError?: (error: unknown) => void } = {},
): ExplorerSource {
  let loading: Promise<ExplorerAssets | null> | null = null;
  return () => {
    loading ??= (async () => {
      try {
        const distDir = options.distDir ?? DIST_DIR;
        await ensureExplorerBuilt(distDir);
        return await loadExplorerAssets(distDir);
      } catch (error) {
        options.onError?.(error);
        return null;
      }
    })();
    return loading;
  };
}

/** A bundle already in memory (tests, or a host that loads it at start-up). */
export function explorerOf(assets: ExplorerAssets | null): ExplorerSource {
  const ready = Promise.resolve(assets);
  return () => ready;
}
