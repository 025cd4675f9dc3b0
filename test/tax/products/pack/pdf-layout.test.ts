/**
 * The PDF never runs text off the page: a line wider than the space between the margins (an address with a
 * note after it, as the followed coldkey's pages have) is wrapped onto a second line, read back from the
 * rendered PDF with poppler's pdftotext -bbox (every word's right edge within the right margin).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { MARGIN, PAGE, PdfWriter } from '../../../../pipeline/tax/products/pack/pdf-layout.js';
import { ensurePoppler } from './poppler.js';

const LONG =
  'Followed from 5EzDWP7d7SwguMfgW2k7atrNAsfJ9s6R7qBtmsWxy4168MmT after its coldkey swap (ColdkeySwapped, block 4381)';

describe('a line too wide for the page', () => {
  it('is wrapped within the right margin, every word kept', async () => {
    const pdf = await PDFDocument.create();
    const w = new PdfWriter(
      pdf,
      await pdf.embedFont(StandardFonts.Helvetica),
      await pdf.embedFont(StandardFonts.HelveticaBold),
    );
    w.line(LONG, { size: 11 });
    ensurePoppler();
    const path = join(mkdtempSync(join(tmpdir(), 'pdf-layout-')), 'line.pdf');
    writeFileSync(path, await pdf.save());
    const html = execFileSync('pdftotext', ['-bbox', path, '-'], { encoding: 'utf8' });
    const words = [
      ...html.matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="([\d.]+)"[^>]*>([^<]*)<\/word>/g),
    ];
    expect(words.map((m) => m[3]).join(' ')).toBe(LONG);
    expect(Math.max(...words.map((m) => Number(m[2])))).toBeLessThanOrEqual(PAGE[0] - MARGIN);
    expect(new Set(words.map((m) => m[1])).size).toBe(2);
  });
});
