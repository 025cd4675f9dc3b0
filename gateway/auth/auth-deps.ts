import type { GatewayState } from '../state/gateway-state.js';
import type { AllowanceMeter } from './allowance.js';
import type { KeyUseTally } from './key-use-tally.js';

/** What the auth functions need: the state and a clock. Tests pass a fixed clock to move time. */
export interface AuthDeps {
  state: GatewayState;
  now: () => Date;
  /** The per-key use this gateway has counted but not yet written; written before usage is read. */
  keyUse?: Pick<KeyUseTally, 'flush'>;
  /** This gateway's allowance meter: what the holder is shown as used includes its open lease's spent part. */
  allowance?: Pick<AllowanceMeter, 'used'>;
}
