"""Every seating of every variant played by the computer players, every consumer run on the positions
reached (issue 48, section 2): what ``tests/test_matrix.py`` (a fixed slice) and
``benchmarks/soak.py`` (random seeds, for as long as asked) share.

A *seating* is a variant (a bundled name or a rule file's path), a number of players it allows and
whether they play in partnerships (:func:`seatings` lists them all). :func:`run` plays one hand, or one
whole game, at a seating with a seed: seat ``s`` is played by ``random``, ``greedy`` and ``search`` in turn
(``BOTS[(s + rotation) % 3]``, the search with ``Budget.search`` deals a move), each move checked with the
engine's own legality check, and the consumers run at a few positions drawn from the seed:

- ``hint``: the move ``cassino play`` suggests a person (``GameSession.hint``; or the same search with
  ``Budget.hint`` deals), which must be legal;
- ``warnings``, ``counting``: the learning aids for the move chosen and for every seat;
- ``tutorial``: the tutorial's lessons after every action (it keeps what it has taught over the game);
- ``why``: the engine's reason for a random illegal move (one line, naming the move);
- ``felt``: the browser's table (``cassino serve``) as every seat and a watcher see the position: each
  view JSON that names no card hidden from its viewer, the seat to play offered moves (a sample beyond
  the listing budget) that are legal, played from its hand and taking items the table shows;
- ``solve``: the exact solver (``authors.solve.WatchedSolver``) where the position is known in full and
  small (``Budget.solve_cards``), its best move legal and its value the position's;
- ``openspiel``: the OpenSpiel game follows the game action by action, chance dealing the very cards
  the engine dealt (so both stand at the same position); at the sampled positions the observation and
  information-state tensors and strings, ``resample_from_infostate`` for every seat (a redeal
  exists whenever cards are hidden, and the seat cannot tell it from the real one), and a few moves
  made of its legal actions at random, each one the engine calls legal;
- ``pettingzoo``: the environment put at the same position, its observation and mask checked and the
  chosen move stepped through it;
- ``review``: ``cassino review`` of the record when the hand or game ends (``Budget.review_deals``);
- ``record``: the game's record saved to a file and read back as ``cassino play --resume`` and ``cassino
  review`` read it (``records.load_game``: its rules, seats and actions replayed): the same position,
  scores and result;
- ``terminal``: the game typed again into ``cassino play``'s own session, every seat a person at one keyboard
  (:mod:`.terminal_replay`): each move by its listed number or in the notation (suits sometimes as their symbols),
  a turn of several actions sometimes as one line, claims confirmed, with the warnings on in every other run; the
  session must play the very game, and no seat's screen may name a card hidden from it;
- ``socket``: the game played again at ``cassino serve``, every seat a person's page on its websocket
  (:mod:`.socket_replay`): handed in as a saved game part way, moves clicked or typed, the server stopped and
  started again once; every state a page is sent must be the game's position as its seat sees it, naming no card
  hidden from it, the moves offered legal (all of them where the list is not cut), and the table's game the game;
- ``blind``: the learning aids read no hidden card (:mod:`.blind`): the warnings, the counting aid, the tutorial's
  word before a choice and the hint say the same to the seat to move when the cards hidden from it are dealt again;
- ``vector``: the batched interface (``cassino.vector.VectorEnv``) of the seating, its games stepped
  with random legal actions drawn from the seed beside PettingZoo environments seeded as its games are
  (``Budget.vector_steps`` steps): each game's observation, mask, seat to act, rewards and end must be
  the environment's, and a game that ends must start again as a reset environment does.

Every problem becomes a :class:`Failure` that carries its reproduction: the seating, the players, the
seed, the record of actions so far, the consumer and the traceback. Consumer calls are timed; a call
slower than ``LIMITS`` says is listed as :class:`Slow` (the benchmark reports them; the tests never
look at the clock). Nothing here is random but through the seed: the same seating, seed and budget
play the same game and sample the same positions.
"""

from __future__ import annotations

import io
import json
import math
import random
import shlex
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from ...engine.core import Engine, Position, bits
from ...engine.game import Game
from ...engine.moves import Move, MoveKind
from ...engine.notation import format_move, parse_move
from ...engine.rng import derive
from ...errors import CassinoError, PositionTooLargeError, RuleFileError
from ...language.variants import bundled_names, load_rules
from ...players.bots import Bot, SearchBot, make_bot
from ...players.solver import SearchLimit, cards_left, missing_knowledge
from ..game.records import Record, load_game, result_of
from ..game.session import GameSession
from ..learning.counting import count_for
from ..learning.review import review_record
from ..learning.tutorial import Tutorial
from ..learning.warnings import warnings_for
from ..web.tables import offered_moves, snapshot
from ..web.views import card_words, seat_view, static_view
from . import blind
from .solve import WatchedSolver
from .socket_replay import replay_over_the_socket
from .terminal_replay import replay_at_the_terminal

BOTS = ("random", "greedy", "search")
CONSUMERS = ("hint", "warnings", "counting", "tutorial", "why", "felt", "solve", "openspiel", "pettingzoo", "review",
             "record", "vector", "terminal", "blind", "socket")
#: The consumers a run from a written position runs (:class:`Start`): those that read a position. The others
#: follow a game from its deal (the tutorial, OpenSpiel and PettingZoo beside it, the record and its review).
AT_A_POSITION = ("hint", "warnings", "counting", "why", "felt", "solve", "blind")
#: Seconds a consumer call may take (pure Python, one core) before the benchmark lists it as slow; ``move``
#: is a computer player's decision, ``run`` a whole run (a hand with every consumer). The review's is for
#: one hand's record at the budget's deals.
LIMITS: dict[str, float] = {
    "run": 120.0, "move": 10.0, "hint": 30.0, "warnings": 1.0, "counting": 0.5, "tutorial": 0.5, "why": 1.0,
    "felt": 2.0, "solve": 10.0, "openspiel": 5.0, "pettingzoo": 2.0, "review": 60.0, "record": 5.0,
    "vector": 10.0, "terminal": 30.0, "blind": 10.0, "socket": 60.0,
}
#: Plies after which a game is cut off (no variant's game comes near; a guard against a loop).
MAX_PLIES = 20_000


# ---------------------------------------------------------------------- seatings
@dataclass(frozen=True, order=True)
class Seating:
    """A variant (bundled name or rule file path), its player count and whether partners play."""

    variant: str
    players: int
    partners: bool = False

    @property
    def label(self) -> str:
        """``standard:4:partners``: what ``soak.py --seating`` reads back (:meth:`parse`)."""
        return f"{self.variant}:{self.players}" + (":partners" if self.partners else "")

    @property
    def short(self) -> str:
        """The label with a rule file named by its stem (test ids)."""
        name = Path(self.variant).stem if self.variant.endswith((".yaml", ".yml")) else self.variant
        return f"{name}-{self.players}p" + ("-partners" if self.partners else "")

    @classmethod
    def parse(cls, text: str) -> "Seating":
        """A label back to its seating, checked against the variant (CassinoError saying what is wrong)."""
        variant, _, rest = text.rpartition(":") if text.endswith(":partners") else (text, "", "")
        partners = rest == "partners"
        variant, colon, count = variant.rpartition(":")
        if not colon or not variant or not count.isdigit():
            raise CassinoError(f"a seating is VARIANT:PLAYERS or VARIANT:PLAYERS:partners, not {text!r}")
        seating = cls(variant, int(count), partners)
        if seating not in seatings([variant]):
            rules = load_rules(variant)
            raise CassinoError(f"{rules.name} has no seating {text!r}; it has "
                               f"{', '.join(s.label for s in seatings([variant]))}")
        return seating


def seatings(variants: Iterable[str] | None = None) -> list[Seating]:
    """Every player count each variant allows, with and without partners wherever partners may or
    must play (a count where partners must play is listed once, with them)."""
    out: list[Seating] = []
    for variant in (bundled_names() if variants is None else variants):
        rules = load_rules(variant)
        seats = rules.seats
        for players in range(seats.min_players, seats.max_players + 1):
            kinds = {rules.partnership(players, False), rules.partnership(players, True)}
            out += [Seating(str(variant), players, partners) for partners in sorted(kinds)]
    return out


def bots_for(players: int, rotation: int, search: int) -> tuple[str, ...]:
    """The players' names, seat by seat: random, greedy and search in turn from ``rotation``."""
    names = tuple(BOTS[(seat + rotation) % len(BOTS)] for seat in range(players))
    return tuple(f"search:{search}" if n == "search" else n for n in names)


# ---------------------------------------------------------------------- what a run reports
@dataclass(frozen=True)
class Budget:
    """How much a run does: a small one for the tests, a larger one for the soak."""

    search: int = 4                  # deals a move for the search seats (search:N)
    search_width: int = 10           # ...the candidate moves they weigh (SearchBot's width; 10 as named)
    search_close: int | None = None  # ...the most deals a close decision takes (None: SearchBot's own)
    hint: int | None = 4             # deals for the hint; None: the hint exactly as `cassino play` gives it
    samples: int = 2                 # positions a hand the consumers run at (the first decision is one)
    review_deals: int = 1            # `cassino review --deals`
    review_actions: int | None = 8   # the record's first actions reviewed (None: all of them)
    review_seat: int | None = None   # the seat reviewed (None: every seat, as for a game among computers)
    solve_cards: int = 6             # solve positions known in full with at most this many cards left
    solve_positions: int = 5_000     # ...within this many positions searched (more: not an error)
    whole_game: bool = False         # one hand, or the whole game
    max_hands: int = 40              # a whole game is cut off after this many hands
    max_actions: int | None = None   # stop after this many actions (None: at the end of the hand or game)
    vector_steps: int = 150          # steps of the batched interface's games (past a 2-player hand's end)
    consumers: tuple[str, ...] = CONSUMERS


@dataclass(frozen=True)
class Start:
    """A written position a run plays on from, instead of a deal: a scenario case's, before its moves
    (:func:`scenario_starts`). The run plays the rest of its hand and runs :data:`AT_A_POSITION` on it."""

    file: str                        # the scenario file, as named
    case: str                        # the case's name
    seating: Seating
    game: Game = field(compare=False, repr=False)
    under: bool = False              # read under another rule file than the case's (:meth:`read_under`)

    @property
    def label(self) -> str:
        return f"{self.file} case {self.case!r}" + (f" under {self.seating.variant}" if self.under else "")

    def read_under(self, variant: str) -> "Start | None":
        """The same cards where they lie (hands, table, builds and their owners, piles, stock, last capturer,
        scores) read under the rule file ``variant``, such as a drawn house rule of the case's variant: a
        written position under rules it was not written for. None where those rules cannot hold it (another
        deck, a build they refuse, a player count they do not seat)."""
        game, hand = self.game, self.game.hand
        deck = game.engine.deck
        try:
            engine = Engine(load_rules(variant))
            if [str(c) for c in engine.deck.cards] != [str(c) for c in deck.cards]:
                return None
            cards = deck.cards_of
            captured = ({hand.teams.index(side): [deck.cards[i] for i in stack]
                         for side, stack in enumerate(hand.stacks) if stack} if hand.stacks
                        else {seat: cards(pile) for seat, pile in enumerate(hand.piles) if pile})
            state = engine.position(Position(
                players=hand.players, partners=game.partners, to_play=hand.turn, dealer=hand.dealer,
                hands={seat: cards(h) for seat, h in enumerate(hand.hands)}, table=cards(hand.table),
                builds=[(cards(b.cards), b.value, b.owner) for b in hand.builds], captured=captured,
                last_capture=hand.last_capturer, stock=[deck.cards[i] for i in hand.stock]))
            moved = Game.at(engine, state, dict(enumerate(game.scores)), seed=game.seed)
        except (CassinoError, ValueError):
            return None
        if moved.over:
            return None
        return Start(self.file, self.case, Seating(variant, moved.players, moved.partners), moved, under=True)


def scenario_starts(paths: Iterable[str | Path]) -> tuple[list[Start], int]:
    """Every case of the scenario files ``paths`` that a hand can be played on from (:meth:`Runner.starts`),
    and how many cases were left out (an impossible position, a scoring case). CassinoError for a file
    that cannot be read as a scenario file."""
    from .scenarios import Runner     # (scenarios imports what a run does not need otherwise)

    runner, starts, cases = Runner(), [], 0
    for path in paths:
        try:
            found, written = runner.starts(path)
        except RuleFileError as e:
            raise CassinoError(f"cannot read {path} as a scenario file (a file `cassino check` reads):\n"
                               + "\n".join(d.format(caret=False) for d in e.diagnostics)) from None
        cases += written
        for name, variant, game in found:
            starts.append(Start(str(path), name, Seating(variant, game.players, game.partners), game))
    return starts, cases - len(starts)


def start_named(path: str | Path, case: str) -> Start:
    """The case named ``case`` of the scenario file ``path`` (CassinoError naming the cases there)."""
    starts, _ = scenario_starts([path])
    for start in starts:
        if start.case == case:
            return start
    names = ", ".join(repr(s.case) for s in starts[:12]) + (", ..." if len(starts) > 12 else "")
    raise CassinoError(f"{path} has no case named {case!r} to play on from"
                       + (f"; it has {names}" if starts else "; none of its cases can be played on"))


@dataclass(frozen=True)
class Failure:
    """Something that went wrong, with all it takes to see it again."""

    seating: Seating
    bots: tuple[str, ...]
    seed: int
    rotation: int
    whole_game: bool
    actions: tuple[str, ...]         # the record so far (moves in notation, claims)
    consumer: str                    # a consumer's name, or "move" (a computer player's decision)
    error: str                       # the exception's traceback, or what is wrong
    start: Start | None = None       # the written position the run began at (None: a deal)

    def replay_command(self) -> str:
        return replay_command(self.seating, self.seed, self.rotation, self.whole_game, self.start)

    def text(self) -> str:
        last = self.error.strip().splitlines()[-1] if self.error.strip() else ""
        where = f" from {self.start.label}" if self.start is not None else ""
        return "\n".join([
            f"FAILED {self.consumer} at {self.seating.label}{where} (players {', '.join(self.bots)}), seed {self.seed}, "
            f"after {len(self.actions)} actions: {last}",
            f"  record: {' | '.join(self.actions) if self.actions else '(no action yet)'}",
            f"  replay: {self.replay_command()}",
            "  " + self.error.strip().replace("\n", "\n  "),
        ])


def replay_command(seating: Seating, seed: int, rotation: int, whole_game: bool, start: Start | None) -> str:
    """The command line that plays a run again."""
    whole = " --whole-game" if whole_game else ""
    if start is not None:
        under = f" --under {shlex.quote(seating.variant)}" if start.under else ""
        return (f"python benchmarks/soak.py --replay-position {shlex.quote(start.file)} --case {shlex.quote(start.case)}"
                f"{under} --game-seed {seed} --rotation {rotation}{whole}")
    return f"python benchmarks/soak.py --replay {seating.label} --game-seed {seed} --rotation {rotation}{whole}"


@dataclass(frozen=True)
class Slow:
    """A call that took longer than ``LIMITS`` allows."""

    consumer: str
    seconds: float
    seating: Seating
    seed: int
    rotation: int
    actions: int
    limit: float = 0.0               # the limit it went over (0: LIMITS's)
    whole_game: bool = False
    start: Start | None = None

    def text(self) -> str:
        limit = self.limit or LIMITS[self.consumer]
        where = f" from {self.start.label}" if self.start is not None else ""
        return (f"SLOW {self.consumer}: {self.seconds:.1f}s (limit {limit:g}s) at "
                f"{self.seating.label}{where}, seed {self.seed}, rotation {self.rotation}, after {self.actions} "
                f"actions; replay: {replay_command(self.seating, self.seed, self.rotation, self.whole_game, self.start)}")


@dataclass
class Outcome:
    """What one run found, and how long each consumer took."""

    seating: Seating
    seed: int
    bots: tuple[str, ...]
    failures: list[Failure] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)
    slow: list[Slow] = field(default_factory=list)
    actions: int = 0
    calls: dict[str, int] = field(default_factory=dict)
    record: tuple[str, ...] = ()     # the actions played, in notation


# ---------------------------------------------------------------------- the run
class Run:
    """One run: :meth:`play` fills :attr:`outcome` as it goes (what was found before an interruption stays)."""

    def __init__(self, seating: Seating, seed: int, budget: Budget, rotation: int, start: Start | None = None) -> None:
        self.seating, self.seed, self.budget, self.rotation, self.start = seating, seed, budget, rotation, start
        self.engine = Engine(load_rules(seating.variant)) if start is None else start.game.engine
        self.rules = self.engine.rules
        self.bots = bots_for(seating.players, rotation, budget.search)
        self.outcome = Outcome(seating, seed, self.bots)
        self.record = Record(self.rules, seed, seating.players, seating.partners, list(self.bots),
                             source=seating.variant)
        self.sampler = random.Random(derive(seed, 48))
        self.spiel: _SpielMirror | None = None
        self.zoo: Any = None

    # -- bookkeeping
    def fail(self, consumer: str, error: str) -> None:
        b = self.budget
        self.outcome.failures.append(Failure(self.seating, self.bots, self.seed, self.rotation, b.whole_game,
                                             tuple(self.record.actions), consumer, error, self.start))

    def call(self, consumer: str, fn: Callable[[], Any]) -> tuple[bool, Any]:
        """``fn()`` timed; an exception is a failure of ``consumer`` (False, None)."""
        start = time.perf_counter()
        try:
            value = fn()
            ok = True
        except Exception:  # noqa: BLE001 - every exception is a finding, kept with its traceback
            self.fail(consumer, traceback.format_exc())
            value, ok = None, False
        seconds = time.perf_counter() - start
        self.outcome.times.setdefault(consumer, []).append(seconds)
        self.outcome.calls[consumer] = self.outcome.calls.get(consumer, 0) + 1
        if seconds > LIMITS.get(consumer, math.inf):
            self.outcome.slow.append(Slow(consumer, seconds, self.seating, self.seed, self.rotation,
                                          len(self.record.actions), whole_game=self.budget.whole_game,
                                          start=self.start))
        return ok, value

    def wants(self, consumer: str) -> bool:
        return consumer in self.budget.consumers and (self.start is None or consumer in AT_A_POSITION)

    # -- the game
    def play(self) -> Outcome:
        """Play the hand or game and run the consumers (the whole run is timed as ``run``)."""
        self.call("run", self._play)
        return self.outcome

    def _play(self) -> None:
        s, b = self.seating, self.budget
        game = self.record.new_game() if self.start is None else self.start.game
        seats = [self.bot(name, derive(self.seed, seat + 1)) for seat, name in enumerate(self.bots)]
        tutorial: Tutorial | None = None
        if self.wants("tutorial"):
            ok, value = self.call("tutorial", lambda: Tutorial.for_game(game).start(game, True))
            tutorial = value[0] if ok else None
        if self.wants("openspiel") or self.wants("pettingzoo"):
            ok, mirror = self.call("openspiel", lambda: _SpielMirror(s, b, game))
            self.spiel = mirror if ok else None
        first_hand = game.hand_no
        expected = max(8, self.engine.n_cards * 2 // 3)   # decisions a hand, about (several cards a move: fewer)
        decisions = 0
        solvable_seen = not self.wants("solve")
        while not game.over and len(self.record.actions) < MAX_PLIES:
            if not b.whole_game and game.hand_no != first_hand:
                break
            if b.whole_game and len(game.results) >= b.max_hands:
                break
            if b.max_actions is not None and len(self.record.actions) >= b.max_actions:
                break
            if self.rules.game.claiming:
                claimant = next((seat for seat, bot in enumerate(seats) if bot.wants_to_claim(game, seat)), None)
                if claimant is not None:
                    self.spiel_claim(claimant)
                    game = game.claim(claimant)
                    self.record.actions.append(f"claim {claimant}")
                    break
            seat = game.hand.turn
            bot = seats[seat]
            bot.reseed(derive(self.seed, seat, len(self.record.actions)))
            ok, move = self.call("move", lambda: bot.choose(game, seat))
            if not ok:
                break
            if not self.legal(game, move, f"{self.bots[seat]} (seat {seat})"):
                break
            sampled = decisions == 0 or self.sampler.random() < b.samples / expected
            if not solvable_seen and self.solvable(game):
                sampled = solvable_seen = True     # the first position the solver can take: one of the sample
            if sampled:
                self.consumers_at(game, seat, move)
            before = game
            game = game.play(move)
            text = format_move(move, self.engine.deck)
            self.record.actions.append(text)
            decisions += 1
            if tutorial is not None:
                t = tutorial
                ok, value = self.call("tutorial", lambda: t.after(before, move, game, to_move=True))
                tutorial = value[0] if ok else None
            self.spiel_move(before, move, game, sampled)
        self.outcome.actions = len(self.record.actions)
        self.outcome.record = tuple(self.record.actions)
        if self.wants("review") and self.record.actions:
            self.review(game)
        if self.wants("record"):
            self.call("record", lambda: self.saved_and_read(game))
        if self.wants("terminal") and self.record.actions:
            people = Record(self.rules, self.seed, s.players, s.partners, list(self.bots), source=s.variant)
            self.call("terminal", lambda: replay_at_the_terminal(people, list(self.record.actions),
                                                                 derive(self.seed, 54), warn=self.seed % 2 == 0,
                                                                 tutorial=self.seed % 3 == 0))
        if self.wants("socket") and self.record.actions:
            self.call("socket", lambda: replay_over_the_socket(self.record, list(self.record.actions),
                                                               derive(self.seed, 55)))
        if self.wants("vector"):
            self.call("vector", lambda: vector_agrees(s, b.whole_game, derive(self.seed, 52), b.vector_steps))

    def bot(self, name: str, seed: int) -> Bot:
        """A computer player by name; the search with the budget's width and close-decision deals."""
        b = self.budget
        if name.startswith("search") and (b.search_width != 10 or b.search_close is not None):
            return SearchBot(seed, iterations=b.search, width=b.search_width, close=b.search_close)
        return make_bot(name, seed)

    def legal(self, game: Game, move: Any, who: str) -> bool:
        if not isinstance(move, Move):
            self.fail("move", f"{who} chose {move!r}, which is not a move")
            return False
        if not self.engine.is_legal(game.hand, move):
            reason = self.engine.why_illegal(game.hand, self.engine.resolve(game.hand, move))
            self.fail("move", f"{who} chose an illegal move: {reason}")
            return False
        return True

    # -- the consumers at one position
    def consumers_at(self, game: Game, seat: int, move: Move) -> None:
        hand = game.hand
        if self.wants("hint"):
            ok, hint = self.call("hint", lambda: self.hint(game, seat))
            if ok:
                self.legal(game, hint, "the hint")
        if self.wants("warnings"):
            self.call("warnings", lambda: [w.to_json() for w in warnings_for(game, move)])
        if self.wants("counting"):
            for other in range(hand.players):
                self.call("counting", lambda: (count_for(game, other).text(), count_for(game, other).to_json()))
        if self.wants("why"):
            self.call("why", lambda: self.why(game))
        if self.wants("felt"):
            self.call("felt", lambda: self.felt(game))
        if self.wants("blind"):
            self.call("blind", lambda: blind.check(game, move, derive(self.seed, len(self.record.actions), 53),
                                                   hint=lambda g: self.blind_hint(g, seat),
                                                   tutorial=Tutorial.for_game(game)))
        if self.wants("solve") and self.solvable(game):
            self.call("solve", lambda: self.solve(game))
        if self.wants("pettingzoo") and self.spiel is not None:
            spiel = self.spiel
            self.call("pettingzoo", lambda: spiel.pettingzoo(move, derive(self.seed, len(self.record.actions))))

    def felt(self, game: Game) -> None:
        """The browser's table at ``game``'s position for every seat and a watcher (AssertionError naming
        what is wrong): what :func:`web.tables.offered_moves` and :func:`web.views.seat_view` send."""
        engine, hand = self.engine, game.hand
        deck = engine.deck
        session = GameSession(game, self.record, {}, Path("unused.json"))
        offered = offered_moves(snapshot(session))
        if not offered.moves and not game.over:
            raise AssertionError("the seat to play is offered no move to click")
        kinds = ["human"] * hand.players
        json.dumps(static_view(game.rules, deck, self.seating.variant))
        for viewer in [None, *range(hand.players)]:
            view = seat_view(table_id="matrix", game=game, kinds=kinds, viewer=viewer, hand_log=[],
                             moves=offered.moves if viewer == hand.turn else [], connected=range(hand.players),
                             can_undo=False)
            text = json.dumps(view)
            # The other hands and the stock; with two packs a name is hidden only where no copy of it is seen.
            leaked = blind.named((form for n in blind.hidden_names(game, viewer) for form in (n, card_words(deck, n))),
                                 text)
            if leaked:
                raise AssertionError(f"the view of {'a watcher' if viewer is None else f'seat {viewer}'} names "
                                     f"hidden cards {leaked}")
            if viewer != hand.turn:
                continue
            ids = set(view["hand"])
            items = set(view["loose"]) | {b["id"] for b in view["builds"]}
            for seat in view["seats"]:
                items |= set(seat["pile"]) | ({seat["top"]} if seat["top"] else set())
            for move in view["moves"]:
                parsed = engine.resolve(hand, parse_move(move["text"], deck))
                if not engine.is_legal(hand, parsed):
                    raise AssertionError(f"the table offers {move['text']}: {engine.why_illegal(hand, parsed)}")
                if not set(move["played"]) <= ids or not set(move["items"]) <= items:
                    raise AssertionError(f"the table offers {move['text']} with cards it does not show: {move}")

    def solvable(self, game: Game) -> bool:
        hand = game.hand
        return missing_knowledge(hand) is None and cards_left(hand) <= self.budget.solve_cards

    def hint(self, game: Game, seat: int) -> Move:
        if self.budget.hint is None:
            return GameSession(game, self.record, {}, Path("unused.json")).hint(seat)
        b = self.budget
        return SearchBot(derive(self.record.seed, game.hand.ply), iterations=b.hint, width=b.search_width,
                         close=b.search_close).choose(game, seat)

    def blind_hint(self, game: Game, seat: int) -> Move:
        """The hint's search without its cap of seconds a move (``search.MOVE_CAP``), which cuts a slow decision short
        wherever the machine's speed says and so may choose otherwise at the same position (a drawn Swazi rule of
        three players: capped at 3 s, `2D build 10 on 8C`; uncapped, `AD capture [AH KD]`), and with the budget's
        hint deals (8 where the hint is ``cassino play``'s own): a search that read where hidden cards lie would
        choose otherwise with few deals as with many."""
        b = self.budget
        return SearchBot(derive(self.record.seed, game.hand.ply), iterations=b.hint if b.hint is not None else 8,
                         width=b.search_width, close=b.search_close, cap=None).choose(game, seat)

    def why(self, game: Game) -> str | None:
        """The reason for a random illegal move of the seat to play (None: none was found); asked of a legal
        move first, which it must say is legal (session 88: it refused legal moves of house rules, a check of
        its own not knowing a setting the listing honours)."""
        engine, hand = self.engine, game.hand
        rng = random.Random(derive(self.seed, len(self.record.actions), 7))
        legal = engine.playable_moves(hand)
        if legal:
            text = engine.why_illegal(hand, rng.choice(legal))
            if ": a legal move here" not in text:
                raise AssertionError(f"a legal move is refused: {text!r}")
        move = _illegal_move(engine, hand, rng)
        if move is None:
            return None
        text = engine.why_illegal(hand, move)
        shown = format_move(move, engine.deck)
        if not text.startswith(shown + ": ") or "\n" in text or not text[len(shown) + 2:].strip():
            raise AssertionError(f"the reason for {shown} is not one line naming it: {text!r}")
        return text

    def solve(self, game: Game) -> int | None:
        """The solver's values and line where the position is known in full (None: too large)."""
        engine, hand = self.engine, game.hand
        solver = WatchedSolver(engine, game.scorer, hand.teams[hand.turn], dict(enumerate(game.scores)),
                               game.restrictions_on, max_positions=self.budget.solve_positions)
        try:
            values = solver.move_values(hand)
            best = solver.value(hand)
            after = engine.apply(hand, values[0].move)
            line = solver.principal_line(after) if not after.over else []
        except (SearchLimit, PositionTooLargeError):   # (as `cassino solve` and the search player: not solved)
            return None
        legal = engine.legal_moves(hand)
        if len(values) != len(legal) or not all(engine.is_legal(hand, v.move) for v in values):
            raise AssertionError(f"the solver valued {len(values)} moves; there are {len(legal)} legal ones")
        if best != values[0].value:
            raise AssertionError(f"the position's value {best} is not its best move's {values[0].value}")
        for m in line:
            if not engine.is_legal(after, m):
                raise AssertionError(f"the principal line plays {format_move(m, engine.deck)}, which is illegal")
            after = engine.apply(after, m)
        return best

    def review(self, game: Game) -> None:
        b = self.budget
        actions = self.record.actions if b.review_actions is None else self.record.actions[:b.review_actions]
        record = Record(self.rules, self.seed, self.seating.players, self.seating.partners, list(self.bots),
                        actions=list(actions), source=self.seating.variant)
        ok, review = self.call("review", lambda: review_record(record, b.review_seat, b.review_deals, self.seed))
        if ok:
            self.call("review", lambda: review.to_json())
            if len(actions) == len(self.record.actions) and tuple(review.scores) != tuple(game.scores):
                self.fail("review", f"the review ends at scores {review.scores}, the game at {game.scores}")

    def saved_and_read(self, game: Game) -> None:
        """The record written as ``cassino play`` saves it, then read and replayed as ``--resume`` reads it."""
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "game.json"
            self.record.save(path, game)
            _, again = load_game(path)
        if again.hand != game.hand or again.scores != game.scores or result_of(again) != result_of(game):
            raise AssertionError(f"the record read back replays to another game: scores {again.scores} and "
                                 f"result {result_of(again)}, where the game has {game.scores} and {result_of(game)}")

    # -- OpenSpiel alongside
    def spiel_move(self, before: Game, move: Move, after: Game, sampled: bool) -> None:
        spiel = self.spiel
        if spiel is None:
            return
        ok, _ = self.call("openspiel", lambda: spiel.move(before, move, after, sampled and self.wants("openspiel"),
                                                          derive(self.seed, len(self.record.actions), 9)))
        if not ok:
            self.spiel = None

    def spiel_claim(self, seat: int) -> None:
        spiel = self.spiel
        if spiel is not None:
            ok, _ = self.call("openspiel", lambda: spiel.claim(seat))
            if not ok:
                self.spiel = None


def _illegal_move(engine: Engine, hand: Any, rng: random.Random) -> Move | None:
    """A move of the seat to play that the engine refuses: random cards played, taken and built."""
    mine = bits(hand.hands[hand.turn])
    table = bits(hand.table)
    if not mine:
        return None
    legal = set(engine.playable_moves(hand))
    for _ in range(40):
        played = 1 << rng.choice(mine)
        loose = sum(1 << c for c in table if rng.random() < 0.4)
        builds = tuple(sorted(b.cards for b in hand.builds if rng.random() < 0.3))
        kind = rng.choice((MoveKind.TRAIL, MoveKind.CAPTURE, MoveKind.BUILD))
        if kind is MoveKind.TRAIL:
            move = Move(kind, played)
        elif kind is MoveKind.CAPTURE:
            move = Move(kind, played, loose, builds)
        else:
            move = Move(kind, played, loose, builds, rng.randint(1, 15))
        if move not in legal and not engine.is_legal(hand, move):
            return move
    return None


# ---------------------------------------------------------------------- OpenSpiel and PettingZoo
def _ids(mask: int, size: int) -> list[int]:
    """A mask's cards by identity (two packs: a card and its copies alike), sorted."""
    return sorted(c % size for c in bits(mask))


class _SpielMirror:
    """The OpenSpiel game following a game action by action, chance dealing the cards the engine dealt."""

    def __init__(self, seating: Seating, budget: Budget, game: Game) -> None:
        import pyspiel

        import cassino.openspiel  # noqa: F401  (registers python_cassino)

        self.pyspiel = pyspiel
        self.budget = budget
        params = {"variant": seating.variant, "players": seating.players, "partners": seating.partners,
                  "whole_game": budget.whole_game, "dealer": game.dealer, "max_hands": max(budget.max_hands, 1)}
        self.seating = seating
        self.params = params
        self.game = pyspiel.load_game("python_cassino", params)
        self.state = self.game.new_initial_state()
        self.size = game.engine.pack_size
        self.deal_like(game)

    def deal_like(self, real: Game) -> None:
        """Chance's turns, each dealing the card the engine dealt to that place."""
        state, size = self.state, self.size
        while state.is_chance_node():
            step = state.step
            d = step.deal
            k = len(d.chosen)
            to = d.to[k]
            hand = step.game.hand
            zone = hand.table if to < 0 else hand.hands[to]
            # The table's cards as dealt: those the dealer took at once (Escoba's table of 15) included.
            dealt_table = real.hand.table
            for c in real.hand.captures:
                if c.ply == -1:
                    dealt_table |= c.table_cards
            want = _ids(dealt_table if to < 0 else real.hand.hands[to], size)
            for c in _ids(zone & ~d.pool, size) + [c % size for c, t in zip(d.chosen, d.to) if t == to]:
                want.remove(c)
            legal = state.legal_actions()
            action = next((a for a in legal if a % size in want), None)
            if action is None:
                place = "the table" if to < 0 else f"seat {to}"
                deck = real.engine.deck
                if not want:
                    there = real.hand.table if to < 0 else real.hand.hands[to]
                    shown = " ".join(str(deck.cards[c]) for c in bits(there)) or "nothing"
                    raise AssertionError(f"OpenSpiel deals a card to {place}, where the game dealt no more ({place} "
                                         f"holds {shown} in the game): the adapter's deal differs from the engine's")
                raise AssertionError(f"OpenSpiel cannot deal any of {want} to {place}; chance offers {legal}")
            state.apply_action(action)
        self.same(real)

    def same(self, real: Game) -> None:
        if self.state.is_terminal():
            return
        mine, theirs = self.state.step.game.hand, real.hand
        size = self.size
        for what, a, b in [("the table", mine.table, theirs.table)] + [
                (f"seat {s}'s hand", x, y) for s, (x, y) in enumerate(zip(mine.hands, theirs.hands))]:
            if _ids(a, size) != _ids(b, size):
                raise AssertionError(f"OpenSpiel's {what} differs from the game's: {_ids(a, size)} != {_ids(b, size)}")
        if mine.turn != theirs.turn:
            raise AssertionError(f"OpenSpiel has seat {mine.turn} to play, the game seat {theirs.turn}")

    def move(self, before: Game, move: Move, after: Game, probe: bool, seed: int) -> None:
        state = self.state
        if probe:
            self.probe(seed)
        seat = before.hand.turn
        if state.current_player() != seat:
            raise AssertionError(f"OpenSpiel has player {state.current_player()} to act, the game seat {seat}")
        for action in state.actions_for(move):
            legal = state.legal_actions()
            if action not in legal:
                raise AssertionError(f"OpenSpiel refuses action {action} of {format_move(move, before.engine.deck)}")
            state.apply_action(action)
        if state.is_terminal():
            returns = state.returns()
            if abs(sum(returns)) > 1e-6:
                raise AssertionError(f"OpenSpiel's returns {returns} do not sum to zero")
            return
        self.deal_like(after)

    def claim(self, seat: int) -> None:
        state = self.state
        if not self.budget.whole_game:
            return    # one hand: OpenSpiel's game is the hand, with no claiming
        claim = state.step.table.encoding.CLAIM
        if claim not in state.legal_actions():
            raise AssertionError(f"OpenSpiel offers no claim to seat {seat}")
        state.apply_action(claim)

    def probe(self, seed: int) -> None:
        """The views and a redeal for every seat at the current position."""
        state = self.state
        rng = random.Random(seed)
        players = self.game.num_players()
        for p in range(players):
            state.observation_string(p)
            state.observation_tensor(p)
            info = state.information_state_string(p)
            if not self.budget.whole_game:
                state.information_state_tensor(p)
            other = state.resample_from_infostate(p, rng)
            if other.information_state_string(p) != info:
                raise AssertionError(f"resample_from_infostate({p}) changed what player {p} knows")
            if other.legal_actions() != state.legal_actions() and state.current_player() == p:
                raise AssertionError(f"resample_from_infostate({p}) changed player {p}'s legal actions")
        self.walks(rng)

    def walks(self, rng: random.Random, count: int = 6) -> None:
        """A few moves made of OpenSpiel's legal actions at random, each one action after another to its
        end: every one a move the engine calls legal (the adapter offers no more than the rules allow; that
        it offers every legal move, ``move`` checks as the game is followed)."""
        step = self.state.step
        if step.deal is not None or step.ended or step.prefix or step.to_play is None:
            return
        engine, hand = step.table.engine, step.game.hand
        for _ in range(count):
            s = step
            while True:
                action = rng.choice(s.legal)
                after = s.apply(action)
                if len(after.trace) > len(step.trace) or after.log[len(step.log):]:
                    break
                s = after
            if len(after.trace) <= len(step.trace):
                continue   # (a whole game's next hand began: its trace is that hand's)
            what, move = after.trace[len(step.trace)]
            if what == "move" and not engine.is_legal(hand, move):
                raise AssertionError(f"OpenSpiel's actions {', '.join(s.describe(a) for a in (*s.prefix, action))} "
                                     f"make {format_move(move, engine.deck)}, which the engine refuses: "
                                     f"{engine.why_illegal(hand, move)}")

    def pettingzoo(self, move: Move, seed: int) -> None:
        """The environment at this position: its observation and mask, then the move stepped through it."""
        from ..research.pettingzoo import env as make_env

        step = self.state.step
        if step.deal is not None or step.ended:
            return
        e = make_env(variant=self.seating.variant, players=self.seating.players, partners=self.seating.partners,
                     whole_game=self.budget.whole_game, max_hands=max(self.budget.max_hands, 1),
                     dealer=int(self.params["dealer"]), render_mode="ansi")
        e.reset(seed=seed)
        raw = e.unwrapped
        raw.state_ = step
        agent = f"player_{step.to_play}"
        raw.agent_selection = agent
        space = e.observation_space(agent)["observation"]
        for action in step.actions_for(move):
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                raise AssertionError("PettingZoo ended before the move was made")
            if not space.contains(obs["observation"]):
                raise AssertionError("PettingZoo's observation is outside its space")
            legal = sorted(raw.state_.legal_actions())
            mask = [int(i) for i in obs["action_mask"].nonzero()[0]]
            if mask != legal:
                raise AssertionError(f"PettingZoo's action mask {mask} is not the legal actions {legal}")
            e.step(action)
        e.render()
        if raw.state_.ended:
            total = sum(raw.rewards.values())
            if abs(total) > 1e-6:
                raise AssertionError(f"PettingZoo's rewards sum to {total}")


def vector_agrees(seating: Seating, whole_game: bool, seed: int, steps: int, games: int = 2) -> None:
    """``games`` games of the batched interface (``VectorEnv``) stepped ``steps`` times with random legal
    actions, beside as many PettingZoo environments seeded as its games are (``reset(seed=seed + i)``,
    each reset again with no seed when its game ends, as the batch's auto-reset): the same observations
    (the kind drawn from the seed), masks, seats to act, rewards and ends. AssertionError at the first
    difference, naming the game, its seed and its actions since it last started."""
    import numpy as np

    from ..research.pettingzoo import raw_env
    from ..research.vector import VectorEnv

    observation = ("observation", "information_state")[seed % 2]
    settings: dict[str, Any] = {"variant": seating.variant, "players": seating.players,
                                "partners": seating.partners, "whole_game": whole_game,
                                "dealer": seed % seating.players, "observation": observation}
    batch = VectorEnv(games, seed=seed, **settings)
    obs, masks, to_play = batch.reset(seed=seed)
    singles = [raw_env(**settings) for _ in range(games)]
    for i, single in enumerate(singles):
        single.reset(seed=seed + i)
    rng = np.random.default_rng(seed)
    played: list[list[int]] = [[] for _ in range(games)]

    def differs(i: int, what: str) -> AssertionError:
        return AssertionError(f"VectorEnv's game {i} ({observation}, seed {seed + i}) differs from the PettingZoo "
                              f"environment's in {what} after the actions {played[i]}")

    for _ in range(steps):
        for i, single in enumerate(singles):
            seat = single.state_.game.hand.turn
            view = single.observe(single.possible_agents[seat])
            if int(to_play[i]) != seat:
                raise differs(i, f"the seat to act ({int(to_play[i])}, not {seat})")
            if not np.array_equal(obs[i], view["observation"]):
                places = np.flatnonzero(obs[i] != view["observation"]).tolist()[:8]
                raise differs(i, f"the observation (at {places})")
            if not np.array_equal(masks[i], view["action_mask"]):
                raise differs(i, f"the action mask ({np.flatnonzero(masks[i]).tolist()}, not "
                                 f"{np.flatnonzero(view['action_mask']).tolist()})")
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        obs, masks, rewards, dones, truncated, to_play = batch.step(actions)
        for i, single in enumerate(singles):
            played[i].append(int(actions[i]))
            single.step(int(actions[i]))
            state = single.state_
            if bool(dones[i]) != bool(state.ended):
                raise differs(i, f"the end ({'ended' if dones[i] else 'not ended'}, where the environment's game "
                                 f"{'has' if state.ended else 'has not'})")
            if state.ended:
                if bool(truncated[i]) != (state.ended == "cut"):
                    raise differs(i, "whether the game was cut off")
                if not np.allclose(rewards[i], state.returns()):
                    raise differs(i, f"the rewards ({rewards[i].tolist()}, not {list(state.returns())})")
                single.reset()
                played[i] = []
            elif rewards[i].any():
                raise differs(i, f"the rewards ({rewards[i].tolist()} before the end)")


# ---------------------------------------------------------------------- entry points
def run(seating: Seating, seed: int, budget: Budget = Budget(), rotation: int | None = None) -> Outcome:
    """Play ``seating`` from ``seed`` (one hand, or the whole game) and run the consumers; never raises
    for what it finds: every problem is in the outcome's failures. ``rotation`` (default from the seed):
    which of ``BOTS`` sits at seat 0."""
    if rotation is None:
        rotation = seed % len(BOTS)
    try:
        return Run(seating, seed, budget, rotation).play()
    except Exception:  # noqa: BLE001 - a failure of the run itself (loading the variant, dealing)
        outcome = Outcome(seating, seed, bots_for(seating.players, rotation, budget.search))
        outcome.failures.append(Failure(seating, outcome.bots, seed, rotation, budget.whole_game, (), "run",
                                        traceback.format_exc()))
        return outcome


def run_from(start: Start, seed: int, budget: Budget = Budget(), rotation: int | None = None) -> Outcome:
    """Play the rest of ``start``'s hand (a written position, not a deal: positions that play may never
    reach, such as the scenario files' random ones) and run :data:`AT_A_POSITION` on it, as :func:`run`."""
    if rotation is None:
        rotation = seed % len(BOTS)
    seating = start.seating
    try:
        return Run(seating, seed, budget, rotation, start).play()
    except Exception:  # noqa: BLE001 - a failure of the run itself
        outcome = Outcome(seating, seed, bots_for(seating.players, rotation, budget.search))
        outcome.failures.append(Failure(seating, outcome.bots, seed, rotation, budget.whole_game, (), "run",
                                        traceback.format_exc(), start))
        return outcome


def summary(outcomes: Iterable[Outcome]) -> str:
    """Each consumer's calls and times (median, 95th percentile, most), as the benchmark prints them."""
    times: dict[str, list[float]] = {}
    for o in outcomes:
        for name, ts in o.times.items():
            times.setdefault(name, []).extend(ts)
    out = io.StringIO()
    out.write(f"{'call':<11} {'calls':>7} {'median':>9} {'p95':>9} {'most':>9} {'limit':>7}\n")
    for name in ("run", "move") + CONSUMERS:
        ts = sorted(times.get(name, []))
        if not ts:
            continue
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
        out.write(f"{name:<11} {len(ts):>7} {ts[len(ts) // 2] * 1000:>7.1f}ms {p95 * 1000:>7.1f}ms "
                  f"{ts[-1] * 1000:>7.0f}ms {LIMITS.get(name, math.inf):>6g}s\n")
    return out.getvalue()
