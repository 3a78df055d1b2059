"""`cassino diff A B`: what two variants do differently, shown on positions the engine finds.

For each difference that changes which moves are legal, positions are dealt at
random (a fresh deal, then a few random moves, so builds appear too) and the
legal moves of A, of B, and of A with only that one setting taken from B are
compared. A position where A and B differ *because of that setting* is then
shrunk, a card or build at a time, while the difference remains, so what is
printed is small. The search is seeded: the same two files give the same
positions. Scoring differences are shown on one sample hand played under A's
rules and scored by both.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ...engine.core import Engine, Position
from ...engine.moves import Move
from ...engine.notation import format_move
from ...engine.rng import SplitMix64, derive
from ...engine.scoring import Scorer
from ...engine.state import HandState
from ...errors import CassinoError
from ...language.compare import Difference, differences, same_items
from ...language.rulebook import humanize
from ...language.rules import Rules
from ...language.semantics import may_never_end
from ...language.settings import get, with_value
from ..game.summary import side_name, side_seats
from .worked_examples import (SEP, TEMPLATES, NoCard, Picker, example_position, partners_words, play_sample_hand,
                              replay_hand, show_cards, show_move)

DEFAULT_TRIES = 300


@dataclass(frozen=True)
class Found:
    """A small position where A and B allow different moves, and the moves only each allows."""

    position: Position
    only_a: tuple[Move, ...]
    only_b: tuple[Move, ...]
    tried: int
    example: bool = False      # found among the rulebooks' worked examples of the rule, not random positions


@dataclass(frozen=True)
class Report:
    a: Rules
    b: Rules
    diffs: tuple[Difference, ...]
    found: dict[str, Found | None]          # difference key -> position (None: none found); in-play ones only
    why_none: str                           # why no positions could be searched, if so
    tries: int
    scoring: dict[str, Any] | None          # the sample hand scored both ways


def _isolated(a: Rules, b: Rules, diff: Difference) -> Rules | None:
    """A with only ``diff``'s settings taken from B (None when such rules cannot be built)."""
    data = dict(a.data)
    for path in diff.paths:
        data = with_value(data, path, get(dict(b.data), path))
    try:
        return Rules.from_data(data)
    except (KeyError, TypeError, ValueError):
        return None


def _moves(engine: Engine, pos: Position) -> frozenset[Move] | None:
    """The legal moves at ``pos``, or None where it is no position of this deck (a card placed
    more often than the deck holds it: with one pack, a card the other game's two packs hold twice)."""
    placed = [c for cards in (pos.hands or {}).values() for c in cards] + list(pos.table) + \
        [c for cards, _, _ in pos.builds for c in cards] + [c for cards in (pos.captured or {}).values() for c in cards]
    if any(placed.count(c) > engine.deck.packs for c in set(placed)):
        return None
    try:
        return frozenset(engine.legal_moves(engine.position(pos)))
    except (ValueError, CassinoError, KeyError, IndexError):
        return None


def _engine(rules: Rules | None) -> Engine | None:
    try:
        return Engine(rules) if rules is not None else None
    except (ValueError, CassinoError):
        return None


def _as_position(engine: Engine, state: HandState, partners: bool) -> Position:
    deck = engine.deck
    turn = state.turn
    captured: dict[int, Any] | None = None
    if state.stacks:   # African Casino: each side's pile in order (its top in play), under its lowest seat
        captured = {state.teams.index(side): [deck.cards[i] for i in stack]
                    for side, stack in enumerate(state.stacks) if stack}
    return Position(players=state.players, partners=partners, to_play=turn,
                    hands={turn: deck.cards_of(state.hands[turn])}, table=deck.cards_of(state.table),
                    builds=[(deck.cards_of(b.cards), b.value, b.owner) for b in state.builds], captured=captured)


class _Search:
    """Positions where A and B differ because of one setting, seen from either side: A against A
    with that setting from B (``iso_a``), and B against B with that setting from A (``iso_b``)."""

    def __init__(self, a: Rules, b: Rules, iso_a: Rules | None, iso_b: Rules | None) -> None:
        self.ea, self.eb = Engine(a), Engine(b)
        self.ei, self.ej = _engine(iso_a), _engine(iso_b)
        self.a, self.b = a, b
        # African Casino: where either game has pile tops in play, positions may give an opponent's pile.
        self.piles = a.capture.from_piles != "none" or b.capture.from_piles != "none"

    def _holds(self, value: int | str, card: int) -> bool:
        """Whether ``card`` (an index) can take a build of ``value`` (a number, or a rank for valueless piles)."""
        deck = self.ea.deck
        if isinstance(value, int):
            return value in deck.hand_values[card]
        return deck.cards[card].rank == value

    def reachable(self, pos: Position) -> bool:
        """Whether play could reach ``pos``: the mover holds a card of every build they own
        (nobody may build a value they do not hold), so no engine's fallback trail is shown."""
        if pos.builds and not (self.a.build.allowed and self.b.build.allowed):
            return False                         # one of them cannot build, so neither shares a build
        hand = [self.ea.deck.index(c) for c in (pos.hands or {}).get(pos.to_play, ())]
        return all(any(self._holds(value, i) for i in hand)
                   for _, value, owner in pos.builds if owner == pos.to_play)

    def differs(self, pos: Position) -> tuple[frozenset[Move], frozenset[Move]] | None:
        """The moves that differ because of the one setting, the other settings held equal: a move
        only A allows that A loses with B's value of the setting (or that B gains with A's), and
        the same for B. A side whose rules cannot be built with the other's value is skipped."""
        if not self.reachable(pos):
            return None
        ma, mb = _moves(self.ea, pos), _moves(self.eb, pos)
        if ma is None or mb is None or ma == mb:
            return None
        only_a: frozenset[Move] = frozenset()
        only_b: frozenset[Move] = frozenset()
        mi = _moves(self.ei, pos) if self.ei is not None else None
        if mi is not None:                       # A's side: A against A with B's value
            only_a |= (ma - mi) - mb
            only_b |= (mi - ma) & mb
        mj = _moves(self.ej, pos) if self.ej is not None else None
        if mj is not None:                       # B's side: B against B with A's value
            only_a |= (mj - mb) & ma
            only_b |= (mb - mj) - ma
        if not only_a and not only_b:
            return None
        return only_a, only_b

    def random_position(self, seed: int, players: int, partners: bool) -> Position | None:
        rng = SplitMix64(seed)
        engine = self.ea if rng.below(2) == 0 else self.eb
        try:
            state = engine.start(seed, players, partners=partners)
        except ValueError:
            return None
        for _ in range(rng.below(10)):
            moves = engine.legal_moves(state)
            if not moves or state.over:
                break
            state = engine.apply(state, moves[rng.below(len(moves))])
        if state.over or not state.hands[state.turn]:
            return None
        return _as_position(engine, state, partners)

    def constructed_position(self, seed: int, players: int, partners: bool) -> Position:
        """Cards dealt straight to the table and the hand, with up to two builds of the kinds random
        play rarely leaves: a sum of two cards, or equal cards built as their own rank (two fives
        as 5, two kings piled as K). Sometimes a hand card matches a loose card's rank, so the
        rules about taking or piling equal cards can show."""
        rng = SplitMix64(seed)
        deck = self.ea.deck
        tv = deck.table_values
        pool = list(range(len(deck)))
        rng.shuffle(pool)
        top = deck.max_value()

        def take(match: Any = None) -> int | None:
            k = next((k for k, i in enumerate(pool) if match is None or match(i)), None)
            return None if k is None else pool.pop(k)

        builds: list[tuple[list[Any], int | str, int]] = []
        for _ in range(rng.below(3)):
            x = take()
            assert x is not None
            if rng.below(2) == 0:                # equal cards built as their own rank
                y = take(lambda i, x=x: deck.cards[i].rank == deck.cards[x].rank)
                if y is None:
                    continue
                if len(tv[x]) > 1:               # an ace of two values: which one it was built as is unclear
                    continue
                value: int | str = tv[x][0] if tv[x] else deck.cards[x].rank
            else:                                # a sum of two cards
                y = take()
                if y is None or len(tv[x]) != 1 or len(tv[y]) != 1 or tv[x][0] + tv[y][0] > top:
                    continue
                value = tv[x][0] + tv[y][0]
            builds.append(([deck.cards[x], deck.cards[y]], value, rng.below(players)))
        table = [deck.cards[i] for i in (take() for _ in range(1 + rng.below(5))) if i is not None]
        hand = [deck.cards[i] for i in (take() for _ in range(1 + rng.below(4))) if i is not None]
        if table and rng.below(3) == 0:          # more cards of a loose card's rank, in the hand or loose
            rank = table[rng.below(len(table))].rank
            for place in [hand] + [hand if rng.below(2) else table for _ in range(rng.below(3))]:
                same = take(lambda i: deck.cards[i].rank == rank)
                if same is not None:
                    place.append(deck.cards[same])
        numbered = [(k, v) for k, (_, v, _) in enumerate(builds) if isinstance(v, int)]
        if numbered and rng.below(2) == 0:      # a card that raises a build, the raised value held (and loose)
            k, v = numbered[rng.below(len(numbered))]
            h = take(lambda i: len(tv[i]) == 1 and v + tv[i][0] <= top)
            if h is not None:
                hand.append(deck.cards[h])
                w = v + tv[h][0]
                for place in ((hand, table) if rng.below(2) else (hand,)):
                    card = take(lambda i, w=w: tuple(tv[i]) == (w,))
                    if card is not None:
                        place.append(deck.cards[card])
        # The mover's own builds need a card of their value in the hand (as in play), so the
        # rules about one's own builds (raising them, keeping the card) can show; often the
        # mover holds one for another's build too, as adding to it needs.
        for _, v, owner in builds:
            if (owner == 0 or rng.below(2) == 0) and not any(self._holds(v, deck.index(c)) for c in hand):
                match = take(lambda i, v=v: self._holds(v, i))
                if match is not None:
                    hand.append(deck.cards[match])
        captured: dict[int, Any] | None = None
        if self.piles and rng.below(2) == 0:    # an opponent's pile, its top in play where piles are
            # One to three cards (capture.pile_cards: augment reaches under the top in one move).
            pile = [i for i in (take() for _ in range(1 + rng.below(3))) if i is not None]
            if pile:
                captured = {1: [deck.cards[i] for i in pile]}
        # Sometimes the last deal, the stock used up (the rules that lapse there, such as a build's obligation,
        # `build.owner_obligation_in_last_deal`, can show only then: an audit's diff never found one).
        stock: list[Any] | None = [] if rng.below(3) == 0 else None
        return Position(players=players, partners=partners, to_play=0, hands={0: hand}, table=table, builds=builds,
                        captured=captured, stock=stock)

    def shrink(self, pos: Position) -> Position:
        """Remove cards and builds one at a time while A and B still differ; put the mover in seat 0."""
        pos = self._rotate(pos)
        changed = True
        while changed:
            changed = False
            for candidate in self._smaller(pos):
                if self.differs(candidate) is not None:
                    pos, changed = candidate, True
                    break
        return pos

    def _rotate(self, pos: Position) -> Position:
        turn = pos.to_play
        if turn == 0:
            return pos
        n = pos.players
        rotated = replace(pos, to_play=0, hands={0: pos.hands[turn]} if pos.hands else None,
                          builds=[(c, v, (o - turn) % n) for c, v, o in pos.builds],
                          captured={(s - turn) % n: c for s, c in pos.captured.items()} if pos.captured else None)
        return rotated if self.differs(rotated) is not None else pos

    @staticmethod
    def _smaller(pos: Position) -> list[Position]:
        out = []
        hand = list((pos.hands or {}).get(pos.to_play, ()))
        for k in range(len(pos.builds)):
            out.append(replace(pos, builds=[b for j, b in enumerate(pos.builds) if j != k]))
        for k in range(len(pos.table)):
            out.append(replace(pos, table=[c for j, c in enumerate(pos.table) if j != k]))
        if len(hand) > 1:
            for k in range(len(hand)):
                out.append(replace(pos, hands={pos.to_play: [c for j, c in enumerate(hand) if j != k]}))
        for seat, cards in (pos.captured or {}).items():
            out.append(replace(pos, captured={s: c for s, c in (pos.captured or {}).items() if s != seat} or None))
            if len(cards) > 1:   # the pile's bottom card (the deepest, out of any move's reach first)
                out.append(replace(pos, captured={**(pos.captured or {}), seat: list(cards)[1:]}))
        if pos.stock is not None:   # (the last deal shown only where the difference needs it)
            out.append(replace(pos, stock=None))
        if pos.players > 2 and not pos.partners and pos.to_play == 0 and not pos.captured:
            out.append(replace(pos, players=2, builds=[(c, v, min(o, 1)) for c, v, o in pos.builds]))
        return out


def _seats(a: Rules, b: Rules) -> tuple[list[int], bool] | None:
    lo = max(a.seats.min_players, b.seats.min_players)
    hi = min(a.seats.max_players, b.seats.max_players)
    if lo > hi:
        return None
    return list(range(lo, hi + 1)), 4 in range(lo, hi + 1) and a.partnership(4, True) and b.partnership(4, True)


def find_position(a: Rules, b: Rules, diff: Difference, seed: int = 1, tries: int = DEFAULT_TRIES) -> Found | None:
    """A small position where ``diff`` makes A and B allow different moves; None if none turns up."""
    iso_a, iso_b = _isolated(a, b, diff), _isolated(b, a, diff)
    seats = _seats(a, b)
    if (iso_a is None and iso_b is None) or seats is None:
        return None
    try:
        search = _Search(a, b, iso_a, iso_b)
    except (ValueError, CassinoError):
        return None
    counts, partners_ok = seats
    # First the positions the rulebooks' worked examples are made of for this rule, under either game: they are
    # built to show it (a partner's build to raise, a value to build for a partner), which random positions
    # seldom are (an audit's diff found none in 300 for `raise_partners`, `for_partner`, `raise_with_table_cards`).
    for k, pos in enumerate(_example_positions(a, b, diff, search)):
        if pos.players not in counts or (pos.partners and not partners_ok) or search.differs(pos) is None:
            continue
        small = search.shrink(pos)
        only_a, only_b = search.differs(small) or (frozenset(), frozenset())
        order = lambda m: (len(format_move(m, search.ea.deck)), format_move(m, search.ea.deck))  # noqa: E731
        return Found(small, tuple(sorted(only_a, key=order)), tuple(sorted(only_b, key=order)), k + 1, example=True)
    for k in range(tries):
        s = derive(seed, k)
        players = counts[k % len(counts)]
        # (Where either game always seats four as partners, so do both: one position for the two engines.)
        partners = partners_ok and players == 4 and (k % 4 >= 2 or a.partnership(4) or b.partnership(4))
        if k % 2:
            pos: Position | None = search.constructed_position(s, players, partners)
        else:
            pos = search.random_position(s, players, partners)
        if pos is None or search.differs(pos) is None:
            continue
        small = search.shrink(pos)
        only_a, only_b = search.differs(small) or (frozenset(), frozenset())
        order = lambda m: (len(format_move(m, search.ea.deck)), format_move(m, search.ea.deck))  # noqa: E731
        return Found(small, tuple(sorted(only_a, key=order)), tuple(sorted(only_b, key=order)), k + 1)
    return None


def _example_positions(a: Rules, b: Rules, diff: Difference, search: _Search) -> list[Position]:
    """The positions of the worked examples (``worked_examples.TEMPLATES``) of ``diff``'s clause, or of a
    setting behind it, made under A's rules and under B's: each is built to show that rule."""
    wanted = {".".join(p) for p in diff.paths} | {diff.key}
    out: list[Position] = []
    for template in TEMPLATES:
        if template.key not in wanted and not wanted & set(template.contrast):
            continue
        for rules, engine in ((a, search.ea), (b, search.eb)):
            try:
                setup = template.setup(rules, Picker(engine))
            except (NoCard, CassinoError, ValueError):
                continue
            if setup is not None:
                out.append(example_position(setup))
    return out


def _same_cards(a: Rules, b: Rules) -> bool:
    """Whether the two decks hold the same cards, one pack of each: with two packs a card's first
    copy keeps its one-pack number, so a one-pack position exists with two packs too (Krypkasino
    against kasino misär), and a position using a second copy is simply passed over by the other."""
    da, db = Engine(a).deck, Engine(b).deck
    return da.cards[:da.pack_size] == db.cards[:db.pack_size]


def sample_scoring(a: Rules, b: Rules, seed: int = 1) -> dict[str, Any]:
    """One hand played under A's rules by greedy players, scored by A's items and by B's (where the two differ in
    their capture events, the same moves played under B's rules, where they are legal there, and B's events)."""
    ea, eb = Engine(a), Engine(b)
    players = max(a.seats.min_players, b.seats.min_players)
    if not a.seats.min_players <= players <= a.seats.max_players:
        players = a.seats.min_players
    # In partnerships where either game always plays so at this count (an African house rule's audit: a B of
    # four always in teams was scored as four sides, on A's seating).
    partners = a.partnership(players, False) or b.partnership(players, False)
    # (The first hand whose scores differ, if one of a dozen does; one hand only where A's rules may never end:
    # nobody captures there, and each hand is slow to play.)
    for seed in range(seed, seed + (1 if may_never_end(a) else 12)):
        moves: list[Any] = []
        state = play_sample_hand(ea, seed, players, moves, partners)
        pa, by_a = Scorer.of(ea).hand_points(state)
        # The same moves played under B where they are legal there, so that what a capture records under B's
        # rules (its capture events) is B's; else A's hand scored by B's items (an audit found a changed event
        # scored with A's: the same oranges both ways).
        under_b = replay_hand(eb, seed, players, moves, ea.deck, partners) \
            if a.scoring.events != b.scoring.events else None
        pb, by_b = Scorer.of(eb).hand_points(under_b if under_b is not None else state)
        if pa != pb:
            break
    alias = same_items(a, b)              # B's items that score what one of A's does, by A's name
    back = {v: k for k, v in alias.items()}
    items = list(dict.fromkeys([i.name for i in a.scoring.items] + [i.name for i in b.scoring.items
                                                                    if i.name not in alias]))
    return {"seed": seed, "players": players, "partners": state.sides != tuple(range(players)),
            "sides": {side: list(seats) for side, seats in side_seats(state.teams).items()},
            "replayed": under_b is not None,
            "items": {name: {"a": by_a.get(name), "b": by_b.get(back.get(name, name))} for name in items},
            "total": {"a": pa, "b": pb}}


def compare(a: Rules, b: Rules, seed: int = 1, tries: int = DEFAULT_TRIES) -> Report:
    """Every difference between A and B, with positions for those in play and the sample hand's scores."""
    diffs = tuple(differences(a, b))
    found: dict[str, Found | None] = {}
    why = ""
    same = _same_cards(a, b)
    if not same:
        why = "the two decks hold different cards, so no position exists in both"
    elif _seats(a, b) is None:
        why = "no number of players is allowed by both"
    else:
        searched = []
        for d in diffs:
            if d.in_play and not d.moot and d.key != "deck.packs":
                # (The packs change the cards there are, not a move in a position one pack can
                # show: a position with a card's second copy does not exist with one pack.)
                found[d.key] = find_position(a, b, d, seed, tries)
                if found[d.key] is None and d.unread:
                    # One of them does not read it (A with B's value plays as A) and, from the
                    # other's side, no move it changes is one the first plays differently.
                    del found[d.key]
                    d = replace(d, moot=True, moot_why=f"{d.unread}'s rules do not read it and no position "
                                                       f"among {tries} shows it changing a move")
            searched.append(d)
        diffs = tuple(searched)
    scoring_differs = any(d.section in ("scoring", "sweeps") for d in diffs)
    scoring = sample_scoring(a, b, seed) if scoring_differs and same else None
    return Report(a, b, diffs, found, why, tries, scoring)


# ---------------------------------------------------------------------- output

#: Where a rule that changes no move shows, by its section (an audit read ten house rules' `diff` with no
#: position, no sample hand and no word of why: a target, a seating, a way of keeping score).
NOT_IN_A_POSITION = {
    "game": "the game's end and its score, over hands, not a move in a position",
    "endgame": "the end of the game, near its target, not a move in a position",
    "seats": "who sits at the table and in what order, not a move in a position",
    "deal": "the deal, before any move",
}


def not_in_a_position(d: Difference) -> str | None:
    """Why no position is shown for ``d``, where it changes no move (None where it may)."""
    if d.in_play or d.moot:
        return None
    return NOT_IN_A_POSITION.get(d.section)


def _label(d: Difference) -> str:
    """The settings behind a difference; a whole scoring item or event by its own name."""
    if len(d.paths) > 2:
        return d.key
    return ", ".join(".".join(p) for p in d.paths)


def position_text(rules: Rules, engine: Engine, pos: Position) -> list[tuple[str, str]]:
    lines: list[tuple[str, str]] = []
    if pos.partners:
        lines.append(("Players", partners_words(rules, pos.players)))
    elif pos.players != 2:
        lines.append(("Players", f"{pos.players} (you are seat 0)"))
    lines.append(("Table", show_cards(rules, list(pos.table)) or "empty"))
    if pos.builds:
        lines.append(("Builds", SEP.join(f"[{show_cards(rules, list(c))}] = {v}, made by "
                                         + ("you (seat 0)" if o == 0 else f"seat {o}") for c, v, o in pos.builds)))
    lines.append(("Your hand", show_cards(rules, list((pos.hands or {}).get(pos.to_play, ())))))
    for seat, cards in sorted((pos.captured or {}).items()):   # African Casino: piles in order, last on top
        lines.append((f"Seat {seat}'s pile", show_cards(rules, list(cards)) + " (last on top)"))
    if pos.stock is not None and not pos.stock:
        lines.append(("Stock", "none left: the last deal of the hand"))
    return lines


def _read_under_lines(d: Difference) -> list[str]:
    """Beside a position: one variant's setting as it reads under the other's settings that word it,
    so the moves the other allows are explained by its own rules (Scopa's equal card first, under
    Escoba's total, is a single card making 15 taken first; Scopa's own words say equal cards)."""
    return [f"    Under {r.variant}'s {', '.join(r.depends_on)}, {r.setting_of}'s setting would read: {r.words}"
            for r in d.read_under]


def _seats_points(points: dict[int, int] | None, sides: dict[int, list[int]] | None = None) -> str:
    """Each side's points, named by its seats (``sides``: side -> seats, where partners play)."""
    if points is None:
        return "-"
    shown = [f"{side_name(tuple(sides[s])) if sides and s in sides else f'seat {s}'} {p}"
             for s, p in sorted(points.items()) if p]
    return ", ".join(shown) or "nobody"


def format_text(report: Report) -> str:
    a, b = report.a, report.b
    if not report.diffs:
        return f"{a.name} and {b.name} have the same rules.\n"
    width = max(len(a.name), len(b.name)) + 1
    real = [d for d in report.diffs if not d.moot]
    moot = [d for d in report.diffs if d.moot]
    count = "1 rule differs" if len(real) == 1 else f"{len(real)} rules differ"
    out = [f"{a.name} vs {b.name}: {count}", ""]
    ea = Engine(a) if report.found else None
    for d in real:
        out.append(_label(d))
        out.append(f"  {a.name + ':':<{width}} {d.a}")
        out.append(f"  {b.name + ':':<{width}} {d.b}")
        if d.key in report.found:
            f = report.found[d.key]
            if f is None:
                out.append(f"  No position among {report.tries} random ones shows this difference in play "
                           f"(it may need a rarer position).")
            else:
                assert ea is not None
                found = ("in the rulebooks' worked examples of this rule" if f.example else
                         f"after {f.tried} random position{'s' if f.tried != 1 else ''}")
                out.append(f"  A position where they differ (found {found}, then made smaller):")
                out += [f"    {label}: {value}" for label, value in position_text(a, ea, f.position)]
                out.append(f"    Only {a.name} allows: " + (SEP.join(show_move(a, ea, m) for m in f.only_a) or "none"))
                out.append(f"    Only {b.name} allows: " + (SEP.join(show_move(a, ea, m) for m in f.only_b) or "none"))
                out += _read_under_lines(d)
        elif (why := not_in_a_position(d)) is not None:
            out.append(f"  No position is shown: this rule is about {why}.")
        out.append("")
    for why in dict.fromkeys(d.moot_why for d in moot):
        these = [d for d in moot if d.moot_why == why]
        out.append(f"Set differently, but {why} (not counted): " + ", ".join(_label(d) for d in these) + ".")
        # What the side that reads it says (a re-attack found count-out's sweeps tie-break in no row of its diff
        # against standard: the rule exists only beside the count-out, whose own row did not word it).
        for d in these:
            for name, text in ((a.name, d.a), (b.name, d.b)):
                if text and d.unread != name and "no such rule" not in text and "does not apply" not in text:
                    out.append(f"  {name}: {text}")
        out.append("")
    if report.why_none and any(d.in_play for d in report.diffs):
        out += [f"No positions are shown: {report.why_none}.", ""]
    if report.scoring:
        s = report.scoring
        again = f"; the same moves under {b.name}'s, which record their own capture events" if s.get("replayed") else ""
        teams = s.get("sides") if s.get("partners") else None
        out.append(f"Scoring on one sample hand ({s['players']} greedy computer players"
                   f"{' in partnerships' if teams else ''}, seed {s['seed']}, played under {a.name}'s rules{again}):")
        rows = [("item", a.name, b.name)]
        for name, pts in s["items"].items():
            rows.append((humanize(name), _seats_points(pts["a"], teams), _seats_points(pts["b"], teams)))
        rows.append(("total", _seats_points(s["total"]["a"], teams) if any(s["total"]["a"].values()) else "nobody",
                     _seats_points(s["total"]["b"], teams) if any(s["total"]["b"].values()) else "nobody"))
        w0 = max(len(r[0]) for r in rows) + 2
        w1 = max(len(r[1]) for r in rows) + 2
        for r in rows:
            marker = "" if r[1] == r[2] or r is rows[0] else "   <- differs"
            out.append(f"  {r[0]:<{w0}}{r[1]:<{w1}}{r[2]}{marker}")
        if all(r[1] == r[2] for r in rows[1:]):
            # (an audit read a sample hand of hoyle-sweeps-cancel where only one side swept: no row differed)
            out.append("  (This hand scores the same under both: the difference needs a hand these cards did not give.)")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def as_json(report: Report) -> dict[str, Any]:
    a = report.a
    ea = Engine(a)

    def moves(ms: tuple[Move, ...]) -> list[str]:
        return [format_move(m, ea.deck) for m in ms]

    diffs = []
    for d in report.diffs:
        entry: dict[str, Any] = {"settings": [".".join(p) for p in d.paths], "a": d.a, "b": d.b,
                                 "in_play": d.in_play, "no_effect": d.moot,
                                 "no_effect_because": d.moot_why or None,
                                 "no_position_because": not_in_a_position(d),
                                 "read_under_other": [{"variant": r.variant, "setting_of": r.setting_of,
                                                       "depends_on": list(r.depends_on), "words": r.words}
                                                      for r in d.read_under]}
        if d.key in report.found:
            f = report.found[d.key]
            entry["position"] = None if f is None else {
                "players": f.position.players, "partners": f.position.partners,
                "table": [str(c) for c in f.position.table],
                "builds": [{"cards": [str(c) for c in cs], "value": v, "owner": o} for cs, v, o in f.position.builds],
                "hand": [str(c) for c in (f.position.hands or {}).get(f.position.to_play, ())],
                "captured": {str(s): [str(c) for c in cs] for s, cs in (f.position.captured or {}).items()},
                "last_deal": f.position.stock is not None and not f.position.stock,
                "only_a": moves(f.only_a), "only_b": moves(f.only_b), "tried": f.tried,
                "from": "worked example" if f.example else "random positions"}
        diffs.append(entry)
    return {"a": a.name, "b": report.b.name, "differences": diffs, "no_positions_because": report.why_none or None,
            "sample_hand": report.scoring}
