"""Whole games: hands one after another until a side wins, as the variant's `game` says.

A :class:`Game` is an immutable value like a hand: ``game.play(move)`` returns
the next game. It deals each hand from the game's seed and the hand number,
scores finished hands (scoring.Scorer), passes the deal in the direction of
play, and ends the game at the target, by count-out, at a pegged point, by a
claim, or after one hand where each hand is a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from types import EllipsisType
from typing import Any, Mapping

from .core import Engine
from ..errors import CassinoError
from .moves import Move
from .rng import derive
from ..language.rules import Rules
from .scoring import HandResult, Scorer
from .state import HandState


class GameOverError(CassinoError):
    """A move or claim after the game has ended (``cassino.GameOverError``)::

        >>> try:
        ...     game.with_(over=True).play(game.legal_moves()[0])
        ... except GameOverError as e:
        ...     print(e)
        the game is over
    """


@dataclass(frozen=True)
class Game:
    """A whole game: hands dealt one after another from ``seed`` until a side wins, as the
    variant's ``game`` settings say. Immutable: :meth:`play` returns the next game.

    ``hand`` is the hand in play (a :class:`~cassino.engine.state.HandState`), ``scores`` each
    side's game score, ``over`` and ``winner`` (a side) say how it ended::

        >>> from cassino import Game, load_rules, format_move
        >>> game = Game.new(load_rules("standard"), seed=7, players=2)
        >>> move = game.legal_moves()[0]
        >>> format_move(move, game.engine.deck)
        '8H capture 2H 6D'
        >>> game = game.play(move)
        >>> game.hand.turn, game.scores, game.over
        (0, (0, 0), False)
    """

    engine: Engine = field(repr=False, compare=False)
    scorer: Scorer = field(repr=False, compare=False)
    seed: int
    players: int
    partners: bool
    hand: HandState
    scores: tuple[int, ...]                  # per side (index = side id)
    dealer: int
    hand_no: int = 1
    target: int | None = None
    restrictions_on: bool = True
    winner: int | None = None                # side
    over: bool = False
    results: tuple[HandResult, ...] = ()
    games_won: int = 1                       # 2 for a lurch
    ended_by: str = ""                       # "target", "count out", "pegging", "claim", "false claim", "one hand"
    claimed_by: int | None = None            # the side whose claim ended the game, right or wrong
    #: The moves played in this hand, newest first, as a chain ``(earlier, position, move)``:
    #: ``position`` is the hand just before ``move``. One small tuple a move, so play stays
    #: cheap; read it with :meth:`moves_this_hand`. Reset when the hand changes by anything
    #: but :meth:`play` (a new hand, ``with_(hand=...)``, ``Game.at``).
    log: Any = field(default=None, compare=False, repr=False)

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(cls, rules: Rules | Engine, seed: int, players: int | None = None, partners: bool = False,
            dealer: int = 0, scorer: Scorer | None = None) -> "Game":
        """A new game: its first hand dealt from ``seed``. ``scorer``: the engine's (``Scorer.of(engine)``,
        made once an engine, when left out; it depends on the rules alone). ``players``: the variant's
        fewest when left out; a count the variant does not seat raises CassinoError. ``partners`` asks for
        partnerships, as `Engine.start` does: the variant decides (``rules.partnership(players, partners)``),
        so ask ``game.hand.sides`` or ``len(game.scores)`` what the table plays::

            >>> fresh = Game.new(load_rules("standard"), seed=7, players=2)
            >>> fresh == game, fresh.hand.dealer, fresh.target
            (True, 0, 21)
        """
        engine = rules if isinstance(rules, Engine) else Engine(rules)
        if scorer is not None and scorer.engine is not engine:
            raise ValueError("the scorer belongs to another engine")
        players = engine.rules.seats.min_players if players is None else players   # (0 is a count, refused)
        sides = len(set(engine._teams(players, partners)))
        scores = tuple(0 for _ in range(sides))
        hand = engine.start(derive(seed, 1), players, dealer=dealer, partners=partners)
        game = cls(engine, scorer or Scorer.of(engine), seed, players, partners, hand, scores, dealer,
                   target=engine.rules.game.target)
        return game.with_(hand=game._deal(dealer, 1))

    @classmethod
    def at(cls, engine: Engine, hand: HandState, scores: Mapping[int, int] | None = None, *,
           target: "int | None | EllipsisType" = ..., restrictions_on: bool = True, scorer: Scorer | None = None,
           seed: int = 0, settle: bool = True) -> "Game":
        """A game standing at a given hand (scenario cases, analysis): ``scores`` are each side's
        game score before this hand, ``target`` the target in force (the variant's when left out).

        The hand's endgame restrictions follow the scores, as for a dealt hand. Settled (the
        default), the game is then where play would have left it: over if pegged points already
        reach the target, the hand scored if it is finished. Later hands are dealt from ``seed``::

            >>> late = Game.at(game.engine, game.hand, {0: 20, 1: 3})
            >>> late.scores, late.over
            ((20, 3), False)
        """
        sides = hand.sides
        partners = len(sides) < hand.players      # (teams of two or three: every later hand is dealt so)
        game = cls(engine, scorer or Scorer.of(engine), seed, hand.players, partners, hand,
                   tuple((scores or {}).get(s, 0) for s in range(len(sides))), hand.dealer,
                   target=engine.rules.game.target if target is ... else target, restrictions_on=restrictions_on)
        game = game.with_(hand=hand.with_(restricted=game.restricted_sides()))
        return game.settle() if settle else game

    def with_(self, **changes: object) -> "Game":
        """A copy with some fields changed (the game itself never changes).

        Made by copying the fields rather than through ``dataclasses.replace`` (which runs
        the whole constructor machinery, a tenth of a simulated game's time): every move
        makes a new Game::

            >>> game.with_(scores=(5, 3)).scores, game.scores
            ((5, 3), (0, 0))
        """
        unknown = changes.keys() - _FIELDS
        if unknown:
            raise TypeError(f"Game has no field {sorted(unknown)[0]!r}")
        new = object.__new__(Game)
        fields = new.__dict__
        fields.update(self.__dict__)
        fields.update(changes)
        if "hand" in changes and "log" not in changes:
            fields["log"] = None
        return new

    @property
    def rules(self) -> Rules:
        """The variant's rules (the engine's)::

            >>> game.rules.name
            'standard'
        """
        return self.engine.rules

    def restricted_sides(self) -> frozenset[int]:
        """Sides under an endgame restriction in this hand (their scores name one)."""
        if not self.restrictions_on:
            return frozenset()
        return frozenset(s for s, score in enumerate(self.scores) if self.scorer.restriction(score) is not None)

    def _deal(self, dealer: int, hand_no: int) -> HandState:
        return self.engine.start(derive(self.seed, hand_no), self.players, dealer=dealer, partners=self.partners,
                                 scores_restricted=self.restricted_sides())

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for (the index of its score in ``scores``): the seat itself,
        or with partners the partnership's number::

            >>> game.side_of(1)
            1

        CassinoError for a seat not at the table (an API audit had ``IndexError`` from ``claim(9)``).
        """
        teams = self.hand.teams
        if not (isinstance(seat, int) and 0 <= seat < len(teams)):
            raise CassinoError(f"seat {seat!r} is not at this table of {len(teams)} players "
                               f"(seats 0 to {len(teams) - 1})")
        return teams[seat]

    # ------------------------------------------------------------------ play
    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move (``game.hand.turn``), each once; none once the
        game is over. :func:`~cassino.format_move` writes one as the game does::

            >>> [format_move(m, game.engine.deck) for m in game.legal_moves()][:3]
            ['8H capture 2H 6D', '9H capture 3D 6D', 'AH build 9 on 2H 6D']
        """
        return [] if self.over else self.engine.legal_moves(self.hand)

    def playable_moves(self) -> list[Move]:
        """The moves a computer player weighs: every legal move, or a sample of them at a
        position beyond the engine's listing budget (``Engine.playable_moves``)."""
        return [] if self.over else self.engine.playable_moves(self.hand)

    def play(self, move: Move) -> "Game":
        """The game after ``move`` by the player to move: the next turn, or the next hand dealt
        and the finished one scored, or the game over. Raises IllegalMoveError (with the
        reason) for a move that is not legal here, GameOverError once the game is over::

            >>> after = game.play(parse_move("8H capture 2H 6D", game.engine.deck))
            >>> after.hand.turn
            0
            >>> game.play(parse_move("8H trail", game.engine.deck)).hand.turn
            0
        """
        if self.over:
            raise GameOverError("the game is over")
        return self._after(self.engine.play(self.hand, move), move)

    def play_known_legal(self, move: Move) -> "Game":
        """:meth:`play` for a move the caller has already proven legal, without checking it
        against the position's whole list of moves: the step-wise games check each action of
        a move against the choices walked lazily (``engine.choices``), and listing millions of
        moves to check one again is the cost they avoid. A move that is not legal here breaks
        the game: front ends and players use :meth:`play`."""
        if self.over:
            raise GameOverError("the game is over")
        return self._after(self.engine.apply(self.hand, move), move)

    def _after(self, hand: HandState, move: Move) -> "Game":
        new = object.__new__(Game)      # with_(hand=...) without its field check (every move)
        fields = new.__dict__
        fields.update(self.__dict__)
        fields["hand"] = hand
        fields["log"] = (self.log, self.hand, move)
        return new.settle()

    def moves_this_hand(self) -> list[tuple[HandState, Move]]:
        """The moves played so far in this hand (since it was dealt, or since this game was
        made at it), oldest first, each with the position it was played in.

        The positions are whole hand states, hidden hands included: a computer player reads
        only what every seat saw of them (the table, the builds, the piles, whose turn).
        """
        played = []
        node = self.log
        while node is not None:
            node, position, move = node
            played.append((position, move))
        played.reverse()
        return played

    def settle(self) -> "Game":
        """Where the game stands after its hand changed: over when pegged points reach the target
        (variants that peg as won and stop at once), the next hand dealt when this one is finished."""
        if self.over:
            return self
        rules = self.engine.rules
        if rules.scoring.when == "as_won" and not rules.game.play_out_hand and not rules.game.claiming:
            pegged = self.pegged_winner()
            if pegged is not None:
                running = self.running_points()
                scores = tuple(self.scores[s] + running.get(s, 0) for s in range(len(self.scores)))
                return self.with_(over=True, winner=pegged, scores=scores, ended_by="pegging")
        if self.hand.over:
            return self._finish_hand()
        return self

    def hand_points_so_far(self) -> dict[int, int]:
        """What the hand in play has scored each side so far, by the variant's timing: the points
        pegged as won, or nothing yet where every point counts at the end of the hand."""
        if self.rules.scoring.when != "as_won":
            return {s: 0 for s in self.hand.sides}
        return self.running_points()

    def standing(self) -> tuple[int, ...]:
        """The game scores as a scoreboard shows them now: with the points pegged in the hand in
        play (where points count as won), which a finished game has already added::

            >>> game.standing()
            (0, 0)
        """
        if self.over:
            return self.scores
        so_far = self.hand_points_so_far()
        return tuple(v + so_far.get(s, 0) for s, v in enumerate(self.scores))

    def running_points(self) -> dict[int, int]:
        """Points each side has secured so far this hand, counted as they are won."""
        return self.scorer.points_so_far(self.hand, dict(enumerate(self.scores)), self.restrictions_on)

    def pegged_winner(self) -> int | None:
        """The side whose game score and points won so far this hand reach the target (the
        highest, if several), or None: where points count as they are won, that side has won::

            >>> game.pegged_winner() is None
            True
        """
        if self.target is None:
            return None
        running = self.running_points()
        reached = [s for s in running if self.scores[s] + running[s] >= self.target]
        if not reached:
            return None
        return max(reached, key=lambda s: self.scores[s] + running[s])

    def claim(self, seat: int) -> "Game":
        """``seat`` claims to have reached the target: right, their side wins; wrong, it loses
        (only where the variant has ``game.claiming``)::

            >>> claiming = Game.new(load_rules("examples/hoyle-claiming.yaml"), seed=7, players=2)
            >>> after = claiming.claim(0)                 # nobody has any points yet
            >>> after.over, after.winner, after.ended_by
            (True, 1, 'false claim')
        """
        if self.over:
            raise GameOverError("the game is over")
        if not self.rules.game.claiming:
            raise CassinoError(f"{self.rules.name} has no claiming")
        side = self.side_of(seat)
        running = self.running_points()
        correct = self.target is not None and self.scores[side] + running.get(side, 0) >= self.target
        scores = tuple(self.scores[s] + running.get(s, 0) for s in range(len(self.scores)))
        if correct:
            return self.with_(over=True, winner=side, scores=scores, ended_by="claim", claimed_by=side)
        others = [s for s in range(len(self.scores)) if s != side]
        winner = others[0] if len(others) == 1 else None
        return self.with_(over=True, winner=winner, scores=scores, ended_by="false claim", claimed_by=side)

    def _finish_hand(self) -> "Game":
        g = self.rules.game
        result = self.scorer.result(self.hand, dict(enumerate(self.scores)), self.target, self.restrictions_on)
        scores = tuple(result.scores[s] for s in range(len(self.scores)))
        game = self.with_(scores=scores, results=self.results + (result,), target=result.target)
        if self.target is None:
            return game.with_(over=True, winner=result.winner, ended_by="one hand")
        if result.winner is not None:
            loser_scores = [scores[s] for s in range(len(scores)) if s != result.winner]
            lurch = g.lurch.below is not None and loser_scores and max(loser_scores) < g.lurch.below
            return game.with_(over=True, winner=result.winner, games_won=g.lurch.multiplier if lurch else 1,
                              ended_by="count out" if result.counted_out else "target")
        restrictions_on = self.restrictions_on
        if self.target is not None and self.rules.endgame.lifted_after_tie:
            over = [v for v in scores if v >= self.target]
            if len(over) > 1 and len(set(over)) < len(over):
                restrictions_on = False
        dealer = self.engine.next_seat(self.dealer, self.players)
        hand_no = self.hand_no + 1
        game = game.with_(dealer=dealer, hand_no=hand_no, restrictions_on=restrictions_on)
        return game.with_(hand=game._deal(dealer, hand_no))


_FIELDS = frozenset(f.name for f in dataclass_fields(Game))
