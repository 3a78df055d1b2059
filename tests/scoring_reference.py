"""A second, clean-room implementation of Casino's HAND SCORING, from the rule texts alone.

Given a variant and a finished hand (each seat's captured cards, sweeps, capture events, the last
capturer, the scores before the hand), ``hand_points`` returns the points each side scores for the hand.
It imports nothing from ``cassino``; it is compared with the engine through ``cassino check`` on
scenario files whose ``expect: {hand_points: ...}`` it writes (``python tests/scoring_reference.py``).

Sources (files in /work/shared/rules-sources, cited by number; the variant files' own sources, quoted
from their comments, for the games beyond the seed texts)
------------------------------------------------------------------------------------------------------
000 pagat "Casino" (Scoring, Variations)   001 Foster's Hoyle 1897 "Cassino"   002 pagat "Royal Casino"
(Dominican, Soto, North America, Tuxedo, Hungarian, Ulmann)   003 a short modern "Casino"   004 Denexa
"Cassino" for two.  Beyond them (quoted in variants/*.yaml): scopa [Pg][Vc][Mg], escoba [St][Pc][Ap],
Kasino (Swedish S/P, Finnish F/W), Krypkasino / Kasino misar [P][M], African Casino [Kz][Kh].

Rules (R-numbers are used in the code)
--------------------------------------
R1  000 Scoring: "whoever has the Most Cards gets three points; whoever has Most Spades is one point;
    each Ace is worth one point ...; the ten of diamonds ... two points; the two of spades ... one point."
R2  000 Scoring: "If there is a tie for most cards or most spades, no one gets those points." (001
    Showing: "If it is a tie, neither scores.")  With 3+ sides: only a single side with strictly the most
    scores (002 Dominican: "if there is a tie for most cards or ... for most spades no one gets those").
R3  Sweeps. 000 Variations: "Many people play that a Sweep is worth one point" (house rule sweeps-score,
    count-out, points-as-earned); standard/royal score none (002 North America 3: "often played without
    a score for sweeps"). 001 "A Sweep of all the cards on the table. 1"; 003 "a point for every sweep";
    004 "Each sweep - one point"; 002 Dominican "Each sweep that has not been cancelled: 1 point".
R4  Cancelling. 002 Dominican: "when both players in a two-player game or both teams ..., or all players
    in a 3- or 4-player game without partners have at least one sweep, each ... turns one of the face up
    sweep cards ... face down": net sweeps = own - min over sides. 001 "Sweeps made by opposite sides are
    sometimes turned down to cancel one another" (house rule hoyle-sweeps-cancel). Finnish F: "After each
    player or team have a sweep, they must cancel".
R5  Dominican endgame, 002: "A player or team that has a score of 18 can only win by capturing most
    cards", "19 ... only by taking the 10 of Diamonds", "20 ... only by capturing most Spades"; "If they do
    not meet the criterion, then the opponents score normally"; "A player or team with 18 or more points
    cannot score for sweeps, but can still use sweeps to cancel". A restricted side scores only its item.
    Soto: "16 can only score for capturing most cards (3 points) or the 10 of Diamonds", "17 ... most cards
    (3 points) or most Spades"; "If they only score part of what they need, ... " (the part counts).
    After a tie past 21 "further deals are played without scoring restrictions" (restrictions_lifted).
    Option (002 "Some players do not allow a player or team under scoring restrictions to record any
    sweeps"): examples/dominican-restricted-no-sweeps.yaml - such a side's sweeps cancel nothing.
R6  Spade Cassino, 001: "every spade counts one point toward game. The spade Jack counts one in addition
    ... 24 points are made in every hand, exclusive of sweeps: Cards 3; Big Cassino 2; Little Cassino 1;
    the four Aces 4; the spade Jack 1, and 13 spades"; pegs "the sweeps" too (1 each).
R7  Tuxedo, 002: "Most cards: 15 points; Each "orange": 10 points; Each sweep of 4 or more cards: 10
    points; Each sweep of 3 or fewer cards: 5 points; Each Five: 5 points".
R8  Hungarian, 002: "3 points for most cards, 2 points for the 10 of Diamonds, and 1 point for most
    Spades, the 2 of Spades, each Ace and each sweep"; "if the cards are equally divided (26 each) the 3
    points for cards are not awarded". Ulmann 2: "If the non-dealer is able to sweep the four cards
    initially dealt to the table, capturing them all with the first play, this sweep scores 2 points".
R9  Scopa [Pg]: "1 for winning the most cards (no score if tied) / 1 for winning the most diamonds (no
    score if tied) / 1 for the sette bello"; primiera "Seven 21 ... Six 18 ... Ace 16 ... Five 15 ... Four
    14 ... Three 13 ... Two 12 ... K,Q,J 10 each", "A player who has taken cards in only three or fewer
    suits cannot compete for this point"; [Vc] each scopa "is worth 1 point". Scopone the same.
R10 Escoba [St]: "cartas", "oros", "setenta", "siete de oros" and "escoba", 1 each; [Pc] "If there is a
    tie in any category, none of the players are awarded points"; setenta as the primiera.
R11 Swedish Kasino S: "1 poäng för varje ess, för flest kort, för spader 2 och om du vann det sista
    kortet" and "2 poäng ... ruter 10 och flest spader"; P "points for emptying the table".
R12 Finnish Kasino F: "Highest cards - 1 point (not scored after there's a tie) Highest spades - 2
    points (shared and after there's a two-way tie ...) All aces - 1 point 2S - 1 point 10D - 2 points";
    "There's an extra point for each sweep"; "after any player has a score of 10 points or more, there
    are no more points for sweeps".
R13 Krypkasino / Kasino misar [P]: "the 10 of diamonds ... worth 3 points", "the 2 of spades ... worth 2
    points", "the aces and the other spades ... 1 point each", "The ace of spades scores 2 points"; [M] a
    sweeper "scores an extra 5 ... penalty points for a sweep (tabbe), but the previous player is rewarded
    with a balancing s[core]" (-5 to the player before in play order). Krypkasino: two packs, 42 points.
R14 African Casino [Kz]: "most cards = 2 points (if tied the players get equal cards 1-1)", "most spades
    = 2 points (if tied ... 1-1)", "Two of spades = 1 point", "Ten of diamonds = 2 points", "Aces = 1 point
    each"; "If there are 3 players there are only 7 points", "4 players playing singles ... 7 points",
    "In case of 7 points, most cards and number of spades is neglected". Swazi: the same 2/2 ties 1-1
    (on the 52-card royal pack, its 10D/2S/aces unchanged).
R15 000 Variations: "award two points to the player with most cards and one point to the player who made
    the last capture" (examples/cards-two-last-capture.yaml).

Game results (``game_result``: scores and winner after the hand) follow G1-G6, written above
``GAMES`` below. Left out (hand points still compared): claiming and pegged games (hungarian,
hoyle-claiming, points-as-earned, spade: who wins depends on claims or on the order points came);
"undecided" -- two Dominican sides under restrictions both meeting their criterion (002 "the first to
meet the winning criterion wins", play order, not in a finished hand), and a count-out that sweeps
must decide among three or more sides or that takes two sides out at once on sweeps (the texts
speak of two sides, "the difference in the number of sweeps"); and ENGINE_ERRORS below.

Readings where a text is silent or ambiguous (D-numbers), with what the variant file takes
-------------------------------------------------------------------------------------------
D1  A tie for "most" among three or more sides: nobody (R2), unless the item is shared (D2).
D2  "ties 1-1" (R14, R12 spades) for a two-way tie; a three-way tie of 2 points cannot be shared in
    whole points: nobody (swazi/finnish files' readings say the same).
D3  Sweeps cancel by count (R4): the order of recording does not change the net number.
D4  Teams: a team's cards and sweeps are counted together (000 "Each player (or team) counts"); a
    team's points are its members' sum (Krypkasino's +5/-5 per seat); side = lowest seat.
D5  Tuxedo: a sweep's size is the number of table cards taken (the variant file's reading).
D6  Dominican: a restricted side that meets its item scores that item's points only (its other items
    and sweeps nothing); one that does not meet it scores 0. Soto: the listed items it makes, only.
D7  Scopa/escoba primiera with a side missing a suit: it cannot win; a tie for best: nobody.
D8  Finnish sweeps stop for everybody from a hand started with ANY side at 10 or more; a tie past 16
    does not bring them back (the variant file's reading: sweeps_from_side any, lifted_after_tie false).
D9  Eleven-difference / eleven-up: the hand's points are the points made (the difference is applied to
    the game score, not to ``hand_points``).
D11 A game of one hand (G6) tied: no winner. The texts do not say.
D12 The scores reported after a count-out (G2) are the totals counted when the game was decided (the
    count stops there); where sweeps decide, the side with more is counted the difference (001 "only the
    difference in the number of sweeps counts"), also under 000's "more sweeps wins" house rule. The
    texts say who wins, not what the score sheet then shows: this follows the engine's report, and only
    the winner is the texts'.
D10 South African five spades (house rule): each side holding five or more spades scores 1 (both may),
    and, as [Kz] says of the spades ("In case of 7 points, most cards and number of spades is
    neglected"), only with two sides. My first reading scored it with any number of sides; the house
    file says it keeps `sides: [2]` knowingly ("whether pagat's point is also scored with three players
    or four singles we could not read, so that is our reading"): its reading is followed.
"""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
import tempfile
from typing import Any, Callable

# ----------------------------------------------------------------------------------------------------
# Decks
STD_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
STD_SUITS = ["S", "H", "D", "C"]
DECK52 = [r + s for s in STD_SUITS for r in STD_RANKS]
DECK40_IT = [r + s for s in ["D", "H", "S", "C"] for r in ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]]
DECK40_SA = [r + s for s in STD_SUITS for r in STD_RANKS[:10]]
DECK_TUX = [str(n) + s for s in ["B", "R", "G", "Y"] for n in range(1, 11)]


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


# ----------------------------------------------------------------------------------------------------
# Per-variant rules. Each is a dict:
#  deck, packs, min/max players, partners ("never"/"optional"/"always"), team_size,
#  items: list of (kind, args); sweep_points; cancel; endgame...

def _std_items(cards=3, spades=1, tie="nobody", sides=None):
    return [
        ("most", dict(name="cards", test=lambda c: True, points=cards, ties=tie, sides=sides)),   # R1 R2
        ("most", dict(name="spades", test=lambda c: suit(c) == "S", points=spades, ties=tie, sides=sides)),
        ("each", dict(name="big_casino", test=lambda c: c == "10D", points=2)),
        ("each", dict(name="little_casino", test=lambda c: c == "2S", points=1)),
        ("each", dict(name="aces", test=lambda c: rank(c) == "A", points=1)),
    ]


def _base(**kw):
    d = dict(deck=DECK52, packs=1, min_players=2, max_players=4, partners="optional", partner_counts=(4,),
             team_size=2, items=_std_items(), sweep_points=0, cancel=False, restrictions=None,
             sweeps_from=None, sweeps_from_any=False, lifted_after_tie=True, record_restricted=True,
             tabbe=False, sizes=None, first_play_points=None, last_capture=0, oranges=0, direction=1)
    d.update(kw)
    return d


PRIMIERA = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "J": 10, "Q": 10, "K": 10}


def _scopa_items(cards_name="cards", coins_name="coins", seven_name="settebello", prim_name="primiera"):
    return [                                                                                  # R9 / R10
        ("most", dict(name=cards_name, test=lambda c: True, points=1, ties="nobody", sides=None)),
        ("most", dict(name=coins_name, test=lambda c: suit(c) == "D", points=1, ties="nobody", sides=None)),
        ("each", dict(name=seven_name, test=lambda c: c == "7D", points=1)),
        ("primiera", dict(name=prim_name, points=1)),
    ]


_DOM_RESTRICT = {18: ("cards",), 19: ("big_casino",), 20: ("spades",)}
_SOTO_RESTRICT = {16: ("cards", "big_casino"), 17: ("cards", "spades"), **_DOM_RESTRICT}

_KRYP_ITEMS = [                                                                                   # R13
    ("each", dict(name="storan", test=lambda c: c == "10D", points=3)),
    ("each", dict(name="lillan", test=lambda c: c == "2S", points=2)),
    ("each", dict(name="aces", test=lambda c: rank(c) == "A", points=1)),
    ("each", dict(name="spades", test=lambda c: suit(c) == "S" and c != "2S", points=1)),
]

RULES: dict[str, dict[str, Any]] = {
    "standard": _base(),
    "draw": _base(),
    "hoyle": _base(sweep_points=1),                                                         # R3 (001)
    "face-builds": _base(sweep_points=1),                                                   # R3 (003)
    "two-handed": _base(max_players=2, partners="never", sweep_points=1),                   # R3 (004)
    "royal": _base(),                                                                       # R3 (002 NA)
    "dominican": _base(partners="always", sweep_points=1, cancel=True,                     # R3 R4 R5
                       restrictions=_DOM_RESTRICT, sweeps_from=18, direction=-1),
    "dominican-soto": _base(partners="always", sweep_points=1, cancel=True,
                            restrictions=_SOTO_RESTRICT, sweeps_from=18, direction=-1),
    "spade": _base(items=[                                                                  # R6
        ("most", dict(name="cards", test=lambda c: True, points=3, ties="nobody", sides=None)),
        ("each", dict(name="spades", test=lambda c: suit(c) == "S", points=1)),
        ("each", dict(name="jack_of_spades", test=lambda c: c == "JS", points=1)),
        ("each", dict(name="big_casino", test=lambda c: c == "10D", points=2)),
        ("each", dict(name="little_casino", test=lambda c: c == "2S", points=1)),
        ("each", dict(name="aces", test=lambda c: rank(c) == "A", points=1)),
    ], sweep_points=1),
    "tuxedo": _base(deck=DECK_TUX, max_players=6, partners="never", items=[                  # R7
        ("most", dict(name="cards", test=lambda c: True, points=15, ties="nobody", sides=None)),
        ("each", dict(name="fives", test=lambda c: rank(c) == "5", points=5)),
    ], sizes=((4, 10), (1, 5)), oranges=10),
    "hungarian": _base(max_players=2, partners="never", sweep_points=1),                    # R8
    "hungarian-ulmann": _base(max_players=2, partners="never", sweep_points=1, first_play_points=2),
    "scopa": _base(deck=DECK40_IT, items=_scopa_items(), sweep_points=1, direction=-1),      # R9
    "scopone": _base(deck=DECK40_IT, min_players=4, partners="always", items=_scopa_items(),
                     sweep_points=1, direction=-1),
    "escoba": _base(deck=DECK40_IT, items=_scopa_items("cartas", "oros", "siete_de_oros", "setenta"),
                    sweep_points=1, direction=-1, sweep_name="escobas"),                                          # R10
    "swedish-kasino": _base(items=_std_items(cards=1, spades=2), sweep_points=1, last_capture=1),  # R11
    "finnish-kasino": _base(items=[                                                         # R12
        ("most", dict(name="cards", test=lambda c: True, points=1, ties="nobody", sides=None)),
        ("most", dict(name="spades", test=lambda c: suit(c) == "S", points=2, ties="split", sides=None)),
        ("each", dict(name="big_casino", test=lambda c: c == "10D", points=2)),
        ("each", dict(name="little_casino", test=lambda c: c == "2S", points=1)),
        ("each", dict(name="aces", test=lambda c: rank(c) == "A", points=1)),
    ], sweep_points=1, cancel=True, sweeps_from=10, sweeps_from_any=True, lifted_after_tie=False),
    "krypkasino": _base(packs=2, max_players=6, partner_counts=(4, 6), items=_KRYP_ITEMS, tabbe=True),
    "kasino-misar": _base(max_players=6, partner_counts=(4, 6), items=_KRYP_ITEMS, tabbe=True),
    "south-african-casino": _base(deck=DECK40_SA, items=_std_items(cards=2, spades=2, tie="split",
                                                                   sides=2), direction=-1),  # R14
    "swazi-casino": _base(partners="always", items=_std_items(cards=2, spades=2, tie="split"),
                          direction=-1),
}

# House rules (examples/*.yaml) that change a hand's points, or the sides.
_EX = "examples/"
RULES[_EX + "sweeps-score.yaml"] = _base(sweep_points=1)                                  # R3
RULES[_EX + "count-out.yaml"] = _base(sweep_points=1)
RULES[_EX + "points-as-earned.yaml"] = _base(sweep_points=1)
RULES[_EX + "cards-two-last-capture.yaml"] = _base(items=_std_items(cards=2), last_capture=1)   # R15
RULES[_EX + "royal-sweeps.yaml"] = _base(sweep_points=1)
RULES[_EX + "hoyle-sweeps-cancel.yaml"] = _base(sweep_points=1, cancel=True)              # R4
RULES[_EX + "hoyle-claiming.yaml"] = _base(sweep_points=1)
RULES[_EX + "hoyle-each-hand.yaml"] = _base(sweep_points=1)
RULES[_EX + "hoyle-eleven-up.yaml"] = _base(max_players=2, partners="never", sweep_points=1)  # D9
RULES[_EX + "eleven-difference.yaml"] = _base(max_players=2, partners="never")              # D9
RULES[_EX + "fifty.yaml"] = _base()
RULES[_EX + "two-handed-eleven.yaml"] = RULES["two-handed"]
RULES[_EX + "face-builds-one-hand.yaml"] = RULES["face-builds"]
RULES[_EX + "dominican-restricted-no-sweeps.yaml"] = dict(RULES["dominican"], record_restricted=False)
RULES[_EX + "krypkasino-threes.yaml"] = dict(RULES["krypkasino"], min_players=6, partners="always",
                                            partner_counts=(6,), team_size=3)
RULES[_EX + "south-african-five-spades.yaml"] = dict(RULES["south-african-casino"], items=[
    ("most", dict(name="cards", test=lambda c: True, points=2, ties="split", sides=2)),
    ("at_least", dict(name="spades", test=lambda c: suit(c) == "S", points=1, n=5, sides=2)),  # D10
    ("each", dict(name="big_casino", test=lambda c: c == "10D", points=2)),
    ("each", dict(name="little_casino", test=lambda c: c == "2S", points=1)),
    ("each", dict(name="aces", test=lambda c: rank(c) == "A", points=1)),
])

VARIANTS = tuple(RULES)
DECLARED: tuple = ()
# Differences where I believe the ENGINE is wrong (the comparison leaves their game result out and
# says so; their hand points are still compared). Each: (name, reading, test(variant, case) -> bool).
ENGINE_ERRORS: tuple = ()
# (Was: "count-out-shared-point-by-seat": the engine gave a point shared 1-1 seat by seat in a count-out,
# lowest seat first, so seat 0 won when the shared point took both sides to the target, and the other
# side's shared point was left out of the scores. The engine now counts an item for every side at once; see
# D13 in _count_out.)


# ----------------------------------------------------------------------------------------------------
# Sides

def sides_of(variant: str, players: int, partners: bool | None) -> dict[int, int]:
    """seat -> side (the side's lowest seat)."""
    r = RULES[variant]
    if partners is None:
        partners = r["partners"] == "always" and players in r["partner_counts"]
    if not partners:
        return {s: s for s in range(players)}
    if r["team_size"] == 3:                     # krypkasino-threes: every other seat
        return {s: s % 2 for s in range(players)}
    half = players // 2                         # partners opposite (D4)
    return {s: s % half for s in range(players)}


def _expand(captured: dict[int, Any], deck: list[str], packs: int) -> dict[int, list[str]]:
    placed: list[str] = []
    rest_seat = None
    out: dict[int, list[str]] = {}
    for s, v in captured.items():
        if v == "rest":
            rest_seat = s
        else:
            out[s] = [normal(c) for c in v]
            placed += out[s]
    if rest_seat is not None:
        left = list(deck) * packs
        for c in placed:
            left.remove(c)
        out[rest_seat] = left
    return out


def normal(c: str) -> str:
    c = str(c).upper()
    if c.startswith("T"):
        c = "10" + c[1:]
    return c


# ----------------------------------------------------------------------------------------------------
# Scoring

def _sweep_list(v: Any) -> list[dict[str, Any]]:
    if isinstance(v, int):
        return [dict(size=None, first_play=False) for _ in range(v)]
    out = []
    for e in v:
        if isinstance(e, dict):
            out.append(dict(size=e.get("size"), first_play=bool(e.get("first_play", False))))
        else:
            out.append(dict(size=e, first_play=False))
    return out


def _most(values: dict[int, int], points: int, ties: str, sides_needed: int | None) -> dict[int, int]:
    out = {s: 0 for s in values}
    if sides_needed is not None and len(values) != sides_needed:      # R14 "most ... is neglected"
        return out
    best = max(values.values())
    top = [s for s, v in values.items() if v == best]
    if len(top) == 1:
        out[top[0]] = points                                           # R1
    elif ties == "split":                                              # R14 "1-1", D2
        for s in top:
            out[s] = points // len(top)
    return out                                                          # R2 ties: nobody


def _primiera(cards: list[str]) -> int | None:
    best: dict[str, int] = {}
    for c in cards:
        best[suit(c)] = max(best.get(suit(c), 0), PRIMIERA[rank(c)])
    if len(best) < 4:                                                   # R9, D7
        return None
    return sum(best.values())


def item_points(variant: str, case: dict[str, Any], endgame: bool = True) -> dict[int, dict[str, int]]:
    """Each side's points per item (sweeps after cancelling); with ``endgame`` false, before the
    endgame's "no points for sweeps" (R5, R12), as `cassino check`'s `items` shows them."""
    r = RULES[variant]
    players = int(case.get("players", r["min_players"]))
    side = sides_of(variant, players, case.get("partners"))
    sides = sorted(set(side.values()))
    piles = _expand(case.get("captured", {}), r["deck"], r["packs"])
    won = {t: [] for t in sides}
    for s, cards in piles.items():
        won[side[s]] += cards                                           # D4
    items: dict[int, dict[str, int]] = {t: {} for t in sides}
    for kind, a in r["items"]:
        if kind == "each":
            for t in sides:
                items[t][a["name"]] = a["points"] * sum(1 for c in won[t] if a["test"](c))
        elif kind == "most":
            res = _most({t: sum(1 for c in won[t] if a["test"](c)) for t in sides}, a["points"], a["ties"],
                        a["sides"])
            for t in sides:
                items[t][a["name"]] = res[t]
        elif kind == "at_least":
            if a["sides"] is not None and len(sides) != a["sides"]:
                for t in sides:
                    items[t][a["name"]] = 0
                continue
            for t in sides:
                items[t][a["name"]] = a["points"] if sum(1 for c in won[t] if a["test"](c)) >= a["n"] else 0
        elif kind == "primiera":
            pr = {t: _primiera(won[t]) for t in sides}
            ok = {t: v for t, v in pr.items() if v is not None}
            for t in sides:
                items[t][a["name"]] = 0
            if ok:
                best = max(ok.values())
                top = [t for t, v in ok.items() if v == best]
                if len(top) == 1:
                    items[top[0]][a["name"]] = a["points"]
    # sweeps (R3, R4, R7, R8, R13)
    sweeps = {s: _sweep_list(v) for s, v in (case.get("sweeps") or {}).items()}
    restricted = _restricted(variant, case, sides)
    side_sweeps: dict[int, list[dict[str, Any]]] = {t: [] for t in sides}
    for s in sorted(sweeps):
        if not r["record_restricted"] and side[s] in restricted:
            continue
        side_sweeps[side[s]] += sweeps[s]
    if r["cancel"]:
        m = min(len(v) for v in side_sweeps.values())                   # R4, D3
        # which entries are cancelled matters only for sizes / first play; none of the cancelling
        # variants scores those, so drop from the end.
        side_sweeps = {t: v[: len(v) - m] for t, v in side_sweeps.items()}
    sweep_name = "tabbe" if r["tabbe"] else r.get("sweep_name", "sweeps")
    for t in sides:
        pts = 0
        for e in side_sweeps[t]:
            if r["sizes"]:
                size = e["size"] or 0
                pts += next((p for lo, p in r["sizes"] if size >= lo), 0)
            elif e["first_play"] and r["first_play_points"]:
                pts += r["first_play_points"]
            else:
                pts += r["sweep_points"]
        items[t][sweep_name] = pts
    if r["tabbe"]:                                                      # R13: -5 to the previous player
        for s, lst in sweeps.items():
            prev = (s - r["direction"]) % players
            items[side[prev]][sweep_name] -= 5 * len(lst)
            items[side[s]][sweep_name] += 5 * len(lst)
    if endgame and r["sweeps_from"] is not None and not (r["lifted_after_tie"] and case.get("restrictions_lifted")):
        scores = case.get("scores") or {}
        if r["sweeps_from_any"]:
            if any(int(v) >= r["sweeps_from"] for v in scores.values()):     # R12, D8
                for t in sides:
                    items[t][sweep_name] = 0
        else:
            for t in sides:                                              # R5
                if int(scores.get(t, 0)) >= r["sweeps_from"]:
                    items[t][sweep_name] = 0
    if r["oranges"]:                                                    # R7
        ev = case.get("events") or {}
        for t in sides:
            items[t]["oranges"] = 0
        for s, lst in ev.items():
            items[side[s]]["oranges"] += r["oranges"] * sum(1 for e in lst if e == "orange")
    if r["last_capture"]:                                               # R11, R15
        lc = case.get("last_capture")
        for t in sides:
            items[t]["last_capture"] = r["last_capture"] if lc is not None and side[lc] == t else 0
    return items


def _restricted(variant: str, case: dict[str, Any], sides: list[int]) -> dict[int, tuple[str, ...]]:
    r = RULES[variant]
    if not r["restrictions"] or case.get("restrictions_lifted"):
        return {}
    scores = case.get("scores") or {}
    return {t: r["restrictions"][int(scores.get(t, 0))] for t in sides
            if int(scores.get(t, 0)) in r["restrictions"]}


def hand_points(variant: str, case: dict[str, Any]) -> dict[int, int]:
    items = item_points(variant, case)
    r = RULES[variant]
    players = int(case.get("players", r["min_players"]))
    sides = sorted(set(sides_of(variant, players, case.get("partners")).values()))
    restricted = _restricted(variant, case, sides)
    out = {}
    for t in sides:
        if t in restricted:                                             # R5, D6
            out[t] = sum(items[t].get(n, 0) for n in restricted[t])
        else:
            out[t] = sum(items[t].values())
    return out


# ----------------------------------------------------------------------------------------------------
# The game after the hand: scores and winner (G-numbers)
#
# G1 000 Scoring: "Whoever first reaches a total of 21 or more points, over however many rounds it takes,
#    wins the game. If two people reach the target on the same round, whoever has the higher score wins.
#    If there is a tie, another round is played."  (scopa [Mg] "If both sides reach 11 in the same hand
#    the side with more points wins"; the other targets as each variant's file quotes them.)
# G2 001 TWENTY-ONE POINT CASSINO: "the points count out in the following order:-Cards first, then
#    Spades, Big Cassino, Little Cassino, Aces, and Sweeps. If the Aces have to decide it, the spade Ace
#    goes out first, then clubs, hearts, and diamonds. If the sweeps have to decide it, only the
#    difference in the number of sweeps counts, and if there is none, or not enough, the game is not
#    ended" (hoyle; 002 North America 5 for royal and swazi; 000 Variations "the player or team with
#    more sweeps wins" for examples/count-out.yaml).
# G3 002 Dominican: a restricted side that meets its criterion "win[s] the game automatically,
#    irrespective of how many points the opponent(s) score"; Soto: "If a player or team with 16 or 17
#    scores all the required points in one deal they win the game irrespective of the opponents'
#    score". Two restricted sides meeting theirs: "the first to meet the winning criterion wins" -- play
#    order, which a finished hand does not show: not decided here (None).
# G4 000 Variations: "in each round the player with more points scores the difference"; 001 "If one
#    side reached 11 before the adversary reached 6, it was a lurch, and counted as a double game".
# G5 Krypkasino [P] "The aim is to take as few points as possible": the file's reading, the game ends
#    once a side has the target or more, and the lowest total wins; a tie for lowest plays on.
# G6 A game of one hand (001 "count every hand a game"; 003; [Kz]): the side with most points wins;
#    a tie: nobody (D11, not in the texts).
# Not decided here: claiming and pegged games (hungarian, hoyle-claiming, points-as-earned, spade),
# where who wins depends on claims or the order points were won.

GAMES: dict[str, dict[str, Any]] = {}
for _v in VARIANTS:
    GAMES[_v] = dict(target=21, mode="higher")
GAMES.update({
    "hoyle": dict(target=21, mode="count_out", sweeps="difference"),
    "royal": dict(target=21, mode="count_out", sweeps="points"),
    "swazi-casino": dict(target=21, mode="count_out", sweeps="points"),
    _EX + "royal-sweeps.yaml": dict(target=21, mode="count_out", sweeps="points"),
    _EX + "hoyle-sweeps-cancel.yaml": dict(target=21, mode="count_out", sweeps="difference"),
    _EX + "count-out.yaml": dict(target=21, mode="count_out", sweeps="more_wins"),
    _EX + "fifty.yaml": dict(target=50, mode="higher"),
    "two-handed": dict(target=21, mode="higher"),
    _EX + "two-handed-eleven.yaml": dict(target=11, mode="higher"),
    "tuxedo": dict(target=100, mode="higher"),
    "hungarian-ulmann": dict(target=11, mode="higher"),
    "scopa": dict(target=11, mode="higher"), "scopone": dict(target=11, mode="higher"),
    "escoba": dict(target=15, mode="higher"),
    "swedish-kasino": dict(target=16, mode="higher"), "finnish-kasino": dict(target=16, mode="higher"),
    "krypkasino": dict(target=42, mode="lowest"), _EX + "krypkasino-threes.yaml": dict(target=42, mode="lowest"),
    "kasino-misar": dict(target=21, mode="lowest"),
    "south-african-casino": dict(target=None, mode="one_hand"),
    _EX + "south-african-five-spades.yaml": dict(target=None, mode="one_hand"),
    _EX + "face-builds-one-hand.yaml": dict(target=None, mode="one_hand"),
    _EX + "hoyle-each-hand.yaml": dict(target=None, mode="one_hand"),
    _EX + "eleven-difference.yaml": dict(target=11, mode="difference", lurch=None),
    _EX + "hoyle-eleven-up.yaml": dict(target=11, mode="difference", lurch=6),
})
for _v in ("hungarian", "spade", _EX + "hoyle-claiming.yaml", _EX + "points-as-earned.yaml"):
    GAMES[_v] = dict(target=None, mode=None)


def _count_out(variant: str, case: dict[str, Any], before: dict[int, int], g: dict[str, Any]) -> Any:
    """G2: (winner, the counted totals) counting items in order until a side reaches the target;
    ("undecided", None) where a finished hand does not say (two sides at once)."""
    items = item_points(variant, case)
    sides = sorted(items)
    run = dict(before)
    target = g["target"]
    steps: list[dict[int, int]] = []
    for name in ("cards", "spades", "big_casino", "little_casino"):
        steps.append({t: items[t].get(name, 0) for t in sides})
    r = RULES[variant]
    captured = _expand(case.get("captured", {}), r["deck"], r["packs"])
    side = sides_of(variant, int(case.get("players", r["min_players"])), case.get("partners"))
    for ace in ("AS", "AC", "AH", "AD"):
        steps.append({t: sum(1 for s, cs in captured.items() if side[s] == t and ace in cs) for t in sides})
    for i, st in enumerate(steps):
        for t in sides:
            run[t] += st[t]
        reached = [t for t in sides if run[t] >= target]
        shared = i < 2 and sum(1 for t in sides if st[t] > 0) > 1     # a tie shared 1-1 (R14, D2)
        if len(reached) > 1 and shared:
            # D13: a shared point counts for both sides at once; when it takes both to the target neither
            # reached it first: no winner, another hand (000 "If there is a tie, another round is played",
            # 001 "another deal must be played"), the totals as counted before that point (swazi-casino.yaml
            # and the engine read it so; at first I expected the whole hand's totals, past the target,
            # from which no later count-out could start).
            return None, {t: run[t] - st[t] for t in sides}
        if len(reached) == 1:
            return reached[0], run
        if len(reached) > 1:
            return "undecided", None
    sw = {t: items[t].get("sweeps", 0) for t in sides}
    if g["sweeps"] == "points":
        for t in sides:
            run[t] += sw[t]
        reached = [t for t in sides if run[t] >= target]
        return (reached[0], run) if len(reached) == 1 else ("undecided", None)
    if len(sides) != 2:
        return "undecided", None
    a, b = sides
    if sw[a] == sw[b]:
        return None, run
    more, less = (a, b) if sw[a] > sw[b] else (b, a)
    run[more] += sw[more] - sw[less]                                    # D12
    if g["sweeps"] == "more_wins":
        return more, run
    return (more if run[more] >= target else None), run


def game_result(variant: str, case: dict[str, Any]) -> dict[str, Any] | None:
    """{"scores": ..., "winner": ...} after the finished hand, or None where not decided here."""
    g = GAMES[variant]
    if g["mode"] is None:
        return None
    pts = hand_points(variant, case)
    sides = sorted(pts)
    before = {t: int((case.get("scores") or {}).get(t, 0)) for t in sides}
    if g["mode"] == "one_hand":                                                   # G6
        best = max(pts.values())
        top = [t for t in sides if pts[t] == best]
        return {"winner": top[0] if len(top) == 1 else None}
    if g["mode"] == "difference":                                                 # G4
        a, b = sides
        after = dict(before)
        if pts[a] != pts[b]:
            hi, lo = (a, b) if pts[a] > pts[b] else (b, a)
            after[hi] += pts[hi] - pts[lo]
        won = [t for t in sides if after[t] >= g["target"]]
        out = {"scores": after, "winner": won[0] if won else None}
        if won and g["lurch"]:
            other = b if won[0] == a else a
            out["games_won"] = 2 if after[other] < g["lurch"] else 1
        return out
    after = {t: before[t] + pts[t] for t in sides}
    out: dict[str, Any] = {"scores": after}
    if g["mode"] == "lowest":                                                     # G5
        if max(after.values()) >= g["target"]:
            low = min(after.values())
            top = [t for t in sides if after[t] == low]
            out["winner"] = top[0] if len(top) == 1 else None
        else:
            out["winner"] = None
        return out
    restricted = _restricted(variant, case, sides)
    if restricted:                                                                # G3
        items = item_points(variant, case)
        met = [t for t, only in restricted.items() if all(items[t].get(n, 0) > 0 for n in only)]
        if len(met) > 1:
            return None
        if met:
            out["winner"] = met[0]
            return out
    reached = [t for t in sides if after[t] >= g["target"]]
    if len(reached) <= 1:
        out["winner"] = reached[0] if reached else None
        return out
    if g["mode"] == "count_out":                                                  # G2
        w, counted = _count_out(variant, case, before, g)
        if w == "undecided":
            return None
        return {"scores": counted, "winner": w}
    best = max(after[t] for t in reached)                                         # G1
    top = [t for t in reached if after[t] == best]
    out["winner"] = top[0] if len(top) == 1 else None
    return out


# ----------------------------------------------------------------------------------------------------
# Random finished hands

def random_case(variant: str, rng: random.Random, name: str) -> dict[str, Any]:
    r = RULES[variant]
    players = rng.randint(r["min_players"], r["max_players"])
    case: dict[str, Any] = {"name": name, "variant": variant, "players": players}
    partners = None
    if players in r["partner_counts"] and r["partners"] != "never":
        if r["partners"] == "always":
            partners = True
        else:
            partners = rng.random() < 0.5
        if partners:
            case["partners"] = True
    deck = list(r["deck"]) * r["packs"]
    rng.shuffle(deck)
    # a random partition, often near-even so that ties for most cards/spades happen
    style = rng.random()
    if style < 0.15:
        # round robin over the deck sorted by suit (random start, random runs): many ties for most
        # cards / spades / coins among 2-6 sides, and equal primiera totals
        deck.sort(key=lambda c: (suit(c), rng.random()))
        piles = [[] for _ in range(players)]
        seat = rng.randrange(players)
        for c in deck:
            piles[seat].append(c)
            if rng.random() < 0.9:
                seat = (seat + 1) % players
        cuts = None
    elif style < 0.4:
        cuts = sorted(rng.randint(0, len(deck)) for _ in range(players - 1))
    else:
        each = len(deck) // players
        cuts = [each * (i + 1) + rng.choice([0, 0, 0, 1, -1, 2]) for i in range(players - 1)]
        cuts = sorted(max(0, min(len(deck), x)) for x in cuts)
    if cuts is not None:
        bounds = [0] + cuts + [len(deck)]
        piles = [deck[bounds[i]:bounds[i + 1]] for i in range(players)]
    rest = rng.randrange(players)
    case["captured"] = {s: ("rest" if s == rest else piles[s]) for s in range(players)}
    # sweeps
    sw: dict[int, Any] = {}
    for s in range(players):
        n = rng.choice([0, 0, 0, 1, 1, 2, 3])
        if not n:
            continue
        if r["sizes"]:
            sw[s] = [rng.randint(1, 6) for _ in range(n)]
        elif r["first_play_points"] and s == 0 and rng.random() < 0.4:
            sw[s] = [{"size": 4, "first_play": True}] + [rng.randint(1, 5) for _ in range(n - 1)]
        else:
            sw[s] = n if rng.random() < 0.5 else [rng.randint(1, 5) for _ in range(n)]
    if sw:
        case["sweeps"] = sw
    if r["oranges"]:
        ev = {}
        for s in range(players):
            mine = piles[s] if s != rest else [c for c in r["deck"] if c not in sum(
                (piles[x] for x in range(players) if x != rest), [])]
            k = min(sum(1 for c in mine if suit(c) == "R"), sum(1 for c in mine if suit(c) == "Y"), 3)
            n = rng.randint(0, k)
            if n:
                ev[s] = ["orange"] * n
        if ev:
            case["events"] = ev
    if r["last_capture"] or rng.random() < 0.3:
        case["last_capture"] = rng.randrange(players)
    sides = sorted(set(sides_of(variant, players, partners).values()))
    if r["restrictions"] or r["sweeps_from"] is not None:
        hi = 20
        case["scores"] = {t: rng.choice([rng.randint(0, hi), rng.randint(max(0, (r["sweeps_from"] or 10) - 4), hi)])
                          for t in sides}
        if r["restrictions"] and rng.random() < 0.1:
            case["restrictions_lifted"] = True
    elif GAMES[variant]["target"] and GAMES[variant]["mode"] and rng.random() < 0.8:
        tg = GAMES[variant]["target"]
        near = {"difference": 10, "lowest": tg // 2}.get(GAMES[variant]["mode"], tg // 2)
        case["scores"] = {t: rng.randint(max(0, tg - near), tg - 1) for t in sides}
    return case


def _yaml_value(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, str)):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_yaml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_yaml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(v)


def variant_ref(variant: str, root: str) -> str:
    return os.path.join(root, variant) if variant.startswith(_EX) else variant


def case_yaml(case: dict[str, Any], expect: dict[str, Any], root: str) -> str:
    lines = [f"  - name: {case['name']}", f"    variant: {variant_ref(case['variant'], root)}"]
    for k in ("players", "partners", "scores", "restrictions_lifted", "last_capture", "sweeps", "events",
              "captured"):
        if k in case:
            lines.append(f"    {k}: {_yaml_value(case[k])}")
    lines.append(f"    expect: {_yaml_value(expect)}")
    return "\n".join(lines) + "\n"


def game_class(variant: str, case: dict[str, Any]) -> str | None:
    """Why game_result declines a case: "undecided", "claims", or None."""
    g = GAMES[variant]
    if g["mode"] is None:
        return "claims"
    if game_result(variant, case) is not None:
        return None
    if g["mode"] == "count_out":
        pts = hand_points(variant, case)
        before = {t: int((case.get("scores") or {}).get(t, 0)) for t in pts}
        return _count_out(variant, case, before, g)[0]
    return "undecided"


def full_expect(c: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"hand_points": hand_points(c["variant"], c),
                           "items": item_points(c["variant"], c, endgame=False)}
    out.update(game_result(c["variant"], c) or {})
    return out


def write_file(cases: list[dict[str, Any]], path: str, root: str,
               expect: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> None:
    expect = expect or full_expect
    with open(path, "w") as f:
        f.write("variant: standard\ncases:\n")
        for c in cases:
            f.write(case_yaml(c, expect(c), root))


def check(*paths: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cassino", "check", *paths], capture_output=True, text=True)


CHUNK = 500   # cases a file: `cassino check` refuses files over 1,000,000 bytes


def run_cases(cases: list[dict[str, Any]], directory: str, root: str,
              expect: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> subprocess.CompletedProcess:
    paths = []
    for i in range(0, len(cases), CHUNK):
        path = os.path.join(directory, f"scoring-{i // CHUNK:04d}.yaml")
        write_file(cases[i:i + CHUNK], path, root, expect)
        paths.append(path)
    return check(*paths)


def main(argv: list[str]) -> int:
    import argparse
    ap = argparse.ArgumentParser(description="compare the scoring reference with cassino check")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-variant", type=int, default=200)
    ap.add_argument("--variant", action="append")
    ap.add_argument("--keep", help="write the scenario files in this directory (kept)")
    ap.add_argument("--engine-errors", action="store_true",
                    help="run only the ENGINE_ERRORS cases, with the reference's answer as expectation")
    a = ap.parse_args(argv)
    root = os.getcwd()
    rng = random.Random(a.seed)
    cases = []
    for v in a.variant or VARIANTS:
        for i in range(a.per_variant):
            cases.append(random_case(v, rng, f"{v.replace('/', '-')} {a.seed}-{i}"))
    if a.engine_errors:
        cases = [c for c in cases if any(t(c["variant"], c) for _n, _r, t in ENGINE_ERRORS)]
        directory = a.keep or tempfile.mkdtemp(prefix="scoring-ref-")
        os.makedirs(directory, exist_ok=True)
        res = run_cases(cases, directory, root, expect=lambda c: dict(
            {"hand_points": hand_points(c["variant"], c)}, **(game_result(c["variant"], c) or {})))
        print(res.stdout[-3000:], res.stderr[-1000:])
        return res.returncode
    import collections
    classes = collections.Counter(game_class(c["variant"], c) for c in cases)
    print("game results compared:", classes.pop(None, 0), "; left out (hand points still compared):",
          dict(classes))
    for name, _reading, test in ENGINE_ERRORS:
        print(f"ENGINE_ERRORS {name}: {sum(1 for c in cases if test(c['variant'], c))} cases left out")
    directory = a.keep or tempfile.mkdtemp(prefix="scoring-ref-")
    os.makedirs(directory, exist_ok=True)
    res = run_cases(cases, directory, root)
    blocks = [b for b in res.stdout.split("\n\n") if "FAILED" in b]
    for b in blocks[:40]:
        print(b.strip())
    print(res.stderr[-2000:])
    last = res.stdout.strip().splitlines()[-1] if res.stdout.strip() else ""
    print(f"cases={len(cases)} failed_blocks={len(blocks)} summary='{last}' exit={res.returncode}")
    return res.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
