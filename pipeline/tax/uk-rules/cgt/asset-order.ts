/**
 * The order the pools are listed in (the engine's report, a pack's pools.csv and PDF): asset names compared
 * piece by piece, a run of digits by its number, so that a staker in a hundred subnets reads alpha:2 before
 * alpha:10 (text order puts alpha:100 second).
 * Other pieces compare as text: TAO and the tokens (upper case) come before the alpha and subnet-lock assets.
 */
export function byAssetName(a: string, b: string): number {
  const left = pieces(a);
  const right = pieces(b);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i]!;
    const y = right[i]!;
    if (x === y) continue;
    const numbers = /^\d/.test(x) && /^\d/.test(y);
    if (numbers && Number(x) !== Number(y)) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return left.length - right.length;
}

function pieces(name: string): string[] {
  return name.match(/\d+|\D+/g) ?? [];
}
