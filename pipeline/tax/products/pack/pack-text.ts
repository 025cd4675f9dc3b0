/** The words of the pack: the disclaimer, the method, the limits, and what each file holds. */

export const NOT_TAX_ADVICE =
  'This pack is a computation tool, not tax advice. It shows its working so that you or your adviser can ' +
  'check it; check the figures against your own records and take professional advice where you are unsure.';

export const HMRC_METHOD: readonly string[] = [
  'Income. Bittensor pays stakers no reward event: a position (a coldkey staking through one hotkey on one ' +
    "subnet) grows as its hotkey's share pool grows. For each position and each UK day (Europe/London) the " +
    "income is the stake at the day's last block, less the stake at the previous day's last block, less the " +
    "stake that the day's own actions (stakes, unstakes, moves, transfers, swaps, recycles) added or removed, " +
    "measured on the chain at each action's block (stake as the chain's get_stake_info_for_coldkey reports it). " +
    "It is exact to the RAO (10^-9 of a token). A share pool rounds each holder's stake to the RAO, so " +
    "another holder's stake or unstake, or the chain's own AlphaV2 migration of October 2026, can move a " +
    "position by a RAO or so: that is part of the day's growth, as the chain shows the stake.",
  'Value at receipt. HMRC treats staking rewards that are not a trade as miscellaneous income, taxed at their ' +
    "pounds sterling value when received (CRYPTO21200). Each day's alpha is valued at that subnet pool's " +
    "price at the day's last block (SubnetTAO / SubnetAlphaIn, in TAO; on the day a subnet is dissolved, at " +
    'the block before the dissolution, its last price) and TAO at the TAO/GBP rate of the ' +
    "day's end. An event is valued from its own amounts at the rate of its UK day's end. " +
    "Root stake is TAO. That value is also the tokens' cost for capital gains: income is an acquisition.",
  "Assets. TAO and each subnet's alpha are different tokens, each with its own section 104 pool, pooled per " +
    'person across all the coldkeys of this order (CRYPTO22200). A subnet is its netuid and its registration ' +
    'block, so a reused netuid is a new asset.',
  'Disposals. Exchanging one token for another is a disposal of the first and an acquisition of the second ' +
    '(CRYPTO22100). Staking TAO into a subnet disposes of TAO and acquires alpha; unstaking disposes of alpha ' +
    'and acquires TAO; moving stake to another subnet disposes of one alpha and acquires another. The ' +
    'proceeds are the sterling value of what is received, and the new tokens cost the value given up. The ' +
    "chain's staking fee is an allowable cost, deducted once, from the proceeds. Moving stake between " +
    "hotkeys on one subnet, a hotkey or coldkey swap, staking on root, and moves between the order's own " +
    'coldkeys are not disposals: the same token stays with the same owner.',
  'Transfers. Stake or TAO sent to a coldkey outside this order is treated as disposed of at its market value, ' +
    'and what is received from outside as acquired at market value; both are flagged for you to check. A ' +
    'transfer to or from an address you named as yours, or one that a withdrawal or deposit in your own ' +
    'records is paired with, is a move within your holdings: no disposal, no acquisition, the cost stays in ' +
    'the pool (CRYPTO22100, CRYPTO22200: one pool per token per person); a fee paid in a token on the way is ' +
    'still a disposal of it. Records and transfers are paired as one matching over all of them (same token, ' +
    'quantity within the fee, within 6 hours), the facts first: an address you named, with a label naming ' +
    'the exchange of the record, then the address (a deposit goes to an address you named, an exchange pays ' +
    'from one you did not), then time order (recorded before it arrives, sent before it is credited), then ' +
    'the exact quantity; only then the nearer in time, and such a choice is listed in Points to check.',
  'Your records. Purchases, sales, income and fees from your exchange records (Koinly, BittyTax or the plain ' +
    'CSV) enter the same pools and the same matching as the chain record. A fee is an allowable cost: on a ' +
    "purchase in its cost, on a sale in the disposal's costs; a fee paid in a token is also a disposal of that " +
    'token at its value. A fee inside an exchange of two tokens, in your records (a trade of TAO for alpha) ' +
    'or on the chain (an unstake, a move), is allowable half against the disposal and half on the acquired ' +
    "token's cost (CRYPTO22150: attributable to both), as BittyTax allocates it. A BittyTax Lost row is a " +
    'negligible value claim (TCGA 1992 s24(2), CRYPTO22400): the tokens disposed of and reacquired at once at ' +
    'the claimed value, neither matched under the same-day or 30-day rules. Rows skipped (money deposits), ' +
    'identical rows kept, and rows of two files that look like one transaction are listed in Points to ' +
    "check. Opening pools you give (your figures, or last year's pools.csv) replace the market-value opening.",
  'Actions. Each row of events.csv is one call, with the chain events it was made of. A stake is ' +
    "a Balances.Transfer of TAO to the subnet's own account and a StakeAdded: one exchange of TAO for alpha, " +
    "the transfer being staking's own leg, never a payment to anyone; an unstake is the reverse. A move of " +
    'stake to another subnet (StakeMoved, StakeSwapped) unstakes and stakes again in one call: one exchange ' +
    'of one alpha for another. A move between hotkeys on one subnet (StakeRemoved and StakeAdded, no ' +
    'transfer) and a hotkey or coldkey swap (HotkeySwapped, ColdkeySwapped) leave the same alpha with the ' +
    'same owner: neither a disposal nor income; after a coldkey swap the pack follows the holdings to the ' +
    'new coldkey. Stake sent to a coldkey outside the order (StakeTransferred) is a disposal at market ' +
    'value. Recycled or burned alpha (AlphaRecycled, AlphaBurned) is a disposal for nothing: no proceeds, ' +
    'so its cost is a loss. A transaction fee paid in alpha (TransactionFeePaidWithAlpha) is a disposal of ' +
    'that alpha for the TAO it was swapped for. A dissolved subnet (its account paying each holder by ' +
    'Balances.Transfer, then NetworkRemoved) is a disposal of the alpha held on it for the TAO paid, that ' +
    "TAO acquired at its value. Alpha received by auto-stake (AutoStakeAdded), as a miner's incentive, by " +
    'a root claim (RootClaimed, which states no amount: the rise of the position is the amount) or as lease ' +
    'dividends (SubnetLeaseDividendsDistributed) is income of its day, in income.csv. A limit order filled ' +
    'by the LimitOrders pallet (OrderExecuted; a batch fills several in one call) is one exchange per order ' +
    'at its own amounts: a buy gives the TAO paid, its fee inside, for the alpha received; a sell gives the ' +
    "alpha for the TAO received after its fee; the TAO moved to and from the pallet's account is the order's " +
    'own leg, not a payment. After the spec-473 ' +
    "upgrade (October 2026) the chain's AlphaV2 migration swept small positions outside any call: a legacy " +
    'position worth 1,000 to 3,000,000 RAO was unstaked to its coldkey (StakeRemoved, no fee: a disposal for ' +
    'the TAO paid), and one worth under 1,000 RAO was deleted with no event naming its holder and its value ' +
    'burned: the pack finds its block on the chain and books a disposal for nothing (negligible value), the ' +
    'row AlphaV2Migration in events.csv.',
  "User liquidity (the swap pallet's add_liquidity, remove_liquidity, modify_position; runtimes of 2025 " +
    'until user liquidity was disabled on 5 December 2025). A position is its own asset in the pools ' +
    '(liquidity:<netuid>:<position id>, its quantity the liquidity). Liquidity added is handed to the ' +
    "subnet's pool, which trades it with every swap: the pool can deal with it as it will, which HMRC " +
    'takes as a strong sign that beneficial ownership passes (CRYPTO61620). So adding (LiquidityAdded) is a ' +
    "disposal of the TAO and the alpha at market value (the alpha at the pool's price of the block) and " +
    'the position acquired for that value; taking it out (LiquidityRemoved) disposes of the position for the ' +
    'principal paid back at market value, and the TAO and alpha received are acquired at their value. The ' +
    'fees paid out with it (LiquidityRemoved, or a LiquidityModified taking liquidity out, states them) are ' +
    'the return, income when received at their value (CRYPTO61213, CRYPTO61214): the TAO at the rate of the ' +
    "UK day's end and the alpha at the pool's price of the block. They are in the income total, in income.csv " +
    '(one row per payout, kind liquidity fees) and in liquidity.csv (fees_gbp, the same figure); that value ' +
    "is the fees' cost in the pools, their acquisitions of kind income in cgt-input.csv, apart from the " +
    'principal, so nothing is counted twice. A position the chain closed itself when user liquidity was ' +
    'disabled (disable_lp) or its subnet dissolved names no position in any event: its TAO principal arrives ' +
    'by Balances.Deposit and its alpha, fees included, is staked with no event; the pack disposes of the ' +
    'positions it saw opened on that subnet for that TAO and the alpha the chain shows added, and lists it in ' +
    'Points to check (with no position it saw opened, the TAO and alpha are taken as acquired at market ' +
    "value, listed too). HMRC's consultation outcome of 26 November 2025 proposes that entering and " +
    'leaving such arrangements be no gain, no loss: a proposal, not law for 2025/26. liquidity.csv gives ' +
    "each position's amounts in and out and their values, so that reading can be computed instead.",
  'Crowdloans and subnet leases. A contribution to a crowdloan (Contributed, its TAO sent to the ' +
    "crowdloan's own account) gives TAO for a right: a share of the subnet lease the crowdloan becomes. " +
    'Exchanging a token for another asset is a disposal (CRYPTO22100): the TAO is disposed of at its value and ' +
    'the contribution (crowdloan:<id>) acquired for it. A withdrawal or a refund (the TAO paid back from the ' +
    "crowdloan's account) disposes of the contribution for the TAO returned. The lease's dividends " +
    'are income when received: from spec 361 (December 2025) each is announced by ' +
    "SubnetLeaseDividendsDistributed, alpha onto the contributor's stake: part of that position's income " +
    'of its day in income.csv (kind staking and lease dividends, their alpha and value in the note), and ' +
    "the income total's own line; before it they " +
    'were paid as TAO to the free balance with no event naming them, which the pack cannot tell from any ' +
    'other credit.',
  'Fees paid in TAO. Every call a coldkey signs pays a transaction fee from its free TAO ' +
    '(TransactionFeePaid). The TAO paid is a disposal at its market value: tokens given for a service ' +
    '(CRYPTO22100). The fee is an allowable cost of the call (TCGA 1992 s38, CRYPTO22150: transaction fees ' +
    "paid for having the transaction included on the ledger): an incidental cost of the call's disposal (the " +
    'TAO staked, the alpha unstaked, TAO sent away, TAO burned for a registration), or, when it disposed of ' +
    'nothing, part of the cost of what it acquired. A call that neither acquired nor disposed of anything (a ' +
    'move within a subnet, staking on root, a proxy, a transfer between your own coldkeys or to your own EVM ' +
    'address) leaves the fee nothing to be a cost of, as CRYPTO22150 says of a deposit that keeps beneficial ' +
    'ownership: its TAO is still disposed of at its value. The staking fee of a stake or unstake on root (the ' +
    'fee its StakeAdded or StakeRemoved states: the root stake is the TAO less it) is a disposal of that TAO ' +
    'at its value too.',
  'Deposits, registrations and EVM. TAO reserved as a deposit (Balances.Reserved: a proxy, a multisig; an ' +
    'identity in the Registry pallet is held with no event, seen as reserved TAO) is still yours: no disposal, ' +
    'it stays in the TAO pool, and its return (Balances.Unreserved) is no acquisition. A neuron registration (burned_register: NeuronRegistered, the burn withdrawn from ' +
    'the free TAO) gives TAO for a place on a subnet: a disposal of that TAO at its market value (tokens ' +
    'spent on a service, CRYPTO22100), nothing acquired. TAO moved between a coldkey and its own EVM address ' +
    "(the coldkey's key cut to its first 20 bytes, whose TAO only that coldkey can draw by EVM.withdraw) is a " +
    'move within your holdings: no disposal, the TAO stays in the pool. Any other EVM address is an address ' +
    'like any other: TAO sent there is a transfer outside the order unless you name the address as yours.',
  "Staking through the EVM. Stake made through the EVM staking precompile from a coldkey's own EVM address " +
    "(its addStake and removeStake run the chain's add_stake and remove_stake for the account that holds that " +
    "address's TAO, which StakeAdded and StakeRemoved name as the coldkey) is the coldkey's own, as only the " +
    "coldkey controls that address: the pack takes that account in as one of the record's coldkeys. Its stake " +
    'and unstake are exchanges of TAO for alpha and back like any other, the emissions on its stake are income ' +
    'of their days (income.csv names the account as the coldkey), and the reconciliation reads its TAO and ' +
    'positions.',
  "A network's lock. Registering a subnet (register_network: NetworkAdded, the lock withdrawn from the free " +
    "TAO) gives TAO for the registration: the subnet's ownership, its owner's cut of emissions and, for a " +
    "subnet registered before October 2025, the lock back less the owner's emission when the subnet is " +
    'dissolved. No token comes back: giving tokens for a right is a disposal (CRYPTO22100), so the TAO is ' +
    'disposed of at its market value and the registration (subnet-lock:<netuid>:<block>, quantity 1) acquired ' +
    "for that value. The refund (credited to the owner in the dissolving call after the holders' payouts, no " +
    'event naming it) is a capital sum derived from the registration (TCGA 1992 s22): the registration is ' +
    'disposed of for the TAO refunded, that TAO acquired at its value. A lock paid from October 2025 on is ' +
    'never refunded: no event names the owner when that subnet is dissolved, and the daily reconciliation ' +
    'lists the registration gone as a point to check (its end is a disposal for nothing, TCGA 1992 s24(1)).',
  'Reconciliation with the chain. For every UK day of the tax year and every token, the pack reads from the ' +
    "chain what the coldkeys hold at the day's last block: each coldkey's free and reserved TAO (System." +
    'Account; a reserved deposit is still held), the TAO on its own EVM address, its stake on root (TAO), ' +
    'each stake position (hotkey and subnet), and each crowdloan contribution and liquidity position the pack ' +
    "booked (from their pallets' own storage; a network registration while SubnetOwner names the coldkey). It holds that against the day before's holdings plus every movement the pack booked that day " +
    '(income, the acquisitions and disposals of the actions, transfers in and out): closing - opening - ' +
    'booked is the difference (reconciliation.csv). A difference a known mechanism explains is booked as the ' +
    'method says; any other is listed in Points to check with its day, token, amount and value, never ' +
    "absorbed. One movement no event states is booked from the chain's own figures: the RAO that the share " +
    'arithmetic of a move between hotkeys on one subnet or of a key swap loses or adds is a disposal (or an ' +
    'acquisition) of it for nothing. The days of the record before the tax year are held to the chain too: ' +
    "the record's opening holdings plus every movement booked up to the year's opening must be what the " +
    'chain holds when the year opens; a difference is listed in Points to check on that day.',
  'Matching (TCGA 1992 s104-106A, CRYPTO22200 onwards). All disposals of one token on one UK day are one ' +
    "disposal. It is matched first with that day's acquisitions, then with acquisitions in the following 30 " +
    'days (earliest first; for a disposal late in the tax year these reach into the next one, and the pack ' +
    "reads them when they are collected), then with the section 104 pool at its average cost. HMRC's worked examples " +
    "(CRYPTO22251 to CRYPTO22257) are reproduced in this software's tests.",
  'Arithmetic. Amounts are decimals with at least 28 significant digits; pounds are kept to 8 decimal places ' +
    'in the CSV files and rounded to pence only in this PDF. The SA108 figures are the number of disposals, ' +
    'the proceeds, the allowable costs, the gains before losses and the losses of the tax year.',
];

export const LIMITS: readonly string[] = [
  'What the chain shows: stake, pool prices and staking events of these coldkeys, read from a Bittensor ' +
    'archive node and from the events this service collected. What it does not show: what you paid for TAO ' +
    'on an exchange, transfers you made between your own wallets outside this order, or whether you trade: ' +
    'add your exchange records, your own addresses and your opening pools on the order page, and the pack is ' +
    "rebuilt with them. An address you name as yours is not read from the chain: its history is your records'.",
  'Assumption: what the coldkeys held when the record opens (the end of the earliest UK day the service ' +
    'collected, often in an earlier tax year) enters the pools at its market value that day, because its real ' +
    'cost is not in the record. From there the section 104 pools carry across tax years as HMRC requires. ' +
    'If you know the real cost of earlier holdings, your adviser should use it.',
  "Assumption: TAO/GBP at a UK day's end is the daily price published for the next UTC date (its first " +
    "quote at or after 00:00 UTC, within the hour of the UK day's end, the moment of the day's last block). " +
    'A day without one takes the nearest earlier quote up to 3 days older, and the pack flags it; with none ' +
    'that near the pack is not made, rather than value anything at £0.',
  'Assumption: transfers to or from coldkeys outside the order are disposals or acquisitions at market value ' +
    '(a gift, a sale or your own other wallet would each be treated differently), unless the address is one ' +
    'you named as yours or your records show the move.',
  "Falls. A coldkey's rises and falls on one subnet and UK day are netted across its hotkeys before anything " +
    'is income: stake that left one hotkey and reached another (a hotkey or coldkey swap, HotkeySwapped, ' +
    'HotkeySwappedOnSubnet, ColdkeySwapped) is a move, named in Points to check. A fall that nothing explains ' +
    'is listed for you to check and never booked as a disposal for nothing, but for one the chain itself ' +
    'made: a whole position under 1,000 RAO that the AlphaV2 migration deleted after the spec-473 upgrade, ' +
    'found at its block (events.csv, AlphaV2Migration). A subnet that ended without ' +
    'paying you anything: no disposal is booked, the pool stays, and a negligible value claim (CRYPTO22500, ' +
    'for the whole pool) is the route to the loss.',
  'What happens to TAO inside the EVM beyond staking is not read: ' +
    "TAO on a coldkey's own EVM address stays in the TAO pool until it comes back; TAO that leaves that " +
    'address for anywhere else (a contract, another EVM address) and the gas the EVM charges it (no ' +
    'TransactionFeePaid) are not booked: the daily reconciliation shows them as unexplained differences. ' +
    'Staking through the EVM staking precompile from that address is read (above).',
  'A reward paid in the very block of one of your staking events (a subnet pays its stakers once per tempo, ' +
    'about every 72 minutes) is measured together with that event and counted as part of it, not as income: ' +
    'rare, and small when it happens (one payout of that one position).',
  'Subnet names are the names in the published run, which may be newer than the tax year.',
];

export const PACK_FILES: ReadonlyArray<readonly [string, string]> = [
  ['summary.pdf', 'this summary.'],
  [
    'income.csv',
    'one row per position and UK day with income, and one per payout of liquidity fees: date, coldkey, ' +
      'hotkey, netuid, subnet, registered_at, alpha (received, exact; TAO on root), tao (its value at the ' +
      'pool price; for liquidity fees the TAO received and the alpha at the pool price), gbp, price_block ' +
      '(the block of the pool price), tao_gbp (pounds per TAO used), tao_gbp_at (the time of that quote, ' +
      'UTC), price_sources, note (negative or unpriced days, an older rate, lease dividends inside the row, ' +
      'the fees paid), kind (staking, staking and lease dividends, or liquidity fees), tao_received (the TAO ' +
      'fees paid out) and liquidity_position (the position that paid them). Its received rows sum to the ' +
      "summary's income total.",
  ],
  [
    'events.csv',
    'one row per economic action of the coldkeys in the tax year (the events of one extrinsic: a stake is ' +
      'its TAO transfer to the subnet account and its StakeAdded): coldkey, time (UTC), uk_date, block, ' +
      'event_index, kind, role (origin or destination), hotkey, netuid, counterpart_coldkey, ' +
      'counterpart_hotkey, counterpart_netuid, tao, alpha, fee_tao (of the event naming the action; a ' +
      "dissolution's row, whose event is the payout, has the subnet dissolved and the alpha it took), " +
      'treatment (what it is for capital gains), action, chain_events (kind block/index of every event in it).',
  ],
  [
    'disposals.csv',
    'one row per disposal of the tax year (all disposals of one token on one UK day are one disposal): date, ' +
      'tax_year, asset, quantity, proceeds_gbp, cost_gbp, fee_gbp (the fees inside cost_gbp), gain_gbp (negative ' +
      'for a loss), refs (the events and ' +
      'income days grouped in it). Its column sums are the SA108 figures: proceeds, allowable costs, and gains ' +
      'less losses.',
  ],
  [
    'matches.csv',
    'one row per matched part of each disposal: disposal_date, asset, rule (same-day, 30-day or s104), ' +
      'acquisition_date (the day of the acquisitions matched; empty for the pool), quantity, cost_gbp. A ' +
      "disposal's rows sum to its quantity and its cost.",
  ],
  [
    'pools.csv',
    'the section 104 pools at the end of the last day of the tax year covered: asset, quantity, cost_gbp, ' +
      'as_at, kind (pool), TAO and the tokens first, then each alpha by its netuid; and kind matched-ahead: acquisitions after the year (as_at their day) that its ' +
      'disposals took under the 30-day rule; and a last row of kind record-end (no asset; as_at the last day ' +
      "the record read). Give this file as next year's opening pools: the two packs then give the figures of " +
      "one computation across both years (next year's pack warns when this one was provisional).",
  ],
  [
    'positions.csv',
    'the stake of every position at the end of every UK day: date, block, coldkey, hotkey, netuid, subnet, alpha.',
  ],
  [
    'cgt-input.csv',
    'every acquisition and disposal of the chain record given to the gains engine (datetime, asset, action, ' +
      'quantity, gbp, fee_gbp, kind: opening, income, transfer-in, transfer-out or unexplained, counterparty: ' +
      'the address of a transfer; a row of quantity 0 and kind opening only marks when the record opens, ' +
      'when the coldkeys then held nothing), from the opening to up to 30 days after the tax year (those later days only ' +
      'for the 30-day rule): `sbm tax cgt cgt-input.csv` recomputes disposals.csv (its disposals dated in ' +
      'the tax year), the SA108 figures (its Tax year section) and pools.csv (its pools at 5 April and the ' +
      'acquisitions after it matched with the year, the rows of kind pool and matched-ahead; --json: ' +
      'year_ends; its pools after the last row run 30 days past the year and are not pools.csv); with your ' +
      'files added (`--records`, `--addresses`, `--opening`, and `--prices` with tax/fiat-prices.json for an ' +
      "exchange's rows without pounds) it combines them as this pack did.",
  ],
  [
    'bittytax.csv',
    "the same transactions as cgt-input.csv, as BittyTax transaction records (its README's columns: Type, " +
      'Buy Quantity, Buy Asset, Buy Value in GBP, Sell Quantity, Sell Asset, Sell Value in GBP, Fee Quantity, ' +
      'Fee Asset, Fee Value in GBP, Wallet, Timestamp, Note). A stake, unstake or move across subnets is one ' +
      'Trade, a fee paid in alpha in the Fee columns; staking income is Staking-Reward, the fees paid out with ' +
      'a liquidity position Income (Koinly: income); TAO or stake from or to ' +
      'a coldkey outside this order is a Deposit or Withdrawal; a move between your own wallets is a Withdrawal ' +
      'and a Deposit; your records are Trades against GBP (their fees in the Fee columns) and Income; holdings ' +
      'taken at market value (the opening) are Gift-Received; stake gone for nothing and other disposals are ' +
      'Spend. Alpha is SN<netuid>-ALPHA (-R<block> for a reused netuid).',
  ],
  [
    'koinly.csv',
    "the same records in Koinly's universal CSV template (Date in UTC, Sent and Received Amount and Currency, " +
      'Fee Amount and Currency, Net Worth in GBP, Label: staking, income, gift, lost or cost, Description; a ' +
      'transfer has none, so Koinly pairs it with your exchange export).',
  ],
  [
    'liquidity.csv',
    'every movement of a user liquidity position: coldkey, time_utc, date_uk, block, event_index, kind, ' +
      'netuid, position_ids, liquidity, direction (in, out, refund), tao_principal, alpha_principal (blank for ' +
      "a refund: measured on the chain), fee_tao, fee_alpha, principal_gbp (the position's value booked), " +
      "fees_gbp (the fees' value when received: income, as in income.csv) and the treatment.",
  ],
  [
    'reconciliation.csv',
    'the proof that nothing moved that the pack did not book: one row per UK day and token (level asset: ' +
      'TAO is free + reserved + root stake of all the coldkeys, an alpha the stake of all their positions on ' +
      "that subnet's registration), and below it one row per holding that held anything that day (level " +
      'holding: free or reserved TAO of a coldkey, TAO on its own EVM address, a crowdloan contribution, a ' +
      'liquidity position, a network registration, or a stake position). Columns: date (UK), block (the ' +
      "day's last block), level, asset, coldkey, holding (free, reserved, evm, crowdloan <id>, liquidity <netuid>/<id>, subnet-lock <netuid>/<block>, or the hotkey), netuid, opening (the " +
      "chain's holding at the previous day's last block), booked (what the pack booked that day for the " +
      "token: + acquired, - disposed; asset rows only), closing (the chain's holding at the day's last " +
      'block), difference (closing - opening - booked; asset rows only), difference_gbp (its value at the ' +
      "day's prices), explanation (reconciled, a known mechanism, or unexplained: a point to check), " +
      'booked_movements (the booked rows: income, or the event of each action, with their quantities).',
  ],
  [
    'points.csv',
    'the points to check, one row a point, in the order summary.pdf lists them (most pounds at stake first): ' +
      'rank, kind (address: transfers with one address outside the order; missing-records: an exchange address ' +
      'you named as yours with transfers no record of yours shows; reconciliation: a token the chain holds ' +
      'differently from what the pack booked; or the kind of another point), counterparty (the address), ' +
      'label (your name for it), count (transfers or rows it stands for), days, first_date and last_date ' +
      '(UK), sent and received (quantity and asset, joined by ;), gbp (pounds at stake; empty for a point ' +
      'with no single figure), point (what was found) and action (what settles it: an address marked as ' +
      'yours on the order page, an export added, what to check).',
  ],
  ['README.txt', 'what each file and column means.'],
];

/** README.txt's advice on the files, for the user and for an adviser. */
export const WHICH_FILE: readonly string[] = [
  'HMRC pools each token per person across every wallet and exchange (CRYPTO22200). This pack sees only ' +
    'these coldkeys: it cannot see what you paid for TAO on an exchange, nor your other wallets.',
  'If Bittensor is all you hold, or you want this pack to be the computation: file from summary.pdf, and ' +
    'give your adviser disposals.csv, matches.csv and income.csv.',
  'If you keep your other cryptoassets in BittyTax or Koinly: import bittytax.csv or koinly.csv beside your ' +
    'exchange records instead, and let that tool compute the pools and gains. TAO that came from outside ' +
    'this order is a deposit there, so the tool pairs it with your exchange withdrawal and its real cost; ' +
    'remove the Gift-Received (Koinly: gift) rows of the opening if your records already hold that history.',
  'cgt-input.csv is for checking the pack: `sbm tax cgt cgt-input.csv` recomputes its disposals, SA108 ' +
    'figures and pools.csv (with `--records`, `--addresses` and `--opening` for the files you added on the ' +
    'order page).',
];

/** What the daily reconciliation found, in one sentence: the PDF's and README.txt's. */
export function reconciliationResult(result: {
  days: number;
  rows: number;
  unexplained: ReadonlyArray<{ date: string; asset: string; difference: string; gbp: string }>;
}): string {
  if (result.unexplained.length === 0) {
    return `Every day reconciled, 0 RAO unexplained: on each of the ${result.days} UK days of the tax year, every token's holdings on the chain (${result.rows} day and token rows) equal the day before's plus what this pack booked.`;
  }
  return `${result.unexplained.length} day and token row(s) of ${result.rows} differ from the chain with nothing the pack reads to explain them (listed in Points to check and in reconciliation.csv): ${result.unexplained
    .slice(0, 10)
    .map((row) => `${row.date} ${row.asset} ${row.difference} (${row.gbp})`)
    .join('; ')}${result.unexplained.length > 10 ? ` and ${result.unexplained.length - 10} more` : ''}.`;
}

/** README.txt: the files and columns, the method and the limits, as plain text. */
export function packReadme(
  title: string,
  orderId: string,
  taxYear: string,
  reconciliation?: Parameters<typeof reconciliationResult>[0],
  /** The income total and each source's, one line each (`incomeTotalLines`). */
  income?: readonly string[],
): string {
  const lines = [
    `${title}`,
    `Order ${orderId}, UK tax year ${taxYear}`,
    '',
    NOT_TAX_ADVICE,
    '',
    ...(income ? ['INCOME (miscellaneous income, valued when received)', '', ...income, ''] : []),
    ...(reconciliation
      ? ['RECONCILIATION WITH THE CHAIN', '', reconciliationResult(reconciliation), '']
      : []),
    'FILES',
    '',
    ...PACK_FILES.flatMap(([name, text]) => [`${name}`, `  ${text}`, '']),
    'All CSV files: RFC 4180, UTF-8, a header row, CRLF line ends, ISO 8601 dates (UK dates for uk_date and',
    'date columns, UTC for times), plain decimals (no thousands separators, no exponents). Alpha and TAO are',
    'exact to the RAO (9 decimal places at most); pounds have 8 decimal places (the PDF rounds to pence).',
    'Assets are TAO and alpha:<netuid>:<registration block>; rights that are no token are',
    'liquidity:<netuid>:<position id> (a liquidity position), crowdloan:<id> (a crowdloan contribution) and',
    'subnet-lock:<netuid>:<registration block> (a network registration, quantity 1).',
    '',
    'WHICH FILE TO USE',
    '',
    ...WHICH_FILE.flatMap((text) => [text, '']),
    'METHOD',
    '',
    ...HMRC_METHOD.flatMap((text) => [text, '']),
    'LIMITS AND ASSUMPTIONS',
    '',
    ...LIMITS.flatMap((text) => [`- ${text}`, '']),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
