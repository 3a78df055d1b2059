"""What playing combinations of variants, seats and players found (issue 48, section 2), each kept fixed.

1. Four players in partnerships of Swazi Casino: the search's sampled deals gave a seat that holds a
   build (or proved a value) no card of it, when a seat dealt before it took the only one; a playout
   then reached a seat with no legal move, and ``gain.best_index`` failed on an empty list.
2. Tables at the engine's limit (tests/rules/heavy-table-*.yaml: 24 cards of three packs, each worth 1
   or 2): the computer's sampled moves named a pile top by a twin on the table (illegal), take-all
   captures were all left out (no move at all), and ``cassino play`` stopped before its first prompt.
3. One computer move takes a few seconds at most by default (``search.MOVE_CAP``).
4. House rules drawn at random and played through whole hands with every consumer: a position too large
   to list where the sampled moves held none at all, once for the work the walk spent on captures, once
   because every move the walk found was one the whole-move rules refuse.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from cassino.apps.cli import main
from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.moves import MoveKind
from cassino.engine.notation import format_move
from cassino.engine.state import Build, HandState
from cassino.language.variants import load_rules
from cassino.engine.rng import derive
from cassino.players import search as search_module
from cassino.players.bots import GreedyBot, SearchBot, make_bot
from cassino.players.gain import best_index, ties_at_best
from cassino.players.knowledge import determinize

RULES = Path(__file__).parent / "rules"
HEAVY = sorted(RULES.glob("heavy-table-*.yaml"))


def _mask(engine: Engine, names: str, used: int = 0) -> int:
    deck = engine.deck
    return deck.mask([deck.parse(n) for n in names.split()], used)


def _position(engine: Engine, hands: list[str], builds: list[Build], proven: list[frozenset[int]]) -> HandState:
    """A 4-player partnership position of ``engine``: the hands given, every other card in seat 0's
    pile (seen by all), nothing on the table or in the stock."""
    start = engine.start(1, 4, partners=True)
    masks = [_mask(engine, h) for h in hands]
    used = 0
    for m in masks:
        used |= m
    for b in builds:
        used |= b.cards
    rest = ((1 << engine.n_cards) - 1) & ~used
    piles = (rest,) + (0,) * (len(start.piles) - 1)
    return start.with_(hands=tuple(masks), table=0, builds=tuple(builds), stock=(), piles=piles,
                       proven=tuple(proven), turn=0)


# ------------------------------------------------------------------ 1. sampled deals keep what is known


def test_a_seat_holding_a_build_is_dealt_its_card_even_when_an_earlier_seat_could_take_it() -> None:
    """Seat 3 holds a build of 10 its partner made for it; the one 10 seat 0 cannot see is 10C. Every
    deal seat 0 samples gives 10C to seat 3 (seats 1 and 2, dealt first, took it two times in three)."""
    engine = Engine(load_rules("swazi-casino"))
    build = Build(_mask(engine, "AH 4D 5D"), 10, False, 1, 3)
    state = _position(engine, ["10S 10H 10D 3D 6D", "4C 6S 7S 2C 8H", "7D 8D 9C JD QD", "3C 7C KD 10C 2H"],
                      [build], [frozenset(), frozenset(), frozenset(), frozenset({10})])
    ten = _mask(engine, "10C")
    for k in range(60):
        dealt = determinize(engine, state, 0, random.Random(k))
        assert dealt.hands[3] & ten, k
        assert dealt.hands[0] == state.hands[0]
        assert [bin(h).count("1") for h in dealt.hands] == [5, 5, 5, 5]


def test_a_card_two_seats_could_use_goes_where_only_it_will_do(tmp_path: Path) -> None:
    """Seat 1 must hold a 14 (an ace or a king here), seat 3 a 1 (an ace only); one ace and one king
    are unseen: seat 3 always gets the ace, seat 1 the king, whichever the shuffle puts first."""
    path = tmp_path / "kings-fourteen.yaml"
    path.write_text("name: kings-fourteen\nextends: swazi-casino\ndeck:\n  ranks:\n"
                    "    - {rank: A, value: [1, 14]}\n"
                    + "".join(f'    - {{rank: "{r}", value: {r}}}\n' for r in range(2, 11))
                    + "    - {rank: J, value: 11}\n    - {rank: Q, value: 12}\n    - {rank: K, value: 14}\n")
    assert main(["validate", str(path)]) == 0
    engine = Engine(load_rules(str(path)))
    state = _position(engine, ["AS AC AD KS KC", "2C 3C 4C 5C KH", "6C 7C 8C 9C 10C", "2D 3D 4D 5D AH"],
                      [], [frozenset(), frozenset({14}), frozenset(), frozenset({1})])
    ace, king = _mask(engine, "AH"), _mask(engine, "KH")
    firsts = set()
    for k in range(40):
        dealt = determinize(engine, state, 0, random.Random(k))
        assert dealt.hands[3] & ace and dealt.hands[1] & king, k
        firsts.add(dealt.hands[1] & ace == 0)
    assert firsts == {True}


@pytest.mark.parametrize("variant,players,partners", [
    ("swazi-casino", 4, True), ("south-african-casino", 4, True), ("south-african-casino", 4, False),
    ("swazi-casino", 3, False), ("south-african-casino", 3, False),
])
def test_the_search_plays_a_late_deal_legally(variant: str, players: int, partners: bool) -> None:
    """The search (a few deals a move) and greedy finish a hand from its last 16 plies, each move legal."""
    engine = Engine(load_rules(variant))
    game = Game.new(engine, 5, players, partners)
    rng = random.Random(5)
    seats = [SearchBot(seed=s, iterations=4) if s % 2 == 0 else GreedyBot(seed=s) for s in range(players)]
    hand = len(game.results)
    while sum(bin(h).count("1") for h in game.hand.hands) + len(game.hand.stock) > 16:
        game = game.play(rng.choice(game.playable_moves()))
    while not game.over and len(game.results) == hand:
        seat = game.hand.turn
        move = seats[seat].choose(game, seat)
        assert engine.is_legal(game.hand, move), (variant, move)
        game = game.play(move)
    assert len(game.results) > hand or game.over


def test_best_index_and_ties_refuse_an_empty_list_by_name() -> None:
    for pick in (best_index, ties_at_best):
        with pytest.raises(ValueError, match="no values to choose among"):
            pick([])
    assert best_index([1.0, 3.0, 3.0]) == 1 and ties_at_best([1.0, 3.0, 3.0]) == [1, 2]


# ------------------------------------------------------------------ 2. tables at the engine's limit


def test_the_heavy_rule_files_are_valid() -> None:
    assert len(HEAVY) == 3
    for path in HEAVY:
        assert main(["validate", str(path)]) == 0


@pytest.mark.parametrize("path", HEAVY, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_computer_moves_legally_at_a_table_too_large_to_list(path: Path, seed: int) -> None:
    """Greedy and the search play the first plies of a 24-card table; each move is legal (checked
    apart, as a typed move is) and the game takes it."""
    engine = Engine(load_rules(str(path)))
    game = Game.new(engine, seed, 2, False)
    seats = [GreedyBot(seed=seed), SearchBot(seed=seed, iterations=4)]
    for _ in range(10):
        seat = game.hand.turn
        move = seats[seat].choose(game, seat)
        assert engine.is_legal(game.hand, move), (path.stem, engine.why_illegal(game.hand, move))
        game = game.play(move)


def test_the_game_cassino_simulate_stopped_in_is_played_on() -> None:
    """`cassino simulate tests/rules/heavy-table-swazi-casino.yaml --bot greedy,search --games 1 --seed 1`
    stopped at its 8th move ("AD trail build 1 on AS 4C 7S 9H: AS lies under 9H in a capture pile"):
    the same game, seeded as simulate seeds it, is played on legally."""
    engine = Engine(load_rules(str(RULES / "heavy-table-swazi-casino.yaml")))
    game_seed = derive(1, 0)
    game = Game.new(engine, game_seed, 2, False, dealer=0)
    seats = [make_bot(name, derive(game_seed, s + 1)) for s, name in enumerate(("greedy", "search"))]
    for ply in range(12):
        seat = game.hand.turn
        seats[seat].reseed(derive(game_seed, seat, ply))
        move = seats[seat].choose(game, seat)
        assert engine.is_legal(game.hand, move), engine.why_illegal(game.hand, move)
        game = game.play(move)


@pytest.mark.parametrize("path", HEAVY, ids=lambda p: p.stem)
def test_the_moves_offered_at_a_heavy_table_are_all_legal(path: Path) -> None:
    """Every move the computer is offered (``playable_moves``) in the first 10 plies is legal, checked
    afresh by an engine that did not list it: a pile top is not its twin on the table."""
    engine, checker = Engine(load_rules(str(path))), Engine(load_rules(str(path)))
    game = Game.new(engine, 1, 2, False)
    greedy = GreedyBot(seed=1)
    for _ in range(10):
        moves = engine.playable_moves(game.hand)
        assert moves
        for move in moves:
            assert checker.is_legal(game.hand, move), checker.why_illegal(game.hand, move)
        game = game.play(greedy.choose(game, game.hand.turn))


def test_take_all_at_a_heavy_table_offers_captures_that_take_all_they_can() -> None:
    path = RULES / "heavy-table-krypkasino-take-all.yaml"
    engine = Engine(load_rules(str(path)))
    state = Game.new(engine, 1, 2, False).hand
    captures = [m for m in engine.playable_moves(state) if m.kind is MoveKind.CAPTURE]
    assert captures
    for move in captures:
        fresh = Engine(load_rules(str(path)))
        assert fresh.is_legal(state, move)
        smaller = move.loose & (move.loose - 1)   # (one card fewer: not all it can)
        if smaller:
            assert not fresh.is_legal(state, type(move)(move.kind, move.played, smaller, move.builds, None))


@pytest.mark.parametrize("path", HEAVY, ids=lambda p: p.stem)
def test_people_are_offered_moves_at_a_heavy_table(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """`cassino play FILE --humans 2` shows the moves and a prompt; the first move listed is played."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n1\n\nq\n"))   # (Enter: the keyboard passed on)
    main(["play", str(path), "--humans", "2", "--seed", "1"])
    out = capsys.readouterr()
    assert len(re.findall(r"seat \d> ", out.out)) >= 2, out.out[-2000:] + out.err
    assert "too large to walk" not in out.out + out.err
    assert "  1. " in out.out


# ------------------------------------------------------------------ 3. the time a move takes


def test_the_search_has_a_time_cap_by_default() -> None:
    assert search_module.MOVE_CAP <= 5 and SearchBot().cap == search_module.MOVE_CAP
    assert SearchBot(cap=None).cap is None and SearchBot(cap=2).cap == 2.0


@pytest.mark.parametrize("bad", [0, -1, float("inf"), float("nan"), True, "3"])
def test_a_bad_cap_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="cap is a number of seconds"):
        SearchBot(cap=bad)  # type: ignore[arg-type]


class _Counting(SearchBot):
    deals = 0

    def determinize(self, engine, state, seat, avoid=()):  # type: ignore[no-untyped-def]
        self.deals += 1
        return super().determinize(engine, state, seat, avoid)


def test_past_the_cap_no_more_deals_are_drawn() -> None:
    """With a cap already passed, the search plays the best-rated candidate or one deal's best, a legal
    move; with no cap it draws all its deals."""
    game = Game.new(Engine(load_rules("standard")), 3, 2, False)
    seat = game.hand.turn
    capped, free = _Counting(seed=1, iterations=500, cap=1e-9), _Counting(seed=1, iterations=20, cap=None)
    move = capped.choose(game, seat)
    assert game.engine.is_legal(game.hand, move) and capped.deals <= 1
    free.choose(game, seat)
    assert free.deals >= 20


def test_a_playout_and_a_reading_stop_at_a_deadline_already_passed() -> None:
    """What the cap bounds beside the deals: a playout stops after its move, the reading of another
    seat's move gives nothing (not a partial reading); with no deadline both go to the end."""
    from cassino.players.base import CardWorth
    from cassino.players.gain import greedy_playout
    from cassino.players.inference import card_terms
    from cassino.players.playouts import playout
    from cassino.players.policy import PlayoutPolicy

    game = Game.new(Engine(load_rules("standard")), 4, 2, False)
    engine, state = game.engine, game.hand
    worth = CardWorth(engine, game.scorer)
    move = engine.legal_moves(state)[0]
    passed = 1e-9   # (a perf_counter reading long gone)
    assert greedy_playout(engine, worth, state, move, False, passed) == engine.apply(state, move)
    assert playout(engine, worth, state, move, False, PlayoutPolicy(engine), passed) == engine.apply(state, move)
    whole = greedy_playout(engine, worth, state, move, False)
    assert whole.deal_no != state.deal_no or whole.over
    assert card_terms(engine, worth, state, deadline=passed) == []
    assert len(card_terms(engine, worth, state)) == engine.n_cards


# ------------------------------------------------------------------ 4. generated house rules, whole hands

#: A house rule the generated soak drew (issue 48's driver on random settings): South African Casino won
#: by the lowest total, so players keep from capturing and the cards pile up in play.
LOWEST_SOUTH_AFRICAN = {"name": "generated", "description": "south-african-casino won by the lowest total",
                        "extends": "south-african-casino", "trail": {"with_build": False},
                        "build": {"allowed": True}, "game": {"goal": "lowest"}}


def test_a_table_too_large_to_list_still_offers_a_move_when_its_captures_cost_the_whole_walk(
        tmp_path: Path) -> None:
    """Found reviewing a 4-player hand of that house rule (ValueError in ``best_index``: the review's
    playouts had no move to rate): seat 1 holds only 10C, with 19 loose cards and 12 pile cards in
    play, beyond the listing budget. The lazy walk's sample walked the capture's way of playing
    first, and finding its first capture took more steps (27,421) than the sample's whole work
    (25,000): no move at all, not even the trail. Ways of playing that take nothing are walked
    first now, and the position offers 10C's trail; every move offered is legal, and the greedy
    playout from there ends the hand."""
    from cassino.errors import PositionTooLargeError
    from cassino.engine.choices import MoveChoices
    from cassino.engine.state import Capture
    from cassino.players.base import CardWorth
    from cassino.players.gain import greedy_playout

    path = tmp_path / "lowest.yaml"
    path.write_text(yaml.safe_dump(LOWEST_SOUTH_AFRICAN, sort_keys=False), encoding="utf-8")
    engine = Engine(load_rules(path))
    state = engine.start(0, 4).with_(
        turn=1, hands=(268435456, 549755813888, 0, 0), table=424335049646, stock=(),
        builds=(Build(cards=4294967313, value=9, multiple=False, owner=0, holder=0, pairs=False),),
        piles=(579338240, 0, 17181986816, 103096036416),
        captures=(Capture(ply=8, seat=3, cards=50332672, table_cards=16778240),
                  Capture(ply=22, seat=0, cards=579338240, table_cards=578813952),
                  Capture(ply=24, seat=3, cards=68719476800, table_cards=64),
                  Capture(ply=75, seat=3, cards=34359781376, table_cards=43008),
                  Capture(ply=77, seat=2, cards=17181986816, table_cards=2117632)),
        last_capturer=2, ply=78, proven=(frozenset({9}), frozenset(), frozenset(), frozenset()),
        stacks=((23, 25, 29, 19), (), (12, 14, 21, 34), (10, 24, 6, 36, 11, 13, 15, 35)), pile_reach=4)
    assert [str(c) for c in engine.deck.cards_of(state.hands[1])] == ["10C"]
    with pytest.raises(PositionTooLargeError):
        engine.move_keys(state)
    sampled = MoveChoices(engine.tables, state).sample(64)   # (what the sample finds, before any rule's refusal)
    assert "10C trail" in [format_move(m, engine.deck) for m in sampled]
    offered = engine.playable_moves(state)
    assert "10C trail" in [format_move(m, engine.deck) for m in offered]
    assert all(engine.is_legal(state, m) for m in offered)
    game = Game.new(engine, 0, 4)
    end = greedy_playout(engine, CardWorth(engine, game.scorer), state, offered[0], True)
    assert end.over


#: A house rule the generated soak drew: South African Casino won by the lowest total, builds raised by their
#: owner, a card equal to a loose card taking only equal cards (``soak.py --replay FILE:4 --game-seed
#: 329976909 --rotation 2``). A player who owns a build of 10 and holds one ten, with tens loose, may take only
#: a loose ten, which would leave the build without its card: the turn's only ways are builds of 10 from cards
#: in play (``build.free_actions``).
KEEPING_A_BUILD = {"name": "generated", "description": "south-african-casino, lowest total",
                   "extends": "south-african-casino", "build": {"raise_own": True},
                   "capture": {"equal_card_first": True}, "game": {"goal": "lowest"}}


def _only_free_builds_of_ten(path: Path, state_of: Any) -> None:
    """The position ``state_of(engine)`` of that rule is beyond the listing budget; the moves offered are
    legal builds of 10 from cards in play, and the search and a greedy playout play on from it."""
    from cassino.errors import PositionTooLargeError
    from cassino.players.base import CardWorth
    from cassino.players.gain import greedy_playout

    path.write_text(yaml.safe_dump(KEEPING_A_BUILD, sort_keys=False), encoding="utf-8")
    engine = Engine(load_rules(path))
    state = state_of(engine)
    with pytest.raises(PositionTooLargeError):
        engine.move_keys(state)
    offered = engine.playable_moves(state)
    assert offered
    for move in offered:
        assert move.kind is MoveKind.BUILD and not move.played and move.value == 10
        assert engine.turn_rules.refusal(state, move) is None
        assert engine.is_legal(state, move)
    game = Game.at(engine, state)
    end = greedy_playout(engine, CardWorth(engine, game.scorer), state, offered[0], True)
    assert end.over
    assert SearchBot(seed=1, iterations=2).choose(game, state.turn) in offered   # (it failed in best_index)


def test_a_sample_beyond_the_listing_budget_walks_past_the_moves_the_whole_move_rules_refuse(
        tmp_path: Path) -> None:
    """Seat 1 of that rule holds only 10C; 17 loose cards and 12 pile cards in play. The one build the lazy
    walk's sample found within its work took 7H from under 3D, which the rule of pile cards
    (``capture.pile_cards: augment``) refuses: no move, and the search failed. The sample now asks the
    whole-move rules as it walks, so a refused move takes no share."""
    from cassino.engine.choices import MoveChoices

    def state_of(engine: Engine) -> HandState:
        state = engine.start(0, 4).with_(
            turn=1, hands=(17179869184, 549755813888, 0, 0), table=311135307581, stock=(),
            builds=(Build(cards=130, value=10, multiple=False, owner=1, holder=1, pairs=False),
                    Build(cards=6144, value=5, multiple=False, owner=0, holder=0, pairs=False)),
            piles=(0, 0, 68790853696, 152649777152), last_capturer=2, ply=84,
            proven=(frozenset({5}), frozenset({10}), frozenset(), frozenset()),
            stacks=((), (), (6, 13, 16, 22, 36, 26), (14, 15, 21, 23, 25, 27, 31, 32, 33, 37, 17)))
        assert [str(c) for c in engine.deck.cards_of(state.hands[1])] == ["10C"]
        unasked = MoveChoices(engine.tables, state).sample(64)   # (without the whole-move rules, as before)
        assert unasked and all(engine.turn_rules.refusal(state, m) is not None for m in unasked)
        return state

    _only_free_builds_of_ten(tmp_path / "keeping.yaml", state_of)


def test_a_sample_beyond_the_listing_budget_finds_a_short_move_where_its_first_walk_finds_none(
        tmp_path: Path) -> None:
    """The same rule, a deal the review's playouts sampled: seat 3 holds only 10H and owns a build of 10;
    28 loose cards and four builds, no pile card. The walk takes every item that still leads to a move,
    so its first build grew to a dozen cards and more, whose checks spent the sample's whole work: no
    move at all, though adding 10S to the build is one. A way of playing with no move found is walked
    again for its shortest move."""
    from cassino.engine.choices import MoveChoices

    def state_of(engine: Engine) -> HandState:
        state = engine.start(0, 4).with_(
            turn=3, hands=(134217728, 4294967296, 34359738368, 524288), table=1060709451772, stock=(),
            builds=(Build(cards=3, value=3, multiple=False, owner=1, holder=1, pairs=False),
                    Build(cards=133120, value=10, multiple=False, owner=3, holder=3, pairs=False),
                    Build(cards=8396800, value=8, multiple=False, owner=0, holder=0, pairs=False),
                    Build(cards=4198400, value=6, multiple=False, owner=2, holder=2, pairs=False)),
            piles=(0, 0, 0, 0), ply=74, deal_no=1,
            proven=(frozenset({8}), frozenset({3}), frozenset({6}), frozenset({10})))
        assert [str(c) for c in engine.deck.cards_of(state.hands[3])] == ["10H"]
        assert bin(state.table).count("1") == 28
        assert len(MoveChoices(engine.tables, state).heads()) == 1   # (builds of 10 of cards in play alone)
        return state

    _only_free_builds_of_ten(tmp_path / "keeping.yaml", state_of)


def test_a_walk_past_its_whole_budget_still_offers_the_moves_it_found(tmp_path: Path) -> None:
    """Krypkasino with captures never compulsory (a generated house rule): greedy players trail, and
    the rulebook's sample hand reached 50 loose cards of two packs with seat 1 holding one 8C. Checking
    whether a capture's first items make a whole move ran past the walk's whole budget, and the
    PositionTooLargeError it raised left the sample, so ``playable_moves`` (which never raises) did,
    and ``cassino rules`` stopped with "give fewer cards on the table". The sample now keeps the moves
    found before (the trail, walked first), and walks the capture again for its shortest move."""
    path = tmp_path / "kryp.yaml"
    path.write_text(yaml.safe_dump({"name": "generated", "description": "krypkasino, captures never compulsory",
                                    "extends": "krypkasino", "capture": {"equal_cards": "all_when_pairing",
                                                                         "compulsory": "never"}}), encoding="utf-8")
    engine = Engine(load_rules(path))
    state = engine.start(2, 2).with_(
        turn=1, hands=(70368744177664, 316912650057057350374175801344), table=12073593861033232135659479724031,
        builds=(), stock=(102, 15, 90, 84, 37, 91, 73, 12, 77, 22, 75, 42, 27, 25, 38, 26, 51, 20, 56, 55),
        piles=(2535301200530246203704027906048, 282266129847744459435945099264), ply=78, deal_no=10)
    assert bin(state.table).count("1") == 50
    offered = engine.playable_moves(state)
    shown = [format_move(m, engine.deck) for m in offered]
    assert "8C trail" in shown
    assert any(m.kind is MoveKind.CAPTURE for m in offered), shown
    assert all(engine.is_legal(state, m) for m in offered)
