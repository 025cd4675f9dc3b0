import { blake2AsU8a } from '@polkadot/util-crypto';
import type { Account } from './accounts.js';
import { limitOrdersAccount, limitOrdersHotkey } from './protocol-accounts.js';
import { subnetAccount } from './subnet-account.js';
import type { WorldEvent } from './world-event.js';

/**
 * One `LimitOrders.execute_batched_orders` call (opentensor/subtensor `pallets/limit-orders/src/lib.rs`,
 * `do_execute_batched_orders`; the swap side in `pallets/subtensor/src/staking/order_swap.rs`) filling one
 * `LimitBuy` and one `TakeProfit` order of the same signer on one subnet:
 *
 * 1. `collect_assets`: the buy's gross TAO goes from the signer to the pallet account (`Balances.Transfer`);
 *    the sell's alpha moves from the signer's position to the pallet's (`transfer_staked_alpha`, no event);
 * 2. `net_pool_swap`: only the residual touches the pool. Buy side dominant (the buy's net TAO is at least
 *    the sell's alpha at the current price): `buy_alpha` stakes the difference for the pallet
 *    (`stake_into_subnet`: `Balances.Transfer` pallet → subnet account, `StakeAdded(pallet account, pallet
 *    hotkey, …)`); else `sell_alpha` unstakes the alpha difference (`Balances.Transfer` subnet account →
 *    pallet, `StakeRemoved(pallet account, …)`);
 * 3. `distribute_alpha_pro_rata`: the buyer's alpha (pool output plus the sell's alpha, or the buy's TAO at the
 *    current price) moves to the signer's position (no event), then `OrderExecuted(order_id, signer, netuid,
 *    LimitBuy, amount_in = gross TAO, amount_out = alpha)`;
 * 4. `distribute_tao_pro_rata`: the seller's TAO less the order's fee, `Balances.Transfer` pallet → signer,
 *    then `OrderExecuted(…, TakeProfit, amount_in = alpha, amount_out = net TAO)`;
 * 5. `collect_fees`: both orders' fees (the buy's off its TAO input, the sell's off its TAO output), one
 *    `Balances.Transfer` pallet → fee recipient; then `GroupExecutionSummary(netuid, net_side, net_amount,
 *    actual_out, executed_count)`.
 *
 * Prices are the pallet's: `current_alpha_price` = SubnetTAO ÷ SubnetAlphaIn as U64F64, alpha → TAO
 * `floor(price × alpha)`, TAO → alpha `floor(tao ÷ price)`. The pool swap itself is the sandbox's (spot price,
 * a 0.05 % fee as for every stake in the sandbox). The pallet account is taken to exist already (no
 * `Endowed`/`NewAccount` events) and keeps the batch's rounding dust, as on the chain.
 */
export interface LimitOrderBatch {
  netuid: number;
  signer: Account;
  buy: { orderId: Uint8Array; hotkey: Account; taoIn: bigint; fee: bigint; alphaOut: bigint };
  sell: { orderId: Uint8Array; hotkey: Account; alphaIn: bigint; fee: bigint; taoOut: bigint };
  side: 'Buy' | 'Sell';
  /** `GroupExecutionSummary.net_amount` (TAO for Buy, alpha for Sell) and `actual_out` (the pool's output). */
  netAmount: bigint;
  actualOut: bigint;
  /** The pool swap's fee (in the pallet's StakeAdded/StakeRemoved). */
  swapFee: bigint;
  feeRecipient: Account;
  events: WorldEvent[];
}

export interface LimitOrderInputs {
  signer: Account;
  netuid: number;
  buyHotkey: Account;
  sellHotkey: Account;
  /** Gross TAO of the buy and alpha of the sell. */
  buyTao: bigint;
  sellAlpha: bigint;
  /** Perbill: parts per billion, taken off each order's TAO (`Order.fee_rate`). */
  feeRate: bigint;
  feeRecipient: Account;
  reserves: { tao: bigint; alphaIn: bigint };
  /** Order expiry (unix ms) and the chain id the orders are bound to (part of each order's id). */
  expiryMs: bigint;
  chainId: bigint;
}

const PERBILL = 1_000_000_000n;
const U64F64_ONE = 1n << 64n;

function mulFloor(perbill: bigint, amount: bigint): bigint {
  return (amount * perbill) / PERBILL;
}

function u64(value: bigint): number[] {
  const out: number[] = [];
  for (let i = 0n; i < 8n; i++) out.push(Number((value >> (8n * i)) & 0xffn));
  return out;
}

/**
 * `derive_order_id`: blake2_256 of the SCALE-encoded `VersionedOrder::V1(Order { signer, hotkey, netuid,
 * order_type, amount, limit_price, expiry, fee_rate, fee_recipient, relayer: None, max_slippage: None,
 * chain_id, partial_fills_enabled: false })`.
 */
export function orderId(
  order: Pick<LimitOrderInputs, 'signer' | 'netuid' | 'feeRate' | 'feeRecipient' | 'expiryMs' | 'chainId'> & {
    hotkey: Account;
    orderType: 0 | 1 | 2;
    amount: bigint;
    limitPrice: bigint;
  },
): Uint8Array {
  const bytes = [
    0, // VersionedOrder::V1
    ...order.signer.publicKey,
    ...order.hotkey.publicKey,
    order.netuid & 0xff,
    order.netuid >> 8,
    order.orderType,
    ...u64(order.amount),
    ...u64(order.limitPrice),
    ...u64(order.expiryMs),
    ...u64(order.feeRate).slice(0, 4),
    ...order.feeRecipient.publicKey,
    0, // relayer: None
    0, // max_slippage: None
    ...u64(order.chainId),
    0, // partial_fills_enabled: false
  ];
  return blake2AsU8a(new Uint8Array(bytes), 256);
}

function transfer(from: Account, to: Account, amount: bigint): WorldEvent {
  return { pallet: 'Balances', name: 'Transfer', args: [from.publicKey, to.publicKey, amount] };
}

export function executeBatch(inputs: LimitOrderInputs): LimitOrderBatch | null {
  const { signer, netuid, reserves } = inputs;
  if (reserves.tao === 0n || reserves.alphaIn === 0n) return null;
  const price = (reserves.tao * U64F64_ONE) / reserves.alphaIn;
  const alphaToTao = (alpha: bigint) => (price * alpha) / U64F64_ONE;
  const taoToAlpha = (tao: bigint) => (price === 0n ? 0n : (tao * U64F64_ONE) / price);
  const scaledPrice = (price * PERBILL) / U64F64_ONE;
  const pallet = limitOrdersAccount();
  const palletHotkey = limitOrdersHotkey();

  const buyFee = mulFloor(inputs.feeRate, inputs.buyTao);
  const buyNet = inputs.buyTao - buyFee;
  const sellTaoEquiv = alphaToTao(inputs.sellAlpha);
  const events: WorldEvent[] = [transfer(signer, pallet, inputs.buyTao)];
  let side: 'Buy' | 'Sell';
  let netAmount: bigint;
  let actualOut = 0n;
  let swapFee = 0n;
  let alphaOut: bigint;
  let sellGross: bigint;
  if (buyNet >= sellTaoEquiv) {
    side = 'Buy';
    netAmount = buyNet - sellTaoEquiv;
    if (netAmount > 0n) {
      swapFee = netAmount / 2_000n;
      actualOut = ((netAmount - swapFee) * reserves.alphaIn) / reserves.tao;
      if (actualOut === 0n) return null; // SwapReturnedZero
      events.push(transfer(pallet, subnetAccount(netuid), netAmount), {
        pallet: 'SubtensorModule',
        name: 'StakeAdded',
        args: [pallet.publicKey, palletHotkey.publicKey, netAmount, actualOut, netuid, swapFee],
      });
    }
    alphaOut = actualOut + inputs.sellAlpha;
    sellGross = sellTaoEquiv;
  } else {
    side = 'Sell';
    const buyAlphaEquiv = taoToAlpha(buyNet);
    netAmount = inputs.sellAlpha - buyAlphaEquiv;
    if (netAmount > 0n) {
      const gross = (netAmount * reserves.tao) / reserves.alphaIn;
      swapFee = gross / 2_000n;
      actualOut = gross - swapFee;
      if (actualOut === 0n) return null; // SwapReturnedZero
      events.push(transfer(subnetAccount(netuid), pallet, actualOut), {
        pallet: 'SubtensorModule',
        name: 'StakeRemoved',
        args: [pallet.publicKey, palletHotkey.publicKey, actualOut, netAmount, netuid, swapFee],
      });
    }
    alphaOut = buyAlphaEquiv;
    sellGross = actualOut + buyNet;
  }
  const sellFee = mulFloor(inputs.feeRate, sellGross);
  const sellNet = sellGross - sellFee;
  if (alphaOut === 0n || sellNet === 0n) return null; // ZeroShareInBatch
  const common = {
    signer,
    netuid,
    feeRate: inputs.feeRate,
    feeRecipient: inputs.feeRecipient,
    expiryMs: inputs.expiryMs,
    chainId: inputs.chainId,
  };
  // Limits that the current price meets: a buy at most 5 % above it, a take-profit at least 5 % below it.
  const buyId = orderId({
    ...common,
    hotkey: inputs.buyHotkey,
    orderType: 0,
    amount: inputs.buyTao,
    limitPrice: (scaledPrice * 105n) / 100n + 1n,
  });
  const sellId = orderId({
    ...common,
    hotkey: inputs.sellHotkey,
    orderType: 1,
    amount: inputs.sellAlpha,
    limitPrice: (scaledPrice * 95n) / 100n,
  });
  events.push(
    {
      pallet: 'LimitOrders',
      name: 'OrderExecuted',
      args: [buyId, signer.publicKey, netuid, 'LimitBuy', inputs.buyTao, alphaOut],
    },
    transfer(pallet, signer, sellNet),
    {
      pallet: 'LimitOrders',
      name: 'OrderExecuted',
      args: [sellId, signer.publicKey, netuid, 'TakeProfit', inputs.sellAlpha, sellNet],
    },
  );
  if (buyFee + sellFee > 0n) events.push(transfer(pallet, inputs.feeRecipient, buyFee + sellFee));
  events.push({
    pallet: 'LimitOrders',
    name: 'GroupExecutionSummary',
    args: [netuid, side, netAmount, actualOut, 2],
  });
  return {
    netuid,
    signer,
    buy: { orderId: buyId, hotkey: inputs.buyHotkey, taoIn: inputs.buyTao, fee: buyFee, alphaOut },
    sell: {
      orderId: sellId,
      hotkey: inputs.sellHotkey,
      alphaIn: inputs.sellAlpha,
      fee: sellFee,
      taoOut: sellNet,
    },
    side,
    netAmount,
    actualOut,
    swapFee,
    feeRecipient: inputs.feeRecipient,
    events,
  };
}
