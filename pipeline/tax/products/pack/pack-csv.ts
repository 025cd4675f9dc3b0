/**
 * The pack's CSV files: RFC 4180 (CRLF line ends, a field quoted only when it must be), a header row, UTF-8,
 * ISO dates, plain decimals (never an exponent). Alpha and TAO are exact to the RAO (9 decimals at most);
 * pounds carry 8 decimal places, the figures the gains were computed from (the PDF rounds them to pence).
 */
import type { Decimal } from 'decimal.js';
import { fixedToText } from '../../../amounts/rao.js';
import { eventLabel } from '../../chain-record/ledger-event.js';
import { positionId } from '../../chain-record/stake-at-blocks.js';
import { fixedDecimal, GBP_PLACES, plainDecimal } from '../../uk-rules/cgt/cgt-decimal.js';
import type { EventTreatment } from '../../uk-rules/cgt/cgt-transactions.js';
import type { IncomeRow } from '../../uk-rules/income-ledger.js';
import type { RecordRead, TaxYearLedger } from '../compute-tax-year.js';
import { CsvLines, csv, csvLine, type Field } from './csv-text.js';
import { dividendsByRow, feeValueTaoRao, liquidityFeeIncome, type RowDividends } from './income-sources.js';
import { type PositionDays, positionsCsvOf, subnetName } from './positions-csv.js';

const units = (rao: bigint | null) => (rao === null ? null : fixedToText(rao, 9));
// Every pound figure of the CSVs: 8 decimal places, half to even, as the ledger rounds its values.
const gbp = (value: Decimal | null) => (value === null ? null : fixedDecimal(value, GBP_PLACES));

export function incomeNote(row: IncomeRow): string {
  if (row.alphaRao < 0n) return 'negative day: stake fell with no event to explain it';
  if (row.taoRao === null) return 'no pool price that day: not valued';
  if (row.gbpPrice.stale) return `TAO/GBP quoted ${row.gbpPrice.at} (none at the day's end)`;
  return '';
}

export const INCOME_COLUMNS = [
  'date',
  'coldkey',
  'hotkey',
  'netuid',
  'subnet',
  'registered_at',
  'alpha',
  'tao',
  'gbp',
  'price_block',
  'tao_gbp',
  'tao_gbp_at',
  'price_sources',
  'note',
  'kind',
  'tao_received',
  'liquidity_position',
] as const;

/**
 * The lines of income.csv's staking rows. A big pack's year is tens of thousands of rows, so each UK day's are
 * made as the day is worked out while the chain is read (`prepareDay`, when the build's thread waits for the
 * node), and `incomeCsv` writes a day's prepared text when the ledger kept that day's rows as they were.
 */
export class IncomeLines {
  private readonly prepared = new Map<string, { rows: readonly IncomeRow[]; text: CsvLines }>();
  // A day's TAO/GBP rate is one value for all its rows: its text is made once.
  private readonly rates = new Map<Decimal, string>();
  // A day's price sources are the same text for all its subnet rows (and for its root rows): made once.
  private readonly sourceTexts = new Map<string, string>();

  constructor(private readonly names: ReadonlyMap<number, string>) {}

  /** Makes the lines of one UK day's rows (a day's rows as the ledger lists them, none with lease dividends). */
  prepareDay(date: string, rows: readonly IncomeRow[]): void {
    if (rows.length === 0) return;
    // Joined, not appended: one flat string, which the file's text is later copied from at once.
    const text = `${rows.map((row) => csvLine(this.fields(row, undefined))).join('\r\n')}\r\n`;
    this.prepared.set(date, { rows, text: new CsvLines(text) });
  }

  /** The day's prepared lines, if they were made from these very rows. */
  preparedDay(date: string, rows: readonly IncomeRow[]): CsvLines | undefined {
    const made = this.prepared.get(date);
    if (!made || made.rows.length !== rows.length) return undefined;
    for (let i = 0; i < rows.length; i++) if (made.rows[i] !== rows[i]) return undefined;
    return made.text;
  }

  fields(row: IncomeRow, part: RowDividends | undefined): Field[] {
    const said = incomeNote(row);
    const dividendNote = part
      ? `includes ${units(part.alphaRao)} alpha of lease dividends (SubnetLeaseDividendsDistributed), ${gbp(part.gbp) ?? 'not valued'} GBP`
      : '';
    const note = said && dividendNote ? `${said}; ${dividendNote}` : said || dividendNote;
    return [
      row.date,
      row.position.coldkey,
      row.position.hotkey,
      row.position.netuid,
      subnetName(this.names, row.position.netuid),
      row.registeredAt,
      units(row.alphaRao),
      units(row.taoRao),
      gbp(row.gbp),
      row.priceBlock,
      this.rate(row.gbpPrice.gbp),
      row.gbpPrice.at,
      this.sources(row),
      note,
      part ? 'staking and lease dividends' : 'staking',
      null,
      null,
    ];
  }

  private rate(value: Decimal): string {
    let text = this.rates.get(value);
    if (text === undefined) {
      text = plainDecimal(value);
      this.rates.set(value, text);
    }
    return text;
  }

  private sources(row: IncomeRow): string {
    const pool =
      row.position.netuid === 0
        ? 'root (1 TAO per TAO)'
        : `SubnetTAO/SubnetAlphaIn at block ${row.priceBlock}`;
    const key = `${pool}\n${row.gbpPrice.source}\n${row.gbpPrice.at}`;
    let text = this.sourceTexts.get(key);
    if (text === undefined) {
      text = `pool: ${pool}; TAO/GBP: ${row.gbpPrice.source || 'published fiat prices'}, first quote at or after ${row.gbpPrice.at}`;
      this.sourceTexts.set(key, text);
    }
    return text;
  }
}

/**
 * One row per position and UK day of staking income (its lease dividends inside it, said in `kind` and
 * `note`), and one per payout of liquidity fees (`kind` liquidity fees: `alpha` and `tao_received` the fees,
 * `tao` and `gbp` the value of both at receipt), in date order: every amount of the PDF's income total.
 * `lines`: the staking rows' lines, with the days prepared while the chain was read.
 */
export function incomeCsv(
  ledger: TaxYearLedger,
  names: ReadonlyMap<number, string>,
  lines: IncomeLines = new IncomeLines(names),
): string {
  const dividends = dividendsByRow(ledger);
  const feeFields = (fee: ReturnType<typeof liquidityFeeIncome>[number]): Field[] => {
    const price = ledger.prices.on(fee.date);
    return [
      fee.date,
      fee.coldkey,
      fee.hotkey,
      fee.netuid,
      subnetName(names, fee.netuid),
      fee.registeredAt,
      units(fee.alphaRao),
      units(feeValueTaoRao(fee)),
      gbp(fee.gbp),
      fee.block,
      plainDecimal(price.gbp),
      price.at,
      `pool: SubnetTAO/SubnetAlphaIn at block ${fee.block} (the payout's block); TAO/GBP: ${price.source || 'published fiat prices'}, first quote at or after ${price.at}`,
      `liquidity fees paid out at block ${fee.block} (event ${fee.block}/${fee.eventIndex}): ${units(fee.taoRao)} TAO (${gbp(fee.taoGbp)} GBP) and ${units(fee.alphaRao)} alpha (${gbp(fee.alphaGbp)} GBP)`,
      'liquidity fees',
      units(fee.taoRao),
      fee.positionIds.map((id) => `liquidity:${fee.netuid}:${id}`).join(' '),
    ];
  };
  // Date order, a day's staking rows before its fees (each list in its own order).
  const staking = new Map<string, IncomeRow[]>();
  for (const row of ledger.income) {
    const listed = staking.get(row.date);
    if (listed) listed.push(row);
    else staking.set(row.date, [row]);
  }
  const fees = new Map<string, ReturnType<typeof liquidityFeeIncome>>();
  for (const fee of liquidityFeeIncome(ledger)) {
    const listed = fees.get(fee.date);
    if (listed) listed.push(fee);
    else fees.set(fee.date, [fee]);
  }
  const dates = [...new Set([...staking.keys(), ...fees.keys()])].sort();
  function* rows(): Iterable<readonly Field[] | CsvLines> {
    for (const date of dates) {
      const dayRows = staking.get(date) ?? [];
      const prepared = dayRows.some((row) => dividends.has(row))
        ? undefined
        : lines.preparedDay(date, dayRows);
      if (prepared) yield prepared;
      else for (const row of dayRows) yield lines.fields(row, dividends.get(row));
      for (const fee of fees.get(date) ?? []) yield feeFields(fee);
    }
  }
  return csv(INCOME_COLUMNS, rows());
}

export const EVENT_COLUMNS = [
  'coldkey',
  'time',
  'uk_date',
  'block',
  'event_index',
  'kind',
  'role',
  'hotkey',
  'netuid',
  'counterpart_coldkey',
  'counterpart_hotkey',
  'counterpart_netuid',
  'tao',
  'alpha',
  'fee_tao',
  'treatment',
  'action',
  'chain_events',
] as const;

/**
 * The lines of events.csv. A big pack's year is tens of thousands of events, so the events of each block treated
 * while the chain is read have their lines made then (`prepareBlock`, when the build's thread waits for the
 * node); `eventsCsv` writes a block's prepared lines where the ledger kept its events as they were treated.
 */
export class EventLines {
  // By each block's first event: the block's events and their lines. Maps, not WeakMaps: they last one build,
  // and a WeakMap's tens of thousands of entries cost every collection while the chain is read.
  private readonly prepared = new Map<
    EventTreatment,
    { events: readonly EventTreatment[]; text: CsvLines }
  >();
  // Every event of an action names all of the action's events: their text is made once per action.
  private readonly labels = new Map<EventTreatment['action'], string>();

  /** Makes the lines of one block's events, in their order. */
  prepareBlock(events: readonly EventTreatment[]): void {
    if (events.length === 0) return;
    // Joined, not appended: one flat string, which the file's text is later copied from at once.
    const text = `${events.map((treated) => csvLine(this.fields(treated))).join('\r\n')}\r\n`;
    this.prepared.set(events[0]!, { events, text: new CsvLines(text) });
  }

  /** The rows of `events`: each prepared block's lines where the block's events follow in order, else fields. */
  *rows(events: readonly EventTreatment[]): Iterable<readonly Field[] | CsvLines> {
    for (let i = 0; i < events.length; ) {
      const made = this.prepared.get(events[i]!);
      if (made?.events.every((treated, k) => events[i + k] === treated)) {
        yield made.text;
        i += made.events.length;
      } else {
        yield this.fields(events[i]!);
        i += 1;
      }
    }
  }

  private fields({ event, action, date, treatment, transactions }: EventTreatment): Field[] {
    // A dissolution's only event of the holder is the payout transfer, which names no subnet and no alpha:
    // its row names the subnet dissolved and the alpha disposed of, so a person sees what was given up.
    const destroyed =
      action.kind === 'dissolution' ? transactions.find((tx) => tx.action === 'dispose') : undefined;
    return [
      event.coldkey,
      event.time,
      date,
      event.block,
      event.event_index < 0 ? null : event.event_index,
      event.kind,
      event.role,
      event.hotkey,
      event.netuid ?? event.dissolved_netuid ?? null,
      event.counterpart_coldkey,
      event.counterpart_hotkey,
      event.counterpart_netuid,
      units(event.tao_rao === null ? null : BigInt(event.tao_rao)),
      event.alpha_rao === null
        ? destroyed
          ? plainDecimal(destroyed.quantity)
          : null
        : units(BigInt(event.alpha_rao)),
      units(event.fee_rao === null ? null : BigInt(event.fee_rao)),
      treatment,
      action.kind,
      this.labelsOf(action),
    ];
  }

  private labelsOf(action: EventTreatment['action']): string {
    let text = this.labels.get(action);
    if (text === undefined) {
      text = action.events.map(eventLabel).join('; ');
      this.labels.set(action, text);
    }
    return text;
  }
}

/** `lines`: with the events treated while the chain was read prepared. */
export function eventsCsv(ledger: TaxYearLedger, lines: EventLines = new EventLines()): string {
  return csv(EVENT_COLUMNS, lines.rows(ledger.mapping.events));
}

export const DISPOSAL_COLUMNS = [
  'date',
  'tax_year',
  'asset',
  'quantity',
  'proceeds_gbp',
  'cost_gbp',
  'fee_gbp',
  'gain_gbp',
  'refs',
] as const;

/**
 * One row per disposal of the tax year (all disposals of one asset on one UK day are one disposal), so that
 * each column's sum is the SA108 figure: proceeds, allowable costs, and gains less losses. `fee_gbp` is the
 * part of the cost that is fees paid to make the disposal (the rest is matches.csv's parts).
 */
export function disposalsCsv(ledger: TaxYearLedger): string {
  return csv(
    DISPOSAL_COLUMNS,
    ledger.disposals.map((d) => [
      d.date,
      d.taxYear,
      d.asset,
      plainDecimal(d.quantity),
      gbp(d.proceeds),
      gbp(d.cost),
      gbp(d.fees),
      gbp(d.gain),
      d.refs.join('; '),
    ]),
  );
}

export const MATCH_COLUMNS = [
  'disposal_date',
  'asset',
  'rule',
  'acquisition_date',
  'quantity',
  'cost_gbp',
] as const;

/**
 * One row per matched part of each disposal: which acquisitions (same day, the 30 days after, or the
 * section 104 pool) gave its cost. A disposal's parts sum to its quantity and its cost.
 */
export function matchesCsv(ledger: TaxYearLedger): string {
  return csv(
    MATCH_COLUMNS,
    ledger.disposals.flatMap((d) =>
      d.matched.map((part) => [
        d.date,
        d.asset,
        part.rule,
        part.date ?? null,
        plainDecimal(part.quantity),
        gbp(part.cost),
      ]),
    ),
  );
}

export const POOL_COLUMNS = ['asset', 'quantity', 'cost_gbp', 'as_at', 'kind'] as const;

/**
 * The section 104 pools at the end of the year (`kind` pool), and what the year's disposals took under the
 * 30-day rule from acquisitions after it (`kind` matched-ahead, `as_at` the day of those acquisitions):
 * next year's pack, given this file, opens from the pools and leaves those acquisitions out of its own, so
 * the two packs give the figures of one computation across both years. A last row (`kind` record-end,
 * `as_at` the last UK day the record read, no asset) says how far the record reached: when less than 30
 * days after the pools' day, the 30-day matches of the year's last disposals were provisional, and next
 * year's pack says so where it reads this file.
 */
export function poolsCsv(ledger: TaxYearLedger, asAt: string): string {
  const ahead = new Map<string, { asset: string; day: string; quantity: Decimal; cost: Decimal }>();
  for (const disposal of ledger.disposals) {
    for (const part of disposal.matched) {
      if (part.rule !== '30-day' || !part.date || part.date <= asAt) continue;
      const key = `${disposal.asset}|${part.date}`;
      const entry = ahead.get(key) ?? {
        asset: disposal.asset,
        day: part.date,
        quantity: part.quantity.mul(0),
        cost: part.cost.mul(0),
      };
      entry.quantity = entry.quantity.plus(part.quantity);
      entry.cost = entry.cost.plus(part.cost);
      ahead.set(key, entry);
    }
  }
  return csv(POOL_COLUMNS, [
    ...ledger.closingPools.map((pool) => [
      pool.asset,
      plainDecimal(pool.quantity),
      gbp(pool.cost),
      asAt,
      'pool',
    ]),
    ...[...ahead.values()]
      .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.asset < b.asset ? -1 : 1))
      .map((row) => [row.asset, plainDecimal(row.quantity), gbp(row.cost), row.day, 'matched-ahead']),
    ...(ledger.following ? [['', '0', '0', ledger.following.at(-1)?.date ?? asAt, 'record-end']] : []),
  ]);
}

/** Stake per position at the end of the opening day and every UK day after it (positions holding nothing left out). */
export function positionsCsv(ledger: TaxYearLedger, names: ReadonlyMap<number, string>): string {
  return positionsCsvOf(positionDaysOf(ledger), names);
}

/** The ledger's stakes of its year's positions at the opening and at each day's end. */
export function positionDaysOf(ledger: RecordRead): PositionDays {
  const days = [ledger.opening, ...ledger.days];
  const reads = days.map((day) => ledger.stakes.get(day.block)!);
  const ids = ledger.positions.map(positionId);
  return {
    days,
    positions: ledger.positions,
    stakeAt: (day, position) => reads[day]!.stake.get(ids[position]!) ?? 0n,
  };
}

export const RECONCILIATION_COLUMNS = [
  'date',
  'block',
  'level',
  'asset',
  'coldkey',
  'holding',
  'netuid',
  'opening',
  'booked',
  'closing',
  'difference',
  'difference_gbp',
  'explanation',
  'booked_movements',
] as const;

/**
 * The daily reconciliation with the chain: per UK day and token, the chain's opening and closing holdings,
 * what the pack booked, the difference and why (level asset); below each, the holdings behind it (level
 * holding: a coldkey's free or reserved TAO, or one stake position), whose own opening and closing trace a
 * difference to what moved.
 */
export function reconciliationCsv(ledger: TaxYearLedger): string {
  function* rows(): Iterable<Field[]> {
    for (const row of ledger.reconciliation.rows) {
      yield [
        row.date,
        row.block,
        'asset',
        row.asset,
        null,
        null,
        row.netuid,
        units(row.openingRao),
        units(row.bookedRao),
        units(row.closingRao),
        units(row.differenceRao),
        gbp(row.differenceGbp),
        row.explanation,
        row.booked.join('; '),
      ];
      for (const h of row.holdings) {
        const { coldkey, holding } = h.ref;
        yield [
          row.date,
          row.block,
          'holding',
          row.asset,
          coldkey,
          typeof holding === 'string' ? holding : holding.hotkey,
          typeof holding === 'string' ? 0 : holding.netuid,
          units(h.openingRao),
          null,
          units(h.closingRao),
          null,
          null,
          null,
          null,
        ];
      }
    }
  }
  return csv(RECONCILIATION_COLUMNS, rows());
}
