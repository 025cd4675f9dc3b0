/**
 * How the acquisitions of liquidity fees are named (`liquidity fees event <block>/<index>`,
 * `liquidity-fee-income.ts`): the exports key on it. Apart, so that the exports load no ledger code.
 */
export const LIQUIDITY_FEES_REF = 'liquidity fees';
