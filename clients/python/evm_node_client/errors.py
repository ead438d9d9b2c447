"""Errors a call can end with: the node answered a JSON-RPC error (`JsonRpcError`), or no JSON-RPC answer arrived
at all (`TransportError`)."""

from __future__ import annotations

import enum

from .methods import METHODS


class ErrorCodes(enum.IntEnum):
    """Well-known JSON-RPC error codes (JSON-RPC 2.0, geth's -32000, and 3 for a revert)."""

    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603
    SERVER_ERROR = -32000
    EXECUTION_REVERTED = 3


class JsonRpcError(Exception):
    """The node answered `{"error": {"code", "message", "data"}}`."""

    def __init__(self, code: int, message: str, data: object = None, method: str | None = None) -> None:
        super().__init__(f"{method}: {message} ({code})" if method else f"{message} ({code})")
        self.code = code
        """JSON-RPC error code, e.g. -32602 (invalid params) or 3 (execution reverted)."""
        self.message = message
        self.data = data
        """`error.data` as sent (for a revert: the revert data, 0x-hex); None when absent."""
        self.method = method
        """The method whose call failed."""

    @property
    def declared(self) -> bool:
        """Whether the contract lists this code among the method's errors."""
        info = METHODS.get(self.method or "")
        return info is not None and any(e.code == self.code for e in info.errors)


class TransportError(Exception):
    """No JSON-RPC answer: a network failure, a timeout, a closed connection, or a body that is no JSON-RPC response."""

    def __init__(self, message: str, status: int | None = None, body: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        """The HTTP status, when a response arrived."""
        self.body = body
        """The start of the unexpected body, when there was one."""
