"""Every listing of legal moves is bounded: a valid rule file or a position can no longer
make the engine work for minutes (issue 35's big-table file froze a whole server).

The budget is counted, not timed (``Engine.move_budget``): the same position is listed or
refused the same way on every machine. Beyond it, a move is still checked and played, and
the computer players choose among a sample found by the lazy walk.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cassino.engine.core import Engine, Position
from cassino.engine.game import Game
from cassino.engine.moves import MoveKind
from cassino.engine.notation import format_move
from cassino.errors import PositionTooLargeError
from cassino.language.variants import load_rules
from cassino.players.bots import make_bot

from conftest import validate_refuses


def _big_escoba(tmp_path: Path, deal: str = "{table_cards: 20, hand_size: 10}") -> Engine:
    rule = tmp_path / "big.yaml"
    rule.write_text(f"name: big\nextends: escoba\ndeck: {{packs: 3}}\nseats: {{max_players: 2}}\ndeal: {deal}\n",
                    encoding="utf-8")
    return Engine(load_rules(rule))


def _hundred_card_table(engine: Engine):  # type: ignore[no-untyped-def]
    cards = list(engine.deck.cards)
    return engine.position(Position(players=2, hands={0: cards[:10], 1: cards[10:20]}, table=cards[20:120]))


def test_validate_refuses_a_deal_of_more_table_cards_than_the_engine_lists(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = validate_refuses(cli, tmp_path, "deck: {packs: 3}\nseats: {max_players: 2}\n"
                           "deal: {table_cards: 100, hand_size: 10, dealer_takes_total: false}\n",
                           "escoba", "the deal puts 100 cards on the table")
    assert "house.yaml:5:" in out and "at most 24" in out


def test_validate_refuses_it_in_a_by_players_row_at_that_row(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = validate_refuses(cli, tmp_path, "deck: {packs: 3}\ndeal:\n  by_players:\n"
                           "    - {players: 2, hand_size: 10, table_cards: 40}\n",
                           "escoba", "the deal puts 40 cards on the table")
    assert "house.yaml:6:" in out


def test_the_largest_deal_validate_allows_is_listed(tmp_path: Path) -> None:
    engine = _big_escoba(tmp_path, "{table_cards: 24, hand_size: 8}")
    state = engine.start(seed=3, players=2)
    assert bin(state.table).count("1") == 24
    assert engine.count_moves(state) > 0


def test_the_dealers_sweeps_of_a_large_table_are_bounded(tmp_path: Path) -> None:
    """Escoba's dealer takes an initial table that splits into sets of 15: the most sets is a
    search over ways to split. Within the budget it is found; below it, a clear error, never
    a search of minutes."""
    engine = _big_escoba(tmp_path, "{table_cards: 24, hand_size: 8, dealer_takes_total: true}")
    for seed in range(3):
        engine.start(seed=seed, players=2)
    engine.move_budget = 20
    with pytest.raises(PositionTooLargeError):
        for seed in range(50):
            engine.start(seed=seed, players=2)


def test_a_hundred_card_table_is_refused_yet_every_computer_player_moves(tmp_path: Path) -> None:
    engine = _big_escoba(tmp_path)
    state = _hundred_card_table(engine)
    with pytest.raises(PositionTooLargeError, match="100 table items"):
        engine.legal_moves(state)
    game = Game.new(engine, seed=1, players=2).with_(hand=state)
    for kind in ("random", "greedy", "search"):
        bot = make_bot(kind, seed=2)
        move = bot.choose(game, 0)
        assert engine.is_legal(state, move), (kind, format_move(move, engine.deck))
        after = game.play(move)
        assert after.hand.turn == 1


def test_the_sample_is_deterministic_and_covers_every_hand_card(tmp_path: Path) -> None:
    engine, other = _big_escoba(tmp_path), _big_escoba(tmp_path)
    first = engine.some_moves(_hundred_card_table(engine), 64)
    again = other.some_moves(_hundred_card_table(other), 64)
    assert [format_move(m, engine.deck) for m in first] == [format_move(m, other.deck) for m in again]
    assert 10 <= len(first) <= 64
    assert len({m.played for m in first}) == 10           # every hand card has its share
    assert {m.kind for m in first} <= {MoveKind.CAPTURE, MoveKind.TRAIL}
    assert all(engine.is_legal(_hundred_card_table(engine), m) for m in first)


def test_a_budget_below_one_is_refused() -> None:
    engine = Engine(load_rules("standard"))
    with pytest.raises(ValueError, match="at least 1"):
        engine.move_budget = 0


def test_beyond_the_budget_two_packs_offer_the_same_sample_whichever_copy_lies_where() -> None:
    """Two packs: a position and its twin with the copies of a few cards changed places (the hand's copy on
    the table, the table's in the hand) are one position to the players, and the computer players and the
    OpenSpiel game choose among the same sample (a soak found the game's sample naming a move the mirror's,
    dealt the other copies, did not: `IllegalStep` for a legal move)."""
    engine = Engine(load_rules("krypkasino"))
    deck, size = engine.deck, engine.deck.pack_size
    low = [c for c in deck.cards[:size] if c.rank in ("A", "2", "3", "4", "5")]
    hand = [c for c in deck.cards[:size] if c.rank in ("6", "7", "8", "9")][:3] + low[:2]
    state = engine.position(Position(players=2, hands={0: hand}, table=low[:18]))
    with pytest.raises(PositionTooLargeError):
        engine.move_keys(state)
    # The twin: each card held in the hand and lying on the table too swaps copies between them.
    twin_hand, twin_table = state.hands[0], state.table
    for c in range(size):
        for here, there in ((c, c + size), (c + size, c)):
            if state.hands[0] >> here & 1 and state.table >> there & 1:
                twin_hand ^= (1 << here) | (1 << there)
                twin_table ^= (1 << here) | (1 << there)
    assert twin_hand != state.hands[0]
    twin = state.with_(hands=(twin_hand,) + state.hands[1:], table=twin_table)

    def names(mask: int) -> tuple[int, ...]:
        return tuple(sorted(c % size for c in range(2 * size) if mask >> c & 1))

    def by_name(moves):  # type: ignore[no-untyped-def]
        return [(m.kind, names(m.played), names(m.loose), sorted(names(b) for b in m.builds), m.value) for m in moves]

    ours, theirs = engine.playable_moves(state), engine.playable_moves(twin)
    assert ours and by_name(ours) == by_name(theirs)
    assert all(engine.is_legal(state, m) for m in ours) and all(engine.is_legal(twin, m) for m in theirs)
    assert [m.played for m in ours] != [m.played for m in theirs]   # (the copies differ, the moves are alike)
