"""Test methods through the SDK: snapshots and reverts, mining, balances set at will."""

from __future__ import annotations

import unittest

from evm_node_client import from_quantity, to_quantity
from support import DEV_ACCOUNTS, NodeTestCase


class TestMethods(NodeTestCase):
    def test_evm_revert_puts_back_what_evm_snapshot_recorded(self) -> None:
        before = self.client.eth_get_balance(DEV_ACCOUNTS[1], "latest")
        head = self.client.eth_block_number()
        snapshot = self.client.evm_snapshot()
        self.client.anvil_set_balance(DEV_ACCOUNTS[1], to_quantity(7))
        self.client.evm_mine()
        self.assertEqual(self.client.eth_get_balance(DEV_ACCOUNTS[1], "latest"), "0x7")
        self.assertIs(self.client.evm_revert(snapshot), True)
        self.assertEqual(self.client.eth_get_balance(DEV_ACCOUNTS[1], "latest"), before)
        self.assertEqual(self.client.eth_block_number(), head)
        self.assertIs(self.client.evm_revert(snapshot), False)

    def test_evm_mine_and_anvil_mine_add_blocks(self) -> None:
        head = from_quantity(self.client.eth_block_number())
        self.assertEqual(self.client.evm_mine(), "0x0")
        self.assertEqual(from_quantity(self.client.eth_block_number()), head + 1)
        self.client.anvil_mine(to_quantity(3))
        self.assertEqual(from_quantity(self.client.eth_block_number()), head + 4)

    def test_hardhat_set_balance_sets_a_balance_at_once(self) -> None:
        snapshot = self.client.evm_snapshot()
        try:
            self.assertIs(self.client.hardhat_set_balance(DEV_ACCOUNTS[1], to_quantity(10**18)), True)
            self.assertEqual(from_quantity(self.client.eth_get_balance(DEV_ACCOUNTS[1], "latest")), 10**18)
        finally:
            self.client.evm_revert(snapshot)


if __name__ == "__main__":
    unittest.main()
