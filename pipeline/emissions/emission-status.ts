/** Whether a subnet's emission flows, from the storage of one block. */
export type EmissionStatus = 'flowing' | 'suspended';

export interface EmissionValues {
  /** `SubnetEmissionEnabled` where the runtime has it, else null. */
  enabled: boolean | null;
  taoInRao: bigint;
  alphaInRao: bigint;
  alphaOutRao: bigint;
}

/**
 * The flag decides where the runtime has it. Elsewhere (the real mainnet runtimes) a suspended subnet
 * shows only as zero emission in the block, so a subnet is flowing when any of its three per-block
 * emissions is above zero.
 */
export function emissionStatusOf(values: EmissionValues): EmissionStatus {
  if (values.enabled !== null) return values.enabled ? 'flowing' : 'suspended';
  return values.taoInRao > 0n || values.alphaInRao > 0n || values.alphaOutRao > 0n ? 'flowing' : 'suspended';
}
