/**
 * What an economic action gives and gets (`economic-action.ts`): its legs, the alpha holdings they name, and
 * the flags it raises. Their own module, so a booker of one mechanism (`liquidity-actions.ts`) shares them with
 * the table of bookers without importing it.
 */

export const TAO_SIDE = 'TAO' as const;

/** A holding's netuid meaning every subnet the coldkey holds (a coldkey swap moves them all). */
export const ALL_SUBNETS = -2;

/**
 * Alpha of a coldkey on a subnet: one hotkey's position, or (hotkey null) every hotkey of it there; netuid
 * `ALL_SUBNETS` (touches only): everything the coldkey holds; a negative netuid otherwise: unknown, nothing.
 */
export interface AlphaHolding {
  coldkey: string;
  hotkey: string | null;
  netuid: number;
}

/** One thing given or received, with the TAO value (RAO) it is booked at; 0 for nothing in return. */
export type ActionLeg =
  | {
      side: 'dispose' | 'acquire';
      asset: typeof TAO_SIDE;
      rao: bigint;
      valueTaoRao: bigint;
      /**
       * A fee paid in TAO, its own disposal: the call's transaction fee (`TransactionFeePaid`), or the
       * staking fee of a stake or unstake on root (the event's fee: root stake is TAO less it). `feeEvent`
       * names the event that states it.
       */
      fee?: true;
      feeEvent?: { block: number; event_index: number };
    }
  | {
      side: 'dispose' | 'acquire';
      asset: 'alpha';
      holding: AlphaHolding;
      /** The amount the events state; the booking measures the chain and uses this only to share a block. */
      statedRao: bigint | null;
      valueTaoRao: bigint;
      /** A transaction fee paid in this alpha (`TransactionFeePaidWithAlpha`). */
      fee?: true;
      /** Valued at the subnet's pool price at the block (the stated amount, or the measured one) plus `valueTaoRao`. */
      atMarket?: true;
    }
  | {
      side: 'dispose' | 'acquire';
      /** A right that is no token (actions/liquidity-actions.ts): a liquidity position, a crowdloan contribution. */
      asset: 'claim';
      /** Its asset name: `liquidity:<netuid>:<position id>`, `crowdloan:<id>`. */
      name: string;
      /** Its quantity: the position's liquidity, the contribution's RAO. */
      rao: bigint;
      /** Its value in TAO (RAO), plus the pool value of `alphaAtMarket` where given. */
      valueTaoRao: bigint;
      /** Alpha of this subnet whose value at the block's pool price is part of the claim's (null: measured). */
      alphaAtMarket?: { netuid: number; rao: bigint | null };
    };

export interface ActionFlag {
  kind: 'transfer-out' | 'transfer-in' | 'unexplained';
  text: string;
}
