"""`Client`: every contract method (`ContractMethods`, generated) over a transport, `request` by wire name, batches."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .batch import BatchCall, BatchOutcome, run_batch
from .errors import TransportError
from .jsonrpc import encode_params, next_id, request_message, settle
from .methods import ContractMethods
from .transport import HttpTransport, Transport


class Client(ContractMethods):
    """A client of an evm-node: `client.eth_get_block_by_number("latest", True)`, one method per contract method.

    Args:
        transport: the node's URL (an `HttpTransport` is made for it), or any `Transport`.
        headers: extra HTTP headers, when given a URL.
        timeout: seconds to wait to connect and for each read of an answer, when given a URL.

    Use it as a context manager, or call `close()`, to close its connection.
    """

    def __init__(self, transport: Transport | str, *, headers: Mapping[str, str] | None = None, timeout: float = 30.0) -> None:
        self.transport: Transport = HttpTransport(transport, headers=headers, timeout=timeout) if isinstance(transport, str) else transport

    def request(self, method: str, *params: object) -> Any:
        """Calls `method` by its wire name with `params` as given (`request("eth_getBlockByNumber", "0x0", False)`)."""
        return self._call(method, list(params), len(params))

    def batch(self, calls: Sequence[BatchCall]) -> list[BatchOutcome]:
        """Sends `calls` (`("eth_chainId",)`, `("eth_getBalance", [address, "latest"])`, …) as one JSON-RPC batch.

        Returns one `BatchOutcome` per call, in order: its result, or its own error (`outcome.unwrap()` raises it).
        Raises `TransportError` only when no answer came at all. An empty batch sends nothing.
        """
        return run_batch(self.transport, calls)

    def close(self) -> None:
        self.transport.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, method: str, params: list[object], required: int) -> Any:
        id = next_id()
        answer = self.transport.post(request_message(id, method, encode_params(params, required)))
        if not isinstance(answer, Mapping):
            raise TransportError(f"{method}: the answer is not a JSON-RPC response", body=str(answer)[:500])
        # A request the node could not attribute (unreadable, too large) is answered with id null: its error still counts.
        if answer.get("id") != id and not (answer.get("id") is None and "error" in answer):
            raise TransportError(f"{method}: the answer's id {answer.get('id')!r} is not the request's {id}")
        return settle(method, answer)
