"""Quantities and data as the contract writes them: 0x-prefixed hex strings (`Quantity`, `Bytes`, …), to and from
Python's `int` and `bytes`."""

from __future__ import annotations

import re

_QUANTITY = re.compile(r"0x[0-9a-fA-F]+")
_DATA = re.compile(r"0x(?:[0-9a-fA-F]{2})*")


def to_quantity(value: int) -> str:
    """`value` as a quantity: lowercase hex without leading zeros (`0` → `"0x0"`, `31337` → `"0x7a69"`)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"a quantity is an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"a quantity is not negative: {value}")
    return hex(value)


def from_quantity(quantity: str) -> int:
    """The int a quantity holds (`"0x7a69"` → `31337`); either case, leading zeros tolerated."""
    if not isinstance(quantity, str) or _QUANTITY.fullmatch(quantity) is None:
        raise ValueError(f"not a hex quantity: {quantity!r}")
    return int(quantity, 16)


def to_data(value: bytes) -> str:
    """`value` as data: lowercase 0x-prefixed hex (`b""` → `"0x"`)."""
    return "0x" + bytes(value).hex()


def from_data(data: str) -> bytes:
    """The bytes 0x-prefixed hex data holds (`"0x"` → `b""`); either case, whole bytes only."""
    if not isinstance(data, str) or _DATA.fullmatch(data) is None:
        raise ValueError(f"not 0x-prefixed hex data of whole bytes: {data!r}")
    return bytes.fromhex(data[2:])
