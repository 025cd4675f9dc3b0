/** The text of a PDF as `pdftotext -layout` (poppler-utils, installed when missing) extracts it. */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePoppler } from './poppler.js';

export function pdfToText(pdf: Uint8Array, dir: string): string {
  ensurePoppler();
  const path = join(dir, `extract-${process.pid}-${Date.now()}.pdf`);
  writeFileSync(path, pdf);
  return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
}
