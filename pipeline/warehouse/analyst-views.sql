-- The analysts' side of the warehouse: one view per question analysts ask, and a COMMENT ON every
-- table, view and column, so a stock DuckDB client (`duckdb -readonly`, Python `duckdb`) explains the file
-- by itself:
--   SELECT table_name, comment FROM duckdb_tables();   SELECT view_name, comment FROM duckdb_views();
--   SELECT table_name, column_name, comment FROM duckdb_columns() WHERE NOT internal;
--
-- Applied after schema.sql on every writable open (`sbm collect`, `daily`, `prices`, `claims`), so it must
-- stay idempotent: views are CREATE OR REPLACE and every comment is set again each time (replacing a view
-- drops its comments). Views are SQL text bound when queried; a view may read another view.
--
-- Amounts stay exact: RAO as HUGEINT (1 TAO = 1 alpha = 10^9 RAO). The DECIMAL(38, 9) columns (`alpha`,
-- `tao`, ...) are the same amounts in whole units, exact; prices are DECIMAL(38, 18), rounded down.

-- ---------------------------------------------------------------------------------------------------
-- Views
-- ---------------------------------------------------------------------------------------------------

-- Burns per subnet and UTC day, valued at that day's panel price (the building block of the published
-- daily series; the snapshot builder reads it).
CREATE OR REPLACE VIEW burns_daily AS
WITH b AS (
  SELECT
    b.day, b.netuid, b.registered_at, b.alpha_rao,
    p.subnet_tao_rao, p.subnet_alpha_in_rao,
    (p.subnet_tao_rao IS NOT NULL AND p.subnet_alpha_in_rao IS NOT NULL AND p.subnet_alpha_in_rao > 0) AS priced
  FROM burns b
  LEFT JOIN panel_prices p
    ON p.day = b.day AND p.netuid = b.netuid AND p.registered_at = b.registered_at
  WHERE b.kind IN ('burn', 'buyback')
)
SELECT
  day,
  netuid,
  registered_at,
  sum(alpha_rao)::HUGEINT AS alpha_rao,
  (sum(alpha_rao) FILTER (WHERE priced) * any_value(subnet_tao_rao) FILTER (WHERE priced)
    // any_value(subnet_alpha_in_rao) FILTER (WHERE priced))::HUGEINT AS tao_rao,
  count(*)::INTEGER AS burns,
  (count(*) FILTER (WHERE NOT priced))::INTEGER AS unpriced_burns
FROM b
GROUP BY day, netuid, registered_at;

-- One row per subnet registration that has burned, with its latest name.
CREATE OR REPLACE VIEW subnet_burns AS
SELECT
  b.netuid,
  b.registered_at,
  (SELECT s.name FROM subnet_days s
    WHERE s.netuid = b.netuid AND s.registered_at = b.registered_at
    ORDER BY s.day DESC LIMIT 1) AS name,
  count(*)::INTEGER AS burns,
  sum(b.alpha_rao)::HUGEINT AS alpha_rao,
  min(b.block_time) AS first_burn,
  max(b.block_time) AS last_burn
FROM burns b
WHERE b.kind IN ('burn', 'buyback')
GROUP BY b.netuid, b.registered_at;

-- Every subnet registration the warehouse has seen (on a day's panel or in a burn), with its registration
-- window. A netuid is reused after deregistration, so a registration is (netuid, registered_at). The chain
-- does not say when a subnet was deregistered in anything we read; the window's end is bounded instead:
-- after the last panel block that listed it, and no later than deregistered_by_block (the next
-- registration of the same netuid, or the first later panel that no longer lists it).
CREATE OR REPLACE VIEW subnet_registry AS
WITH panels AS (
  SELECT day, max(panel_block) AS panel_block FROM panel_prices GROUP BY day
),
renames AS (
  SELECT netuid, registered_at, name, min(day) AS since FROM subnet_days GROUP BY netuid, registered_at, name
),
name_lists AS (
  SELECT netuid, registered_at, list(name ORDER BY since) AS names FROM renames GROUP BY netuid, registered_at
),
listed AS (
  SELECT
    s.netuid,
    s.registered_at,
    arg_max(s.name, s.day) AS name,
    arg_max(s.symbol, s.day) AS symbol,
    min(s.day) AS first_panel_day,
    max(s.day) AS last_panel_day
  FROM subnet_days s
  GROUP BY s.netuid, s.registered_at
),
registrations AS (
  -- A registration seen only in burns (registered and replaced between two panels) ended before the panel
  -- of its last burn's day.
  SELECT r.netuid, r.registered_at, coalesce(l.last_panel_day, max(b.day) - 1) AS existed_on_day
  FROM (SELECT netuid, registered_at FROM subnet_days UNION SELECT netuid, registered_at FROM burns) r
  LEFT JOIN listed l USING (netuid, registered_at)
  LEFT JOIN burns b USING (netuid, registered_at)
  GROUP BY r.netuid, r.registered_at, l.last_panel_day
),
windows AS (
  SELECT
    r.netuid,
    r.registered_at,
    lead(r.registered_at) OVER (PARTITION BY r.netuid ORDER BY r.registered_at) AS next_registered_at,
    (SELECT min(p.day) FROM panels p WHERE p.day > r.existed_on_day) AS gone_day
  FROM registrations r
)
SELECT
  w.netuid,
  w.registered_at,
  (SELECT c.day FROM collected_days c
    WHERE w.registered_at BETWEEN c.first_block AND c.last_block) AS registered_day,
  l.name,
  l.symbol,
  nl.names,
  l.first_panel_day,
  l.last_panel_day,
  lp.panel_block AS last_panel_block,
  w.next_registered_at,
  -- least() skips NULLs: whichever bound is known.
  least(w.next_registered_at, gp.panel_block) AS deregistered_by_block,
  (w.next_registered_at IS NULL AND w.gone_day IS NULL AND l.last_panel_day IS NOT NULL) AS registered_now
FROM windows w
LEFT JOIN listed l ON l.netuid = w.netuid AND l.registered_at = w.registered_at
LEFT JOIN name_lists nl ON nl.netuid = w.netuid AND nl.registered_at = w.registered_at
LEFT JOIN panels lp ON lp.day = l.last_panel_day
LEFT JOIN panels gp ON gp.day = w.gone_day;

-- Burns per subnet registration and UTC day, with the subnet's name, the day's panel price, and the
-- buybacks among them. Only (day, subnet) pairs with at least one burn or buyback have a row.
CREATE OR REPLACE VIEW subnet_burns_daily AS
WITH buyback_days AS (
  SELECT day, netuid, registered_at, count(*)::INTEGER AS buybacks, sum(tao_rao)::HUGEINT AS buyback_tao_rao
  FROM burns WHERE kind = 'buyback'
  GROUP BY day, netuid, registered_at
)
SELECT
  d.day,
  d.netuid,
  d.registered_at,
  coalesce(s.name, r.name) AS name,
  coalesce(s.symbol, r.symbol) AS symbol,
  d.burns,
  coalesce(bb.buybacks, 0)::INTEGER AS buybacks,
  d.alpha_rao,
  d.tao_rao,
  bb.buyback_tao_rao,
  p.subnet_tao_rao,
  p.subnet_alpha_in_rao,
  CASE WHEN p.subnet_alpha_in_rao > 0 THEN
    ((p.subnet_tao_rao * 1000000000000000000) // p.subnet_alpha_in_rao)::DECIMAL(38, 0) * 0.000000000000000001
  END AS price_tao,
  (d.unpriced_burns = 0) AS priced,
  d.unpriced_burns,
  d.alpha_rao::DECIMAL(38, 0) * 0.000000001 AS alpha,
  d.tao_rao::DECIMAL(38, 0) * 0.000000001 AS tao
FROM burns_daily d
LEFT JOIN subnet_days s ON s.day = d.day AND s.netuid = d.netuid AND s.registered_at = d.registered_at
LEFT JOIN subnet_registry r ON r.netuid = d.netuid AND r.registered_at = d.registered_at
LEFT JOIN panel_prices p ON p.day = d.day AND p.netuid = d.netuid AND p.registered_at = d.registered_at
LEFT JOIN buyback_days bb ON bb.day = d.day AND bb.netuid = d.netuid AND bb.registered_at = d.registered_at;

-- Each buyback (one `add_stake_burn` extrinsic): the TAO it spent and the alpha it burned, the price it
-- paid, and the subnet's panel price that day.
CREATE OR REPLACE VIEW buybacks AS
SELECT
  b.block,
  b.event_index,
  b.extrinsic_index,
  b.block_time,
  b.day,
  b.netuid,
  b.registered_at,
  coalesce(s.name, r.name) AS name,
  b.coldkey,
  b.hotkey,
  b.tao_rao,
  b.alpha_rao,
  b.tao_rao::DECIMAL(38, 0) * 0.000000001 AS tao,
  b.alpha_rao::DECIMAL(38, 0) * 0.000000001 AS alpha,
  CASE WHEN b.alpha_rao > 0 THEN
    ((b.tao_rao * 1000000000000000000) // b.alpha_rao)::DECIMAL(38, 0) * 0.000000000000000001
  END AS price_paid_tao,
  CASE WHEN p.subnet_alpha_in_rao > 0 THEN
    ((p.subnet_tao_rao * 1000000000000000000) // p.subnet_alpha_in_rao)::DECIMAL(38, 0) * 0.000000000000000001
  END AS panel_price_tao
FROM burns b
LEFT JOIN subnet_days s ON s.day = b.day AND s.netuid = b.netuid AND s.registered_at = b.registered_at
LEFT JOIN subnet_registry r ON r.netuid = b.netuid AND r.registered_at = b.registered_at
LEFT JOIN panel_prices p ON p.day = b.day AND p.netuid = b.netuid AND p.registered_at = b.registered_at
WHERE b.kind = 'buyback';

-- Staking events as seen from each coldkey they touch: every event once for the coldkey that made it
-- (role 'origin'), and once more for the coldkey that received something (role 'destination': the
-- recipient of a Transfer, the destination coldkey of a StakeTransferred). `detail` is unpacked.
CREATE OR REPLACE VIEW staking_events_by_coldkey AS
WITH e AS (
  SELECT
    *,
    coalesce(detail->>'destination_coldkey', detail->>'to') AS receiver
  FROM staking_events
),
sides AS (
  SELECT e.*, 'origin' AS role, e.coldkey AS subject, e.receiver AS counterpart FROM e
  UNION ALL
  SELECT e.*, 'destination' AS role, e.receiver AS subject, e.coldkey AS counterpart FROM e
  WHERE e.receiver IS NOT NULL
)
SELECT
  subject AS coldkey,
  role,
  counterpart AS counterpart_coldkey,
  block,
  event_index,
  extrinsic_index,
  block_time,
  day,
  kind,
  hotkey,
  netuid,
  (detail->>'destination_hotkey') AS destination_hotkey,
  (detail->>'destination_netuid')::INTEGER AS destination_netuid,
  tao_rao,
  alpha_rao,
  (detail->>'fee_rao')::HUGEINT AS fee_rao
FROM sides;

-- ---------------------------------------------------------------------------------------------------
-- Comments: tables
-- ---------------------------------------------------------------------------------------------------

COMMENT ON TABLE burns IS 'Every burn-related event, once, keyed by (block, event_index). kind burn: an AlphaBurned from burn_alpha; buyback: one add_stake_burn extrinsic (StakeAdded + AlphaBurned + AddStakeBurn, counted once); recycle: an AlphaRecycled from recycle_alpha, kept for analysts but never a burn in a published total. Amounts in RAO (10^9 per TAO or alpha).';
COMMENT ON COLUMN burns.block IS 'Block number of the event.';
COMMENT ON COLUMN burns.event_index IS 'Position of the event in the block''s System.Events (for a buyback: the AlphaBurned''s index).';
COMMENT ON COLUMN burns.extrinsic_index IS 'Index of the extrinsic that emitted the event (ApplyExtrinsic phase); NULL for events outside an extrinsic.';
COMMENT ON COLUMN burns.block_time IS 'The block''s Timestamp.Now.';
COMMENT ON COLUMN burns.day IS 'UTC day of block_time.';
COMMENT ON COLUMN burns.netuid IS 'Subnet number (reused after deregistration: identify a subnet by netuid and registered_at).';
COMMENT ON COLUMN burns.registered_at IS 'NetworkRegisteredAt of the subnet at this block: with netuid, identifies the subnet registration.';
COMMENT ON COLUMN burns.kind IS 'burn, buyback or recycle (see the table comment). Published totals count burn and buyback only.';
COMMENT ON COLUMN burns.coldkey IS 'Coldkey that burned (for a buyback: the StakeAdded''s coldkey).';
COMMENT ON COLUMN burns.hotkey IS 'Hotkey whose stake was burned.';
COMMENT ON COLUMN burns.alpha_rao IS 'Alpha burned (or recycled), in RAO.';
COMMENT ON COLUMN burns.tao_rao IS 'Buyback only: TAO spent, in RAO. NULL for burn and recycle.';

COMMENT ON TABLE panel_prices IS 'One pool observation per subnet and UTC day at the day''s panel block (its last block; the finalized head for today). Alpha valued in TAO RAO is alpha_rao * subnet_tao_rao // subnet_alpha_in_rao (integer division last). Root (netuid 0) has equal reserves: price exactly 1.';
COMMENT ON COLUMN panel_prices.day IS 'UTC day.';
COMMENT ON COLUMN panel_prices.netuid IS 'Subnet number.';
COMMENT ON COLUMN panel_prices.registered_at IS 'Registration block of the subnet holding this netuid at the panel block.';
COMMENT ON COLUMN panel_prices.panel_block IS 'Block the reserves were read at: the day''s last block, or the finalized head for today.';
COMMENT ON COLUMN panel_prices.subnet_tao_rao IS 'SubnetTAO reserve at the panel block, in RAO; NULL when the subnet has no pool.';
COMMENT ON COLUMN panel_prices.subnet_alpha_in_rao IS 'SubnetAlphaIn reserve at the panel block, in RAO; NULL when the subnet has no pool.';
COMMENT ON COLUMN panel_prices.partial IS 'True when the day is today and not over yet (the panel is at the finalized head).';

COMMENT ON TABLE subnet_days IS 'The registered subnets at each day''s panel block, with their names and symbols then.';
COMMENT ON COLUMN subnet_days.day IS 'UTC day.';
COMMENT ON COLUMN subnet_days.netuid IS 'Subnet number.';
COMMENT ON COLUMN subnet_days.registered_at IS 'Registration block of the subnet holding this netuid at the panel block.';
COMMENT ON COLUMN subnet_days.name IS 'Subnet name (SubnetIdentitiesV3) at the panel block; "Subnet N" when it has none, "root" for netuid 0.';
COMMENT ON COLUMN subnet_days.symbol IS 'Token symbol at the panel block; empty when none.';

COMMENT ON TABLE collected_days IS 'What has been collected, one row per UTC day. complete: every block of the day was read; partial: the day is today, read only to the finalized head (the next run collects it again).';
COMMENT ON COLUMN collected_days.day IS 'UTC day.';
COMMENT ON COLUMN collected_days.first_block IS 'First block of the day.';
COMMENT ON COLUMN collected_days.last_block IS 'Last block read: the day''s last block, or the finalized head for a partial day.';
COMMENT ON COLUMN collected_days.last_block_time IS 'Timestamp of last_block.';
COMMENT ON COLUMN collected_days.complete IS 'Every block of the day was read.';
COMMENT ON COLUMN collected_days.partial IS 'The day is today and was read only up to the finalized head.';
COMMENT ON COLUMN collected_days.run_id IS 'The collection_runs.run_id that wrote the day.';
COMMENT ON COLUMN collected_days.last_block_hash IS 'Hash of the day''s last block; the next collection checks the node still has it (NULL for days collected before it was kept).';
COMMENT ON TABLE chain_identity IS 'The chain this warehouse was collected from: its genesis hash, recorded by the first collection. A collection from a node of another chain stops before writing anything.';
COMMENT ON COLUMN chain_identity.genesis_hash IS 'Hash of block 0 of the chain collected.';
COMMENT ON COLUMN chain_identity.recorded_at IS 'When the first collection recorded it.';

COMMENT ON TABLE collection_runs IS 'One row per collection (sbm collect, or the collection step of sbm daily). burns_checked_at (published freshness) is completed_at of the latest complete run. A run names its process; the next run marks a running row whose process is gone interrupted, and refuses to start while it is alive.';
COMMENT ON COLUMN collection_runs.run_id IS 'Run identifier: start time and a random suffix.';
COMMENT ON COLUMN collection_runs.started_at IS 'When the run started.';
COMMENT ON COLUMN collection_runs.completed_at IS 'When the run finished (complete or failed); NULL while running.';
COMMENT ON COLUMN collection_runs.from_block IS 'First block the run collected; NULL if it collected none.';
COMMENT ON COLUMN collection_runs.to_block IS 'Last block the run collected; NULL if it collected none.';
COMMENT ON COLUMN collection_runs.status IS 'running, complete, failed, or interrupted (its process died; noticed by the next run).';
COMMENT ON COLUMN collection_runs.error IS 'Why the run failed, or why an interrupted run''s process counts as gone; NULL otherwise.';
COMMENT ON COLUMN collection_runs.kind IS 'The command that ran the collection: collect or daily; NULL in rows from before it was recorded.';
COMMENT ON COLUMN collection_runs.pid IS 'Process id of the run; NULL in rows from before it was recorded.';
COMMENT ON COLUMN collection_runs.host IS 'Host name of the machine the run''s process ran on.';
COMMENT ON COLUMN collection_runs.process_start_ticks IS 'Start time of the run''s process in clock ticks after boot (/proc/<pid>/stat field 22), to tell a reused pid; NULL where /proc is unavailable.';
COMMENT ON COLUMN collection_runs.interrupted_noticed_at IS 'When a later run found this run''s process gone and marked it interrupted.';

COMMENT ON TABLE staking_events IS 'Staking activity read from the same blocks as the burns, for the tax check and the tax pack: StakeAdded, StakeRemoved, StakeMoved, StakeTransferred, StakeSwapped and balance Transfer events. The view staking_events_by_coldkey unpacks detail.';
COMMENT ON COLUMN staking_events.block IS 'Block number of the event.';
COMMENT ON COLUMN staking_events.event_index IS 'Position of the event in the block''s System.Events.';
COMMENT ON COLUMN staking_events.extrinsic_index IS 'Index of the extrinsic that emitted the event; NULL for events outside an extrinsic.';
COMMENT ON COLUMN staking_events.block_time IS 'The block''s Timestamp.Now.';
COMMENT ON COLUMN staking_events.day IS 'UTC day of block_time.';
COMMENT ON COLUMN staking_events.kind IS 'Event name: StakeAdded, StakeRemoved, StakeMoved, StakeTransferred, StakeSwapped or Transfer.';
COMMENT ON COLUMN staking_events.coldkey IS 'The acting coldkey: the staker; the origin coldkey of a StakeTransferred; the sender of a Transfer.';
COMMENT ON COLUMN staking_events.hotkey IS 'Hotkey staked to (the origin hotkey of a StakeMoved); NULL for Transfer.';
COMMENT ON COLUMN staking_events.netuid IS 'Subnet (the origin subnet of a move, transfer or swap); NULL for Transfer.';
COMMENT ON COLUMN staking_events.tao_rao IS 'TAO amount of the event, in RAO (staked, unstaked, moved or transferred).';
COMMENT ON COLUMN staking_events.alpha_rao IS 'Alpha amount, in RAO: StakeAdded and StakeRemoved only.';
COMMENT ON COLUMN staking_events.detail IS 'JSON of the fields that do not fit the columns: fee_rao (StakeAdded/StakeRemoved, a decimal string), destination_hotkey and destination_netuid (StakeMoved), destination_coldkey and destination_netuid (StakeTransferred), destination_netuid (StakeSwapped), to (Transfer recipient).';

COMMENT ON TABLE share_pools IS 'Every hotkey''s share pool on every subnet at a collected day''s last block (sbm yields; sbm daily runs it after collecting). Stakers hold shares of a pool: one share is worth total_alpha_rao / (total_shares_mantissa × 10^total_shares_exponent) RAO, and a staker who does nothing earns the growth of that price, the basis of the published staking yields (tax/yields.json). Root (netuid 0) pools hold TAO.';
COMMENT ON COLUMN share_pools.day IS 'UTC day.';
COMMENT ON COLUMN share_pools.block IS 'Block the pools were read at: the day''s last collected block (collected_days.last_block; the finalized head for today).';
COMMENT ON COLUMN share_pools.netuid IS 'Subnet number.';
COMMENT ON COLUMN share_pools.registered_at IS 'NetworkRegisteredAt of the subnet holding this netuid at the block: with netuid, identifies the subnet registration.';
COMMENT ON COLUMN share_pools.hotkey IS 'The hotkey (SS58) whose pool this is.';
COMMENT ON COLUMN share_pools.total_alpha_rao IS 'TotalHotkeyAlpha: the alpha the pool holds, in RAO (TAO on root).';
COMMENT ON COLUMN share_pools.total_shares_bits IS 'TotalHotkeyShares (V1) as the raw bits of its U64F64 fixed-point value (2^64 = one share), exact: UHUGEINT, since the bits can exceed HUGEINT''s 2^127. NULL where the chain held the pool in TotalHotkeySharesV2 (every pool from spec 473).';
COMMENT ON COLUMN share_pools.total_shares_mantissa IS 'The pool''s shares as the chain reads its denominator (get_denominator), a SafeFloat: shares = total_shares_mantissa × 10^total_shares_exponent. V1 rows converted as SafeFloat::from(U64F64). NULL only in rows written before this column existed (then total_shares_bits holds them).';
COMMENT ON COLUMN share_pools.total_shares_exponent IS 'The exponent (i64) of the shares SafeFloat: shares = total_shares_mantissa × 10^total_shares_exponent.';

COMMENT ON TABLE share_pool_days IS 'Which days'' share pools were read, and at which block. A day read before its last block (today) is read again by the next sbm yields.';
COMMENT ON COLUMN share_pool_days.day IS 'UTC day.';
COMMENT ON COLUMN share_pool_days.block IS 'Block the day''s pools were read at.';
COMMENT ON COLUMN share_pool_days.pools IS 'Number of share_pools rows written for the day (0 on a runtime without share pools).';
COMMENT ON COLUMN share_pool_days.read_at IS 'When the pools were read.';

COMMENT ON TABLE fx_daily IS 'TAO''s fiat price per UTC day, from a CoinGecko-compatible API or an imported CSV.';
COMMENT ON COLUMN fx_daily.day IS 'UTC day.';
COMMENT ON COLUMN fx_daily.currency IS 'usd or gbp.';
COMMENT ON COLUMN fx_daily.tao_price IS 'Price of one TAO in the currency.';
COMMENT ON COLUMN fx_daily.source IS 'Where the price came from (the API, or the imported file).';
COMMENT ON TABLE token_fx_daily IS 'Fiat price per UTC day of the other tokens exchange records trade TAO against (USDT, USDC, BTC, ETH), from the same API as TAO''s.';
COMMENT ON COLUMN token_fx_daily.day IS 'UTC day.';
COMMENT ON COLUMN token_fx_daily.asset IS 'The token''s code: USDT, USDC, BTC or ETH.';
COMMENT ON COLUMN token_fx_daily.currency IS 'usd or gbp.';
COMMENT ON COLUMN token_fx_daily.price IS 'Price of one token in the currency.';
COMMENT ON COLUMN token_fx_daily.source IS 'Where the price came from (the API).';

COMMENT ON TABLE claims IS 'Dated, published buyback claims from the curated CSV (data/claims.csv). A claim is what a subnet said, not verified revenue.';
COMMENT ON COLUMN claims.netuid IS 'Subnet number the claim is about.';
COMMENT ON COLUMN claims.text IS 'The claim, as published.';
COMMENT ON COLUMN claims.name_at_source IS 'The subnet''s name as the source gave it, when it differs from the chain''s.';
COMMENT ON COLUMN claims.source IS 'URL of the publication.';
COMMENT ON COLUMN claims.published IS 'Day the claim was published.';
COMMENT ON COLUMN claims.reviewed IS 'Day we last reviewed the claim; NULL if never.';

-- ---------------------------------------------------------------------------------------------------
-- Comments: views
-- ---------------------------------------------------------------------------------------------------

COMMENT ON VIEW burns_daily IS 'Burns per subnet registration and UTC day (kinds burn and buyback; recycles excluded), valued at that day''s panel price of the same registration with one integer division per day.';
COMMENT ON COLUMN burns_daily.day IS 'UTC day.';
COMMENT ON COLUMN burns_daily.netuid IS 'Subnet number.';
COMMENT ON COLUMN burns_daily.registered_at IS 'Registration block: with netuid, identifies the subnet.';
COMMENT ON COLUMN burns_daily.alpha_rao IS 'All alpha burned that day, in RAO.';
COMMENT ON COLUMN burns_daily.tao_rao IS 'The priced burns'' alpha valued at the day''s panel price, in TAO RAO: sum(alpha) * subnet_tao // subnet_alpha_in; NULL when no burn of the day is priced.';
COMMENT ON COLUMN burns_daily.burns IS 'Number of burns (a buyback counts once).';
COMMENT ON COLUMN burns_daily.unpriced_burns IS 'Burns without a panel price: no pool, no panel row, or the netuid was re-registered later that day so the panel belongs to another subnet.';

COMMENT ON VIEW subnet_burns IS 'One row per subnet registration that has burned (kinds burn and buyback), with its latest name.';
COMMENT ON COLUMN subnet_burns.netuid IS 'Subnet number.';
COMMENT ON COLUMN subnet_burns.registered_at IS 'Registration block: with netuid, identifies the subnet.';
COMMENT ON COLUMN subnet_burns.name IS 'The registration''s name on the latest panel that listed it; NULL if never listed.';
COMMENT ON COLUMN subnet_burns.burns IS 'Number of burns.';
COMMENT ON COLUMN subnet_burns.alpha_rao IS 'All alpha burned, in RAO.';
COMMENT ON COLUMN subnet_burns.first_burn IS 'Time of the first burn.';
COMMENT ON COLUMN subnet_burns.last_burn IS 'Time of the latest burn.';

COMMENT ON VIEW subnet_registry IS 'Every subnet registration seen (on a panel or in a burn) with its registration window: registered at block registered_at, deregistered after last_panel_block and no later than deregistered_by_block. A netuid is reused, so one netuid can have several rows.';
COMMENT ON COLUMN subnet_registry.netuid IS 'Subnet number.';
COMMENT ON COLUMN subnet_registry.registered_at IS 'Block the subnet was registered at (NetworkRegisteredAt); the start of the window.';
COMMENT ON COLUMN subnet_registry.registered_day IS 'UTC day of registered_at; NULL when that block is outside the collected days.';
COMMENT ON COLUMN subnet_registry.name IS 'Name on the latest panel that listed the registration; NULL if no panel listed it.';
COMMENT ON COLUMN subnet_registry.symbol IS 'Token symbol on the latest panel that listed the registration.';
COMMENT ON COLUMN subnet_registry.names IS 'Every name the registration had on the panels, in order of first appearance (renames).';
COMMENT ON COLUMN subnet_registry.first_panel_day IS 'First day whose panel listed the registration.';
COMMENT ON COLUMN subnet_registry.last_panel_day IS 'Last day whose panel listed the registration.';
COMMENT ON COLUMN subnet_registry.last_panel_block IS 'Panel block of last_panel_day: the registration still existed at this block.';
COMMENT ON COLUMN subnet_registry.next_registered_at IS 'Registration block of the next subnet on the same netuid; NULL if the number has not been reused.';
COMMENT ON COLUMN subnet_registry.deregistered_by_block IS 'The registration had ended by this block: the earlier of next_registered_at and the first later panel block that no longer listed it. NULL while it is registered.';
COMMENT ON COLUMN subnet_registry.registered_now IS 'Listed on the latest panel and not replaced since.';

COMMENT ON VIEW subnet_burns_daily IS 'Burns per subnet registration and UTC day with the subnet''s name, the day''s panel price and the buybacks among the burns. Only (day, subnet) pairs with a burn have a row.';
COMMENT ON COLUMN subnet_burns_daily.day IS 'UTC day.';
COMMENT ON COLUMN subnet_burns_daily.netuid IS 'Subnet number.';
COMMENT ON COLUMN subnet_burns_daily.registered_at IS 'Registration block: with netuid, identifies the subnet.';
COMMENT ON COLUMN subnet_burns_daily.name IS 'Subnet name on that day''s panel, else the registration''s latest name.';
COMMENT ON COLUMN subnet_burns_daily.symbol IS 'Token symbol on that day''s panel, else the registration''s latest symbol.';
COMMENT ON COLUMN subnet_burns_daily.burns IS 'Number of burns (kinds burn and buyback; recycles excluded).';
COMMENT ON COLUMN subnet_burns_daily.buybacks IS 'How many of the burns were buybacks.';
COMMENT ON COLUMN subnet_burns_daily.alpha_rao IS 'All alpha burned that day, in RAO.';
COMMENT ON COLUMN subnet_burns_daily.tao_rao IS 'alpha_rao valued at the day''s panel price, in TAO RAO (one integer division); NULL when unpriced.';
COMMENT ON COLUMN subnet_burns_daily.buyback_tao_rao IS 'TAO actually spent on that day''s buybacks, in RAO; NULL when there were none.';
COMMENT ON COLUMN subnet_burns_daily.subnet_tao_rao IS 'SubnetTAO reserve at the day''s panel block, in RAO.';
COMMENT ON COLUMN subnet_burns_daily.subnet_alpha_in_rao IS 'SubnetAlphaIn reserve at the day''s panel block, in RAO.';
COMMENT ON COLUMN subnet_burns_daily.price_tao IS 'Panel price, TAO per alpha: subnet_tao_rao / subnet_alpha_in_rao rounded down to 18 decimals; NULL without a pool.';
COMMENT ON COLUMN subnet_burns_daily.priced IS 'True when the day''s burns have a panel price (tao_rao is their value).';
COMMENT ON COLUMN subnet_burns_daily.unpriced_burns IS 'Burns without a panel price (see burns_daily.unpriced_burns).';
COMMENT ON COLUMN subnet_burns_daily.alpha IS 'alpha_rao in whole alpha (exact, 9 decimals).';
COMMENT ON COLUMN subnet_burns_daily.tao IS 'tao_rao in whole TAO (exact, 9 decimals).';

COMMENT ON VIEW buybacks IS 'Each buyback (one add_stake_burn extrinsic): the TAO it spent, the alpha it burned, the price it paid and the subnet''s panel price that day.';
COMMENT ON COLUMN buybacks.block IS 'Block number.';
COMMENT ON COLUMN buybacks.event_index IS 'Index of the buyback''s AlphaBurned event in the block.';
COMMENT ON COLUMN buybacks.extrinsic_index IS 'Index of the add_stake_burn extrinsic in the block.';
COMMENT ON COLUMN buybacks.block_time IS 'The block''s Timestamp.Now.';
COMMENT ON COLUMN buybacks.day IS 'UTC day of block_time.';
COMMENT ON COLUMN buybacks.netuid IS 'Subnet number.';
COMMENT ON COLUMN buybacks.registered_at IS 'Registration block: with netuid, identifies the subnet.';
COMMENT ON COLUMN buybacks.name IS 'Subnet name on that day''s panel, else the registration''s latest name.';
COMMENT ON COLUMN buybacks.coldkey IS 'Coldkey that bought back (the StakeAdded''s coldkey).';
COMMENT ON COLUMN buybacks.hotkey IS 'Hotkey the bought alpha was staked to and burned from.';
COMMENT ON COLUMN buybacks.tao_rao IS 'TAO spent, in RAO.';
COMMENT ON COLUMN buybacks.alpha_rao IS 'Alpha burned, in RAO.';
COMMENT ON COLUMN buybacks.tao IS 'tao_rao in whole TAO (exact, 9 decimals).';
COMMENT ON COLUMN buybacks.alpha IS 'alpha_rao in whole alpha (exact, 9 decimals).';
COMMENT ON COLUMN buybacks.price_paid_tao IS 'TAO paid per alpha burned: tao_rao / alpha_rao rounded down to 18 decimals.';
COMMENT ON COLUMN buybacks.panel_price_tao IS 'The subnet''s panel price that day, TAO per alpha, rounded down to 18 decimals; NULL without a pool.';

COMMENT ON VIEW staking_events_by_coldkey IS 'Staking events from each coldkey''s side: every event once for the coldkey that made it (role origin) and once more for the coldkey that received something (role destination: a Transfer recipient, a StakeTransferred destination). detail unpacked into columns.';
COMMENT ON COLUMN staking_events_by_coldkey.coldkey IS 'The coldkey this row is about.';
COMMENT ON COLUMN staking_events_by_coldkey.role IS 'origin: the coldkey made the event (staker, sender); destination: the coldkey received the TAO or the stake.';
COMMENT ON COLUMN staking_events_by_coldkey.counterpart_coldkey IS 'The other coldkey of a Transfer or StakeTransferred (recipient for origin rows, sender for destination rows); NULL otherwise.';
COMMENT ON COLUMN staking_events_by_coldkey.block IS 'Block number.';
COMMENT ON COLUMN staking_events_by_coldkey.event_index IS 'Position of the event in the block''s System.Events.';
COMMENT ON COLUMN staking_events_by_coldkey.extrinsic_index IS 'Index of the extrinsic that emitted the event; NULL outside an extrinsic.';
COMMENT ON COLUMN staking_events_by_coldkey.block_time IS 'The block''s Timestamp.Now.';
COMMENT ON COLUMN staking_events_by_coldkey.day IS 'UTC day of block_time.';
COMMENT ON COLUMN staking_events_by_coldkey.kind IS 'StakeAdded, StakeRemoved, StakeMoved, StakeTransferred, StakeSwapped or Transfer.';
COMMENT ON COLUMN staking_events_by_coldkey.hotkey IS 'Hotkey staked to (the origin hotkey of a StakeMoved); NULL for Transfer.';
COMMENT ON COLUMN staking_events_by_coldkey.netuid IS 'Subnet (the origin subnet of a move, transfer or swap); NULL for Transfer.';
COMMENT ON COLUMN staking_events_by_coldkey.destination_hotkey IS 'StakeMoved: the hotkey the stake moved to.';
COMMENT ON COLUMN staking_events_by_coldkey.destination_netuid IS 'StakeMoved, StakeTransferred, StakeSwapped: the subnet the stake went to.';
COMMENT ON COLUMN staking_events_by_coldkey.tao_rao IS 'TAO amount of the event, in RAO.';
COMMENT ON COLUMN staking_events_by_coldkey.alpha_rao IS 'Alpha amount, in RAO: StakeAdded and StakeRemoved only.';
COMMENT ON COLUMN staking_events_by_coldkey.fee_rao IS 'StakeAdded and StakeRemoved: the fee, in RAO.';
