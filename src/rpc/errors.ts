// JSON-RPC error codes and constructors. Messages follow geth where clients
// depend on the exact wording (ethers matches on methodNotFound's text).

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
  Server: -32000,
  // geth's "response too large": an answer past the node's byte limit (--max-response-bytes).
  ResponseTooLarge: -32003,
  // EIP-1474 "limit exceeded": a query or a table too large for the node's configured limits.
  LimitExceeded: -32005,
  // EIP-1474 "method not supported": a declared method whose request this node cannot serve.
  MethodNotSupported: -32004,
  // execution-apis' "client adjustable limit exceeded": a request past a limit the node sets (slots, blocks, calls).
  ClientLimitExceeded: -38026,
  ExecutionReverted: 3,
} as const;

/** The wire form of a JSON-RPC error; `data` is omitted when undefined. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** Thrown by handlers to answer with a specific JSON-RPC error; anything else becomes -32603. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  toJSON(): RpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const parseError = (): RpcError => new RpcError(ErrorCode.ParseError, 'parse error');

export const invalidRequest = (message = 'invalid request'): RpcError =>
  new RpcError(ErrorCode.InvalidRequest, message);

export const methodNotFound = (method: string): RpcError =>
  new RpcError(ErrorCode.MethodNotFound, `the method ${method} does not exist/is not available`);

export const invalidParams = (message: string): RpcError => new RpcError(ErrorCode.InvalidParams, message);

// Fixed text on purpose: the real cause goes to the log, never to the client.
export const internalError = (): RpcError => new RpcError(ErrorCode.Internal, 'internal error');

export const serverError = (message: string, data?: unknown): RpcError =>
  new RpcError(ErrorCode.Server, message, data);

/** geth's answer to a subscription asked for over HTTP. */
export const notificationsNotSupported = (): RpcError => new RpcError(ErrorCode.MethodNotFound, 'notifications not supported');

export const clientLimitExceeded = (message: string): RpcError => new RpcError(ErrorCode.ClientLimitExceeded, message);

/** geth's "response too large", naming the limit in its message and data. */
export const responseTooLarge = (message: string, limit: number): RpcError => new RpcError(ErrorCode.ResponseTooLarge, message, { limit });

/** geth's shape: code 3, `execution reverted[: reason]`, data = raw revert bytes as 0x-hex. */
export const executionReverted = (data: string, reason?: string): RpcError =>
  new RpcError(ErrorCode.ExecutionReverted, reason ? `execution reverted: ${reason}` : 'execution reverted', data);

/** EIP-1474's "method not supported": the method exists, but what it asks cannot be done here (the message says why). */
export const notSupported = (message: string): RpcError => new RpcError(ErrorCode.MethodNotSupported, message);
