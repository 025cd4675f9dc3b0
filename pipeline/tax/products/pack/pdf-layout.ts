/**
 * A small top-to-bottom page writer over pdf-lib: headings, wrapped paragraphs, tables with right-aligned
 * numbers, a bar chart drawn with rectangles and lines, and page numbers added once the pages are known.
 * Text is WinAnsi (Helvetica's encoding): anything outside it is replaced, never left to throw.
 */
import { type PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib';

export const PAGE: [number, number] = [595.28, 841.89]; // A4 in points
export const MARGIN = 50;
const BOTTOM = 60; // room for the page number
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.4, 0.45);
const RULE = rgb(0.8, 0.82, 0.86);
const BAR = rgb(0.16, 0.42, 0.7);
const BAR_NEGATIVE = rgb(0.78, 0.24, 0.2);

/** Characters Helvetica's WinAnsi encoding has (printable ASCII and Latin-1, plus £ and the dashes). */
export function winAnsi(text: string): string {
  return text.replace(/[^\x20-\x7e\xa0-\xff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u20ac]/g, '?');
}

export interface Column {
  header: string;
  width: number;
  align?: 'left' | 'right';
}

export class PdfWriter {
  page!: PDFPage;
  y = 0;
  readonly pages: PDFPage[] = [];

  constructor(
    readonly pdf: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
  ) {
    this.newPage();
  }

  get width(): number {
    return PAGE[0] - 2 * MARGIN;
  }

  newPage(): void {
    this.page = this.pdf.addPage(PAGE);
    this.pages.push(this.page);
    this.y = PAGE[1] - MARGIN;
  }

  /** Starts a new page when less than `height` points are left. */
  need(height: number): void {
    if (this.y - height < BOTTOM) this.newPage();
  }

  text(
    text: string,
    x: number,
    options: { font?: PDFFont; size?: number; color?: ReturnType<typeof rgb> } = {},
  ): void {
    this.page.drawText(winAnsi(text), {
      x,
      y: this.y,
      size: options.size ?? 9.5,
      font: options.font ?? this.font,
      color: options.color ?? INK,
    });
  }

  line(
    text: string,
    options: { font?: PDFFont; size?: number; color?: ReturnType<typeof rgb>; indent?: number } = {},
  ): void {
    const size = options.size ?? 9.5;
    // A line too wide for the page is wrapped rather than run off it (an address with its note, say); a
    // single word is drawn as it is.
    const tooWide =
      (options.font ?? this.font).widthOfTextAtSize(winAnsi(text), size) > this.width - (options.indent ?? 0);
    if (tooWide && /\s/.test(text.trim())) {
      this.paragraph(text, options);
      return;
    }
    this.need(size + 4);
    this.text(text, MARGIN + (options.indent ?? 0), options);
    this.y -= size + 4;
  }

  heading(text: string, size = 12.5): void {
    // A heading keeps at least a few lines of what follows it on its page.
    this.need(size + 90);
    this.y -= 6;
    this.text(text, MARGIN, { font: this.bold, size });
    this.y -= 5;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: PAGE[0] - MARGIN, y: this.y },
      thickness: 0.6,
      color: RULE,
    });
    this.y -= size + 2;
  }

  gap(points = 6): void {
    this.y -= points;
  }

  /** Wraps `text` to the width, word by word (a word longer than the line is cut). */
  paragraph(
    text: string,
    options: { font?: PDFFont; size?: number; indent?: number; color?: ReturnType<typeof rgb> } = {},
  ): void {
    const font = options.font ?? this.font;
    const size = options.size ?? 9.5;
    const indent = options.indent ?? 0;
    const width = this.width - indent;
    let current = '';
    const flush = () => {
      if (current) this.line(current, { ...options, font, size, indent });
      current = '';
    };
    for (const word of winAnsi(text).split(/\s+/)) {
      const next = current ? `${current} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) > width && current) {
        flush();
        current = word;
      } else current = next;
    }
    flush();
    this.y -= 2;
  }

  /** A table: header row in bold, then rows; cells cut with an ellipsis when too wide for their column. */
  table(
    columns: readonly Column[],
    rows: readonly (readonly string[])[],
    options: { size?: number; boldLast?: boolean } = {},
  ): void {
    const size = options.size ?? 8.5;
    const rowHeight = size + 5;
    const drawRow = (cells: readonly string[], font: PDFFont) => {
      this.need(rowHeight);
      let x = MARGIN;
      columns.forEach((column, i) => {
        const cell = fitToWidth(winAnsi(cells[i] ?? ''), font, size, column.width - 4);
        const cellWidth = font.widthOfTextAtSize(cell, size);
        const at = column.align === 'right' ? x + column.width - 4 - cellWidth : x;
        this.page.drawText(cell, { x: at, y: this.y, size, font, color: INK });
        x += column.width;
      });
      this.y -= rowHeight;
    };
    this.need(rowHeight * Math.min(rows.length + 1, 4));
    drawRow(
      columns.map((c) => c.header),
      this.bold,
    );
    this.page.drawLine({
      start: { x: MARGIN, y: this.y + rowHeight - 3 },
      end: { x: MARGIN + columns.reduce((sum, c) => sum + c.width, 0), y: this.y + rowHeight - 3 },
      thickness: 0.4,
      color: RULE,
    });
    rows.forEach((row, i) => {
      drawRow(row, options.boldLast && i === rows.length - 1 ? this.bold : this.font);
    });
    this.y -= 4;
  }

  /** Vertical bars with labels under them and each value above (negative bars go below the axis, in red). */
  barChart(bars: readonly { label: string; value: number; text: string }[], height = 130): void {
    const labelRoom = 14;
    this.need(height + labelRoom + 20);
    const top = this.y - 12;
    const max = Math.max(0, ...bars.map((b) => b.value));
    const min = Math.min(0, ...bars.map((b) => b.value));
    const span = max - min || 1;
    const plot = height - 14;
    // With nothing to draw (every value 0) the axis sits at the bottom, where a chart of income starts.
    const zeroY = top - 12 - (max === min ? plot : (max / span) * plot);
    const slot = this.width / Math.max(1, bars.length);
    const barWidth = Math.min(26, slot * 0.6);
    this.page.drawLine({
      start: { x: MARGIN, y: zeroY },
      end: { x: PAGE[0] - MARGIN, y: zeroY },
      thickness: 0.6,
      color: MUTED,
    });
    bars.forEach((bar, i) => {
      const x = MARGIN + i * slot + (slot - barWidth) / 2;
      const h = (Math.abs(bar.value) / span) * plot;
      const y = bar.value >= 0 ? zeroY : zeroY - h;
      if (h > 0) {
        this.page.drawRectangle({
          x,
          y,
          width: barWidth,
          height: h,
          color: bar.value >= 0 ? BAR : BAR_NEGATIVE,
        });
      }
      // The value label shrinks to fit its slot rather than run into its neighbours.
      const valueText = winAnsi(bar.text);
      const size = Math.min(
        6.5,
        (6.5 * (slot - 2)) / Math.max(1, this.font.widthOfTextAtSize(valueText, 6.5)),
      );
      const valueWidth = this.font.widthOfTextAtSize(valueText, size);
      const valueY = bar.value >= 0 ? y + h + 2 : y - size - 1;
      this.page.drawText(valueText, {
        x: x + barWidth / 2 - valueWidth / 2,
        y: valueY,
        size,
        font: this.font,
        color: MUTED,
      });
      const label = winAnsi(bar.label);
      const labelWidth = this.font.widthOfTextAtSize(label, 7);
      this.page.drawText(label, {
        x: x + barWidth / 2 - labelWidth / 2,
        y: top - height - 8,
        size: 7,
        font: this.font,
        color: INK,
      });
    });
    this.y = top - height - labelRoom - 14;
  }

  /** "Page n of N" and a footer line on every page; called once, after the last page. */
  numberPages(footer: string): void {
    const total = this.pages.length;
    this.pages.forEach((page, i) => {
      const number = `Page ${i + 1} of ${total}`;
      const size = 7.5;
      page.drawText(winAnsi(footer), { x: MARGIN, y: 30, size, font: this.font, color: MUTED });
      page.drawText(number, {
        x: PAGE[0] - MARGIN - this.font.widthOfTextAtSize(number, size),
        y: 30,
        size,
        font: this.font,
        color: MUTED,
      });
    });
  }
}

function fitToWidth(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}...`, size) > width) cut = cut.slice(0, -1);
  return `${cut}...`;
}
