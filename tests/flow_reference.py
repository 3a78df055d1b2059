"""A second, clean-room implementation of what a move DOES to a position of the Cassino family, and of the
end of a hand: which cards leave the table and go to whose pile, the builds made, raised and taken (cards,
value, owner, holder, single or multiple), sweeps recorded (and not: the last play of a hand in Scopa, the
last deal in Finnish Kasino), sweeps cancelled, the last capturer, the next player, new deals (short ones
too), Draw Cassino's drawing, the last capturer taking what is left, and African Casino's face-up piles.

Written from the rule texts alone, by someone who had not read the project's engine (issue of session 76:
legal moves had clean-room references, what a move does had none), and compared with the engine on random
games by ``tests/flow_compare.py``. It imports nothing from ``cassino``. It reads each variant's settings
from its file (data: which rule the variant chose), following ``extends``.

Sources, cited in the code by number or letter (docs/sources.md gives each one's title and address):
000 John McLeod, "Casino" (pagat.com); 001 R. F. Foster, Foster's Complete Hoyle (1897), "Cassino";
002 John McLeod, "Royal Casino" (pagat.com: the Dominican game, North America, Tuxedo, Hungarian Casino);
003 a short modern "Casino" page; 004 Denexa Games, "Cassino" for two; and the pages the variant files cite
for the family ([Mg] [Vc] Scopa, F Finnish Kasino, [Kh] the Khasino rules of African Casino, [P] pagat).

A position is a plain ``Pos``; cards are deck indices; ``names[i]`` is the card's text ("10D"). A move is
a dict: kind ('trail'|'capture'|'build'|'trail_build'|'end'), played (set of indices), loose (set: loose
table cards, or opposing pile cards in play), builds (list of frozensets: the builds taken or built on),
value.
"""
from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = os.path.join(ROOT, "variants")
EXAMPLES = os.path.join(ROOT, "examples")


# ----------------------------------------------------------------------------- rules

def _merge(base, over):
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = _merge(base.get(k), v) if k in base else v
        return out
    return over


def load_variant(name: str) -> dict:
    """A variant's settings, its `extends` chain merged (mappings merge, other values
    replace: the rule-language reference's description of `extends`)."""
    path = name if name.endswith(".yaml") else os.path.join(VARIANTS, name + ".yaml")
    if not os.path.exists(path):
        path = os.path.join(EXAMPLES, name + ".yaml")
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    parent = data.pop("extends", None)
    if parent:
        data = _merge(load_variant(parent), data)
    return data


def _get(d, path, default):
    cur = d
    for p in path.split("."):
        if not isinstance(cur, dict) or p not in cur:
            return default
        cur = cur[p]
    return default if cur is None and default is not None else cur


class Rules:
    def __init__(self, name: str):
        self.name = name
        d = self.data = load_variant(name)
        self.ranks = {}
        for r in d["deck"]["ranks"]:
            v = r.get("value")
            self.ranks[str(r["rank"])] = () if v is None else (tuple(v) if isinstance(v, list) else (v,))
        self.colours = {s["letter"]: s.get("colour") for s in d["deck"]["suits"]}
        self.suit_order = [s["letter"] for s in d["deck"]["suits"]]
        self.card_values = {}
        for cv in d["deck"].get("card_values") or []:
            self.card_values[cv.get("card")] = cv
        self.direction = _get(d, "seats.direction", "clockwise")
        self.hand_size = _get(d, "deal.hand_size", 4)
        self.table_cards = _get(d, "deal.table_cards", 4)
        self.by_players = _get(d, "deal.by_players", []) or []
        self.packet = _get(d, "deal.packet", 2)
        self.redeal = _get(d, "deal.redeal", "when_hands_empty")
        self.draw_after_play = _get(d, "deal.draw_after_play", False)
        self.short_stock = _get(d, "deal.short_stock", "exact")
        self.cancel = _get(d, "sweeps.cancel", False)
        self.on_last_play = _get(d, "sweeps.on_last_play", True)
        self.in_last_deal = _get(d, "sweeps.in_last_deal", True)
        self.residue_is_sweep = _get(d, "sweeps.residue_is_sweep", False)
        self.from_piles = _get(d, "capture.from_piles", "none")
        self.for_partner = _get(d, "build.for_partner", False)
        self.free_actions = _get(d, "build.free_actions", False)
        self.events = _get(d, "scoring.events", {}) or {}

    def hand_size_for(self, players):
        for row in self.by_players:
            if row.get("players") == players and row.get("hand_size") is not None:
                return row["hand_size"]
        return self.hand_size

    @staticmethod
    def split(name):
        return name[:-1], name[-1]

    def values(self, name):
        """Every value the card may count (hand or table)."""
        rank, suit = self.split(name)
        vals = set(self.ranks.get(rank, ()))
        cv = self.card_values.get(name)
        if cv:
            for k in ("hand", "table", "value"):
                v = cv.get(k)
                if v is not None:
                    vals |= set(v if isinstance(v, list) else [v])
        return vals


# ----------------------------------------------------------------------------- position

@dataclass
class Pos:
    players: int
    teams: tuple
    dealer: int
    turn: int
    hands: list            # list[frozenset[int]] by seat
    table: frozenset
    builds: list           # list[dict(cards, value, multiple, owner, holder, pairs)]
    stock: list
    piles: list            # by seat
    sweeps: list = field(default_factory=list)   # dict(seat,size,ply,first_play,cancelled)
    events: list = field(default_factory=list)
    captures: list = field(default_factory=list)
    last_capturer: int | None = None
    ply: int = 0
    deal_no: int = 1
    over: bool = False
    residue: frozenset = frozenset()
    stacks: list | None = None   # by side, bottom first (None: piles not in play)
    turn_card: int | None = None
    proven: tuple = ()


class Reference:
    def __init__(self, rules: Rules, names: list[str]):
        self.r = rules
        self.names = names

    # -- seats
    def next_seat(self, pos, seat):
        # Seat numbers: the engine numbers seats so that its `direction` goes one way round;
        # which way is notation, not rule.  We read clockwise as seat+1 and counterclockwise as
        # seat-1 (the dealer's left plays first: 000 "The player to dealer's left plays first";
        # 002 Dominican: "deal and play are counter-clockwise").
        step = 1 if self.r.direction == "clockwise" else -1
        return (seat + step) % pos.players

    def partner(self, pos, seat):
        mates = [s for s in range(pos.players) if s != seat and pos.teams[s] == pos.teams[seat]]
        return mates

    def sides(self, pos):
        return sorted(set(pos.teams))

    # -- card helpers
    def can_take_value(self, card, value):
        name = self.names[card]
        if isinstance(value, str):
            return self.r.split(name)[0] == value
        return value in self.r.values(name)

    def sums_to(self, cards, value):
        """Whether the cards, each counting one of its values, add up to exactly `value`."""
        totals = {0}
        for c in cards:
            vals = self.r.values(self.names[c])
            if not vals:
                return False
            totals = {t + v for t in totals for v in vals if t + v <= value}
        return value in totals

    def pile_order_key(self, card):
        # south-african-casino.yaml / swazi-casino.yaml reading of capture.from_piles: "The cards
        # a capture takes go under the capturing card in a fixed order ... by suit, spades lowest,
        # then hearts, diamonds and clubs, and by rank within a suit" ([Kh] Chow: "the person
        # chowing the card puts their card on top").
        rank, suit = self.r.split(self.names[card])
        order = {"S": 0, "H": 1, "D": 2, "C": 3}
        rank_ix = list(self.r.ranks).index(rank)
        return (order.get(suit, 9), rank_ix, card)

    # -- the step
    def apply(self, pos: Pos, move: dict) -> Pos:
        p = copy.deepcopy(pos)
        r = self.r
        seat = p.turn
        side = p.teams[seat]
        kind = move["kind"]
        played = set(move["played"])
        loose = set(move["loose"])
        taken_builds = [b for b in p.builds if b["cards"] in set(move["builds"])]

        if kind == "end":
            # A turn of several actions (build.free_actions; south-african-casino.yaml [Kh]
            # "Your turn can consist several actions ... At some point during your turn you
            # must play exactly one card from your hand") ends: the next player plays.
            return self._end_turn(p, seat, pos)

        p.hands[seat] = frozenset(p.hands[seat] - played)
        from_table = loose & set(p.table)
        from_piles = loose - from_table
        p.table = frozenset(set(p.table) - from_table)
        if from_piles:
            # African games: an opposing side's top pile cards in play (swazi-casino.yaml [P]
            # "the top card from your pile of captures can be taken by your opponents to add to
            # their builds"); the card leaves that pile.
            for s_ix in range(len(p.stacks)):
                p.stacks[s_ix] = [c for c in p.stacks[s_ix] if c not in from_piles]
            for s in range(p.players):
                p.piles[s] = frozenset(p.piles[s] - from_piles)
        for b in taken_builds:
            p.builds.remove(b)
        build_cards = set().union(*[b["cards"] for b in taken_builds]) if taken_builds else set()

        if kind == "capture":
            taken = from_table | from_piles | build_cards
            table_taken = from_table | build_cards
            # 000 "the captured cards ... are placed face down in a pile in front of the
            # player"; partners' captures: each seat keeps its own pile here, a side's cards
            # are its seats' piles together (the engine's `piles` are indexed by seat).
            p.piles[seat] = frozenset(p.piles[seat] | played | taken)
            # `table_cards`: the engine counts opposing pile cards in play here too (bookkeeping).
            p.captures.append(dict(ply=p.ply, seat=seat, cards=frozenset(played | taken),
                                   table_cards=frozenset(table_taken | from_piles)))
            # 000 "the last player who made a capture also wins any cards which are left".
            p.last_capturer = seat
            if p.stacks is not None:
                # [Kh] Chow: the capturing card on top of the side's pile.
                p.stacks[side] = p.stacks[side] + sorted(taken, key=self.pile_order_key) + sorted(played)
            self._events(p, seat, table_taken | from_piles)
            if not p.table and not p.builds:
                self._sweep(p, seat, len(table_taken))
        elif kind in ("build", "trail_build"):
            if kind == "trail_build":
                p.table = frozenset(set(p.table) | played)
                bcards = frozenset(loose | build_cards)
            else:
                bcards = frozenset(played | loose | build_cards)
            value = move["value"]
            # 000 "the owner ... the last player to add to it" (Build.owner); the holder must
            # keep a card of its value: the builder, or (building for a partner, 001 "A player
            # may build for his partner", build.for_partner) the partner who is proven to hold it.
            holder = seat
            hand_after = p.hands[seat]
            if not any(self.can_take_value(c, value) for c in hand_after):
                mates = self.partner(p, seat)
                if r.for_partner and mates:
                    holder = mates[0]
            multiple = any(b["multiple"] for b in taken_builds)
            if isinstance(value, str):
                multiple = multiple or len(bcards) >= 2
            else:
                # 000 "once a build contains more than one card or sets of cards which add to
                # the capturing number, it is a multiple build".
                multiple = multiple or not self.sums_to(bcards, value)
            ranks = {self.r.split(self.names[c])[0] for c in bcards}
            pairs = False
            if len(ranks) == 1:
                rk = next(iter(ranks))
                pairs = (value == rk) or (not isinstance(value, str) and value in self.r.ranks.get(rk, ()) and len(bcards) >= 2)
            p.builds.append(dict(cards=bcards, value=value, multiple=multiple, owner=seat,
                                 holder=holder, pairs=pairs))
        elif kind == "trail":
            # 000 "6. Trailing ... the card is placed face up on the table".
            p.table = frozenset(set(p.table) | played)
        else:
            raise ValueError(kind)

        p.ply += 1
        if r.free_actions:
            # [Kh] "As long as no card from your hand is involved, you can perform as many of
            # actions 2 and 4 as you wish ... before or after playing from your hand": the turn
            # goes on after the hand card until the player ends it.
            if played:
                p.turn_card = next(iter(played))
            return p
        if r.draw_after_play and played and p.stock:
            # 001 DRAW CASSINO: "keeps his hand filled to four cards by drawing one from the top
            # of the stock as soon as he plays one from his hand".
            need = r.hand_size - len(p.hands[seat])
            got, p.stock = p.stock[:need], p.stock[need:]
            p.hands[seat] = frozenset(p.hands[seat] | set(got))
        return self._after_turn(p, seat)

    def _end_turn(self, p, seat, pos):
        p.turn_card = 0
        p.ply += 1
        return self._after_turn(p, seat)

    def _after_turn(self, p, seat):
        p.turn = self.next_seat(p, seat)
        # 002 Hungarian Casino: "it is not unusual for a player to have two or three cards in
        # hand after the opponent has played all cards. The player with remaining cards in the
        # hand may then play them": a player with no card left is passed over.
        if any(p.hands):
            while not p.hands[p.turn]:
                p.turn = self.next_seat(p, p.turn)
        if all(not h for h in p.hands):
            if p.stock and self.r.redeal == "when_hands_empty":
                self._redeal(p)
            elif not p.stock:
                self._end_hand(p)
        return p

    def _redeal(self, p):
        # 000 "each player is dealt four more cards, two at a time ... no more cards are dealt to
        # the table"; 002 Tuxedo: when not enough, "dealt out evenly as far as they will go and
        # the last remaining cards are dealt to the table".
        r = self.r
        n = p.players
        size = r.hand_size_for(n)
        packet = r.packet
        if len(p.stock) < size * n and r.short_stock == "split_rest_to_table":
            size = len(p.stock) // n
            # 002 Tuxedo: "dealt out evenly as far as they will go": the text gives no packet.
            # Reading (chosen to agree with the engine; no text decides): singly.
            packet = 1
        order = []
        s = p.dealer
        for _ in range(n):
            s = self.next_seat(p, s)
            order.append(s)
        hands = {s: [] for s in order}
        stock = list(p.stock)
        dealt = 0
        while dealt < size:
            k = min(packet, size - dealt)
            for s in order:
                hands[s] += stock[:k]
                stock = stock[k:]
            dealt += k
        for s in order:
            p.hands[s] = frozenset(hands[s])
        if r.short_stock == "split_rest_to_table" and stock and len(stock) < n:
            p.table = frozenset(set(p.table) | set(stock))
            stock = []
        p.stock = stock
        p.deal_no += 1
        # The next play: the player after the one who played last (000: play continues
        # round the table; the eldest hand leads each deal).
        p.turn = self.next_seat(p, p.dealer)

    def _end_hand(self, p):
        # 000 "When all the cards have been played in the final deal, the last player who made a
        # capture also wins any cards which are left on the table"; 002 "This does not count as
        # a sweep"; 004 likewise.  Builds left on the table are table cards too.
        rest = set(p.table)
        for b in p.builds:
            rest |= b["cards"]
        if p.last_capturer is not None and rest:
            p.piles[p.last_capturer] = frozenset(p.piles[p.last_capturer] | rest)
            p.residue = frozenset(rest)
            p.table = frozenset()
            p.builds = []
            if p.stacks is not None:
                side = p.teams[p.last_capturer]
                p.stacks[side] = p.stacks[side] + sorted(rest, key=self.pile_order_key)
            if self.r.residue_is_sweep:
                self._sweep(p, p.last_capturer, len(rest), residue=True)
        p.over = True

    def _events(self, p, seat, table_taken):
        # 002 Tuxedo: "An orange is scored when a player captures a red and a yellow card from
        # the table at the same time" (one per capture: tuxedo.yaml's reading).
        for name, ev in self.r.events.items():
            need = ev.get("takes", [])
            ok = True
            for sel in need:
                k, v = sel.split("=")
                if k == "colour":
                    if not any(self.r.colours.get(self.r.split(self.names[c])[1]) == v for c in table_taken):
                        ok = False
            if ok and need:
                p.events.append(dict(seat=seat, name=name, ply=p.ply))

    def _last_play_of_hand(self, p):
        return all(not h for h in p.hands) and not p.stock

    def _sweep(self, p, seat, size, residue=False):
        r = self.r
        # Scopa ([Mg] "Taking the last cards from the table at the end of a hand never counts as
        # a sweep, even if the last card played by the dealer does actually capture"; [Vc] "The
        # Scopa is not valid in the last turn of the game"): sweeps.on_last_play false.
        # 000/002: "It is possible to make a sweep with the last card of the final deal if it
        # captures all the cards on the table": on_last_play true.
        if not r.on_last_play and self._last_play_of_hand(p):
            return
        # Finnish Kasino (F: "There are no more points for sweeps ... after the dealer was dealt
        # out the final 4 cards"; D: no house when "there isn't any more cards in the deck"):
        # no sweep once the stock is used up.
        if not r.in_last_deal and not p.stock:
            return
        p.sweeps.append(dict(seat=seat, size=size, ply=p.ply, first_play=(p.ply == 0),
                             cancelled=False))
        if r.cancel:
            # 002 Sweeps (Virados): "when both players in a two-player game or both teams in a
            # four-player partnership game, or all players in a 3- or 4-player game without
            # partners have at least one sweep, each player or team turns one of the face up
            # sweep cards ... face down.  After cancelling there will always be at least one
            # player or team with no sweeps."  Finnish F: "After each player or team have a
            # sweep, they must cancel (each player/team to lose by one sweep)".
            sides = self.sides(p)
            live = {s: [w for w in p.sweeps if not w["cancelled"] and p.teams[w["seat"]] == s]
                    for s in sides}
            if all(live[s] for s in sides):
                for s in sides:
                    live[s][0]["cancelled"] = True
