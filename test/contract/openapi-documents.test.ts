import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { buildDataDocument } from '../../pipeline/contract/openapi/data-document.js';
import { buildTaxDocument } from '../../pipeline/contract/openapi/tax-document.js';

type Document = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, OpenApiOp>>;
};
type OpenApiOp = {
  parameters?: { name: string; in: string; schema: { type?: string; enum?: number[]; default?: number } }[];
  responses: Record<string, unknown>;
};

async function validate(document: object) {
  const validator = new Validator();
  return validator.validate(structuredClone(document) as Parameters<Validator['validate']>[0]);
}

describe('generated OpenAPI documents', () => {
  it('the data document is valid OpenAPI 3.1 with every /api/v1 path of spec 4.1 and 4.2', async () => {
    const document = buildDataDocument() as unknown as Document;
    const result = await validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.info.version).toBe('1.0.0');
    expect(Object.keys(document.paths).sort()).toEqual([
      '/api/v1/emissions',
      '/api/v1/emissions/events',
      '/api/v1/emissions/{netuid}/history',
      '/api/v1/subnets',
      '/api/v1/subnets/{netuid}',
      '/api/v1/subnets/{netuid}/history',
      '/api/v1/subnets/{netuid}/history.csv',
      // An addition of issue 27 (the API plan): the calling key's usage, not counted.
      '/api/v1/usage',
    ]);
  });

  it('history windows: days is an integer enum 7/30/90/365, default 7 (JSON) and 90 (CSV)', () => {
    const paths = (buildDataDocument() as unknown as Document).paths;
    const days = (path: string) => paths[path]!['get']!.parameters!.find((p) => p.name === 'days')!.schema;
    expect(days('/api/v1/subnets/{netuid}/history')).toMatchObject({
      type: 'integer',
      enum: [7, 30, 90, 365],
      default: 7,
    });
    expect(days('/api/v1/subnets/{netuid}/history.csv')).toMatchObject({
      enum: [7, 30, 90, 365],
      default: 90,
    });
    const netuid = paths['/api/v1/subnets/{netuid}']!['get']!.parameters!.find((p) => p.name === 'netuid')!;
    expect(netuid).toMatchObject({ in: 'path', schema: { type: 'integer' } });
    for (const status of ['200', '401', '404', '422', '429']) {
      expect(Object.keys(paths['/api/v1/subnets/{netuid}/history']!['get']!.responses)).toContain(status);
    }
  });

  it('the tax document is valid OpenAPI 3.1 with the check, order, pack, records, checkout and webhook paths', async () => {
    const document = buildTaxDocument() as unknown as Document;
    const result = await validate(document);
    expect(result.errors).toBeUndefined();
    expect(Object.keys(document.paths).sort()).toEqual([
      '/tax/check.json',
      '/tax/checkout',
      '/tax/orders/{order_id}',
      '/tax/orders/{order_id}/pack',
      '/tax/orders/{order_id}/records',
      '/tax/webhooks/stripe',
    ]);
  });

  it('a broken document is rejected by the validator (the check can fail)', async () => {
    const document = buildDataDocument() as unknown as Record<string, unknown>;
    const broken = { ...document, paths: { '/x': { get: { responses: { '200': { schema: 1 } } } } } };
    expect((await validate(broken)).valid).toBe(false);
  });
});
