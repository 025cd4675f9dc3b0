/**
 * The baseline: a bare `node:http` server answering fixed bytes by URL (path and query), with the same
 * content type as the gateway. No routing library, no auth, no state: the floor the gateway is held to.
 * By default it writes each answer as it is decided, as a plain handler does; with `endOfTurn` it writes
 * them as the gateway's fast path does, together at the end of the event-loop turn (see
 * `gateway/http/end-of-turn.ts`), to show what that scheduling alone is worth.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { atEndOfTurn } from '../../gateway/http/end-of-turn.js';

export interface FixedAnswer {
  body: Uint8Array;
  contentType: string;
  /** The body's `Content-Encoding`, sent as the gateway sends it (the bytes are already encoded). */
  encoding?: string;
}

export interface BareServer {
  url: string;
  close(): Promise<void>;
}

export async function startBareServer(
  answers: ReadonlyMap<string, FixedAnswer>,
  options: { endOfTurn?: boolean } = {},
): Promise<BareServer> {
  const send = options.endOfTurn
    ? atEndOfTurn<ServerResponse, FixedAnswer, undefined>(writeAnswer)
    : writeAnswer;
  const server: Server = createServer((req, res) => {
    const answer = answers.get(req.url ?? '');
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    send(res, answer, undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function writeAnswer(res: ServerResponse, answer: FixedAnswer): void {
  const headers: Record<string, string | number> = {
    'content-type': answer.contentType,
    'content-length': answer.body.byteLength,
  };
  if (answer.encoding) headers['content-encoding'] = answer.encoding;
  res.writeHead(200, headers);
  res.end(answer.body);
}
