"""JSON-RPC batches: one message, one outcome per call, a refused call failing alone."""

from __future__ import annotations

import unittest

from evm_node_client import ErrorCodes, JsonRpcError, from_quantity
from support import DEV_ACCOUNTS, NodeTestCase, client


class Batches(NodeTestCase):
    def test_answers_every_call_in_order_each_on_its_own(self) -> None:
        chain_id, balance, refused, unknown = self.client.batch(
            [
                ("eth_chainId",),
                ("eth_getBalance", [DEV_ACCOUNTS[0], "latest"]),
                ("eth_getBalance", ["0x1234", "latest"]),
                ("eth_noSuchMethod", []),
            ]
        )
        self.assertEqual(from_quantity(chain_id.unwrap()), 31337)
        self.assertTrue(balance.ok)
        self.assertEqual(balance.result, self.client.eth_get_balance(DEV_ACCOUNTS[0], "latest"))
        assert isinstance(refused.error, JsonRpcError)
        self.assertEqual(refused.error.code, ErrorCodes.INVALID_PARAMS)
        self.assertEqual(refused.error.method, "eth_getBalance")
        self.assertTrue(refused.error.declared)
        with self.assertRaises(JsonRpcError) as raised:
            unknown.unwrap()
        self.assertEqual(raised.exception.code, ErrorCodes.METHOD_NOT_FOUND)
        self.assertFalse(raised.exception.declared)

    def test_goes_out_as_one_request(self) -> None:
        with client() as fresh:
            outcomes = fresh.batch([("eth_blockNumber",)] * 5)
            self.assertEqual(len({o.unwrap() for o in outcomes}), 1)
            self.assertEqual(getattr(fresh.transport, "connections_opened"), 1)

    def test_an_empty_batch_sends_nothing(self) -> None:
        with client() as fresh:
            self.assertEqual(fresh.batch([]), [])
            self.assertEqual(getattr(fresh.transport, "connections_opened"), 0)


if __name__ == "__main__":
    unittest.main()
