"""Whole games: hands one after another until a side wins, as the variant's `game` says.

A :class:`Game` is an immutable value like a hand: ``game.play(move)`` returns
the next game. It deals each hand from the game's seed and the hand number,
scores finished hands (scoring.Scorer), passes the deal in the direction of
play, and ends the game at the target, by count-out, at a pegged point, by a
claim, or after one hand where each hand is a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .core import Engine
from ..errors import CassinoError
from .moves import Move
from .rng import derive
from ..language.rules import Rules
from .scoring import HandResult, Scorer
from .state import HandState


class GameOverError(CassinoError):
    """A move or claim after the game has ended."""


@dataclass(frozen=True)
class Game:
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

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(cls, rules: Rules | Engine, seed: int, players: int | None = None, partners: bool = False,
            dealer: int = 0) -> "Game":
        engine = rules if isinstance(rules, Engine) else Engine(rules)
        players = players or engine.rules.seats.min_players
        sides = len(set(engine._teams(players, partners)))
        scores = tuple(0 for _ in range(sides))
        hand = engine.start(derive(seed, 1), players, dealer=dealer, partners=partners)
        game = cls(engine, Scorer(engine), seed, players, partners, hand, scores, dealer,
                   target=engine.rules.game.target)
        return game.with_(hand=game._deal(dealer, 1))

    def with_(self, **changes: object) -> "Game":
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def rules(self) -> Rules:
        return self.engine.rules

    def _restricted(self) -> frozenset[int]:
        if not self.restrictions_on:
            return frozenset()
        return frozenset(s for s, score in enumerate(self.scores) if self.scorer.restriction(score) is not None)

    def _deal(self, dealer: int, hand_no: int) -> HandState:
        return self.engine.start(derive(self.seed, hand_no), self.players, dealer=dealer, partners=self.partners,
                                 scores_restricted=self._restricted())

    def side_of(self, seat: int) -> int:
        return self.hand.teams[seat]

    # ------------------------------------------------------------------ play
    def legal_moves(self) -> list[Move]:
        return [] if self.over else self.engine.legal_moves(self.hand)

    def play(self, move: Move) -> "Game":
        if self.over:
            raise GameOverError("the game is over")
        hand = self.engine.play(self.hand, move)
        game = self.with_(hand=hand)
        if self.rules.scoring.when == "as_won" and not self.rules.game.play_out_hand and not self.rules.game.claiming:
            pegged = game.pegged_winner()
            if pegged is not None:
                running = game.running_points()
                scores = tuple(game.scores[s] + running.get(s, 0) for s in range(len(game.scores)))
                return game.with_(over=True, winner=pegged, scores=scores, ended_by="pegging")
        if hand.over:
            return game._finish_hand()
        return game

    def running_points(self) -> dict[int, int]:
        """Points each side has secured so far this hand, counted as they are won."""
        return self.scorer.points_so_far(self.hand, dict(enumerate(self.scores)), self.restrictions_on)

    def pegged_winner(self) -> int | None:
        if self.target is None:
            return None
        running = self.running_points()
        reached = [s for s in running if self.scores[s] + running[s] >= self.target]
        if not reached:
            return None
        return max(reached, key=lambda s: self.scores[s] + running[s])

    def claim(self, seat: int) -> "Game":
        """``seat`` claims to have reached the target: right, their side wins; wrong, it loses."""
        if self.over:
            raise GameOverError("the game is over")
        if not self.rules.game.claiming:
            raise CassinoError(f"{self.rules.name} has no claiming")
        side = self.side_of(seat)
        running = self.running_points()
        correct = self.target is not None and self.scores[side] + running.get(side, 0) >= self.target
        scores = tuple(self.scores[s] + running.get(s, 0) for s in range(len(self.scores)))
        if correct:
            return self.with_(over=True, winner=side, scores=scores, ended_by="claim")
        others = [s for s in range(len(self.scores)) if s != side]
        winner = others[0] if len(others) == 1 else None
        return self.with_(over=True, winner=winner, scores=scores, ended_by="false claim")

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
                              ended_by="count out" if g.both_reach == "count_out" and
                              sum(1 for v in scores if v >= (self.target or 0)) > 1 else "target")
        restrictions_on = self.restrictions_on
        if self.target is not None and self.rules.endgame.lifted_after_tie:
            over = [v for v in scores if v >= self.target]
            if len(over) > 1 and len(set(over)) < len(over):
                restrictions_on = False
        dealer = self.engine.next_seat(self.dealer, self.players)
        hand_no = self.hand_no + 1
        game = game.with_(dealer=dealer, hand_no=hand_no, restrictions_on=restrictions_on)
        return game.with_(hand=game._deal(dealer, hand_no))
