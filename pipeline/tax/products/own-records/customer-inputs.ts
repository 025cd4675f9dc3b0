/**
 * What a buyer adds to a paid order so that the pack covers all their holdings, not only the order's
 * coldkeys: their own records from exchanges and other wallets, the other addresses they own,
 * and the section 104 pools they start from. HMRC keeps one pool per token per person across every wallet
 * and exchange (CRYPTO22200 onwards); a move between one's own wallets is no disposal.
 *
 * These are the customer's financial data: kept with the pack and purged with it, never logged.
 */
import type { Decimal } from 'decimal.js';
import type { ExchangeFormat } from './exchanges/exchange-format.js';

/**
 * The record formats read: the plain one, Koinly's universal template, Koinly's own transaction export,
 * BittyTax's transaction records, and each exchange's own export.
 */
export type RecordFormat = 'plain' | 'koinly' | 'koinly-transactions' | 'bittytax' | ExchangeFormat;

/**
 * One movement of one token in the buyer's own records. A trade of two tokens both ours (TAO for alpha)
 * is two records of one line; a trade against pounds or another currency is one.
 *
 * - `buy`: acquired for `gbp` (the cost, the fee not included);
 * - `sell`: disposed of for `gbp` (the proceeds, the fee not deducted);
 * - `income`: acquired as income (staking, airdrop) at its value `gbp` when received;
 * - `deposit`: arrived at the records' wallet or exchange from elsewhere (no value needed);
 * - `withdrawal`: left it for elsewhere (no value needed);
 * - `fee`: a fee paid on its own in this token (a disposal of it at `gbp`).
 */
export interface OwnRecord {
  /** The uploaded file's name, as given. */
  source: string;
  /** The line the row starts on in that file (the header is line 1). */
  line: number;
  /** The instant, UTC. */
  at: Date;
  kind: 'buy' | 'sell' | 'income' | 'deposit' | 'withdrawal' | 'fee';
  /**
   * `TAO`, a subnet's alpha as the pack names it for other tools (`SN12-ALPHA`, `SN12-ALPHA-R<block>`), or
   * another token by its code (`USDT`, `BTC`: an exchange export's), each its own pool.
   */
  asset: string;
  /** Greater than zero. */
  quantity: Decimal;
  /** Pounds: required for buy, sell, income and fee; null for a deposit or withdrawal that gives none. */
  gbp: Decimal | null;
  /** A fee paid with this row, in pounds (an allowable cost); its token when paid in TAO or alpha. */
  fee: { asset: string; quantity: Decimal; gbp: Decimal } | null;
  /** The row's own wallet or exchange name, when the format has one (BittyTax `Wallet`). */
  wallet: string | null;
  /**
   * A negligible value claim (TCGA 1992 s24(2)), as BittyTax books `Lost`: a disposal of `quantity` at the
   * claimed value `gbp` and its reacquisition at once at that value, neither matched under the same-day or
   * 30-day rules. Only on a `sell`.
   */
  claim?: true;
  /**
   * The row moved tokens between two wallets that the file itself says are the buyer's (a Koinly
   * transfer): it books nothing, and when it matches no chain transfer it is not listed as a point.
   */
  betweenOwnWallets?: true;
  /**
   * The exchange's export gives no pounds for this row: a trade against another currency or token (USDT,
   * BTC), a reward, a fee in a token. Its `gbp` (and a fee's `gbp` when the fee is in one of its tokens) are
   * left 0 by the reader and are set where the records meet the pack's prices: the quantity of the side that
   * values it at that asset's GBP rate of the row's UK day (Europe/London).
   */
  valueAtDayRate?: true;
  /**
   * With `valueAtDayRate` on a trade: what the token was traded against (`USDT`, `BTC`, `USD`) and how much
   * of it. A token (not money) is itself disposed of or acquired at the trade's value, in its own pool; a
   * fee paid in it is valued at the trade's own price of it.
   */
  counter?: { asset: string; quantity: Decimal };
  /**
   * A withdrawal whose quantity is what left the exchange with the exchange's fee inside it, not given apart
   * (Binance's transaction history, Gate's account book). It pairs with a chain arrival smaller by at most
   * a fee's worth, and the difference is the fee: a disposal of those tokens at `dayRate`.
   */
  feeInside?: true;
  /** Pounds per token at the row's UK day, set where a `valueAtDayRate` row is valued (a fee known later). */
  dayRate?: Decimal;
}

/** A point to check about the buyer's files that does not stop them being read (listed in the PDF). */
export interface RecordNote {
  file: string;
  /** 0 when the point is about the file as a whole. */
  line: number;
  /** The row's instant, when it has one (the point is listed on its UK day). */
  at?: Date;
  text: string;
}

/** An address the buyer says is theirs: an exchange deposit address, another coldkey. */
export interface OwnAddress {
  /** SS58, as given (checked to be a valid address). */
  address: string;
  /** The buyer's name for it (`Kraken deposit`), at most 64 characters. */
  label: string;
}

/** A section 104 pool the buyer starts from. */
export interface OpeningPool {
  /** As given: `TAO`, `alpha:<netuid>:<registered_at>` (a pack's pools.csv), `SN12-ALPHA`, `SN12-ALPHA-R<block>`. */
  asset: string;
  quantity: Decimal;
  cost: Decimal;
}

/**
 * Quantity of a day's acquisitions that an earlier pack's disposals already took under the 30-day rule
 * (a March disposal matched with April income): carried with the pools so that the next year's
 * computation does not pool them a second time.
 */
export interface MatchedAhead {
  asset: string;
  /** The UK day of the acquisitions, `YYYY-MM-DD`. */
  day: string;
  quantity: Decimal;
  cost: Decimal;
}

export interface OpeningPools {
  /** `pools.csv`: last year's pack's closing pools; `entered`: the buyer's own figures. */
  source: 'pools.csv' | 'entered';
  /** The UK day at whose end the pools stand (`YYYY-MM-DD`); null (entered figures): the record's first day. */
  asAt: string | null;
  pools: OpeningPool[];
  matchedAhead: MatchedAhead[];
  /** pools.csv: the last UK day the pack's record read (`YYYY-MM-DD`), when the file says. */
  recordEnd?: string;
}

/** One file the buyer gave, as the PDF lists it. */
export interface CustomerFile {
  name: string;
  /** Hex SHA-256 of the bytes as uploaded. */
  sha256: string;
  /** Data rows read (the header not counted). */
  rows: number;
  role: 'records' | 'addresses' | 'opening';
  /** For records: the format recognised from the header. */
  format: RecordFormat | null;
}

/** Everything the buyer added, read and checked; `EMPTY_CUSTOMER_INPUTS` when nothing. */
export interface CustomerInputs {
  files: CustomerFile[];
  records: OwnRecord[];
  addresses: OwnAddress[];
  opening: OpeningPools | null;
  /** Points to check that reading the files found (identical rows kept, rows skipped, files overlapping). */
  notes?: RecordNote[];
}

/** A file as uploaded, before it is read. */
export interface UploadedFile {
  name: string;
  bytes: Uint8Array;
  role: CustomerFile['role'];
}

export const EMPTY_CUSTOMER_INPUTS: CustomerInputs = {
  files: [],
  records: [],
  addresses: [],
  opening: null,
  notes: [],
};

/** One thing wrong with an uploaded file: which file, line and column, and why. */
export interface InputProblem {
  file: string;
  /** 0 when the problem is the file as a whole (its size, its encoding). */
  line: number;
  /** The column's header name, or null when the problem is the row or the file. */
  column: string | null;
  reason: string;
}

/** Uploaded files refused: every problem found (at most a bounded number), nothing of them kept. */
export class CustomerInputsRejected extends Error {
  override name = 'CustomerInputsRejected';
  constructor(readonly problems: InputProblem[]) {
    const [first] = problems;
    super(
      first
        ? `${first.file}${first.line > 0 ? ` line ${first.line}` : ''}${first.column ? `, column ${first.column}` : ''}: ${first.reason}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`
        : 'the upload was refused',
    );
  }
}
