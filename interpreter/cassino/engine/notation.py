"""The move notation of SCENARIOS.md, read with a lark grammar (``grammars/move.lark``).

``format_move`` writes the canonical form (cards by rank then suit, builds
before loose cards); ``parse_move`` reads any order and case. Card names are
checked against the variant's deck, so ``ZZ`` or ``11S`` get a message that
says what is wrong, with a caret under it.
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..language.cards import CardError, Deck
from .moves import Move, MoveKind, MoveSyntaxError


@lru_cache(maxsize=1)
def _parser() -> Lark:
    text = (Path(__file__).parent / "grammars" / "move.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr")


def _sort_key(deck: Deck, i: int) -> tuple[int, int, int]:
    """Rank, then the card's place in its pack (with several packs, copies of one card side by side and named in
    the same order whichever copies a move holds: a computer's `6C capture 3C 3H`, where it took the second
    pack's 3H, read back as `6C capture 3H 3C`), then the pack."""
    size = len(deck.cards) // deck.packs if deck.packs > 1 else 0
    return (deck.rank_index[i], i % size if size else i, i)


def cards_text(deck: Deck, mask: int) -> list[str]:
    """The cards of ``mask`` as names, lowest rank first."""
    idx = []
    while mask:
        low = mask & -mask
        idx.append(low.bit_length() - 1)
        mask ^= low
    return [str(deck.cards[i]) for i in sorted(idx, key=lambda i: _sort_key(deck, i))]


def _build_key(deck: Deck, mask: int) -> list[tuple[int, int]]:
    """Builds are written lowest card first."""
    return sorted(_sort_key(deck, i) for i in range(len(deck)) if mask >> i & 1)


def format_move(move: Move, deck: Deck) -> str:
    """A move as the game writes it (and :func:`parse_move` reads it): ``9D capture 4C 5H``,
    ``3D build 8 on 5S``, ``[2S 4H]`` for a build on the table, ``9C trail``::

        >>> format_move(engine.legal_moves(state)[0], engine.deck)
        '4H capture 4C'
    """
    # (``==``, not ``is``: a Move made from its fields may carry the kind's text, ``Move("capture", ...)``,
    # which the engine plays as that kind; ``MoveKind`` is a ``str``)
    if move.kind == MoveKind.END:
        return "end"
    played = "+".join(cards_text(deck, move.played))
    if move.kind == MoveKind.TRAIL:
        return f"{played} trail"
    items = [f"[{' '.join(cards_text(deck, b))}]" for b in sorted(move.builds, key=lambda b: _build_key(deck, b))]
    items += cards_text(deck, move.loose)
    body = " ".join(items)
    if move.kind == MoveKind.CAPTURE:
        return f"{played} capture {body}"
    head = "trail build" if move.kind == MoveKind.TRAIL_BUILD else "build"
    if not move.played:
        return f"{head} {move.value} on {body}"   # a build of cards in play alone
    return f"{played} {head} {move.value} on {body}"


#: The most of a move's text a caret line shows: a longer move is cut around the place the caret points at.
CARET_ROOM = 76


def _caret(text: str, column: int, message: str) -> MoveSyntaxError:
    at = max(column - 1, 0)
    if len(text) > CARET_ROOM:   # (a move of every card of a deck is 350-800 characters: shown cut, as rule files' lines are)
        start = max(0, min(at - CARET_ROOM // 2, len(text) - CARET_ROOM))
        head, tail = ("..." if start else ""), ("..." if start + CARET_ROOM < len(text) else "")
        text, at = head + text[start:start + CARET_ROOM] + tail, at - start + len(head)
    return MoveSyntaxError(f"{message}\n    {text}\n    {' ' * at}^")


def _card(deck: Deck, text: str, tok: Token) -> int:
    try:
        return 1 << deck.index(deck.parse(str(tok)))
    except CardError as e:
        raise _caret(text, tok.column or 1, str(e)) from None


def _cards(deck: Deck, text: str, tokens: list[Token | Tree], seen: int) -> int:
    """The cards a list of card tokens names, as a mask; a card named twice in the move
    (here, or among ``seen``) is an error pointing at its second mention. With several packs
    (``deck.packs``) a card may be named once per copy: each mention is the next copy, and
    the engine matches copies to the cards where the move says they are (``Engine.resolve``)."""
    mask = 0
    for tok in tokens:
        bit = _card(deck, text, tok)
        if deck.packs > 1:
            try:
                bit = deck.allocate(deck.parse(str(tok)), seen | mask)
            except CardError:
                raise _caret(text, tok.column, f"{tok} is named more times than the deck's {deck.packs} "
                                               f"packs hold it") from None
        elif (seen | mask) & bit:
            raise _caret(text, tok.column, f"{tok} is named twice")
        mask |= bit
    return mask


_WORDS = ("trail", "capture", "build", "on")

#: Words of the messages below that give fixed examples: the notation knows no game's rules nor its deck, so a
#: front end that does says its game's own examples in their place (``GameSession.said_for_this_game``: Scopa
#: has no building and no 8).
CARD_ACTION = "a move is CARD ACTION, e.g. `8D capture 8C`, `3H build 8 on 5S`, `KD trail`"
ENDS_AFTER_ACTION = ("the move ends too soon: after `capture` or `on` name the cards, after `build` the value, "
                     "e.g. `3H build 8 on 5S`")
CARD_EXPECTED = "a card is expected here, e.g. `9C`, or a build in brackets such as `[4D 5H]`"
END_ALONE = "`end` is an action of its own: it ends a turn of several actions after `;`, e.g. `9D capture 9C; end`"


def _unexpected(word: str, expected: list[str]) -> str:
    """What was wrong at a word the grammar did not expect, in the words a player types."""
    keywords = [x for x in _WORDS if x in expected]
    if keywords == ["on"]:
        return f"`{word}`: after a build's value comes `on` and the cards, e.g. `3H build 8 on 5S`"
    if keywords == ["build"]:   # after `trail` (an audit read "write  or build" here)
        return (f"`{word}`: a trail names only the card played, e.g. `7C trail`; where the rules let a trail come "
                f"with a build, it goes on `trail build VALUE on CARDS`")
    if keywords:
        near = difflib.get_close_matches(word.lower(), keywords, n=1, cutoff=0.5)
        hint = f" (did you mean `{near[0]}`?)" if near else ""
        return f"`{word}` is not an action: after the played card write {', '.join(keywords[:-1])} or {keywords[-1]}{hint}"
    if word.lower() == "end":   # (an audit typed `5H capture 4C end` in a turn of several actions)
        return END_ALONE
    if "a card" in expected and (word[:1].isalnum() or expected in (["a card"], ["[", "a card"])):
        return f"`{word}`: {CARD_EXPECTED}"
    if word == "]" and "]" not in expected:   # (an audit read "expected $end or [ or a card" here)
        return "`]` closes no `[`: a build's cards go in brackets, e.g. `9C capture [4D 5H]`"
    return f"unexpected `{word}`; expected {' or '.join(expected)}"


def _unreadable(text: str, at: int, allowed: set[str]) -> str:
    """What was wrong at a word no terminal of the grammar reads (a card's name is a whole word)."""
    if not text[at].isalnum():   # (a stray sign: `4D!`)
        return f"unexpected {text[at]!r}: {CARD_ACTION}"
    word = re.match(r"[^\s\[\]+;]*", text[at:]).group(0)  # type: ignore[union-attr]
    if not text[:at].strip():
        return f"`{word}` is not a card: {CARD_ACTION}"
    return _unexpected(word, _named(allowed))


def _named(terminals: set[str]) -> list[str]:
    """The grammar's terminals a player could have typed, in a player's words."""
    names = {"PLUS": "+", "LSQB": "[", "RSQB": "]", "CARD": "a card", "NUMBER": "a number", "RANKWORD": "a rank",
             "$END": "the move's end"}
    return sorted(names.get(x, x.strip('"').lower()) for x in terminals if not x.startswith("_"))


def _too_soon(text: str) -> str:
    """What is missing where a move's text ends before the move does."""
    if text.count("[") > text.count("]"):
        return "the move ends too soon: a `[` is not closed; a build's cards go in brackets, e.g. `[4D 5H]`"
    return ENDS_AFTER_ACTION


#: Room for a move's words and a build's value ("trail build 10 on"), beyond its cards.
_WORDS_ROOM = 40


def max_move_length(deck: Deck) -> int:
    """The longest text a move of ``deck`` can need: every card of the deck named once, each with a
    space and a build's brackets, plus the words. Longer text is no move of this deck.

    52 cards: 352 characters; the engine's largest deck, 128 cards: 808. Every reader of a move
    (the terminal's prompt, a record being replayed, a scenario, the browser) refuses longer text
    before parsing it: a 9 MB `capture` took the parser 73 s and 1.8 GB.
    """
    longest = max((len(str(card)) for card in deck.cards), default=3)
    return len(deck.cards) * (longest + 3) + _WORDS_ROOM


def check_move_length(text: str, deck: Deck) -> None:
    """:class:`MoveSyntaxError` when ``text`` is longer than any move of ``deck`` (:func:`max_move_length`)."""
    if len(text) <= 4 * len(deck.cards) + _WORDS_ROOM:
        return   # (within the limit whatever the cards' names: each is one character or more; the usual move)
    limit = max_move_length(deck)
    if len(text) > limit:
        raise MoveSyntaxError(f"{len(text):,} characters is longer than any move: a move is at most {limit:,} "
                              f"characters (one naming every card of the deck)")


def parse_move(text: str, deck: Deck) -> Move:
    """Read one move; :class:`MoveSyntaxError` (with a caret) when it cannot be read. The text
    is the game's notation (:func:`format_move`); whether the move is legal is the engine's to say::

        >>> move = parse_move("4h capture 4c", engine.deck)
        >>> format_move(move, engine.deck), engine.is_legal(state, move)
        ('4H capture 4C', True)
    """
    check_move_length(text, deck)
    try:
        tree = _parser().parse(text)
    except UnexpectedEOF:
        raise _caret(text, len(text) + 1, _too_soon(text)) from None
    except UnexpectedCharacters as e:
        raise _caret(text, e.column, _unreadable(text, e.pos_in_stream, e.allowed or set())) from None
    except UnexpectedToken as e:
        if e.token.type == "$END":
            raise _caret(text, len(text) + 1, _too_soon(text)) from None
        expected = _named(e.accepts or e.expected)
        word = re.match(r"[^\s\[\]+]*", text[e.pos_in_stream:]).group(0) or str(e.token)  # type: ignore[union-attr]
        raise _caret(text, e.column, _unexpected(word, expected)) from None
    except UnexpectedInput as e:  # pragma: no cover - lark's other input errors
        raise _caret(text, getattr(e, "column", 1), "cannot read this move") from None
    if tree.data == "end":
        return Move(MoveKind.END, 0)
    if tree.data == "free_build":
        played = 0
        kind = MoveKind.BUILD
        action = tree
    else:
        played_tree, action = tree.children
        played = _cards(deck, text, played_tree.children, 0)
        kind = {"trail": MoveKind.TRAIL, "capture": MoveKind.CAPTURE, "build": MoveKind.BUILD,
                "trail_build": MoveKind.TRAIL_BUILD}[action.data]
    if kind is MoveKind.TRAIL:
        return Move(kind, played)
    value: int | str | None = None
    items = list(action.children)
    if kind in (MoveKind.BUILD, MoveKind.TRAIL_BUILD):
        vtok = items.pop(0).children[0]
        value = _build_value(text, vtok, deck)
    loose, builds, seen = 0, [], played
    for item in items:
        assert isinstance(item, Tree)
        mask = _cards(deck, text, item.children, seen)
        seen |= mask
        if item.data == "loose":
            loose |= mask
        else:
            builds.append(mask)
    return Move(kind, played, loose, tuple(sorted(builds)), value)


#: The most digits a build's value is read with (as a scenario file's numbers: docs/scenarios.md).
VALUE_DIGITS = 30


def _build_value(text: str, tok: Token, deck: Deck) -> int | str:
    """A build's value: a whole number, or a rank of ``deck`` written as a letter (`J`, `Q`, `K`). An audit's
    `5H build Z on 5S` was read as a build of a rank no deck has, and passed as an illegal move."""
    word = str(tok)
    if tok.type == "NUMBER":
        if len(word) > VALUE_DIGITS:
            raise _caret(text, tok.column, f"a build's value of {len(word)} digits: no build is worth that much "
                                           f"(a value is a whole number of at most {VALUE_DIGITS} digits)")
        return int(word)
    if word.upper() not in deck.ranks:
        letters = [r for r in deck.ranks if not r.isdecimal()]
        ten = " (a build of ten is written `10`)" if word.upper() == "T" else ""
        raise _caret(text, tok.column, f"`{word}` is not a rank of this deck: a build's value is a number or a "
                                       f"rank ({', '.join(letters) or 'none here is a letter'}), e.g. `3H build 8 on "
                                       f"5S`{ten}")
    return word.upper()


def parse_turn(text: str, deck: Deck, free_actions: bool = False) -> list[Move]:
    """Read a turn: its actions in order, joined by ``;`` (one action is a turn of one). In a turn
    of several actions (``free_actions``: ``build.free_actions``) ``X trail build V on ...`` is the
    turn ``X trail; build V on ...`` (the trailed card not in the build), as the trail-and-build
    house rule writes it. A caret points
    into the whole text::

        >>> [format_move(m, engine.deck) for m in parse_turn("4h capture 4c", engine.deck)]
        ['4H capture 4C']
    """
    check_move_length(text, deck)
    steps: list[Move] = []
    start = 0
    for part in text.split(";"):
        if not part.strip():
            raise _caret(text, start + 1, "an empty action: a turn is actions joined by `;`, e.g. "
                                          "`build 10 on 5S 3D 2C; 9D capture 9C`")
        try:
            move = parse_move(part, deck)
        except MoveSyntaxError as e:
            if ";" not in text:
                raise
            first = str(e).splitlines()[0]
            lines = str(e).splitlines()
            caret = lines[-1].index("^") - 4 if lines and "^" in lines[-1] else 0
            raise _caret(text, start + caret + 1, first) from None
        if free_actions and move.kind is MoveKind.TRAIL_BUILD:
            steps.append(Move(MoveKind.TRAIL, move.played))
            steps.append(Move(MoveKind.BUILD, 0, move.loose, move.builds, move.value))
        else:
            steps.append(move)
        start += len(part) + 1
    return steps


def format_turn(moves: list[Move], deck: Deck) -> str:
    """A turn's actions as :func:`parse_turn` reads them, joined by ``; `` (the ``end`` left out
    where it closes the turn)."""
    shown = [m for m in moves if m.kind is not MoveKind.END] or list(moves)
    return "; ".join(format_move(m, deck) for m in shown)
