/**
 * docs/tax-method.md and the tax pack say the same thing: the page's pack-text block is exactly what
 * pipeline/tax/products/pack/pack-text.ts renders (the PDF's and README.txt's words). A change to one without
 * the other fails here; `make docs-text` brings the page in line.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  HMRC_METHOD,
  LIMITS,
  NOT_TAX_ADVICE,
  PACK_FILES,
  packReadme,
} from '../../pipeline/tax/products/pack/pack-text.js';
import { pageBlock, renderPackText, TAX_METHOD_PAGE } from '../tools/tax-method-text.js';

/** Markdown back to the words a reader sees: markers and escapes removed, whitespace folded. */
function words(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/\\([*_<>\\|])/g, '$1')
    .replace(/\*\*/g, '')
    .replace(/`/g, '')
    .replace(/\s+/g, ' ');
}

describe('docs/tax-method.md and the pack', () => {
  const page = readFileSync(TAX_METHOD_PAGE, 'utf8');

  it("holds the pack's text block exactly as pack-text.ts renders it (run `make docs-text` after a change)", () => {
    expect(pageBlock(page)).toBe(renderPackText());
  });

  it('every sentence of the disclaimer, the method, the limits and the file list reads on the page as in README.txt', () => {
    const onPage = words(page);
    const readme = words(packReadme('t', 'ord_x', '2025/26'));
    for (const text of [NOT_TAX_ADVICE, ...HMRC_METHOD, ...LIMITS, ...PACK_FILES.map(([, t]) => t)]) {
      const plain = words(text).trim();
      expect(readme).toContain(plain);
      expect(onPage).toContain(plain);
    }
  });
});
