"""A second, clean-room implementation of HAND SCORING and the GAME'S END of the bundled
Casino-family variants, written only from the project's generated rulebooks
(`cassino rules VARIANT`: their sections "Players", "Sweeps", "End of a hand",
"Scoring", "Winning the game" and "Near the end of the game").

It imports nothing from `cassino`. Each rule is written next to the rulebook sentence it
comes from (quoted, with the variant whose book says it). Where a book is silent or
ambiguous the reading chosen is listed in ``GAPS``.

A finished hand is a plain dict (every card a name such as ``"10D"``, ``"AS"``, ``"QH"``
or Tuxedo's ``"5R"``: rank then suit letter; two packs give equal names twice):

``players``            number of seats (int).
``partners``           bool: the seats play in partnerships (four: 0+2 v 1+3; six: 0+3, 1+4, 2+5).
``piles``              {seat: [card, ...]}: every card each seat captured in the hand, the cards
                       left on the table at the end (the residue) included in the last capturer's.
``residue``            [card, ...]: the cards the last capturer took when the hand ended.
``last_capturer``      the seat that made the hand's last capture, or None.
``captures``           [{"ply", "seat", "cards", "table_cards"}, ...] in the order played:
                       every capture (``cards``: all that went to the pile, the played card(s)
                       included; ``table_cards``: what it took from the table, builds included).
                       The residue is not a capture.
``sweeps``             [{"seat", "ply", "size", "first_play", "last_card", "last_deal"}, ...]:
                       every capture that left the table with no loose card and no build, in
                       order, none cancelled yet (``size``: table cards taken; ``first_play``:
                       the hand's first play; ``last_card``: the hand's very last play;
                       ``last_deal``: made once the stock was used up).
``deal_take``          {"seat", "cards"} or None: table cards the dealer took at the deal itself
                       (Escoba: a first table adding up to 15 or splitting into 15s); not in
                       ``captures`` or ``sweeps``, but in ``piles``.
``scores_before``      {side: score} before the hand (a side is named by its lowest seat's
                       side number: the seat, or seat % 2 / seat % 3 with partners).
``restrictions_lifted`` bool: endgame restrictions lifted (Dominican, after a tie past 21).
``finished``           bool: the hand was played out (False: the game ended inside it, which
                       only pegging can do).

``hand_points(variant, hand) -> {side: points}``, ``hand_items(variant, hand)`` the points by
item before endgame restrictions, ``game_end(variant, scores_before, hand_points, hand)`` ->
``{"winner": side or None, "scores": {side: score}, "lifted": bool}``.
"""

from __future__ import annotations

# (variant, the rulebook's words, what is unclear, the reading taken)
GAPS: list[tuple[str, str, str, str]] = [
    ("spade",
     "Points count as soon as they are won (each scoring card when captured and each sweep when made), "
     "so a game can end in the middle of a hand.",
     "A capture that reaches 61 may bring several scoring cards and a sweep at once: do all count?",
     "A capture is one moment: all its card points and its sweep count; pegging stops after it."),
    ("spade",
     "the cards left on the table are pegged first and the points for most cards last, which are not "
     "added once a side has reached the target.",
     "Whether the residue's points are also cut off once the target is reached by them.",
     "The residue is pegged whole; most cards are skipped if a side is then at the target."),
    ("krypkasino/kasino-misar",
     "Tabbe: 5 points for each sweep; the player seated just before the sweeper in the order of play "
     "(their side) scores -5 points for it",
     "With partners the seat before is an opponent; with teams of two in six, another team.",
     "The -5 goes to the side of the seat before the sweeper in play order (seat - 1, clockwise)."),
    ("dominican/dominican-soto",
     "A side with exactly 18 points at the start of a hand may score only cards in it",
     "Whether the restricted side's other items vanish or go to nobody; how 'most cards' is judged.",
     "The restricted side's items outside the list score 0; items are judged on all sides' piles as usual "
     "(an unrestricted side's 'most' items are unchanged)."),
    ("dominican-soto",
     "A side with exactly 16 points ... may score only cards and big casino",
     "When the condition (of two items) is 'met' for the first-to-meet rule.",
     "Met at the later of the two moments the items became certain."),
    ("hoyle",
     "With three or more sides, the side with the most sweeps scores its lead over the next",
     "Whether the other sides' own sweeps count in the count-out.",
     "Only the leader scores (its lead); every other side scores no sweeps in the count-out."),
    ("all pegging-free variants",
     "Cards still on the table, loose or in builds, go to the player who made the last capture.",
     "Nothing said if nobody captured at all.",
     "The piles given are taken as final (cards nobody took count for nobody)."),
    ("south-african-casino",
     "Each hand is a game on its own: the side that scores more in it wins; a tie for the most is a draw.",
     "With three sides, 'scores more' than whom.",
     "The single side with the most points wins; a tie for the most: no winner."),
    ("tuxedo",
     "Oranges: 10 points for each capture that takes at least a red card and a yellow card from the table",
     "Whether the card played counts toward the pair.",
     "Only table cards (loose or in a build taken), not the played card, as the sentence says."),
    ("scopa/scopone",
     "A sweep made with the very last card of the hand does not count.",
     "Hand's last card = the last play of the whole hand.",
     "Only the hand's final play; a sweep ending an earlier deal counts (scopa's book says so)."),
    ("hungarian",
     "Points count as soon as they are won (each scoring card when captured, each sweep when made and "
     "a \"most\" item once no other side can catch up).",
     "Whether 'catch up' means tie or pass; what cards can still be taken.",
     "A most item counts once the side's count exceeds every other side's count plus all cards (spades) "
     "not yet in any pile (a tie would score nothing, so a reachable tie is not secured)."),
    ("hungarian",
     "a correct claim wins the game at once, a false one loses it.",
     "Who wins on a false claim.",
     "The other player (the game is for two)."),
    ("escoba",
     "If the cards first dealt to the table add up to 15, or split wholly into sets of 15 each, the dealer "
     "takes them at once and scores a sweep for each set.",
     "Found in '3. The deal', not in '8. Sweeps' or '10. Scoring' (Escobas: 1 point for each sweep), "
     "where a reader of the scoring misses it (this reference did at first).",
     "A sweep for each 15 in the table's total (sum of values // 15), to the dealer's side."),
    ("finnish-kasino",
     "Spades: 2 points to the side that captures the most spades; tied sides share the points, rounded down.",
     "With three or four sides, a two-way tie.",
     "Two tied sides get 1 each (2 // 2); three or more tied get 0."),
]

# Disagreements with the engine that are the rulebook's (b) or the engine's (c). Each has a
# ``matches(variant, hand, engine, diffs)`` test (``engine``: the engine's answers as
# tests/test_book_scoring_reference.py gathers them: "points", "scores", "winner", ...) and an
# ``example``: (variant, players, partners, seed, scores before) of a random hand that shows it.


#: The one disagreement found, the Spade residue pegged after a last play that reaches the target, was the book's
#: gap and is said there now (tests/test_book_scoring_reference.py plays its hand).
DECLARED: list[dict] = []


# ---------------------------------------------------------------------------------------
# Cards

def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


# ---------------------------------------------------------------------------------------
# Sides

# "Four players always play as two partnerships" (dominican, dominican-soto, scopone,
# swazi-casino books, "1. Players").
ALWAYS_PARTNERS = {"dominican", "dominican-soto", "scopone", "swazi-casino"}


def side_of(variant: str, hand: dict, seat: int) -> int:
    """"partners sitting opposite each other (seats 0 and 2 against seats 1 and 3)";
    "Six players may play in teams of two ... (with six: seats 0 and 3, 1 and 4, 2 and 5)"
    (krypkasino, kasino-misar). A side is named by its lowest seat's number (0, 1, 2)."""
    n = hand["players"]
    partners = hand.get("partners") or (variant in ALWAYS_PARTNERS and n == 4)
    if partners and n == 4:
        return seat % 2
    if partners and n == 6:
        return seat % 3
    return seat


def sides_of(variant: str, hand: dict) -> list[int]:
    return sorted({side_of(variant, hand, s) for s in range(hand["players"])})


def side_piles(variant: str, hand: dict) -> dict[int, list[str]]:
    """"partners pool what they capture and score together" (every book, "1. Players")."""
    out: dict[int, list[str]] = {s: [] for s in sides_of(variant, hand)}
    for seat, cards in hand["piles"].items():
        out[side_of(variant, hand, int(seat))].extend(cards)
    return out


# ---------------------------------------------------------------------------------------
# Item helpers

def most(counts: dict[int, int], points: int, share: bool = False) -> dict[int, int]:
    """"N points to the side that captures the most ...; a tie scores nothing."
    With ``share``: "tied sides share the points, rounded down" (finnish, swazi, south-african)."""
    out = {s: 0 for s in counts}
    top = max(counts.values())
    leaders = [s for s, c in counts.items() if c == top]
    if len(leaders) == 1:
        out[leaders[0]] = points
    elif share:
        for s in leaders:
            out[s] = points // len(leaders)
    return out


def each(piles: dict[int, list[str]], pred, points: int) -> dict[int, int]:
    return {s: points * sum(1 for c in cards if pred(c)) for s, cards in piles.items()}


# "counted seven 21, six 18, ace 16, five 15, four 14, three 13, two 12, jack, knight and
# king 10" (scopa, scopone, escoba, "10. Scoring", Primiera / Setenta)
PRIMIERA = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "J": 10, "Q": 10, "K": 10}


def primiera(piles: dict[int, list[str]]) -> dict[int, int]:
    """"1 point to the side whose best cards, one of each suit, add up to the most ...; a side
    that has not taken a card of every suit cannot win it; a tie scores nothing." """
    totals = {}
    for s, cards in piles.items():
        best: dict[str, int] = {}
        for c in cards:
            best[suit(c)] = max(best.get(suit(c), 0), PRIMIERA[rank(c)])
        totals[s] = sum(best.values()) if len(best) == 4 else None
    out = {s: 0 for s in piles}
    eligible = {s: t for s, t in totals.items() if t is not None}
    if eligible:
        top = max(eligible.values())
        leaders = [s for s, t in eligible.items() if t == top]
        if len(leaders) == 1:
            out[leaders[0]] = 1
    return out


def counting_sweeps(variant: str, hand: dict) -> list[dict]:
    """The sweeps that count as sweeps at all (before cancelling and restrictions)."""
    out = []
    for sw in hand["sweeps"]:
        if variant in ("scopa", "scopone") and sw["last_card"]:
            # "A sweep made with the very last card of the hand does not count." (scopa, scopone)
            continue
        if variant == "finnish-kasino" and sw["last_deal"]:
            # "Emptying the table in the last deal of the hand (once the stock is used up) is no
            # sweep: it scores nothing and cancels nothing." (finnish-kasino)
            continue
        out.append(sw)
    return out


def cancel_sweeps(variant: str, hand: dict, sweeps: list[dict]) -> list[dict]:
    """"Sweeps cancel as they are made: whenever every side has a sweep not yet cancelled, one
    sweep of each side is cancelled (with two sides, one for one)." (dominican, dominican-soto,
    finnish-kasino, "8. Sweeps")"""
    sides = sides_of(variant, hand)
    standing: dict[int, list[dict]] = {s: [] for s in sides}
    for sw in sorted(sweeps, key=lambda w: w["ply"]):
        standing[side_of(variant, hand, sw["seat"])].append(sw)
        if all(standing[s] for s in sides):
            for s in sides:
                standing[s].pop(0)
    return [w for s in sides for w in standing[s]]


def sweep_counts(variant: str, hand: dict, sweeps: list[dict]) -> dict[int, int]:
    out = {s: 0 for s in sides_of(variant, hand)}
    for sw in sweeps:
        out[side_of(variant, hand, sw["seat"])] += 1
    return out


# ---------------------------------------------------------------------------------------
# Items per variant (before endgame restrictions)

def _casino_core(piles, *, cards=3, spades=1, spades_each=False, share=False):
    items = {
        # "Cards: 3 points to the side that captures the most cards; a tie scores nothing."
        "cards": most({s: len(p) for s, p in piles.items()}, cards, share),
        # "Spades: 1 point to the side that captures the most spades; a tie scores nothing."
        "spades": (each(piles, lambda c: suit(c) == "S", 1) if spades_each
                   else most({s: sum(suit(c) == "S" for c in p) for s, p in piles.items()}, spades, share)),
        # "Big casino: 2 points for capturing the 10♦."
        "big_casino": each(piles, lambda c: c == "10D", 2),
        # "Little casino: 1 point for capturing the 2♠."
        "little_casino": each(piles, lambda c: c == "2S", 1),
        # "Aces: 1 point for each ace captured."
        "aces": each(piles, lambda c: rank(c) == "A", 1),
    }
    return items


def hand_items(variant: str, hand: dict) -> dict[str, dict[int, int]]:
    """Each scoring item's points per side, as "10. Scoring" of the variant's book lists them,
    before any endgame restriction."""
    piles = side_piles(variant, hand)
    sides = list(piles)
    v = variant
    if v in ("standard", "royal", "draw"):
        # standard/royal/draw: "A capture that leaves the table empty is a sweep; in this game
        # sweeps score nothing."
        return _casino_core(piles)
    if v in ("hoyle", "face-builds", "two-handed", "hungarian"):
        items = _casino_core(piles)
        # "Sweeps: 1 point for each sweep." "Sweeps never cancel each other."
        items["sweeps"] = sweep_counts(v, hand, counting_sweeps(v, hand))
        return items
    if v == "hungarian-ulmann":
        items = _casino_core(piles)
        # "Sweeps: 1 point for each sweep; a sweep of the whole first table by the first play of
        # the hand scores 2."
        pts = {s: 0 for s in sides}
        for sw in counting_sweeps(v, hand):
            pts[side_of(v, hand, sw["seat"])] += 2 if sw["first_play"] else 1
        items["sweeps"] = pts
        return items
    if v in ("dominican", "dominican-soto"):
        items = _casino_core(piles)
        # "Sweeps: 1 point for each sweep." with "Sweeps cancel as they are made".
        items["sweeps"] = sweep_counts(v, hand, cancel_sweeps(v, hand, counting_sweeps(v, hand)))
        return items
    if v == "spade":
        items = _casino_core(piles, spades_each=True)  # "Spades: 1 point for each spade captured."
        items["sweeps"] = sweep_counts(v, hand, counting_sweeps(v, hand))
        # "Jack of spades: 1 point for capturing the J♠."
        items["jack_of_spades"] = each(piles, lambda c: c == "JS", 1)
        return items
    if v == "tuxedo":
        # "Cards: 15 points to the side that captures the most cards; a tie scores nothing."
        items = {"cards": most({s: len(p) for s, p in piles.items()}, 15)}
        # "Oranges: 10 points for each capture that takes at least a red card and a yellow card
        # from the table, loose or in a build it takes. Taking the cards left at the end of the
        # hand is no such capture."
        oranges = {s: 0 for s in sides}
        for cap in hand["captures"]:
            suits = {suit(c) for c in cap["table_cards"]}
            if "R" in suits and "Y" in suits:
                oranges[side_of(v, hand, cap["seat"])] += 10
        items["oranges"] = oranges
        # "Sweeps: 10 points for a sweep of 4 or more cards; 5 points for a sweep of 1 to 3 cards
        # (counting the table cards taken, not the card played)."
        sw = {s: 0 for s in sides}
        for w in counting_sweeps(v, hand):
            sw[side_of(v, hand, w["seat"])] += 10 if w["size"] >= 4 else 5
        items["sweeps"] = sw
        # "Fives: 5 points for each five captured."
        items["fives"] = each(piles, lambda c: rank(c) == "5", 5)
        return items
    if v in ("scopa", "scopone", "escoba"):
        return {
            # "Cards: 1 point to the side that captures the most cards; a tie scores nothing."
            "cards": most({s: len(p) for s, p in piles.items()}, 1),
            # "Coins: 1 point to the side that captures the most coins; a tie scores nothing."
            "coins": most({s: sum(suit(c) == "D" for c in p) for s, p in piles.items()}, 1),
            # "Settebello: 1 point for capturing the 7♦."
            "settebello": each(piles, lambda c: c == "7D", 1),
            # "Primiera: ..." / escoba's "Setenta" counted the same way
            "primiera": primiera(piles),
            # "Sweeps: 1 point for each sweep." / "Escobas: 1 point for each sweep."
            "sweeps": _plus_deal_sweeps(v, hand, sweep_counts(v, hand, counting_sweeps(v, hand))),
        }
    if v == "swedish-kasino":
        items = _casino_core(piles, cards=1, spades=2)
        # "Cards: 1 point ...", "Spades: 2 points to the side that captures the most spades; a tie
        # scores nothing." "Sweeps: 1 point for each sweep." "Sweeps never cancel each other."
        items["sweeps"] = sweep_counts(v, hand, counting_sweeps(v, hand))
        # "Last capture: 1 point for making the last capture of the hand."
        lc = {s: 0 for s in sides}
        if hand.get("last_capturer") is not None:
            lc[side_of(v, hand, hand["last_capturer"])] = 1
        items["last_capture"] = lc
        return items
    if v == "finnish-kasino":
        items = _casino_core(piles, cards=1, spades=2)
        # "Spades: 2 points to the side that captures the most spades; tied sides share the
        # points, rounded down."  (cards: "a tie scores nothing")
        items["spades"] = most({s: sum(suit(c) == "S" for c in p) for s, p in piles.items()}, 2, share=True)
        # "Sweeps: 1 point for each sweep." + "Sweeps cancel as they are made"
        # "12. Near the end of the game: Once any side has 10 points or more at the start of a
        # hand, no side's sweeps score." "The limit on sweeps stays in force even after a tie
        # past the target."
        if any(sc >= 10 for sc in hand["scores_before"].values()):
            items["sweeps"] = {s: 0 for s in sides}
        else:
            items["sweeps"] = sweep_counts(v, hand, cancel_sweeps(v, hand, counting_sweeps(v, hand)))
        return items
    if v in ("krypkasino", "kasino-misar"):
        return {
            # "Storan: 3 points for (each) 10♦ captured"
            "storan": each(piles, lambda c: c == "10D", 3),
            # "Lillan: 2 points for (each) 2♠ captured"
            "lillan": each(piles, lambda c: c == "2S", 2),
            # "Aces: 1 point for each ace captured."
            "aces": each(piles, lambda c: rank(c) == "A", 1),
            # "Spades: 1 point for each spade other than the 2♠ captured."
            "spades": each(piles, lambda c: suit(c) == "S" and c != "2S", 1),
            "tabbe": _tabbe(v, hand),
        }
    if v == "swazi-casino":
        # "Cards: 2 points to the side that captures the most cards; tied sides share the
        # points, rounded down." "Spades: 2 points ... share ..." "Reading: With three sides a
        # three-way tie ... scores nobody". Sweeps score nothing.
        return _casino_core(piles, cards=2, spades=2, share=True)
    if v == "south-african-casino":
        items = _casino_core(piles, cards=2, spades=2, share=True)
        # "(scored only when the hand has two sides)"
        if len(sides) != 2:
            items["cards"] = {s: 0 for s in sides}
            items["spades"] = {s: 0 for s in sides}
        return items
    raise KeyError(variant)


# "Capture values: ace 1; 2 to 7 count as marked; jack 8; knight 9; king 10." (escoba)
ESCOBA_VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}


def _plus_deal_sweeps(v: str, hand: dict, counts: dict[int, int]) -> dict[int, int]:
    """escoba, "3. The deal": "If the cards first dealt to the table add up to 15, or split wholly
    into sets of 15 each, the dealer takes them at once and scores a sweep for each set." """
    take = hand.get("deal_take")
    if v == "escoba" and take:
        counts[side_of(v, hand, take["seat"])] += sum(ESCOBA_VALUE[rank(c)] for c in take["cards"]) // 15
    return counts


def _tabbe(variant: str, hand: dict) -> dict[int, int]:
    """"Tabbe: 5 points for each sweep; the player seated just before the sweeper in the order of
    play (their side) scores -5 points for it ..., even where the sweep is the hand's first play."
    "Play and the deal pass to the left (clockwise)": the seat before s is s - 1."""
    out = {s: 0 for s in sides_of(variant, hand)}
    n = hand["players"]
    for sw in counting_sweeps(variant, hand):
        out[side_of(variant, hand, sw["seat"])] += 5
        out[side_of(variant, hand, (sw["seat"] - 1) % n)] -= 5
    return out


# ---------------------------------------------------------------------------------------
# Endgame restrictions (Dominican)

# "A side with exactly 18 points at the start of a hand may score only cards in it" etc.
RESTRICTIONS = {
    "dominican": {18: ("cards",), 19: ("big_casino",), 20: ("spades",)},
    "dominican-soto": {16: ("cards", "big_casino"), 17: ("cards", "spades"), 18: ("cards",),
                       19: ("big_casino",), 20: ("spades",)},
}


def restriction(variant: str, hand: dict, side: int):
    if hand.get("restrictions_lifted") or variant not in RESTRICTIONS:
        return None
    return RESTRICTIONS[variant].get(hand["scores_before"].get(side, 0))


def hand_points(variant: str, hand: dict) -> dict[int, int]:
    """Each side's points for the hand, endgame restrictions applied."""
    if variant == "spade":
        return _spade_pegged(hand)["points"]
    items = hand_items(variant, hand)
    out = {s: 0 for s in sides_of(variant, hand)}
    for s in out:
        allowed = restriction(variant, hand, s)
        for name, pts in items.items():
            if allowed is not None and name not in allowed:
                continue  # "may score only cards in it"
            if (variant in RESTRICTIONS and name == "sweeps" and not hand.get("restrictions_lifted")
                    and hand["scores_before"].get(s, 0) >= 18):
                # "From 18 points on, a side's sweeps score nothing (they still cancel the
                # opponents')."
                continue
            out[s] += pts[s]
    return out


# ---------------------------------------------------------------------------------------
# Spade Cassino's pegging

SPADE_TARGET = 61


def _spade_card_points(card: str) -> int:
    # "Spades: 1 point for each spade captured." "Big casino: 2 points for capturing the 10♦."
    # "Little casino: 1 point for capturing the 2♠." "Aces: 1 point for each ace captured."
    # "Jack of spades: 1 point for capturing the J♠."
    p = 0
    if suit(card) == "S":
        p += 1
    if card == "10D":
        p += 2
    if card == "2S":
        p += 1
    if rank(card) == "A":
        p += 1
    if card == "JS":
        p += 1
    return p


def _spade_pegged(hand: dict) -> dict:
    """"Points count as soon as they are won (each scoring card when captured and each sweep when
    made), so a game can end in the middle of a hand. When the hand ends, the cards left on the
    table are pegged first and the points for most cards last, which are not added once a side has
    reached the target." "The game ends the moment a side's points reach the target" (spade)."""
    v = "spade"
    sides = sides_of(v, hand)
    pts = {s: 0 for s in sides}
    before = hand["scores_before"]
    sweeps_at = {}
    for sw in hand["sweeps"]:
        sweeps_at.setdefault(sw["ply"], []).append(sw)

    def reached():
        for s in sides:
            if before.get(s, 0) + pts[s] >= SPADE_TARGET:
                return True
        return False

    winner = None
    for cap in sorted(hand["captures"], key=lambda c: c["ply"]):
        side = side_of(v, hand, cap["seat"])
        pts[side] += sum(_spade_card_points(c) for c in cap["cards"])
        # "Sweeps: 1 point for each sweep."
        pts[side] += len(sweeps_at.get(cap["ply"], []))
        if reached():
            # "The hand's last play ends the hand as it is made, so where it reaches the target the cards left on
            # the table still go to its player and are pegged with it." (The book said nothing of it before
            # session 91: this reference stopped before the table's cards, as the game's end read alone says.)
            # A hand finished with the target reached was reached by its last play: the game ends at the moment a
            # side reaches it, so an earlier capture would have left the hand unfinished.
            if hand.get("finished", True) and hand.get("last_capturer") is not None and hand["residue"]:
                pts[side_of(v, hand, hand["last_capturer"])] += sum(_spade_card_points(c) for c in hand["residue"])
            winner = side
            return {"points": pts, "winner": winner}
    if not hand.get("finished", True):
        return {"points": pts, "winner": None}
    if hand.get("last_capturer") is not None and hand["residue"]:
        side = side_of(v, hand, hand["last_capturer"])
        pts[side] += sum(_spade_card_points(c) for c in hand["residue"])
        if reached():
            return {"points": pts, "winner": side}
    # "Cards: 3 points to the side that captures the most cards; a tie scores nothing; counted only
    # when the hand is over"
    piles = side_piles(v, hand)
    for s, p in most({s: len(c) for s, c in piles.items()}, 3).items():
        pts[s] += p
    win = [s for s in sides if before.get(s, 0) + pts[s] >= SPADE_TARGET]
    return {"points": pts, "winner": win[0] if win else None}


# ---------------------------------------------------------------------------------------
# The game's end

TARGETS = {"standard": 21, "hoyle": 21, "royal": 21, "dominican": 21, "dominican-soto": 21,
           "draw": 21, "two-handed": 21, "face-builds": 21, "swazi-casino": 21,
           "tuxedo": 100, "hungarian": 11, "hungarian-ulmann": 11, "scopa": 11, "scopone": 11,
           "escoba": 15, "swedish-kasino": 16, "finnish-kasino": 16, "spade": SPADE_TARGET,
           "kasino-misar": 21, "krypkasino": 42}

# "the points are counted out in this order: cards, spades, big casino, little casino, aces
# (and sweeps)"; "Aces: 1 point for each ace captured (counted out in the order A♠ A♣ A♥ A♦)."
COUNT_OUT = {"hoyle", "royal", "swazi-casino"}
ACE_ORDER = ["AS", "AC", "AH", "AD"]


def _highest(sides_over: dict[int, int]):
    """"If several sides reach N or more in the same hand, the higher total wins; a tie plays
    another hand." """
    if not sides_over:
        return None
    top = max(sides_over.values())
    leaders = [s for s, t in sides_over.items() if t == top]
    return leaders[0] if len(leaders) == 1 else None


def game_end(variant: str, scores_before: dict[int, int], points: dict[int, int],
             hand: dict | None = None) -> dict:
    """Who wins once the hand is scored: {"winner": side or None, "scores": {side: total},
    "lifted": restrictions lifted for the next hands (Dominican)}."""
    v = variant
    sides = sorted(points)
    total = {s: scores_before.get(s, 0) + points[s] for s in sides}
    res = {"winner": None, "scores": total, "lifted": bool(hand and hand.get("restrictions_lifted"))}
    if v == "south-african-casino":
        # "Each hand is a game on its own: the side that scores more in it wins; a tie for the
        # most is a draw."
        res["winner"] = _highest(points)
        return res
    if v in ("krypkasino", "kasino-misar"):
        # "Once a hand ends with a side at 42 points or more, the game is over and the side with
        # the lowest total wins; a tie for lowest plays another hand."
        if any(t >= TARGETS[v] for t in total.values()):
            low = min(total.values())
            leaders = [s for s, t in total.items() if t == low]
            res["winner"] = leaders[0] if len(leaders) == 1 else None
        return res
    if v == "spade":
        # "The first side to reach 61 points wins the game."
        res["winner"] = _spade_pegged(hand)["winner"] if hand else _highest(
            {s: t for s, t in total.items() if t >= SPADE_TARGET})
        return res
    target = TARGETS[v]
    over = {s: t for s, t in total.items() if t >= target}
    if v in RESTRICTIONS and hand is not None:
        return _dominican_end(v, scores_before, points, hand, res)
    if len(over) >= 2 and v in COUNT_OUT and hand is not None:
        return _count_out(v, scores_before, hand, res)
    # "A side with 21 points or more once a hand's points are added wins the game." "If several
    # sides reach 21 or more in the same hand, the higher total wins; a tie plays another hand."
    res["winner"] = _highest(over)
    return res


def _count_out(v: str, before: dict[int, int], hand: dict, res: dict) -> dict:
    """hoyle/royal/swazi: "the first side to reach 21 wins (the item that takes it there counts in
    full), and the counting stops there: the other sides keep the totals counted by then."."""
    target = TARGETS[v]
    items = hand_items(v, hand)
    sides = sorted(res["scores"])
    run = {s: before.get(s, 0) for s in sides}
    steps: list[dict[int, int]] = []
    for name in ("cards", "spades", "big_casino", "little_casino"):
        steps.append(items[name])
    piles = side_piles(v, hand)
    for ace in ACE_ORDER:
        steps.append({s: piles[s].count(ace) for s in sides})
    for step in steps:
        gained = [s for s in sides if step.get(s, 0)]
        prev = dict(run)
        for s in sides:
            run[s] += step.get(s, 0)
        reached = [s for s in gained if run[s] >= target]
        if len(reached) == 1:
            res["winner"], res["scores"] = reached[0], run
            return res
        if len(reached) > 1:
            # swazi: "Points that tied sides share count for them at once: if they take two sides
            # to 21 together, neither wins yet: each side's total stays as it was counted just
            # before those shared points, the rest of the hand's points ... are not scored"
            res["winner"], res["scores"] = None, prev
            return res
    if v == "hoyle":
        # "When the count-out reaches the sweeps, only the difference in the number of sweeps
        # counts, as points to the side with more; if that is not enough, nobody has won ...
        # With three or more sides, the side with the most sweeps scores its lead over the next;
        # a tie for the most scores nobody."
        sw = items["sweeps"]
        ordered = sorted(sw.values(), reverse=True)
        top = ordered[0]
        leaders = [s for s in sides if sw[s] == top]
        if len(leaders) == 1:
            lead = top - (ordered[1] if len(ordered) > 1 else 0)
            run[leaders[0]] += lead
            if run[leaders[0]] >= target:
                res["winner"], res["scores"] = leaders[0], run
                return res
    res["winner"], res["scores"] = None, run
    return res


def _met_moment(v: str, hand: dict, side: int, items: tuple[str, ...]):
    """"A condition is met once the cards taken make it certain: the card it names taken, or more
    cards (or spades) than any other side can still reach; a lead that could still be lost is not
    met." The moment: (ply order index) of the capture, or len(captures) for the residue."""
    sides = sides_of(v, hand)
    caps = sorted(hand["captures"], key=lambda c: c["ply"])
    events = [(i, side_of(v, hand, c["seat"]), c["cards"]) for i, c in enumerate(caps)]
    if hand.get("last_capturer") is not None and hand["residue"]:
        events.append((len(caps), side_of(v, hand, hand["last_capturer"]), hand["residue"]))
    deck_cards = sum(len(p) for p in hand["piles"].values())  # every card of the hand
    deck_spades = sum(1 for p in hand["piles"].values() for c in p if suit(c) == "S")
    moments = []
    for item in items:
        count = {s: 0 for s in sides}
        spade = {s: 0 for s in sides}
        found = None
        for i, s, cards in events:
            count[s] += len(cards)
            spade[s] += sum(suit(c) == "S" for c in cards)
            if item == "big_casino":
                if s == side and "10D" in cards:
                    found = i
            elif item == "cards":
                left = deck_cards - sum(count.values())
                if all(count[side] > count[o] + left for o in sides if o != side):
                    found = i
            elif item == "spades":
                left = deck_spades - sum(spade.values())
                if all(spade[side] > spade[o] + left for o in sides if o != side):
                    found = i
            if found is not None:
                break
        if found is None:
            return None
        moments.append(found)
    return max(moments)


def _dominican_end(v: str, before: dict[int, int], points: dict[int, int], hand: dict, res: dict):
    """dominican/dominican-soto "12. Near the end of the game"."""
    target = TARGETS[v]
    total = res["scores"]
    restricted = {s for s in total if restriction(v, hand, s) is not None}
    # "reaching the target that way wins the game when the hand ends, whatever sides without a
    # restriction score"
    r_reached = [s for s in restricted if total[s] >= target]
    if len(r_reached) == 1:
        res["winner"] = r_reached[0]
        return res
    if len(r_reached) > 1:
        # "If several sides under restrictions meet them in the same hand, the first to have met
        # its condition in the play wins ... Sides that meet theirs at the same moment ... the
        # higher total wins, and equal totals win nothing yet."
        moments = {s: _met_moment(v, hand, s, restriction(v, hand, s)) for s in r_reached}
        met = [m for m in moments.values() if m is not None]
        first = min(met) if met else None
        firsts = {s: total[s] for s, m in moments.items() if m == first}
        res["winner"] = _highest(firsts)
        if res["winner"] is None:
            res["lifted"] = True
        return res
    over = {s: t for s, t in total.items() if t >= target}
    res["winner"] = _highest(over)
    if len(over) >= 2 and res["winner"] is None:
        # "If several sides reach the target or more in the same hand with equal totals, the
        # restrictions and the limit on sweeps are lifted for the hands that follow."
        res["lifted"] = True
    return res


# ---------------------------------------------------------------------------------------
# Hungarian Casino's claim

def running_points(variant: str, hand: dict) -> dict[int, int]:
    """hungarian: "Points count as soon as they are won (each scoring card when captured, each sweep
    when made and a "most" item once no other side can catch up)." For a hand in play: ``piles``,
    ``sweeps`` so far. "A pack of 52 cards: 13 ranks in each of four suits": what is not in a pile
    can still be taken."""
    piles = side_piles(variant, hand)
    sides = list(piles)
    out = {s: 0 for s in sides}
    left_cards = 52 - sum(len(p) for p in piles.values())
    spades = {s: sum(suit(c) == "S" for c in p) for s, p in piles.items()}
    left_spades = 13 - sum(spades.values())
    for s in sides:
        others = [o for o in sides if o != s]
        # "Cards: 3 points to the side that captures the most cards; a tie scores nothing."
        if all(len(piles[s]) > len(piles[o]) + left_cards for o in others):
            out[s] += 3
        # "Spades: 1 point to the side that captures the most spades; a tie scores nothing."
        if all(spades[s] > spades[o] + left_spades for o in others):
            out[s] += 1
        out[s] += sum(2 for c in piles[s] if c == "10D")      # Big casino
        out[s] += sum(1 for c in piles[s] if c == "2S")       # Little casino
        out[s] += sum(1 for c in piles[s] if rank(c) == "A")  # Aces
    for sw in counting_sweeps(variant, hand):                 # "Sweeps: 1 point for each sweep."
        out[side_of(variant, hand, sw["seat"])] += 1
    return out


def claim(variant: str, hand: dict, seat: int) -> dict:
    """hungarian: "During play you may claim to have reached the target: a correct claim wins the game
    at once, a false one loses it." -> {"correct": bool, "winner": side or None}."""
    side = side_of(variant, hand, seat)
    pts = running_points(variant, hand)
    correct = hand["scores_before"].get(side, 0) + pts[side] >= TARGETS[variant]
    others = [s for s in sides_of(variant, hand) if s != side]
    # "a false one loses it": with two players, the other side wins
    return {"correct": correct, "winner": side if correct else (others[0] if len(others) == 1 else None)}
