/**
 * Asset names for other tools: `TAO`, and a subnet's alpha as `SN<netuid>-ALPHA`, with `-R<block>` when the
 * netuid was registered again (a new token). Tools key pools by symbol, so each pack asset keeps its own name.
 */
export function exportAsset(asset: string): string {
  let name = names.get(asset);
  if (name === undefined) {
    name = nameOf(asset);
    // A pack names a few hundred assets at most, each on tens of thousands of rows: each is worked out once.
    if (names.size >= MAX_NAMES) names.clear();
    names.set(asset, name);
  }
  return name;
}

const names = new Map<string, string>();
/** Every subnet's alpha of every registration so far, with room to spare; past it the names start again. */
const MAX_NAMES = 10_000;

function nameOf(asset: string): string {
  const alpha = /^alpha:(\d+):(\d+)$/.exec(asset);
  if (!alpha) return asset;
  const [, netuid, registeredAt] = alpha;
  return registeredAt === '0' ? `SN${netuid}-ALPHA` : `SN${netuid}-ALPHA-R${registeredAt}`;
}
