"""What one seat sees of a stepwise game, as text and as a fixed-size tensor.

Two kinds, as OpenSpiel names them:

- the *observation* (``perfect_recall=False``): the position now, as the seat sees it;
- the *information state* (``perfect_recall=True``): everything the seat has seen, in
  order. Its text is the full record (perfect recall: two histories the seat can tell
  apart never give the same text); its tensor adds to the observation the hand's
  history, one row per line of that record, as OpenSpiel's card games encode their
  play (a bounded history of who did what). So within a hand two information states
  share a tensor exactly when they share a text. Earlier hands of a whole game are
  summed up by the scores (they say nothing about the cards now hidden).

Without public information (``public=False``) the record keeps what the seat alone
knows: the cards dealt to it and its own moves.

``private`` says whose hidden cards are shown: ``"single"`` (the seat's own; the
default), ``"none"`` (public information only) or ``"all"`` (every hand: for
debugging and perfect-information baselines). ``public=False`` leaves the public
pieces out.

The tensor is a dict of named pieces (OpenSpiel's observer ``dict``) laid over one
flat float32 array. P seats, N cards, B build places, V build values, A actions.
A card plane has one place per card of the deck; with two packs (``deck.packs``) the
copies in one place are counted by identity, lowest first (``Encoding.canon``): place i
is a first copy of card i, place i + N/2 a second, whichever copies chance dealt, so a
tensor never tells what the seat's text does not:

=============  ===============  ==================================================
piece          shape            meaning
=============  ===============  ==================================================
seat           P                one-hot: whose view this is
to_play        P                one-hot: the seat to act (zeros at chance and end)
dealer         P                one-hot
hand_sizes     P                cards in each hand (a count)
table          N                loose table cards
builds         B x (N+P+V+1)    per build place: its cards, owner, value, multiple
captured       P x N            each seat's captured cards
build_holders  B x P            (only in partnerships under ``build.for_partner``) per build
                                place: the seat holding it, the one that must keep a card of
                                its value (a partner's where it was built for them, or added
                                to without such a card), public
proven         P x V            (likewise) the values each seat is proven to hold (it holds a
                                build of it, or built it and has played no card of it since):
                                a partner may build them for it
pile_tops      P x N            (only where capture piles are in play, African Casino) the
                                face-up top card of each seat's side's pile, public
pile_under     D-1 x P x N      (only where a move reaches under a pile's top, ``capture.pile_cards:
                                augment``, D = ``HandState.pile_reach``) plane d: the card d + 1
                                places below the top of each seat's side's pile, public
sweeps         P                each seat's sweeps still counting
scores         P                the score of each seat's side (below 0 where an item gives
                                negative points: the box's low bound is then -high)
stock          1                cards left to deal
hand_number    1                (whole games) which hand of the game this is, from 1
played         P x N            (information state) cards each seat played this hand
history        R x W            (information state) this hand's record, one row a line:
                                deal/move/claim flags, the seat (P), the move's hand
                                cards (N), kind (4), value (V), builds' cards (N: the
                                j-th of m builds' cards j / m), loose cards (N), cards
                                dealt to the table (N), cards dealt to each seat shown
                                (N per seat); under ``build.for_partner`` in partnerships
                                a last place, 1 where the build a move made is held by the
                                mover's partner; R = 2N + 1 rows
hand / hands   N / P x N        the seat's own hand / every hand (``private``)
move           A                the actions of the move being chosen (own, or all)
chosen_builds  N                (without public information) the cards of the builds
                                chosen so far in that move, the j-th of m j / m
=============  ===============  ==================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...engine.core import bits
from ...engine.movegen import popcount
from ...engine.moves import MoveKind
from ...engine.notation import cards_text
from .stepwise import KINDS, TABLE, Step, Table
from .utility_bounds import scores_can_fall

PRIVATE = ("single", "none", "all")


@dataclass(frozen=True)
class Kind:
    """Which view: OpenSpiel's IIGObservationType, in our words."""

    perfect_recall: bool = False
    private: str = "single"
    public: bool = True

    def __post_init__(self) -> None:
        if self.private not in PRIVATE:
            raise ValueError(f"private must be one of {', '.join(PRIVATE)}, not {self.private!r}")


class Layout:
    """The pieces of one kind of tensor for one table, and their bounds."""

    def __init__(self, table: Table, kind: Kind) -> None:
        self.table, self.kind = table, kind
        p, n = table.players, table.n_cards
        enc = table.encoding
        self.build_width = n + p + len(enc.values) + 1
        score_bound = float(table.hand_bound * table.max_hands)
        # Scores fall below 0 where an item gives negative points (a negative game's tabbe: the
        # player before a sweeper loses 5): the box then reaches as far below as above.
        lows = {"scores": -score_bound if scores_can_fall(table.rules) else 0.0}
        pieces: list[tuple[str, tuple[int, ...], float]] = [("seat", (p,), 1.0)]
        if kind.public:
            pieces += [("to_play", (p,), 1.0), ("dealer", (p,), 1.0), ("hand_sizes", (p,), float(n)),
                       ("table", (n,), 1.0), ("builds", (enc.max_builds, self.build_width), 1.0),
                       ("captured", (p, n), 1.0), ("sweeps", (p,), float(n)), ("scores", (p,), score_bound),
                       ("stock", (1,), float(n))]
            if table.setup.whole_game:   # which hand of the game this is (the text says it)
                pieces.append(("hand_number", (1,), float(table.max_hands)))
            if table.for_partner:   # who holds each build (a partner's, built for them or not taken over)
                pieces += [("build_holders", (enc.max_builds, p), 1.0),
                           ("proven", (p, len(enc.values)), 1.0)]   # ...and the values each seat is proven to hold
            if table.engine.piles_in_play:   # African Casino: the pile tops in play are public
                pieces.append(("pile_tops", (p, n), 1.0))
                if table.engine.pile_reach > 1:   # ...and the cards a move may reach under them, in order
                    pieces.append(("pile_under", (table.engine.pile_reach - 1, p, n), 1.0))
            if kind.perfect_recall:
                pieces.append(("played", (p, n), 1.0))
        self.shown_seats = [] if kind.private == "none" else list(range(p)) if kind.private == "all" else [-1]
        if kind.perfect_recall:
            # A row a deal and a row a move: at most n deals and n cards played; a turn of several actions
            # (build.free_actions) adds its ends and its builds of cards in play (room for 4n more).
            self.history_rows = (6 if table.engine.free_actions else 2) * n + 1
            self.history_width = 3 + p + n + len(KINDS) + len(enc.values) + 3 * n + n * len(self.shown_seats)
            if table.for_partner:   # a build move's last place: the build is held by the mover's partner
                self.history_width += 1
            pieces.append(("history", (self.history_rows, self.history_width), 1.0))
        if kind.private == "single":
            pieces += [("hand", (n,), 1.0), ("move", (enc.size,), 1.0)]
        elif kind.private == "all":
            pieces += [("hands", (p, n), 1.0), ("move", (enc.size,), 1.0)]
        if kind.private != "none" and not kind.public:
            # Without public information the builds' cards are nowhere else in the tensor, but the
            # text names those of the builds chosen so far ("build [3D 5H]").
            pieces.append(("chosen_builds", (n,), 1.0))
        self.pieces = pieces
        self._slices = []
        at = 0
        for name, shape, _ in pieces:
            size = int(np.prod(shape))
            self._slices.append((name, at, at + size, shape))
            at += size
        self.size = at
        #: Where each piece starts in the flat tensor.
        self._at: dict[str, int] = {name: a for name, a, _, _ in self._slices}
        self._pile_under_depth = table.engine.pile_reach - 1
        self._bytes = (self.size + 7) // 8   # (the places as the bits of one integer: ``_position_bits``)
        #: ``observe``'s last position: (game, deal, finished, ended, seat, tensor without the move).
        self._kept: tuple[Any, ...] | None = None
        self.high = np.concatenate([np.full(int(np.prod(shape)), hi, np.float32) for _, shape, hi in pieces])
        #: The lower bounds, piece by piece (0 but for scores that can fall below 0).
        self.low = np.concatenate([np.full(int(np.prod(shape)), lows.get(name, 0.0), np.float32)
                                   for name, shape, _ in pieces])

    def new(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """A flat zero tensor and named views into it."""
        flat = np.zeros(self.size, np.float32)
        return flat, self.views_of(flat)

    def views_of(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """The named pieces of a flat tensor of this layout, as views into it."""
        return {name: flat[a:b].reshape(shape) for name, a, b, shape in self._slices}

    def fill(self, step: Step, seat: int, flat: np.ndarray, views: dict[str, np.ndarray] | None = None) -> None:
        """Write what ``seat`` sees of ``step`` into the tensor made by :meth:`new` (``views``: its
        named pieces, made again where not given)."""
        flat.fill(0)
        self._fill_position(step, seat, flat, views)
        self._fill_move(step, seat, flat, views)

    def observe(self, step: Step, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """A new tensor of what ``seat`` sees of ``step`` (:meth:`fill`'s), or that tensor written
        into ``out``. Within a move only the actions chosen so far change, so the last call's
        position is kept and copied while the position (the game, the deal, the end) is the same
        object and the seat the same."""
        kept = self._kept
        game, deal, finished, ended = step.game, step.deal, step.finished, step.ended
        if kept is not None and kept[0] is game and kept[1] is deal and kept[2] is finished \
                and kept[3] == ended and kept[4] == seat:
            base = kept[5]
        else:
            base = self._new_position(step, seat)
            self._kept = (game, deal, finished, ended, seat, base)
        if out is None:
            out = base.copy()
        else:
            out[:] = base
        self._fill_move(step, seat, out, None)
        return out

    def _fill_position(self, step: Step, seat: int, flat: np.ndarray, views: dict[str, np.ndarray] | None) -> None:
        """Everything but the move being chosen, into a zero tensor."""
        ones, places, counts = self._position_bits(step, seat)
        flat[:] = self._unpack(ones)
        for k, count in zip(places, counts):
            flat[k] = count
        if "history" in self._at:
            self._history(step, seat, (views or self.views_of(flat))["history"])

    def _new_position(self, step: Step, seat: int) -> np.ndarray:
        """:meth:`_fill_position`'s tensor, made new."""
        ones, places, counts = self._position_bits(step, seat)
        flat = self._unpack(ones)
        for k, count in zip(places, counts):   # (a few: one at a time costs less than numpy's lists)
            flat[k] = count
        if "history" in self._at:
            self._history(step, seat, self.views_of(flat)["history"])
        return flat

    def _unpack(self, ones: int) -> np.ndarray:
        """The bits of ``ones`` as this layout's places, 0 or 1: a new float32 tensor."""
        return np.unpackbits(np.frombuffer(ones.to_bytes(self._bytes, "little"), np.uint8), count=self.size,
                             bitorder="little").astype(np.float32)

    def _position_bits(self, step: Step, seat: int) -> tuple[int, list[int], list[float]]:
        """Everything but the move being chosen and the history: the places that are 1, as the bits
        of one integer (a card plane is a mask shifted to its place: one integer operation, not a
        place a card), and the places that hold a count, with their counts."""
        t = self.table
        enc = t.encoding
        canon = enc.canon     # two packs: copies by identity, never by which one was dealt
        copies = enc.copies
        at = self._at
        hand = step.view_hand()
        ones = 1 << (at["seat"] + seat)
        places: list[int] = []
        counts: list[float] = []
        if self.kind.public:
            n, p = t.n_cards, t.players
            to_play = step.to_play
            if to_play is not None:
                ones |= 1 << (at["to_play"] + to_play)
            ones |= 1 << (at["dealer"] + hand.dealer)
            k = at["hand_sizes"]
            for s, cards in enumerate(hand.hands):
                if cards:
                    places.append(k + s)
                    counts.append(popcount(cards))
            ones |= (canon(hand.table) if copies else hand.table) << at["table"]
            k = at["builds"]
            width = self.build_width
            values = enc.values
            for j, b in enumerate(hand.builds):
                row = k + j * width
                ones |= (canon(b.cards) if copies else b.cards) << row
                ones |= 1 << (row + n + b.owner) | 1 << (row + n + p + values.index(b.value))
                if b.multiple:
                    ones |= 1 << (row + width - 1)
            if "build_holders" in at:
                k = at["build_holders"]
                for j, b in enumerate(hand.builds):
                    ones |= 1 << (k + j * p + b.holder)
            if "proven" in at and hand.proven:
                k = at["proven"]
                for s, held in enumerate(hand.proven):
                    for v in held:
                        ones |= 1 << (k + s * len(values) + values.index(v))
            k = at["captured"]
            for s, pile in enumerate(hand.piles):
                if pile:
                    ones |= (canon(pile) if copies else pile) << (k + s * n)
            if "pile_tops" in at and hand.stacks:
                under = at.get("pile_under")
                depth = self._pile_under_depth
                for s in range(p):
                    stack = hand.stacks[hand.teams[s]]
                    if stack:
                        ones |= canon(1 << stack[-1]) << (at["pile_tops"] + s * n)
                    if under is not None:
                        for d, card in enumerate(reversed(stack[-depth - 1:-1])):
                            ones |= canon(1 << card) << (under + (d * p + s) * n)
            if hand.sweeps:
                k = at["sweeps"]
                swept = [0] * p
                for w in hand.sweeps:
                    if not w.cancelled:
                        swept[w.seat] += 1
                for s in range(p):
                    if swept[s]:
                        places.append(k + s)
                        counts.append(swept[s])
            k = at["scores"]
            scores = step.game.scores
            for s in range(p):
                score = scores[hand.teams[s]]
                if score:
                    places.append(k + s)
                    counts.append(score)
            if hand.stock:
                places.append(at["stock"])
                counts.append(len(hand.stock))
            if "hand_number" in at:
                places.append(at["hand_number"])
                counts.append(step.hand_no)
            if "played" in at:
                k = at["played"]
                for s, cards in enumerate(step.played):
                    if cards:
                        ones |= (canon(cards) if copies else cards) << (k + s * n)
        if "hand" in at:
            cards = hand.hands[seat]
            ones |= (canon(cards) if copies else cards) << at["hand"]
        elif "hands" in at:
            k = at["hands"]
            n = t.n_cards
            for s, cards in enumerate(hand.hands):
                if cards:
                    ones |= (canon(cards) if copies else cards) << (k + s * n)
        return ones, places, counts

    def _fill_move(self, step: Step, seat: int, flat: np.ndarray, views: dict[str, np.ndarray] | None) -> None:
        """The actions of the move being chosen (where the view shows them), into :meth:`_fill_position`'s tensor."""
        if not step.prefix:
            return
        shows_move = self.kind.private == "all" or (self.kind.private == "single" and step.to_play == seat)
        if not shows_move:
            return
        move = self._at["move"]
        for a in step.prefix:   # (a few: one at a time costs less than numpy's lists)
            flat[move + a] = 1
        if "chosen_builds" in self._at:
            enc = self.table.encoding
            builds = step.view_hand().builds
            chosen = [builds[a - enc.BUILD].cards for a in step.prefix if enc.BUILD <= a < enc.LOOSE]
            self._groups((views or self.views_of(flat))["chosen_builds"], chosen)

    def _history(self, step: Step, seat: int, rows: np.ndarray) -> None:
        """One row per line of this hand's record (see the module's table)."""
        t = self.table
        canon = t.encoding.canon
        n, p = t.n_cards, t.players
        values = t.encoding.values
        seat_at, played_at = 3, 3 + p
        kind_at = played_at + n
        value_at = kind_at + len(KINDS)
        builds_at = value_at + len(values)
        loose_at = builds_at + n
        table_at = loose_at + n
        dealt_at = table_at + n
        shown = {(seat if s == -1 else s): dealt_at + k * n for k, s in enumerate(self.shown_seats)}
        for r, event in enumerate(self._hand_events(step, seat)):
            if r >= len(rows):
                break   # (beyond the rows a hand is given room for: none reached in play so far)
            row = rows[r]
            if event[0] == "deal":
                row[0] = 1
                dealt: dict[int, int] = {}
                for to, card in event[1]:
                    dealt[to] = dealt.get(to, 0) | 1 << card
                for to, cards in dealt.items():
                    if to == TABLE:
                        if self.kind.public:
                            _set(row[table_at:table_at + n], canon(cards))
                    elif to in shown:
                        _set(row[shown[to]:shown[to] + n], canon(cards))
            elif event[0] == "move":
                _, who, move, holder = event
                row[1] = 1
                row[seat_at + who] = 1
                _set(row[played_at:played_at + n], canon(move.played))
                # (The end of a turn of several actions is a trail of no card, as its action is.)
                row[kind_at + (0 if move.kind is MoveKind.END else KINDS.index(move.kind))] = 1
                if move.value is not None:
                    row[value_at + values.index(move.value)] = 1
                self._groups(row[builds_at:builds_at + n], self._in_order(move.builds))
                _set(row[loose_at:loose_at + n], canon(move.loose))
                if holder >= 0:
                    row[-1] = 1
            else:
                row[2] = 1
                row[seat_at + event[1]] = 1

    def _in_order(self, builds: tuple[int, ...]) -> list[int]:
        """A move's builds in an order their cards' names give (never their copies')."""
        deck = self.table.engine.deck
        size = self.table.encoding.pack_size
        return sorted(builds, key=lambda b: sorted((deck.rank_index[i], i % size) for i in bits(b)))

    def _groups(self, row: np.ndarray, builds: list[int]) -> None:
        """Several builds' cards in one card plane, each build told apart: the j-th of m builds'
        cards are j / m (one build: 1), so two ways to group the same cards never look alike.
        Two packs: each build's cards by identity, copies numbered after those of the builds
        before it."""
        enc = self.table.encoding
        taken = 0
        for j, cards in enumerate(builds, 1):
            mine = enc.canon_after(cards, taken) if enc.copies else cards
            taken |= mine
            if mine:
                row[bits(mine)] = j / len(builds)

    def _hand_events(self, step: Step, seat: int) -> list[tuple[Any, ...]]:
        """This hand's deals, moves (with their Move) and claims, as the record shows them."""
        moves = [x for what, x in step.trace if what == "move"]
        start = max((k for k, e in enumerate(step.log) if e[0] == "hand"), default=-1) + 1
        out: list[tuple[Any, ...]] = []
        k = 0
        for entry in step.log[start:]:
            if entry[0] == "deal":
                out.append(entry)
            elif entry[0] == "move":
                if self.kind.public or entry[1] == seat:
                    out.append(("move", entry[1], moves[k], entry[3]))
                k += 1
            elif entry[0] == "claim" and (self.kind.public or entry[1] == seat):
                out.append(entry)
        return out

    # ------------------------------------------------------------------ text
    def text(self, step: Step, seat: int) -> str:
        """The view as text: the position (observation) or the whole record (information state)."""
        if self.kind.perfect_recall:
            lines = [f"seat {seat}"] + self._record(step, seat)
            if self.kind.private == "all" and not self.kind.public:
                # The record leaves the other seats' moves out, but the tensor shows every hand now.
                hand = step.view_hand()
                lines += [f"hand of seat {s}: {self._cards(hand.hands[s])}" for s in range(hand.players)]
        else:
            lines = self._position(step, seat)
        if step.prefix and (self.kind.private == "all" or (self.kind.private == "single" and step.to_play == seat)):
            lines.append("choosing: " + ", ".join(step.describe(a) for a in step.prefix))
        if step.ended and self.kind.public:
            lines.append("over: " + " ".join(f"{r:+g}" for r in step.returns()))
        return "\n".join(lines)

    def _cards(self, mask: int) -> str:
        """Cards by name, in the order of their names (two packs: not of the copies dealt)."""
        return " ".join(cards_text(self.table.engine.deck, self.table.encoding.canon(mask))) or "-"

    def _shows(self, seat: int, other: int) -> bool:
        return self.kind.private == "all" or (self.kind.private == "single" and other == seat)

    def _position(self, step: Step, seat: int) -> list[str]:
        hand, game = step.view_hand(), step.game
        lines = [f"seat {seat}"]
        if self.kind.public:
            turn = "chance" if step.chance else "over" if step.ended else f"seat {step.to_play} to play"
            if hand.turn_card and not step.chance and not step.ended:   # (build.free_actions: the turn goes on)
                turn += f" (played {self._cards(hand.turn_card)} this turn)"
            lines.append(f"hand {step.hand_no}, deal {hand.deal_no}, dealer seat {hand.dealer}, {turn}, "
                         f"stock {len(hand.stock)}, scores {' '.join(map(str, game.scores))}")
            lines.append(f"table: {self._cards(hand.table)}")
            for b in hand.builds:
                held = f", held by seat {b.holder}" if b.holder != b.owner else ""
                lines.append(f"  build [{self._cards(b.cards)}] of {b.value}, "
                             f"{'multiple' if b.multiple else 'single'}, owner seat {b.owner}{held}")
            for s in range(hand.players):
                sweeps = sum(1 for w in hand.sweeps if w.seat == s and not w.cancelled)
                top = ""
                if hand.stacks and hand.stacks[hand.teams[s]]:   # African Casino: the side's face-up top
                    stack = hand.stacks[hand.teams[s]]
                    top = f", pile top {self._cards(1 << stack[-1])}"
                    under = list(reversed(stack[-hand.pile_reach:-1])) if hand.pile_reach > 1 else []
                    if under:   # the cards a move may reach under it, in order (capture.pile_cards: augment)
                        top += ", under it " + " ".join(self._cards(1 << c) for c in under)
                proven = ""
                if hand.proven and hand.proven[s]:   # (build.for_partner: values a partner may build for it)
                    proven = ", proven to hold " + " ".join(map(str, sorted(hand.proven[s], key=str)))
                lines.append(f"seat {s}: {bin(hand.hands[s]).count('1')} in hand, "
                             f"taken {self._cards(hand.piles[s])}{top}, sweeps {sweeps}{proven}")
        for s in range(hand.players):
            if self._shows(seat, s):
                lines.append(f"hand of seat {s}: {self._cards(hand.hands[s])}")
        return lines

    def _record(self, step: Step, seat: int) -> list[str]:
        lines = []
        public = self.kind.public
        for entry in step.log:
            what = entry[0]
            if what == "deal":
                lines.append("deal: " + self._dealt(entry[1], seat))
            elif not public and not (what in ("move", "claim") and entry[1] == seat):
                continue
            elif what == "hand":
                lines.append(f"hand {entry[1]}, dealer seat {entry[2]}")
            elif what == "move":
                lines.append(f"seat {entry[1]}: {entry[2]}" + (f", for seat {entry[3]}" if entry[3] >= 0 else ""))
            elif what == "claim":
                lines.append(f"seat {entry[1]} claims")
            elif what == "scores":
                lines.append(f"scores {' '.join(map(str, entry[1]))}")
        d = step.deal
        if d is not None and d.chosen:   # a deal under way (chance nodes): the cards chosen so far
            lines.append("dealing: " + self._dealt(tuple(zip(d.to, d.chosen)), seat))
        return lines

    def _dealt(self, pairs: tuple[tuple[int, int], ...], seat: int) -> str:
        """A deal's cards as ``seat`` sees them: the table's and its own (every seat's where
        ``private`` is all), and how many each other seat got."""
        public = self.kind.public
        parts: dict[int, int] = {}
        for to, card in pairs:
            parts[to] = parts.get(to, 0) | 1 << card
        words = []
        for to in sorted(parts):
            if to == TABLE:
                if public:
                    words.append(f"table {self._cards(parts[to])}")
            elif self._shows(seat, to):
                words.append(f"seat {to} {self._cards(parts[to])}")
            elif public:
                words.append(f"seat {to} {len(bits(parts[to]))} cards")
        return "; ".join(words)


def _set(row: np.ndarray, mask: int) -> None:
    if mask:
        row[bits(mask)] = 1
