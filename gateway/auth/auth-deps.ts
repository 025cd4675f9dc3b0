import type { GatewayState } from '../state/gateway-state.js';
import type { KeyUseTally } from './key-use-tally.js';

/** What the auth functions need: the state and a clock. Tests pass a fixed clock to move time. */
export interface AuthDeps {
  state: GatewayState;
  now: () => Date;
  /** The per-key use this gateway has counted but not yet written; written before usage is read. */
  keyUse?: Pick<KeyUseTally, 'flush'>;
}
