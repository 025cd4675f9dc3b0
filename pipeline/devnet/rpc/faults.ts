import { Rng } from '../world/random.js';

/** Faults on demand, changeable while the server runs. */
export interface Faults {
  latencyMs: number;
  failRate: number;
  dropEvery: number;
}

/**
 * Handshake methods are never failed: a client must be able to connect, and then has to survive the
 * failures of the data requests it makes.
 */
const HANDSHAKE = new Set([
  'rpc_methods',
  'system_chain',
  'system_name',
  'system_version',
  'system_chainType',
  'system_properties',
  'system_health',
  'state_subscribeRuntimeVersion',
]);

export class FaultInjector {
  faults: Faults;
  readonly #random: Rng;

  constructor(seed: string, faults: Faults) {
    this.faults = { ...faults };
    this.#random = new Rng(`${seed}/faults`);
  }

  set(faults: Partial<Faults>): void {
    this.faults = { ...this.faults, ...faults };
  }

  /** Whether this request is answered with an injected error. */
  shouldFail(method: string, params: unknown[]): boolean {
    if (this.faults.failRate <= 0) return false;
    if (HANDSHAKE.has(method) || method.includes('unsubscribe')) return false;
    // Connect-time reads without a block: genesis hash, current version, current metadata.
    if (method === 'chain_getBlockHash' && (params[0] === 0 || params[0] === '0x0')) return false;
    if (method === 'state_getRuntimeVersion' && params[0] == null) return false;
    if (method === 'state_call' && String(params[0]).startsWith('Metadata_') && params[2] == null)
      return false;
    return this.#random.float() < this.faults.failRate;
  }
}
