"""A variant's rules as frozen, typed values.

Built once from a validated, defaults-filled variant mapping; the engine reads
only these objects, never raw dicts. Field names follow the schema's setting
names (``schema/variant.schema.json`` documents each one), so a reader can go
from a line of a variant file to the field the engine reads in one step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping


def _values(raw: Any) -> tuple[int, ...]:
    """A capture value as written (number, list, or null) as a tuple; () means no value."""
    if raw is None:
        return ()
    if isinstance(raw, list):
        return tuple(raw)
    return (int(raw),)


@dataclass(frozen=True)
class RankRule:
    rank: str
    name: str
    values: tuple[int, ...]


@dataclass(frozen=True)
class SuitRule:
    letter: str
    name: str
    symbol: str
    colour: str


@dataclass(frozen=True)
class CardValueRule:
    card: str
    hand: tuple[int, ...] | None
    table: tuple[int, ...] | None


@dataclass(frozen=True)
class DeckRules:
    ranks: tuple[RankRule, ...]
    suits: tuple[SuitRule, ...]
    card_values: tuple[CardValueRule, ...]
    # Two packs (issue 27, Krypkasino): identical packs shuffled together; 1 is one pack.
    packs: int = 1


@dataclass(frozen=True)
class SeatRules:
    min_players: int
    max_players: int
    partnerships: str
    direction: str
    # Teams beyond four players (issue 27, Krypkasino): the counts that play in teams, and a team's size.
    partnership_players: tuple[int, ...] = (4,)
    team_size: int = 2

    def team_counts(self) -> tuple[int, ...]:
        """The counts of ``partnership_players`` this file seats (within ``min_players`` to ``max_players``): where
        teams may sit, unless ``partnerships`` is ``never``."""
        return tuple(n for n in self.partnership_players if self.min_players <= n <= self.max_players)

    def counts(self) -> str:
        """How many may play, in words for a message: "2 to 4", or "2" where there is one count (a reader of the
        research documentation met "hungarian is for 2 to 2 players")."""
        return str(self.min_players) if self.min_players == self.max_players else \
            f"{self.min_players} to {self.max_players}"


@dataclass(frozen=True)
class DealRules:
    table_cards: int
    hand_size: int
    packet: int
    redeal: str
    draw_after_play: bool
    short_stock: str
    # The Scopa family (issue 27): a misdeal by the initial table, the dealer's initial sweep.
    misdeal_cards: str = ""         # selector; "" means no misdeal rule
    misdeal_at_least: int = 3
    dealer_takes_total: bool = False
    # African Casino (issue 27): (players, hand_size, table_cards) rows overriding the two above.
    by_players: tuple[tuple[int, int, int], ...] = ()
    # The deal's order (issue 36): `before_dealer`, `after_players` or `first` (see the schema).
    table_order: str = "before_dealer"

    def for_players(self, players: int) -> tuple[int, int]:
        """(hand_size, table_cards) of a deal for ``players`` players (a `by_players` row, else the defaults)."""
        for n, hand_size, table_cards in self.by_players:
            if n == players:
                return hand_size, table_cards
        return self.hand_size, self.table_cards


@dataclass(frozen=True)
class CaptureRules:
    sums: bool
    several_groups: bool
    equal_cards: str
    valueless_cards: str
    equal_card_first: bool
    compulsory: str
    hand_cards_max: int
    hand_cards_combine: str
    total: int | None = None        # Escoba: played value + taken values = total
    # African Casino (issue 27): `opponents_top` puts the top card of each opposing side's pile in play.
    from_piles: str = "none"
    take_all: bool = False          # (issue 36) a capture takes all the played card can take
    # (issue 36) `taken` or `augment`: how an opposing pile's cards are used (see the schema).
    pile_cards: str = "taken"
    # `layout_or_played` or `layout`: whether the played card alone is a base for a pile card (see the schema).
    pile_base: str = "layout_or_played"
    # How many cards of one opposing pile a move may use under `augment` (see the schema).
    pile_reach: int = 4


@dataclass(frozen=True)
class BuildRules:
    allowed: bool
    multiple: bool
    raise_single: bool
    raise_own: bool
    raise_with_table_cards: bool
    add_sets: bool
    single_build_as_card: bool
    for_partner: bool
    continue_as_begun: bool
    valueless: str
    max_value: int | None
    owner_obligation: str
    keep_capturing_card: bool
    owner_obligation_in_last_deal: bool = True   # (issue 36) false: the obligation lapses once the stock is used up
    # African Casino's building (issue 36; the schema says each): a partner's build raised, another
    # side's build added to without capturing it, two builds of one value, two builds of one player.
    raise_partners: bool = True
    augment_opponents: bool = True
    one_per_value: bool = False
    one_per_player: bool = False
    # (issue 49) Turns of several actions: builds of cards in play alone, before or after the hand card.
    free_actions: bool = False
    # What a raise takes into the build besides the hand card: `sets`, `cards` (each worth the new value,
    # 000 rule 5.1) or `none` (see the schema).
    raise_takes_in: str = "sets"
    # (001 Taking In) Another side's build grows by the card from the hand alone: no loose card joins it.
    opponents_hand_only: bool = False
    # (the Khasino rules, 3.) With `for_partner`, a build may be raised to the partner's proven value too.
    raise_for_partner: bool = True


@dataclass(frozen=True)
class TrailRules:
    with_build: bool


@dataclass(frozen=True)
class SweepRules:
    cancel: bool
    on_last_play: bool
    residue_is_sweep: bool
    record_when_restricted: bool
    in_last_deal: bool = True       # a table emptied once the stock is used up is a sweep (Finnish: false)


@dataclass(frozen=True)
class SweepSize:
    min_cards: int
    max_cards: int | None
    points: int


@dataclass(frozen=True)
class ScoringItem:
    name: str
    count: str
    cards: str
    points: int
    ties: str
    event: str
    by_size: tuple[SweepSize, ...]
    first_play_points: int | None
    order: tuple[str, ...]
    at_end: bool = False            # counted only when the hand is over, even when points are pegged
    # `count: primiera` (the Scopa family): points per rank, and whether a side needs every suit.
    card_points: tuple[tuple[str, int], ...] = ()
    all_suits: bool = True
    # Negative games (issue 27, Krypkasino): a sweep's points to the side of the player just before.
    previous_player_points: int = 0
    # African Casino (issue 27): the numbers of sides for which the item is scored; () always.
    sides: tuple[int, ...] = ()
    # `count: at_least` (issue 36, pagat's South African Casino): the cards a side needs to score; None otherwise.
    at_least: int | None = None


@dataclass(frozen=True)
class CaptureEvent:
    name: str
    takes: tuple[str, ...]


@dataclass(frozen=True)
class ScoringRules:
    items: tuple[ScoringItem, ...]
    events: tuple[CaptureEvent, ...]
    when: str

    def item(self, name: str) -> ScoringItem | None:
        return next((i for i in self.items if i.name == name), None)


@dataclass(frozen=True)
class Lurch:
    below: int | None
    multiplier: int


@dataclass(frozen=True)
class GameRules:
    target: int | None
    score_mode: str
    both_reach: str
    count_out: tuple[str, ...]
    count_out_sweeps: str
    target_step: int
    claiming: bool
    lurch: Lurch
    play_out_hand: bool
    # Negative games (issue 27): `lowest` reads the points as penalties and the target as the loss limit.
    goal: str = "highest"


@dataclass(frozen=True)
class Restriction:
    score: int
    only: tuple[str, ...]


@dataclass(frozen=True)
class EndgameRules:
    restrictions: tuple[Restriction, ...]
    sweeps_from: int | None
    lifted_after_tie: bool
    sweeps_from_side: str = "own"   # whose score sweeps_from reads: `own` or `any` side's (Finnish)


@dataclass(frozen=True)
class ReadingRule:
    """A reading the file chose (issue 36): said wherever ``setting`` applies, while it is ``value``."""

    setting: str
    text: str
    source: str
    value: Any
    #: The other settings the reading's words assume (``also``), with the values it was written for: rules
    #: that change one of them (a house rule, or ``diff``'s rules rebuilt in memory) do not say it.
    assumes: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Rules:
    """Everything one variant says. Immutable; safe to share between games and processes."""

    name: str
    description: str
    source: str
    deck: DeckRules
    seats: SeatRules
    deal: DealRules
    capture: CaptureRules
    build: BuildRules
    trail: TrailRules
    sweeps: SweepRules
    scoring: ScoringRules
    game: GameRules
    endgame: EndgameRules
    #: The resolved settings as plain data (for game records: a replay carries its rules).
    data: Mapping[str, Any]
    #: The readings the file chose where its sources are silent or ambiguous (`readings:`).
    readings: tuple[ReadingRule, ...] = ()

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> "Rules":
        """Build from a validated mapping with every default filled in."""
        dk, st, dl, cp, bd = d["deck"], d["seats"], d["deal"], d["capture"], d["build"]
        sc, gm, eg = d["scoring"], d["game"], d["endgame"]
        return cls(
            name=d["name"],
            description=d.get("description", ""),
            source=d.get("source", ""),
            deck=DeckRules(
                ranks=tuple(RankRule(r["rank"], r.get("name", ""), _values(r["value"])) for r in dk["ranks"]),
                suits=tuple(SuitRule(s["letter"], s["name"], s.get("symbol", ""), s.get("colour", ""))
                            for s in dk["suits"]),
                card_values=tuple(CardValueRule(c["card"].upper(),
                                                _values(c["hand"]) if c.get("hand") is not None else None,
                                                _values(c["table"]) if c.get("table") is not None else None)
                                  for c in dk["card_values"]),
                packs=dk.get("packs", 1),
            ),
            seats=SeatRules(st["min_players"], st["max_players"], st["partnerships"], st["direction"],
                            tuple(st.get("partnership_players", [4])), st.get("team_size", 2)),
            deal=DealRules(dl["table_cards"], dl["hand_size"], dl["packet"], dl["redeal"],
                           dl["draw_after_play"], dl["short_stock"],
                           dl["misdeal"]["cards"], dl["misdeal"]["at_least"], dl["dealer_takes_total"],
                           tuple((r["players"],
                                  dl["hand_size"] if r.get("hand_size") is None else r["hand_size"],
                                  dl["table_cards"] if r.get("table_cards") is None else r["table_cards"])
                                 for r in dl["by_players"]),
                           dl["table_order"]),
            capture=CaptureRules(cp["sums"], cp["several_groups"], cp["equal_cards"], cp["valueless_cards"],
                                 cp["equal_card_first"], cp["compulsory"], cp["hand_cards"]["max"],
                                 cp["hand_cards"]["combine"], cp["total"], cp["from_piles"],
                                 cp["take_all"], cp["pile_cards"], cp["pile_base"],
                                 cp["pile_reach"]),
            build=BuildRules(bd["allowed"], bd["multiple"], bd["raise_single"], bd["raise_own"],
                             bd["raise_with_table_cards"], bd["add_sets"], bd["single_build_as_card"],
                             bd["for_partner"], bd["continue_as_begun"], bd["valueless"], bd["max_value"],
                             bd["owner_obligation"], bd["keep_capturing_card"], bd["owner_obligation_in_last_deal"],
                             bd["raise_partners"], bd["augment_opponents"], bd["one_per_value"],
                             bd["one_per_player"], bd["free_actions"], bd["raise_takes_in"],
                             bd["opponents_hand_only"], bd["raise_for_partner"]),
            trail=TrailRules(d["trail"]["with_build"]),
            sweeps=SweepRules(d["sweeps"]["cancel"], d["sweeps"]["on_last_play"],
                              d["sweeps"]["residue_is_sweep"], d["sweeps"]["record_when_restricted"],
                              d["sweeps"]["in_last_deal"]),
            scoring=ScoringRules(
                items=tuple(
                    ScoringItem(name, i["count"], i["cards"], int(i["points"]), i["ties"], i["event"],
                                tuple(SweepSize(r["min_cards"], r["max_cards"], r["points"]) for r in i["by_size"]),
                                i["first_play_points"], tuple(c.upper() for c in i["order"]), i["at_end"],
                                tuple((str(r), int(p)) for r, p in i["card_points"].items()), i["all_suits"],
                                i["previous_player_points"], tuple(i["sides"]),
                                None if i["at_least"] is None else int(i["at_least"]))
                    for name, i in sc["items"].items()),
                events=tuple(CaptureEvent(n, tuple(e["takes"])) for n, e in sc["events"].items()),
                when=sc["when"],
            ),
            game=GameRules(gm["target"], gm["score_mode"], gm["both_reach"], tuple(gm["count_out"]),
                           gm["count_out_sweeps"], gm["target_step"], gm["claiming"], Lurch(gm["lurch"]["below"], gm["lurch"]["multiplier"]),
                           gm["play_out_hand"], gm["goal"]),
            endgame=EndgameRules(tuple(Restriction(r["score"], tuple(r["only"])) for r in eg["restrictions"]),
                                 eg["sweeps_from"], eg["lifted_after_tie"], eg["sweeps_from_side"]),
            data=d,
            readings=tuple(ReadingRule(r["setting"], r["reading"], r.get("source", ""), r.get("value"),
                                       tuple(sorted((r.get("assumes") or {}).items())))
                           for r in d.get("readings", ())),
        )

    def partnership(self, players: int, requested: bool | None = None) -> bool:
        """Whether ``players`` seats play in teams under these rules (four players: 0+2, 1+3;
        ``seats.partnership_players`` and ``team_size`` say which other counts may, and how)."""
        if players not in self.seats.partnership_players or self.seats.partnerships == "never":
            return False
        if self.seats.partnerships == "always":
            return True
        return bool(requested)
