-- The emissions watch's own DuckDB file (data/emissions.duckdb by default), separate from the burn
-- warehouse because DuckDB allows one writing process per file and the watch runs beside the daily job.
-- Written only by `sbm emissions sample|watch`, which holds the file only while it records one sample, and by
-- `sbm emissions restore`, which rebuilds it from the samples' copies in the object store.
--
-- Conventions
--   * Amounts are RAO per block (1 TAO = 1 alpha = 10^9 RAO) as HUGEINT, never floats.
--   * Times are milliseconds since the epoch (UTC) of the block's `Timestamp.Now`, as BIGINT.
--   * A subnet is (netuid, registered_at): a netuid reused after deregistration is another subnet.
--   * Every statement is idempotent: the watch applies this file each time it opens the database.

-- One row per sample taken: the finalized block read, never the same block twice.
CREATE TABLE IF NOT EXISTS emission_sweeps (
  block BIGINT PRIMARY KEY,
  block_hash VARCHAR NOT NULL,
  block_time_ms BIGINT NOT NULL,       -- Timestamp.Now of the block
  checked_at_ms BIGINT NOT NULL,       -- wall-clock time the sample was taken
  spec_version INTEGER NOT NULL,
  subnets INTEGER NOT NULL
);

-- Every registered subnet's emission storage at each sampled block.
CREATE TABLE IF NOT EXISTS emission_samples (
  block BIGINT NOT NULL,
  block_time_ms BIGINT NOT NULL,
  netuid INTEGER NOT NULL,
  registered_at BIGINT NOT NULL,
  name VARCHAR NOT NULL,
  emission_enabled BOOLEAN,            -- SubnetEmissionEnabled; NULL where the runtime lacks it
  tao_in_rao HUGEINT NOT NULL,         -- SubnetTaoInEmission of the block
  alpha_in_rao HUGEINT NOT NULL,       -- SubnetAlphaInEmission
  alpha_out_rao HUGEINT NOT NULL,      -- SubnetAlphaOutEmission
  status VARCHAR NOT NULL CHECK (status IN ('flowing', 'suspended')),
  PRIMARY KEY (block, netuid)
);

-- Per subnet, what the verification rule needs to carry from one sample to the next.
CREATE TABLE IF NOT EXISTS emission_tracks (
  netuid INTEGER NOT NULL,
  registered_at BIGINT NOT NULL,
  established VARCHAR,                 -- last verified status; NULL until two consecutive samples agree
  last_block BIGINT NOT NULL,
  last_time_ms BIGINT NOT NULL,
  last_status VARCHAR NOT NULL,
  prev_block BIGINT,                   -- the sample before last_block
  PRIMARY KEY (netuid, registered_at)
);

-- Verified transitions: the status changed somewhere in (from_block, to_block]; the sample at to_block
-- detected it and the next sample of the same subnet, at verified_block, agreed.
CREATE TABLE IF NOT EXISTS emission_events (
  netuid INTEGER NOT NULL,
  registered_at BIGINT NOT NULL,
  kind VARCHAR NOT NULL CHECK (kind IN ('suspended', 'restored')),
  from_block BIGINT NOT NULL,
  to_block BIGINT NOT NULL,
  detected_at_ms BIGINT NOT NULL,
  verified_block BIGINT NOT NULL,
  verified_at_ms BIGINT NOT NULL,
  PRIMARY KEY (netuid, registered_at, to_block)
);

-- The samples whose copy is in the object store (`emissions-samples/<block>.json.gz`): a sample not listed here
-- is copied by the next attempt, oldest first.
CREATE TABLE IF NOT EXISTS emission_copies (
  block BIGINT PRIMARY KEY,
  copied_at_ms BIGINT NOT NULL
);
