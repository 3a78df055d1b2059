"""Random positions of any variant written as scenario cases, for comparing the engine's legal moves with a
second implementation written from the rule texts alone.

A reference is a function ``legal_moves(variant, case) -> set[str]``: ``case`` is a position in the
scenario format (docs/scenarios.md: ``players``, ``partners``, ``to_play``, ``dealer``, ``hand``,
``hands``, ``table``, ``builds`` with ``cards``, ``value``, ``owner`` and ``holder``, ``captured``,
``last_capture``, ``stock``, ``first_play``), and each move is written in the scenario notation. A
reference imports nothing from ``cassino``: it knows the position only as a scenario case, as a test
suite outside the project does.

The engine's side is what ``cassino check`` would test: the case is read back through the scenario
runner and the engine lists that position's moves. A case that does not carry all of the engine's state
(the position read back lists other moves than the one play reached) is counted as ``lossy`` and not
compared. Shared by the per-family comparisons (``tests/*_reference.py`` and their tests).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from cassino.apps.authors.scenarios import Runner
from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.notation import cards_text, format_move
from cassino.engine.state import HandState
from cassino.errors import PositionTooLargeError
from cassino.language.variants import load_rules

Reference = Callable[[str, dict[str, Any]], set[str]]

#: Loose cards (table cards, and cards in builds) above which a position is left out: a reference lists
#: moves by brute force.
MAX_LOOSE = 12


def canonical(move: str) -> str:
    """A move's text with its cards in one order (played cards, loose cards, each build's cards and the
    builds sorted), upper case, single spaces: two texts of one move compare equal."""
    words = move.upper().replace("[", " [ ").replace("]", " ] ").split()
    if len(words) < 2:
        return " ".join(words)
    played = "+".join(sorted(words[0].split("+")))
    action, rest = words[1], words[2:]
    head = [played, action.lower()]
    if action.lower() == "build" and len(rest) >= 2 and rest[1].lower() == "on":
        head += [rest[0], "on"]
        rest = rest[2:]
    loose: list[str] = []
    builds: list[str] = []
    group: list[str] | None = None
    for w in rest:
        if w == "[":
            group = []
        elif w == "]" and group is not None:
            builds.append("[" + " ".join(sorted(group)) + "]")
            group = None
        elif group is not None:
            group.append(w)
        else:
            loose.append(w)
    return " ".join(head + sorted(builds) + sorted(loose))


def _partners(state: HandState) -> bool:
    return len(set(state.teams)) < state.players


def case_of(engine: Engine, state: HandState) -> dict[str, Any]:
    """``state`` (at the start of a turn) as a scenario case's position: every card placed, the stock
    given in order, so that the case carries the deal as it stands."""
    deck = engine.deck
    names = lambda mask: cards_text(deck, mask)   # noqa: E731
    seat = state.turn
    case: dict[str, Any] = {
        "players": state.players,
        "partners": _partners(state),
        "to_play": seat,
        "dealer": state.dealer,
        "hand": names(state.hands[seat]),
        "hands": {s: names(state.hands[s]) for s in range(state.players) if s != seat and state.hands[s]},
        "table": names(state.table),
        "builds": [{"cards": names(b.cards), "value": b.value, "owner": b.owner, "holder": b.holder}
                   for b in state.builds],
        "captured": _captured(engine, state),
        "stock": [names(1 << c)[0] for c in state.stock],
        "first_play": state.ply == 0,
    }
    if state.last_capturer is not None:
        case["last_capture"] = state.last_capturer
    return case


def _captured(engine: Engine, state: HandState) -> dict[int, list[str]]:
    """Each seat's pile of won cards. Where capture piles are in play (African Casino) a side's cards are one pile
    whose order decides the top (``HandState.stacks``): written in that order, last on top, under the side's lowest
    seat, as the scenario format reads a side's lists (a reader of the African rulebooks alone found 485 of 518
    positions lossy when the piles were written in the deck's order)."""
    deck = engine.deck
    if not any(state.stacks):
        return {s: cards_text(deck, state.piles[s]) for s in range(state.players) if state.piles[s]}
    out: dict[int, list[str]] = {}
    for side, stack in enumerate(state.stacks):
        seats = [s for s in range(state.players) if state.teams[s] == side]
        if stack and seats:
            out[seats[0]] = [cards_text(deck, 1 << c)[0] for c in stack]
    return out


class Reader:
    """Reads scenario positions back through the scenario runner (what ``cassino check`` does)."""

    def __init__(self) -> None:
        self.runner = Runner()

    def state(self, variant: str, case: dict[str, Any]) -> tuple[Engine, HandState]:
        rules, engine, _ = self.runner.variant(variant, Path.cwd())
        return engine, self.runner.position(case, {"variant": variant}, rules, engine)[0]


def engine_moves(engine: Engine, state: HandState) -> set[str]:
    """The engine's legal moves at ``state``, canonical texts."""
    return {canonical(format_move(m, engine.deck)) for m in engine.legal_moves(state)}


_SHARED: list[Reader] = []


def case_moves(variant: str, case: dict[str, Any]) -> set[str]:
    """The engine's legal moves at a scenario case's position, read as ``cassino check`` reads it (canonical
    texts): what the references' hand-written examples are checked against."""
    if not _SHARED:
        _SHARED.append(Reader())
    engine, state = _SHARED[0].state(variant, case)
    return engine_moves(engine, state)


def canonical_set(moves: Iterable[str]) -> set[str]:
    return {canonical(m) for m in moves}


def undeclared(module: Any, found: Iterable["Disagreement"]) -> list["Disagreement"]:
    """The disagreements of ``found`` that no declared reading or suspected engine error of ``module`` explains
    (``explained``): what a CI slice may not have."""
    return [d for d in found if explained(module, d) is None]


def explained(module: Any, d: "Disagreement") -> str | None:
    """The name of the declared reading (``DECLARED``) or suspected engine error (``ENGINE_ERRORS``) of a
    reference ``module`` that ``d`` falls under, or None."""
    for name, _why, test in tuple(getattr(module, "DECLARED", ())) + tuple(getattr(module, "ENGINE_ERRORS", ())):
        if test(d):
            return str(name)
    return None


def positions(variant: str, players: int, partners: bool, seed: int) -> Iterator[tuple[Engine, int, HandState]]:
    """Every turn's start in one random game (random legal moves, seeded), with its ply."""
    engine = Engine(load_rules(variant))
    game = Game.new(engine, seed, players, partners)
    rnd = random.Random(seed)
    ply = 0
    while not game.over:
        if not game.hand.turn_card and not game.hand.over:
            yield engine, ply, game.hand
        moves = game.playable_moves()
        game = game.play(moves[rnd.randrange(len(moves))])
        ply += 1


@dataclass(frozen=True)
class Disagreement:
    variant: str
    players: int
    partners: bool
    seed: int
    ply: int
    move: str
    engine_says: bool              # True: the engine lists it and the reference does not
    case: dict[str, Any] = field(compare=False, hash=False)

    def __str__(self) -> str:
        who = "engine only" if self.engine_says else "reference only"
        c = self.case
        return (f"{who}: {self.move}   [{self.variant} {self.players}p{' partners' if self.partners else ''} "
                f"seed {self.seed} ply {self.ply}] to_play {c['to_play']} hand {c['hand']} table {c['table']} "
                f"builds {[(b['cards'], b['value'], b['owner'], b['holder']) for b in c['builds']]}")

    def scenario(self, name: str | None = None) -> dict[str, Any]:
        """The disagreement as a scenario case (the engine's side as its expectation)."""
        case = {k: v for k, v in self.case.items() if v not in ({}, [])}
        seating = f"{self.variant} {self.players}p{' partners' if self.partners else ''}"
        case = {"name": name or f"{seating} seed {self.seed} ply {self.ply}: {self.move}", "variant": self.variant,
                **case}
        case["expect"] = {"legal" if self.engine_says else "illegal": [self.move]}
        return case


@dataclass
class Tally:
    positions: int = 0
    skipped: int = 0               # too large to compare
    lossy: int = 0                 # the scenario form lists other moves than the position play reached
    moves: int = 0                 # the engine's moves over the positions compared
    found: list[Disagreement] = field(default_factory=list)
    by_seating: dict[tuple[str, int, bool], int] = field(default_factory=dict)


def compare_position(reader: Reader, engine: Engine, variant: str, state: HandState,
                     reference: Reference) -> tuple[set[str], set[str], dict[str, Any], int] | None | str:
    """(the engine's moves the reference lacks, the reference's the engine lacks, the case, how many moves
    the engine lists); None when too
    large to compare; ``"lossy"`` when the case read back is not the position (its moves differ)."""
    loose = state.table.bit_count() + sum(b.cards.bit_count() for b in state.builds)
    if loose > MAX_LOOSE:
        return None
    case = case_of(engine, state)
    try:
        here = engine_moves(engine, state)
        engine2, back = reader.state(variant, case)
        mine = engine_moves(engine2, back)
    except PositionTooLargeError:
        return None
    if mine != here:
        return "lossy"
    theirs = {canonical(m) for m in reference(variant, case)}
    return mine - theirs, theirs - mine, case, len(mine)


def run(seatings: Iterable[tuple[str, int, bool]], seeds: Iterable[int], reference: Reference, *,
        max_positions: int | None = None, progress: Callable[[Tally], None] | None = None) -> Tally:
    """Compare every turn's start of a random game for each seating and seed."""
    tally = Tally()
    reader = Reader()
    seeds = list(seeds)
    for variant, players, partners in seatings:
        for seed in seeds:
            for engine, ply, state in positions(variant, players, partners, seed):
                if max_positions is not None and tally.positions >= max_positions:
                    return tally
                got = compare_position(reader, engine, variant, state, reference)
                if got is None:
                    tally.skipped += 1
                    continue
                if got == "lossy":
                    tally.lossy += 1
                    continue
                assert not isinstance(got, str)
                engine_only, reference_only, case, listed = got
                tally.positions += 1
                key = (variant, players, partners)
                tally.by_seating[key] = tally.by_seating.get(key, 0) + 1
                tally.moves += listed
                for moves, says in ((engine_only, True), (reference_only, False)):
                    for m in sorted(moves):
                        tally.found.append(Disagreement(variant, players, partners, seed, ply, m, says, case))
            if progress is not None:
                progress(tally)
    return tally


def run_each(seatings: Iterable[tuple[str, int, bool]], seeds: Iterable[int], reference: Reference,
             per_seating: int) -> Tally:
    """:func:`run` of the first ``per_seating`` positions of each seating (a CI slice that reaches every
    seating however long the first ones' games are), in one tally."""
    total = Tally()
    seeds = list(seeds)
    for seating in seatings:
        part = run([seating], seeds, reference, max_positions=per_seating)
        total.positions += part.positions
        total.skipped += part.skipped
        total.lossy += part.lossy
        total.moves += part.moves
        total.found += part.found
        total.by_seating.update(part.by_seating)
    return total


def seatings(variants: Iterable[str]) -> list[tuple[str, int, bool]]:
    """Every seating of ``variants`` (each player count; partnerships where the variant has them)."""
    from cassino.apps.authors.matrix import seatings as all_seatings
    return [(s.variant, s.players, s.partners) for s in all_seatings(list(variants))]
