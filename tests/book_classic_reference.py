"""A clean-room second implementation of the legal moves of the classic Anglo-American Casino family
(``standard``, ``hoyle``, ``draw``, ``face-builds``), written only from the project's generated rulebooks
(``cassino rules VARIANT``) and the scenario notation (docs/scenarios.md).

``legal_moves(variant, case)`` lists every legal move of a scenario case's position for the seat to play,
by brute force. It imports nothing from ``cassino``. Each rule is cited beside its code as
"(VARIANT §section) 'the rulebook's words'". Where a rulebook is silent or ambiguous the reading chosen is
recorded in ``GAPS``; disagreements with the engine that come from a rulebook gap or a suspected engine
error are declared in ``DECLARED`` (the harness's format: name, reading, test).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Callable

VARIANTS = ("standard", "hoyle", "draw", "face-builds")

COURTS = ("J", "Q", "K")

# (variant, the rulebook's words, what is unclear, the reading chosen here)
GAPS: list[tuple[str, str, str, str]] = [
    ("all", "A build is captured whole by a card of its value.",
     "whether a capture must take every build of the played card's value, or may take some and leave others",
     "any selection of the builds of that value may be taken (with or without loose cards); hoyle's "
     "'must take every loose card of that value' is read as about loose cards only"),
    ("all", "You may add to a build a set worth its value (your card alone, or with loose cards)",
     "'a set': whether further loose sets (say a loose card of the value) may go in with it, as they may "
     "into a new build ('a three played on a five, together with a loose eight')",
     "exactly one set was read; the engine lets more go in, and the rulebook now says so (session 91): "
     "'and with it any other loose cards or sets of loose cards worth the value'"),
    ("all", "You may add to a build a set ... / To build, play a card onto loose table cards",
     "whether two builds may be joined into one (a card added to one build taking another build of the value)",
     "never: only loose cards go in with the hand card; builds are never merged"),
    ("all", "You may build only a value you hold",
     "whether this applies to adding to a build (the value stays the same)",
     "yes: adding a set to a build of value V needs another card of V in hand (or, hoyle, the partner's)"),
    ("all", "As you raise, you may also take into the build loose cards each worth the new value",
     "how many of the loose cards of the new value may be taken",
     "any selection of them, none included"),
    ("all", "You may raise a single build",
     "which builds count as single in a position",
     "as docs/scenarios.md says: a build whose cards add up to its value is single, else multiple"),
    ("standard, draw", "While you own a build ..., you may not trail",
     "nothing says what happens if an owner has no other legal move",
     "no fallback: the owner never trails (the keep rule means the owner always holds a capturing card)"),
    ("hoyle", "While you own a build (you were the last to add to it), you may not trail",
     "whether a player holding a build made for his value by his partner (holder but not owner) may trail",
     "he may (he does not own it), but the keep rule forbids trailing his last card of its value"),
    ("hoyle", "If you built for your partner's card and can do none of these, you trail.",
     "'none of these': legal captures, builds and adds after the keep rule",
     "the owner may trail any card when he has no legal capture, build or add at all"),
    ("hoyle", "a value your partner is known to hold: one they announced in an earlier build, if they have "
     "played no card of that value since",
     "a scenario case has no history",
     "the values known are those of the builds on the table whose holder is the partner"),
    ("hoyle", "A build another side owns grows by the card from your hand alone",
     "the side of a build: its owner's or its holder's",
     "the owner's side (owner = the last to add to it)"),
    ("face-builds", "Jacks, queens and kings ... may be piled by rank (a king on a king) if you hold another of "
     "that rank",
     "onto how many loose courts at once, and whether a court may be added to a pile already made",
     "a new pile: the hand court on any non-empty selection of the loose courts of its rank (each a set, as a "
     "multiple build); a court added alone to a pile of its rank, as 'your card alone' is added to a build"),
    ("face-builds", "each turn you must capture or raise a build: you may not trail, make a new build, or add "
     "to a build without raising it",
     "whether piling a court on a pile or a loose court counts as a new build / an add",
     "yes: an owner may not pile courts (a pile cannot be raised)"),
    ("face-builds", "Where these rules leave you no play at all, you trail a card of your choice.",
     "which rules", "if no capture or build is legal, every card of the hand may be trailed"),
]


def _rank(card: str) -> str:
    r = card[:-1].upper()
    return "10" if r == "T" else r


def _value(card: str) -> int | None:
    # (all §2) 'Capture values: ace 1; 2 to 10 count as marked; jacks, queens and kings have no number value'
    r = _rank(card)
    if r == "A":
        return 1
    if r in COURTS:
        return None
    return int(r)


def _side(seat: int, partners: bool) -> int:
    # (all §1) 'Four players may play as two partnerships, partners sitting opposite each other'
    return seat % 2 if partners else seat


def _sum_groups(vals: list[int], target: int) -> list[int]:
    """Bit masks of the subsets of ``vals`` adding up to ``target``."""
    n = len(vals)
    out = []
    for mask in range(1, 1 << n):
        s = 0
        m = mask
        i = 0
        while m:
            if m & 1:
                s += vals[i]
                if s > target:
                    break
            m >>= 1
            i += 1
        else:
            if s == target:
                out.append(mask)
    return out


class _Parts:
    """Which sets of loose number cards split into groups each adding up to a value (cached per value)."""

    def __init__(self, vals: list[int]) -> None:
        self.vals = vals
        self.n = len(vals)
        self.cache: dict[int, list[bool]] = {}
        self.groups: dict[int, list[int]] = {}

    def group_masks(self, target: int) -> list[int]:
        if target not in self.groups:
            self.groups[target] = _sum_groups(self.vals, target) if target > 0 else []
        return self.groups[target]

    def ok(self, target: int) -> list[bool]:
        if target in self.cache:
            return self.cache[target]
        groups = self.group_masks(target)
        full = 1 << self.n
        ok = [False] * full
        ok[0] = True
        for mask in range(1, full):
            low = mask & -mask
            for g in groups:
                if g & low and g & mask == g and ok[mask ^ g]:
                    ok[mask] = True
                    break
        self.cache[target] = ok
        return ok


def _fmt(played: str, action: str, *, value: Any = None, builds: list[list[str]] = (), loose: list[str] = ()) -> str:
    parts = [played, action]
    if value is not None:
        parts += [str(value), "on"]
    parts += ["[" + " ".join(b) + "]" for b in builds]
    parts += list(loose)
    return " ".join(parts)


def legal_moves(variant: str, case: dict[str, Any]) -> set[str]:
    if variant not in VARIANTS:
        raise ValueError(f"{variant!r}: not one of {VARIANTS}")
    hoyle = variant == "hoyle"
    faces = variant == "face-builds"
    players = int(case.get("players", 2))
    seat = int(case.get("to_play", 0))
    partners = bool(case.get("partners", False)) and players == 4
    me = _side(seat, partners)
    partner = (seat + 2) % 4 if partners else None
    hand: list[str] = list(case.get("hand", []))
    table: list[str] = list(case.get("table", []))
    builds = []
    for b in case.get("builds", []):
        owner = int(b.get("owner", seat))
        holder = int(b.get("holder", owner) if b.get("holder") is not None else owner)
        value = b["value"]
        court = isinstance(value, str) and not value.isdigit()
        value = str(value).upper() if court else int(value)
        cards = list(b["cards"])
        single = (not court) and sum(_value(c) or 0 for c in cards) == value
        builds.append({"cards": cards, "value": value, "owner": owner, "holder": holder, "court": court,
                       "single": single})

    nums = [c for c in table if _value(c) is not None]
    vals = [_value(c) for c in nums]          # type: ignore[misc]
    parts = _Parts(vals)
    n = len(nums)

    def cards_of(mask: int) -> list[str]:
        return [nums[i] for i in range(n) if mask >> i & 1]

    # (hoyle §6) 'You may also build, or add to a build, for a value your partner is known to hold ... While a
    # build they hold is on the table its value stays known, since they keep a card of it.'
    partner_known = {b["value"] for b in builds if hoyle and partner is not None and b["holder"] == partner
                     and not b["court"]}

    def rest_of(i: int) -> list[str]:
        return hand[:i] + hand[i + 1:]

    def holds_value(rest: list[str], v: Any) -> bool:
        if isinstance(v, str):
            return any(_rank(c) == v for c in rest)
        return any(_value(c) == v for c in rest)

    def may_build_for(rest: list[str], v: Any) -> bool:
        # (all §6) 'You may build only a value you hold: a three on a five is a build of 8 only if you keep an 8'
        return holds_value(rest, v) or (not isinstance(v, str) and v in partner_known)

    def keeps(rest: list[str], touched: set[int]) -> bool:
        # (all §6) 'Until your build is captured or taken over, you must keep a card of its value in your hand.'
        # (hoyle §6) 'For a build made for your partner's value, your partner must keep that card instead.'
        for k, b in enumerate(builds):
            if k in touched or b["holder"] != seat:
                continue
            if not holds_value(rest, b["value"]):
                return False
        return True

    captures: set[str] = set()
    new_builds: set[str] = set()
    adds: set[str] = set()     # adds to a build without changing its value (and court piles on piles)
    raises: set[str] = set()
    trails: set[str] = set()

    for i, card in enumerate(hand):
        rest = rest_of(i)
        v = _value(card)
        if v is None:
            r = _rank(card)
            same_loose = [c for c in table if _rank(c) == r]
            piles = [k for k, b in enumerate(builds) if b["court"] and b["value"] == r]
            # ---- captures by a court card
            if faces:
                # (face-builds §5) 'must take every loose card of their rank at once. A pile of their rank ... goes
                # with them: a king takes every king on the table, loose or piled.'
                if same_loose or piles:
                    if keeps(rest, set(piles)):
                        captures.add(_fmt(card, "capture", builds=[builds[k]["cards"] for k in piles],
                                          loose=same_loose))
            elif hoyle:
                # (hoyle §5) 'capture only by rank, and must take every loose card of their rank at once'
                if same_loose and keeps(rest, set()):
                    captures.add(_fmt(card, "capture", loose=same_loose))
            else:
                # (standard/draw §5) 'capture only by rank, one card at a time: a king takes one loose king'
                for c in same_loose:
                    if keeps(rest, set()):
                        captures.add(_fmt(card, "capture", loose=[c]))
            # ---- piles of courts
            if faces and holds_value(rest, r):
                # (face-builds §6) 'may be piled by rank (a king on a king) if you hold another of that rank'
                for k_ in range(1, len(same_loose) + 1):
                    for sel in combinations(same_loose, k_):
                        if keeps(rest, set()):
                            new_builds.add(_fmt(card, "build", value=r, loose=list(sel)))
                for k in piles:
                    if keeps(rest, {k}):
                        adds.add(_fmt(card, "build", value=r, builds=[builds[k]["cards"]]))
            # (standard/hoyle/draw §6) 'Jacks, queens and kings ... cannot be built.'
        else:
            # ---- captures by a number card
            # (all §5) 'A card you play captures the loose table cards of its own value ... A build is captured
            # whole by a card of its value.' 'A card also takes sets of loose number cards whose values add up to
            # its own' 'One play may take several groups at once, each loose card in one group only'
            ok = parts.ok(v)
            equal_mask = sum(1 << j for j in range(n) if vals[j] == v)
            vbuilds = [k for k, b in enumerate(builds) if not b["court"] and b["value"] == v]
            for mask in range(1 << n):
                if not ok[mask]:
                    continue
                if hoyle and mask & equal_mask not in (0, equal_mask):
                    # (hoyle §5) 'When you take a loose card equal to the card you play, you must take every
                    # loose card of that value.'
                    continue
                for kb in range(len(vbuilds) + 1):
                    for bsel in combinations(vbuilds, kb):
                        if not mask and not bsel:
                            continue
                        # (all §6) 'A build is taken only whole, by a card of its own value.'
                        if keeps(rest, set(bsel)):
                            captures.add(_fmt(card, "capture", builds=[builds[k]["cards"] for k in bsel],
                                              loose=cards_of(mask)))
            # ---- new builds
            # (all §6) 'To build, play a card onto loose table cards and announce their total'; 'A build may be
            # multiple: several sets, each worth the announced value'
            for target in range(v, 11):
                if not may_build_for(rest, target) or not keeps(rest, set()):
                    continue
                ok_t = parts.ok(target)
                own_groups = parts.group_masks(target - v) if target > v else [0]
                found: set[int] = set()
                for g in own_groups:
                    for mask in range(1 << n):
                        if mask & g or not ok_t[mask]:
                            continue
                        full = mask | g
                        if full:
                            found.add(full)
                for full in found:
                    new_builds.add(_fmt(card, "build", value=target, loose=cards_of(full)))
            # ---- adding to and raising builds
            for k, b in enumerate(builds):
                if b["court"]:
                    continue
                other_side = _side(b["owner"], partners) != me
                # (hoyle §6) 'A build another side owns grows by the card from your hand alone ... no table card
                # goes into it with the card; your own and your partner's builds may take table cards in.'
                by_card_alone = hoyle and other_side
                bv = b["value"]
                # add a set: (all §6) 'You may add to a build a set worth its value made with your card (the card
                # alone, or with loose cards), and with it any other loose cards or sets of loose cards worth the
                # value; the build becomes multiple and its value stays the same.' (The rulebook said "a set"
                # alone before session 91: this reference, written from it, read exactly one set.)
                if v <= bv and may_build_for(rest, bv) and keeps(rest, {k}):
                    own = [0] if v == bv else [] if by_card_alone else parts.group_masks(bv - v)
                    ok_v = parts.ok(bv)
                    for g in own:
                        for mask in range(1 << n) if not by_card_alone else (0,):
                            if mask & g or not ok_v[mask]:
                                continue
                            adds.add(_fmt(card, "build", value=bv, builds=[b["cards"]], loose=cards_of(mask | g)))
                # raise: (all §6) 'You may raise a single build: add a card from your hand and announce the new
                # total, if you hold a card of the new value. A multiple build cannot be raised.'
                if b["single"]:
                    nv = bv + v
                    if nv <= 10 and may_build_for(rest, nv) and keeps(rest, {k}):
                        # (all §6) 'As you raise, you may also take into the build loose cards each worth the new
                        # value ... but not a loose five and four.'
                        eq = [nums[j] for j in range(n) if vals[j] == nv] if not by_card_alone else []
                        for kk in range(len(eq) + 1):
                            for sel in combinations(eq, kk):
                                raises.add(_fmt(card, "build", value=nv, builds=[b["cards"]], loose=list(sel)))
        # ---- trail
        # (all §5) 'You never have to capture: you may trail even a card that could capture.'
        if keeps(rest, set()):
            trails.add(_fmt(card, "trail"))

    owner = any(b["owner"] == seat for b in builds)
    if faces:
        if owner:
            # (face-builds §6) 'While you own a build, each turn you must capture or raise a build: you may not
            # trail, make a new build, or add to a build without raising it.'
            moves = captures | raises
        else:
            moves = captures | new_builds | adds | raises | trails
        if not moves:
            # (face-builds §7) 'Where these rules leave you no play at all, you trail a card of your choice.'
            moves = {_fmt(c, "trail") for c in hand}
        return moves
    other = captures | new_builds | adds | raises
    if owner:
        # (all §6) 'While you own a build (you were the last to add to it), you may not trail: you must capture,
        # build, or add to a build.'
        if hoyle and not other:
            # (hoyle §6) 'If you built for your partner's card and can do none of these, you trail.'
            return trails or {_fmt(c, "trail") for c in hand}
        return other
    return other | trails


def _parse(move: str) -> tuple[str, str, str | None, list[list[str]], list[str]]:
    """(played card, action, announced value, builds named, loose cards named) of a move's text."""
    words = move.replace("[", " [ ").replace("]", " ] ").split()
    card, action, rest = words[0], words[1], words[2:]
    value = None
    if action == "build" and len(rest) >= 2 and rest[1] == "on":
        value, rest = rest[0], rest[2:]
    named: list[list[str]] = []
    loose: list[str] = []
    group: list[str] | None = None
    for w in rest:
        if w == "[":
            group = []
        elif w == "]" and group is not None:
            named.append(group)
            group = None
        elif group is not None:
            group.append(w)
        else:
            loose.append(w)
    return card, action, value, named, loose


def _adds_several_sets(d: Any) -> bool:
    """The engine lists adding to a build (value kept) the hand card's set together with further loose sets
    each worth the value: the hand card and the loose cards named add up to two or more times the value."""
    if not d.engine_says:
        return False
    card, action, value, named, loose = _parse(d.move)
    if action != "build" or len(named) != 1 or not loose or value is None or not value.isdigit():
        return False
    target = [b for b in d.case.get("builds", []) if sorted(b["cards"]) == sorted(named[0])]
    if not target or str(target[0]["value"]) != value:
        return False
    partners = bool(d.case.get("partners"))
    if d.variant == "hoyle" and _side(int(target[0]["owner"]), partners) != _side(int(d.case["to_play"]), partners):
        return False          # hoyle: another side's build takes no table card at all; not this class
    vals = [_value(card)] + [_value(c) for c in loose]
    if any(x is None for x in vals):
        return False
    total, v = sum(vals), int(value)           # type: ignore[arg-type]
    return total % v == 0 and total // v >= 2


# (name, the reading, a test of a disagreement: reference_positions.Disagreement). The one class found, several sets
# added to a build, was the rulebook's gap and is said there now (``_adds_several_sets`` keeps its test, which
# ``tests/test_book_classic_reference.py`` shows is met by such moves).
DECLARED: list[tuple[str, str, Callable[[Any], bool]]] = []
