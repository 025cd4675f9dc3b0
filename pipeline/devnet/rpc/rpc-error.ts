/** A JSON-RPC 2.0 error answer. Codes follow the spec and what a substrate node sends. */
export class RpcError extends Error {
  override name = 'RpcError';
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** Substrate's "client error" code, e.g. for an unknown block. */
export const CLIENT_ERROR = 4003;
/** Substrate's code for a failed runtime call (`state_call`). */
export const RUNTIME_ERROR = 1002;
