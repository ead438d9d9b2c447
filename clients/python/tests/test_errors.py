"""Errors: the node's JSON-RPC errors as JsonRpcError (a revert with its code and data), the rest TransportError."""

from __future__ import annotations

import unittest

from evm_node_client import ErrorCodes, JsonRpcError
from support import DEV_ACCOUNTS, NodeTestCase, deploy, fixtures


class JsonRpcErrors(NodeTestCase):
    def test_a_revert_is_code_3_with_the_revert_data(self) -> None:
        reverter = fixtures()["reverter"]
        address = deploy(self.client, reverter["bytecode"])
        with self.assertRaises(JsonRpcError) as raised:
            self.client.eth_call({"to": address, "input": reverter["failWithReasonCalldata"]})
        error = raised.exception
        self.assertEqual(error.code, ErrorCodes.EXECUTION_REVERTED)
        self.assertEqual(error.message, f"execution reverted: {reverter['reason']}")
        self.assertEqual(error.data, reverter["revertData"])
        self.assertEqual(error.method, "eth_call")
        self.assertTrue(error.declared)

    def test_a_revert_fails_a_gas_estimate_the_same_way(self) -> None:
        reverter = fixtures()["reverter"]
        address = deploy(self.client, reverter["bytecode"])
        with self.assertRaises(JsonRpcError) as raised:
            self.client.eth_estimate_gas({"from": DEV_ACCOUNTS[0], "to": address, "input": reverter["failWithReasonCalldata"]})
        self.assertEqual((raised.exception.code, raised.exception.data), (3, reverter["revertData"]))

    def test_invalid_params_are_minus_32602_naming_the_param(self) -> None:
        with self.assertRaises(JsonRpcError) as raised:
            self.client.eth_get_balance("0x1234")
        self.assertEqual(raised.exception.code, ErrorCodes.INVALID_PARAMS)
        self.assertIn("address", raised.exception.message)
        self.assertTrue(raised.exception.declared)

    def test_an_unknown_method_is_minus_32601_in_geths_words(self) -> None:
        with self.assertRaises(JsonRpcError) as raised:
            self.client.request("eth_noSuchMethod")
        self.assertEqual(raised.exception.code, ErrorCodes.METHOD_NOT_FOUND)
        self.assertEqual(raised.exception.message, "the method eth_noSuchMethod does not exist/is not available")


if __name__ == "__main__":
    unittest.main()
