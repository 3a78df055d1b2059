"""What a move does, the engine against the clean-room ``flow_reference``: random games of a seating played
through the engine's public API, and after every action the engine's next position compared field by field
with the reference's (table, builds with value, owner, holder, single or multiple, each hand, each seat's
pile and the face-up piles, the stock, sweeps and their cancelling, captures, events, the last capturer, whose
turn, the turn's card, ply, deal, the end of the hand and what the last capturer took).

Used by ``tests/test_flow_reference.py`` (a slice of seeds in CI) and ``benchmarks/flow_compare.py`` (as many
seeds as asked). The engine may end a turn of several actions itself where nothing is left to build (docs/
engine.md): the reference then ends it too, and that end is no ply (bookkeeping, not a rule). After the hand
nobody is to play: whose turn it then is is not compared.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from cassino import Engine, format_move, load_rules
from cassino.errors import PositionTooLargeError

from flow_reference import Pos, Reference, Rules


def _set(mask: int) -> frozenset[int]:
    out, i = set(), 0
    while mask:
        if mask & 1:
            out.add(i)
        mask >>= 1
        i += 1
    return frozenset(out)


def position(st: Any) -> Pos:
    """The engine's hand state as the reference's position."""
    return Pos(
        players=st.players, teams=tuple(st.teams), dealer=st.dealer, turn=st.turn,
        hands=[_set(h) for h in st.hands], table=_set(st.table),
        builds=[dict(cards=_set(b.cards), value=b.value, multiple=b.multiple, owner=b.owner,
                     holder=b.holder, pairs=b.pairs) for b in st.builds],
        stock=list(st.stock), piles=[_set(p) for p in st.piles],
        sweeps=[dict(seat=w.seat, size=w.size, ply=w.ply, first_play=w.first_play,
                     cancelled=w.cancelled) for w in st.sweeps],
        events=[dict(seat=e.seat, name=e.name, ply=e.ply) for e in st.events],
        captures=[dict(ply=c.ply, seat=c.seat, cards=_set(c.cards), table_cards=_set(c.table_cards))
                  for c in st.captures],
        last_capturer=st.last_capturer, ply=st.ply, deal_no=st.deal_no, over=st.over,
        residue=_set(st.residue), stacks=[list(s) for s in st.stacks] if st.stacks else None,
        turn_card=(st.turn_card.bit_length() - 1) if st.turn_card else 0, proven=st.proven)


def move_of(m: Any) -> dict[str, Any]:
    return dict(kind=m.kind.value, played=_set(m.played), loose=_set(m.loose),
                builds=[_set(b) for b in m.builds], value=m.value)


def fields(p: Pos, names: list[str]) -> dict[str, Any]:
    """The fields compared, each in a form that compares (cards by name, builds sorted)."""
    def nm(s: frozenset[int]) -> tuple[str, ...]:
        return tuple(sorted(names[c] for c in s))
    return {
        "table": nm(p.table),
        "builds": sorted((nm(b["cards"]), str(b["value"]), b["owner"], b["holder"], b["multiple"], b["pairs"])
                         for b in p.builds),
        "hands": [nm(h) for h in p.hands],
        "piles": [nm(x) for x in p.piles],
        "stock": list(p.stock),
        "sweeps": [(w["seat"], w["size"], w["ply"], w["first_play"], w["cancelled"]) for w in p.sweeps],
        "last_capturer": p.last_capturer,
        "turn": None if p.over else p.turn,
        "turn_card": p.turn_card or 0,
        "over": p.over,
        "residue": nm(p.residue),
        "deal_no": p.deal_no,
        "ply": p.ply,
        "stacks": [[names[c] for c in s] for s in p.stacks] if p.stacks else None,
        "captures": [(c["ply"], c["seat"], nm(c["cards"]), nm(c["table_cards"])) for c in p.captures],
        "events": [(e["seat"], e["name"], e["ply"]) for e in p.events],
    }


@dataclass
class Difference:
    """The first action of a game where a field differs: enough to replay it."""

    variant: str
    players: int
    partners: bool
    seed: int
    moves: list[str]
    field: str
    engine: Any
    reference: Any

    def __str__(self) -> str:
        return (f"{self.variant} {self.players}p{' partners' if self.partners else ''} seed {self.seed}, after "
                f"{len(self.moves)} actions ({'; '.join(self.moves[-3:])}): {self.field}: engine {self.engine!r}, "
                f"reference {self.reference!r}")


@dataclass
class Tally:
    games: int = 0
    actions: int = 0
    seen: Counter[str] = field(default_factory=Counter)   # the rarer things the games went through
    differences: list[Difference] = field(default_factory=list)


def compare(variant: str, players: int, partners: bool, seeds: range, reference: type[Reference] = Reference,
            max_actions: int = 3000) -> Tally:
    """Random hands of one seating, seeds ``seeds``: every action's result, the engine against ``reference``
    (a subclass may be given, to see that a wrong reference is caught). The first difference of each game
    and field is kept."""
    engine = Engine(load_rules(variant))
    names = [str(c) for c in engine.deck.cards]
    ref = reference(Rules(variant), names)
    tally = Tally()
    for seed in seeds:
        st = engine.start(seed=seed, players=players, partners=partners)
        rng = random.Random(seed * 7919 + players)
        history: list[str] = []
        tally.games += 1
        differing: set[str] = set()
        for _ in range(max_actions):
            if st.over:
                break
            try:
                moves = engine.legal_moves(st)
            except PositionTooLargeError:
                moves = engine.playable_moves(st)
            m = rng.choice(moves)
            history.append(f"seat {st.turn}: {format_move(m, engine.deck)}")
            before = position(st)
            nxt = engine.apply(st, m)
            want = ref.apply(before, move_of(m))
            if (ref.r.free_actions and m.played and want.turn == before.turn and not want.over
                    and (nxt.turn != before.turn or nxt.over)):
                # the engine ended the turn itself (nothing left to build): so does the reference, no ply
                want = ref.apply(want, dict(kind="end", played=set(), loose=set(), builds=[], value=None))
                want.ply -= 1
                tally.seen["turn ended by the engine"] += 1
            _note(tally.seen, before, want, m)
            got, expected = fields(position(nxt), names), fields(want, names)
            for name, value in got.items():
                if value != expected[name] and name not in differing:
                    differing.add(name)
                    tally.differences.append(Difference(variant, players, partners, seed, list(history), name,
                                                        value, expected[name]))
            tally.actions += 1
            st = nxt
    return tally


def _note(seen: Counter[str], before: Pos, after: Pos, m: Any) -> None:
    """Count the rarer things an action did, so a run says what it went through."""
    if len(after.sweeps) > len(before.sweeps):
        seen["sweep"] += 1
        if not any(after.hands) and not after.stock:
            seen["sweep with the hand's last card"] += 1
    elif m.kind.value == "capture" and not after.table and not after.builds and not after.residue:
        seen["table emptied, no sweep"] += 1   # (Scopa's last play, Finnish Kasino's last deal)
    if sum(w["cancelled"] for w in after.sweeps) > sum(w["cancelled"] for w in before.sweeps):
        seen["sweeps cancelled"] += 1
    if after.over and after.residue:
        seen["last capturer took the rest"] += 1
    if _set(m.loose) - before.table:
        seen["opposing pile card used"] += 1
    if any(b["holder"] != b["owner"] for b in after.builds if b not in before.builds):
        seen["build held by a partner"] += 1
    if after.deal_no > before.deal_no:
        seen["new deal"] += 1
