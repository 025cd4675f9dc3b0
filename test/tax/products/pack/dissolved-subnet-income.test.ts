/**
 * Income on the day a subnet is dissolved. The holder earns alpha until the dissolution; after it the subnet's
 * storage is gone, so the day's last block has no pool (and reads as registered at block 0, like a subnet
 * registered at genesis). That income is valued at the last pool price the subnet had — the block before the
 * dissolution — never left at £0 (seen in `make pack-preview` on the sandbox's current runtime).
 */
import { describe, expect, it } from 'vitest';
import { positionId } from '../../../../pipeline/tax/chain-record/stake-at-blocks.js';
import { incomeLedger } from '../../../../pipeline/tax/uk-rules/income-ledger.js';
import { JANUARY_PRICES } from './january-prices.js';
import { dayOf, stakesOf, TAO } from './ledger-cases.js';

describe('income on the day its subnet is dissolved', () => {
  const position = { coldkey: '5Customer', hotkey: '5Validator', netuid: 8 };
  const id = positionId(position);
  const [opening, day] = [dayOf(0), dayOf(1)];
  const dissolution = opening.block + 60;
  // Registered at genesis: the same registration (0) as a subnet that no longer exists.
  const alive = { registeredAt: 0, taoRao: 3000n * TAO, alphaInRao: 1000n * TAO };
  const gone = { registeredAt: 0, taoRao: null, alphaInRao: null };
  const stakes = stakesOf({
    [opening.block]: { stake: { [id]: 100n * TAO }, subnets: { 8: alive } },
    // By the block before the dissolution the position has earned 2 alpha, at 3 TAO per alpha.
    [dissolution - 1]: { stake: { [id]: 102n * TAO }, subnets: { 8: alive } },
    [dissolution]: { stake: { [id]: 0n }, subnets: { 8: gone } },
    [day.block]: { stake: { [id]: 0n }, subnets: { 8: gone } },
  });
  const income = incomeLedger(
    [position],
    opening,
    [day],
    stakes,
    new Map([[id, [dissolution]]]),
    JANUARY_PRICES,
  );

  it('receives the 2 alpha earned before the dissolution, valued at the pool price of the block before it', () => {
    expect(income.map((row) => [row.alphaRao, row.priceBlock, row.taoRao])).toEqual([
      [2n * TAO, dissolution - 1, 6n * TAO],
    ]);
    // 6 TAO at £2 per TAO.
    expect(income[0]!.gbp?.toFixed(2)).toBe('12.00');
  });
});
