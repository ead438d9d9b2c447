"""A typed Python client for evm-node, generated from its openrpc.json: one method per contract method, the
contract's schemas as types, JSON-RPC batches, typed errors. Standard library only."""

from . import types
from .batch import BatchCall, BatchOutcome
from .client import Client
from .errors import ErrorCodes, JsonRpcError, TransportError
from .methods import CONTRACT_DIGEST, CONTRACT_VERSION, METHOD_NAMES, METHODS, DeclaredError, MethodInfo
from .quantity import from_data, from_quantity, to_data, to_quantity
from .transport import HttpTransport, Transport

__all__ = [
    "BatchCall",
    "BatchOutcome",
    "CONTRACT_DIGEST",
    "CONTRACT_VERSION",
    "Client",
    "DeclaredError",
    "ErrorCodes",
    "HttpTransport",
    "JsonRpcError",
    "METHODS",
    "METHOD_NAMES",
    "MethodInfo",
    "Transport",
    "TransportError",
    "from_data",
    "from_quantity",
    "to_data",
    "to_quantity",
    "types",
]
