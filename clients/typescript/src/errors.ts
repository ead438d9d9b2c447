// Errors a call can end with: the node answered a JSON-RPC error (JsonRpcError), or no valid answer
// arrived at all (TransportError). Hand-written runtime; the contract-derived part is in generated/.

/** Well-known JSON-RPC error codes (JSON-RPC 2.0, plus geth's -32000 and 3 for reverts). */
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerError: -32000,
  ExecutionReverted: 3,
} as const;

/** The node answered `{ error: { code, message, data } }`. */
export class JsonRpcError<Code extends number = number> extends Error {
  override readonly name = "JsonRpcError";

  constructor(
    /** JSON-RPC error code, e.g. -32602 or 3 (execution reverted). */
    readonly code: Code,
    message: string,
    /** `error.data` as sent (for reverts: the revert data as 0x-hex); undefined when absent. */
    readonly data?: unknown,
    /** The method whose call failed. */
    readonly method?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True when `error` is a JsonRpcError, and (if given) carries `code`. */
export function isJsonRpcError<Code extends number>(error: unknown, code?: Code): error is JsonRpcError<Code> {
  return error instanceof JsonRpcError && (code === undefined || error.code === code);
}

/** No JSON-RPC answer: network failure, timeout, closed socket, or a body that is not a JSON-RPC response. */
export class TransportError extends Error {
  override readonly name = "TransportError";

  constructor(
    message: string,
    /** HTTP status, when there was a response. */
    readonly status?: number,
    /** The start of the unexpected body, when there was one. */
    readonly body?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
