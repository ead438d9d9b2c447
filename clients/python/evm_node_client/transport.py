"""How JSON-RPC messages travel: `Transport` (anything that posts a message and returns the answer) and
`HttpTransport`, one persistent HTTP/1.1 connection (keep-alive) with timeouts and headers, on `http.client`."""

from __future__ import annotations

import base64
import http.client
import json
import threading
from typing import Mapping, Protocol
from urllib.parse import unquote, urlsplit

from .errors import TransportError

USER_AGENT = "evm-node-client-python"


class Transport(Protocol):
    """Posts one JSON-RPC message (a request object or a batch array) and returns the decoded answer."""

    def post(self, message: object) -> object: ...

    def close(self) -> None: ...


class HttpTransport:
    """JSON-RPC over HTTP(S): one POST per call or per batch, on one kept-alive connection.

    The connection opens with the first call and is reused while the server keeps it open. A call that finds the
    reused connection closed by the server (an idle keep-alive timeout) is sent once more on a new connection; any
    other failure, and a timeout, is a `TransportError`. Safe to share between threads: calls take turns.

    Args:
        url: `http://host:port/path` or `https://…`; `user:password@` in it becomes Basic authentication.
        headers: extra request headers (they override the defaults, but not Content-Type).
        timeout: seconds to wait to connect, and for each read of the answer.
    """

    def __init__(self, url: str, *, headers: Mapping[str, str] | None = None, timeout: float = 30.0) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {url!r}")
        self.url = url
        self.timeout = timeout
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port
        self._path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self._headers = {"Accept": "application/json", "User-Agent": USER_AGENT}
        if parts.username is not None:
            credentials = f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()
            self._headers["Authorization"] = "Basic " + base64.b64encode(credentials).decode("ascii")
        self._headers.update(headers or {})
        self._headers["Content-Type"] = "application/json"
        self._connection: http.client.HTTPConnection | None = None
        self._lock = threading.Lock()
        self.connections_opened = 0
        """How many connections this transport has opened (one, while the server keeps it alive)."""

    def post(self, message: object) -> object:
        body = json.dumps(message, separators=(",", ":")).encode()
        with self._lock:
            status, text = self._exchange(body)
        try:
            return json.loads(text)
        except ValueError:
            raise TransportError(f"HTTP {status} from {self.url}: the body is not JSON", status, text[:500]) from None

    def close(self) -> None:
        """Closes the connection; the next call opens a new one."""
        with self._lock:
            self._drop()

    def __enter__(self) -> HttpTransport:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _exchange(self, body: bytes) -> tuple[int, str]:
        reused = self._connection is not None
        try:
            return self._send(body)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as error:
            self._drop()
            if not reused:
                raise TransportError(f"request to {self.url} failed: {error}") from error
        # The server closed the idle connection before reading this request: once more, on a new one.
        try:
            return self._send(body)
        except (OSError, http.client.HTTPException) as error:
            self._drop()
            raise TransportError(f"request to {self.url} failed: {error}") from error

    def _send(self, body: bytes) -> tuple[int, str]:
        connection = self._connection or self._open()
        try:
            connection.request("POST", self._path, body=body, headers=self._headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", errors="replace")
        except TimeoutError as error:
            self._drop()
            raise TransportError(f"request to {self.url} timed out after {self.timeout} s") from error
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            raise
        except (OSError, http.client.HTTPException) as error:
            self._drop()
            raise TransportError(f"request to {self.url} failed: {error}") from error
        if response.will_close:
            self._drop()
        return response.status, text

    def _open(self) -> http.client.HTTPConnection:
        connection = (
            http.client.HTTPSConnection(self._host, self._port, timeout=self.timeout)
            if self._https
            else http.client.HTTPConnection(self._host, self._port, timeout=self.timeout)
        )
        self._connection = connection
        self.connections_opened += 1
        return connection

    def _drop(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
