"""The search's playout policy (``players.policy``): what its features say, that it reads no hidden
card, that it is the greedy rating under the greedy rating's weights, and the search's setting."""

from __future__ import annotations

import random

import pytest

from conftest import benchmark

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.moves import Move, MoveKind
from cassino.engine.scoring import Scorer
from cassino.engine.state import HandState
from cassino.language.variants import load_rules
from cassino.players.gain import CardWorth, best_gain_key, best_index, gains, key_gains
from cassino.players.knowledge import determinize
from cassino.players.policy import FEATURES, FITTED, PlayoutPolicy
from cassino.players.search import SearchBot

#: The greedy rating (``gain._gain``) as the policy's weights, in the order of ``FEATURES``.
GREEDY = (1.0, 0.05, 0.3, 0.4, -0.1, 0.0, -0.5, -0.2, 0.0, 0.0, 0.0, 0.0)
VARIANTS = ("standard", "royal", "scopa", "escoba", "kasino-misar", "south-african-casino", "draw", "spade")


def positions(variant: str, players: int = 2, seed: int = 3, every: int = 1):  # type: ignore[no-untyped-def]
    """The positions of a hand of random play, each with its engine and card worths."""
    engine = Engine(load_rules(variant))
    worth = CardWorth(engine, Scorer(engine))
    rng = random.Random(seed)
    state = engine.start(seed, players)
    while not state.over:
        legal = engine.playable_moves(state)
        if state.ply % every == 0:
            yield engine, worth, state, legal
        state = engine.apply(state, rng.choice(legal))


def unit(engine: Engine, name: str) -> PlayoutPolicy:
    """The policy whose rating is the feature ``name`` alone."""
    return PlayoutPolicy(engine, tuple(1.0 if f == name else 0.0 for f in FEATURES))


@pytest.mark.parametrize("variant", VARIANTS)
def test_under_the_greedy_weights_it_rates_as_greedy_does(variant: str) -> None:
    """The same floats as ``gain.gains``: the features are the greedy rating's parts, and more. Where the lowest
    total wins the policy counts the cards taken and a clear against the taker (the features are seen from
    the mover's side of the goal), and greedy counts them for it: its weights for those two are negated."""
    checked = 0
    for engine, worth, state, legal in positions(variant):
        greedy = GREEDY if engine.rules.game.goal == "highest" else (GREEDY[0], -GREEDY[1], -GREEDY[2], *GREEDY[3:])
        assert PlayoutPolicy(engine, greedy).ratings(worth, state, legal) == gains(worth, state, legal)
        checked += len(legal)
    assert checked > 40


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_feature_says_what_its_name_says(variant: str) -> None:
    kinds = set()
    for engine, worth, state, legal in positions(variant):
        goal = 1.0 if engine.rules.game.goal == "highest" else -1.0   # (taking counts against the taker: -1)
        features = {name: unit(engine, name).ratings(worth, state, legal) for name in FEATURES}
        for name in ("taken_cards", "clears"):
            features[name] = [goal * x for x in features[name]]
        for i, move in enumerate(legal):
            kind = move.kind
            kinds.add(kind)
            capture, build = kind is MoveKind.CAPTURE, kind in (MoveKind.BUILD, MoveKind.TRAIL_BUILD)
            left = state.table & ~move.loose if capture or build else state.table | move.played
            assert features["trails"][i] == float(not capture and not build)
            assert features["builds"][i] == float(build)
            assert features["left_cards"][i] == left.bit_count()
            assert features["left"][i] == pytest.approx(worth.of(left))
            assert features["trailed"][i] == (pytest.approx(worth.of(move.played)) if kind is MoveKind.TRAIL else 0.0)
            assert features["clears"][i] in (0.0, 1.0) and (features["clears"][i] == 0.0 or capture)
            if features["clears"][i]:
                assert not left and features["left_one"][i] == 0.0
            assert 0.0 <= features["trail_value"][i] <= 1.0 and 0.0 <= features["build_value"][i] <= 1.0
            if not capture:
                assert features["taken"][i] == features["taken_cards"][i] == 0.0
    assert MoveKind.CAPTURE in kinds and MoveKind.TRAIL in kinds


@pytest.mark.parametrize("variant", ("standard", "scopa", "south-african-casino"))
def test_the_rating_reads_no_hidden_card(variant: str) -> None:
    """Dealing the cards the mover cannot see otherwise (the other hands, the stock) changes no rating:
    a playout's own moves are not chosen by what its seat could not know."""
    rng = random.Random(8)
    checked = 0
    for engine, worth, state, legal in positions(variant, every=3):
        policy = PlayoutPolicy(engine)
        again = determinize(engine, state, state.turn, rng)
        assert policy.ratings(worth, again, legal) == policy.ratings(worth, state, legal)
        checked += again.hands != state.hands or again.stock != state.stock
    assert checked >= 5   # (positions whose unseen cards were really dealt otherwise)


def test_the_rating_is_linear_in_its_weights() -> None:
    for engine, worth, state, legal in positions("standard", every=2):
        parts = [unit(engine, name).ratings(worth, state, legal) for name in FEATURES]
        expected = [sum(w * column[i] for w, column in zip(FITTED, parts)) for i in range(len(legal))]
        assert PlayoutPolicy(engine).ratings(worth, state, legal) == pytest.approx(expected, abs=1e-9)


def test_a_playout_moves_by_its_best_rating_to_the_end_of_the_deal() -> None:
    engine = Engine(load_rules("standard"))
    worth = CardWorth(engine, Scorer(engine))
    policy = PlayoutPolicy(engine)
    state: HandState = engine.start(4, 2)
    first = engine.playable_moves(state)[0]
    end = policy.playout(engine, worth, state, first, whole_hand=False)
    assert end.deal_no == state.deal_no + 1 and end.ply == state.ply + 8
    replay = engine.apply(state, first)
    while replay.deal_no == state.deal_no:
        replay = engine.apply(replay, policy.move(engine, worth, replay))
    assert replay == end
    hand_end = policy.playout(engine, worth, state, first, whole_hand=True)
    assert hand_end.over


@pytest.mark.parametrize("weights", [(), (1.0,) * 11, (1.0,) * 13])
def test_a_policy_of_the_wrong_number_of_weights_is_refused(weights: tuple[float, ...]) -> None:
    with pytest.raises(ValueError, match=f"has {len(FEATURES)} weights"):
        PlayoutPolicy(Engine(load_rules("standard")), weights)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), "1", None, True])
def test_a_policy_of_a_weight_not_a_finite_number_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="weights are finite numbers"):
        PlayoutPolicy(Engine(load_rules("standard")), (*FITTED[:-1], bad))  # type: ignore[arg-type]


@pytest.mark.parametrize("playouts", ["random", "", None, 1])
def test_the_search_refuses_an_unknown_playout(playouts: object) -> None:
    with pytest.raises(ValueError, match="playouts is one of fitted, greedy"):
        SearchBot(1, playouts=playouts)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant,players", [("standard", 2), ("hoyle", 2)])
def test_the_searchs_playouts_are_its_policys(variant: str, players: int) -> None:
    """The search with greedy playouts and with the policy under greedy weights choose alike; with the
    fitted policy (the default) it plays a whole hand of legal moves, the same again from the same seed."""
    engine = Engine(load_rules(variant))
    game = Game.new(engine, 7, players)
    weighted = benchmark("fit_playout_policy").WeightedSearch(3, GREEDY, iterations=16)   # (the fit's self-play)
    greedy = SearchBot(3, iterations=16, playouts="greedy")
    runs: list[list[Move]] = []
    for _ in range(2):
        fitted, other = SearchBot(3, iterations=16), game
        played: list[Move] = []
        while not other.over and other.hand_no == 1:
            seat = other.hand.turn
            if len(played) < 6:
                greedy.reseed(len(played))
                weighted.reseed(len(played))
                assert greedy.choose(other, seat) == weighted.choose(other, seat)
            move = fitted.choose(other, seat)
            assert move in other.legal_moves()
            played.append(move)
            other = other.play(move)
        runs.append(played)
    assert runs[0] == runs[1] and len(runs[0]) > 20
    assert SearchBot(1).playouts == "fitted"


@pytest.mark.parametrize("variant,players", [
    ("standard", 2), ("scopa", 2), ("south-african-casino", 2), ("kasino-misar", 2), ("krypkasino", 2),
    ("standard", 4), ("scopone", 4), ("royal", 3), ("royal", 4), ("escoba", 4), ("draw", 4),
    ("kasino-misar", 4), ("krypkasino", 4), ("swedish-kasino", 4), ("dominican", 4), ("spade", 4),
    ("face-builds", 4), ("finnish-kasino", 4), ("dominican-soto", 4)])
def test_the_policy_plays_out_where_weights_are_fitted_or_two_play_a_game_won_by_the_highest_total(
        variant: str, players: int) -> None:
    """The standard weights were fitted to 2-player hands of a game won by the highest total, and play in every
    such game; elsewhere (they lost points where the lowest wins and in 4-player Scopone) the search plays out
    greedily unless weights fitted to those rules and that seating are shipped (``players/playout_weights.json``);
    a shipped entry of null weights (greedy playouts measured better there) plays out greedily."""
    from cassino.players import weights

    rules = load_rules(variant)
    game = Game.new(Engine(rules), 2, players, partners=players == 4)
    shipped = weights.find(weights.bundled(), weights.rules_hash(rules), players, players == 4)
    policy = SearchBot(1).policy(game)
    fallback = shipped is None and players == 2 and rules.game.goal == "highest"
    assert (policy is not None) is (fallback or (shipped is not None and shipped.weights is not None))
    if shipped is not None and shipped.weights is not None:
        assert policy is not None and policy.weights == shipped.weights
    assert SearchBot(1, playouts="greedy").policy(game) is None


@pytest.mark.parametrize("variant,players", [("scopone", 4), ("standard", 2), ("royal", 3), ("kasino-misar", 2),
                                             ("krypkasino", 2), ("swazi-casino", 2), ("draw", 2), ("escoba", 2)])
def test_rating_by_keys_is_rating_the_moves(variant: str, players: int) -> None:
    """``key_ratings`` (a playout's moves rated from their keys, no Move made) gives the very floats ``ratings``
    gives the same moves as Moves, and ``best_key`` the move ``best_index`` picks: the search plays the same
    moves either way. Two packs (Krypkasino: masks wider than a machine word), builds, pile tops in play
    (Swazi), a partner as the next seat (Scopone) and a capture by a fixed total (Escoba) among them."""
    rated = 0
    for engine, worth, state, legal in positions(variant, players):
        keys = engine.move_keys(state)
        assert engine.moves_of(state, keys) == legal
        for weights in (FITTED, GREEDY, tuple(random.Random(len(keys)).uniform(-1, 1) for _ in FEATURES)):
            policy = PlayoutPolicy(engine, weights)
            ratings = policy.ratings(worth, state, legal)
            by_keys = policy.key_ratings(worth, state, keys)
            assert [r.hex() for r in by_keys] == [r.hex() for r in ratings]
            if len(keys) > 1:
                assert policy.best_key(worth, state, keys) == best_index(ratings)
        if len(keys) > 1:   # the greedy playout's choice by key, too, and the solver's order of moves
            assert best_gain_key(worth, state, keys) == best_index(gains(worth, state, legal))
            assert best_gain_key(worth, state, keys, engine) == best_index(gains(worth, state, legal))
        for rater in (None, engine):
            assert ([g.hex() for g in key_gains(worth, state, keys, rater)]
                    == [g.hex() for g in gains(worth, state, legal)])
        rated += len(keys)
    assert rated > 40


def test_best_key_of_no_keys_is_a_clear_error() -> None:
    engine = Engine(load_rules("scopone"))
    worth = CardWorth(engine, Scorer(engine))
    state = engine.start(1, 4)
    with pytest.raises(ValueError, match="no move keys"):
        PlayoutPolicy(engine).best_key(worth, state, [])
    with pytest.raises(ValueError, match="no move keys"):
        best_gain_key(worth, state, [])
