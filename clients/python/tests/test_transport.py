"""The HTTP transport: one kept-alive connection, headers, timeouts, a connection the server closed, and every way
no JSON-RPC answer can arrive (TransportError). What a real node does not do on request comes from a local server."""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

from evm_node_client import Client, HttpTransport, JsonRpcError, TransportError
from support import client, node_url

Answer = Callable[["Handler", object], tuple[int, bytes]]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: LocalServer

    def setup(self) -> None:
        super().setup()
        self.server.connections += 1

    def do_POST(self) -> None:
        self.server.headers.append(dict(self.headers.items()))
        message = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        status, body = self.server.answer(self, message)
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = self.server.close_after_answer

    def log_message(self, format: str, *args: object) -> None:
        pass


class LocalServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, answer: Answer, close_after_answer: bool = False) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.answer = answer
        self.close_after_answer = close_after_answer
        self.connections = 0
        self.headers: list[dict[str, str]] = []
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def handle_error(self, request: socket.socket | tuple[bytes, socket.socket], client_address: tuple[str, int]) -> None:
        # A client that gave up (the timeout test) leaves the slow answer nowhere to go.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()


def result(value: object) -> Answer:
    def answer(handler: Handler, message: object) -> tuple[int, bytes]:
        assert isinstance(message, dict)
        return 200, json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": value}).encode()

    return answer


class KeepAlive(unittest.TestCase):
    def test_calls_share_one_connection_to_the_node(self) -> None:
        with client() as node:
            for _ in range(5):
                node.eth_block_number()
            self.assertEqual(getattr(node.transport, "connections_opened"), 1)

    def test_a_connection_the_server_closed_is_replaced_and_the_call_goes_through(self) -> None:
        with LocalServer(result("0x7a69"), close_after_answer=True) as server, Client(server.url) as local:
            self.assertEqual([local.eth_chain_id() for _ in range(3)], ["0x7a69"] * 3)
            self.assertEqual(server.connections, 3)


class Headers(unittest.TestCase):
    def test_sends_json_with_the_given_headers_and_url_credentials(self) -> None:
        with LocalServer(result("0x1")) as server:
            url = server.url.replace("http://", "http://user:secret@")
            with Client(url, headers={"X-Api-Key": "k", "Content-Type": "text/plain"}) as local:
                local.eth_block_number()
            [headers] = server.headers
            self.assertEqual(headers["X-Api-Key"], "k")
            self.assertEqual(headers["Content-Type"], "application/json")
            self.assertEqual(headers["Authorization"], "Basic dXNlcjpzZWNyZXQ=")


class TransportErrors(unittest.TestCase):
    def test_a_timeout(self) -> None:
        def slow(handler: Handler, message: object) -> tuple[int, bytes]:
            time.sleep(1.0)
            return result("0x1")(handler, message)

        with LocalServer(slow) as server, Client(server.url, timeout=0.2) as local:
            with self.assertRaisesRegex(TransportError, "timed out after 0.2 s"):
                local.eth_block_number()

    def test_a_refused_connection(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        with Client(f"http://127.0.0.1:{port}/") as local, self.assertRaisesRegex(TransportError, "refused"):
            local.eth_block_number()

    def test_a_body_that_is_not_json(self) -> None:
        with LocalServer(lambda handler, message: (502, b"<html>Bad Gateway</html>")) as server, Client(server.url) as local:
            with self.assertRaises(TransportError) as raised:
                local.eth_block_number()
            self.assertEqual((raised.exception.status, raised.exception.body), (502, "<html>Bad Gateway</html>"))

    def test_an_answer_to_another_request(self) -> None:
        answer = json.dumps({"jsonrpc": "2.0", "id": -1, "result": "0x1"}).encode()
        with LocalServer(lambda handler, message: (200, answer)) as server, Client(server.url) as local:
            with self.assertRaisesRegex(TransportError, "id -1 is not the request's"):
                local.eth_block_number()

    def test_a_batch_refused_as_a_whole_fails_each_call_with_that_error(self) -> None:
        refusal = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "batch too large"}}).encode()
        with LocalServer(lambda handler, message: (200, refusal)) as server, Client(server.url) as local:
            outcomes = local.batch([("eth_chainId",), ("eth_blockNumber",)])
            self.assertEqual([(o.method, isinstance(o.error, JsonRpcError) and o.error.code) for o in outcomes], [("eth_chainId", -32600), ("eth_blockNumber", -32600)])


class Urls(unittest.TestCase):
    def test_refuses_what_is_not_an_http_url(self) -> None:
        with self.assertRaises(ValueError):
            HttpTransport("ws://127.0.0.1:8545")

    def test_the_node_url_is_one(self) -> None:
        HttpTransport(node_url()).close()


if __name__ == "__main__":
    unittest.main()
