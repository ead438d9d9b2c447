"""JSON-RPC 2.0 framing: request messages, params on the wire, answers to results or errors."""

from __future__ import annotations

import itertools
import json
from typing import Any, Mapping, Sequence

from .errors import JsonRpcError, TransportError

_ids = itertools.count(1)


def next_id() -> int:
    """A request id unique within this process (ids only need to be unique per connection)."""
    return next(_ids)


def encode_params(params: Sequence[object], required: int) -> list[object]:
    """Positional params as they go on the wire: trailing None beyond the first `required` left out (an optional
    param not given); a None before a given param is sent as null."""
    end = len(params)
    while end > required and params[end - 1] is None:
        end -= 1
    return list(params[:end])


def request_message(id: int, method: str, params: Sequence[object]) -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": id, "method": method, "params": list(params)}


def _clip(value: object) -> str:
    return json.dumps(value)[:500]


def settle(method: str, message: Mapping[str, object]) -> Any:
    """The result a response message carries; raises the `JsonRpcError` it carries instead."""
    if "error" in message:
        error = message["error"]
        if not isinstance(error, Mapping) or not isinstance(error.get("code"), int) or not isinstance(error.get("message"), str):
            raise TransportError(f"{method}: malformed error object in the response", body=_clip(error))
        raise JsonRpcError(error["code"], error["message"], error.get("data"), method)
    if "result" not in message:
        raise TransportError(f"{method}: the response has neither result nor error", body=_clip(message))
    return message["result"]
