"""The pictures of "Casino in five minutes": a capture, a build and a sweep, drawn from real positions.

Each picture is a position set up with the engine and a move the engine says is legal there; the
"after" half is the position the engine makes of it, so no picture can show an illegal move or a
wrong result. The cards are drawn as SVG (rounded rectangles with rank and suit), no image files::

    python docs/gen/pictures.py /tmp/pictures      # writes capture.svg, build.svg, sweep.svg there

They are kept as ``docs/img/NAME.svg``, so the page shows them in a clone too: after changing this file,
``python docs/gen/pictures.py docs/img`` draws them again (tests/test_site_nav.py checks they are current).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from html import escape
from pathlib import Path

from cassino import load_rules
from cassino.engine.core import Engine, Position
from cassino.apps.authors.worked_examples import show_move
from cassino.engine.notation import parse_move
from cassino.engine.state import HandState
from cassino.language.cards import Card

CARD_W, CARD_H, GAP = 46, 66, 8
PANEL_W = 300
RED = "#c0392b"
INK = "#222"
MARK = "#e0a100"      # the cards the move plays or takes


@dataclass(frozen=True)
class Picture:
    """One move in a position, with what the page says of it."""

    name: str
    table: tuple[str, ...]
    hand: tuple[str, ...]
    move: str
    caption: str
    builds: tuple[tuple[tuple[str, ...], int, int], ...] = ()


PICTURES = (
    Picture("capture", ("9S", "4C", "5H", "KD"), ("9D", "2C"), "9D capture 9S 4C 5H",
            "Your 9♦ takes the 9♠ (equal) and the 4♣ and 5♥ together (4 + 5 = 9); the K♦ stays."),
    Picture("build", ("2H", "5S", "JC"), ("3D", "10C"), "3D build 10 on 2H 5S",
            "Your 3♦ goes on the 2♥ and 5♠: a build of 10 (2 + 5 + 3), which your 10♣ can take next turn."),
    Picture("sweep", ("3C", "5D"), ("8H", "QS"), "8H capture 3C 5D",
            "Your 8♥ takes the 3♣ and 5♦ (3 + 5 = 8): the table is empty, a sweep."),
)


def _card(x: float, y: float, card: Card, marked: bool) -> str:
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card.suit]
    colour = RED if card.suit in "HD" else INK
    stroke, width = (MARK, 3) if marked else ("#555", 1)
    return (f'<g><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="6" ry="6" fill="#fff" '
            f'stroke="{stroke}" stroke-width="{width}"/>'
            f'<text x="{x + 5}" y="{y + 16}" font-size="14" font-weight="bold" fill="{colour}">{card.rank}</text>'
            f'<text x="{x + 5}" y="{y + 30}" font-size="12" fill="{colour}">{symbol}</text>'
            f'<text x="{x + CARD_W / 2}" y="{y + CARD_H / 2 + 12}" font-size="26" text-anchor="middle" '
            f'fill="{colour}">{symbol}</text></g>')


def _row(x: float, y: float, cards: list[Card], marked: set[Card]) -> list[str]:
    return [_card(x + k * (CARD_W + GAP), y, c, c in marked) for k, c in enumerate(cards)]


def _label(x: float, y: float, text: str, size: int = 13, weight: str = "normal") -> str:
    return f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{INK}">{escape(text)}</text>'


def _build_pile(x: float, y: float, cards: list[Card], value: int | str, marked: set[Card]) -> list[str]:
    out = [_card(x + k * 24, y + k * 4, c, c in marked) for k, c in enumerate(cards)]
    return out + [_label(x, y + CARD_H + 8 + 4 * len(cards), f"build of {value}", 12, "bold")]


def _panel(x: float, title: str, engine: Engine, state: HandState, marked: set[Card], hand_marked: set[Card],
           note: str = "") -> list[str]:
    deck = engine.deck
    out = [_label(x, 22, title, 15, "bold"), _label(x, 44, "Table")]
    loose = list(deck.cards_of(state.table))
    out += _row(x, 52, loose, marked)
    bx = x + len(loose) * (CARD_W + GAP)
    for build in state.builds:
        pile = list(deck.cards_of(build.cards))
        out += _build_pile(bx, 52, pile, build.value, marked)
        bx += CARD_W + 24 * len(pile) + GAP
    if not loose and not state.builds:
        out.append(f'<rect x="{x}" y="52" width="{CARD_W * 2 + GAP}" height="{CARD_H}" rx="6" fill="none" '
                   f'stroke="#aaa" stroke-dasharray="4 3"/>')
        out.append(_label(x + 8, 52 + CARD_H / 2 + 4, note or "empty", 12, "bold"))
    out.append(_label(x, 160, "Your hand"))
    out += _row(x, 168, list(deck.cards_of(state.hands[0])), hand_marked)
    return out


def draw(picture: Picture) -> str:
    """The picture as an SVG document, after checking its move with the engine."""
    rules = load_rules("standard")
    engine = Engine(rules)
    deck = engine.deck
    card = deck.parse
    before = engine.position(Position(
        players=2, to_play=0, hands={0: [card(c) for c in picture.hand], 1: [card("6C"), card("7S")]},
        table=[card(c) for c in picture.table],
        builds=[([card(c) for c in cards], value, owner) for cards, value, owner in picture.builds]))
    move = engine.resolve(before, parse_move(picture.move, deck))
    if move not in engine.legal_moves(before):
        raise ValueError(f"{picture.name}: {picture.move} is not legal in its position")
    after = engine.apply(before, move)
    played = set(deck.cards_of(move.played))
    taken = set(deck.cards_of(move.loose))
    swept = len(after.sweeps) > len(before.sweeps)
    if picture.name == "sweep" and not swept:
        raise ValueError("the sweep picture's move makes no sweep")
    height = 290
    body = _panel(12, "Before", engine, before, taken, played)
    body.append(f'<text x="{PANEL_W - 4}" y="110" font-size="30" fill="{MARK}">→</text>')
    body += _panel(PANEL_W + 30, "After", engine, after, played if move.builds or move.value else set(), set(),
                   "empty: a sweep!" if swept else "")
    words = show_move(rules, engine, move)
    body.append(_label(12, 262, f"The move, as the game writes it: {words}", 13, "bold"))
    width = 2 * PANEL_W + 40
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" role="img" '
            f'aria-label="{escape(picture.caption)}">'
            f'<rect width="{width}" height="{height}" rx="10" fill="#2e7d4f"/>'
            f'<rect x="4" y="4" width="{width - 8}" height="{height - 8}" rx="8" fill="#f4f1e8"/>'
            + "".join(body) + "</svg>\n")


def pictures() -> dict[str, str]:
    """File name -> SVG text, for each picture."""
    return {f"{p.name}.svg": draw(p) for p in PICTURES}


if __name__ == "__main__":   # pragma: no cover
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    out.mkdir(parents=True, exist_ok=True)
    for name, text in pictures().items():
        (out / name).write_text(text, encoding="utf-8")
        print(out / name)
