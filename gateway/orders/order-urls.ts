/** The buyer's addresses of an order; the token is in each, so they are never logged. */
export function statusUrl(baseUrl: string, orderId: string, token: string): string {
  return `${baseUrl}/tax/orders/${orderId}?t=${token}`;
}

export function packUrl(baseUrl: string, orderId: string, token: string): string {
  return `${baseUrl}/tax/orders/${orderId}/pack?t=${token}`;
}

/** Where the buyer posts their own records for a revised pack. */
export function recordsUrl(baseUrl: string, orderId: string, token: string): string {
  return `${baseUrl}/tax/orders/${orderId}/records?t=${token}`;
}
