import type { GatewayState } from '../state/gateway-state.js';

/** What the auth functions need: the state and a clock. Tests pass a fixed clock to move time. */
export interface AuthDeps {
  state: GatewayState;
  now: () => Date;
}
