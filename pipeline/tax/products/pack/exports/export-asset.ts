/**
 * Asset names for other tools: `TAO`, and a subnet's alpha as `SN<netuid>-ALPHA`, with `-R<block>` when the
 * netuid was registered again (a new token). Tools key pools by symbol, so each pack asset keeps its own name.
 */
export function exportAsset(asset: string): string {
  const alpha = /^alpha:(\d+):(\d+)$/.exec(asset);
  if (!alpha) return asset;
  const [, netuid, registeredAt] = alpha;
  return registeredAt === '0' ? `SN${netuid}-ALPHA` : `SN${netuid}-ALPHA-R${registeredAt}`;
}
