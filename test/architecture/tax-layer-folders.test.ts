/**
 * The tax code is its three layers and nothing beside them: a file at `pipeline/tax/`'s root, or a fourth
 * folder, would belong to no layer, and the layer rules of .dependency-cruiser.cjs would not see it.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('pipeline/tax', () => {
  it('holds only its three layers: chain-record/, uk-rules/ and products/', () => {
    const entries = readdirSync('pipeline/tax', { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? `${entry.name}/` : entry.name,
    );
    expect(entries.sort()).toEqual(['chain-record/', 'products/', 'uk-rules/']);
  });
});
