"""The card selector language of scoring items (``suit=S``, ``rank=A``, ``colour in (R, Y)``).

Parsed by the lark grammar in ``grammars/selector.lark`` into a predicate over
cards; never evaluated as code. A selector is checked against the deck when a
variant loads, so a typo such as ``suit=X`` is an error in the rule file.

The three forms nearly every file uses (``all``, a card such as ``10D``, one
comparison such as ``suit=S``) are read by a regular expression into the same
pieces the grammar would give, so loading a variant (``cassino validate``) does
not pay for importing lark and building the grammar; anything else goes
through the grammar.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

from ..errors import CassinoError

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark


class CardLike(Protocol):
    rank: str
    suit: str


class SelectorError(CassinoError):
    """A selector that does not parse or names something the deck lacks."""

    def __init__(self, text: str, message: str, column: int | None = None) -> None:
        self.text, self.column = text, column
        caret = f"\n    {text}\n    {' ' * (column - 1)}^" if column else ""
        super().__init__(f"selector {text!r}: {message}{caret}")


class _Word(str):
    """A piece of selector text with its 1-based column: what the grammar's tokens carry, without lark."""

    column: int

    def __new__(cls, text: str, column: int) -> "_Word":
        word = super().__new__(cls, text)
        word.column = column
        return word


@lru_cache(maxsize=1)
def _parser() -> "Lark":
    from lark import Lark

    return Lark((Path(__file__).parent / "grammars" / "selector.lark").read_text(encoding="utf-8"),
                parser="lalr", maybe_placeholders=False)


@dataclass(frozen=True)
class DeckView:
    """What a selector needs to know of the deck: ranks, suits, colours and values."""

    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    colour_of: dict[str, str]          # suit letter -> colour
    values_of: dict[str, tuple[int, ...]]  # rank -> values (every value a card may count)


Predicate = Callable[[CardLike], bool]


def _norm_rank(word: str) -> str:
    w = word.upper()
    return "10" if w == "T" else w


class _Build:
    """Turns the pieces of a selector (grammar tree or fast path) into a predicate, checking names against the deck."""

    def __init__(self, text: str, deck: DeckView) -> None:
        self.text, self.deck = text, deck

    def transform(self, tree: Any) -> Any:
        """Bottom-up, as lark's Transformer: each tree by its rule's alias, tokens left as they are."""
        children = getattr(tree, "children", None)
        if children is None:
            return tree
        return getattr(self, str(tree.data))([self.transform(c) for c in children])

    def _rank(self, tok: _Word) -> str:
        r = _norm_rank(str(tok))
        if r not in self.deck.ranks:
            raise SelectorError(self.text, f"no rank {tok} in this deck (ranks: {' '.join(self.deck.ranks)})", tok.column)
        return r

    def _suit(self, tok: _Word) -> str:
        s = str(tok).upper()
        if s not in self.deck.suits:
            raise SelectorError(self.text, f"no suit {tok} in this deck (suits: {' '.join(self.deck.suits)})", tok.column)
        return s

    def everything(self, _: list) -> Predicate:
        return lambda c: True

    def card(self, items: list[_Word]) -> Predicate:
        tok = items[0]
        r, s = self._rank(_Word(str(tok)[:-1], tok.column)), self._suit(_Word(str(tok)[-1], tok.column + len(tok) - 1))
        return lambda c: c.rank == r and c.suit == s

    def _field_values(self, field: str, words: list[_Word]) -> tuple[str, list]:
        f = field.lower().replace("color", "colour")
        if f == "rank":
            return f, [self._rank(w) for w in words]
        if f == "suit":
            return f, [self._suit(w) for w in words]
        if f == "colour":
            colours = {v.upper() for v in self.deck.colour_of.values()}
            out = []
            for w in words:
                if str(w).upper() not in colours:
                    raise SelectorError(self.text, f"no colour {w} in this deck (colours: {' '.join(sorted(colours))})", w.column)
                out.append(str(w).upper())
            return f, out
        out = []
        for w in words:
            if not str(w).isdecimal():
                raise SelectorError(self.text, f"value must be compared with a number, not {w}", w.column)
            out.append(int(str(w)))
        return f, out

    def _getter(self, f: str) -> Callable[[CardLike], list]:
        if f == "rank":
            return lambda c: [c.rank]
        if f == "suit":
            return lambda c: [c.suit]
        if f == "colour":
            colour = {s: col.upper() for s, col in self.deck.colour_of.items()}
            return lambda c: [colour.get(c.suit, "")]
        values = self.deck.values_of
        return lambda c: list(values.get(c.rank, ()))

    def compare(self, items: list[_Word]) -> Predicate:
        field, op, word = items
        f, (want,) = self._field_values(str(field), [word])
        get = self._getter(f)
        if f != "value" and str(op) not in ("=", "!="):
            raise SelectorError(self.text, f"{f} can only be compared with = or !=", op.column)
        tests: dict[str, Callable[[object], bool]] = {
            "=": lambda x: x == want, "!=": lambda x: x != want, "<": lambda x: x < want,  # type: ignore[operator]
            "<=": lambda x: x <= want, ">": lambda x: x > want, ">=": lambda x: x >= want}  # type: ignore[operator]
        test = tests[str(op)]
        if str(op) == "!=":
            return lambda c: all(test(x) for x in get(c))
        return lambda c: any(test(x) for x in get(c))

    def member(self, items: list[_Word]) -> Predicate:
        field, *words = items
        f, wanted = self._field_values(str(field), words)
        get, want = self._getter(f), set(wanted)
        return lambda c: any(x in want for x in get(c))

    def negate(self, items: list[Predicate]) -> Predicate:
        inner = items[0]
        return lambda c: not inner(c)

    def all_of(self, items: list[Predicate]) -> Predicate:
        return lambda c: all(p(c) for p in items)

    def any_of(self, items: list[Predicate]) -> Predicate:
        return lambda c: any(p(c) for p in items)


_ALL = re.compile(r"\s*all\s*$", re.IGNORECASE)
_CARD = re.compile(r"\s*((?:10|[0-9]|[A-Za-z])[A-Za-z])\s*$")
_COMPARE = re.compile(r"\s*(rank|suit|colour|color|value)\s*(<=|>=|!=|=|<|>)\s*([A-Za-z0-9]+)\s*$", re.IGNORECASE)


def _fast(text: str, build: _Build) -> Predicate | None:
    """The predicate of a selector in one of the three common forms, or None (use the grammar)."""
    if _ALL.match(text):
        return build.everything([])
    m = _CARD.match(text)
    if m and m.group(1).lower() not in ("in", "or"):
        return build.card([_Word(m.group(1), m.start(1) + 1)])
    m = _COMPARE.match(text)
    if m:
        return build.compare([_Word(m.group(k), m.start(k) + 1) for k in (1, 2, 3)])
    return None


#: Brackets and `not`s inside one another in a selector; a scoring item needs two or three. (As lists and mappings
#: in a rule file: a selector of 20,000 brackets, or of 100,000 `not`s, ended every command in an internal error.)
MAX_SELECTOR_DEPTH = 32
_NOT = re.compile(r"(?<![A-Za-z0-9])not(?![A-Za-z0-9])", re.IGNORECASE)


def _refuse_deep(text: str) -> None:
    """SelectorError, at the bracket or `not` that goes too deep, for a selector nested more than MAX_SELECTOR_DEPTH
    levels: the grammar's tree is read recursively."""
    depth, nots = 0, [m.start() for m in _NOT.finditer(text)]
    if len(nots) > MAX_SELECTOR_DEPTH:
        raise SelectorError(_cut(text, nots[MAX_SELECTOR_DEPTH]), f"more than {MAX_SELECTOR_DEPTH} `not`s; a selector "
                                                                  f"needs only a few", None)
    for k, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth + len(nots) > MAX_SELECTOR_DEPTH:
            raise SelectorError(_cut(text, k), f"brackets and `not`s nested more than {MAX_SELECTOR_DEPTH} deep; "
                                               f"a selector needs only a few levels", None)


def _cut(text: str, at: int) -> str:
    """A long selector as a message quotes it: its first characters up to ``at``."""
    return text if len(text) <= 80 else text[:min(at + 1, 60)] + "..."


def compile_selector(text: str, deck: DeckView) -> Predicate:
    """A predicate for ``text``; raises :class:`SelectorError` with a caret on bad input."""
    build = _Build(text, deck)
    fast = _fast(text, build)
    if fast is not None:
        return fast
    from lark import UnexpectedInput

    _refuse_deep(text)
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as e:
        raise SelectorError(text, "cannot read this selector; write e.g. `suit=S`, `rank=A`, `10D`, "
                                  "`colour in (R, Y)`, `value>=5`, joined with and/or", e.column) from None
    return build.transform(tree)
