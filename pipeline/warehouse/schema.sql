-- The burn warehouse: one DuckDB file (data/burns.duckdb by default).
-- Written only by `sbm collect`, `sbm yields`, `sbm prices` and `sbm claims`; analysts open it read-only
-- between runs (`duckdb -readonly data/burns.duckdb`, Python `duckdb.connect(path, read_only=True)`, or
-- `sbm sql`).
--
-- Conventions
--   * Amounts are RAO (1 TAO = 1 alpha = 10^9 RAO) as HUGEINT: exact integers, never floats.
--   * A subnet is identified by (netuid, registered_at): netuid numbers are reused after a subnet is
--     deregistered, so every per-subnet row carries the block at which its subnet was registered.
--   * `day` is the UTC day of the block's `Timestamp.Now`.
--   * Every statement here is idempotent: the pipeline applies this file each time it opens the warehouse.

-- Every burn-related event, once, keyed by where it happened on chain.
--   kind = 'burn'     an AlphaBurned event from `burn_alpha` (alone in its extrinsic)
--   kind = 'buyback'  the StakeAdded + AlphaBurned + AddStakeBurn triple of one `add_stake_burn`
--                     extrinsic, counted once: event_index is the AlphaBurned's index, alpha_rao the alpha
--                     burned, tao_rao the TAO spent, coldkey from the StakeAdded
--   kind = 'recycle'  an AlphaRecycled event from `recycle_alpha`: kept for analysts, never a burn in a
--                     published total
CREATE TABLE IF NOT EXISTS burns (
  block BIGINT NOT NULL,
  event_index INTEGER NOT NULL,        -- position of the event in the block's System.Events
  extrinsic_index INTEGER,             -- ApplyExtrinsic(n) phase; NULL for events outside an extrinsic
  block_time TIMESTAMPTZ NOT NULL,
  day DATE NOT NULL,
  netuid INTEGER NOT NULL,
  registered_at BIGINT NOT NULL,       -- NetworkRegisteredAt of the subnet at that block
  kind VARCHAR NOT NULL CHECK (kind IN ('burn', 'buyback', 'recycle')),
  coldkey VARCHAR,
  hotkey VARCHAR NOT NULL,
  alpha_rao HUGEINT NOT NULL,
  tao_rao HUGEINT,                     -- buyback only: TAO spent
  PRIMARY KEY (block, event_index)
);

-- One pool observation per subnet and day, at the day's panel block (its last block; the finalized head
-- for today). Reserves are stored, not a float price: alpha valued in TAO RAO is
--   alpha_rao * subnet_tao_rao // subnet_alpha_in_rao      (integer division last)
-- Both reserves are NULL when the subnet has no pool (then its burns that day are unpriced).
-- Root (netuid 0) is stored with equal reserves so that its price is exactly 1.
CREATE TABLE IF NOT EXISTS panel_prices (
  day DATE NOT NULL,
  netuid INTEGER NOT NULL,
  registered_at BIGINT NOT NULL,
  panel_block BIGINT NOT NULL,
  subnet_tao_rao HUGEINT,
  subnet_alpha_in_rao HUGEINT,
  partial BOOLEAN NOT NULL,            -- the day is today and not over yet
  PRIMARY KEY (day, netuid)
);

-- The registered subnets as of each day's panel block, with their names and symbols then.
CREATE TABLE IF NOT EXISTS subnet_days (
  day DATE NOT NULL,
  netuid INTEGER NOT NULL,
  registered_at BIGINT NOT NULL,
  name VARCHAR NOT NULL,
  symbol VARCHAR NOT NULL,
  PRIMARY KEY (day, netuid)
);

-- What has been collected. complete: every block of the day was read. partial: the day is today and was
-- read only up to the finalized head; the next run collects it again.
CREATE TABLE IF NOT EXISTS collected_days (
  day DATE PRIMARY KEY,
  first_block BIGINT NOT NULL,
  last_block BIGINT NOT NULL,
  last_block_time TIMESTAMPTZ NOT NULL,
  complete BOOLEAN NOT NULL,
  partial BOOLEAN NOT NULL,
  run_id VARCHAR NOT NULL
);
-- The hash of the day's last block: the next collection checks it against the node (chain-identity.ts).
-- NULL in days collected before it was recorded.
ALTER TABLE collected_days ADD COLUMN IF NOT EXISTS last_block_hash VARCHAR;

-- The chain this warehouse was collected from (one row, written by the first collection): a collection from
-- a node with another genesis hash stops before writing anything.
CREATE TABLE IF NOT EXISTS chain_identity (
  genesis_hash VARCHAR NOT NULL,
  recorded_at TIMESTAMPTZ NOT NULL
);

-- One row per `sbm collect` (or the collection of `sbm daily`). burns_checked_at = completed_at of the
-- latest complete run. A run records its process; the next run marks a `running` row whose process is
-- gone `interrupted`, and refuses to start while that process is alive (one collection per warehouse).
CREATE TABLE IF NOT EXISTS collection_runs (
  run_id VARCHAR PRIMARY KEY,
  started_at TIMESTAMPTZ NOT NULL,
  completed_at TIMESTAMPTZ,
  from_block BIGINT,
  to_block BIGINT,
  status VARCHAR NOT NULL CHECK (status IN ('running', 'complete', 'failed', 'interrupted')),
  error VARCHAR,
  kind VARCHAR CHECK (kind IN ('collect', 'daily')),
  pid INTEGER,
  host VARCHAR,
  process_start_ticks BIGINT,          -- /proc/<pid>/stat starttime: tells a reused pid; NULL off Linux
  interrupted_noticed_at TIMESTAMPTZ
);
-- Files made before those columns: add them (NULL in old rows). Their status CHECK lacks 'interrupted'
-- and DuckDB cannot alter a CHECK, so the first run of this version rebuilds the table from the
-- definition above (pipeline/warehouse/collection-runs.ts).
ALTER TABLE collection_runs ADD COLUMN IF NOT EXISTS kind VARCHAR;
ALTER TABLE collection_runs ADD COLUMN IF NOT EXISTS pid INTEGER;
ALTER TABLE collection_runs ADD COLUMN IF NOT EXISTS host VARCHAR;
ALTER TABLE collection_runs ADD COLUMN IF NOT EXISTS process_start_ticks BIGINT;
ALTER TABLE collection_runs ADD COLUMN IF NOT EXISTS interrupted_noticed_at TIMESTAMPTZ;

-- Staking activity read from the same blocks, for the tax check and the tax pack.
--   StakeAdded / StakeRemoved: coldkey, hotkey, netuid, tao_rao, alpha_rao (detail: fee_rao)
--   StakeMoved:       coldkey, hotkey = origin hotkey, netuid = origin netuid, tao_rao
--                     (detail: destination_hotkey, destination_netuid)
--   StakeTransferred: coldkey = origin coldkey, hotkey, netuid = origin netuid, tao_rao
--                     (detail: destination_coldkey, destination_netuid)
--   StakeSwapped:     coldkey, hotkey, netuid = origin netuid, tao_rao (detail: destination_netuid)
--   Transfer:         balance transfers; coldkey = sender, tao_rao (detail: to)
CREATE TABLE IF NOT EXISTS staking_events (
  block BIGINT NOT NULL,
  event_index INTEGER NOT NULL,
  extrinsic_index INTEGER,
  block_time TIMESTAMPTZ NOT NULL,
  day DATE NOT NULL,
  kind VARCHAR NOT NULL,
  coldkey VARCHAR NOT NULL,
  hotkey VARCHAR,
  netuid INTEGER,
  tao_rao HUGEINT,
  alpha_rao HUGEINT,
  detail JSON,
  PRIMARY KEY (block, event_index)
);

-- Every hotkey's share pool on every subnet at a collected day's last block (`sbm yields`, and `sbm daily`
-- after its collection), for the network's chain-derived staking yield. A staker holds shares of a pool;
-- one share is worth total_alpha_rao / shares RAO, and a staker who does nothing earns the growth of that
-- price. The shares are the chain's denominator (`get_denominator`) as a SafeFloat, shares =
-- total_shares_mantissa × 10^total_shares_exponent: the V1 `TotalHotkeyShares` converted as the chain converts
-- it where the key still held one, else `TotalHotkeySharesV2` (spec 425 on; the only map from spec 473).
-- total_shares_bits keeps the raw U64F64 of a V1 row (2^64 = one share; UHUGEINT, because the bits reach
-- 2^128 and HUGEINT stops at 2^127), NULL for a V2 row. A warehouse written before the V2 columns existed has
-- only the bits: readers convert them (`pipeline/warehouse/tax-queries.ts`).
CREATE TABLE IF NOT EXISTS share_pools (
  day DATE NOT NULL,
  block BIGINT NOT NULL,               -- the day's last collected block (collected_days.last_block)
  netuid INTEGER NOT NULL,
  registered_at BIGINT NOT NULL,       -- NetworkRegisteredAt of the subnet at that block
  hotkey VARCHAR NOT NULL,
  total_alpha_rao HUGEINT NOT NULL,    -- TotalHotkeyAlpha, RAO (alpha; TAO on root)
  total_shares_bits UHUGEINT,          -- TotalHotkeyShares, U64F64 bits (V1 rows only)
  total_shares_mantissa UHUGEINT,      -- the denominator as a SafeFloat: mantissa (u128) ...
  total_shares_exponent BIGINT,        -- ... and exponent (i64)
  PRIMARY KEY (day, netuid, hotkey)
);
ALTER TABLE share_pools ADD COLUMN IF NOT EXISTS total_shares_mantissa UHUGEINT;
ALTER TABLE share_pools ADD COLUMN IF NOT EXISTS total_shares_exponent BIGINT;
ALTER TABLE share_pools ALTER COLUMN total_shares_bits DROP NOT NULL;

-- Which days' pools were read, and at which block: a day whose row names an older block than
-- collected_days.last_block (today, read again after more blocks) is read again by the next run.
CREATE TABLE IF NOT EXISTS share_pool_days (
  day DATE PRIMARY KEY,
  block BIGINT NOT NULL,
  pools INTEGER NOT NULL,
  read_at TIMESTAMPTZ NOT NULL
);

-- TAO's fiat price per UTC day (CoinGecko-compatible API or an imported CSV).
CREATE TABLE IF NOT EXISTS fx_daily (
  day DATE NOT NULL,
  currency VARCHAR NOT NULL CHECK (currency IN ('usd', 'gbp')),
  tao_price DECIMAL(20, 8) NOT NULL,
  source VARCHAR NOT NULL,
  PRIMARY KEY (day, currency)
);

-- Other tokens' fiat price per UTC day (USDT, USDC, BTC, ETH: the assets a buyer's exchange records trade TAO
-- against), from the same API as TAO's: the tax pack values exchange rows that give no pounds at them.
CREATE TABLE IF NOT EXISTS token_fx_daily (
  day DATE NOT NULL,
  asset VARCHAR NOT NULL,
  currency VARCHAR NOT NULL CHECK (currency IN ('usd', 'gbp')),
  price DECIMAL(20, 8) NOT NULL,
  source VARCHAR NOT NULL,
  PRIMARY KEY (day, asset, currency)
);

-- Dated, published buyback claims (curated CSV). A claim is not verified revenue.
CREATE TABLE IF NOT EXISTS claims (
  netuid INTEGER NOT NULL,
  text VARCHAR NOT NULL,
  name_at_source VARCHAR,
  source VARCHAR NOT NULL,
  published DATE NOT NULL,
  reviewed DATE,
  PRIMARY KEY (netuid, published, source)
);

-- The analysts' views (burns_daily, subnet_burns, subnet_burns_daily, buybacks, staking_events_by_coldkey,
-- subnet_registry) and a COMMENT ON every table, view and column live in analyst-views.sql, applied right
-- after this file. A new column here needs its comment there.
