"""One method per contract method: each method that needs no input is called through its Python method."""

from __future__ import annotations

import unittest

from evm_node_client import METHOD_NAMES, METHODS, JsonRpcError, from_quantity
from support import DEV_ACCOUNTS, NodeTestCase


class MethodsWithoutRequiredParams(NodeTestCase):
    def test_every_one_answers_through_its_python_method(self) -> None:
        """A result, or an error the contract declares for the method (dumpState: the node keeps no preimages)."""
        answered = []
        for info in METHODS.values():
            if info.required > 0:
                continue
            with self.subTest(method=info.name):
                try:
                    getattr(self.client, info.python_name)()
                except JsonRpcError as error:
                    self.assertTrue(error.declared, f"{info.name} answered an undeclared error: {error}")
                answered.append(info.name)
        self.assertEqual(len(answered), len([m for m in METHODS.values() if m.required == 0]))
        self.assertGreater(len(answered), 30)

    def test_answers_are_typed_values_of_the_dev_chain(self) -> None:
        self.assertEqual(from_quantity(self.client.eth_chain_id()), 31337)
        self.assertEqual(self.client.net_version(), "31337")
        self.assertIn(DEV_ACCOUNTS[0], [a.lower() for a in self.client.eth_accounts()])
        self.assertIs(self.client.net_listening(), True)
        genesis = self.client.eth_get_block_by_number("0x0", False)
        assert genesis is not None
        self.assertEqual(genesis["number"], "0x0")

    def test_rpc_discover_lists_the_methods_this_client_was_generated_from(self) -> None:
        document = self.client.rpc_discover()
        self.assertEqual(sorted(str(m.get("name")) for m in document["methods"]), sorted(METHOD_NAMES))

    def test_request_calls_a_method_by_its_wire_name(self) -> None:
        block = self.client.request("eth_getBlockByNumber", "0x0", False)
        self.assertEqual(block["number"], "0x0")

    def test_an_optional_param_left_as_none_is_left_out(self) -> None:
        self.assertEqual(self.client.eth_get_balance(DEV_ACCOUNTS[1]), self.client.eth_get_balance(DEV_ACCOUNTS[1], "latest"))


if __name__ == "__main__":
    unittest.main()
