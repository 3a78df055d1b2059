"""The compiled engine and the Python source it is built from must be the same engine.

The installed package may run mypyc-compiled engine modules (``hatch_build.py``);
``cassino.native.pure_copy()`` loads the same package again from its ``.py`` files,
so both run side by side here: identical legal moves (in the same order), identical
states after every move, identical whole games from identical seeds, in every
variant and house rule, on dealt positions and on constructed big tables with
builds. Where the engine is not compiled (an editable install, no C compiler),
the comparison would be of the source with itself, so it is skipped, except when
``CASSINO_REQUIRE_NATIVE=1`` (CI) says the compiled engine must be there.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cassino
from cassino import native
from cassino.engine.core import Engine, Position
from cassino.engine.game import Game
from cassino.errors import PositionTooLargeError
from cassino.language.variants import load_rules
from cassino.players.bots import make_bot

from conftest import EXAMPLES, ROOT, VARIANTS

COMPILED = native.compiled()
REQUIRED = os.environ.get("CASSINO_REQUIRE_NATIVE") == "1"

if not COMPILED and not REQUIRED:
    pytest.skip("the engine is not compiled in this installation (pure Python only), so there is no "
                "second engine to compare; `pip install .` on a machine with a C compiler builds it",
                allow_module_level=True)

RULE_FILES = [*VARIANTS, *(str(p) for p in EXAMPLES)]


def test_the_compiled_engine_is_installed() -> None:
    assert COMPILED, "CASSINO_REQUIRE_NATIVE=1 but the engine modules are not compiled"
    assert native.describe() == "compiled, mypyc"


def test_each_module_knows_whether_it_runs_compiled() -> None:
    """``movegen`` and ``rng`` choose their bit counting and their SplitMix64 step by whether they run
    compiled (told at import); both forms give the same results, so only this says that each copy
    takes its own (the compiled one machine arithmetic, the pure one ``int.bit_count``)."""
    from cassino.engine import movegen, rng

    assert movegen._COMPILED and rng._COMPILED
    assert movegen.popcount is not movegen._popcount_py
    pure_movegen, pure_rng = native.pure_copy("engine.movegen"), native.pure_copy("engine.rng")
    assert not pure_movegen._COMPILED and not pure_rng._COMPILED
    assert pure_movegen.popcount is pure_movegen._popcount_py
    assert pure_movegen.bits(0b1011) == movegen.bits(0b1011) == [0, 1, 3]


@lru_cache(maxsize=None)
def engines(name: str) -> tuple[Any, Any]:
    compiled_engine = Engine(load_rules(name))
    pure_engine = native.pure_copy("engine.core").Engine(native.pure_copy("language.variants").load_rules(name))
    return compiled_engine, pure_engine


def plain(x: Any) -> Any:
    """States of either engine as plain nested tuples (their classes differ)."""
    if hasattr(x, "_fields") and hasattr(x, "values") and callable(x.values):
        return (type(x).__name__, tuple(plain(v) for v in x.values()))
    if isinstance(x, (tuple, list)):
        return tuple(plain(v) for v in x)
    if isinstance(x, frozenset):
        return frozenset(x)
    return x


def _players(engine: Engine, rnd: random.Random) -> int:
    s = engine.rules.seats
    return rnd.randint(s.min_players, min(s.max_players, 6))


@pytest.mark.parametrize("name", RULE_FILES, ids=lambda n: os.path.basename(n))
@settings(max_examples=4 if os.environ.get("CI") else 8)
@given(seed=st.integers(0, 2**64 - 1))
def test_same_moves_and_states_through_a_hand(name: str, seed: int) -> None:
    fast, pure = engines(name)
    rnd = random.Random(seed)
    players = _players(fast, rnd)
    partners = players == 4 and rnd.random() < 0.5
    a = fast.start(seed, players, dealer=seed % players, partners=partners)
    b = pure.start(seed, players, dealer=seed % players, partners=partners)
    while True:
        assert plain(a) == plain(b)
        if a.over:
            break
        keys = fast.move_keys(a)
        assert keys == pure.move_keys(b)
        assert [plain(m) for m in fast.legal_moves(a)] == [plain(m) for m in pure.legal_moves(b)]
        key = keys[rnd.randrange(len(keys))]
        a, b = fast.apply_key(a, key), pure.apply_key(b, key)


def _near_misses(state: Any, move: Any) -> list[Any]:
    """A few moves one step from a legal one (a card in play more or less, another build value, a
    capture read as a build and back), made as the compiled engine's Move values."""
    from cassino.engine.moves import Move, MoveKind
    from cassino.engine.movegen import bits

    out = []
    kind = move.kind
    if kind is not MoveKind.TRAIL and kind is not MoveKind.END:
        out += [Move(kind, move.played, move.loose ^ (1 << c), move.builds, move.value) for c in bits(state.in_play())]
    if isinstance(move.value, int):
        out += [Move(kind, move.played, move.loose, move.builds, move.value + d) for d in (-1, 1)]
    if kind is MoveKind.CAPTURE and move.played:
        out += [Move(MoveKind.BUILD, move.played, move.loose, move.builds, v) for v in (5, 10)]
    if kind is MoveKind.BUILD:
        out.append(Move(MoveKind.CAPTURE, move.played, move.loose, move.builds, None))
    return out


@settings(max_examples=6 if os.environ.get("CI") else 25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_same_listing_and_judgement_under_a_house_rule_drawn_at_random(
        tmp_path_factory: pytest.TempPathFactory, seed: int) -> None:
    """House rules nobody chose (``generated.valid``: settings of a bundled variant changed at random),
    at a seating drawn from what the rule allows: the same keys, moves and states through a hand of random
    play (trails preferred, so tables crowd), and the same answer from ``is_legal`` for legal moves and near
    misses of them. (Measured beyond this test: 800 drawn rules at every seating, 154,127 positions and
    773,000 moves judged, none differed.)"""
    from cassino.apps.authors import generated
    from cassino.apps.authors.matrix import seatings
    from cassino.language.catalogue import bundled_names

    rnd = random.Random(seed)
    path, data = generated.valid(rnd, bundled_names(), tmp_path_factory.mktemp("drawn"), 0)
    fast = Engine(load_rules(str(path)))
    pure = native.pure_copy("engine.core").Engine(native.pure_copy("language.variants").load_rules(str(path)))
    pure_moves = native.pure_copy("engine.moves")
    too_large = (PositionTooLargeError, native.pure_copy("errors").PositionTooLargeError)
    seating = rnd.choice(seatings([str(path)]))
    deal = rnd.randrange(1 << 30)
    a = fast.start(deal, seating.players, partners=seating.partners)
    b = pure.start(deal, seating.players, partners=seating.partners)
    where = f"{generated.summary(data)}, {seating.label}, deal {deal}"
    while not a.over:
        assert plain(a) == plain(b), where
        try:
            keys = fast.move_keys(a)
        except PositionTooLargeError:
            with pytest.raises(too_large):
                pure.move_keys(b)
            return
        assert keys == pure.move_keys(b), f"{where}, ply {a.ply}"
        moves = fast.moves_of(a, keys)
        assert [plain(m) for m in moves] == [plain(m) for m in pure.moves_of(b, keys)], f"{where}, ply {a.ply}"
        for move in rnd.sample(moves, min(3, len(moves))):
            for m in [move, *_near_misses(a, move)]:
                twin = pure_moves.Move(pure_moves.MoveKind(m.kind.value), m.played, m.loose, m.builds, m.value)
                try:
                    fast_answer: Any = fast.is_legal(a, m)
                except PositionTooLargeError:
                    fast_answer = "too large"
                try:
                    pure_answer: Any = pure.is_legal(b, twin)
                except too_large:
                    pure_answer = "too large"
                assert fast_answer == pure_answer, f"{where}, ply {a.ply}: {plain(m)}"
        trails = [k for k, m in zip(keys, moves) if m.kind.value == "trail"]
        key = rnd.choice(trails) if trails and rnd.random() < 0.6 else rnd.choice(keys)
        a, b = fast.apply_key(a, key), pure.apply_key(b, key)
    assert plain(a) == plain(b), where


@st.composite
def big_tables(draw: st.DrawFn) -> tuple[str, list[str], list[str], list[tuple[list[str], int, int]]]:
    """A hand of up to 4 cards, up to 18 loose cards and up to 3 single builds."""
    name = draw(st.sampled_from(["standard", "royal", "hoyle", "dominican", "two-handed", "tuxedo"]))
    fast, _ = engines(name)
    cards = [str(c) for c in fast.deck.cards]
    chosen = draw(st.permutations(cards))
    hand = chosen[:draw(st.integers(1, 4))]
    rest = chosen[len(hand):]
    loose = rest[:draw(st.integers(0, 18))]
    rest = rest[len(loose):]
    builds = []
    deck = fast.deck
    for _ in range(draw(st.integers(0, 3))):
        pair = rest[:2]
        rest = rest[2:]
        values = [deck.table_values[deck.index(deck.parse(c))] for c in pair]
        if len(pair) < 2 or not all(values):
            continue
        total = min(values[0]) + min(values[1])
        if total > max(v for vs in deck.hand_values for v in vs):
            continue
        builds.append((pair, total, draw(st.integers(0, 1))))
    return name, hand, loose, builds


@settings(max_examples=25 if os.environ.get("CI") else 60, deadline=None)
@given(case=big_tables())
def test_same_moves_on_big_tables_with_builds(case: tuple[str, list[str], list[str], list[Any]]) -> None:
    name, hand, loose, builds = case
    fast, pure = engines(name)
    results = []
    for engine in (fast, pure):
        deck = engine.deck
        state = engine.position(Position(
            players=2, hands={0: [deck.parse(c) for c in hand]}, table=[deck.parse(c) for c in loose],
            builds=[([deck.parse(c) for c in cards], value, owner) for cards, value, owner in builds]))
        keys = engine.move_keys(state)
        after = [plain(engine.apply_key(state, k)) for k in keys[:50]]
        results.append((plain(state), keys, after))
    assert results[0] == results[1]


@pytest.mark.parametrize("name", VARIANTS)
def test_same_moves_on_tables_of_more_than_thirty_loose_cards(name: str) -> None:
    """Tables of 31 loose cards and more (a long hand's trails pile up; the lazy walk's tests fill tables
    so): compiled, a card without a value took its equal card at item 31 or above by a shift of a C int, a
    negative key (found by tests/test_stepwise_bounds.py in Spade Casino, 33 loose cards)."""
    fast, pure = engines(name)
    cards = list(range(len(fast.deck.cards)))
    if len(cards) > 62:
        pytest.skip("two packs: their masks are not machine integers, so that path is not compiled")
    rnd = random.Random(name)
    players = max(2, fast.rules.seats.min_players)
    compared = 0
    for attempt in range(60):
        if compared >= 3:
            break
        rnd.shuffle(cards)
        loose = cards[:rnd.randint(31, len(cards) - 4)]
        # (one card in hand three times in four: more hands of several cards are beyond the listing budget, whose
        # refusal costs the pure engine the whole budget, and they are compared too)
        hand = cards[len(loose):len(loose) + (rnd.randint(1, 4) if attempt % 4 == 3 else 1)]
        found = []
        for engine in (fast, pure):
            deck = engine.deck
            state = engine.position(Position(players=players, hands={0: [deck.cards[c] for c in hand]},
                                             table=[deck.cards[c] for c in loose]))
            try:
                found.append(engine.move_keys(state))
            except Exception as e:   # (each engine's own PositionTooLargeError: the pure copy has its class)
                if type(e).__name__ != PositionTooLargeError.__name__:
                    raise
                found.append(str(e))
        assert found[0] == found[1]
        if isinstance(found[0], list):
            assert all(k >= 0 for k in found[0])
            compared += 1
    assert compared


@pytest.mark.parametrize("name", ["standard", "royal", "hungarian", "tuxedo", "dominican"])
def test_same_whole_games_from_the_same_seed(name: str) -> None:
    fast, pure_engine = engines(name)
    pure_game, pure_bots = native.pure_copy("engine.game"), native.pure_copy("players.bots")
    players = fast.rules.seats.min_players
    for seed in range(2):
        outcomes = []
        for engine, game_cls, bot in ((fast, Game, make_bot), (pure_engine, pure_game.Game, pure_bots.make_bot)):
            game = game_cls.new(engine, seed, players)
            bots = [bot("greedy", seed + s) for s in range(players)]
            moves = 0
            while not game.over:
                seat = game.hand.turn
                game = game.play(bots[seat].choose(game, seat))
                moves += 1
            outcomes.append((game.winner, tuple(game.scores), game.hand_no, moves, plain(game.hand)))
        assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("name,players", [("standard", 2), ("standard", 4), ("royal", 3)])
def test_same_search_decisions_from_the_same_seed(name: str, players: int) -> None:
    """The search's compiled parts (sampled deals, the fitted playout policy, the outlook) choose
    the same moves as their source: a hand's worth of decisions, each reseeded."""
    fast, pure_engine = engines(name)
    pure_game, pure_bots = native.pure_copy("engine.game"), native.pure_copy("players.bots")
    histories = []
    for engine, game_cls, bot in ((fast, Game, make_bot), (pure_engine, pure_game.Game, pure_bots.make_bot)):
        game = game_cls.new(engine, 5, players, partners=players == 4)
        searcher = bot("search:12", 1)
        chosen = []
        for ply in range(3 * players):
            seat = game.hand.turn
            searcher.reseed(ply)
            move = searcher.choose(game, seat)
            chosen.append(plain(move))
            game = game.play(move)
        histories.append(chosen)
    assert histories[0] == histories[1]


@pytest.mark.parametrize("name,left", [("standard", 8), ("south-african-casino", 7), ("scopa", 6),
                                       ("krypkasino", 6)])
def test_the_exact_solver_is_compiled_and_values_the_same(name: str, left: int) -> None:
    """players.solver is one of the compiled modules: on positions of a known last deal it gives every
    move the value its source gives, searching as many positions, and the command's solver (a Python
    subclass of the compiled one, with a bounded table) gives the same."""
    from cassino.apps.authors.solve import WatchedSolver
    from cassino.players import solver as fast_solver

    assert not hasattr(fast_solver.Solver.best_move, "__code__")   # (compiled: no Python code object)
    fast, pure_engine = engines(name)
    pure = native.pure_copy("players.solver")
    pure_game = native.pure_copy("engine.game")
    compared = 0
    for seed in range(40):
        games = [Game.new(fast, seed, 2), pure_game.Game.new(pure_engine, seed, 2)]
        bots = [make_bot("greedy", seed), native.pure_copy("players.bots").make_bot("greedy", seed)]
        while not games[0].over and (fast_solver.cards_left(games[0].hand) > left
                                     or len(games[0].legal_moves()) < 2):   # (a turn's end alone: played)
            games = [g.play(b.choose(g, g.hand.turn)) for g, b in zip(games, bots)]
        if games[0].over or games[0].hand.stock:
            continue
        found = []
        for game, module in zip(games, (fast_solver, pure)):
            hand = game.hand
            solver = module.Solver(game.engine, game.scorer, hand.teams[hand.turn], dict(enumerate(game.scores)))
            found.append(([(plain(v.move), v.value) for v in solver.move_values(hand)], solver.nodes))
        hand = games[0].hand
        watched = WatchedSolver(fast, games[0].scorer, hand.teams[hand.turn], dict(enumerate(games[0].scores)),
                                table_limit=64)
        assert [(plain(v.move), v.value) for v in watched.move_values(hand)] == found[0][0]
        assert len(watched.table) <= 64
        assert found[0] == found[1]
        compared += 1
        if compared == 3:
            break
    assert compared == 3


def eager_move(move: Any) -> Any:
    return type(move)(move.kind, move.played, move.loose, move.builds, move.value)


def walk(choices: Any, limit: int = 400) -> list[Any]:
    """The moves of a position as the lazy walk gives them (heads, then item by item), up to
    ``limit`` moves: (head, items chosen, the move) in walk order."""
    out: list[Any] = []

    def down(head: Any, chosen: list[int]) -> None:
        for p in choices.next_items(head, chosen):
            if len(out) >= limit:
                return
            if p == -1:
                out.append(((head.played, head.kind, head.code), tuple(chosen), plain(choices.move(head, chosen))))
            else:
                down(head, chosen + [p])

    for head in choices.heads():
        down(head, [])
    return out


@pytest.mark.parametrize("name", ["standard", "royal", "hungarian", "draw", "tuxedo"])
def test_the_lazy_move_walk_is_compiled_and_walks_the_same(name: str) -> None:
    """engine.choices (the research interfaces' step-by-step moves) is one of the compiled
    modules, and gives the same choices as its source."""
    from cassino.engine import choices

    assert not choices.__file__.endswith(".py"), choices.__file__
    pure_choices = native.pure_copy("engine.choices")
    fast, pure = engines(name)
    rnd = random.Random(7)
    a, b = fast.start(11, 2), pure.start(11, 2)
    for _ in range(10):
        if a.over:
            break
        moves = walk(choices.MoveChoices(fast.tables, a))
        assert moves and moves == walk(pure_choices.MoveChoices(pure.tables, b))
        keys = fast.move_keys(a)
        key = keys[rnd.randrange(len(keys))]
        a, b = fast.apply_key(a, key), pure.apply_key(b, key)


def test_the_source_engine_runs_the_scenario_files() -> None:
    """The pure-Python engine, forced by CASSINO_PURE_PYTHON=1, passes the same rule examples."""
    files = sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))
    env = {**os.environ, "CASSINO_PURE_PYTHON": "1"}
    result = subprocess.run([sys.executable, "-m", "cassino", "check", *map(str, files)],
                            capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    probe = subprocess.run([sys.executable, "-c", "import cassino.engine.movegen as m; print(m.__file__)"],
                           capture_output=True, text=True, env=env, timeout=60)
    assert probe.stdout.strip().endswith("movegen.py"), probe.stdout + probe.stderr
    assert cassino.__version__ in subprocess.run([sys.executable, "-m", "cassino", "--version"],
                                                 capture_output=True, text=True, env=env).stdout


def test_a_game_pickles_with_the_compiled_engine() -> None:
    """`cassino serve` sends a game to its computer players' worker processes by pickle: the compiled
    Engine could not be rebuilt ("__init__() missing required argument 'rules'")."""
    import pickle

    from cassino.engine.game import Game

    engine = Engine(load_rules("escoba"))
    assert pickle.loads(pickle.dumps(engine)).rules == engine.rules
    game = Game.new(load_rules("standard"), 5, 2)
    game = game.play(game.legal_moves()[0])
    back = pickle.loads(pickle.dumps(game))
    assert back.hand == game.hand and back.scores == game.scores
    assert back.legal_moves() == game.legal_moves()


def test_a_session_with_computer_players_pickles_and_chooses_the_same() -> None:
    """The browser's worker processes get a pickled session: its computer players (compiled caches
    inside) are made again from their names and choose what the original would."""
    import pickle
    from pathlib import Path

    from cassino.apps.game.records import Record
    from cassino.apps.game.session import GameSession

    record = Record(load_rules("standard"), 11, 2, False, ["greedy", "search:16"], source="standard")
    session = GameSession.open(record, Path("unused.json"))
    for _ in range(6):
        copy = pickle.loads(pickle.dumps(session))
        choice = session.computer_choice()
        assert copy.computer_choice() == choice
        session.game = session.game.play(session.read_move(choice))
        session.record.actions.append(choice)
