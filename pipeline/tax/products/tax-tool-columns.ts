/**
 * The columns of the tax tools' import files, in their order: BittyTax's transaction records (its README) and
 * Koinly's universal import template. The pack writes them (`pack/exports/`) and a buyer's own records in
 * either format are read back by them (`own-records/`): one list, so what the pack writes always reads back.
 */

export const BITTYTAX_COLUMNS = [
  'Type',
  'Buy Quantity',
  'Buy Asset',
  'Buy Value in GBP',
  'Sell Quantity',
  'Sell Asset',
  'Sell Value in GBP',
  'Fee Quantity',
  'Fee Asset',
  'Fee Value in GBP',
  'Wallet',
  'Timestamp',
  'Note',
] as const;

export const KOINLY_COLUMNS = [
  'Date',
  'Sent Amount',
  'Sent Currency',
  'Received Amount',
  'Received Currency',
  'Fee Amount',
  'Fee Currency',
  'Net Worth Amount',
  'Net Worth Currency',
  'Label',
  'Description',
  'TxHash',
] as const;
