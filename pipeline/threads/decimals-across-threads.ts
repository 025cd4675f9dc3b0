/**
 * decimal.js numbers crossing to a worker thread and back. Structured cloning (`postMessage`) refuses a
 * Decimal: each one carries its constructor (its precision and rounding) as an own property. Here each one is
 * kept as its sign, exponent and base-10⁷ digits with the index of its constructor among those given, and made
 * again with that constructor on the other side, so that it prints and computes as it did.
 *
 * - Many values (a big record's transactions): as a few typed arrays (`DecimalColumnWriter`), handed over
 *   without a copy. Copying a hundred thousand small objects cost far more.
 * - A few values inside other objects (a buyer's records): the objects copied with each Decimal as a plain
 *   record (`withDecimalsCloneable`), keeping which of them are the same object.
 */
import type { Decimal } from 'decimal.js';

type DecimalConstructor = typeof Decimal;

/** A Decimal that cannot cross: not finite, or made by none of the given constructors. */
export class DecimalCannotCross extends Error {}

/** The index of the value's constructor among `constructors`, refusing what cannot be made again. */
function constructorIndex(value: Decimal, constructors: readonly DecimalConstructor[]): number {
  const index = constructors.indexOf(value.constructor as DecimalConstructor);
  const internal = value as unknown as { e: number; d: number[] | null };
  if (index < 0 || internal.d === null || !Number.isFinite(internal.e))
    throw new DecimalCannotCross(`${value.toString()} cannot cross to another thread`);
  return index;
}

/** A Decimal made again from its fields with the given constructor (in decimal.js's own field order). */
function madeAgain(made: DecimalConstructor, s: number, e: number, d: number[]): Decimal {
  const value = Object.create(made.prototype) as Record<string, unknown>;
  value.constructor = made;
  value.s = s;
  value.e = e;
  value.d = d;
  return value as unknown as Decimal;
}

/** The constructor index of an absent value (an optional field left out). */
const ABSENT = 255;

export interface DecimalColumn {
  constructorOf: Uint8Array;
  sign: Int8Array;
  exponent: Int32Array;
  /** Where each value's digits end in `digits` (they start where the one before ended). */
  digitsEnd: Uint32Array;
  digits: Int32Array;
}

/** Writes `count` decimals (or their absence) in order; `column()` gives the arrays. */
export class DecimalColumnWriter {
  private readonly constructorOf: Uint8Array;
  private readonly sign: Int8Array;
  private readonly exponent: Int32Array;
  private readonly digitsEnd: Uint32Array;
  /** Grown as needed: most values of a record have two or three words of digits. */
  private digits: Int32Array;
  private written = 0;
  private digitsWritten = 0;

  constructor(
    count: number,
    private readonly constructors: readonly DecimalConstructor[],
  ) {
    this.constructorOf = new Uint8Array(count);
    this.sign = new Int8Array(count);
    this.exponent = new Int32Array(count);
    this.digitsEnd = new Uint32Array(count);
    this.digits = new Int32Array(Math.max(16, count * 3));
  }

  add(value: Decimal | undefined | null): void {
    const at = this.written++;
    if (value === undefined || value === null) {
      this.constructorOf[at] = ABSENT;
      this.digitsEnd[at] = this.digitsWritten;
      return;
    }
    const index = constructorIndex(value, this.constructors);
    const internal = value as unknown as { s: number; e: number; d: number[] };
    const words = internal.d;
    if (this.digitsWritten + words.length > this.digits.length) {
      const grown = new Int32Array(Math.max(this.digits.length * 2, this.digitsWritten + words.length));
      grown.set(this.digits);
      this.digits = grown;
    }
    for (let i = 0; i < words.length; i++) this.digits[this.digitsWritten++] = words[i]!;
    this.constructorOf[at] = index;
    this.sign[at] = internal.s;
    this.exponent[at] = internal.e;
    this.digitsEnd[at] = this.digitsWritten;
  }

  /** The column; every one of the `count` values must have been added. */
  column(): DecimalColumn {
    if (this.written !== this.constructorOf.length)
      throw new Error(`${this.written} of ${this.constructorOf.length} decimals written`);
    return {
      constructorOf: this.constructorOf,
      sign: this.sign,
      exponent: this.exponent,
      digitsEnd: this.digitsEnd,
      digits: this.digits.slice(0, this.digitsWritten),
    };
  }
}

/** The buffers of a column, to hand over without a copy. */
export function columnBuffers(column: DecimalColumn): ArrayBuffer[] {
  return [column.constructorOf, column.sign, column.exponent, column.digitsEnd, column.digits].map(
    (array) => array.buffer as ArrayBuffer,
  );
}

/** The `index`th value of a column, made again with its own constructor; undefined where it was absent. */
export function decimalAt(
  column: DecimalColumn,
  index: number,
  constructors: readonly DecimalConstructor[],
): Decimal | undefined {
  const made = column.constructorOf[index]!;
  if (made === ABSENT) return undefined;
  const from = index === 0 ? 0 : column.digitsEnd[index - 1]!;
  // Copied word by word: a view and `Array.from` for each of a record's hundreds of thousands of values cost more.
  const count = column.digitsEnd[index]! - from;
  const digits = new Array<number>(count);
  for (let i = 0; i < count; i++) digits[i] = column.digits[from + i]!;
  return madeAgain(constructors[made]!, column.sign[index]!, column.exponent[index]!, digits);
}

/** The key that marks a Decimal's record: no object of ours has it. */
const MARK = '\u0000decimal';

interface DecimalRecord {
  [MARK]: number;
  s: number;
  e: number;
  d: number[];
}

export function withDecimalsCloneable(value: unknown, constructors: readonly DecimalConstructor[]): unknown {
  const seen = new Map<object, unknown>();
  const prototype = constructors[0]!.prototype;
  const copy = (item: unknown): unknown => {
    if (typeof item !== 'object' || item === null || item instanceof Date) return item;
    const known = seen.get(item);
    if (known !== undefined) return known;
    let out: unknown;
    if (Object.getPrototypeOf(item) === prototype) {
      const index = constructorIndex(item as Decimal, constructors);
      const internal = item as unknown as { s: number; e: number; d: number[] };
      out = { [MARK]: index, s: internal.s, e: internal.e, d: internal.d } satisfies DecimalRecord;
    } else if (Array.isArray(item)) {
      const list: unknown[] = new Array(item.length);
      seen.set(item, list);
      for (let i = 0; i < item.length; i++) list[i] = copy(item[i]);
      out = list;
    } else if (item instanceof Map) {
      const map = new Map();
      seen.set(item, map);
      for (const [key, entry] of item) map.set(copy(key), copy(entry));
      out = map;
    } else {
      const object: Record<string, unknown> = {};
      seen.set(item, object);
      for (const key of Object.keys(item)) object[key] = copy((item as Record<string, unknown>)[key]);
      out = object;
    }
    seen.set(item, out);
    return out;
  };
  return copy(value);
}

export function withDecimalsRestored<T>(value: unknown, constructors: readonly DecimalConstructor[]): T {
  const seen = new Map<object, unknown>();
  const restore = (item: unknown): unknown => {
    if (typeof item !== 'object' || item === null || item instanceof Date) return item;
    const known = seen.get(item);
    if (known !== undefined) return known;
    let out: unknown;
    if (Array.isArray(item)) {
      seen.set(item, item);
      for (let i = 0; i < item.length; i++) item[i] = restore(item[i]);
      out = item;
    } else if (item instanceof Map) {
      const map = new Map();
      seen.set(item, map);
      for (const [key, entry] of item) map.set(restore(key), restore(entry));
      out = map;
    } else if (MARK in item) {
      const record = item as DecimalRecord;
      out = madeAgain(constructors[record[MARK]]!, record.s, record.e, record.d);
    } else {
      seen.set(item, item);
      const object = item as Record<string, unknown>;
      for (const key of Object.keys(object)) object[key] = restore(object[key]);
      out = object;
    }
    seen.set(item, out);
    return out;
  };
  return restore(value) as T;
}
