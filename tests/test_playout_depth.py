"""How far the search's playouts go: ``SearchBot(depth=...)``, ``playouts.playout``'s ``stop``.

By default a playout plays at most as many cards as the hands hold at the decision (``"hands"``): in a
variant that deals anew that is the deal's end, as before; where the players draw after every play (draw
Cassino) it stops a playout short of the stock's end, and the outlook values what is left. The playouts
count their work (legal moves listed, plies) in a tally, the same on every machine.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.scoring import Scorer
from cassino.language.variants import load_rules
from cassino.players.gain import CardWorth, held
from cassino.players.playouts import playout
from cassino.players.policy import FITTED, PlayoutPolicy
from cassino.players.search import CROWD, DEPTHS, LEAST_DEALS, SearchBot
from cassino.players.solver import cards_left


def _game(variant: str, seed: int = 3) -> Game:
    return Game.new(Engine(load_rules(variant)), seed, 2).with_(target=None)


def test_where_the_playouts_stop_by_depth() -> None:
    draw, standard = _game("draw"), _game("standard")
    in_hands = sum(h.bit_count() for h in draw.hand.hands)
    assert draw.hand.stock and in_hands == 8
    assert SearchBot().depth == "fitted" and DEPTHS == ("fitted", "hands", "deal")
    assert SearchBot().stop(draw, False) == cards_left(draw.hand) - in_hands
    assert SearchBot(depth="deal").stop(draw, False) == -1
    assert SearchBot(depth=5).stop(draw, False) == cards_left(draw.hand) - 5
    assert SearchBot(depth=500).stop(draw, False) == 0
    assert SearchBot().stop(draw, True) == -1            # (a playout to the hand's end: no bound)
    assert SearchBot().stop(standard, False) == -1       # (the deal ends when the hands are empty)
    assert SearchBot(depth=3).stop(standard, False) == cards_left(standard.hand) - 3


@pytest.mark.parametrize("policy", [None, "fitted"])
def test_a_playout_stops_where_asked_and_counts_its_work(policy: str | None) -> None:
    game = _game("draw")
    engine, state = game.engine, game.hand
    worth = CardWorth(engine, Scorer(engine))
    rating = None if policy is None else PlayoutPolicy(engine, FITTED)
    move = engine.legal_moves(state)[0]
    start = held(state)
    tally = [0, 0]
    short = playout(engine, worth, state, move, False, rating, 0.0, start - 8, tally)
    assert held(short) == start - 8 and not short.over
    assert tally[1] == 7 and tally[0] >= tally[1]        # (the move itself, then seven plies)
    whole = [0, 0]
    end = playout(engine, worth, state, move, False, rating, 0.0, -1, whole)
    assert end.over and held(end) == 0 and whole[1] > 30 and whole[0] >= whole[1]
    assert playout(engine, worth, state, move, False, rating) == end   # (no tally: the same playout)


def test_the_search_is_the_same_with_the_same_seed_and_counts_its_playouts() -> None:
    game = _game("draw", 5)
    seat = game.hand.turn
    first, again = SearchBot(4, iterations=8, width=3), SearchBot(4, iterations=8, width=3)
    assert first.choose(game, seat) == again.choose(game, seat)
    assert first.work_done == again.work_done and first.work_done[0] >= first.work_done[1] > 0
    deep = SearchBot(4, iterations=8, width=3, depth="deal")
    deep.choose(game, seat)
    assert deep.work_done[1] > first.work_done[1]   # (the stock played out: more plies)
    assert SearchBot().work_done == (0, 0)


@pytest.mark.parametrize("bad", [0, -1, "hand", "", True, 2.5, None, [8]])
def test_a_bad_depth_is_refused_saying_what_it_may_be(bad: object) -> None:
    with pytest.raises(ValueError, match="depth is fitted or hands or deal or a number of cards above 0"):
        SearchBot(depth=bad)  # type: ignore[arg-type]


class _Counting(SearchBot):
    """The search, counting the deals it draws."""

    def __init__(self, seed: int, **settings: object) -> None:
        super().__init__(seed, **settings)  # type: ignore[arg-type]
        self.deals = 0

    def sampled_values(self, *args: object) -> list[float]:  # type: ignore[override]
        self.deals += 1
        return super().sampled_values(*args)  # type: ignore[arg-type]


def test_long_playouts_take_fewer_deals_with_scale_above() -> None:
    scopone = Game.new(Engine(load_rules("scopone")), 3, 4, partners=True).with_(target=None)
    seat = scopone.hand.turn
    assert sum(h.bit_count() for h in scopone.hand.hands) == 36
    counts = {}
    for above in (0, 16, 2):
        bot = _Counting(1, scale_above=above, close=0, z=1e9, cap=None, width=2)
        bot.choose(scopone, seat)
        counts[above] = bot.deals
    assert counts == {0: 64, 16: 64 * 16 // 36, 2: LEAST_DEALS}
    assert SearchBot().scale_above == 0
    standard = _game("standard")
    plain, scaled = _Counting(1, close=0), _Counting(1, close=0, scale_above=16)
    assert plain.choose(standard, standard.hand.turn) == scaled.choose(standard, standard.hand.turn)
    assert plain.deals == scaled.deals   # (8 cards in hand: as before)


@pytest.mark.parametrize("bad", [-1, True, 2.5, "16", None])
def test_a_bad_scale_above_is_refused_with_its_name(bad: object) -> None:
    with pytest.raises(ValueError, match="scale_above is a number of cards in hand, 0 or more"):
        SearchBot(scale_above=bad)  # type: ignore[arg-type]


def test_a_decision_without_playouts_did_no_playout_work() -> None:
    game = _game("standard", 2)
    bot = SearchBot(1, iterations=8)
    bot.choose(game, game.hand.turn)
    assert bot.work_done[1] > 0
    while game.hand.stock or not game.hand.turn == 0:   # (to the last deal: the exact solver's moves)
        game = game.play(game.legal_moves()[0])
    assert bot.choose(game, 0) in game.legal_moves() and bot.work_done == (0, 0)


def test_a_playout_can_end_a_turn_of_several_actions_at_its_card() -> None:
    """``SearchBot(after_card="end")``: in South African Casino's turns of several actions a playout ends
    the turn as soon as its card from the hand is played (no builds after it, nothing listed for them):
    fewer moves listed; every playout ends its turns (``playout(close=True)`` leaves no turn
    open). Where turns are one action (standard Casino) it changes nothing. A bad value is refused."""
    from cassino.players.search import AFTER_CARD

    assert AFTER_CARD == ("choose", "end") and SearchBot().after_card == "choose"
    african = Game.new(Engine(load_rules("south-african-casino")), 3, 2).with_(target=None)
    work = {}
    for after in AFTER_CARD:
        bot = SearchBot(seed=1, iterations=2, close=0, cap=None, after_card=after)
        assert bot.choose(african, african.hand.turn) in african.legal_moves()
        work[after] = bot.work_done
    assert 0 < work["end"][0] < work["choose"][0] and work["end"][1] > 0
    engine, state = african.engine, african.hand
    worth = CardWorth(engine, Scorer(engine))
    move = engine.legal_moves(state)[0]
    for whole_hand in (False, True):
        tally = [0, 0]
        end = playout(engine, worth, state, move, whole_hand, None, close=True, tally=tally)
        assert (end.over or end.deal_no > state.deal_no) and not end.turn_card and tally[1] > 0
    standard = _game("standard")
    moves, done = [], []
    for after in AFTER_CARD:
        bot = SearchBot(seed=1, iterations=8, cap=None, after_card=after)
        moves.append(bot.choose(standard, standard.hand.turn))
        done.append(bot.work_done)
    assert moves[0] == moves[1] and done[0] == done[1]
    for bad in ("stop", "", None, True):
        with pytest.raises(ValueError, match="after_card"):
            SearchBot(after_card=bad)  # type: ignore[arg-type]


def _crowded(game: Game, loose: int) -> Game:
    """``game`` played on by trailing (a turn of several actions ended at its card), while a trail is legal,
    until at least ``loose`` loose cards lie on the table and no turn is open."""
    while game.hand.table.bit_count() < loose or game.hand.turn_card:
        moves = game.legal_moves()
        quiet = [m for m in moves if m.kind.name in ("END", "TRAIL")]
        game = game.play(quiet[0] if quiet else moves[0])
    return game


@pytest.mark.parametrize("policy", [None, "fitted"])
def test_a_playout_stops_at_a_crowded_table(policy: str | None) -> None:
    """``playout(crowd=N)`` stops where more than N loose cards lie on the table: nothing more listed, the
    outlook values the position as it is; -1 (the default) never stops for it, nor does a crowd no table reaches."""
    game = _crowded(_game("standard"), 6)
    engine, state = game.engine, game.hand
    worth = CardWorth(engine, Scorer(engine))
    rating = None if policy is None else PlayoutPolicy(engine, FITTED)
    loose = state.table.bit_count()
    trail = next(m for m in engine.legal_moves(state) if m.kind.name == "TRAIL")
    tally = [0, 0]
    assert playout(engine, worth, state, trail, False, rating, tally=tally, crowd=loose) == engine.apply(state, trail)
    assert tally == [0, 0]
    whole = [0, 0]
    end = playout(engine, worth, state, trail, False, rating, tally=whole)
    assert whole[1] > 0 and end != engine.apply(state, trail)
    for crowd in (-1, 52):
        again = [0, 0]
        assert playout(engine, worth, state, trail, False, rating, tally=again, crowd=crowd) == end
        assert again == whole
    roomy = [0, 0]   # (one card more allowed: the table holds loose + 1 after the trail, so at least one ply)
    playout(engine, worth, state, trail, False, rating, tally=roomy, crowd=loose + 1)
    assert roomy[1] >= 1


def test_the_search_stops_its_playouts_at_a_crowded_table(tmp_path: Path) -> None:
    """``SearchBot(crowd=...)``: its playouts stop where the table is crowded (fewer moves listed, a legal
    move still chosen, the same with the same seed); by default (``CROWD``) a South African Casino won by the
    lowest total, whose 13 loose cards make 11,809 legal moves, is decided without a playout listing any (in
    pure Python 0.2 s against two minutes for two deals of three candidates); a bad value is refused."""
    game = _crowded(_game("standard"), 7)
    seat = game.hand.turn
    work = {}
    for crowd in (-1, 4):   # (4: a playout stops while the table holds more than four of its seven cards)
        bot = SearchBot(2, iterations=8, close=0, cap=None, crowd=crowd)
        assert bot.choose(game, seat) in game.legal_moves()
        work[crowd] = bot.work_done
    assert 0 < work[4][0] < work[-1][0]
    first, again = SearchBot(2, iterations=8, cap=None, crowd=4), SearchBot(2, iterations=8, cap=None, crowd=4)
    assert first.choose(game, seat) == again.choose(game, seat) and first.work_done == again.work_done
    for bad in (-2, True, 2.5, "10", None):
        with pytest.raises(ValueError, match="crowd is a number of loose table cards"):
            SearchBot(crowd=bad)  # type: ignore[arg-type]
    assert SearchBot().crowd == CROWD == 12
    house = tmp_path / "lowest.yaml"
    house.write_text("name: lowest-african\nextends: south-african-casino\ngame:\n  goal: lowest\n")
    lowest = _crowded(Game.new(Engine(load_rules(str(house))), 3, 3).with_(target=None), 13)
    assert len(lowest.legal_moves()) > 10_000
    bot = SearchBot(1, iterations=2, width=3, close=0, cap=None)
    assert bot.choose(lowest, lowest.hand.turn) in lowest.legal_moves() and bot.work_done == (0, 0)


# ---------------------------------------------------------------- a horizon measured for the rules and seating

HOUSE = "name: house-horizon\nextends: standard\nscoring:\n  items:\n    sweeps: {points: 2}\n"


@pytest.fixture
def house(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A house rule of the test's own, and an empty user cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "house.yaml"
    path.write_text(HOUSE, encoding="utf-8")
    return path


def test_a_horizon_measured_for_the_rules_bounds_their_playouts_and_is_said(house: Path, cli,  # type: ignore[no-untyped-def]
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry's ``depth`` (``weights.Entry``): the default search (``depth="fitted"``) plays at most that
    many cards a playout at that seating, whatever its playouts; an asked-for depth comes first; other
    seatings are as they were; ``cassino explain`` says so."""
    from cassino.players import weights as store

    rules = load_rules(str(house))
    key = store.rules_hash(rules)
    three = store.Entry(key, "house-horizon", 3, False, None, depth=6, note="a horizon alone")
    four = store.Entry(key, "house-horizon", 4, True, FITTED, hands=10, depth=9)
    monkeypatch.setattr(store, "bundled", lambda: (three, four))
    store._cached.cache_clear()
    try:
        game = Game.new(Engine(rules), 2, 3).with_(target=None)
        choice = SearchBot().playout_choice(game)
        assert (choice.source, choice.weights, choice.depth) == ("bundled", None, 6)
        assert "with a horizon measured for these rules" in choice.text
        assert "each playout at most 6 cards, the outlook valuing the rest" in choice.said
        assert SearchBot().stop(game, False) == cards_left(game.hand) - 6
        assert SearchBot(depth="hands").stop(game, False) == -1          # (asked for: the hands)
        assert SearchBot(depth=3).stop(game, False) == cards_left(game.hand) - 3
        assert SearchBot().stop(game, True) == -1                        # (a playout to the hand's end)
        assert SearchBot(playouts="greedy").playout_choice(game).depth == 6   # (whatever the playouts)
        assert SearchBot(weights=FITTED).playout_choice(game).depth == 6
        told = SearchBot(depth="hands").playout_choice(game)               # (a player told its depth: not said)
        assert told.depth is None and "at most" not in told.said and told.source == "bundled"
        partners = Game.new(Engine(rules), 2, 4, partners=True).with_(target=None)
        choice = SearchBot().playout_choice(partners)
        assert (choice.weights, choice.depth) == (FITTED, 9) and "at most 9 cards" in choice.said
        alone = Game.new(Engine(rules), 2, 4).with_(target=None)
        assert SearchBot().playout_choice(alone).depth is None and SearchBot().stop(alone, False) == -1
        two = Game.new(Engine(rules), 2, 2).with_(target=None)
        assert SearchBot().playout_choice(two).depth is None
        code, out, err = cli("explain", str(house))
        assert code == 0, err
        assert "3 players: greedy playouts for 3 players, with a horizon measured" in out
        assert "4 players in partnerships: playouts fitted to these rules" in out and "at most 9 cards" in out
        # the bound holds in a real decision: fewer plies played out than to the end of the hand
        short, whole = SearchBot(1, iterations=8, close=0, cap=None), SearchBot(1, iterations=8, close=0, cap=None,
                                                                                depth="hands")
        assert short.choose(game, game.hand.turn) in game.legal_moves()
        whole.choose(game, game.hand.turn)
        assert 0 < short.work_done[1] < whole.work_done[1]
    finally:
        store._cached.cache_clear()


def test_a_horizon_is_written_only_where_one_was_measured_and_read_back() -> None:
    from cassino.players import weights as store

    plain = store.Entry("0123456789abcdef", "x", 2, False, FITTED)
    cut = store.Entry("0123456789abcdef", "x", 3, False, None, depth=12)
    text = store.dump([plain, cut])
    assert text.count('"depth"') == 1 and '"depth": 12' in text
    assert store.parse(text.encode(), "x.json") == [plain, cut]


@pytest.mark.parametrize("bad", [0, -3, 1001, True, 2.5, "8", [8], {}])
def test_a_bad_horizon_in_a_weights_file_is_damage_said_where(bad: object) -> None:
    import json

    from cassino.files import FileProblem
    from cassino.players import weights as store
    from cassino.players.policy import FEATURES

    entry = {"rules": "0123456789abcdef", "variant": "x", "players": 3, "partners": False, "weights": None,
             "depth": bad}
    raw = json.dumps({"format": store.FORMAT, "version": store.VERSION, "features": list(FEATURES),
                      "entries": [entry]}).encode()
    with pytest.raises(FileProblem, match=r"entry 1: `depth` is a number of cards from 1 to 1000, or absent"):
        store.parse(raw, "w.json")
