/** Response helpers: the JSON error shape and plain JSON bodies, written once for every route. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

export function errorBody(status: number, detail: unknown, headers: Record<string, string> = {}): Response {
  return jsonResponse({ detail }, status, { 'cache-control': 'no-store', ...headers });
}
