/**
 * The object store key of an order's pack: a function of the order id alone, so every attempt at one
 * order (a retry, a second worker after a lost lease) writes to the same key and there is never a
 * second pack object. Outside `runs/` and `manifest.json`, so publication never lists or prunes it.
 */
export function packKeyFor(orderId: string): string {
  return `tax-packs/${orderId}.zip`;
}

export function packFileName(orderId: string): string {
  return `sbm-tax-pack-${orderId}.zip`;
}
