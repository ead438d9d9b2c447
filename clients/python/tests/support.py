"""What the SDK's tests share: the node under test and the fixtures compiled for it.

`EVM_NODE_URL` names a running evm-node with its default dev chain; `EVM_NODE_FIXTURES` a JSON file with the
contracts' creation code and the calldata the tests send (ABI encoding needs keccak-256, which the standard library
lacks). test/client/python-sdk.spec.ts starts the node, writes the file and runs this suite in `npm test`.
"""

from __future__ import annotations

import json
import os
import unittest
from typing import TypedDict

from evm_node_client import Client
from evm_node_client.types import Hash32, Receipt

DEV_ACCOUNTS = (
    "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
    "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
)


class StorageFixture(TypedDict):
    bytecode: str
    setCalldata: str
    getCalldata: str
    valueChangedTopic: str
    value: str


class ReverterFixture(TypedDict):
    bytecode: str
    failWithReasonCalldata: str
    revertData: str
    reason: str


class Fixtures(TypedDict):
    storage: StorageFixture
    reverter: ReverterFixture


def node_url() -> str:
    url = os.environ.get("EVM_NODE_URL")
    if not url:
        raise RuntimeError("EVM_NODE_URL is not set: run this suite against a node (npm test does)")
    return url


def fixtures() -> Fixtures:
    path = os.environ.get("EVM_NODE_FIXTURES")
    if not path:
        raise RuntimeError("EVM_NODE_FIXTURES is not set: the mocha spec writes it (npm test)")
    with open(path, encoding="utf-8") as file:
        loaded: Fixtures = json.load(file)
    return loaded


def client() -> Client:
    return Client(node_url(), timeout=30.0)


class NodeTestCase(unittest.TestCase):
    """Tests sharing one client of the node, closed after them."""

    client: Client

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = client()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.client.close()


def mined(client: Client, transaction_hash: Hash32) -> Receipt:
    """The receipt of a transaction the node mined when it arrived (automine, the default)."""
    receipt = client.eth_get_transaction_receipt(transaction_hash)
    if receipt is None:
        raise AssertionError(f"{transaction_hash} was not mined")
    return receipt


def deploy(client: Client, bytecode: str) -> str:
    """Deploys `bytecode` from dev account 0; the new contract's address."""
    receipt = mined(client, client.eth_send_transaction({"from": DEV_ACCOUNTS[0], "input": bytecode}))
    address = receipt.get("contractAddress")
    if receipt["status"] != "0x1" or not address:
        raise AssertionError(f"deployment failed: {receipt}")
    return address
