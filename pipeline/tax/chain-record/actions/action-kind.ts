/** What an economic action is (`economic-action.ts`), kept apart so that a module naming kinds loads no chain code. */

export type ActionKind =
  | 'stake'
  | 'unstake'
  | 'exchange'
  | 'move'
  | 'stake-out'
  | 'stake-in'
  | 'tao-out'
  | 'tao-in'
  | 'internal'
  | 'dissolution'
  | 'recycle'
  | 'burn'
  | 'fee-in-alpha'
  | 'limit-order'
  | 'key-swap'
  | 'income'
  | 'sweep'
  | 'subnet-leg'
  | 'liquidity'
  | 'crowdloan'
  | 'fee'
  | 'registration'
  | 'network-lock'
  | 'deposit'
  | 'own-evm';

/** Actions whose tokens crossed the order's edge: a transfer to or from another address, not an exchange. */
export const CROSSING_KINDS: ReadonlySet<ActionKind> = new Set([
  'stake-out',
  'stake-in',
  'tao-out',
  'tao-in',
]);
