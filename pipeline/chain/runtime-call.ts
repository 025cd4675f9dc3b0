/**
 * Runtime API calls (`state_call`), typed by the runtime's own metadata: the `apis` section of V15 and
 * V16 metadata names every method with the lookup ids of its inputs and its output, so arguments are
 * SCALE-encoded and results decoded by the same registry that decodes that runtime's storage. A method
 * is called `<RuntimeApi>_<method>`, e.g. `StakeInfoRuntimeApi_get_stake_info_for_coldkey`, as a node
 * exports it.
 */
import { Metadata, TypeRegistry } from '@polkadot/types';
import type { Codec } from '@polkadot/types/types';
import { compactFromU8a, hexToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { ChainDataError } from './chain-errors.js';
import type { RpcClient } from './rpc-client.js';
import type { RuntimeCodec } from './runtime-codec.js';
import { SUBTENSOR_SIGNED_EXTENSIONS } from './subtensor-extensions.js';

interface ApiMethod {
  inputTypes: string[];
  outputType: string;
  /** The output's lookup id in the registry, for readers that walk its bytes themselves. */
  outputTypeId: number;
}

/** The metadata versions that carry runtime APIs and that @polkadot/types 16 decodes, best first. */
const API_METADATA_VERSIONS = [16, 15];

/** The runtime APIs of one runtime: argument encoding and result decoding by name. */
export class RuntimeApis {
  readonly #registry: TypeRegistry;
  readonly #methods = new Map<string, ApiMethod>();

  constructor(
    readonly specVersion: number,
    registry: TypeRegistry,
  ) {
    this.#registry = registry;
    for (const api of registry.metadata.apis) {
      for (const method of api.methods) {
        this.#methods.set(`${api.name.toString()}_${method.name.toString()}`, {
          inputTypes: method.inputs.map((input) => registry.createLookupType(input.type)),
          outputType: registry.createLookupType(method.output),
          outputTypeId: method.output.toNumber(),
        });
      }
    }
  }

  has(name: string): boolean {
    return this.#methods.has(name);
  }

  /** The call's argument bytes: each input SCALE-encoded by its type, concatenated, as hex. */
  encodeArgs(name: string, args: readonly unknown[]): string {
    const method = this.#method(name);
    if (args.length !== method.inputTypes.length) {
      throw new ChainDataError(`${name} takes ${method.inputTypes.length} arguments, got ${args.length}`);
    }
    const parts = method.inputTypes.map((type, i) =>
      this.#registry.createTypeUnsafe(type, [args[i]]).toU8a(),
    );
    return u8aToHex(u8aConcat(...parts));
  }

  /** The registry and lookup id of a method's result type (for a byte-level reader of its answer). */
  resultType(name: string): { registry: TypeRegistry; typeId: number } {
    return { registry: this.#registry, typeId: this.#method(name).outputTypeId };
  }

  decodeResult(name: string, hex: string): Codec {
    return this.#registry.createTypeUnsafe(this.#method(name).outputType, [hexToU8a(hex)]);
  }

  #method(name: string): ApiMethod {
    const method = this.#methods.get(name);
    if (!method) throw new ChainDataError(`runtime ${this.specVersion} has no runtime API ${name}`);
    return method;
  }
}

const apisOfCodec = new WeakMap<RuntimeCodec, Promise<RuntimeApis>>();

/**
 * The runtime APIs of `codec`'s runtime, made once per codec. The sandbox's `state_getMetadata` answers
 * V15/V16 metadata, whose APIs the codec already holds; a real node answers V14 there, which has none,
 * so then the newest V15+ metadata is asked for once with `Metadata_metadata_at_version` at `hash` (a
 * block whose state holds that runtime), as @polkadot/api does on connect.
 */
export function runtimeApisOf(rpc: RpcClient, codec: RuntimeCodec, hash: string): Promise<RuntimeApis> {
  let apis = apisOfCodec.get(codec);
  if (!apis) {
    apis =
      codec.registry.metadata.apis.length > 0
        ? Promise.resolve(new RuntimeApis(codec.specVersion, codec.registry))
        : fetchApiMetadata(rpc, codec.specVersion, hash);
    apis.catch(() => apisOfCodec.delete(codec));
    apisOfCodec.set(codec, apis);
  }
  return apis;
}

/** Calls a runtime API at `hash`; `argsHex` from `RuntimeApis.encodeArgs`. */
export async function callRuntimeApi(
  rpc: RpcClient,
  apis: RuntimeApis,
  name: string,
  argsHex: string,
  hash: string,
): Promise<Codec> {
  const result = await rpc.send<string>('state_call', [name, argsHex, hash]);
  return apis.decodeResult(name, result);
}

async function fetchApiMetadata(rpc: RpcClient, specVersion: number, hash: string): Promise<RuntimeApis> {
  const scratch = new TypeRegistry();
  const versionsHex = await rpc.send<string>('state_call', ['Metadata_metadata_versions', '0x', hash]);
  const offered = (scratch.createType('Vec<u32>', hexToU8a(versionsHex)).toJSON() as number[]) ?? [];
  const version = API_METADATA_VERSIONS.find((candidate) => offered.includes(candidate));
  if (version === undefined) {
    throw new ChainDataError(
      `runtime ${specVersion} offers metadata versions [${offered.join(', ')}], none with runtime APIs (15 or 16)`,
    );
  }
  const versionArg = u8aToHex(scratch.createType('u32', version).toU8a());
  const answer = hexToU8a(
    await rpc.send<string>('state_call', ['Metadata_metadata_at_version', versionArg, hash]),
  );
  // Option<OpaqueMetadata>: 0x01, a compact byte length, then the metadata itself.
  if (answer[0] !== 1) throw new ChainDataError(`runtime ${specVersion} has no metadata V${version}`);
  const [offset, length] = compactFromU8a(answer.subarray(1));
  const bytes = answer.subarray(1 + offset, 1 + offset + length.toNumber());
  const registry = new TypeRegistry();
  registry.setMetadata(new Metadata(registry, bytes), undefined, SUBTENSOR_SIGNED_EXTENSIONS);
  return new RuntimeApis(specVersion, registry);
}
