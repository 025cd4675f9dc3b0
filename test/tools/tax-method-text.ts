/**
 * The part of docs/tax-method.md that is the tax pack's own text: rendered from
 * pipeline/tax/products/pack/pack-text.ts (the words the PDF and README.txt print), so the page and the pack never
 * say two different things. `make docs-text` (this file with `--write`) rewrites the block between the
 * markers; test/docs/tax-method-text.test.ts fails when the page and pack-text.ts differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  HMRC_METHOD,
  LIMITS,
  NOT_TAX_ADVICE,
  PACK_FILES,
} from '../../pipeline/tax/products/pack/pack-text.js';

export const TAX_METHOD_PAGE = path.resolve(import.meta.dirname, '../../docs/tax-method.md');
export const BEGIN =
  '<!-- pack-text:begin (generated from pipeline/tax/products/pack/pack-text.ts by `make docs-text`; do not edit) -->';
export const END = '<!-- pack-text:end -->';

/** A sentence of the pack as Markdown: nothing to escape but the characters Markdown would read. */
function markdown(text: string): string {
  return text.replace(/([*_<>\\])/g, '\\$1');
}

/** The pack's words as Markdown: the disclaimer, the method, the limits and the files. */
export function renderPackText(): string {
  const method = HMRC_METHOD.map((paragraph) => {
    const [, title, rest] = /^([^.]+)\.\s(.*)$/s.exec(paragraph) ?? [];
    return title && rest ? `**${markdown(title)}.** ${markdown(rest)}` : markdown(paragraph);
  });
  return [
    BEGIN,
    '',
    `> ${markdown(NOT_TAX_ADVICE)}`,
    '',
    '### Method',
    '',
    ...method.flatMap((paragraph) => [paragraph, '']),
    '### Limits and assumptions',
    '',
    ...LIMITS.map((limit) => `- ${markdown(limit)}`),
    '',
    '### The files of the pack',
    '',
    '| file | what it holds |',
    '|---|---|',
    ...PACK_FILES.map(([name, text]) => `| \`${name}\` | ${markdown(text).replace(/\|/g, '\\|')} |`),
    '',
    END,
  ].join('\n');
}

/** The block as the page holds it now, or null without both markers. */
export function pageBlock(page: string): string | null {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start < 0 || end < start) return null;
  return page.slice(start, end + END.length);
}

if (process.argv.includes('--write')) {
  const page = readFileSync(TAX_METHOD_PAGE, 'utf8');
  const block = pageBlock(page);
  if (block === null) {
    process.stderr.write(`error: ${TAX_METHOD_PAGE} has no pack-text markers\n`);
    process.exit(1);
  }
  const next = page.replace(block, renderPackText());
  if (next !== page) writeFileSync(TAX_METHOD_PAGE, next);
  process.stdout.write(
    next === page ? 'docs/tax-method.md: up to date\n' : 'docs/tax-method.md: rewritten\n',
  );
}
