"""Quantities and data: the contract's 0x-hex strings to and from int and bytes."""

from __future__ import annotations

import unittest

from evm_node_client import from_data, from_quantity, to_data, to_quantity


class Quantities(unittest.TestCase):
    def test_round_trip_without_leading_zeros(self) -> None:
        self.assertEqual(to_quantity(0), "0x0")
        self.assertEqual(to_quantity(31337), "0x7a69")
        self.assertEqual(from_quantity("0x7A69"), 31337)
        self.assertEqual(from_quantity("0x0007a69"), 31337)
        self.assertEqual(from_quantity(to_quantity(2**256 - 1)), 2**256 - 1)

    def test_refuse_what_is_no_quantity(self) -> None:
        for bad in ("7a69", "0x", "0xg", "", " 0x1"):
            with self.subTest(bad=bad), self.assertRaises(ValueError):
                from_quantity(bad)
        with self.assertRaises(ValueError):
            to_quantity(-1)
        with self.assertRaises(TypeError):
            to_quantity(True)


class Data(unittest.TestCase):
    def test_round_trip(self) -> None:
        self.assertEqual(to_data(b""), "0x")
        self.assertEqual(to_data(b"\x00\xff"), "0x00ff")
        self.assertEqual(from_data("0x00FF"), b"\x00\xff")

    def test_refuse_half_bytes(self) -> None:
        with self.assertRaises(ValueError):
            from_data("0x123")


if __name__ == "__main__":
    unittest.main()
