/**
 * The sandbox's quick encoding of unsigned integers, compacts, account ids and an extrinsic's dispatch info
 * (every event field of most blocks) gives exactly the bytes the type registry gives, and leaves every other
 * value to the registry.
 */
import { describe, expect, it, vi } from 'vitest';
import { loadRuntimes } from '../../pipeline/devnet/runtime/runtimes.js';

const runtime = loadRuntimes().bySpec(393);
const viaRegistry = (type: string, value: unknown) =>
  runtime.registry.createTypeUnsafe(type, [value]).toU8a();

describe('the sandbox runtime encodes values as the registry does', () => {
  const widths = { u8: 8, u16: 16, u32: 32, u64: 64, u128: 128 } as const;
  for (const [type, bits] of Object.entries(widths)) {
    it(`${type}: zero, small, the largest value, as a number and as a bigint`, () => {
      const largest = (1n << BigInt(bits)) - 1n;
      const values: unknown[] = [0, 1, 255n, largest];
      if (bits > 8) values.push(256, 65_535n);
      if (largest <= BigInt(Number.MAX_SAFE_INTEGER)) values.push(Number(largest));
      for (const value of values) expect(runtime.encode(type, value)).toEqual(viaRegistry(type, value));
    });
  }

  it('a value too large or negative is refused as the registry refuses it', () => {
    expect(() => runtime.encode('u16', 70_000)).toThrow();
    expect(() => runtime.encode('u64', 1n << 64n)).toThrow();
    expect(() => viaRegistry('u64', 1n << 64n)).toThrow();
    expect(() => runtime.encode('u32', -1)).toThrow();
  });

  it('an account id: its 32 bytes, whether given as bytes or as an address', () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => i * 7);
    expect(runtime.encode('AccountId32', bytes)).toEqual(viaRegistry('AccountId32', bytes));
    const address = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
    expect(runtime.encode('AccountId32', address)).toEqual(viaRegistry('AccountId32', address));
    // The bytes handed in are not the ones handed back (a caller may reuse its array).
    expect(runtime.encode('AccountId32', bytes)).not.toBe(bytes);
  });

  it('a compact: each of its lengths, up to the largest value of its width', () => {
    for (const value of [0, 63, 64, 16_383, 16_384, 1_073_741_823, 1_073_741_824n, (1n << 64n) - 1n])
      expect(runtime.encode('Compact<u64>', value)).toEqual(viaRegistry('Compact<u64>', value));
    expect(() => runtime.encode('Compact<u64>', 1n << 64n)).toThrow();
  });

  // Every extrinsic's `System.ExtrinsicSuccess` carries one: a struct of a struct of compacts and two enums.
  const dispatchInfo = (() => {
    const shape = runtime.event('System.ExtrinsicSuccess');
    return shape.fieldTypes[0]!;
  })();

  it("an extrinsic's dispatch info, as every block's events give it", () => {
    for (const value of [
      { weight: { refTime: 0, proofSize: 1_493 }, class: 'Mandatory', paysFee: 'No' },
      { weight: { refTime: 250_000_000_000n, proofSize: 12_999 }, class: 'Normal', paysFee: 'Yes' },
      { weight: { refTime: 7, proofSize: 0 }, class: 'Operational', paysFee: 'Yes' },
    ])
      expect(runtime.encode(dispatchInfo, value)).toEqual(viaRegistry(dispatchInfo, value));
  });

  it("every block's dispatch info and an account's balances are written without the registry", () => {
    const made = vi.spyOn(runtime.registry, 'createTypeUnsafe');
    try {
      runtime.encode(dispatchInfo, {
        weight: { refTime: 9, proofSize: 4_009 },
        class: 'Normal',
        paysFee: 'Yes',
      });
      runtime.encode(runtime.storageValueType('System.Account'), {
        nonce: 1,
        consumers: 0,
        providers: 1,
        sufficients: 0,
        data: { free: 10n, reserved: 0n, frozen: 0n, flags: 1n << 127n },
      });
      // Only empty instances (to learn a type's shape, once per type) may be made; no value goes through it.
      expect(made.mock.calls.filter(([, args]) => (args as unknown[]).length > 0)).toEqual([]);
    } finally {
      made.mockRestore();
    }
  });

  it("an account's balances (System.Account: integers in a struct in a struct)", () => {
    const type = runtime.storageValueType('System.Account');
    const value = {
      nonce: 96,
      consumers: 0,
      providers: 1,
      sufficients: 0,
      data: { free: 123_456_789_012_345n, reserved: 5n, frozen: 0n, flags: 1n << 127n },
    };
    expect(runtime.encode(type, value)).toEqual(viaRegistry(type, value));
  });

  it('a struct missing a field, with one more, or an enum spelt otherwise, is encoded as the registry reads it', () => {
    for (const value of [
      { weight: { refTime: 5 }, class: 'Mandatory' },
      { weight: { refTime: 5, proofSize: 1 }, class: 'Normal', paysFee: 'No', extra: 1 },
      { weight: { refTime: 5, proofSize: 1 }, class: 'mandatory', paysFee: 1 },
    ])
      expect(runtime.encode(dispatchInfo, value)).toEqual(viaRegistry(dispatchInfo, value));
    expect(() =>
      runtime.encode(dispatchInfo, { weight: { refTime: -1, proofSize: 1 }, class: 'Normal', paysFee: 'No' }),
    ).toThrow();
  });

  it('other values go through the registry: a decimal string, a bool', () => {
    expect(runtime.encode('u64', '1000000000')).toEqual(viaRegistry('u64', '1000000000'));
    expect(runtime.encode('Compact<u64>', '5')).toEqual(viaRegistry('Compact<u64>', '5'));
    expect(runtime.encode('bool', true)).toEqual(viaRegistry('bool', true));
  });
});
