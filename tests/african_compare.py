"""The engine's legal moves in African Casino against a second implementation written from the rule texts
alone (``african_reference``, which imports nothing of ``cassino``), on positions reached by random play.

Shared by ``tests/test_african_reference.py`` (a fixed-seed slice in CI) and ``benchmarks/african_compare.py``
(as many positions as asked). Every disagreement is one of: an engine error, a reference error, or a reading
a variant file declares; :data:`DECLARED` lists the last kind, each with the reading it follows, and what is
left must be none.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import african_reference

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.moves import Move, MoveSyntaxError
from cassino.engine.notation import cards_text, format_move, parse_move
from cassino.engine.state import HandState
from cassino.errors import PositionTooLargeError
from cassino.language.variants import load_rules

#: The seatings compared: each variant at every player count, with partners at four.
SEATINGS: tuple[tuple[str, int, bool], ...] = (
    ("swazi-casino", 2, False), ("swazi-casino", 3, False), ("swazi-casino", 4, True),
    ("south-african-casino", 2, False), ("south-african-casino", 3, False), ("south-african-casino", 4, False),
    ("south-african-casino", 4, True),
)
GAME = {"swazi-casino": "swazi", "south-african-casino": "south-african"}

#: Positions larger than this many loose cards (table and pile cards in reach) are left out: the reference
#: lists every turn by brute force.
MAX_LOOSE = 11


def position(engine: Engine, variant: str, hand: HandState) -> dict[str, Any]:
    """``hand`` in the reference's plain terms (see ``african_reference``'s docstring)."""
    deck = engine.deck
    seat = hand.turn
    names: Callable[[int], list[str]] = lambda mask: cards_text(deck, mask)   # noqa: E731
    partner = engine.partner_of(hand, seat)
    piles = []
    for side, stack in enumerate(hand.stacks):
        piles.append({"seats": [s for s in range(hand.players) if hand.teams[s] == side],
                      "cards": [names(1 << c)[0] for c in stack]})
    declared = sorted(v for v in hand.proven[partner] if isinstance(v, int)) if partner is not None and hand.proven \
        else []
    return {
        "game": GAME[variant], "players": hand.players, "partners": partner is not None, "seat": seat,
        "hand": names(hand.hands[seat]), "table": names(hand.table),
        "builds": [{"cards": names(b.cards), "value": b.value, "owner": b.owner, "compound": b.multiple}
                   for b in hand.builds],
        "piles": piles, "first_round": hand.players == 2 and bool(hand.stock), "stock": bool(hand.stock),
        "partner_declared": declared,
    }


@dataclass(frozen=True)
class Disagreement:
    variant: str
    players: int
    partners: bool
    seed: int
    ply: int
    move: str
    engine_says: bool              # True: the engine lists it and the reference does not
    position: dict[str, Any] = field(compare=False, hash=False)

    def __str__(self) -> str:
        who = "engine only" if self.engine_says else "reference only"
        p = self.position
        return (f"{who}: {self.move}   [{self.variant} {self.players}p{' partners' if self.partners else ''} "
                f"seed {self.seed} ply {self.ply}] hand {p['hand']} table {p['table']} builds "
                f"{[(b['cards'], b['value'], b['owner'], b['compound']) for b in p['builds']]} piles "
                f"{[(q['seats'], q['cards'][-5:]) for q in p['piles']]} first_round {p['first_round']} "
                f"declared {p['partner_declared']} seat {p['seat']}")


#: Differences a variant file declares: (name, the reading, a test of a disagreement). Empty: every
#: disagreement found so far was an engine error (fixed) or a reference error (fixed).
DECLARED: tuple[tuple[str, str, Callable[[Disagreement], bool]], ...] = ()


def declared(d: Disagreement) -> str | None:
    return next((name for name, _, test in DECLARED if test(d)), None)


@dataclass
class Tally:
    positions: int = 0
    moves: int = 0
    skipped: int = 0
    found: list[Disagreement] = field(default_factory=list)
    explained: dict[str, int] = field(default_factory=dict)

    @property
    def undeclared(self) -> list[Disagreement]:
        return [d for d in self.found if declared(d) is None]


def compare_position(engine: Engine, variant: str, hand: HandState,
                     reference: Callable[[dict[str, Any]], set[str]] = african_reference.legal_moves,
                     ) -> tuple[set[Move], set[Move], dict[str, Any]] | None:
    """(listed by the engine only, by the reference only, the position); None when too large to compare."""
    if (hand.in_play()).bit_count() > MAX_LOOSE:
        return None
    try:
        mine = set(engine.legal_moves(hand))
    except PositionTooLargeError:
        return None
    plain = position(engine, variant, hand)
    theirs: set[Move] = set()
    for text in reference(plain):
        try:
            theirs.add(engine.resolve(hand, parse_move(text, engine.deck)))
        except (MoveSyntaxError, ValueError) as e:
            raise AssertionError(f"the reference wrote a move the notation refuses: {text!r}: {e}") from None
    return mine - theirs, theirs - mine, plain


def positions(variant: str, players: int, partners: bool, seed: int) -> Iterator[tuple[Engine, int, HandState, Game]]:
    """Every position of one random game (random legal moves, seeded), with its ply."""
    rules = load_rules(variant)
    engine = Engine(rules)
    game = Game.new(engine, seed, players, partners)
    rnd = random.Random(seed)
    ply = 0
    while not game.over:
        yield engine, ply, game.hand, game
        moves = game.playable_moves()
        game = game.play(moves[rnd.randrange(len(moves))])
        ply += 1


def run(seatings: tuple[tuple[str, int, bool], ...], seeds: range, *, max_positions: int | None = None,
        reference: Callable[[dict[str, Any]], set[str]] = african_reference.legal_moves,
        progress: Callable[[Tally], None] | None = None) -> Tally:
    """Compare every position of a random game for each seating and seed."""
    tally = Tally()
    for variant, players, partners in seatings:
        for seed in seeds:
            for engine, ply, hand, _ in positions(variant, players, partners, seed):
                if max_positions is not None and tally.positions >= max_positions:
                    return tally
                got = compare_position(engine, variant, hand, reference)
                if got is None:
                    tally.skipped += 1
                    continue
                engine_only, reference_only, plain = got
                tally.positions += 1
                tally.moves += len(engine_only) + len(reference_only)
                for moves, says in ((engine_only, True), (reference_only, False)):
                    for m in moves:
                        d = Disagreement(variant, players, partners, seed, ply, format_move(m, engine.deck), says,
                                         plain)
                        tally.found.append(d)
                        name = declared(d)
                        if name is not None:
                            tally.explained[name] = tally.explained.get(name, 0) + 1
            if progress is not None:
                progress(tally)
    return tally
