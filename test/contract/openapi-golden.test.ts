import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildDataDocument } from '../../pipeline/contract/openapi/data-document.js';
import { buildTaxDocument } from '../../pipeline/contract/openapi/tax-document.js';

/**
 * The published documents are part of the interface: a change must be deliberate. `make golden`
 * (UPDATE_GOLDEN=1) rewrites the golden copies; review and commit them with the change.
 */
const documents = {
  'data-openapi.json': buildDataDocument,
  'tax-openapi.json': buildTaxDocument,
};

describe('OpenAPI golden files', () => {
  for (const [file, build] of Object.entries(documents)) {
    it(`${file} matches its golden copy`, async () => {
      const path = fileURLToPath(new URL(`../golden/${file}`, import.meta.url));
      const current = `${JSON.stringify(build(), null, 2)}\n`;
      if (process.env['UPDATE_GOLDEN'] === '1') await writeFile(path, current);
      const golden = await readFile(path, 'utf8').catch(() => '');
      expect(current, `${file} changed: run \`make golden\` and commit test/golden/${file}`).toBe(golden);
    });
  }
});
