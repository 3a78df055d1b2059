"""A second, clean-room reading of the move WARNINGS aid (``cassino.apps.learning.warnings.warnings_for``).

Written from the documentation alone: the warnings module's docstring, the ``Warning`` dataclass, the docstrings
of ``warnings_for`` and ``risks`` (signatures and docstrings only, no function body of that module), docs/playing.md
("Warnings"), docs/browser.md ("Warn me before a mistake"), README.md, the schema's descriptions of the scoring
items and the endgame, and the variant files. ``players/knowledge.py`` was not read. The position is read from the
public engine objects (``Game``, ``HandState``, ``Engine.legal_moves``/``apply``/``close_turn``); the way of sweeping
games follows tests/counting_reference.py, whose card selector parser is reused for the "each" items' cards.

``expected(game, move)`` returns the set of ``(kind, cards)`` the docs say ``move`` should be warned of;
``compare(game, move)`` lists differences against ``warnings_for``; ``sweep(...)`` plays random and greedy games of
every seating of every bundled variant and compares a few moves at sampled plies.

Readings (R-numbers; doc words -> what is open -> the reading taken)
-------------------------------------------------------------------
R1  "the next player": the seat to play once the move is applied and, where the move leaves a turn of several
    actions open (``build.free_actions``: South African and Swazi Casino), that turn is ended (``close_turn``): the
    next seat to play a card. Where the move ends the hand (no next player) nothing is warned of. The dealer's
    last card of a deal is warned of, the next player holding the new deal ("the next player gets new cards and
    plays first to the table it leaves"): the position after ``Engine.apply``, the new cards dealt.
R1b Where the deal after the move lays cards the mover has not seen on the table (a short stock dealt to it:
    Tuxedo at five), nothing is warned of: the table the next player meets is not one the mover can know (the
    docstring said so after a fresh-seed sweep found the reference warning of a 5B the stock had laid there).
R2  "each card the mover has not seen": every card not in the mover's hand, on the table, in a build or in a
    capture pile, read in the position before the move (so after a redeal the mover's own new cards are still
    "unseen": it had not seen them when it chose).
R3  The probe: the position the move leaves with the next player's hand replaced by the card (or set of cards)
    tried, the stock and the other hands unchanged; only the next player's moves that play exactly that card
    (that set) count, and the engine says which are legal. "A next player who holds a build is taken to keep a
    card for it beside the card it may take yours with": for the builds whose ``holder`` is the next player
    (where ``build.keep_capturing_card``), an unseen card of each value (not a tried one, the lowest in deck
    order) beside the tried cards -- first for the values the tried cards do not capture -- as many as the
    next player's hand has room for (its size is public: a holder of a build with one card left holds the card
    for it). LOOSE in the docs (neither the room nor the order is said); the aid agrees with this reading.
R4  Cards played together (``capture.hand_cards_max`` > 1): every set of 2 up to that many unseen cards, no
    more than the next player's hand holds; cards alike for the engine (rank and values) are tried once, by
    their lowest copies (the engine reads a played set by its values).
R5  "sweep": a probe move after which the engine records a new sweep for the next player and the sweep points
    of the hand move (our own reading of the sweeps items: ``points``, ``by_size``, ``first_play_points``,
    ``previous_player_points``; none for a side an endgame restriction keeps from the item, nor from
    ``endgame.sweeps_from`` on, ``own`` or ``any`` side's game score, while the restrictions are on). So a sweep
    that only cancels an opposing sweep worth nothing (``sweeps.cancel``) moves no points and is none ("a sweep
    the engine records but nobody scores is none"). Its ``cards``: the cards on the table and in builds the
    move leaves (compared as a set).
R6  "scoring-card": the cards of the "each" items giving points at this table (``sides``) -- whatever a
    restriction says (the docs: "a card an 'each' item scores") -- that the move trailed or built with (``trail``,
    ``trail_build`` and ``build``: the played card; the docs said "trailed" only until the first sweep of this
    reference found the aid warning of a card built, and were mended to say it) or that some capture among the mover's legal moves takes (loose, in a
    build, a pile top where piles are in play) and which the move leaves in play (loose, in a build, or a pile
    top in the next player's reach; a card the move itself captured is not left); at risk where a probe move
    takes it (loose, or in a build taken). One warning a card, ``cards`` = (card,).
R6b Piles in play (South African, Swazi Casino): the docs never speak of capture piles. The aid warns of the
    card the move played when it ends on top of the mover's own pile within the next player's reach ("this
    leaves 2S, a scoring card, on top of your pile"); accepted as LOOSE (``PILE_TOPS``: taken into the reading,
    its warnings counted as "pile-top"), the played card only (not the cards captured under it).
R7  "build": a build in the position left that is not in the position before (made, or changed: raised, added
    to) whose owner is on the mover's side; at risk where a probe move takes it. ``cards`` = its cards.
R8  "given only where another legal move avoids that risk": the risk of a sweep is one risk; of a scoring card,
    one per card name ("a given scoring card left"); of a build, one risk "a build of one's own left to be
    taken" whatever its cards (BUILD_RISK_BY_CARDS = False; the other reading is counted apart, see LOOSE).
    A move avoids a risk when its own risks (by R1-R7, its next player a partner or the hand ended: none)
    do not hold it.
R9  None at all for a forced move (one legal move), a next player on the mover's side, a game won by the
    lowest total (``game.goal: lowest``).
R10 ``takers``: the single unseen cards that do it are all listed (compared as a set: the text shortens the
    list, the field does not); a set played together is "such as" one or two examples, each checked to do it.

Compared strictly: the set of (kind, cards) (card order aside), the single takers, each set named among the
takers. Differences are classed ``missing:KIND`` (the reference warns, the aid does not) or ``extra:KIND``, with a
suffix where the case is recognised: ``:played-not-trailed`` (R6), ``:in-a-pile`` (R6, a card left on a pile top),
``:cancels-a-sweep-worth-nothing`` (R5: the next player's sweep would only cancel an opposing sweep that scores
nothing, sweeps cancelling). LOOSE classes (counted apart, not failures): ``build-identity`` (R8: a difference
the other reading of a build's risk explains; never met in the sweeps), ``pile-top`` (R6b: counted in the
reference's warnings, not as a difference, since the reading is taken in).

Beside the warnings, ``compare`` checks the aid sees only what the mover sees: the same warnings when the cards
hidden from the mover (other hands, the stock) are dealt otherwise (field ``hidden``).
"""

from __future__ import annotations

import collections
import itertools
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

sys.path.insert(0, str(Path(__file__).parent))
from counting_reference import _hidden_redealt, interesting_scores, selector  # noqa: E402
from observation_reference import seatings  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

#: R8: a build risk named by its cards (True) or one risk for any build of one's own (False)
BUILD_RISK_BY_CARDS = False

#: R6b: a scoring card the move put on top of its own pile, in the next player's reach (piles in play)
PILE_TOPS = True

#: classes of difference the documentation leaves open: counted, not failures
LOOSE = {"build-identity", "pile-top"}


# ------------------------------------------------------------------------------------------------ helpers

def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _names(deck: Any, mask: int) -> tuple[str, ...]:
    return tuple(str(deck.cards[i]) for i in _bits(mask))


def _sorted_names(deck: Any, mask: int) -> tuple[str, ...]:
    """Card names in a canonical order (the aid orders them its own way: compared as sets)."""
    return tuple(sorted(_names(deck, mask)))


def _build_cards(state: Any) -> int:
    out = 0
    for b in state.builds:
        out |= b.cards
    return out


def _seen_mask(state: Any, seat: int) -> int:
    """R2: what ``seat`` has seen: its hand, the table, the builds, every capture pile."""
    seen = state.hands[seat] | state.table | _build_cards(state)
    for pile in state.piles:
        seen |= pile
    for stack in state.stacks or ():
        for i in stack:
            seen |= 1 << i
    return seen


def _listed(item: Any, n_sides: int) -> bool:
    return not item.sides or n_sides in item.sides


def _restriction(game: Any, side: int) -> tuple[str, ...] | None:
    if not game.restrictions_on:
        return None
    for row in game.rules.endgame.restrictions:
        if game.scores[side] == row.score:
            return tuple(row.only)
    return None


def _sweeps_may_score(game: Any, side: int, item: Any) -> bool:
    """R5: a side's sweeps score for ``item`` (not restricted away, not past ``sweeps_from``)."""
    only = _restriction(game, side)
    if only is not None and item.name not in only:
        return False
    start = game.rules.endgame.sweeps_from
    if start is not None and game.restrictions_on:
        if game.rules.endgame.sweeps_from_side == "any":
            if any(score >= start for score in game.scores):
                return False
        elif game.scores[side] >= start:
            return False
    return True


def _previous_seat(engine: Any, seat: int, players: int) -> int:
    for s in range(players):
        if engine.next_seat(s, players) == seat:
            return s
    return seat


def sweep_points(game: Any, state: Any) -> dict[int, int]:
    """R5: the points each side's recorded sweeps give in ``state``."""
    rules = game.rules
    teams = state.teams
    n_sides = len(set(teams))
    out: dict[int, int] = collections.defaultdict(int)
    items = [it for it in rules.scoring.items if it.count == "sweeps" and _listed(it, n_sides)]
    for sw in state.sweeps:
        if sw.cancelled:
            continue
        side = teams[sw.seat]
        for item in items:
            if _sweeps_may_score(game, side, item):
                pts = item.points
                for row in item.by_size:
                    if row.min_cards <= sw.size and (row.max_cards is None or sw.size <= row.max_cards):
                        pts = row.points
                        break
                if sw.first_play and item.first_play_points is not None:
                    pts = item.first_play_points
                out[side] += pts
            if item.previous_player_points:
                prev = teams[_previous_seat(game.engine, sw.seat, state.players)]
                if prev != side and _sweeps_may_score(game, prev, item):
                    out[prev] += item.previous_player_points
    return {s: p for s, p in out.items() if p}


def scoring_mask(game: Any) -> int:
    """R6: the cards the "each" items giving points at this table score."""
    rules = game.rules
    deck = game.engine.deck
    n_sides = len(game.scores)
    mask = 0
    for item in rules.scoring.items:
        if item.count == "each" and item.points and _listed(item, n_sides):
            test = selector(item.cards, deck)
            for i in range(len(deck.cards)):
                if test(i):
                    mask |= 1 << i
    return mask


def _taken(move: Any) -> int:
    out = move.loose
    for b in move.builds:
        out |= b
    return out


# ------------------------------------------------------------------------------------------------ the reading

def kept_values(game: Any, after: Any, nxt: int) -> list[Any]:
    """R3: the values of the builds the next player holds (``holder``), where a holder keeps a card for its
    build (``build.keep_capturing_card``)."""
    if not game.rules.build.keep_capturing_card:
        return []
    return [x.value for x in after.builds if x.holder == nxt]


class _Probe:
    """What the next player may do in the position a move leaves, by the unseen card or set it is given."""

    def __init__(self, game: Any, after: Any, nxt: int, unseen: int) -> None:
        self.game, self.after, self.nxt, self.unseen = game, after, nxt, unseen
        self.engine = engine = game.engine
        deck = engine.deck
        self.base_points = sweep_points(game, after)
        # R3: builds the next player holds need a keeper beside the card tried
        self.kept_values = kept_values(game, after, nxt)
        # R4: unseen cards alike for the engine, tried once (lowest copies first)
        classes: dict[Any, list[int]] = collections.defaultdict(list)
        for i in _bits(unseen):
            classes[(deck.cards[i].rank, tuple(deck.hand_values[i] or ()),
                     tuple(deck.table_values[i] or ()))].append(i)
        self.classes = list(classes.values())
        self.hand_size = bin(after.hands[nxt]).count("1")
        self.most = min(game.rules.capture.hand_cards_max, self.hand_size)
        # results by probe: (played mask) -> (sweeps: bool, taken: mask of cards taken by some move)
        self.results: list[tuple[int, bool, int]] = []
        singles = list(_bits(unseen))
        for i in singles:
            self.results.append(self._try(1 << i))
        for k in range(2, self.most + 1):
            for combo in itertools.combinations_with_replacement(range(len(self.classes)), k):
                counts = collections.Counter(combo)
                if any(len(self.classes[c]) < n for c, n in counts.items()):
                    continue
                mask = 0
                for c, n in counts.items():
                    for i in self.classes[c][:n]:
                        mask |= 1 << i
                self.results.append(self._try(mask))

    def keepers(self, cards: int) -> int:
        """R3: keepers beside ``cards``, as many as the next player's hand has room for: first for the held
        builds' values the tried cards do not capture, then for the others."""
        own = self.engine.captured_values(cards)
        values = [v for v in self.kept_values if v not in own] + [v for v in self.kept_values if v in own]
        room = self.hand_size - bin(cards).count("1")
        keep = 0
        for value in values:
            if room <= 0:
                break
            if any(value in self.engine.captured_values(1 << i) for i in _bits(keep)):
                continue
            for i in _bits(self.unseen & ~cards & ~keep):
                if value in self.engine.captured_values(1 << i):
                    keep |= 1 << i
                    room -= 1
                    break
        return keep

    def _try(self, cards: int) -> tuple[int, bool, int]:
        engine, after, nxt = self.engine, self.after, self.nxt
        keep = self.keepers(cards)
        hands = list(after.hands)
        hands[nxt] = cards | keep
        probe = after.with_(hands=tuple(hands))
        sweeps = False
        taken = 0
        for m in engine.legal_moves(probe):
            if m.played != cards or m.kind != "capture":
                continue
            taken |= _taken(m)
            if not sweeps:
                res = engine.apply(probe, m)
                if len(res.sweeps) > len(probe.sweeps) and res.sweeps[-1].seat == nxt \
                        and sweep_points(self.game, res) != self.base_points:
                    sweeps = True
        return cards, sweeps, taken

    def sweepers(self) -> list[int]:
        return [c for c, s, _ in self.results if s]

    def takers_of(self, cards: int) -> list[int]:
        """Probes that take every card of ``cards`` in one move (a build: all its cards)."""
        return [c for c, _, t in self.results if t & cards == cards]


def after_of(game: Any, move: Any) -> Any | None:
    """R1: the position ``move`` leaves with the turn ended, or None where the hand ends."""
    engine = game.engine
    after = engine.close_turn(engine.apply(game.hand, move))
    if after.over:
        return None
    return after


def risks(game: Any, move: Any, legal: list[Any] | None = None, *, _cache: dict | None = None
          ) -> dict[tuple, dict[str, Any]]:
    """Every risk ``move`` runs (R1-R7), avoidable or not: risk id -> {kind, cards, takers (masks)}."""
    hand = game.hand
    engine = game.engine
    deck = engine.deck
    mover = hand.turn
    if game.rules.game.goal == "lowest":
        return {}
    after = after_of(game, move)
    if after is None:
        return {}
    nxt = after.turn
    if after.teams[nxt] == hand.teams[mover]:
        return {}
    unseen = engine.full & ~_seen_mask(hand, mover)
    if after.table & unseen:
        return {}   # R1b: the deal after the move laid cards the mover has not seen on the table
    probe = _Probe(game, after, nxt, unseen)
    out: dict[tuple, dict[str, Any]] = {}
    # sweep
    who = probe.sweepers()
    if who:
        out[("sweep",)] = {"kind": "sweep", "cards": after.table | _build_cards(after), "takers": who}
    # scoring cards
    scoring = scoring_mask(game)
    if legal is None:
        legal = engine.legal_moves(hand)
    could = 0
    for m in legal:
        if m.kind == "capture":
            could |= _taken(m)
    took = _taken(move) if move.kind == "capture" else 0
    at_stake = could & scoring & ~took                  # (what the move took is not left)
    if move.kind in ("trail", "trail_build", "build"):
        at_stake |= move.played & scoring
    at_stake &= after.table | _build_cards(after) | after.pile_tops()
    if PILE_TOPS and after.stacks:
        # R6b (loose): a scoring card the move put on its own side's pile, left in the next player's reach
        own_side = hand.teams[mover]
        stack = after.stacks[own_side]
        top = 1 << stack[-1] if stack else 0
        at_stake |= move.played & scoring & top & after.pile_tops()
    for i in _bits(at_stake):
        who = probe.takers_of(1 << i)
        if who:
            out[("scoring-card", str(deck.cards[i]))] = {"kind": "scoring-card", "cards": 1 << i, "takers": who}
    # builds of one's own side made or changed
    before = set(hand.builds)
    for b in after.builds:
        if b in before or after.teams[b.owner] != hand.teams[mover]:
            continue
        who = probe.takers_of(b.cards)
        if who:
            key = ("build", _names(deck, b.cards)) if BUILD_RISK_BY_CARDS else ("build",)
            entry = out.setdefault(key, {"kind": "build", "cards": [], "takers": []})
            entry["cards"].append(b.cards)
            entry["takers"].append(who)
    return out


def expected_warnings(game: Any, move: Any, *, build_by_cards: bool | None = None) -> list[dict[str, Any]]:
    """The warnings the docs give ``move``: its risks that some other legal move avoids (R8, R9)."""
    global BUILD_RISK_BY_CARDS
    saved = BUILD_RISK_BY_CARDS
    if build_by_cards is not None:
        BUILD_RISK_BY_CARDS = build_by_cards
    try:
        legal = game.legal_moves()
        if len(legal) <= 1 or game.rules.game.goal == "lowest":
            return []
        mine = risks(game, move, legal)
        if not mine:
            return []
        others: dict[int, dict[tuple, Any]] = {}
        out = []
        for key, risk in mine.items():
            avoided = False
            for j, m in enumerate(legal):
                if m == move:
                    continue
                if j not in others:
                    others[j] = risks(game, m, legal)
                if key not in others[j]:
                    avoided = True
                    break
            if not avoided:
                continue
            if risk["kind"] == "build":
                for cards, who in zip(risk["cards"], risk["takers"]):
                    out.append({"kind": "build", "cards": cards, "takers": who})
            else:
                out.append(risk)
        return out
    finally:
        BUILD_RISK_BY_CARDS = saved


def expected(game: Any, move: Any) -> set[tuple[str, tuple[str, ...]]]:
    """The set of (kind, cards) the documentation says ``move`` is warned of."""
    deck = game.engine.deck
    return {(w["kind"], _names(deck, w["cards"])) for w in expected_warnings(game, move)}


# ------------------------------------------------------------------------------------------------ comparing

def aid(game: Any, move: Any) -> tuple[Any, ...]:
    from cassino.apps.learning.warnings import warnings_for

    return tuple(warnings_for(game, move))


def _with(flag: str, value: bool, fn: Callable[[], Any]) -> Any:
    """``fn()`` under another reading (a module flag set for the call)."""
    saved = globals()[flag]
    globals()[flag] = value
    try:
        return fn()
    finally:
        globals()[flag] = saved


def compare(game: Any, move: Any, *, hidden: random.Random | None = None,
            stats: collections.Counter | None = None) -> list[tuple[str, Any, Any]]:
    """(class, reference, aid) for every difference between the reference and ``warnings_for``
    (``stats``: counts the reference's warnings by kind)."""
    engine = game.engine
    deck = engine.deck
    want = expected_warnings(game, move)
    got = aid(game, move)
    if stats is not None:
        stats.update(w["kind"] for w in want)
    want_set = {(w["kind"], _sorted_names(deck, w["cards"])) for w in want}
    got_set = {(w.kind, tuple(sorted(w.cards))) for w in got}
    found: list[tuple[str, Any, Any]] = []
    missing = want_set - got_set
    extra = got_set - want_set
    if missing or extra:
        loose_class = None
        if all(k == "build" for k, _ in missing | extra):
            other = {(w["kind"], _sorted_names(deck, w["cards"]))
                     for w in expected_warnings(game, move, build_by_cards=not BUILD_RISK_BY_CARDS)}
            if other == got_set:
                loose_class = "build-identity"
        played = set(_names(deck, move.played))
        after = after_of(game, move)
        in_piles = set(_names(deck, after.pile_tops() & ~after.table & ~_build_cards(after))) if after else set()
        for k, cards in sorted(missing):
            cls = f"missing:{k}"
            if k == "scoring-card" and cards[0] in in_piles:
                cls += ":in-a-pile"
            found.append((loose_class or cls, (k, cards), None))
        for k, cards in sorted(extra):
            cls = f"extra:{k}"
            if k == "scoring-card" and cards[0] in played and move.kind != "trail":
                cls += ":played-not-trailed"
            if k == "sweep" and after is not None and game.rules.sweeps.cancel and any(
                    not sw.cancelled and after.teams[sw.seat] != after.teams[after.turn]
                    and not sweep_points(game, after.with_(sweeps=(sw,))) for sw in after.sweeps):
                cls += ":cancels-a-sweep-worth-nothing"
            found.append((loose_class or cls, None, (k, cards)))
    if stats is not None and PILE_TOPS and game.hand.stacks and want:
        plain = _with("PILE_TOPS", False, lambda: expected_warnings(game, move))
        stats["pile-top"] += len(want) - len(plain)
    # takers of the warnings both give (R10)
    for w in want:
        key = (w["kind"], _sorted_names(deck, w["cards"]))
        theirs = [g for g in got if (g.kind, tuple(sorted(g.cards))) == key]
        if not theirs:
            continue
        g = theirs[0]
        singles_want = {str(deck.cards[_bits(c)[0]]) for c in w["takers"] if bin(c).count("1") == 1}
        # (a name stands for every copy: two packs give the same name twice)
        singles_got = {t for t in g.takers if "+" not in t}
        if singles_want != singles_got:
            found.append((f"takers:{w['kind']}", (key, sorted(singles_want - singles_got)),
                          (key, sorted(singles_got - singles_want))))
        sets_ok = _sets_named_ok(game, move, w, [t for t in g.takers if "+" in t])
        if sets_ok is not True:
            found.append((f"set-takers:{w['kind']}", key, sets_ok))
    if hidden is not None:
        other = _hidden_redealt(game, game.hand.turn, hidden)   # (the mover's unseen cards dealt otherwise)
        if other is not None:
            again = aid(other, move)
            a = [(w.kind, tuple(w.cards), tuple(w.takers)) for w in got]
            b = [(w.kind, tuple(w.cards), tuple(w.takers)) for w in again]
            if a != b:
                found.append(("hidden", a, b))
    return found


def _sets_named_ok(game: Any, move: Any, w: dict[str, Any], named: list[str]) -> Any:
    """R10: each set the aid names ("4S+6H") does it, by our probe; True, or what is wrong."""
    if not named:
        return True
    deck = game.engine.deck
    after = after_of(game, move)
    if after is None:
        return f"named {named} with no next player"
    unseen = game.engine.full & ~_seen_mask(game.hand, game.hand.turn)
    bad = []
    for text in named:
        mask = 0
        for name in text.split("+"):
            idx = [i for i in _bits(unseen & ~mask) if str(deck.cards[i]) == name]
            if not idx:
                bad.append(f"{text}: {name} not unseen")
                break
            mask |= 1 << idx[0]
        else:
            probe = _Probe.__new__(_Probe)
            probe.game, probe.after, probe.nxt, probe.unseen = game, after, after.turn, unseen
            probe.engine = game.engine
            probe.base_points = sweep_points(game, after)
            probe.kept_values = kept_values(game, after, after.turn)
            probe.hand_size = bin(after.hands[after.turn]).count("1")
            _, sweeps, taken = probe._try(mask)
            ok = sweeps if w["kind"] == "sweep" else (taken & w["cards"]) == w["cards"]
            if not ok:
                bad.append(f"{text} does not")
    return True if not bad else bad


def disagreements(game: Any, move: Any, *, hidden: random.Random | None = None) -> list[tuple[str, Any, Any]]:
    """:func:`compare` without the loose classes."""
    return [f for f in compare(game, move, hidden=hidden) if f[0] not in LOOSE]


# ------------------------------------------------------------------------------------------------ positions

def _greedy(moves: list[Any], rng: random.Random) -> Any:
    """A greedy bot: the capture taking the most cards, else a random move."""
    caps = [m for m in moves if m.kind == "capture"]
    if not caps:
        return rng.choice(moves)
    best = max(bin(_taken(m)).count("1") for m in caps)
    return rng.choice([m for m in caps if bin(_taken(m)).count("1") == best])


def games(variant: str, players: int, partners: bool, seed: int, *, max_hands: int = 2,
          max_plies: int = 400) -> Iterator[tuple[int, Any]]:
    """(ply, game) at every decision of a game from ``seed``: seeds 0, 1 mod 4 random moves, 2, 3 greedy;
    odd seeds start from game scores that bring the endgame into play (``Game.at``)."""
    from cassino import Game
    from cassino.engine.core import Engine
    from cassino.language.variants import load_rules

    rules = load_rules(variant)
    engine = Engine(rules)
    rng = random.Random(f"warn/{variant}/{players}/{partners}/{seed}")
    game = Game.new(engine, seed=seed, players=players, partners=partners)
    if seed % 2 and rules.game.target is not None:
        choices = interesting_scores(rules)
        game = Game.at(engine, game.hand, {s: rng.choice(choices) for s in range(len(game.scores))}, seed=seed)
    greedy = seed % 4 >= 2
    ply = 0
    while not game.over and game.hand_no <= max_hands and ply < max_plies:
        try:
            moves = game.legal_moves()
        except Exception:                      # a crowded table beyond the listing budget
            moves = game.playable_moves()
            if not moves:
                break
            yield -1 - ply, game               # (a negative ply: not to be compared)
            game = game.play(rng.choice(moves))
            ply += 1
            continue
        if not moves:
            break
        yield ply, game
        game = game.play(_greedy(moves, rng) if greedy else rng.choice(moves))
        ply += 1


def all_variants(examples: bool = False) -> list[str]:
    names = sorted(p.stem for p in (ROOT / "variants").glob("*.yaml"))
    if examples:
        names += sorted(str(p) for p in (ROOT / "examples").glob("*.yaml"))
    return names


def _cover(counts: collections.Counter, game: Any, move: Any, legal: list[Any]) -> None:
    """What a compared move exercised (the cases the docs name)."""
    hand = game.hand
    counts["forced move"] += len(legal) == 1
    counts["lowest total wins"] += game.rules.game.goal == "lowest"
    after = after_of(game, move)
    if after is None:
        counts["hand ended by the move"] += 1
        return
    counts["next player a partner"] += after.teams[after.turn] == hand.teams[hand.turn]
    counts["dealer's last card (new deal)"] += after.deal_no != hand.deal_no
    counts["turn of several actions closed"] += bool(game.engine.apply(hand, move).turn_card)
    counts["next player holds a build"] += any(b.holder == after.turn for b in after.builds)
    counts["sweeps score for nobody at this table"] += not any(
        _sweeps_may_score(game, s, it) for s in range(len(game.scores)) for it in game.rules.scoring.items
        if it.count == "sweeps")
    counts["cards played together"] += game.rules.capture.hand_cards_max > 1


def sweep(variants: Iterable[str], seeds: Iterable[int], *, max_hands: int = 1, every: int = 3,
          moves_per_ply: int = 3, examples: int = 2, hidden_every: int = 5,
          seatings_of: Callable[[str], list[tuple[int, bool]]] = seatings) -> dict[str, Any]:
    """Games of every seating of ``variants``; at about one ply in ``every`` a few moves compared."""
    from cassino.engine.notation import format_move

    seeds = list(seeds)
    res: dict[str, Any] = {"games": 0, "positions": 0, "moves": 0, "warned": collections.Counter(),
                           "coverage": collections.Counter(),
                           "skipped": 0, "disagreements": collections.Counter(),
                           "loose": collections.Counter(), "examples": collections.defaultdict(list)}
    for variant in variants:
        for players, partners in seatings_of(variant):
            for seed in seeds:
                res["games"] += 1
                pick = random.Random(f"pick/{variant}/{players}/{partners}/{seed}")
                for ply, game in games(variant, players, partners, seed, max_hands=max_hands):
                    if ply < 0 or pick.randrange(every):
                        continue
                    try:
                        legal = game.legal_moves()
                    except Exception:
                        res["skipped"] += 1
                        continue
                    res["positions"] += 1
                    chosen = pick.sample(legal, min(moves_per_ply, len(legal)))
                    for k, move in enumerate(chosen):
                        res["moves"] += 1
                        check = pick if hidden_every and (ply + k) % hidden_every == 0 else None
                        try:
                            diffs = compare(game, move, hidden=check, stats=res["warned"])
                        except Exception as e:      # the reference's or the aid's failure: a class of its own
                            diffs = [(f"error:{type(e).__name__}", str(e)[:200], None)]
                        _cover(res["coverage"], game, move, legal)
                        for cls, want, got in diffs:
                            bucket = "loose" if cls in LOOSE else "disagreements"
                            res[bucket][cls] += 1
                            if len(res["examples"][cls]) < examples:
                                res["examples"][cls].append(dict(
                                    variant=Path(variant).stem, players=players, partners=partners, seed=seed,
                                    ply=ply, move=format_move(move, game.engine.deck), reference=want, aid=got))
    return res


def replay(variant: str, players: int, partners: bool, seed: int, ply: int) -> Any:
    """The game of :func:`games` at ``ply`` (to reproduce an example)."""
    for at, game in games(variant, players, partners, seed, max_hands=99, max_plies=ply + 1):
        if abs(at) == ply or -1 - at == ply:
            return game
    raise ValueError("no such ply")


def find_move(game: Any, text: str) -> Any:
    from cassino.engine.notation import format_move

    return next(m for m in game.legal_moves() if format_move(m, game.engine.deck) == text)


if __name__ == "__main__":                   # python tests/warnings_reference.py SEEDS [variant ...]
    start = time.time()
    n_seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    chosen_variants = sys.argv[2:] or all_variants()
    result = sweep(chosen_variants, range(n_seeds))
    print(f"games {result['games']}, positions {result['positions']}, moves compared {result['moves']}, "
          f"skipped (crowded) {result['skipped']}, seconds {time.time() - start:.0f}")
    print(f"reference warnings by kind: {dict(result['warned'])}")
    print(f"disagreements: {sum(result['disagreements'].values())} {dict(result['disagreements'])}")
    print(f"loose differences (not failures): {dict(result['loose'])}")
    print(f"coverage (moves): {dict(result['coverage'])}")
    for cls, cases in result["examples"].items():
        for case in cases:
            print(f"  [{cls}] {case['variant']} players={case['players']} partners={case['partners']} "
                  f"seed={case['seed']} ply={case['ply']} move {case['move']!r}: "
                  f"reference {case['reference']} vs aid {case['aid']}")
