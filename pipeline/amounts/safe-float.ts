/**
 * The chain's `SafeFloat` (opentensor/subtensor `primitives/share-pool/src/lib.rs`): value = mantissa ×
 * 10^exponent, a u128 mantissa kept normalised in (10^20, 10^21] and an i64 exponent. Since spec 425 the share
 * maps `AlphaV2` and `TotalHotkeySharesV2` hold it, and since spec 473 nothing else holds shares.
 *
 * The product needs three things of it, each exact in bigint: decoding what the chain stores, converting a
 * V1 `U64F64` the way the chain does when it reads one (`SafeFloat::from(U64F64)`, which `get_denominator`
 * and the AlphaV2 migration apply), and comparing two share counts as a ratio (a share price's growth). The
 * sandbox chain keeps its own copy of this arithmetic on purpose: it is the truth the product is tested against.
 */

export interface SafeFloat {
  mantissa: bigint;
  exponent: bigint;
}

const MAX_MANTISSA = 10n ** 21n;
const MAX_EXPONENT = 21n;
const MIN_MANTISSA = MAX_MANTISSA / 10n;
const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

export const ZERO_SHARES: SafeFloat = { mantissa: 0n, exponent: 0n };

/** SCALE bytes of a stored SafeFloat: mantissa u128 little-endian (16 bytes), then exponent i64 LE (8). */
export function decodeSafeFloat(bytes: Uint8Array): SafeFloat {
  if (bytes.length !== 24) throw new RangeError(`a SafeFloat is 24 bytes, not ${bytes.length}`);
  const mantissa = littleEndian(bytes.subarray(0, 16));
  const unsigned = littleEndian(bytes.subarray(16, 24));
  const exponent = unsigned > I64_MAX ? unsigned - (1n << 64n) : unsigned;
  return { mantissa, exponent };
}

/** The fields of a decoded codec value (`{ mantissa, exponent }`), checked to be in the chain's ranges. */
export function safeFloatOf(mantissa: bigint, exponent: bigint): SafeFloat {
  if (mantissa < 0n || mantissa > U128_MAX)
    throw new RangeError(`SafeFloat mantissa ${mantissa} is not a u128`);
  if (exponent < I64_MIN || exponent > I64_MAX)
    throw new RangeError(`SafeFloat exponent ${exponent} is not an i64`);
  return mantissa === 0n ? ZERO_SHARES : { mantissa, exponent };
}

export function isZeroShares(value: SafeFloat): boolean {
  return value.mantissa === 0n;
}

/**
 * `SafeFloat::from(U64F64)`: the integer part and the fraction (bits ÷ 2^64) each made a SafeFloat and added
 * in the chain's arithmetic (normalise; align the smaller exponent down by truncating division; normalise).
 */
export function safeFloatFromU64F64(bits: bigint): SafeFloat {
  if (bits <= 0n) return ZERO_SHARES;
  const integer = normalise(bits >> 64n, 0n);
  const fractionBits = normalise(bits & U64_MAX, 0n);
  const twoTo64 = normalise(1n << 64n, 0n);
  const fraction =
    fractionBits.mantissa === 0n
      ? ZERO_SHARES
      : normalise(
          (fractionBits.mantissa * MAX_MANTISSA) / twoTo64.mantissa,
          fractionBits.exponent - twoTo64.exponent - MAX_EXPONENT,
        );
  return add(integer, fraction);
}

/**
 * ⌊numerator × a ÷ b × 2^scaleBits⌋ exactly, for share counts `a` and `b` (b above zero): what `numerator`
 * alpha held as `a` shares of a pool is worth once the pool holds `b`, in units of 2^-scaleBits.
 */
export function scaledShareRatio(numerator: bigint, a: SafeFloat, b: SafeFloat, scaleBits: bigint): bigint {
  if (b.mantissa === 0n) throw new RangeError('share ratio over zero shares');
  const shift = a.exponent - b.exponent;
  let top = (numerator * a.mantissa) << scaleBits;
  let bottom = b.mantissa;
  if (shift >= 0n) top *= 10n ** shift;
  else bottom *= 10n ** -shift;
  return top / bottom;
}

/** The value as decimal text (for people and CSVs): exact, no exponent notation. */
export function safeFloatText(value: SafeFloat): string {
  if (value.mantissa === 0n) return '0';
  if (value.exponent >= 0n) return (value.mantissa * 10n ** value.exponent).toString();
  const digits = value.mantissa.toString().padStart(Number(-value.exponent) + 1, '0');
  const point = digits.length + Number(value.exponent);
  const fraction = digits.slice(point).replace(/0+$/, '');
  return fraction === '' ? digits.slice(0, point) : `${digits.slice(0, point)}.${fraction}`;
}

function normalise(mantissa: bigint, exponent: bigint): SafeFloat {
  if (mantissa === 0n) return ZERO_SHARES;
  let m = mantissa;
  let e = exponent;
  while (m > MAX_MANTISSA) {
    m /= 10n;
    e += 1n;
  }
  while (m <= MIN_MANTISSA) {
    m *= 10n;
    e -= 1n;
  }
  return { mantissa: m, exponent: e };
}

function add(a: SafeFloat, b: SafeFloat): SafeFloat {
  if (a.mantissa === 0n) return b;
  if (b.mantissa === 0n) return a;
  // The chain caps the power of ten it divides by; past 10^22 the smaller term truncates to zero anyway.
  const pow = (gap: bigint) => 10n ** (gap > MAX_EXPONENT + 1n ? MAX_EXPONENT + 1n : gap);
  if (a.exponent >= b.exponent)
    return normalise(a.mantissa + b.mantissa / pow(a.exponent - b.exponent), a.exponent);
  return normalise(a.mantissa / pow(b.exponent - a.exponent) + b.mantissa, b.exponent);
}

function littleEndian(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i] as number);
  return value;
}
