"""Points per hand add up to what each variant's rules say, and every variant plays whole games to a winner."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cassino.players.bots import GreedyBot
from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.scoring import Scorer
from cassino.language.variants import load_rules

from conftest import ROOT, VARIANTS


def play_out(engine: Engine, seed: int, players: int):
    rnd = random.Random(seed)
    state = engine.start(seed, players)
    while not state.over:
        state = engine.apply(state, rnd.choice(engine.legal_moves(state)))
    return state


def counts(engine: Engine, state, pred) -> list[int]:
    return [sum(1 for i in range(engine.n_cards) if state.side_pile(s) >> i & 1 and pred(engine.deck.cards[i]))
            for s in state.sides]


def unique_max(values: list[int]) -> bool:
    return values.count(max(values)) == 1


def live_sweeps(state) -> list:
    return [w for w in state.sweeps if not w.cancelled]


#: Primiera's points by rank (Parlett's table, as the Scopa family's sources give it).
PRIMIERA = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "J": 10, "Q": 10, "K": 10}


def primiera_has_a_winner(engine: Engine, state) -> bool:
    """One side's best card of each suit adds up to more than every other side's, and it holds all suits."""
    totals = []
    for s in state.sides:
        best: dict[str, int] = {}
        for i in range(engine.n_cards):
            if state.side_pile(s) >> i & 1:
                card = engine.deck.cards[i]
                best[card.suit] = max(best.get(card.suit, 0), PRIMIERA[card.rank])
        totals.append(sum(best.values()) if len(best) == 4 else -1)
    return unique_max(totals) and max(totals) >= 0


def expected_total(name: str, engine: Engine, state) -> int:
    """The hand's points by the rule texts' arithmetic, from the piles alone."""
    cards = counts(engine, state, lambda c: True)
    if name in ("scopa", "scopone", "escoba"):
        # Most cards, most coins (diamonds), the seven of coins, primiera (setenta), each sweep: 1 point each.
        coins = counts(engine, state, lambda c: c.suit == "D")
        return unique_max(cards) + unique_max(coins) + 1 + primiera_has_a_winner(engine, state) + len(live_sweeps(state))
    if name == "kasino-misar":
        # Krypkasino's penalty cards in one pack: 10D 3, 2S 2, four aces, twelve other spades: 21;
        # a tabbe's +5 to the sweeper and -5 to the player before add up to nothing.
        return 21
    if name == "south-african-casino":
        # Most cards 2 and most spades 2 (ties 1-1) only with two sides, 10D 2, 2S 1, four aces: 11 or 7.
        return 11 if len(state.sides) == 2 else 7
    if name == "krypkasino":
        # The same penalty cards in two packs: "the total value of all the cards in the double deck
        # is 42 points" (pagat); the tabbe's +5 and -5 again add up to nothing.
        return 42
    spades = counts(engine, state, lambda c: c.suit == "S")
    sweeps = live_sweeps(state)
    if name == "tuxedo":
        sweep_pts = sum(10 if w.size >= 4 else 5 for w in sweeps)
        oranges = sum(1 for e in state.events if e.name == "orange")
        return 15 * unique_max(cards) + 20 + 10 * oranges + sweep_pts
    if name == "spade":
        return 24 - 3 * (not unique_max(cards)) + len(sweeps)
    if name in ("swedish-kasino", "finnish-kasino"):
        # Nordic Casino: cards 1, spades 2, 10D 2, 2S 1, aces 4; a hut or tabbe 1; Sweden 1 for the last capture.
        tied = spades.count(max(spades))
        spade_pts = 2 if tied == 1 else (2 // tied) * tied if name == "finnish-kasino" else 0
        last = 1 if name == "swedish-kasino" and state.last_capturer is not None else 0
        return unique_max(cards) + spade_pts + 7 + len(sweeps) + last
    if name == "swazi-casino":
        # Swazi (issue 36): most cards 2 and most spades 2, tied sides share them; 10D 2, 2S 1, aces 4.
        def shared(counts: list[int]) -> int:
            tied = counts.count(max(counts))
            return 2 if tied == 1 else (2 // tied) * tied
        return shared(cards) + shared(spades) + 7
    base = 11 - 3 * (not unique_max(cards)) - (not unique_max(spades))
    sweep_points = {"standard": 0, "royal": 0, "draw": 0}.get(name, 1)
    extra = sum(2 if w.first_play and name == "hungarian-ulmann" else sweep_points for w in sweeps)
    return base + extra


@pytest.mark.parametrize("name", VARIANTS)
@given(seed=st.integers(0, 2**32 - 1))
def test_points_per_hand_add_up(name: str, seed: int) -> None:
    engine = Engine(load_rules(name))
    scorer = Scorer(engine)
    state = play_out(engine, seed, engine.rules.seats.min_players)
    points, _ = scorer.hand_points(state, restrictions_on=False)
    assert sum(points.values()) == expected_total(name, engine, state)


def test_sweeps_cancel_one_for_one_in_dominican() -> None:
    engine = Engine(load_rules("dominican"))
    for seed in range(40):
        state = play_out(engine, seed, 2)
        live = live_sweeps(state)
        assert len({state.teams[w.seat] for w in live}) <= 1, "after cancelling, at most one side has sweeps"


@pytest.mark.parametrize("name", VARIANTS)
def test_whole_game_reaches_a_winner(name: str) -> None:
    rules = load_rules(name)
    engine = Engine(rules)
    players = 4 if rules.seats.max_players >= 4 and name in ("dominican", "standard") else rules.seats.min_players
    bots = [GreedyBot(s) for s in range(players)]
    game = Game.new(engine, 12345, players, partners=players == 4)
    for _ in range(5000):
        if game.over:
            break
        for s, b in enumerate(bots):
            if b.wants_to_claim(game, s):
                game = game.claim(s)
                break
        if game.over:
            break
        game = game.play(bots[game.hand.turn].choose(game, game.hand.turn))
    assert game.over
    assert game.winner is not None
    if rules.game.target is not None and game.ended_by == "target" and rules.game.goal == "lowest":
        # A negative game: some side is at the loss limit and the winner has the one lowest total.
        assert max(game.scores) >= game.target
        assert sorted(game.scores).count(game.scores[game.winner]) == 1 and game.scores[game.winner] == min(game.scores)
    elif rules.game.target is not None and game.ended_by == "target":
        assert game.scores[game.winner] >= game.target


def test_eleven_up_scores_the_difference() -> None:
    rules = load_rules(str(ROOT / "examples" / "hoyle-eleven-up.yaml"))
    engine = Engine(rules)
    scorer = Scorer(engine)
    state = play_out(engine, 4, 2)
    points, _ = scorer.hand_points(state)
    result = scorer.result(state, {0: 0, 1: 0})
    diff = abs(points[0] - points[1])
    assert sorted(result.scores.values()) == [0, diff]


def test_in_a_negative_game_the_computer_players_avoid_penalties() -> None:
    """In kasino-misar points are penalties: the greedy player's card worth counts them against the taker,
    so between two captures it takes the one without the 10 of diamonds (3 penalty points), and the exact
    solver values a finished hand by the fewer points."""
    from cassino.engine.core import Position
    from cassino.players.gain import CardWorth
    from cassino.players.greedy import GreedyBot
    from cassino.players.solver import Solver

    rules = load_rules("kasino-misar")
    engine = Engine(rules)
    scorer = Scorer(engine)
    worth = CardWorth(engine, scorer)
    d = engine.deck
    assert worth.of(1 << d.index(d.parse("10D"))) < worth.of(1 << d.index(d.parse("9H"))) < 0
    # Seat 0 holds 10C and 9C: 10C takes 10D (3 penalties), 9C takes 9H (none); both must capture.
    state = engine.position(Position(players=2, hands={0: [d.parse("10C"), d.parse("9C")],
                                                       1: [d.parse("3H"), d.parse("4H")]},
                                     table=[d.parse("10D"), d.parse("9H")], stock=[]))
    game = Game.new(engine, 1, 2).with_(hand=state)
    move = GreedyBot(1).choose(game, 0)
    assert move.loose == 1 << d.index(d.parse("9H")), move
    solver = Solver(engine, scorer, side=0)
    best = solver.best_move(state)
    assert best.loose == 1 << d.index(d.parse("9H")), best


@pytest.mark.parametrize("name, players", [("krypkasino", 6), ("kasino-misar", 6), ("standard", 4), ("scopone", 4)])
def test_a_game_set_at_a_partnered_hand_deals_the_next_hand_in_the_same_teams(name: str, players: int) -> None:
    """``Game.at`` (scenario cases, analysis) read partnerships by a partner opposite at four seats only, so a
    six-player game in three teams of two set at a finished hand dealt the next hand with every seat alone,
    and its scores (three sides) no longer matched the seats (the counting aid and the browser's table
    failed there: the matrix's runs from the scenario files' positions found it)."""
    engine = Engine(load_rules(name))
    hand = engine.start(seed=3, players=players, partners=True)
    while not hand.over:
        hand = engine.apply(hand, engine.legal_moves(hand)[0])
    game = Game.at(engine, hand, {side: 1 for side in hand.sides})
    assert game.partners and game.hand_no == 2 and not game.hand.over
    assert game.hand.teams == hand.teams and len(game.scores) == len(hand.sides)
    alone = engine.start(seed=3, players=players, partners=False)
    if name != "scopone":                                   # (Scopone's four always play in partnerships)
        assert alone.teams == tuple(range(players)) and not Game.at(engine, alone).partners
