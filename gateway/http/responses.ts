/** Response helpers: the JSON error shape and plain JSON bodies, written once for every route. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

export function errorBody(status: number, detail: unknown, headers: Record<string, string> = {}): Response {
  const answer = errorAnswer(status, detail, headers);
  return new Response(answer.body, { status, headers: answer.headers });
}

/** The error shape as plain parts, for the fast path, which writes Node's response itself. */
export function errorAnswer(
  status: number,
  detail: unknown,
  headers: Record<string, string> = {},
): { status: number; headers: Record<string, string>; body: string } {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify({ detail }),
  };
}
