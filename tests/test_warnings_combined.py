"""`--warn` as the variant's rules have it: the next player's unseen cards tried as it may play them (several
together where ``capture.hand_cards.max`` is above 1: Hungarian Casino), and a sweep warned of only where it
would score (not in Finnish Kasino once a side has 10 points).

A player's audit found the warnings naming single cards only in Hungarian ("seat 1 may hold one of 10S, 10H,
10C"), never the 4 and 6 that take a lone 10 together, and asking "this leaves a sweep ... play it anyway?" in
Finnish Kasino's hands where sweeps score nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from cassino.apps.learning.warnings import Warning, warnings_for
from cassino.engine.game import Game
from cassino.engine.notation import parse_move

from conftest import position_at

#: Every ace, 2, 3, 4 and 5: with them all seen, no two or three other cards make 10.
LOW = [rank + suit for rank in ("A", "2", "3", "4", "5") for suit in "SHDC"]
VALUES = {"A": 1, "J": 11, "Q": 12, "K": 13}

#: Seat 0 takes the 4 and leaves the big casino alone; 10H is in its hand, 10S and 10C in its pile.
HANDS = {0: ["4H", "10H", "KS"], 1: ["QH", "QD", "QC"]}
TABLE = ["10D", "4C"]
TENS = ["10S", "10C"]


def _game(variant: str, hands: dict[int, list[str]], table: list[str], captured: dict[int, list[str]] | None = None,
          scores: dict[int, int] | None = None) -> Game:
    engine, state = position_at(variant, hands, table, captured=captured)
    return Game.at(engine, state, scores)


def _warned(game: Game, text: str) -> dict[str, Warning]:
    return {w.kind: w for w in warnings_for(game, parse_move(text, game.engine.deck))}


def _value(card: str) -> int:
    return VALUES.get(card[:-1]) or int(card[:-1])


@pytest.mark.parametrize("variant", ["hungarian", "hungarian-ulmann"])
def test_a_sweep_only_cards_played_together_can_make_is_warned_of(variant: str) -> None:
    """Every ten but the 10D is seen: no single card of seat 1's takes it, but two or three played together do
    (4 and 6, 3 and 7, 2, 3 and 5). The warning says so, with a set or two of unseen cards; and the same whatever
    seat 1 really holds. Taking both cards (4H and 10H together take 4C and 10D) leaves nothing: no warning."""
    game = _game(variant, HANDS, TABLE, captured={0: TENS})
    found = _warned(game, "4H capture 4C")
    sweep = found["sweep"]
    assert "seat 1 may hold cards that together make 10 (such as " in sweep.text, sweep.text
    assert "which would take everything on the table" in sweep.text
    seen = set(HANDS[0]) | set(TABLE) | set(TENS)
    sets = [taker.split("+") for taker in sweep.takers]
    assert 1 <= len(sets) <= 2 and all(len(cards) >= 2 for cards in sets), sweep.takers
    for cards in sets:
        assert sum(_value(c) for c in cards) == 10 and not seen & set(cards), cards
        assert " and ".join(cards[-2:]) in sweep.text
    big = found["scoring-card"]   # (the 10D could have been taken this turn: leaving it is warned of too)
    assert big.cards == ("10D",) and "together make 10" in big.text and all("+" in t for t in big.takers)
    # seat 1's hand is hidden: holding the very cards named, or none of them, changes nothing
    holding = _game(variant, {0: HANDS[0], 1: sets[0] + ["KD"]}, TABLE, captured={0: TENS})
    assert warnings_for(holding, parse_move("4H capture 4C", game.engine.deck)) == tuple(found.values())
    assert _warned(game, "4H+10H capture 4C 10D") == {}


@pytest.mark.parametrize("variant", ["hungarian", "hungarian-ulmann"])
def test_sets_of_seen_cards_are_never_warned_of(variant: str) -> None:
    """With every ace to 5 seen as well (captured), no two or three unseen cards make 10: nothing is warned of.
    With the 3S alone left unseen, only the 3S with a seven can: that is what the warning names."""
    seen = [c for c in LOW if c not in HANDS[0] + TABLE]
    game = _game(variant, HANDS, TABLE, captured={0: TENS + seen})
    assert _warned(game, "4H capture 4C") == {}
    left = _game(variant, HANDS, TABLE, captured={0: TENS + [c for c in seen if c != "3S"]})
    sweep = _warned(left, "4H capture 4C")["sweep"]
    assert sweep.takers and all(t.startswith("3S+7") for t in sweep.takers), sweep.takers
    assert "(such as 3S and 7" in sweep.text


def test_one_card_a_turn_is_warned_of_as_before(tmp_path: Path) -> None:
    """Standard plays one card a turn: the big casino trailed with every other ten seen is safe, though a 4 and
    a 6 are unseen, and Hoyle's sweep warning reads as it did. Let two cards capture their total (a house rule)
    and the same trail is warned of, naming two unseen cards that make 10."""
    hands = {0: ["10D", "9C", "KS"], 1: ["KH", "QH", "JH"]}
    tens = {0: ["10S", "10H", "10C"]}
    assert "scoring-card" not in _warned(_game("standard", hands, ["3H"], captured=tens), "10D trail")
    hoyle = _game("hoyle", {0: ["9C", "2D", "KS"], 1: ["KH", "QH", "JH"]}, ["4H"])
    assert [w.text for w in warnings_for(hoyle, parse_move("2D trail", hoyle.engine.deck))] == [
        "this leaves a sweep: seat 1 may hold one of 6S, 6H, 6D, 6C, which would take everything on the table"]
    rule = tmp_path / "two-together.yaml"
    rule.write_text("name: two-together\ndescription: standard, two hand cards capturing their total\n"
                    "extends: standard\nbuild:\n  allowed: false\ncapture:\n  hand_cards: {max: 2, combine: total}\n",
                    encoding="utf-8")
    big = _warned(_game(str(rule), hands, ["3H"], captured=tens), "10D trail")["scoring-card"]
    assert big.text.startswith("this trails 10D, a scoring card: seat 1 may take it with cards that together make 10")
    assert all(len(t.split("+")) == 2 and sum(_value(c) for c in t.split("+")) == 10 for t in big.takers), big.takers


def test_no_sweep_warning_where_sweeps_score_nothing() -> None:
    """Finnish Kasino: from the hand in which any side has 10 points, nobody's sweeps score (`endgame.sweeps_from`
    read from any side's score). Trailing the 2D leaves 4H and 2D, which a 6 sweeps: warned of at 3 and 9 points,
    not at 10 and 3 nor at 3 and 10."""
    hands = {0: ["2D", "KS", "9C"], 1: ["KH", "QH", "JH"]}
    before = _game("finnish-kasino", hands, ["4H"], scores={0: 3, 1: 9})
    assert _warned(before, "2D trail")["sweep"].takers == ("6S", "6H", "6D", "6C")
    for scores in ({0: 10, 1: 3}, {0: 3, 1: 10}):
        late = _game("finnish-kasino", hands, ["4H"], scores=scores)
        assert "sweep" not in _warned(late, "2D trail"), scores


def test_a_sweep_is_left_out_only_where_it_scores_nothing_for_its_maker(tmp_path: Path) -> None:
    """A house rule on Hoyle: a side's own sweeps score nothing from its 10 points (`sweeps_from_side: own`). The
    next player's sweep is still a risk when the mover's side has 10 points, and none when the next player's has."""
    rule = tmp_path / "sweeps-to-ten.yaml"
    rule.write_text("name: sweeps-to-ten\ndescription: Hoyle, a side's sweeps scoring nothing from its 10 points\n"
                    "extends: hoyle\nendgame:\n  sweeps_from: 10\n", encoding="utf-8")
    hands = {0: ["2D", "KS", "9C"], 1: ["KH", "QH", "JH"]}
    assert "sweep" in _warned(_game(str(rule), hands, ["4H"], scores={0: 10, 1: 3}), "2D trail")
    assert "sweep" not in _warned(_game(str(rule), hands, ["4H"], scores={0: 3, 1: 10}), "2D trail")
