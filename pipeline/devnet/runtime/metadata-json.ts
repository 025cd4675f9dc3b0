// The decoded metadata's JSON shape, shared by metadata-extension.ts and spec-425-runtime.ts without a cycle.

export interface StorageEntryJson {
  name: string;
  modifier: string;
  type: { map?: { hashers: string[]; key: number; value: number } };
  fallback: string;
  docs: string[];
  [extra: string]: unknown;
}

export interface PalletJson {
  name: string;
  storage: { prefix: string; items: StorageEntryJson[] } | null;
}

export interface MetadataBodyJson {
  pallets: PalletJson[];
  [extra: string]: unknown;
}
