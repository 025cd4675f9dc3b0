/** Typed failures of the chain reader. */
export class ChainError extends Error {
  override name = 'ChainError';
}

/** A JSON-RPC request kept failing after every retry. */
export class RpcError extends ChainError {
  override name = 'RpcError';
  constructor(
    readonly method: string,
    readonly attempts: number,
    cause: string,
  ) {
    super(`${method} failed after ${attempts} attempts: ${cause}`);
  }
}

/** The node could not be reached at all. */
export class ChainUnavailableError extends ChainError {
  override name = 'ChainUnavailableError';
}

/** The chain answered something the reader cannot interpret (missing storage item, unknown runtime). */
export class ChainDataError extends ChainError {
  override name = 'ChainDataError';
}
