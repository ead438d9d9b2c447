"""The generated types hold at run time as they do for a type checker: every TypedDict's annotations resolve (forward
references too), and a call frame's calls are call frames."""

from __future__ import annotations

import typing
import unittest

from evm_node_client import types


class GeneratedTypes(unittest.TestCase):
    def test_every_typed_dict_resolves(self) -> None:
        typed_dicts = [v for v in vars(types).values() if isinstance(v, type) and typing.is_typeddict(v)]
        self.assertGreater(len(typed_dicts), 50)
        for typed_dict in typed_dicts:
            with self.subTest(typed_dict.__name__):
                typing.get_type_hints(typed_dict)

    def test_a_call_frame_nests(self) -> None:
        hints = typing.get_type_hints(types.CallFrame)
        self.assertEqual(hints["calls"], list[types.CallFrame])
        self.assertIn("from", types.CallFrame.__required_keys__)
        self.assertIn("calls", types.CallFrame.__optional_keys__)


if __name__ == "__main__":
    unittest.main()
