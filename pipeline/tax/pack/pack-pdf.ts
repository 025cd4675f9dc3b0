import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { ColdkeyFigures } from './pack-figures.js';
import type { PackInputs, PackOrder } from './pack-inputs.js';

export const NOT_TAX_ADVICE =
  'This pack is a computation tool, not tax advice. Check the figures against your own records and ' +
  'take professional advice where you are unsure.';

const PAGE: [number, number] = [595.28, 841.89]; // A4 in points
const MARGIN = 50;
const LINE = 15;

/**
 * `summary.pdf`: the order, the tax year, each coldkey's figures and where they come from. The only
 * time in it is the payment time (creation and modification dates too), and pdf-lib writes no random
 * document id, so the same inputs give the same bytes.
 */
export async function packPdf(
  order: PackOrder,
  inputs: PackInputs,
  figures: readonly ColdkeyFigures[],
  asOf: Date,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(`${order.packName} - ${order.id}`);
  pdf.setAuthor('Subnet burn metrics');
  pdf.setCreator('sbm-gateway orders fulfil');
  pdf.setProducer('pdf-lib');
  pdf.setCreationDate(asOf);
  pdf.setModificationDate(asOf);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const writer = new PageWriter(pdf, font);

  writer.line(order.packName, { font: bold, size: 16 });
  writer.line('Placeholder pack: the full capital gains and income ledgers come in a later version.', {
    size: 9,
  });
  writer.gap();
  writer.line(`Order: ${order.id}`);
  writer.line(
    `Tax year: ${inputs.taxYear.label} (${inputs.taxYear.firstDay} to ${inputs.taxYear.lastDay}, UK days)`,
  );
  writer.line(`Prepared as at: ${asOf.toISOString()}`);
  writer.line(`Published data: ${inputs.runVersion ? `run ${inputs.runVersion}` : 'none published yet'}`);
  writer.gap();
  const yields = inputs.yields;
  writer.line('Network staking yields (simple annual rates, chain-derived)', { font: bold });
  writer.line(
    yields
      ? `Root: ${percent(yields.root.yield)}   Alpha (all subnets): ${percent(yields.alpha.yield)}   Source: ${yields.source}`
      : 'Not published yet.',
  );
  writer.gap();
  for (const f of figures) {
    writer.line(`Coldkey ${f.coldkey}`, { font: bold });
    if (f.events === null) {
      writer.line('  No staking events are published for this coldkey yet.');
    } else {
      writer.line(`  Staking events in the tax year: ${f.events}`);
      writer.line(`  TAO staked: ${f.taoStaked}   TAO unstaked: ${f.taoUnstaked}   Fees: ${f.feesTao} TAO`);
    }
    writer.gap();
  }
  writer.line('Files in this pack', { font: bold });
  writer.line('  figures.csv: the figures above, one row per coldkey.');
  writer.line('  events.csv: every staking event of these coldkeys in the tax year, in chain order.');
  writer.gap();
  writer.paragraph(NOT_TAX_ADVICE, bold);
  return pdf.save({ useObjectStreams: false });
}

function percent(value: number | null): string {
  return value === null ? 'n/a' : `${(value * 100).toFixed(2)}%`;
}

/** Lines top to bottom, a new page when one is full. WinAnsi text only (Helvetica's encoding). */
class PageWriter {
  private page: PDFPage;
  private y: number;

  constructor(
    private readonly pdf: PDFDocument,
    private readonly font: PDFFont,
  ) {
    this.page = pdf.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
  }

  line(text: string, options: { font?: PDFFont; size?: number } = {}): void {
    if (this.y < MARGIN) {
      this.page = this.pdf.addPage(PAGE);
      this.y = PAGE[1] - MARGIN;
    }
    const size = options.size ?? 10;
    this.page.drawText(text, {
      x: MARGIN,
      y: this.y,
      size,
      font: options.font ?? this.font,
      color: rgb(0, 0, 0),
    });
    this.y -= size + (LINE - 10);
  }

  gap(): void {
    this.y -= LINE / 2;
  }

  /** Wraps `text` to the page width. */
  paragraph(text: string, font: PDFFont, size = 10): void {
    const width = PAGE[0] - 2 * MARGIN;
    let current = '';
    for (const word of text.split(' ')) {
      const next = current ? `${current} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) > width && current) {
        this.line(current, { font, size });
        current = word;
      } else {
        current = next;
      }
    }
    if (current) this.line(current, { font, size });
  }
}
