/** The sandbox chain: a local subtensor node serving the real runtime metadata (see "The sandbox chain" in the top-level README). */
export {
  DEFAULT_RUNTIME_HISTORY,
  type DevnetOptions,
  defaultDevnetOptions,
  type RuntimeHistory,
  resolveWorldParams,
  type WorldParams,
} from './options.js';
export type { Faults } from './rpc/faults.js';
export { type RunningDevnet, startDevnet } from './start.js';
export { buildTruth, truthOf } from './truth/truth.js';
export type {
  Truth,
  TruthAlphaV2Migration,
  TruthBurn,
  TruthColdkey,
  TruthDay,
  TruthEmissionChange,
  TruthPanelPrice,
  TruthSharePool,
  TruthStakingDetail,
  TruthStakingEvent,
  TruthSubnet,
  TruthSweptPosition,
} from './truth/truth-types.js';
export { World } from './world/world.js';
