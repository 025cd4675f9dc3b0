/**
 * The explorer reads only the public interface: `/api/v1` and `/tax`, on its own origin, with the
 * session cookie the browser sends by itself. Errors keep the API's own `detail` so the page can say
 * in words what went wrong.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export async function getJson<T>(path: string): Promise<T> {
  return answerOf<T>(await fetch(path, { headers: { accept: 'application/json' } }));
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  return answerOf<T>(
    await fetch(path, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

async function answerOf<T>(response: Response): Promise<T> {
  if (response.ok) return (await response.json()) as T;
  throw new ApiError(response.status, await detailOf(response));
}

/** `{"detail": "..."}`, or the 422 list of `{msg}`; a body that is neither gets the status line. */
async function detailOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { detail?: unknown };
    if (typeof body.detail === 'string') return body.detail;
    if (Array.isArray(body.detail)) {
      return body.detail.map((issue: { msg?: unknown }) => String(issue.msg ?? '')).join('; ');
    }
  } catch {
    // Not JSON: fall through to the status.
  }
  return `The server answered ${response.status} ${response.statusText}`.trim();
}
