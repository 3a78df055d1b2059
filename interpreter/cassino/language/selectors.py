"""The card selector language of scoring items (``suit=S``, ``rank=A``, ``colour in (R, Y)``).

Parsed by the lark grammar in ``grammars/selector.lark`` into a predicate over
cards; never evaluated as code. A selector is checked against the deck when a
variant loads, so a typo such as ``suit=X`` is an error in the rule file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Protocol

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.exceptions import VisitError

from ..errors import CassinoError


class CardLike(Protocol):
    rank: str
    suit: str


class SelectorError(CassinoError):
    """A selector that does not parse or names something the deck lacks."""

    def __init__(self, text: str, message: str, column: int | None = None) -> None:
        self.text, self.column = text, column
        caret = f"\n    {text}\n    {' ' * (column - 1)}^" if column else ""
        super().__init__(f"selector {text!r}: {message}{caret}")


@lru_cache(maxsize=1)
def _parser() -> Lark:
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


class _Build(Transformer):
    def __init__(self, text: str, deck: DeckView) -> None:
        super().__init__()
        self.text, self.deck = text, deck

    def _rank(self, tok: Token) -> str:
        r = _norm_rank(str(tok))
        if r not in self.deck.ranks:
            raise SelectorError(self.text, f"no rank {tok} in this deck (ranks: {' '.join(self.deck.ranks)})", tok.column)
        return r

    def _suit(self, tok: Token) -> str:
        s = str(tok).upper()
        if s not in self.deck.suits:
            raise SelectorError(self.text, f"no suit {tok} in this deck (suits: {' '.join(self.deck.suits)})", tok.column)
        return s

    def everything(self, _: list) -> Predicate:
        return lambda c: True

    def card(self, items: list[Token]) -> Predicate:
        tok = items[0]
        r, s = self._rank(Token("W", str(tok)[:-1], column=tok.column)), self._suit(Token("W", str(tok)[-1], column=tok.column + len(tok) - 1))
        return lambda c: c.rank == r and c.suit == s

    def _field_values(self, field: str, words: list[Token]) -> tuple[str, list]:
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
            if not str(w).isdigit():
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

    def compare(self, items: list[Token]) -> Predicate:
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

    def member(self, items: list[Token]) -> Predicate:
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


def compile_selector(text: str, deck: DeckView) -> Predicate:
    """A predicate for ``text``; raises :class:`SelectorError` with a caret on bad input."""
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as e:
        raise SelectorError(text, "cannot read this selector; write e.g. `suit=S`, `rank=A`, `10D`, "
                                  "`colour in (R, Y)`, `value>=5`, joined with and/or", e.column) from None
    try:
        return _Build(text, deck).transform(tree)
    except VisitError as e:  # lark wraps what a transformer raises
        if isinstance(e.orig_exc, SelectorError):
            raise e.orig_exc from None
        raise
