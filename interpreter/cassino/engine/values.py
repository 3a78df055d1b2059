"""Immutable value classes that compile well.

The engine's values (moves, states, builds, sweeps) are final classes whose
attributes are declared ``Final`` rather than frozen dataclasses or named tuples:
compiled with mypyc (see ``hatch_build.py``) they become C structs that are made
in about a tenth of the time, and assigning an attribute raises
``AttributeError``. Interpreted, the same classes work unchanged; nothing in the
project assigns to them (mypy checks the ``Final``). :class:`Value` gives each
equality, hashing, ``repr`` and pickling from its fields, as a named tuple would.
"""

from __future__ import annotations

from typing import Any, ClassVar



# The classes made every ply (the state, the Generator, KeyLayout, Move) keep the last instance
# freed for the next one (``@mypyc_attr(free_list_len=1)``, mypyc's own mechanism for the
# generators it compiles): its memory is taken back, cleared and tracked again, not freed and
# allocated; nothing else about the object changes (issue 29, part V).
# Not ``@mypyc_attr(acyclic=True)``: leaving moves and states out of the cycle collector made
# long lists of moves cheaper to collect, but the compiled test suite then crashed now and then
# (a freed object called in pytest's teardown; 2 runs in 15 of tests/test_bots.py, none in 20
# without it). Kept out until that is understood. (A likely cause, not reproduced: mypyc still deallocates an
# acyclic object through CPython's trashcan, which on 3.11, 50 deallocations deep, keeps it for later by
# writing the cycle collector's header in front of it, and an acyclic object has none. See docs/performance.md.)
class Value:
    """Equality, hash, repr and pickling from a class's fields."""

    _fields: ClassVar[tuple[str, ...]] = ()

    def values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Value)
        return self.values() == other.values()

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self.values())

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self.values()))
        return f"{type(self).__name__}({inner})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return type(self), self.values()
