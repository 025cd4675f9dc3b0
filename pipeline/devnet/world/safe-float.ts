/**
 * `SafeFloat` of opentensor/subtensor `primitives/share-pool/src/lib.rs`, reproduced operation for
 * operation in bigint (the chain computes in U256): value = mantissa × 10^exponent, the mantissa kept
 * normalised in (SAFE_FLOAT_MAX / 10, SAFE_FLOAT_MAX]. The V2 share maps (`AlphaV2`, `TotalHotkeySharesV2`)
 * hold these, and a position's alpha is `TotalHotkeyAlpha × share ÷ denominator` in this arithmetic.
 */
export interface SafeFloat {
  mantissa: bigint;
  exponent: bigint;
}

export const SAFE_FLOAT_MAX = 1_000_000_000_000_000_000_000n;
const SAFE_FLOAT_MAX_EXP = 21n;
const MIN_MANTISSA = SAFE_FLOAT_MAX / 10n;
const TWO_64 = 1n << 64n;
const U64_MAX = (1n << 64n) - 1n;

export const SAFE_FLOAT_ZERO: SafeFloat = { mantissa: 0n, exponent: 0n };

function cappow10(e: bigint): bigint {
  if (e > SAFE_FLOAT_MAX_EXP + 1n) return SAFE_FLOAT_MAX * 10n;
  return 10n ** e;
}

/** `normalize`: scales the mantissa into range (null when the chain's checked arithmetic would fail). */
function normalize(mantissa: bigint, exponent: bigint): SafeFloat {
  if (mantissa === 0n) return SAFE_FLOAT_ZERO;
  let m = mantissa;
  let e = exponent;
  while (m > SAFE_FLOAT_MAX) {
    m /= 10n;
    e += 1n;
  }
  while (m <= MIN_MANTISSA) {
    m *= 10n;
    e -= 1n;
  }
  return { mantissa: m, exponent: e };
}

export function safeFloat(mantissa: bigint, exponent = 0n): SafeFloat {
  if (mantissa > SAFE_FLOAT_MAX) throw new Error('SafeFloat: mantissa above SAFE_FLOAT_MAX');
  return normalize(mantissa, exponent);
}

export function isZero(a: SafeFloat): boolean {
  return a.mantissa === 0n;
}

export function div(a: SafeFloat, b: SafeFloat): SafeFloat {
  if (b.mantissa === 0n) return SAFE_FLOAT_ZERO; // checked_div fails: the chain's unwrap_or_default
  return normalize((a.mantissa * SAFE_FLOAT_MAX) / b.mantissa, a.exponent - b.exponent - SAFE_FLOAT_MAX_EXP);
}

function align(a: SafeFloat, b: SafeFloat): [bigint, bigint, bigint] {
  if (a.exponent >= b.exponent)
    return [a.mantissa, b.mantissa / cappow10(a.exponent - b.exponent), a.exponent];
  return [a.mantissa / cappow10(b.exponent - a.exponent), b.mantissa, b.exponent];
}

export function add(a: SafeFloat, b: SafeFloat): SafeFloat {
  if (isZero(a)) return b;
  if (isZero(b)) return a;
  const [m1, m2, e] = align(a, b);
  return normalize(m1 + m2, e);
}

/** `sub`: saturating at zero, as the chain's U256 `saturating_sub`; null when `a` is zero and `b` is not. */
export function sub(a: SafeFloat, b: SafeFloat): SafeFloat | null {
  if (isZero(a) && isZero(b)) return SAFE_FLOAT_ZERO;
  if (isZero(a)) return null;
  if (isZero(b)) return a;
  const [m1, m2, e] = align(a, b);
  return normalize(m1 > m2 ? m1 - m2 : 0n, e);
}

export function mulDiv(a: SafeFloat, b: SafeFloat, c: SafeFloat): SafeFloat | null {
  if (c.mantissa === 0n) return null;
  return normalize((a.mantissa * b.mantissa) / c.mantissa, a.exponent + b.exponent - c.exponent);
}

/** `From<&SafeFloat> for u64`: floored, saturating at u64::MAX. */
export function toU64(a: SafeFloat): bigint {
  let q: bigint;
  if (a.exponent === 0n) q = a.mantissa;
  else if (a.exponent > 0n) q = a.mantissa * cappow10(a.exponent);
  else q = a.mantissa / cappow10(-a.exponent);
  return q > U64_MAX ? U64_MAX : q;
}

/** `From<U64F64> for SafeFloat`: integer part plus fraction ÷ 2^64, each in SafeFloat arithmetic. */
export function fromU64F64(bits: bigint): SafeFloat {
  if (bits === 0n) return SAFE_FLOAT_ZERO;
  const int = safeFloat(bits >> 64n);
  const frac = div(safeFloat(bits & U64_MAX), safeFloat(TWO_64));
  return add(int, frac);
}

/** `SharePool::get_value`: shared value × share ÷ denominator, floored to u64 (0 when it cannot divide). */
export function shareValue(sharedValue: bigint, share: SafeFloat, denominator: SafeFloat): bigint {
  const result = mulDiv(safeFloat(sharedValue), share, denominator);
  return result ? toU64(result) : 0n;
}

/**
 * `SharePool::update_value_for_one(key, update)`: the new (share, denominator) after adding `update`
 * alpha (negative: removing) to one holder of a pool whose shared value is `sharedValue`.
 */
export function updateValueForOne(
  sharedValue: bigint,
  share: SafeFloat,
  denominator: SafeFloat,
  update: bigint,
): { share: SafeFloat; denominator: SafeFloat } {
  const magnitude = update < 0n ? -update : update;
  if (isZero(denominator)) {
    const value = safeFloat(magnitude);
    return { share: value, denominator: value };
  }
  const perUpdate = mulDiv(safeFloat(magnitude), denominator, safeFloat(sharedValue)) ?? SAFE_FLOAT_ZERO;
  if (update > 0n) return { share: add(share, perUpdate), denominator: add(denominator, perUpdate) };
  return { share: sub(share, perUpdate) ?? share, denominator: sub(denominator, perUpdate) ?? denominator };
}
