import { u8aToHex } from '@polkadot/util';
import { blake2AsU8a } from '@polkadot/util-crypto';
import type { WorldParams } from '../options.js';
import { uintLeHex } from './scale.js';

/**
 * Block hashes are deterministic: 28 bytes of blake2(chain, number) followed by the number (u32 big
 * endian), so a hash maps back to its number without an index, and is checked by recomputing it. `chain`
 * names the world (`forWorld`): its seed and everything that places its blocks, so a sandbox started on
 * another day (another genesis time), with another block time or other runtimes is another chain with other
 * hashes, the genesis hash included, as two real networks are.
 */
export class BlockHashes {
  readonly #seed: string;
  readonly #cache = new Map<number, string>();

  constructor(seed: string) {
    this.#seed = seed;
  }

  static forWorld(params: WorldParams): BlockHashes {
    const {
      seed,
      genesisMs,
      blockTimeMs,
      upgradeBlock,
      spec425Block,
      spec473Block,
      magnitudes,
      eventsPerBlock,
    } = params;
    const parts = [seed, genesisMs, blockTimeMs, upgradeBlock, spec425Block, spec473Block, magnitudes];
    // A world with mainnet's traffic has other blocks; a world without keeps the hashes it always had.
    if (eventsPerBlock !== null) parts.push(`traffic-${eventsPerBlock}`);
    return new BlockHashes(parts.join('/'));
  }

  hashOf(block: number): string {
    let hash = this.#cache.get(block);
    if (!hash) {
      const bytes = blake2AsU8a(`${this.#seed}/block/${block}`, 256);
      new DataView(bytes.buffer, bytes.byteOffset).setUint32(28, block, false);
      hash = u8aToHex(bytes);
      if (this.#cache.size > 100_000) this.#cache.clear();
      this.#cache.set(block, hash);
    }
    return hash;
  }

  /** The block number of a hash this chain produced, or null for any other hash. */
  numberOf(hash: string): number | null {
    if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) return null;
    const block = Number.parseInt(hash.slice(58), 16);
    return this.hashOf(block) === hash.toLowerCase() ? block : null;
  }

  /** Header JSON as `chain_getHeader` answers it, with an Aura pre-runtime digest of the slot. */
  header(block: number, timestampMs: number, blockTimeMs: number) {
    const slot = BigInt(Math.floor(timestampMs / blockTimeMs));
    const aura = `0x0661757261${'20'}${uintLeHex(slot, 8).slice(2)}`;
    return {
      parentHash: block === 0 ? `0x${'00'.repeat(32)}` : this.hashOf(block - 1),
      number: `0x${block.toString(16)}`,
      stateRoot: u8aToHex(blake2AsU8a(`${this.#seed}/state/${block}`, 256)),
      extrinsicsRoot: u8aToHex(blake2AsU8a(`${this.#seed}/extrinsics/${block}`, 256)),
      digest: { logs: block === 0 ? [] : [aura] },
    };
  }
}
