import { Decimal } from 'decimal.js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fixedToText } from '../../../amounts/rao.js';
import { CgtDecimal, plainDecimal, pounds } from '../../uk-rules/cgt/cgt-decimal.js';
import type { TaxYearLedger } from '../compute-tax-year.js';
import { customerSection } from './customer-section.js';
import { incomeItems } from './income-sources.js';
import type { PackInputs, PackOrder } from './pack-inputs.js';
import { type PackPoint, packPoints } from './pack-points.js';
import { INCOME_SOURCE_LABELS, type IncomeSummary, incomeSummary, sa108Of } from './pack-summary.js';
import { HMRC_METHOD, LIMITS, NOT_TAX_ADVICE, PACK_FILES, reconciliationResult } from './pack-text.js';
import { PdfWriter } from './pdf-layout.js';
import { groupLine, kindTitle, pointsLead, pointsView, restLine } from './points-view.js';

export { NOT_TAX_ADVICE } from './pack-text.js';

/** TAO to 4 decimals for tables, rounded half up like the pounds (the CSVs carry every RAO). */
function tao4(rao: bigint): string {
  return new CgtDecimal(rao.toString()).div(1_000_000_000).toFixed(4, Decimal.ROUND_HALF_UP);
}

const money = (value: Decimal) => `£${pounds(value)}`;

/**
 * `summary.pdf`: the order, the income and gains of the tax year, the method with HMRC's references, the
 * limits and assumptions. The only time in it is the payment time (creation and modification dates too),
 * and pdf-lib writes no random document id, so the same inputs give the same bytes.
 *
 * Each part of the document is its own function, in the order the pages show them.
 */
export async function packPdf(
  order: PackOrder,
  inputs: PackInputs,
  ledger: TaxYearLedger,
  asOf: Date,
  /** The points to check (points.csv's rows): the list shows the same. */
  points: readonly PackPoint[] = packPoints(ledger),
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
  const w = new PdfWriter(pdf, font, bold);
  const year = inputs.taxYear;

  orderSection(w, order, inputs, ledger, asOf);
  const record = recordDays(ledger);
  const summary = incomeSummary(incomeItems(ledger), year.startYear, inputs.subnetNames, record);
  incomeSection(w, summary, 'Income (miscellaneous income, valued when received)');
  gainsSection(w, ledger, year.label);
  closingPoolsSection(w, ledger);
  reconciliationSection(w, ledger);
  customerSection(w, ledger);
  pointsToCheckSection(w, points);
  // Every coldkey of the record, the ones followed after a coldkey swap too: each its own income pages.
  if (inputs.coldkeys.length > 1) {
    for (const coldkey of inputs.coldkeys) coldkeyPages(w, coldkey, order, inputs, ledger, record);
  }
  methodPages(w);

  w.numberPages(`${order.packName} - order ${order.id} - tax year ${year.label}`);
  return pdf.save({ useObjectStreams: false });
}

/** The first page's head: the pack, the tax year, the order, the chain record and the days it covers, the coldkeys. */
function orderSection(
  w: PdfWriter,
  order: PackOrder,
  inputs: PackInputs,
  ledger: TaxYearLedger,
  asOf: Date,
): void {
  const year = inputs.taxYear;
  w.line(order.packName, { font: w.bold, size: 17 });
  w.gap(2);
  w.line(
    `UK tax year ${year.label}: 6 April ${year.startYear} to 5 April ${year.startYear + 1} (UK days, Europe/London)`,
    {
      size: 10.5,
    },
  );
  w.gap(4);
  w.line(`Order: ${order.id}`);
  w.line(`Made: ${asOf.toISOString().slice(0, 10)} (as at the payment, ${asOf.toISOString()})`);
  w.line(
    `Chain record: published run ${inputs.runVersion}; opens at the end of ${ledger.recordOpening.date} (block ${ledger.recordOpening.block})`,
  );
  if (ledger.recordOpening !== ledger.opening) {
    w.line(
      `Section 104 pools carried from there, across tax years, to the year's start (${ledger.opening.date})`,
    );
  }
  if (ledger.following.length > 0) {
    w.line(
      `Read on to ${ledger.following[ledger.following.length - 1]!.date} for the 30-day rule only (acquisitions after the year matched with its disposals)`,
    );
  }
  const last = ledger.days[ledger.days.length - 1];
  w.line(
    last
      ? `Days covered: ${ledger.days.length} UK days, ${ledger.days[0]!.date} to ${last.date}${last.date < year.lastDay ? ' (the tax year is not over, or not all collected yet)' : ''}`
      : 'Days covered: none yet after the opening day',
  );
  w.line(`Coldkeys (${order.coldkeys.length}):`);
  for (const coldkey of order.coldkeys) w.line(coldkey, { indent: 12 });
  if (inputs.followed.length > 0) {
    // The record follows a coldkey swap either way (pack-inputs.ts): the reader sees each key it added, and why.
    w.line(`Followed across a coldkey swap (${inputs.followed.length}), its holdings and events included:`);
    for (const swap of inputs.followed) {
      const added = order.coldkeys.includes(swap.to) ? swap.from : swap.to;
      const how = added === swap.to ? 'the key it was swapped to' : 'the key it was swapped from';
      w.line(`${added} (${how}; ColdkeySwapped, block ${swap.block})`, { indent: 12 });
    }
  }
  if (inputs.ownEvm && inputs.ownEvm.length > 0) {
    // Stake made from a coldkey's own EVM address is held by that address's account (follow-own-evm-stake.ts).
    w.line(`Staked through its own EVM address (${inputs.ownEvm.length}), its holdings and events included:`);
    for (const own of inputs.ownEvm)
      w.line(`${own.account} (the account of ${own.evm}, ${own.coldkey}'s own EVM address)`, { indent: 12 });
  }
  w.gap(4);
  w.paragraph(NOT_TAX_ADVICE, { font: w.bold, size: 9 });
}

/** The SA108 boxes for the year, and where their rows are. */
function gainsSection(w: PdfWriter, ledger: TaxYearLedger, yearLabel: string): void {
  const sa108 = sa108Of(ledger, yearLabel);
  w.heading(`Capital gains: SA108 figures for ${yearLabel}`);
  w.table(
    [
      { header: 'SA108 box', width: 300 },
      { header: 'Figure', width: 140, align: 'right' },
    ],
    [
      ['Number of disposals', String(sa108.disposals)],
      ['Disposal proceeds', money(sa108.proceeds)],
      ['Allowable costs (including purchase price)', money(sa108.costs)],
      ['Gains in the year, before losses', money(sa108.gains)],
      ['Losses in the year', money(sa108.losses)],
    ],
  );
  w.paragraph(
    'Every disposal is a row of disposals.csv, whose column sums are these figures; each part matched by the ' +
      'same-day, 30-day or section 104 rule is a row of matches.csv. ' +
      'The annual exempt amount (£3,000 from 2024/25) and the rates are for your return, not applied here.',
    { size: 8.5 },
  );
}

/** The section 104 pools at the year's end. */
/** The daily reconciliation's result: every day reconciled, or the differences nothing explains. */
function reconciliationSection(w: PdfWriter, ledger: TaxYearLedger): void {
  w.heading('Reconciliation with the chain');
  w.paragraph(reconciliationResult(reconciliationFigures(ledger)));
  w.paragraph(
    "Each UK day's closing holdings on the chain (free and reserved TAO, root stake, every stake position of " +
      "the coldkeys) were held against the day before's plus every movement this pack booked that day: what " +
      'this pack books is all that moved. Each day, token and holding: reconciliation.csv.',
    { size: 8.5 },
  );
}

/** The reconciliation's figures as the pack's text states them (amounts in tokens, pounds to pence). */
export function reconciliationFigures(ledger: TaxYearLedger): Parameters<typeof reconciliationResult>[0] {
  const { days, rows, unexplained } = ledger.reconciliation;
  return {
    days,
    rows: rows.length,
    unexplained: unexplained.map((row) => ({
      date: row.date,
      asset: row.asset,
      difference: `${row.differenceRao > 0n ? '+' : '-'}${fixedToText(row.differenceRao < 0n ? -row.differenceRao : row.differenceRao, 9)}`,
      gbp: row.differenceGbp === null ? 'unpriced' : signedPounds(row.differenceGbp),
    })),
  };
}

/** `-£0.01`, `£1,234.56`: the sign before the pound sign, none on a figure that rounds to 0. */
function signedPounds(value: Decimal): string {
  const text = pounds(value);
  return text.startsWith('-') ? `-£${text.slice(1)}` : `£${text}`;
}

function closingPoolsSection(w: PdfWriter, ledger: TaxYearLedger): void {
  w.heading('Closing section 104 pools');
  w.table(
    [
      { header: 'Asset', width: 130 },
      { header: 'Quantity', width: 130, align: 'right' },
      { header: 'Pooled cost', width: 110, align: 'right' },
      { header: 'Average cost per unit', width: 125, align: 'right' },
    ],
    ledger.closingPools.map((pool) => [
      pool.asset,
      plainDecimal(pool.quantity.toDecimalPlaces(9)),
      money(pool.cost),
      // A pool emptied in the year (all sold, a subnet dissolved) says so rather than show a bare £0.
      pool.quantity.gt(0) ? `£${pool.cost.div(pool.quantity).toDecimalPlaces(4).toFixed(4)}` : 'none held',
    ]),
  );
  w.paragraph(
    'Assets: TAO, and alpha:<netuid>:<registration block> for each subnet (a reused netuid is a new asset).',
    {
      size: 8.5,
    },
  );
}

/**
 * The points to check as points.csv has them (`pack-points.ts`), as a screenful (`points-view.ts`): a group
 * per kind of point, each naming what settles its points once, then its points, most pounds at stake first,
 * numbered by their rank in points.csv; the smallest of a big group are one line, counted and totalled.
 */
function pointsToCheckSection(w: PdfWriter, points: readonly PackPoint[]): void {
  w.heading(`Points to check (${points.length})`);
  if (points.length === 0) {
    w.line('None: no transfers out of the order, no negative or unpriced days, nothing unreconciled.');
    return;
  }
  const view = pointsView(points, (point) => point.gbp);
  w.paragraph(pointsLead(points.length, view.groups), { size: 8.5 });
  for (const group of view.groups) {
    // A point's title, words and action kept on one page where they fit (a long opening point is 6 lines).
    w.need(group.count === 1 ? 90 : 40);
    if (group.count === 1) {
      // One point of its kind: the point, then its action, as points.csv's row has them.
      const { rank, point } = group.shown[0]!;
      w.paragraph(`${rank}. ${pointTitle(point)}`, { font: w.bold, size: 9 });
      w.paragraph(point.text, { size: 8.5, indent: 12 });
      w.paragraph(`What settles it: ${point.action}`, { size: 8.5, indent: 12 });
      continue;
    }
    w.paragraph(groupLine(group), { font: w.bold, size: 9 });
    w.paragraph(`What settles each: ${group.action}`, {
      size: 8.5,
      indent: 12,
    });
    for (const { rank, point } of group.shown) {
      const own = point.action === group.action ? '' : ` What settles it: ${point.action}`;
      w.paragraph(`${rank}. ${pointTitle(point)}. ${point.text}${own}`, { size: 8.5, indent: 12 });
    }
    if (group.rest) w.paragraph(restLine(group.kind, group.rest), { size: 8.5, indent: 12 });
  }
}

/** A point's first line: what it is about and the pounds at stake. */
export function pointTitle(point: PackPoint): string {
  const stake = point.gbp === null ? '' : `: ${money(point.gbp)} at stake`;
  switch (point.kind) {
    case 'address':
      return `Transfers with ${point.counterparty}${stake}`;
    case 'missing-records':
      return `No records of ${point.label ? `${point.label} (${point.counterparty})` : point.counterparty}`;
    case 'reconciliation':
      return `${point.sent[0]?.asset ?? point.received[0]?.asset ?? 'A token'} not reconciled with the chain${stake}`;
    default:
      return `${kindTitle(point.kind)}${stake}`;
  }
}

/** One coldkey's pages: how the record came to follow it, its income and its positions (gains are pooled). */
function coldkeyPages(
  w: PdfWriter,
  coldkey: string,
  order: PackOrder,
  inputs: PackInputs,
  ledger: TaxYearLedger,
  record: ReturnType<typeof recordDays>,
): void {
  const year = inputs.taxYear;
  w.newPage();
  w.line(`Coldkey ${coldkey}`, { font: w.bold, size: 12 });
  const into = inputs.followed.find((f) => f.to === coldkey && !order.coldkeys.includes(coldkey));
  const from = inputs.followed.find((f) => f.from === coldkey && !order.coldkeys.includes(coldkey));
  const line = into
    ? `Followed from ${into.from} after its coldkey swap (ColdkeySwapped, block ${into.block})`
    : from
      ? `Followed back from ${from.to}: this key was swapped to it (ColdkeySwapped, block ${from.block})`
      : null;
  if (line) w.paragraph(line, { size: 9 });
  const evmOf = inputs.ownEvm?.find((own) => own.account === coldkey);
  if (evmOf)
    w.paragraph(
      `The account of ${evmOf.coldkey}'s own EVM address ${evmOf.evm}: its stake through the EVM staking precompile`,
      { size: 9 },
    );
  incomeSection(
    w,
    incomeSummary(incomeItems(ledger, coldkey), year.startYear, inputs.subnetNames, record),
    `Income of this coldkey, ${year.label}`,
  );
  const positions = ledger.positions.filter((p) => p.coldkey === coldkey);
  w.heading('Positions');
  w.table(
    [
      { header: 'Subnet', width: 60 },
      { header: 'Hotkey', width: 300 },
    ],
    positions.map((p) => [String(p.netuid), p.hotkey]),
  );
  w.paragraph(
    'Gains are pooled per person across all the coldkeys of the order (HMRC CRYPTO22200): they are on the first page only.',
    {
      size: 8.5,
    },
  );
}

/** The closing pages: the method, the limits and assumptions, the files of the pack. */
function methodPages(w: PdfWriter): void {
  w.newPage();
  w.heading('Method, in plain words');
  for (const paragraph of HMRC_METHOD) w.paragraph(paragraph);
  w.heading('Limits and assumptions');
  for (const paragraph of LIMITS) w.paragraph(`- ${paragraph}`);
  w.heading('Files in this pack');
  for (const [name, text] of PACK_FILES) w.paragraph(`${name}: ${text}`, { size: 9 });
  w.gap(6);
  w.paragraph(NOT_TAX_ADVICE, { font: w.bold });
}

/** The record's first and last UK days, when it has any. */
function recordDays(ledger: TaxYearLedger): { firstDay: string; lastDay: string } | undefined {
  const first = ledger.days[0];
  const last = ledger.days.at(-1);
  return first && last ? { firstDay: first.date, lastDay: last.date } : undefined;
}

/** What a month outside the record's days shows in the income table. */
const NOT_YET = '—';

function incomeSection(w: PdfWriter, summary: IncomeSummary, title: string): void {
  w.heading(title);
  w.line(`Total: ${fixedToText(summary.total.taoRao, 9)} TAO, ${money(summary.total.gbp)}`, {
    font: w.bold,
    size: 10.5,
  });
  // Each source with its own total: they add up to the total above.
  for (const { source, taoRao, gbp } of summary.bySource) {
    w.line(`${INCOME_SOURCE_LABELS[source]}: ${fixedToText(taoRao, 9)} TAO, ${money(gbp)}`, {
      indent: 12,
      size: 9.5,
    });
  }
  w.paragraph(
    'All of it is miscellaneous income, each amount valued in pounds when received: income.csv has one row per position and UK day of staking (kind staking, or staking and lease dividends when a lease paid onto that position that day) and one row per payout of liquidity fees (kind liquidity fees). The tokens received are acquired at that value: it is their cost in the pools.',
    { size: 8.5 },
  );
  if (summary.total.negativeDays > 0) {
    w.paragraph(
      `Not deducted: ${summary.total.negativeDays} negative position-day(s) lost ${tao4(summary.total.lostTaoRao)} TAO (${money(summary.total.lostGbp)} at those days' prices): listed in income.csv and in Points to check; not booked as disposals.`,
      {
        size: 8.5,
      },
    );
  }
  w.gap(2);
  w.line('Income by month (£)', { font: w.bold, size: 9 });
  w.barChart(
    summary.byMonth.map((month) => ({
      label: month.chartLabel ?? month.label.slice(0, 3),
      value: month.gbp.toNumber(), // a drawing coordinate only; every figure is rendered from the decimal
      // Whole pounds, rounded (not cut), where pence would crowd the bar; pence below £100.
      text: month.gbp.isZero()
        ? ''
        : month.gbp.abs().lt(100)
          ? pounds(month.gbp)
          : pounds(month.gbp.toDecimalPlaces(0, Decimal.ROUND_HALF_UP)).replace(/\.00$/, ''),
    })),
  );
  const columns = [
    { header: 'Month', width: 140 },
    { header: 'TAO', width: 120, align: 'right' as const },
    { header: 'GBP', width: 120, align: 'right' as const },
  ];
  // A month outside the record shows a dash: not known, which £0.00 would misstate.
  const monthRows = summary.byMonth.map((m) =>
    m.outsideRecord ? [m.label, NOT_YET, NOT_YET] : [m.label, tao4(m.taoRao), money(m.gbp)],
  );
  w.table(columns, [...monthRows, ['Total', tao4(summary.total.taoRao), money(summary.total.gbp)]], {
    boldLast: true,
  });
  const printedSum = (rows: string[][], column: number) =>
    rows.reduce(
      (sum, row) => (row[column] === NOT_YET ? sum : sum.add(row[column]!.replace(/[£,]/g, ''))),
      new CgtDecimal(0),
    );
  if (
    !printedSum(monthRows, 1).eq(tao4(summary.total.taoRao)) ||
    !printedSum(monthRows, 2).eq(pounds(summary.total.gbp).replace(/,/g, ''))
  ) {
    w.paragraph('Rows are rounded separately: the total is the exact sum, rounded once.', { size: 8 });
  }
  if (summary.byMonth.some((m) => m.outsideRecord)) {
    w.paragraph(
      `${NOT_YET}: outside the days covered (the tax year is not over, or the record starts later).`,
      {
        size: 8,
      },
    );
  }
  w.table(
    [
      { header: 'Subnet', width: 185 },
      { header: 'TAO', width: 110, align: 'right' },
      { header: 'GBP', width: 110, align: 'right' },
      { header: 'Negative days', width: 90, align: 'right' },
    ],
    summary.bySubnet.map((s) => [
      s.label,
      tao4(s.taoRao),
      money(s.gbp),
      s.negativeDays ? String(s.negativeDays) : '',
    ]),
  );
}
