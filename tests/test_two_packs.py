"""Two packs (deck.packs, issue 27's Krypkasino): identical cards end to end.

The copies of a card are one card for play: the move list names a move once, notation
names either copy by the one name and resolves it against the position, scenario files may
place a card as often as the packs hold it, records replay, and scoring selectors count
every copy. Hostile settings are refused by `validate` with a located one-line error.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from cassino.apps.game.records import Record, replay
from cassino.engine.core import MAX_CARDS, Engine, Position
from cassino.engine.game import Game
from cassino.engine.moves import IllegalMoveError, MoveSyntaxError
from cassino.engine.notation import format_move, parse_move
from cassino.language.variants import load_rules

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def kryp() -> Engine:
    return Engine(load_rules("krypkasino"))


def _pos(engine: Engine, hand: str, table: str, players: int = 2) -> object:
    deck = engine.deck
    return engine.position(Position(players=players, hands={0: [deck.parse(c) for c in hand.split()]},
                                    table=[deck.parse(c) for c in table.split()]))


def test_the_deck_holds_every_card_twice_under_one_name(kryp: Engine) -> None:
    deck = kryp.deck
    assert len(deck) == 104 and deck.packs == 2 and kryp.n_cards == 104
    ten = deck.parse("10D")
    first, second = deck.copies(ten)
    assert second == first + 52
    assert str(deck.cards[first]) == str(deck.cards[second]) == "10D"


def test_a_ten_in_hand_takes_its_twin_on_the_table_by_name(kryp: Engine) -> None:
    state = _pos(kryp, "10D 3H", "10D 3C")
    texts = sorted(format_move(m, kryp.deck) for m in kryp.legal_moves(state))
    assert texts == ["10D capture 10D", "3H capture 3C"]
    after = kryp.play(state, parse_move("10D capture 10D", kryp.deck))
    assert [str(c) for c in kryp.deck.cards_of(after.piles[0])] == ["10D", "10D"]
    assert [str(c) for c in kryp.deck.cards_of(after.table)] == ["3C"]


def test_identical_cards_on_the_table_make_each_move_once(kryp: Engine) -> None:
    state = _pos(kryp, "5C", "5H 5H 9C")
    texts = [format_move(m, kryp.deck) for m in kryp.legal_moves(state)]
    assert sorted(texts) == ["5C capture 5H", "5C capture 5H 5H"]
    assert len(kryp.move_keys(state)) == len(set(kryp.move_keys(state))) == 2


def test_two_identical_cards_in_hand_play_as_one_card(kryp: Engine) -> None:
    state = _pos(kryp, "7S 7S", "KC QD")
    texts = [format_move(m, kryp.deck) for m in kryp.legal_moves(state)]
    assert texts == ["7S trail"]


def test_random_positions_list_no_move_twice_by_name(kryp: Engine) -> None:
    rng = random.Random(5)
    for seed in range(40):
        game = Game.new(kryp, seed, 2)
        while not game.over and game.hand.ply < 30:
            moves = game.legal_moves()
            names = [format_move(m, kryp.deck) for m in moves]
            assert len(names) == len(set(names)), names
            game = game.play(rng.choice(moves))


def test_a_card_named_more_often_than_the_packs_hold_it_is_refused(kryp: Engine) -> None:
    with pytest.raises(MoveSyntaxError, match="5H is named more times than the deck's 2 packs hold it"):
        parse_move("5C capture 5H 5H 5H", kryp.deck)


def test_a_card_named_twice_where_one_copy_lies_is_refused_not_read_as_one(kryp: Engine) -> None:
    """A player's `8S capture 8D 8D` with one 8D on the table was played as `8S capture 8D` and recorded as typed
    (the second name was matched to the copy the first had taken): it names a card that is not there. Where both
    copies lie there, the same words are the capture of both."""
    state = _pos(kryp, "8S 3H", "8D 4C")
    twice = parse_move("8S capture 8D 8D", kryp.deck)
    assert not kryp.is_legal(state, twice)
    assert kryp.why_illegal(state, twice).endswith("8D is named twice, but only one 8D is loose on the table")
    with pytest.raises(IllegalMoveError):
        kryp.play(state, twice)
    both = _pos(kryp, "8S 3H", "8D 8D 4C")
    after = kryp.play(both, twice)
    assert [str(c) for c in kryp.deck.cards_of(after.piles[0])] == ["8S", "8D", "8D"]
    assert kryp.why_illegal(state, parse_move("8S capture 8D", kryp.deck)).endswith("nothing refuses it")


def test_a_move_is_legal_only_with_as_many_copies_in_play_as_it_names(tmp_path: Path) -> None:
    """The space behind the player's `8S capture 8D 8D`: in random positions of Krypkasino and of standard
    Casino on two packs (with building), every legal move with one of its table cards named once more is legal
    only where that many copies of it are in play, and then takes them all; and a played card named twice is
    legal only where the hand holds both (which no listing names, so never here)."""
    from collections import Counter

    rng = random.Random(86)
    checked = 0
    for engine in (Engine(load_rules("krypkasino")), _two_pack_standard(tmp_path)):
        deck = engine.deck
        for seed in range(25):
            game = Game.new(engine, seed, 2)
            while not game.over and game.hand.ply < 40:
                state = game.hand
                names = Counter(str(c) for c in deck.cards_of(state.in_play()))
                for move in engine.legal_moves(state):
                    text = format_move(move, deck)
                    taken = [str(c) for c in deck.cards_of(move.loose)]
                    for name in set(taken):
                        try:
                            more = parse_move(f"{text} {name}" if move.kind.value == "capture" else "", deck)
                        except MoveSyntaxError:
                            continue   # (named more often than the packs hold it, or not a capture)
                        wanted = taken.count(name) + 1
                        legal = engine.is_legal(state, more)
                        assert legal == (names[name] >= wanted and engine.is_legal(
                            state, engine.resolve(state, more))), (text, name, names[name])
                        if legal:
                            after = engine.play(state, more)
                            took = Counter(str(c) for c in deck.cards_of(state.in_play() & ~after.in_play()))
                            assert took[name] >= wanted
                        checked += 1
                game = game.play(rng.choice(game.legal_moves()))
    assert checked > 1000


def test_one_pack_still_refuses_a_card_named_twice() -> None:
    engine = Engine(load_rules("standard"))
    with pytest.raises(MoveSyntaxError, match="10D is named twice"):
        parse_move("10D capture 10D", engine.deck)


def test_scoring_counts_both_copies_42_points_in_all(kryp: Engine) -> None:
    from cassino.engine.scoring import Scorer

    scorer = Scorer(kryp)
    state = kryp.position(Position(players=2, captured={0: list(kryp.deck.cards)}))
    assert bin(state.piles[0]).count("1") == 104
    assert scorer.hand_points(state)[0] == {0: 42, 1: 0}
    storan = next(i for i in kryp.rules.scoring.items if i.name == "storan")
    both = kryp.position(Position(players=2, captured={0: [kryp.deck.parse("10D")] * 2}))
    assert scorer.item_points(storan, both)[0] == 6


def test_the_first_deal_is_four_each_and_four_to_the_table(kryp: Engine) -> None:
    for players in (2, 3, 4, 5, 6):
        state = kryp.start(3, players)
        assert [bin(h).count("1") for h in state.hands] == [4] * players
        assert bin(state.table).count("1") == 4
        assert len(state.stock) == 104 - 4 - 4 * players
        dealt = state.table
        for h in state.hands:
            assert not dealt & h
            dealt |= h
        assert not dealt & sum(1 << i for i in state.stock)


def test_a_position_places_a_card_twice_and_refuses_a_third(kryp: Engine) -> None:
    from cassino.language.cards import CardError

    d = kryp.deck
    ten = d.parse("10D")
    state = kryp.position(Position(players=2, hands={0: [ten]}, table=[ten]))
    assert state.hands[0] != state.table
    with pytest.raises(CardError, match="more often than the deck holds it"):
        kryp.position(Position(players=2, hands={0: [ten, ten]}, table=[ten]))


def test_a_recorded_game_with_two_packs_replays_exactly(kryp: Engine) -> None:
    rules = kryp.rules
    game = Game.new(kryp, 11, 3)
    rng = random.Random(11)
    actions = []
    while not game.over and len(actions) < 150:
        move = rng.choice(game.legal_moves())
        actions.append(format_move(move, kryp.deck))
        game = game.play(move)
    record = Record(rules, 11, 3, False, ["random"] * 3, actions=actions)
    again = replay(record)
    assert again.hand.piles == game.hand.piles and again.hand.table == game.hand.table
    assert again.scores == game.scores


def test_the_engine_refuses_a_deck_beyond_its_bound() -> None:
    rules = load_rules("krypkasino")
    big = dataclasses.replace(rules, deck=dataclasses.replace(rules.deck, packs=3))
    with pytest.raises(ValueError, match=f"156 cards is more than the engine's {MAX_CARDS}"):
        Engine(big)


def _variant_with(tmp_path: Path, packs_line: str) -> Path:
    text = (ROOT / "variants" / "krypkasino.yaml").read_text(encoding="utf-8")
    assert "  packs: 2\n" in text
    path = tmp_path / "v.yaml"
    path.write_text(text.replace("  packs: 2\n", packs_line), encoding="utf-8")
    return path


@pytest.mark.parametrize("line, words", [
    ("  packs: 0\n", "packs"),
    ("  packs: \"two\"\n", "packs"),
    ("  packs: 3\n", "3 packs of 52 cards make 156, more than the 128 cards a game may have"),
    ("  packs: 2.5\n", "packs"),
])
def test_validate_refuses_a_bad_pack_count(cli, tmp_path: Path, line: str, words: str) -> None:  # type: ignore[no-untyped-def]
    path = _variant_with(tmp_path, line)
    code, out, err = cli("validate", str(path))
    assert code == 2, (out, err)
    assert words in out + err
    assert "Traceback" not in out + err
    assert ":" in (out + err).splitlines()[0]          # FILE:LINE:COL


def test_a_scenario_placing_a_card_three_times_is_an_impossible_position(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "three.yaml"
    path.write_text("variant: krypkasino\nplayers: 2\ncases:\n"
                    "  - name: three tens of diamonds\n    source: none\n"
                    "    table: [10D, 3C]\n    hand: [10D]\n    hands: {1: [10D]}\n"
                    "    expect:\n      legal: [\"10D capture 10D\"]\n", encoding="utf-8")
    code, out, err = cli("check", str(path))
    assert code != 0
    assert "10D is placed 3 times" in out + err
    assert "Traceback" not in out + err


def test_a_scenario_may_place_a_card_twice(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "two.yaml"
    path.write_text("variant: krypkasino\nplayers: 2\ncases:\n"
                    "  - name: two tens of diamonds\n    source: none\n"
                    "    table: [10D, 3C]\n    hand: [10D]\n"
                    "    expect:\n      exactly: [\"10D capture 10D\"]\n", encoding="utf-8")
    code, out, err = cli("check", str(path))
    assert code == 0, out + err


def test_the_counting_aid_lists_each_copy_side_by_side(kryp: Engine) -> None:
    from cassino.apps.learning.counting import count_for

    d = kryp.deck
    hand = kryp.position(Position(players=2, hands={0: [d.parse("3C")], 1: [d.parse("4C")]},
                                  captured={1: [d.parse("10D")]}))
    game = Game.new(kryp, 1, 2).with_(hand=hand)
    storan = [c for c in count_for(game, 0).scoring_cards if c.item == "storan"]
    assert [(c.card, c.where) for c in storan] == [("10D", "won by seat 1"), ("10D", "not seen yet")]


def test_chance_deals_each_card_once_weighted_by_its_copies() -> None:
    from cassino.apps.research.stepwise import Setup, Step, table_for

    table = table_for(Setup.from_params({"variant": "krypkasino"}))
    step = Step.start(table)
    assert step.chance
    outcomes = step.chance_outcomes()
    assert len(outcomes) == 52                               # each card once, not each copy
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    assert {round(p * 104) for _, p in outcomes} == {2}       # two copies of each left
    assert list(step.legal_actions()) == [c for c, _ in outcomes]


def _two_pack_standard(tmp_path: Path) -> Engine:
    path = tmp_path / "standard-two-packs.yaml"
    path.write_text("name: standard-two-packs\ndescription: standard with two packs\nextends: standard\n"
                    "deck:\n  packs: 2\ndeal:\n  short_stock: split_rest_to_table\n", encoding="utf-8")
    return Engine(load_rules(path))


def test_builds_with_twin_cards_are_listed_once_and_replay_by_name(tmp_path: Path) -> None:
    engine = _two_pack_standard(tmp_path)
    d = engine.deck
    state = engine.position(Position(players=2, hands={0: [d.parse(c) for c in "8D 3D".split()]},
                                     table=[d.parse(c) for c in "5H 5H".split()]))
    texts = [format_move(m, d) for m in engine.legal_moves(state)]
    assert texts.count("3D build 8 on 5H") == 1 and len(texts) == len(set(texts))
    after = engine.play(state, parse_move("3D build 8 on 5H", d))
    # two builds of the same cards by name, value and owner: one move uses either
    seat1 = after.with_(turn=0, hands=(after.hands[0] | 1 << d.copies(d.parse("3D"))[1], after.hands[1]))
    again = engine.play(seat1, parse_move("3D build 8 on 5H", d))
    assert len(again.builds) == 2
    takes = [format_move(m, d) for m in engine.legal_moves(again) if m.kind.value == "capture"]
    assert takes == ["8D capture [3D 5H] [3D 5H]"]          # (standard takes every build of the value)
    done = engine.play(again, parse_move("8D capture [3D 5H] [3D 5H]", d))
    assert not done.builds


def test_a_two_pack_standard_with_building_plays_whole_games(tmp_path: Path) -> None:
    engine = _two_pack_standard(tmp_path)
    rng = random.Random(3)
    for seed in range(6):
        game = Game.new(engine, seed, 2)
        while not game.over and game.hand_no < 3:
            moves = game.legal_moves()
            names = [format_move(m, engine.deck) for m in moves]
            assert len(names) == len(set(names)), names
            move = rng.choice(moves)
            game = game.play(engine.resolve(game.hand, parse_move(format_move(move, engine.deck), engine.deck)))


def test_sweep_refuses_too_many_packs_in_one_line(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("sweep", "krypkasino", "--set", "deck.packs=3", "--games", "2")
    assert code == 2
    assert "more than the 128 cards a game may have" in err and "Traceback" not in out + err


def test_diff_words_the_packs_and_the_loss_limits(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("diff", "kasino-misar", "krypkasino")
    assert code == 0, err
    packs = out.split("deck.packs\n", 1)[1].split("\n\n", 1)[0]
    assert "kasino-misar: One pack." in packs and "Two such packs are shuffled together, 104 cards" in packs
    target = out.split("game.target\n", 1)[1].split("\n\n", 1)[0]
    assert "at 21 points or more" in target and "at 42 points or more" in target


def _standard_on_two_packs_with_pile_tops(folder: Path) -> Engine:
    """A house rule with both (no bundled variant has): standard Casino on two packs, opponents' pile
    tops in play."""
    house = folder / "both.yaml"
    house.write_text("name: both\nextends: standard\ndeck: {packs: 2}\n"
                     "capture: {from_piles: opponents_top}\ndeal: {short_stock: split_rest_to_table}\n",
                     encoding="utf-8")
    return Engine(load_rules(str(house)))


def test_two_packs_with_pile_tops_in_play_name_each_move_so_it_resolves(tmp_path: Path) -> None:
    """Two packs and African Casino's pile tops together (no bundled variant has both; a house
    rule may): every listed move is listed once, and its text, read back and resolved against
    the position, is that very move, also where the table and a pile top hold the same card (a
    name is the table's copy first, then a pile's: a top is not taken alone while its twin lies on
    the table, which the text could not tell from taking the twin)."""
    engine = _standard_on_two_packs_with_pile_tops(tmp_path)
    twins_seen = 0
    for seed in range(12):
        state, rnd = engine.start(seed, 3), random.Random(seed)
        while not state.over:
            keys = engine.move_keys(state)
            assert len(set(keys)) == len(keys)
            tops = state.pile_tops()
            twins_seen += any(engine.deck.cards[i] == engine.deck.cards[j]
                              for i in range(engine.n_cards) if tops >> i & 1
                              for j in range(engine.n_cards) if state.table >> j & 1)
            for move in engine.legal_moves(state):
                text = format_move(move, engine.deck)
                read = engine.resolve(state, parse_move(text, engine.deck))
                # (The very move, not merely a legal one: a record of the game replays the same game.)
                assert engine.key_of(state, read) == engine.key_of(state, move), text
            state = engine.apply_key(state, keys[rnd.randrange(len(keys))])
    assert twins_seen   # the games met a pile top whose twin lay on the table


def test_the_browser_tells_a_pile_top_from_its_twin_on_the_table(tmp_path: Path) -> None:
    """Two packs with pile tops in play: a 5H on the table and a 5H on the opponent's pile are two
    ids for the felt (`5H`, `5H~2`), the top is shown by the id the moves name it by, and the move
    that takes both names both. The top is not taken alone while its twin lies on the table (a
    name is the table's copy first: written down, that move would be the table's 5H)."""
    from cassino.apps.web import views

    engine = _standard_on_two_packs_with_pile_tops(tmp_path)
    deck = engine.deck
    cards = lambda text: [deck.parse(c) for c in text.split()]  # noqa: E731
    state = engine.position(Position(players=2, to_play=0, dealer=1, hands={0: cards("5C KS"), 1: cards("2D")},
                                     table=cards("5H 9C"), captured={1: cards("3D 5H")}))
    top = views.pile_top(deck, state, 1)
    assert top == "5H~2" and views.pile_top(deck, state, 0) is None
    moves = [views.move_view(engine, state, m) for m in engine.legal_moves(state)]
    both = [v for v in moves if sorted(v["items"]) == ["5H", "5H~2"]]
    assert len(both) == 1 and both[0]["played"] == ["5C"]
    assert sum(v["items"] == ["5H~2"] for v in moves) == 0    # the top alone: not while its twin is on the table
    assert sum(v["items"] == ["5H"] for v in moves) == 1      # the table's 5H alone


def test_which_copy_was_dealt_where_never_decides_a_pile_top(tmp_path: Path) -> None:
    """Two packs with pile tops in play (a find of house rules drawn at random: Krypkasino with
    `capture.from_piles`): a capture stacked the cards it took lowest deck index first, so a 5S of
    the second pack went above a 4H and one of the first pack below it; once the capturing card was
    taken off the pile, which card was on top depended on which copy had been dealt, which no player
    can see, and OpenSpiel's game (which deals copies by name) showed another top than the engine.
    Copies are now stacked by the card they are: the same pile, card by card, whichever was dealt."""
    engine = _standard_on_two_packs_with_pile_tops(tmp_path)
    d = engine.deck
    stacked = []
    for other in (["5S", "2D"], ["2D"]):   # (a 5S placed first in seat 1's hand: the table's is the second copy)
        state = engine.position(Position(players=2, to_play=0, dealer=1, hands={0: [d.parse("9H")],
                                         1: [d.parse(c) for c in other]}, table=[d.parse("4H"), d.parse("5S")]))
        move = next(m for m in engine.legal_moves(state) if format_move(m, d) == "9H capture 4H 5S")
        after = engine.apply(state, move)
        stacked.append([str(d.cards[c]) for c in after.stacks[0]])
    assert stacked[0] == stacked[1] == ["5S", "4H", "9H"]


def test_a_name_on_two_opposing_piles_is_read_as_the_lowest_sides_pile(tmp_path: Path) -> None:
    """Two packs, three players, each opponent's pile topped by a 5H (a find of house rules drawn at
    random: a computer's capture of one 5H top was written as the other's, and OpenSpiel's game,
    which deals copies by name, took the other). A name is read as the lowest side's pile first:
    5C takes seat 1's 5H alone, or both, never seat 2's alone; each move's text reads back as the
    very move, and the copies' places, not their identities, decide it."""
    engine = _standard_on_two_packs_with_pile_tops(tmp_path)
    d = engine.deck
    given = engine.position(Position(players=3, to_play=0, dealer=2, hands={0: [d.parse("5C")]}, table=[d.parse("2D")],
                                     captured={1: [d.parse("9S"), d.parse("5H")], 2: [d.parse("8C"), d.parse("5H")]}))
    a, b = given.stacks[given.teams[1]][-1], given.stacks[given.teams[2]][-1]
    swap = {a: b, b: a}   # (the same places, the two copies exchanged)
    swapped = given.with_(piles=tuple(sum(1 << swap.get(c, c) for c in range(engine.n_cards) if p >> c & 1)
                                      for p in given.piles),
                          stacks=tuple(tuple(swap.get(c, c) for c in st) for st in given.stacks))
    for state in (given, swapped):
        tops = {seat: state.stacks[state.teams[seat]][-1] for seat in (1, 2)}
        assert tops[1] % engine.pack_size == tops[2] % engine.pack_size   # the same card, two copies
        taking = sorted(tuple(seat for seat in (1, 2) if m.loose >> tops[seat] & 1)
                        for m in engine.legal_moves(state) if m.kind.value == "capture")
        assert taking == [(1,), (1, 2)]
        for move in engine.legal_moves(state):
            read = engine.resolve(state, parse_move(format_move(move, d), d))
            assert engine.key_of(state, read) == engine.key_of(state, move)
