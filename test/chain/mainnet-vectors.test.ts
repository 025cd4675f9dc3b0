/**
 * Real mainnet bytes (`mainnet-vectors/sn70-v2-shares.json`, captured from finney at spec 475 and 455; see
 * PROVENANCE.md there) through the project's own codec and the code that publishes yields: every storage key
 * rebuilt from the metadata equals the captured one, every value decodes, and the share-price index of a
 * hotkey on subnet 70, computed by `decodeSharePool` (the V2 denominator as a SafeFloat) and `networkYields`,
 * moves as it did on the chain: flat between epochs, +0.0279 % at the epoch block, +22.689 % over 30 days.
 * A growth is a ratio, in which a uniform scale cancels (a SafeFloat exponent read one off everywhere gives the
 * same growth), so the absolute share-price index (`TotalHotkeyAlpha ÷ shares`) of every captured pool is held
 * to the captured one too, read the way the product reads a pool (`decodeSharePool`: the runtime codec, then
 * `safeFloatOf`) and valued in the product's own share arithmetic (`scaledShareRatio`).
 */
import { readFileSync } from 'node:fs';
import { hexToU8a } from '@polkadot/util';
import { Decimal } from 'decimal.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SafeFloat, scaledShareRatio } from '../../pipeline/amounts/safe-float.js';
import { RuntimeCodec } from '../../pipeline/chain/runtime-codec.js';
import { decodeSharePool, type SharePool } from '../../pipeline/chain/share-pools.js';
import { loadRuntimes } from '../../pipeline/devnet/runtime/runtimes.js';
import { networkYields } from '../../pipeline/tax/uk-rules/network-yields.js';

interface Entry {
  item: string;
  args: Array<string | number>;
  key: string;
  value: string | null;
}
/** What the capture's extractor wrote beside a hotkey's raw values (Python decimal, 100 digits). */
interface Captured {
  total_alpha_rao: string;
  shares_mantissa: string;
  shares_exponent: number;
  shares: string;
  /** `total_alpha_rao ÷ shares`, 30 significant digits. */
  index: string;
}
interface Snapshot {
  block: number;
  spec_version: number;
  netuid_items: Entry[];
  hotkeys: Array<{ hotkey: string; entries: Entry[]; decoded: Captured }>;
}
interface Vectors {
  snapshots: Snapshot[];
  index_changes_percent: Array<Record<string, string>>;
}

const vectors = JSON.parse(
  readFileSync(new URL('./mainnet-vectors/sn70-v2-shares.json', import.meta.url), 'utf8'),
) as Vectors;
const NETUID = 70;
const HOTKEY = '0x56a9aee6291bd03ab6d36d4d13e2bebae7cd403518066c72fba1b417d6ddd748';
const REGISTERED_AT = 8_825_571;
const READ_BY_THE_PRODUCT = new Set([
  'NetworkRegisteredAt',
  'TotalHotkeyAlpha',
  'TotalHotkeyShares',
  'TotalHotkeySharesV2',
]);

let codec: RuntimeCodec;

beforeAll(() => {
  // The sandbox's stand-in for today's runtime: the metadata a spec-473+ node serves has the same share items.
  const runtime = loadRuntimes().spec425;
  codec = new RuntimeCodec(runtime.specVersion, runtime.metadataHex);
});

function split(item: string): [string, string] {
  const [pallet, name] = item.split('.') as [string, string];
  return [pallet, name];
}

function snapshot(block: number): Snapshot {
  const found = vectors.snapshots.find((s) => s.block === block);
  if (!found) throw new Error(`no snapshot at ${block}`);
  return found;
}

/** The hotkey's pool at a captured block, decoded as `readSharePools` decodes every pool it reads. */
function poolAt(block: number, hotkey = HOTKEY): SharePool {
  const entries = snapshot(block).hotkeys.find((h) => h.hotkey === hotkey)!.entries;
  const entry = (name: string) => entries.find((e) => e.item === `SubtensorModule.${name}`)!;
  const pool = decodeSharePool(codec, entry('TotalHotkeyAlpha').key, {
    alpha: entry('TotalHotkeyAlpha').value,
    sharesV1: entry('TotalHotkeyShares').value,
    sharesV2: entry('TotalHotkeySharesV2').value,
  });
  if (!pool) throw new Error(`no pool at ${block}`);
  return { ...pool, registeredAt: REGISTERED_AT };
}

/** The growth of one share's worth from `from` to `to`, through the published-yield computation. */
function growth(from: number, to: number, hotkey = HOTKEY): number {
  const result = networkYields({
    // Two captures compared as two consecutive day ends: a one-day window.
    window: { from: '2026-10-08', to: '2026-10-09', days: 1 },
    start: [poolAt(from, hotkey)],
    end: [poolAt(to, hotkey)],
    startReserves: [{ netuid: NETUID, registeredAt: REGISTERED_AT, subnetTaoRao: 1n, subnetAlphaInRao: 1n }],
    computedAt: new Date('2026-10-09T03:28:05Z'),
  });
  const rate = result.subnets[0]?.yield;
  if (rate === null || rate === undefined) throw new Error('no yield computed');
  // A one-day window's yield is growth × 365.
  return rate / 365;
}

describe('real finney bytes of subnet 70 (spec 475 and 455)', () => {
  it('rebuilds every captured storage key from the metadata', () => {
    let rebuilt = 0;
    for (const snap of vectors.snapshots) {
      for (const entry of [...snap.netuid_items, ...snap.hotkeys.flatMap((h) => h.entries)]) {
        const [pallet, name] = split(entry.item);
        if (name === 'TotalHotkeyShares' && !codec.hasStorage(pallet, name)) {
          // Gone from the metadata since spec 473, and absent on the chain.
          expect(entry.value).toBeNull();
          continue;
        }
        // LastEpochBlock came after the runtime the sandbox's metadata stands on; the product never reads it.
        if (!READ_BY_THE_PRODUCT.has(name) && !codec.hasStorage(pallet, name)) continue;
        const args = entry.args.map((arg) => (typeof arg === 'string' ? hexToU8a(arg) : arg));
        expect(codec.storageKey(pallet, name, ...args)).toBe(entry.key.toLowerCase());
        rebuilt++;
      }
    }
    // Per snapshot: NetworkRegisteredAt, and TotalHotkeyAlpha and TotalHotkeySharesV2 of each hotkey.
    expect(rebuilt).toBeGreaterThanOrEqual(3 * (1 + 4 * 2) + (1 + 2));
  });

  it('decodes every value as the product reads a pool: the V1 shares absent, the V2 ones the captured SafeFloats', () => {
    let pools = 0;
    for (const snap of vectors.snapshots) {
      const registered = snap.netuid_items.find((e) => e.item.endsWith('.NetworkRegisteredAt'))!;
      expect(
        codec.decodeStorage('SubtensorModule', 'NetworkRegisteredAt', registered.value)?.toString(),
      ).toBe(String(REGISTERED_AT));
      for (const { hotkey, entries, decoded: captured } of snap.hotkeys) {
        const value = (name: string) => entries.find((e) => e.item === `SubtensorModule.${name}`)!.value;
        expect(value('TotalHotkeyShares')).toBeNull();
        const pool = poolAt(snap.block, hotkey);
        expect(pool.totalSharesBits).toBeNull();
        expect(pool.netuid).toBe(NETUID);
        expect(pool.totalAlphaRao).toBe(BigInt(captured.total_alpha_rao));
        // Mantissa and exponent as the capture's extractor read the bytes (its own little-endian reading).
        expect(pool.totalShares).toEqual({
          mantissa: BigInt(captured.shares_mantissa),
          exponent: BigInt(captured.shares_exponent),
        });
        // The chain keeps the mantissa normalised to 21 digits.
        expect(pool.totalShares.mantissa.toString()).toHaveLength(21);
        pools++;
      }
    }
    expect(pools).toBe(3 * 4 + 1);
  });

  it('gives every captured pool its absolute share-price index, TotalHotkeyAlpha ÷ shares, to 30 digits', () => {
    const Precise = Decimal.clone({ precision: 100 });
    /** The shares as a number, from the pool the product decoded (value = mantissa × 10^exponent). */
    const shares = (value: SafeFloat) =>
      new Precise(value.mantissa.toString()).mul(new Precise(10).pow(value.exponent.toString()));
    /** One share (1 × 10^0, as the chain normalises it), for the product's own share arithmetic. */
    const oneShare: SafeFloat = { mantissa: 10n ** 21n, exponent: -21n };
    let checked = 0;
    for (const snap of vectors.snapshots) {
      for (const { hotkey, decoded: captured } of snap.hotkeys) {
        const pool = poolAt(snap.block, hotkey);
        const index = new Precise(pool.totalAlphaRao.toString()).div(shares(pool.totalShares));
        const where = `${hotkey.slice(0, 6)} at ${snap.block}`;
        expect(index.toPrecision(30, Decimal.ROUND_HALF_EVEN), where).toBe(captured.index);
        // What one share is worth in the product's share arithmetic (what a yield's growth is made of), in
        // units of 2^-96 RAO of alpha per RAO-share: the same index to 25 digits.
        const worth = new Precise(
          scaledShareRatio(pool.totalAlphaRao, oneShare, pool.totalShares, 96n).toString(),
        ).div(new Precise(2).pow(96));
        expect(worth.toSignificantDigits(25).toFixed(), where).toBe(
          new Precise(captured.index).toSignificantDigits(25).toFixed(),
        );
        checked++;
      }
    }
    expect(checked).toBe(3 * 4 + 1);
    // And the two indices the capture's own expectations name for hotkey 0x56a9… (1.32966728… → 1.63135978…).
    const named = vectors.index_changes_percent.find((c) => c['index_9024582'] !== undefined)!;
    for (const block of [9_024_582, 9_240_582]) {
      const pool = poolAt(block);
      const index = new Precise(pool.totalAlphaRao.toString()).div(shares(pool.totalShares));
      expect(index.toPrecision(30, Decimal.ROUND_HALF_EVEN)).toBe(named[`index_${block}`]);
    }
    expect(named['index_9024582']!.slice(0, 10)).toBe('1.32966728');
    expect(named['index_9240582']!.slice(0, 10)).toBe('1.63135978');
  });

  it('the share price of hotkey 0x56a9… is flat between epochs and rises 0.0279 % at the epoch block', () => {
    const pool = poolAt(9_240_582);
    expect(pool.totalSharesBits).toBeNull();
    expect(pool.netuid).toBe(NETUID);
    expect(Math.abs(growth(9_240_222, 9_240_581))).toBeLessThan(1e-15);
    const jump = growth(9_240_581, 9_240_582) * 100;
    expect(jump).toBeCloseTo(0.0278628238219, 9);
    expect(jump.toFixed(4)).toBe('0.0279');
  });

  it('rises 22.689 % from 9,024,582 (spec 455) to 9,240,582, and the other hotkeys jump as captured', () => {
    expect(growth(9_024_582, 9_240_582) * 100).toBeCloseTo(22.6893227907, 8);
    const jumps = vectors.index_changes_percent.filter((c) => c['pct_9240581_to_9240582'] !== undefined);
    expect(jumps).toHaveLength(4);
    for (const change of jumps) {
      const hotkey = change['hotkey']!;
      expect(growth(9_240_581, 9_240_582, hotkey) * 100).toBeCloseTo(
        Number(change['pct_9240581_to_9240582']),
        9,
      );
      expect(Math.abs(growth(9_240_222, 9_240_581, hotkey))).toBeLessThan(1e-15);
    }
  });
});
