"""The txpool extension: with automine off, a sent transaction waits in the pool until a block takes it."""

from __future__ import annotations

import unittest

from evm_node_client import Client
from support import DEV_ACCOUNTS, client

SINK = "0x000000000000000000000000000000000000dead"


class Txpool(unittest.TestCase):
    client: Client

    def setUp(self) -> None:
        self.client = client()
        self.client.evm_set_automine(False)

    def tearDown(self) -> None:
        self.client.evm_set_automine(True)
        self.client.evm_mine()
        self.client.close()

    def test_shows_a_pending_transaction_until_it_is_mined(self) -> None:
        nonce = self.client.eth_get_transaction_count(DEV_ACCOUNTS[0], "latest")
        sent = self.client.eth_send_transaction({"from": DEV_ACCOUNTS[0], "to": SINK, "value": "0x1"})
        self.assertEqual(self.client.txpool_status(), {"pending": "0x1", "queued": "0x0"})

        content = self.client.txpool_content()
        [(sender, by_nonce)] = content["pending"].items()
        self.assertEqual(sender.lower(), DEV_ACCOUNTS[0])
        self.assertEqual([tx["hash"] for tx in by_nonce.values()], [sent])
        self.assertEqual(content["queued"], {})

        mine = self.client.txpool_content_from(DEV_ACCOUNTS[0])
        self.assertEqual([tx["hash"] for tx in mine["pending"].values()], [sent])

        [(_, summaries)] = self.client.txpool_inspect()["pending"].items()
        [summary] = summaries.values()
        self.assertTrue(summary.startswith(f"{SINK}: 0x1 wei + 0x5208 gas"), summary)

        self.client.evm_mine()
        self.assertEqual(self.client.txpool_status(), {"pending": "0x0", "queued": "0x0"})
        self.assertNotEqual(self.client.eth_get_transaction_count(DEV_ACCOUNTS[0], "latest"), nonce)


if __name__ == "__main__":
    unittest.main()
