"""JSON-RPC batches: many calls in one message, each answered (or failed) on its own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence, Union

from .errors import JsonRpcError, TransportError
from .jsonrpc import next_id, request_message, settle
from .transport import Transport

BatchCall = Union[tuple[str], tuple[str, Sequence[object]]]
"""One call of a batch: `(method,)` or `(method, params)`."""


@dataclass(frozen=True)
class BatchOutcome:
    """How one call of a batch ended: its result, or the error it got (the other calls are not affected)."""

    method: str
    result: Any = None
    error: JsonRpcError | TransportError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def unwrap(self) -> Any:
        """The result; raises the call's error instead when it failed."""
        if self.error is not None:
            raise self.error
        return self.result


def run_batch(transport: Transport, calls: Sequence[BatchCall]) -> list[BatchOutcome]:
    """Sends `calls` as one JSON-RPC batch; one outcome per call, in order. An empty batch sends nothing."""
    if not calls:
        return []
    ids = [next_id() for _ in calls]
    split = [_split(call) for call in calls]
    methods = [method for method, _ in split]
    message = [request_message(i, method, params) for i, (method, params) in zip(ids, split)]
    answer = transport.post(message)
    # The whole batch refused (too many calls, unreadable): one error with id null answers every call.
    if isinstance(answer, Mapping) and answer.get("id") is None and "error" in answer:
        return [_outcome(method, answer) for method in methods]
    if not isinstance(answer, list):
        raise TransportError(f"batch of {len(calls)}: the answer is not a JSON-RPC batch response", body=str(answer)[:500])
    by_id = {m.get("id"): m for m in answer if isinstance(m, Mapping)}
    return [
        _outcome(method, by_id[i]) if i in by_id else BatchOutcome(method, error=TransportError(f"{method}: the batch response has no answer for it"))
        for i, method in zip(ids, methods)
    ]


def _split(call: BatchCall) -> tuple[str, list[object]]:
    method, *params = call
    return method, [p for given in params for p in given]


def _outcome(method: str, message: Mapping[str, object]) -> BatchOutcome:
    try:
        return BatchOutcome(method, result=settle(method, message))
    except (JsonRpcError, TransportError) as error:
        return BatchOutcome(method, error=error)
