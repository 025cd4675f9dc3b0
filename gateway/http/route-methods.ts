/**
 * What the route table says about methods, applied once for every route: HEAD is served wherever GET
 * is, and a known path asked with a method it does not serve is a 405 that lists the methods it does
 * (`Allow`), not a 404. Both read itty-router's `routes` table, so a new route needs nothing here.
 */
import type { RouteEntry } from 'itty-router';

/** Adds a HEAD route (same pattern, same handlers) beside every GET route that has none. */
export function serveHeadLikeGet(routes: RouteEntry[]): void {
  const heads = new Set(routes.filter(([method]) => method === 'HEAD').map(([, pattern]) => pattern.source));
  for (const [method, pattern, handlers, path] of [...routes]) {
    if (method !== 'GET' || heads.has(pattern.source)) continue;
    heads.add(pattern.source);
    routes.push(['HEAD', pattern, handlers, path]);
  }
}

/** The methods the table serves at `pathname`, in table order (GET before its HEAD); empty for an unknown path. */
export function allowedMethods(routes: readonly RouteEntry[], pathname: string): string[] {
  const methods: string[] = [];
  for (const [method, pattern] of routes) {
    if (method !== 'ALL' && !methods.includes(method) && pattern.test(pathname)) methods.push(method);
  }
  return methods;
}

/**
 * HEAD's answer: GET's status and headers without the body. `Content-Length` stays what GET would send
 * (RFC 9110 9.3.2), measured from the body the handler built; HEAD requests are rare enough to read it.
 */
export async function withoutBody(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  if (response.body && !headers.has('content-length')) {
    headers.set('content-length', String((await response.arrayBuffer()).byteLength));
  }
  return new Response(null, { status: response.status, statusText: response.statusText, headers });
}
