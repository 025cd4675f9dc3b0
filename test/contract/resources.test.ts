import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contract from '../../pipeline/contract/index.js';
import { samples } from './samples.js';

const schemas = contract as unknown as Record<string, z.ZodType>;

/** A required field of each resource, and a wrong-typed value for one of its fields. */
const breakages: Record<string, { drop: string; wrong: [string, unknown] }> = {
  Envelope: { drop: 'as_of', wrong: ['freshness', 'fresh'] },
  Claim: { drop: 'source', wrong: ['reviewed', 5] },
  SubnetRow: { drop: 'tao_7d', wrong: ['netuid', 7.5] },
  HistoryDay: { drop: 'partial_day', wrong: ['burns', '2'] },
  SubnetList: { drop: 'trend', wrong: ['rows', {}] },
  SubnetDetail: { drop: 'subnet', wrong: ['burns_checked_at', 0] },
  SubnetHistory: { drop: 'coverage', wrong: ['days', '7'] },
  ValidationError: { drop: 'loc', wrong: ['msg', null] },
  HTTPValidationError: { drop: 'detail', wrong: ['detail', 'oops'] },
  ErrorBody: { drop: 'detail', wrong: ['detail', []] },
  TaxCheck: { drop: 'tax45', wrong: ['tax_year', '2026-27'] },
  Order: { drop: 'retention_days', wrong: ['status', 'refunded'] },
  EmissionsSnapshot: { drop: 'rows', wrong: ['observed_block', 'x'] },
  EmissionEvents: { drop: 'coverage', wrong: ['next_before_block', 1.5] },
  EmissionHistory: { drop: 'resolution', wrong: ['resolution', 'weekly'] },
  CheckoutRequest: { drop: 'coldkeys', wrong: ['coldkeys', ['not-an-address']] },
  CheckoutSession: { drop: 'checkout_url', wrong: ['order_id', 1] },
  Sku: { drop: 'amount_minor', wrong: ['sku', 'uk-1999-00'] },
};

describe('contract resources', () => {
  for (const [name, sample] of Object.entries(samples)) {
    const schema = schemas[name];
    const breakage = breakages[name];
    it(`${name}: accepts a valid sample, rejects a missing required field and a wrong type`, () => {
      expect(schema, `schema ${name} is exported`).toBeDefined();
      expect(breakage, `breakage listed for ${name}`).toBeDefined();
      expect(schema!.safeParse(sample).success).toBe(true);

      const { [breakage!.drop]: _dropped, ...missing } = sample;
      expect(schema!.safeParse(missing).success).toBe(false);

      const [field, value] = breakage!.wrong;
      expect(schema!.safeParse({ ...sample, [field]: value }).success).toBe(false);
    });
  }

  it('SubnetRow: spark7 defaults to an empty array and the optional fields may be absent', () => {
    const parsed = contract.SubnetRow.parse(samples['SubnetRow']);
    expect(parsed.spark7).toEqual([]);
    expect(parsed.first_burn).toBeUndefined();
  });

  it('SubnetList: trend accepts members beyond the published ones (free-form object)', () => {
    const list = samples['SubnetList']!;
    const trend = { ...(list['trend'] as object), extra: 1 };
    expect(contract.SubnetList.safeParse({ ...list, trend }).success).toBe(true);
  });

  it('Coldkey: 47 or 48 base58 characters starting with 5', () => {
    const valid = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
    expect(contract.Coldkey.safeParse(valid).success).toBe(true);
    expect(contract.Coldkey.safeParse(valid.slice(0, 47)).success).toBe(true);
    expect(contract.Coldkey.safeParse(valid.slice(0, 46)).success).toBe(false);
    expect(contract.Coldkey.safeParse(`6${valid.slice(1)}`).success).toBe(false);
    expect(contract.Coldkey.safeParse(`${valid.slice(0, 47)}0`).success).toBe(false);
  });
});
