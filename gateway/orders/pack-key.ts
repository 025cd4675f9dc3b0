/**
 * The object store keys of an order: its pack, a function of the order id and the pack's version alone,
 * so every attempt at one version (a retry, a second worker after a lost lease) writes to the same key
 * and there is never a second object for it. Version 1 (the pack fulfilment builds) keeps the key it
 * always had; a revision's pack (the buyer's own records added) is `<id>.v<version>.zip`.
 * Everything of an order starts with `orderKeyPrefix` (the buyer's uploaded files too), so the purge
 * deletes it all. Outside `runs/` and `manifest.json`, so publication never lists or prunes it.
 */
export function packKeyFor(orderId: string, version = 1): string {
  return version === 1 ? `tax-packs/${orderId}.zip` : `tax-packs/${orderId}.v${version}.zip`;
}

/** The prefix of every object of the order (an order id is `ord_` + 32 hex digits: no id is another's prefix). */
export function orderKeyPrefix(orderId: string): string {
  return `tax-packs/${orderId}.`;
}

/**
 * Where one uploaded file's bytes are kept: under the order's prefix, named by the upload (a random id)
 * and the file's place in it, never by the buyer's file name (keys may appear in a store's own logs).
 */
export function uploadKeyFor(orderId: string, uploadId: string, index: number): string {
  return `${orderKeyPrefix(orderId)}files/${uploadId}/${index}`;
}

export function packFileName(orderId: string, version = 1): string {
  return version === 1 ? `sbm-tax-pack-${orderId}.zip` : `sbm-tax-pack-${orderId}-v${version}.zip`;
}
