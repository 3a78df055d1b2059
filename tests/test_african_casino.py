"""African Casino (issue 27): capture-pile tops in play (`capture.from_piles`), deals by player
count (`deal.by_players`), scoring items for some numbers of sides (`scoring.items.*.sides`),
and Swazi and South African Casino through the engine, the CLI, the views and OpenSpiel."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from cassino.engine.core import Engine, Position
from cassino.engine.moves import Move, MoveKind
from cassino.engine.notation import parse_move
from cassino.engine.state import HandState
from cassino.language.variants import load_rules

from conftest import ROOT, VARIANTS, validate_refuses

EXAMPLES = ROOT / "examples"


def _engine(name: str) -> Engine:
    return Engine(load_rules(name))


def _cards(engine: Engine, *names: str) -> list:  # type: ignore[type-arg]
    return [engine.deck.parse(n) for n in names]


def _mask(engine: Engine, *names: str) -> int:
    return engine.deck.mask(_cards(engine, *names))


def _move(engine: Engine, state: HandState, text: str) -> Move:
    return parse_move(text, engine.deck)


# ---------------------------------------------------------------------- the deal by player count
@pytest.mark.parametrize("name, players, hand, table, stock", [
    ("swazi-casino", 2, 12, 4, 24), ("swazi-casino", 3, 16, 4, 0), ("swazi-casino", 4, 12, 4, 0),
    ("south-african-casino", 2, 10, 0, 20), ("south-african-casino", 3, 13, 1, 0),
    ("south-african-casino", 4, 10, 0, 0),
])
def test_the_deal_depends_on_the_number_of_players(name: str, players: int, hand: int, table: int,
                                                   stock: int) -> None:
    engine = _engine(name)
    for seed in range(3):
        state = engine.start(seed, players)
        assert [bin(h).count("1") for h in state.hands] == [hand] * players
        assert bin(state.table).count("1") == table
        assert len(state.stock) == stock


def test_every_other_variant_keeps_no_pile_order() -> None:
    for name in VARIANTS:
        engine = _engine(name)
        state = engine.start(1, engine.rules.seats.min_players)
        if name in ("swazi-casino", "south-african-casino"):    # (the Khasino rules: tops in play, issue 36)
            assert state.stacks == ((), ())
        else:
            assert state.stacks == () and state.in_play() == state.table


# ---------------------------------------------------------------------- pile tops in the engine
def test_a_taken_top_leaves_its_pile_and_the_capturing_card_goes_on_top() -> None:
    """The 6H augments the 9C on the table (a base: the Khasino rules), the 3C with it."""
    engine = _engine("swazi-casino")
    state = engine.position(Position(players=2, hands={0: _cards(engine, "9D", "2C"), 1: _cards(engine, "9S")},
                                     table=_cards(engine, "9C", "3C", "9H"), captured={1: _cards(engine, "4H", "6H")}))
    # The top, and the card under it (in play for a later set of the same move: pile_reach).
    assert state.pile_tops() == _mask(engine, "4H", "6H")
    after = engine.play(state, _move(engine, state, "9D capture 9C 6H 3C"))
    d = engine.deck
    mine = [str(d.cards[i]) for i in after.stacks[0]]
    assert mine[-1] == "9D" and sorted(mine[:-1]) == ["3C", "6H", "9C"]   # the capturing card on top
    assert [str(d.cards[i]) for i in after.stacks[1]] == ["4H"]
    assert after.piles[1] == _mask(engine, "4H")
    assert after.piles[0] == _mask(engine, "3C", "6H", "9C", "9D")
    # The turn stays open while cards are in play to build with (9H, the tops); it ends when seat 0 says so.
    assert after.turn == 0 and engine.legal_moves(after)[-1].kind is MoveKind.END
    after = engine.close_turn(after)
    assert after.turn == 1
    # Seat 1 now sees seat 0's pile from its top, the nine, and not its own four.
    assert after.in_play() == after.table | after.piles[0] and not after.in_play() & after.piles[1]
    nine = _mask(engine, "9D")
    captures = [m for m in engine.legal_moves(after) if m.kind is MoveKind.CAPTURE]
    assert _mask(engine, "9H", "9D") in [m.loose for m in captures]
    assert all(m.loose & nine for m in captures if m.loose & after.piles[0])   # the top first
    assert not engine.is_legal(after, _move(engine, after, "9S capture 9D"))    # a top alone: never


def test_partners_share_one_pile_whose_top_only_the_opponents_may_take() -> None:
    engine = _engine("swazi-casino")
    state = engine.position(Position(players=4, partners=True, hands={0: _cards(engine, "7C", "5C")},
                                     captured={2: _cards(engine, "7H"), 0: _cards(engine, "2H"),
                                               1: _cards(engine, "5D"), 3: _cards(engine, "9D")}))
    assert len(state.stacks) == 2
    # Side 0's pile is seat 0's list then seat 2's: 2H, 7H (top); side 1's: 5D, 9D (top). Side 1's
    # cards are in reach for seat 0 (the 5D only once the 9D is taken), none of side 0's.
    assert state.pile_tops() == _mask(engine, "5D", "9D")
    assert [state.stacks[1][-1]] == [engine.deck.index(engine.deck.parse("9D"))]
    reason = engine.why_illegal(state, _move(engine, state, "7C capture 7H"))
    assert "your own side's capture pile" in reason
    reason = engine.why_illegal(state, _move(engine, state, "5C capture 5D"))
    assert "lies under 9D" in reason


def test_a_capture_of_pile_tops_alone_is_no_sweep_but_with_the_last_table_card_it_is() -> None:
    """Tops alone are taken only where a top is a loose card (examples/swazi-tops-taken.yaml);
    in the bundled game a top augments the last table card, and the sweep counts that card."""
    engine = Engine(load_rules(str(EXAMPLES / "swazi-tops-taken.yaml")))
    state = engine.position(Position(players=2, hands={0: _cards(engine, "6C", "2C"), 1: _cards(engine, "KS")},
                                     captured={1: _cards(engine, "6H")}))
    after = engine.play(state, _move(engine, state, "6C capture 6H"))
    assert after.sweeps == ()
    engine = _engine("swazi-casino")
    state = engine.position(Position(players=2, hands={0: _cards(engine, "9C", "2C"), 1: _cards(engine, "KS")},
                                     table=_cards(engine, "9S"), captured={1: _cards(engine, "9H")}))
    after = engine.play(state, _move(engine, state, "9C capture 9S 9H"))
    assert [w.size for w in after.sweeps] == [1]     # the table card only


def test_the_lazy_move_walk_offers_pile_tops_as_the_generator_does() -> None:
    from cassino.engine.choices import MoveChoices

    engine = _engine("swazi-casino")
    state = engine.position(Position(players=2, hands={0: _cards(engine, "9D", "2C")},
                                     table=_cards(engine, "9C", "3C"), captured={1: _cards(engine, "6H")}))
    mc = MoveChoices(engine.tables, state)
    assert engine.deck.index(engine.deck.parse("6H")) in mc.g.loose_cards
    move = _move(engine, state, "9D capture 9C 6H 3C")
    assert mc.item_positions(move) is not None and engine.is_legal(state, move)


# ---------------------------------------------------------------------- validate
BAD = {
    "a deal row for a count the game does not seat": (
        "deal:\n  by_players:\n    - {players: 6, hand_size: 4}\n", "standard", "a deal for 6 players"),
    "a deal row given twice": (
        "deal:\n  by_players:\n    - {players: 3, hand_size: 16}\n    - {players: 3, hand_size: 16}\n",
        "swazi-casino", "given twice"),
    "a deal row that does not deal out": (
        "deal:\n  by_players:\n    - {players: 3, hand_size: 5}\n", "swazi-casino", "does not deal out exactly"),
    "a deal row without players": ("deal:\n  by_players:\n    - {hand_size: 4}\n", "standard", "players"),
    "a deal row of the wrong type": ("deal:\n  by_players: {\"3\": 16}\n", "standard", "by_players"),
    "a hand size of the wrong type": (
        "deal:\n  by_players:\n    - {players: 3, hand_size: many}\n", "standard", "hand_size"),
    "deal rows with drawing": ("deal:\n  draw_after_play: true\n  by_players:\n    - {players: 2, hand_size: 4}\n",
                               "standard", "drawing after each play"),
    "an unknown pile setting": ("capture:\n  from_piles: all\n", "standard", "from_piles"),
    "pile tops with a capture total": ("capture:\n  from_piles: opponents_top\n", "escoba", "not by a total"),
    "sides the game never has": ("scoring:\n  items:\n    cards: {sides: [5]}\n", "standard", "never has 5 sides"),
    # (a house rule's one row of `by_players` replaced its parent's rows: told to give every row)
    "one deal row replacing the parent's": ("deal:\n  by_players:\n    - {players: 4, hand_size: 5}\n",
                                            "south-african-casino",
                                            "a list in a house rule replaces its parent's whole list: give every row"),
    # (four who always play in two teams are never four sides: an African house rule's audit found it accepted)
    "four sides where four always play in teams": (
        "seats:\n  partnerships: always\nscoring:\n  items:\n    cards: {sides: [4]}\n", "swazi-casino",
        "never has 4 sides (it seats 2 to 4 players; 4 always play in teams of 2)"),
    "sides of the wrong type": ("scoring:\n  items:\n    cards: {sides: two}\n", "standard", "sides"),
    "sides given twice": ("scoring:\n  items:\n    cards: {sides: [2, 2]}\n", "standard", "twice"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_hostile_settings_are_refused_with_their_place(cli, tmp_path: Path, case: str) -> None:  # type: ignore[no-untyped-def]
    said = validate_refuses(cli, tmp_path, *BAD[case])
    assert "house.yaml:" in said


def test_a_deal_row_that_does_not_add_up_is_reported_at_its_row(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "house.yaml"
    path.write_text("name: house\nextends: swazi-casino\ndeal:\n  by_players:\n    - {players: 3, hand_size: 5}\n",
                    encoding="utf-8")
    code, out, err = cli("validate", str(path))
    assert code == 2 and "house.yaml:5:" in out + err and "with 3 players" in out + err, (out, err)


# ---------------------------------------------------------------------- scoring by sides
def test_most_cards_and_spades_count_only_with_two_sides() -> None:
    from cassino.engine.scoring import Scorer

    engine = _engine("south-african-casino")
    for players, partners, total in ((2, False, 11), (3, False, 7), (4, False, 7), (4, True, 11)):
        state = engine.start(5, players, partners=partners)
        while not state.over:
            state = engine.apply(state, engine.legal_moves(state)[0])
        points, by_item = Scorer(engine).hand_points(state)
        assert sum(points.values()) == total, (players, partners)
        assert (sum(by_item["cards"].values()) > 0) == (total == 11)


# ---------------------------------------------------------------------- the players and the views
def test_the_computer_players_finish_games_that_take_pile_tops(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("simulate", "swazi-casino", "--games", "3", "--players", "3")
    assert code == 0, err
    assert "games won" in out


def test_the_search_player_and_the_solver_see_pile_tops() -> None:
    from cassino.engine.scoring import Scorer
    from cassino.players.solver import Solver

    engine = _engine("swazi-casino")
    state = engine.position(Position(players=2, hands={0: _cards(engine, "10C"), 1: _cards(engine, "KS")},
                                     table=_cards(engine, "QD", "10H"), captured={1: _cards(engine, "10D")},
                                     stock=[]))
    move = Solver(engine, Scorer(engine), side=0).best_move(state)
    assert move.loose == _mask(engine, "10H", "10D")   # the 10D from seat 1's pile, on the table's ten


def test_the_browser_view_shows_each_sides_top_and_names_it_in_move_words() -> None:
    from cassino.apps.web.views import move_words, pile_top

    engine = _engine("swazi-casino")
    state = engine.position(Position(players=2, hands={0: _cards(engine, "9D")},
                                     table=_cards(engine, "9C", "3C"), captured={1: _cards(engine, "4H", "6H")}))
    assert pile_top(engine.deck, state, 1) == "6H" and pile_top(engine.deck, state, 0) is None
    words = move_words(engine, state, _move(engine, state, "9D capture 9C 6H 3C"))
    assert "from the top of an opponent's pile" in words
    plain = _engine("standard")
    assert pile_top(plain.deck, plain.start(1, 2), 0) is None


def test_openspiel_observations_carry_the_pile_tops() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import cassino.openspiel  # noqa: F401

    game = pyspiel.load_game("python_cassino", {"variant": "swazi-casino"})
    state = game.new_initial_state()
    rng = random.Random(4)
    seen_top = False
    while not state.is_terminal() and not seen_top:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        hand = state.cassino_game.hand
        seen_top = bool(hand.stacks and any(hand.stacks))
    assert seen_top
    from open_spiel.python.observation import make_observation

    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    obs.set_from(state, 0)
    tops = obs.dict["pile_tops"]
    hand = state.cassino_game.hand
    for seat in range(hand.players):
        stack = hand.stacks[hand.teams[seat]]
        assert list(np.flatnonzero(tops[seat])) == ([stack[-1]] if stack else [])
    assert "pile top" in state.observation_string(0)
    plain = pyspiel.load_game("python_cassino", {"variant": "royal"})
    plain_obs = make_observation(plain, pyspiel.IIGObservationType(perfect_recall=False))
    assert "pile_tops" not in plain_obs.dict


def test_how_to_play_and_the_utility_bounds_read_the_deal_by_player_count() -> None:
    from cassino.apps.game.howto import how_to_play
    from cassino.apps.research.utility_bounds import cards_per_seat

    swazi = load_rules("swazi-casino")
    text = how_to_play(swazi)
    assert "with 3 players, 16 each" in text and "top card of each opponent's pile" in text
    assert cards_per_seat(swazi, 52, 3) == 16 and cards_per_seat(swazi, 52, 2) == 24
    south = load_rules("south-african-casino")
    assert cards_per_seat(south, 40, 3) == 13
    assert "(only with 2 sides)" in how_to_play(south)


def test_explain_shows_a_deal_row_without_inventing_an_unset_value(cli) -> None:  # type: ignore[no-untyped-def]
    """Swazi Casino's three-player row sets only the hand size: the table cards stay the deal's
    (4), so explain must not print them as "none" (which reads as no table cards)."""
    code, out, err = cli("explain", "swazi-casino")
    assert code == 0, err
    row = next(line for line in out.splitlines() if "by_players =" in line)
    assert "players 3, hand_size 16" in row and "none" not in row


# ---------------------------------------------------------------------- a raise and the cards kept for builds
def _raise_position(engine: Engine, own_build_of_one: bool) -> HandState:
    """Swazi, four in partnerships, seat 1 to play: an opponent's single build of 10 [3D 7C], the partner's
    (seat 3's) build of 14 [2S 4S 8S], and, where asked, seat 1's own build of 1 [AS AC]. Seat 1 holds the
    last ace (1 or 14) and raises the 10 to 14 with the 4C, joining the partner's build (found by
    benchmarks/african_compare.py against the clean-room reference, seed 7310, ply 133)."""
    builds = [(_cards(engine, "2S", "4S", "8S"), 14, 3), (_cards(engine, "3D", "7C"), 10, 2),
              (_cards(engine, "2H", "2C"), 2, 1)]
    hands = {1: _cards(engine, "AD", "2D", "4C", "6D", "9S"), 3: _cards(engine, "AH", "9H"),
             2: _cards(engine, "10H", "QH"), 0: _cards(engine, "KH", "KS")}
    if own_build_of_one:
        builds.append((_cards(engine, "AS", "AC"), 1, 1))
    else:
        hands[0] = hands[0] + _cards(engine, "AS", "AC")
    return engine.position(Position(players=4, partners=True, to_play=1, hands=hands, builds=builds))


@pytest.mark.parametrize("own_build_of_one", [True, False])
def test_a_raise_needs_a_card_of_the_new_value_not_kept_for_another_build(own_build_of_one: bool) -> None:
    """[Kh] 3. Changing the value of a single build: "you have a card in your hand that matches the new value of
    the build"; the Swazi file's reading of build.keep_capturing_card: one card answers for one build value, an
    ace kept for a build of 1 not also for one of 14. So the raise to 14 stands only where the ace is free."""
    engine = _engine("swazi-casino")
    state = _raise_position(engine, own_build_of_one)
    assert any(b.value == 1 and b.holder == 1 for b in state.builds) is own_build_of_one
    move = engine.resolve(state, _move(engine, state, "4C build 14 on [2S 4S 8S] [3D 7C]"))
    listed = move in engine.legal_moves(state)
    reason = engine.turn_rules.refusal(state, move)
    assert listed is not own_build_of_one
    assert (reason is None) is not own_build_of_one
    assert engine.turn_rules.refuses(state, move) is own_build_of_one
    if own_build_of_one:
        assert reason is not None and "the one you keep for another of your builds" in reason
