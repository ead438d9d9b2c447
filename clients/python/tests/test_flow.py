"""A contract's life through the SDK: deployed, called in a transaction, its receipt and logs read, then read back."""

from __future__ import annotations

import unittest

from evm_node_client import from_quantity
from support import DEV_ACCOUNTS, NodeTestCase, deploy, fixtures, mined


class DeployCallReceiptLogs(NodeTestCase):
    def test_a_deployed_contract_logs_its_change_and_returns_the_new_value(self) -> None:
        storage = fixtures()["storage"]
        address = deploy(self.client, storage["bytecode"])
        self.assertNotEqual(self.client.eth_get_code(address), "0x")

        sent = self.client.eth_send_transaction({"from": DEV_ACCOUNTS[0], "to": address, "input": storage["setCalldata"]})
        receipt = mined(self.client, sent)
        self.assertEqual(receipt["status"], "0x1")
        self.assertEqual(receipt["transactionHash"], sent)
        [log] = receipt["logs"]
        self.assertEqual(log["address"], address)
        self.assertEqual(log["topics"][0], storage["valueChangedTopic"])

        logs = self.client.eth_get_logs({"address": address, "fromBlock": "0x0", "toBlock": "latest"})
        self.assertEqual([entry["transactionHash"] for entry in logs], [sent])

        self.assertEqual(self.client.eth_call({"to": address, "input": storage["getCalldata"]}), storage["value"])

        block = self.client.eth_get_block_by_number(receipt["blockNumber"], True)
        assert block is not None
        [transaction] = block["transactions"]
        assert not isinstance(transaction, str)
        self.assertEqual(transaction["hash"], sent)
        self.assertEqual(transaction["from"], DEV_ACCOUNTS[0])
        self.assertEqual(from_quantity(block["number"]), from_quantity(receipt["blockNumber"]))


if __name__ == "__main__":
    unittest.main()
