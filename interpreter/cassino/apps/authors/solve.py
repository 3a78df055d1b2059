"""`cassino solve`: the exact value of every legal move in a position given in full.

The position is a scenario case (docs/scenarios.md; `expect` may be left out), built
and played by the same code as `cassino check` (``scenarios.Runner``), with its
``moves`` played first. Every card must have a place (the hands, the table, builds,
capture piles, ``rest`` for every card not placed elsewhere, or a ``stock`` given in
order): a card left unplaced would be in the unseen stock, and then the position is
not known in full (exit 2, saying how many and how to fix it). A case with
``captured: {N: rest}`` and cards still in hand is solved from that position rather
than scored as a finished hand.

Values are the side to move's final hand points minus the other side's, with best play by everyone,
under the variant's scoring and the case's game scores (endgame restrictions); a higher value is better
for the side to move in every game. Where the lowest total wins (points are penalties) the sign is
turned: the other side's points minus the mover's. With more than two sides, the other side is the
best placed of them (the highest points, or the lowest where the lowest total wins), and every other
seat is taken to play against the side to move (a "paranoid" search: the value the side to move can
make sure of, whatever the others do).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable

from ...engine.notation import format_move
from ...errors import CassinoError, PositionTooLargeError, RuleFileError
from ...language.cards import CardError
from ...language.resolve import named_document
from ...players.collector import collector_paused
from ...players.solver import SearchLimit, Solver, missing_knowledge
from .scenario_format import check_file
from .scenarios import FileMistake, ImpossiblePosition, Runner, VariantRefused, locator, impossible_message, play_moves


@dataclass(frozen=True)
class Solution:
    """A solved position: every move's value (best first) and the line of best play."""

    variant: str
    seat: int
    values: list[tuple[str, int]]        # (move, value), best first
    line: list[tuple[int, str]]          # (seat, move) from the position to the end of the hand
    nodes: int
    lowest: bool = False                 # the lowest total wins: the sign is turned (the value is still "higher: better")
    sides: int = 2
    free_actions: bool = False           # turns of several actions (``build.free_actions``)
    after_moves: int = 0                 # the case's own `moves`, played before the position solved

    def meaning(self) -> str:
        """What a value is, in words, for this game and these sides (the module's docstring says why)."""
        other = "the other side's" if self.sides == 2 else \
            f"the best placed other side's ({'fewest' if self.lowest else 'most'} points; the other seats all play against it)"
        if self.lowest:
            return f"{other} hand points minus its side's (the lowest total wins: higher is better)"
        return f"its side's hand points minus {other}"

    def turns(self) -> list[str]:
        """The principal line a turn an entry: each seat's consecutive actions joined by `; `."""
        out: list[tuple[int, list[str]]] = []
        for seat, move in self.line:
            if out and out[-1][0] == seat and self.free_actions:
                out[-1][1].append(move)
            else:
                out.append((seat, [move]))
        return ["; ".join(moves) for _, moves in out]

    def text(self) -> str:
        width = max(len(move) for move, _ in self.values)
        played = (f", after the case's {self.after_moves} move{'' if self.after_moves == 1 else 's'}"
                  if self.after_moves else "")   # (an audit could not tell the moves had been played first)
        out = [f"{self.variant}{played}: seat {self.seat} to play; a move's value is {self.meaning()}, with best play "
               f"({self.nodes} positions searched)"]
        out += [f"  {move:<{width}}  {signed(value)}" for move, value in self.values]
        out.append("principal line: " + "; ".join(f"seat {s}: {m}" for s, m in self.line))
        # The same line as a case's `moves`, a turn an entry (a turn of several actions joined by `;`), to paste into a
        # scenario (an audit's `seat 0: end` entries were refused there: a turn ends by itself with its hand card).
        out.append("as moves: [" + ", ".join(f'"{turn}"' for turn in self.turns()) + "]")
        best, value = self.values[0]
        out.append(f"best: {best} ({signed(value)})")
        return "\n".join(out)


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def pick_case(data: dict[str, Any], path: str, name: str | None) -> dict[str, Any]:
    """The case named ``name``, or the only case when the file has one."""
    cases = [c for c in data["cases"] if isinstance(c, dict)]
    names = [str(c.get("name")) for c in cases]
    if name is None:
        if len(cases) == 1:
            return cases[0]
        raise CassinoError(f"{path}: {len(cases)} cases; name one with --case: {', '.join(names)}")
    for case in cases:
        if case.get("name") == name:
            return case
    raise CassinoError(f"{path}: no case named {name!r}; the cases are: {', '.join(names)}")


#: Positions the solver remembers at most (each entry some 700 bytes: 2,000,000 of them took 1.45 GB).
#: A position forgotten is searched again when it comes back: slower, never a different value.
TABLE_LIMIT = 300_000


class BoundedTable(dict):  # type: ignore[type-arg]
    """A dict that forgets its oldest quarter when it reaches ``limit`` entries (a transposition table
    that fits in memory; its entries are only a cache of values the search can find again)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = max(limit, 4)

    def __setitem__(self, key: Any, value: Any) -> None:
        if len(self) >= self.limit and key not in self:
            for old in list(itertools.islice(iter(self), self.limit // 4)):
                del self[old]
        super().__setitem__(key, value)


class WatchedSolver(Solver):
    """The solver with a bounded table (and, through ``Solver``'s own ``progress``, a word every
    ``every`` positions)."""

    def __init__(self, *args: Any, table_limit: int = TABLE_LIMIT, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.table = BoundedTable(table_limit)
        self.finals = BoundedTable(table_limit)


def solve(path: str, case_name: str | None = None, max_positions: int | None = None, *,
          progress: Callable[[int], None] | None = None, every: int = 0,
          table_limit: int = TABLE_LIMIT) -> Solution:
    """Solve a scenario case (CassinoError, saying what is wrong, for anything that is not a
    position known in full). ``progress(positions)`` is called every ``every`` positions searched;
    the solver remembers at most ``table_limit`` positions."""
    doc, real = named_document(path)
    problems = check_file(doc, expectations=False)
    if problems:
        raise RuleFileError(problems)
    case = pick_case(doc.data, path, case_name)
    label = f"{path}: case {case.get('name')!r}"
    runner = Runner()
    try:
        rules, engine, scorer = runner.variant(case.get("variant", doc.data.get("variant")), real.parent)
    except VariantRefused as e:
        at = ("cases", doc.data["cases"].index(case), "variant") if "variant" in case else ("variant",)
        raise RuleFileError([doc.diagnostic(at, e.message, hint=e.hint)]) from None
    try:
        setup = runner.setup(case, doc.data, rules, engine, scorer)
        outcome = play_moves(case, setup, engine)
    except (ImpossiblePosition, CardError) as e:
        index = next(i for i, c in enumerate(doc.data["cases"]) if c is case)
        raise CassinoError(f"{label}: {impossible_message(e, locator(doc, ('cases', index)))}") from None
    except FileMistake as e:
        raise CassinoError(f"{label}: {e}" + (f" ({e.hint})" if e.hint else "")) from None
    if isinstance(outcome, str):
        raise CassinoError(f"{label}: {outcome}")
    game, state = outcome.game, outcome.hand
    if state.over and any(state.hands) and not case.get("moves"):
        state = state.with_(over=False)   # `rest` with cards still in hand: a position, not a scoring case
    if state.over or game.over:
        if any(state.hands) and not case.get("moves") and "stock" not in case:
            raise CassinoError(f"{label}: the hand is over: `captured` with `rest` and no `moves` or `stock` makes "
                               f"a scoring case; add `stock: []` to play the hand from this position")
        raise CassinoError(f"{label}: the hand is over: there is nothing to play")
    missing = None if setup.explicit_stock else missing_knowledge(state)
    if missing:
        raise CassinoError(f"{label}: the position is not known in full: {missing}; give every card a place "
                           f"(hands, table, builds, `captured` with `rest` for every card not placed elsewhere and "
                           f"`stock: []`, which keeps the hand in play: `rest` with no `moves` and no `stock` is "
                           f"a scoring case, the hand over; or `stock` in the order it will be dealt)")
    seat = state.turn
    solver = WatchedSolver(engine, scorer, state.teams[seat], dict(enumerate(game.scores)), game.restrictions_on,
                           max_positions=max_positions, table_limit=table_limit, every=every, progress=progress)
    try:
        with collector_paused():   # (the search makes no cycles, and its table grows large: ``collector``)
            values = solver.move_values(state)
            if not values:
                raise CassinoError(f"{label}: seat {seat} is to play and has no move (no card in hand): give that "
                                   f"seat its cards, or set `to_play` to a seat that holds some")
            line = [(seat, values[0].move)]
            after = engine.apply(state, values[0].move)
            for move in solver.principal_line(after):
                line.append((after.turn, move))
                after = engine.apply(after, move)
    except SearchLimit as e:
        raise CassinoError(f"{label}: too large to solve exactly ({e}): give fewer cards in hand, "
                           f"or raise --max-positions") from None
    except PositionTooLargeError as e:
        raise CassinoError(f"{label}: too large to solve exactly: {e.overflowed}; give fewer cards on the "
                           f"table or in hand") from None
    deck = engine.deck
    return Solution(rules.name, seat, [(format_move(mv.move, deck), mv.value) for mv in values],
                    [(s, format_move(m, deck)) for s, m in line], solver.nodes, rules.game.goal == "lowest",
                    len(set(state.teams)), rules.build.free_actions, len(case.get("moves") or []))
