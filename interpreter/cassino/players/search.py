"""The search player: exact play where the position is known, rollouts where it is not.

- When every card's place is known to the seat to move (the 2-player last deal:
  every unseen card is in the other hand), it plays the exact solver's move
  (``solver.Solver``): a best move, not a guess.
- Otherwise, determinized Monte Carlo search: the unseen cards are dealt many times,
  consistent with what the seat knows (``knowledge.determinize``) and each weighed by how
  likely it makes the moves the other seats made in this deal (``inference``: a seat that
  trailed while a 7 lay open seldom holds a 7), each candidate move is played out to the end of
  the deal (at most the cards the hands hold: where the players draw after every play, not the whole
  stock, ``DEPTHS``) in every such deal by a playout policy fitted to the search's own choices
  (``policy.PlayoutPolicy``: what a move takes, and what it leaves the next player), and the
  move whose side expects most points on average (``outlook.Outlook``) is played. When few
  cards are left to play (``exact_cards``), a candidate's worth in a deal is the solver's exact
  value of that deal instead of one playout. Budget: iterations (deals), or seconds; a close
  decision takes more deals (``close``, ``settle``, bounded by ``CLOSE_WORK``).

What was measured before these choices (benchmarks/bot_strength.py, docs/performance.md): the
exact last deal and the outlook each add about a point a pair of hands against the
rollout search with neither; the deals weighed by the others' moves add about 0.4 points
(``benchmarks/sparring.py --a search --b plain:64 --pairs 1000 --first 3000``: +0.43 ± 0.12
points a pair of 2-player standard hands), and more deals where the choice is close about 0.2
(``--a search --b fixed:64 --pairs 3000 --first 20000``: +0.18 ± 0.07, at 3.2 ms a move rather than
2.0); the fitted playout policy, rather than the greedy rating, +0.14 ± 0.11 (``--a search --b
custom:64:playouts=greedy --pairs 2000 --first 20000``; against the sparring partner +0.55 ± 0.18
points a pair rather than +0.34 ± 0.18). A hand-written playout policy that counts what the next
player can take from the hand a sampled deal gives it, playouts to the end of the hand, valuing
cards by the state of each race, 128 deals instead of 64, and 20 candidates instead of 10 did not measurably help
(``benchmarks/playout_trials.py`` lists more). Nor did the older reading of what the others
did not do (``infer="passed"``: a seat that trailed or built when a card would have captured
something is dealt such cards last), against the search without it, standard, seed 1:
2-player hands 52.1% (50.1-54.1%, 360 pairs, +0.17 ± 0.35 points a pair; seed 2: 50.4%,
48.5-52.4%, 400 pairs), whole 2-player games 51.3% (48.8-53.9%, 300 pairs, +0.34 ± 0.88),
4-player partnership hands 45.0% (40.2-49.8%, 160 pairs, -0.71 ± 0.94; there the partner's
passes are read the same way). A certainty where there is only a likelihood: a seat builds
instead of capturing on purpose.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Hashable

from ..engine.core import Engine
from ..engine.game import Game
from ..engine.moves import Move
from ..errors import PositionTooLargeError
from ..engine.state import HandState
from .base import Bot
from .collector import collector_paused
from .gain import CardWorth, gains, greedy_move, greedy_playout
from .inference import LEAST_SHARE, Evidence, evidence, relative
from .knowledge import determinize, held_values, passed_up
from .outlook import Outlook
from .playouts import playout_leads
from .policy import PlayoutPolicy
from .weights import Choice, choose
from .solver import SearchLimit, Solver, cards_left, missing_knowledge


#: The exact solver's move is played only with at most this many cards left to play (as the
#: review's ``KNOWN_LIMIT``), and only when it is found within ``EXACT_POSITIONS`` positions
#: searched for the move; beyond either, the sampled search decides. A variant whose last deal
#: gives 10 or 12 cards each (South African, Swazi Casino) made the solver search for hours at
#: that deal's first move, and the game stood still. A 2-player last deal of 4 cards each takes
#: at most 1,558 positions (standard, royal, hoyle, two-handed, scopa, swedish-kasino: 4 games
#: each, both seats searching). Positions are counted, not timed, so the same game is played on
#: every machine. The bounds were 16 cards and 20,000 positions: with 12 to 16 cards left the
#: solver seldom or never finished (none of 144 attempts with 13 to 16 in 36 hands of South African and
#: Swazi Casino), and a hand spent about half its time on such attempts. Now 11 cards and 60,000 positions:
#: the solver is tried later and given more, and it finishes in more decisions of the last deal
#: (South African, 4 hands: 35 of 37 attempts against 32 of 59). Against the old bounds, 300 mirrored
#: pairs of 2-player hands each (``benchmarks/sparring.py --a custom:64:exact_limit=11+exact_positions=60000
#: --b search --pairs 300 --first 5000``): South African +0.90 ± 0.12 points a pair at 15.7 against 24.7
#: ms a move, Swazi +0.49 ± 0.08 at 18.1 against 25.5 (docs/performance.md, "Ninth round of issue 51").
EXACT_LIMIT = 11
EXACT_POSITIONS = 60_000

#: A close decision takes more deals: where more than one candidate is left after ``iterations`` deals,
#: the search goes on, up to ``CLOSE`` times as many deals (``close``), while the standard error of
#: some candidate's difference from the best is above ``SETTLE`` points (the choice may still matter
#: and is not yet clear) and the playouts so far have played fewer than ``CLOSE_WORK`` cards (counted
#: from the cards in hand at the decision, so the same game is played on every machine; a variant
#: with long deals, such as Swazi Casino's 12 cards a hand, has spent its time by then). Candidates
#: are dropped when behind the best by more than ``Z`` standard errors. Measured in
#: docs/performance.md ("Time where the choice is close").
CLOSE = 4
SETTLE = 0.1
CLOSE_WORK = 4096
Z = 2.5

#: The most seconds one decision takes, about, where its budget is in deals (``iterations``): once it has
#: passed no more deals are drawn, the deal under way stops (its playouts stop short, and it is left out),
#: the reading of the others' moves stops, and the exact solver stops and leaves the move to the sampled
#: search; a decision runs over by what one listing of the legal moves takes. A
#: position whose every listing is slow (South African and Swazi Casino's 12-card hands in pure
#: Python, 4 players: 20-40 s a move; a 24-card table of three packs, whose sampled deals list hundreds
#: of moves a turn: 40 s) is played within it. A cap, not a budget: where it cuts a decision short, the
#: move depends on the machine's speed (``SearchBot(cap=None)``: none, for runs that must be the same
#: on every machine); where it does not, which is every decision of a 2-player standard game, nothing
#: changes. ``search:Xs`` players think for their own X seconds instead.
MOVE_CAP = 3.0

#: How the search reads the others' moves of this deal: ``weighted`` (the default: each deal weighed
#: by how likely it makes those moves, ``inference``), ``passed`` (a seat is dealt the cards it
#: passed up a capture with last, ``knowledge.passed_up``; measured, not better) or ``off``.
INFERENCES = ("weighted", "passed", "off")

#: How the search's playouts move: ``fitted`` (the default: ``policy.PlayoutPolicy``, a rating fitted
#: to the search's own choices by self-play, which weighs what a move leaves on the table, with the
#: weights fitted to the rules and seating played where there are any, ``weights.choose``) or ``greedy``
#: (the greedy rating, ``gain``: what a move takes; the search before the fitted policy). The weights
#: fitted to 2-player standard play in every 2-player game won by the highest total; elsewhere (more
#: players, or the lowest total wins) they lost points to greedy playouts (kasino-misar 3.3 ± 1.2 and
#: krypkasino 5.9 ± 1.6 points a pair of hands, 4-player Scopone 0.38 ± 0.24; docs/performance.md), so
#: there the search plays out greedily unless ``cassino train`` has fitted weights to those rules and
#: that seating (shipped with cassino where they measured better than greedy).
PLAYOUTS = ("fitted", "greedy")

#: How far a playout goes (``SearchBot(depth=...)``): ``"hands"`` plays at most as many cards as the hands
#: hold at the decision, and then values the position by the outlook, as every deal of a variant that
#: deals anew ends when the hands are empty; where the players draw after every play (draw Cassino: one
#: deal of the whole pack) a playout to the deal's end played the whole stock, five times the cards, most
#: of the time a move (docs/performance.md, "The search's time a move in every variant"). ``"fitted"``
#: (the default): the horizon measured for the rules and seating played where the weights file gives one
#: (``weights.Entry.depth``, ``cassino train --depth``; none shipped: in South African Casino with three
#: players a horizon of 12 cards lost 0.92 points a rotation of three hands, docs/performance.md), else
#: ``"hands"``. ``"deal"``: to the end of the deal (the search before); a
#: number: at most that many cards.
DEPTHS = ("fitted", "hands", "deal")

#: How a playout plays the rest of a turn of several actions once the turn's card from the hand is played
#: (``SearchBot(after_card=...)``; ``build.free_actions``, South African and Swazi Casino): ``"choose"`` (the
#: default: every action listed and one chosen, as at any other ply) or ``"end"`` (the turn ended there: no
#: build of cards in play after the card, and nothing listed for it).
AFTER_CARD = ("choose", "end")

#: Where a playout stops for a crowded table (``SearchBot(crowd=...)``): more loose cards on the table than this.
#: The legal moves of a position grow about twofold with each loose card where cards in play may be built
#: together (South African Casino: 2,300 moves at 10 loose cards, 7,800 at 12, 40,000 at 17), so a playout
#: over such a table spends milliseconds a ply listing moves it rates and drops; the outlook values the
#: position instead. Tables that crowded come where nobody wants to capture (a game won by the lowest total);
#: every seating of the bundled variants makes the same moves with it as without in
#: ``benchmarks/search_speed.py --all`` (2 hands each; at 10, five seatings played otherwise).
CROWD = 12

#: Whether the search's deals recall the builds of the deal (``SearchBot(recall=...)``,
#: ``knowledge.held_values``): a seat that built a 7 held another 7, and holds it until it plays a 7, though its
#: build was taken since. Without it 7% of the deals of random 3-player standard positions, and 37% of 6-player
#: Tuxedo's, are deals the builds seen rule out (``tests/test_held_values.py``). Measured, it did not play better:
#: ``benchmarks/bot_strength.py --variants standard --players 3 --pairings search-vs-custom:64:recall=no
#: --one-hand`` with recall on, -0.11 ± 0.07 points a rotation of three hands (400, ``--seed 9``) and +0.01 ±
#: 0.05 (800, ``--seed 21``); Tuxedo with six -2.60 ± 0.92 (200, ``--seed 7``) and -0.00 ± 0.60 (400,
#: ``--seed 8``); Royal with three -0.04 ± 0.12 (300); and at the decisions where it chose otherwise, each move
#: valued in the true deal by four completions of search self-play, -0.36 ± 0.23 points (59 decisions of 200
#: 3-player standard hands) and -0.36 ± 0.60 (129, 100 Tuxedo hands of six). Dealing uniformly among the deals
#: that keep every value held (rejection, 16 tries: the reservation deals a seat two 7s 2.75 times as often as
#: the consistent deals do) did not change that (-0.13 ± 0.09, 800 rotations, ``--seed 9``). So it is off: the
#: search as before; the matrix's blind redeals (``apps.authors.blind``) keep it, being checks of consistency.
RECALL = False

#: The fewest deals a decision takes where its playouts are long (``SearchBot(scale_above=...)``: a decision
#: whose playouts play more than that many cards takes proportionally fewer deals, never below this).
LEAST_DEALS = 16


class SearchBot(Bot):
    """Determinized rollout search, with the exact solver where the position is known.

    Each iteration deals the cards this seat cannot see at random, and then plays
    every candidate move in that same deal, continuing with the playout policy for
    every player to the end of the current deal (``horizon="deal"``; or of the hand).
    A candidate's score is its side's lead at the end of the playout, in points:
    with ``evaluation="outlook"`` the points each side can expect from what it has won
    (races for "most" items valued by the chance of winning them); with ``"worth"``
    (the search as it was before) the fixed worth of the cards and sweeps won during
    the playout. The real points when the hand ends inside the playout. The same
    deals are used for every candidate, so the comparison is between moves, not
    between lucky and unlucky deals.

    ``playouts``: ``"fitted"`` (the default: ``policy.PlayoutPolicy``, fitted to the search's own
    choices, where weights are fitted to the rules and seating or the game is a 2-player one won by the
    highest total; greedy elsewhere, ``PLAYOUTS``, ``playout_choice``) or
    ``"greedy"`` (the greedy rating, ``gain``: the search before the fitted policy).
    ``exact``: play the solver's move when the position is known in full, with at most
    ``exact_limit`` cards left to play (``EXACT_LIMIT``) and found within ``exact_positions`` positions
    searched (``EXACT_POSITIONS``).
    ``exact_cards``: in a deal with at most this many cards left to play (hands and
    stock), score candidates with the solver rather than a playout (0: never). At 4,
    solving a sampled deal costs about what the playouts it replaces cost (measured in
    4-player games, compiled engine: 1.1x at 4 cards left, 2.8x at 5, 4x at 6, 7.5x at 8),
    so the exact values come for free; beyond that the cost grows fast, and at 6 it did
    not measurably win more (150 mirrored pairs of 4-player hands: +0.03 ± 0.12 points).
    ``infer``: how the other seats' moves of this deal (``game.log``; partner too) are read:
    ``"weighted"`` (the default) weighs each deal by how likely it makes those moves and
    compares the candidates by the weighted mean (``inference``; tempered where few deals
    would decide alone); ``"passed"`` deals each seat the cards it passed up a capture
    with last (``knowledge.passed_up``; measured, not better); ``"off"`` reads nothing.
    ``close``, ``settle``, ``work``: a decision still close after ``iterations`` deals takes more, up
    to ``close`` deals (default ``CLOSE`` times ``iterations``; 0: never more), until no candidate's
    difference from the best is uncertain by more than ``settle`` points (``SETTLE``), while its
    playouts have played fewer than ``work`` cards (``CLOSE_WORK``); ``z``: a candidate is dropped
    when behind the best by more than ``z`` standard errors.
    ``cap``: the most seconds a decision budgeted in deals takes, about (``MOVE_CAP``; None: no cap).
    ``weights``: the playout policy's weights (``policy.FEATURES``' order), played whatever the rules;
    None (the default): those fitted to the game's rules and seating, ``weights.choose``.
    ``depth``: how many cards a playout plays at most before the outlook values it (``DEPTHS``):
    ``"fitted"`` (the default: as measured for the rules and seating, ``weights.Entry.depth``, else as
    ``"hands"``), ``"hands"`` (as many as the hands hold at the decision; where the players draw after
    every play this stops a playout short of the stock's end), ``"deal"`` (to the end of the deal) or a
    number of cards.
    ``scale_above``: a decision whose playouts play more cards than this takes proportionally fewer deals
    (``iterations`` and ``close`` times ``scale_above`` over the cards, at least ``LEAST_DEALS``); 0: never.
    ``after_card``: how a playout plays the rest of a turn of several actions after its card from the hand
    (``AFTER_CARD``): ``"choose"`` (the default) or ``"end"``.
    ``crowd``: a playout stops where more loose cards than this lie on the table, and the outlook values it
    (``CROWD``; -1: never).
    ``recall``: the deals give each seat a card of every value its builds of this deal show it still holds,
    though the build was taken since (``knowledge.held_values``); False (the default, ``RECALL``): only for
    builds standing and values proven for a partner.
    """

    name = "search"

    def __init__(self, seed: int = 0, iterations: int = 64, seconds: float | None = None,
                 width: int = 10, horizon: str = "deal", exact: bool = True, exact_cards: int = 4,
                 evaluation: str = "outlook", infer: str = "weighted", close: int | None = None,
                 settle: float = SETTLE, z: float = Z, work: int = CLOSE_WORK,
                 exact_limit: int = EXACT_LIMIT, playouts: str = "fitted", cap: float | None = MOVE_CAP,
                 weights: tuple[float, ...] | None = None, depth: str | int = "fitted", scale_above: int = 0,
                 after_card: str = "choose", crowd: int = CROWD, exact_positions: int = EXACT_POSITIONS,
                 recall: bool = RECALL) -> None:
        if evaluation not in ("outlook", "worth") or horizon not in ("deal", "hand"):
            raise ValueError(f"evaluation is outlook or worth, horizon deal or hand: not {evaluation!r}, {horizon!r}")
        if infer not in INFERENCES:
            raise ValueError(f"infer is one of {', '.join(INFERENCES)}, not {infer!r}")
        if after_card not in AFTER_CARD:
            raise ValueError(f"after_card is one of {', '.join(AFTER_CARD)}, not {after_card!r}")
        if playouts not in PLAYOUTS:
            raise ValueError(f"playouts is one of {', '.join(PLAYOUTS)}, not {playouts!r}")
        if close is not None and (isinstance(close, bool) or not isinstance(close, int) or close < 0):
            raise ValueError(f"close is a number of deals, 0 or more (0: no more than iterations), not {close!r}")
        for label, cards, what in (("work", work, "cards played in playouts"), ("exact_limit", exact_limit,
                                                                               "cards left to play"),
                                   ("scale_above", scale_above, "cards in hand")):
            if isinstance(cards, bool) or not isinstance(cards, int) or cards < 0:
                raise ValueError(f"{label} is a number of {what}, 0 or more, not {cards!r}")
        if not isinstance(recall, bool):
            raise ValueError(f"recall is yes or no (True or False), not {recall!r}")
        if isinstance(exact_positions, bool) or not isinstance(exact_positions, int) or exact_positions < 1:
            raise ValueError(f"exact_positions is a number of positions the solver may search for a move, 1 or "
                             f"more, not {exact_positions!r}")
        for label, number in (("settle", settle), ("z", z)):
            if isinstance(number, bool) or not isinstance(number, (int, float)) or not 0 <= number < math.inf:
                raise ValueError(f"{label} is a number of points, 0 or more, not {number!r}")
        if not (depth in DEPTHS if isinstance(depth, str)
                else not isinstance(depth, bool) and isinstance(depth, int) and depth > 0):
            raise ValueError(f"depth is {' or '.join(DEPTHS)} or a number of cards above 0, not {depth!r}")
        if isinstance(crowd, bool) or not isinstance(crowd, int) or crowd < -1:
            raise ValueError(f"crowd is a number of loose table cards, 0 or more, or -1 for none, not {crowd!r}")
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, (int, float))
                                or not 0 < cap < math.inf):
            raise ValueError(f"cap is a number of seconds above 0, or None for no cap, not {cap!r}")
        self.reseed(seed)   # the generator is made when first drawn from
        self.iterations = iterations
        self.close = CLOSE * iterations if close is None else close
        self.settle = float(settle)
        self.work = work
        self.z = float(z)
        self.seconds = seconds
        self.cap = None if cap is None else float(cap)
        self.width = width
        self.horizon = horizon
        self.exact = exact
        self.exact_cards = exact_cards
        self.exact_limit = exact_limit
        self.exact_positions = exact_positions
        self.evaluation = evaluation
        self.infer = infer
        self.playouts = playouts
        #: Playout weights given (``training``'s self-play, benchmarks): played in every game, whatever is fitted.
        self.weights = weights
        self.depth = depth
        self.scale_above = scale_above
        self.after_card = after_card
        self.crowd = crowd
        self.recall = recall
        self._policy: tuple[Engine, tuple[int, tuple[int, ...]], PlayoutPolicy | None, Choice] | None = None
        self._passed: dict[int, tuple[object, int]] = {}
        self._terms: dict[int, tuple[object, list[float] | None]] = {}
        self._outlook: tuple[Engine, Outlook] | None = None
        self._solver: tuple[Hashable, Solver] | None = None
        self._capped: float | None = None   # (while a decision runs under the cap: when it ends)
        self._stop = -1                     # (while a decision runs: where its playouts stop, ``stop``)
        self._tally = [0, 0]                # (while a decision runs: the moves its playouts listed, their plies)
        self._held: tuple[frozenset[int | str], ...] = ()   # (while a decision runs: ``held``)

    @property
    def work_done(self) -> tuple[int, int]:
        """The last decision's playout work: the legal moves its playouts listed and rated, and the plies
        they played (counted, so the same on every machine; 0, 0 where it played without playouts)."""
        return self._tally[0], self._tally[1]

    # ---------------------------------------------------------------- knowledge
    def determinize(self, engine: Engine, state: HandState, seat: int, avoid: tuple[int, ...] = ()) -> HandState:
        """The hand as ``seat`` sees it, with every unseen card dealt at random (``avoid``:
        cards each seat probably does not hold, dealt to it last; while a decision runs, each seat given
        a card of every value its builds of the deal show it holds, ``held``)."""
        return determinize(engine, state, seat, self.rng, avoid, self._held)

    def held(self, game: Game, seat: int) -> tuple[frozenset[int | str], ...]:
        """The values the other seats' builds of this deal show they hold (``knowledge.held_values``;
        nothing where this player does not recall them, ``recall=False``)."""
        return held_values(game.engine, game.hand, game.log, seat) if self.recall else ()

    def evidence(self, game: Game, seat: int) -> Evidence | None:
        """What the other seats' moves in this deal say of their hands (``inference.evidence``),
        each logged move read once: later decisions of the deal find it in a small memo."""
        if len(self._terms) > 4096:
            self._terms.clear()
        return evidence(game.engine, self.worth(game), game.hand, game.log, seat, self._terms,
                        deadline=self._capped or 0.0)

    def unlikely(self, game: Game, seat: int) -> tuple[int, ...]:
        """For each seat, the cards it passed up a capture with in this deal (as seen by
        ``seat``, which knows its own hand: nothing for itself). Each logged move is read
        once: later decisions of the deal find it in a small memo."""
        masks = [0] * game.players
        deal = game.hand.deal_no
        node = game.log
        memo = self._passed
        if len(memo) > 4096:
            memo.clear()
        while node is not None:
            earlier, position, move = node
            if position.deal_no != deal:
                break
            if position.turn != seat:
                known = memo.get(id(node))
                if known is None or known[0] is not node:
                    known = (node, passed_up(game.engine, position, move))
                    memo[id(node)] = known
                masks[position.turn] |= known[1]
            node = earlier
        return tuple(masks)

    def solver(self, game: Game, side: int) -> Solver:
        """A solver for ``side`` under the game's scores, kept while they stay the same
        (its transposition table makes the later moves of a deal almost free)."""
        key = (game.engine, side, game.scores, game.restrictions_on)
        if self._solver is None or self._solver[0] != key or len(self._solver[1].table) > 500_000:
            self._solver = (key, Solver(game.engine, game.scorer, side, dict(enumerate(game.scores)),
                                        game.restrictions_on, self.worth(game), outlook=self.outlook(game)))
        return self._solver[1]

    # ---------------------------------------------------------------- playouts
    def outlook(self, game: Game) -> Outlook:
        if self._outlook is None or self._outlook[0] is not game.engine:
            self._outlook = (game.engine, Outlook(game.scorer))
        return self._outlook[1]

    def playout_choice(self, game: Game) -> Choice:
        """Which playouts the search plays in this game, and why (``weights.choose``: weights fitted to the
        game's rules and seating where there are any; ``PLAYOUTS``), with the horizon measured there
        (``Choice.depth``) where this player plays it (``depth="fitted"``), whatever the playouts."""
        partners = len(set(game.hand.teams)) < game.players
        found = choose(game.rules, game.players, partners)
        depth = found.depth if self.depth == "fitted" else None
        if self.playouts == "greedy":
            return Choice(None, "greedy", "greedy playouts (asked for: playouts=greedy)", depth)
        if self.weights is not None:
            return Choice(self.weights, "given", "playouts by the weights given to this player", depth)
        return replace(found, depth=depth)

    def _playouts(self, game: Game) -> tuple[PlayoutPolicy | None, Choice]:
        """The playout policy for the game's rules and seating (None: greedy playouts) and the choice it
        comes from (``playout_choice``), looked up once for each engine and seating."""
        key = (game.players, game.hand.teams)
        if self._policy is None or self._policy[0] is not game.engine or self._policy[1] != key:
            choice = self.playout_choice(game)
            weights = choice.weights
            self._policy = (game.engine, key, None if weights is None else PlayoutPolicy(game.engine, weights),
                            choice)
        return self._policy[2], self._policy[3]

    def policy(self, game: Game) -> PlayoutPolicy | None:
        """The playout policy for the game's rules and seating (None: greedy playouts; ``playout_choice``)."""
        return self._playouts(game)[0]

    def _lead(self, game: Game, worth: CardWorth, before: HandState, after: HandState, side: int) -> float:
        """What ``side`` gained over the other sides between two states, in points."""
        penalty = _sign(game)
        if self.evaluation == "outlook":
            return self.outlook(game).lead(after, side, dict(enumerate(game.scores)), game.restrictions_on, penalty)
        if after.over:
            points, _ = game.scorer.hand_points(after, dict(enumerate(game.scores)), game.restrictions_on)
            value = {s: penalty * float(points[s]) for s in points}
        else:
            value = worth.won(before, after)   # CardWorth counts penalties against the taker already
        others = [value[o] for o in value if o != side]
        return value.get(side, 0.0) - (max(others) if others else 0.0)

    def candidates(self, game: Game, moves: list[Move], worth: CardWorth) -> list[Move]:
        """The ``width`` moves the greedy player rates best (the rest are rarely better)."""
        values = gains(worth, game.hand, moves)
        ranked = sorted(range(len(moves)), key=lambda i: -values[i])
        return [moves[i] for i in ranked[:self.width]]

    def _exact_rewards(self, game: Game, state: HandState, side: int, alive: list[Move]) -> list[float]:
        """Each candidate's exact value in one fully dealt position (the kept solver's table
        serves every candidate and every sampled deal that comes round again). SearchLimit past
        ``exact_positions`` positions for the deal, or past the move's cap: a few cards can still be a deep
        game (turns of several actions, a crowded table), and the deal is then played out instead."""
        with self.solver(game, side).limited(self.exact_positions, self._capped) as solver:
            return [float(solver.value(game.engine.apply(state, m))) for m in alive]

    def stop(self, game: Game, whole_hand: bool) -> int:
        """Where this decision's playouts stop (``playouts.playout``'s ``stop``: the cards left to play,
        in hands and stock; -1: at the end of the deal or hand), as ``depth`` says."""
        depth = self.depth
        if depth == "fitted":
            depth = self._playouts(game)[1].depth or "hands"
        if whole_hand or depth == "deal":
            return -1
        state = game.hand
        if isinstance(depth, int):
            return max(cards_left(state) - depth, 0)
        if not game.engine.draw_after_play or not state.stock:
            return -1   # (the deal ends when the hands are empty: no sooner bound)
        return cards_left(state) - sum(h.bit_count() for h in state.hands)

    def sampled_values(self, game: Game, worth: CardWorth, state: HandState, side: int, alive: list[Move],
                       whole_hand: bool) -> list[float]:
        """Each candidate's worth to ``side`` in one sampled deal: played out by every seat's move
        of the playout policy (``policy``) to the end of the deal (or hand) and valued by
        ``_lead``; with the outlook, the same
        values worked out in compiled code (``playouts.playout_leads``: a subclass that values a
        playout otherwise overrides this method, not only ``_lead``). The same deal and the same
        deterministic playout policy serve every candidate (common random numbers: the
        comparison is between moves, not between lucky and unlucky deals). Other ways of
        valuing a candidate in a sampled deal were measured against this one
        (``benchmarks/playout_trials.py``) and kept out: none was better. The playouts stop where
        ``stop`` says, and count the moves they list in the decision's tally (``listed``)."""
        engine = game.engine
        capped = self._capped
        if self.evaluation == "outlook":
            values = playout_leads(engine, worth, self.outlook(game), state, alive, whole_hand, side,
                                   dict(enumerate(game.scores)), game.restrictions_on, _sign(game), self.policy(game),
                                   capped or 0.0, self._stop, self._tally, self.after_card == "end", self.crowd)
        else:
            values = [self._lead(game, worth, state,
                                 greedy_playout(engine, worth, state, m, whole_hand, capped or 0.0, self._stop,
                                                self._tally, self.after_card == "end", self.crowd), side)
                      for m in alive]
        if capped is not None and time.perf_counter() > capped:
            raise _Capped()   # (the cap came within the deal: its playouts may have stopped short)
        return values

    def choose(self, game: Game, seat: int) -> Move:
        try:
            with collector_paused():   # (nothing a decision makes needs the cyclic collector: ``collector``)
                return self._choose(game, seat)
        finally:
            self._capped = None
            self._stop = -1
            self._held = ()

    def _choose(self, game: Game, seat: int) -> Move:
        self._tally[0] = self._tally[1] = 0
        try:
            moves = game.legal_moves()
        except PositionTooLargeError:
            # A table beyond the engine's listing budget: every sampled deal of it would be too,
            # so the best-rated move of a sample of the legal moves, without a search.
            return greedy_move(game.engine, self.worth(game), game.hand)
        if len(moves) == 1:
            return moves[0]
        capped = time.perf_counter() + self.cap if self.cap is not None and not self.seconds else None
        self._capped = capped
        side = game.hand.teams[seat]
        known = missing_knowledge(game.hand, seat) is None
        if self.exact and known and cards_left(game.hand) <= self.exact_limit:
            position = self.determinize(game.engine, game.hand, seat)   # the true position, from what the seat sees
            try:
                with self.solver(game, side).limited(self.exact_positions, capped) as solver:
                    return solver.best_move(position)
            except (PositionTooLargeError, SearchLimit):
                pass   # (a position the engine will not list whole, or too deep to solve: sampled play, below)
        worth = self.worth(game)
        alive = self.candidates(game, moves, worth)
        rewards: dict[Move, list[float]] = {m: [] for m in alive}
        exact = cards_left(game.hand) <= self.exact_cards
        avoid = self.unlikely(game, seat) if self.infer == "passed" else ()
        seen = self.evidence(game, seat) if self.infer == "weighted" else None
        self._held = self.held(game, seat)
        engine, whole_hand = game.engine, self.horizon == "hand"
        self._stop = self.stop(game, whole_hand)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        done = 0
        length = cards_left(game.hand) if whole_hand else sum(h.bit_count() for h in game.hand.hands)
        work = 0        # cards the playouts have played, about: each candidate's plays every card in hand
        settled = False
        log_weights: list[float] = []
        weights: list[float] | None = None     # the deals' relative weights, as of the last halving
        iterations, close = self.iterations, self.close
        if self.scale_above and length > self.scale_above:   # (long playouts: fewer deals, ``scale_above``)
            iterations = max(iterations * self.scale_above // length, min(iterations, LEAST_DEALS))
            close = max(close * self.scale_above // length, min(close, LEAST_DEALS))
        # (where every card's place is known every deal is the true position, and its playouts the same: one)
        while len(alive) > 1 and not (known and done) and (
                (done < iterations or (done < close and work < self.work and not settled))
                if deadline is None else (done < 1 or time.perf_counter() < deadline)):
            if capped is not None and done and time.perf_counter() > capped:
                break   # (the cap: ``MOVE_CAP``)
            state = self.determinize(engine, game.hand, seat, avoid)
            if seen is not None:
                log_weights.append(seen.log_weight(state))
            values: list[float] | None = None
            if exact:
                try:
                    values = self._exact_rewards(game, state, side, alive)
                except (PositionTooLargeError, SearchLimit):
                    exact = False   # (a sampled deal beyond the listing budget or the solver's: playouts from here on)
            if values is None:
                try:
                    values = self.sampled_values(game, worth, state, side, alive, whole_hand)
                except _Capped:   # (the cap came within the deal: it is left out)
                    if seen is not None:
                        log_weights.pop()
                    break
            for m, r in zip(alive, values):
                rewards[m].append(r)
            work += len(alive) * length
            done += 1
            if done >= 8 and done & (done - 1) == 0:   # at 8, 16, 32, ... deals
                weights = relative(log_weights, LEAST_SHARE) if seen is not None else None
                alive, spread = _survivors(alive, rewards, weights, self.z)
                settled = spread <= self.settle
        if not done:
            return alive[0]   # (no deal within the cap: the best-rated candidate)
        if seen is not None and (weights is None or len(weights) != done):
            weights = relative(log_weights, LEAST_SHARE)   # (deals since the last halving)
        return max(alive, key=lambda m: _total(rewards[m], weights))


class _Capped(Exception):
    """The cap (``MOVE_CAP``) came within a sampled deal: the deal is left out."""


def _sign(game: Game) -> float:
    """-1.0 in a negative game (won by the lowest total: points count against), else 1.0."""
    return -1.0 if game.rules.game.goal == "lowest" else 1.0


def _total(values: list[float], weights: list[float] | None) -> float:
    """The sum of ``values``, each times its deal's weight (plain where there are none)."""
    if weights is None:
        return sum(values)
    return sum(w * v for w, v in zip(weights, values))


def _survivors(alive: list[Move], rewards: dict[Move, list[float]], weights: list[float] | None = None,
               z: float = Z) -> tuple[list[Move], float]:
    """The candidates not clearly worse than the best so far, and the largest standard error of
    their differences from the best (0.0 where the best alone is left: how settled the choice is).

    All candidates were played out in the same deals, so each is compared with the
    best by the per-deal differences: dropped when the mean difference is below zero
    by more than ``z`` standard errors. Order is kept (the greedy order breaks ties).
    With ``weights`` (how likely each deal is, ``inference``), the weighted mean, and the
    standard error over the deals' effective number, (sum w)^2 / sum w^2.
    """
    best = max(alive, key=lambda m: _total(rewards[m], weights))
    if weights is not None:   # the same for every candidate
        total = sum(weights)
        effective = total * total / sum(w * w for w in weights)
    keep = []
    spread = 0.0
    for m in alive:
        diffs = [a - b for a, b in zip(rewards[m], rewards[best])]
        if weights is None:
            n = float(len(diffs))
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        else:
            n = effective
            mean = sum(w * d for w, d in zip(weights, diffs)) / total
            var = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs)) / total * n / (n - 1) if n > 1 else 0.0
        error = math.sqrt(var / n) if var > 0 else 0.0
        if m is best or mean + z * error >= 0:
            keep.append(m)
            if m is not best:
                spread = max(spread, error)
    return keep, spread
