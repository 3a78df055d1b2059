"""Computer players through the public API: what they may know, what they choose, how they are named."""

from __future__ import annotations

import random

import pytest

from cassino.players.bots import GreedyBot, SearchBot, make_bot
from cassino.engine.core import Engine, bits
from cassino.errors import CassinoError
from cassino.engine.game import Game
from cassino.engine.moves import MoveKind
from cassino.engine.state import HandState
from cassino.language.variants import load_rules


def _mid_hand(variant: str, seed: int, plies: int, players: int = 2, partners: bool = False) -> Game:
    """A game some random plies into its first hand."""
    game = Game.new(Engine(load_rules(variant)), seed, players, partners=partners)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.over:
            break
        game = game.play(rng.choice(game.legal_moves()))
    return game


def _seen(state: HandState, seat: int) -> int:
    """Every card but the other hands and the stock."""
    hidden = sum(1 << i for i in state.stock)
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= hand
    return ((1 << 52) - 1) & ~hidden


def _shuffle_hidden(state: HandState, seat: int, seed: int) -> HandState:
    """The same position as ``seat`` sees it, with the cards it cannot see dealt differently."""
    hidden = [i for i in range(52) if not _seen(state, seat) >> i & 1]
    random.Random(seed).shuffle(hidden)
    hands = list(state.hands)
    for other in range(state.players):
        if other != seat:
            size = len(bits(state.hands[other]))
            hands[other] = sum(1 << hidden.pop() for _ in range(size))
    return state.with_(hands=tuple(hands), stock=tuple(hidden))


POSITIONS = [("standard", 3, 5), ("royal", 8, 9), ("dominican", 2, 4), ("hoyle", 5, 7), ("spade", 1, 2),
             ("standard", 9, 11), ("tuxedo", 4, 3), ("draw", 6, 6)]


@pytest.mark.parametrize("variant,seed,plies", POSITIONS)
def test_determinize_reads_nothing_the_seat_cannot_see(variant: str, seed: int, plies: int) -> None:
    """Two positions that differ only in cards the seat cannot see give the same guesses."""
    game = _mid_hand(variant, seed, plies)
    seat = game.hand.turn
    guesses = {SearchBot(seed=1).determinize(game.engine, _shuffle_hidden(game.hand, seat, k), seat)
               for k in range(3)}
    assert len(guesses) == 1


@pytest.mark.parametrize("variant,seed,plies", POSITIONS)
def test_search_choice_does_not_depend_on_hidden_cards(variant: str, seed: int, plies: int) -> None:
    game = _mid_hand(variant, seed, plies)
    seat = game.hand.turn
    choices = set()
    for k in range(3):
        other = game.with_(hand=_shuffle_hidden(game.hand, seat, k))
        assert other.legal_moves() == game.legal_moves()
        choices.add(SearchBot(seed=1, iterations=8).choose(other, seat))
    assert len(choices) == 1


def test_determinize_keeps_what_the_seat_sees_and_deals_the_rest() -> None:
    game = _mid_hand("standard", 4, 6)
    state, seat = game.hand, game.hand.turn
    bot = SearchBot(seed=2)
    for _ in range(20):
        guess = bot.determinize(game.engine, state, seat)
        assert guess.hands[seat] == state.hands[seat] and guess.table == state.table
        assert guess.builds == state.builds and guess.piles == state.piles
        for other in range(state.players):
            assert len(bits(guess.hands[other])) == len(bits(state.hands[other]))
        hidden_before = sum(state.hands[o] for o in range(state.players) if o != seat) | sum(1 << i for i in state.stock)
        hidden_after = sum(guess.hands[o] for o in range(state.players) if o != seat) | sum(1 << i for i in guess.stock)
        assert hidden_after == hidden_before
        assert len(guess.stock) == len(state.stock)


def test_determinize_gives_a_build_holder_a_card_to_take_it() -> None:
    """A player who builds must hold a card of the build's value; the search assumes it."""
    engine = Engine(load_rules("standard"))
    found = 0
    for seed in range(200):
        game = Game.new(engine, seed, 2)
        builds = [m for m in game.legal_moves() if m.kind is MoveKind.BUILD]
        if not builds:
            continue
        game = game.play(builds[0])
        state, seat = game.hand, game.hand.turn
        (build,) = state.builds
        bot = SearchBot(seed=seed)
        for _ in range(10):
            guess = bot.determinize(engine, state, seat)
            assert build.value in engine.captured_values(guess.hands[build.holder])
        found += 1
        if found == 5:
            break
    assert found == 5


def test_search_takes_a_sweep_over_a_trail() -> None:
    """With one loose card on the table and the card to take it in hand, taking it is a sweep."""
    engine = Engine(load_rules("standard"))
    for seed in range(500):
        game = Game.new(engine, seed, 2)
        sweeps = [m for m in game.legal_moves()
                  if m.kind is MoveKind.CAPTURE and m.loose == game.hand.table and not game.hand.builds]
        if sweeps:
            break
    else:
        pytest.fail("no position with a sweep in 500 deals")
    move = SearchBot(seed=0, iterations=16).choose(game, game.hand.turn)
    assert move.kind is MoveKind.CAPTURE and move.loose == game.hand.table


def test_greedy_prefers_points_to_nothing() -> None:
    game = _mid_hand("standard", 7, 0)
    bot = GreedyBot()
    move = bot.choose(game, game.hand.turn)
    best = max(bot.score(game, m) for m in game.legal_moves())
    assert bot.score(game, move) == best


def test_make_bot_names_and_budgets() -> None:
    assert make_bot("random").name == "random" and make_bot("greedy").name == "greedy"
    assert isinstance(make_bot("search"), SearchBot)
    assert make_bot("search:200").iterations == 200  # type: ignore[attr-defined]
    assert make_bot("search:0.5s").seconds == 0.5  # type: ignore[attr-defined]
    for bad in ("genius", "search:", "search:many", "search:0", "search:-3", "search:1.5", "search:infs",
                "greedy:4"):
        with pytest.raises(CassinoError) as err:
            make_bot(bad)
        assert bad in str(err.value) and "search:" in str(err.value)


def test_search_with_a_time_budget_plays_legal_moves() -> None:
    game = _mid_hand("hoyle", 5, 3)
    move = make_bot("search:0.05s", 3).choose(game, game.hand.turn)
    assert move in game.legal_moves()


def _eager_greedy(rng: random.Random, game: Game) -> object:
    """The greedy choice as first written: a draw for every move, best (gain, draw) wins."""
    bot = GreedyBot()
    scored = [(bot.score(game, m), rng.random(), m) for m in game.legal_moves()]
    return max(scored, key=lambda t: (t[0], t[1]))[2]


@pytest.mark.parametrize("variant", ["standard", "hungarian", "tuxedo"])
@pytest.mark.parametrize("reseed_every", [1, 3, 0])
def test_greedy_draws_as_if_every_move_drew(variant: str, reseed_every: int) -> None:
    """The greedy player skips its tie-break draws when one move is best alone, and makes
    its generator only when a decision needs it; its choices, and the numbers its later
    decisions draw, must be those of drawing one number for every move every time,
    whether it is reseeded before every decision, some, or never."""
    engine = Engine(load_rules(variant))
    for seed in range(3):
        game = Game.new(engine, seed, 2)
        lazy, eager = GreedyBot(seed), random.Random(seed)
        ties = 0
        for ply in range(120):
            if game.over:
                break
            if reseed_every and ply % reseed_every == 0:
                lazy.reseed(1000 + ply)
                eager = random.Random(1000 + ply)
            gains = [lazy.score(game, m) for m in game.legal_moves()]
            ties += gains.count(max(gains)) > 1
            move = lazy.choose(game, game.hand.turn)
            assert move == _eager_greedy(eager, game), (variant, seed, ply)
            game = game.play(move)
        assert ties > 0   # the tie-breaking path was exercised
    assert lazy.rng.getstate() == eager.getstate()


def _second_deal(variant: str, seed: int, left: int) -> Game:
    """A 2-player game of ``variant`` played by greedy players until ``left`` cards are left in
    the hands of the last deal (every card the seat to move cannot see is then in the other hand), at
    the start of a turn (a turn of several actions, African Casino, ended by its player)."""
    from cassino.players.solver import cards_left, missing_knowledge

    game = Game.new(Engine(load_rules(variant)), seed, 2)
    bot = GreedyBot()
    while not (missing_knowledge(game.hand, game.hand.turn) is None and cards_left(game.hand) <= left
               and not game.hand.turn_card):
        game = game.play(bot.choose(game, game.hand.turn))
    return game


def test_the_search_solves_a_known_last_deal_only_within_its_bounds() -> None:
    """South African Casino deals 10 cards each twice: at the second deal's first move all 20 are
    known, and the search handed them to the exact solver, which searched for hours (the game
    stood still). It solves only with at most EXACT_LIMIT cards left, within EXACT_POSITIONS
    positions; beyond, the sampled search moves. Counted, so the same on every machine."""
    from cassino.players.search import EXACT_LIMIT, EXACT_POSITIONS
    from cassino.players.solver import cards_left

    game = _second_deal("south-african-casino", 3, 20)
    assert cards_left(game.hand) > EXACT_LIMIT
    bot = SearchBot(seed=1, iterations=8)
    move = bot.choose(game, game.hand.turn)
    assert move in game.legal_moves() and bot._solver is None     # 20 cards: not solved at all
    game = _second_deal("south-african-casino", 3, EXACT_LIMIT)
    bot = SearchBot(seed=1, iterations=8)
    move = bot.choose(game, game.hand.turn)
    assert move in game.legal_moves()
    assert bot._solver is not None and bot._solver[1].nodes <= EXACT_POSITIONS + 1
    assert bot._solver[1].max_positions is None                    # the bound is for that move only


def test_a_known_position_beyond_the_solver_is_played_out_in_one_deal() -> None:
    """Where every card's place is known (the 2-player last deal) but the solver is not tried (more than
    EXACT_LIMIT cards left), every deal the search could draw is the true position and every playout of
    it the same: the search plays one deal, not 64 alike (issue 51: South African Casino's 20 cards). The
    same move, and the work of one deal (counted in ``work_done``, the same on every machine)."""
    from cassino.players.search import EXACT_LIMIT
    from cassino.players.solver import cards_left, missing_knowledge

    for seed in (3, 4):
        game = _second_deal("south-african-casino", seed, 20)
        seat = game.hand.turn
        assert missing_knowledge(game.hand, seat) is None and cards_left(game.hand) > EXACT_LIMIT
        assert len(game.legal_moves()) > 1
        searched, one = SearchBot(seed=1, cap=None), SearchBot(seed=1, iterations=1, close=0, cap=None)
        assert searched.choose(game, seat) == one.choose(game, seat)
        assert searched.work_done == one.work_done and searched.work_done[1] > 0
    game = Game.new(Engine(load_rules("south-african-casino")), 3, 2)   # (the first deal: unseen cards)
    searched, one = SearchBot(seed=1, iterations=8, cap=None), SearchBot(seed=1, iterations=1, close=0, cap=None)
    searched.choose(game, game.hand.turn), one.choose(game, game.hand.turn)
    assert searched.work_done[1] >= 8 * one.work_done[1] > 0


def test_the_cards_bound_on_exact_play_is_a_setting() -> None:
    """``SearchBot(exact_limit=...)``: with 11 cards left of a South African last deal the default
    search tries the solver, within its bound of positions, and one given 8 does not (it samples: the one
    deal of the known position, played out); a bad value is refused with the setting's name."""
    from cassino.players.search import EXACT_LIMIT, EXACT_POSITIONS

    game = _second_deal("south-african-casino", 3, 11)
    default, narrower = SearchBot(seed=1, iterations=8), SearchBot(seed=1, iterations=8, exact_limit=8)
    assert default.exact_limit == EXACT_LIMIT == 11 and narrower.exact_limit == 8
    for bot in (default, narrower):
        assert bot.choose(game, game.hand.turn) in game.legal_moves()
    assert default._solver is not None and 0 < default._solver[1].nodes <= EXACT_POSITIONS + 1
    assert narrower._solver is None and narrower.work_done[1] > 0
    for bad in (-1, 12.0, True, "12", None):
        with pytest.raises(ValueError, match="exact_limit"):
            SearchBot(exact_limit=bad)  # type: ignore[arg-type]


def test_the_positions_bound_on_exact_play_is_a_setting() -> None:
    """``SearchBot(exact_positions=...)``: where the solver finishes within the default bound it plays the
    solver's move with no playout; given a bound it cannot finish in, the solver stops there and the
    sampled search moves (playouts counted in ``work_done``); a bad value is refused with the setting's
    name."""
    from cassino.players.search import EXACT_POSITIONS

    game = _second_deal("south-african-casino", 3, 7)
    seat = game.hand.turn
    assert len(game.legal_moves()) > 1
    solved, stopped = SearchBot(seed=1, cap=None), SearchBot(seed=1, cap=None, exact_positions=2)
    assert solved.exact_positions == EXACT_POSITIONS and stopped.exact_positions == 2
    for bot in (solved, stopped):
        assert bot.choose(game, seat) in game.legal_moves()
    assert solved.work_done == (0, 0) and 2 < solved._solver[1].nodes <= EXACT_POSITIONS   # (solved)
    assert stopped.work_done[1] > 0 and stopped._solver[1].nodes == 3   # (stopped past 2: sampled play)
    for bad in (0, -5, 2.5, True, "20000", None):
        with pytest.raises(ValueError, match="exact_positions is a number of positions"):
            SearchBot(exact_positions=bad)  # type: ignore[arg-type]


def test_the_positions_bound_holds_for_each_sampled_deal_solved_exactly() -> None:
    """With a few cards left but hidden (``exact_cards``), each sampled deal is solved exactly; the solver
    there is bound by ``exact_positions`` (and the cap) too, and a deal it cannot finish is played out. The
    soak found a house rule (Tuxedo, six players, drawing after each play, turns of several actions) where
    ten such solves took 11 s of one move, unbounded."""
    game = Game.new(Engine(load_rules("standard")), 5, 2).with_(target=None)
    greedy = GreedyBot(seed=5)
    while not (sum(h.bit_count() for h in game.hand.hands) <= 4 and not game.hand.stock
               and len(game.legal_moves()) > 1):
        game = game.play(greedy.choose(game, game.hand.turn))
    seat = game.hand.turn
    solved, bounded = SearchBot(seed=1, cap=None), SearchBot(seed=1, cap=None, exact_positions=2)
    for bot in (solved, bounded):
        assert bot.choose(game, seat) in game.legal_moves()
    assert solved.work_done == (0, 0)      # (every sampled deal solved, no playout)
    assert bounded.work_done[1] > 0        # (the deals past the bound played out)
