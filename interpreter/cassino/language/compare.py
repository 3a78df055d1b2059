"""Which settings two variants differ in, said in the rulebook's words.

Settings are compared after defaults are filled, so a file that spells out a
default and one that leaves it out do not differ. Each difference is worded by
the same tables as the rulebook (``rulebook.py``): a rule author sees what a
player would read, with the setting's name beside it for the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .rulebook import WORDED_BY, Rulebook, item_words, reading_applies, rulebook, word
from .rules import Rules
from .unread import unread
from .settings import flatten, get, with_value

#: Sections whose settings change which moves are legal (the rest change scores and the game's end).
IN_PLAY = ("deck", "capture", "build", "trail")

_CLAUSE_OF = {
    "seats.max_players": "seats.min_players",
    "game.count_out": "game.both_reach",
    "game.target_step": "game.both_reach",
    "game.lurch.multiplier": "game.lurch.below",
    "endgame.sweeps_from_side": "endgame.sweeps_from",
    "deal.misdeal.cards": "deal.misdeal.at_least",   # (one sentence words the misdeal: which cards, how many)
    "seats.team_size": "seats.partnership_players",  # ("two teams of three": said in the partnerships' sentence)
    "capture.pile_reach": "capture.pile_cards",      # (how deep into a pile, and which bases: said in its sentence)
    "capture.pile_base": "capture.pile_cards",
}


@dataclass(frozen=True)
class ReadUnder:
    """One variant's setting as it would read under the other variant's settings that word it:
    Scopa's equal card first, under Escoba's capture total, is "a single card making 15 first"."""

    variant: str                    # whose other settings it is read under
    setting_of: str                 # whose value of the setting it is
    depends_on: tuple[str, ...]     # the settings that change its words, set differently in the two
    words: str


@dataclass(frozen=True)
class Difference:
    """One rule that reads differently: the settings behind it and each variant's words."""

    key: str                              # the rulebook clause (a setting path, or an item's)
    paths: tuple[tuple[str, ...], ...]    # the settings that differ behind it
    a: str
    b: str

    moot: bool = False                    # set differently, but it cannot change the game (see ``moot_why``)
    moot_why: str = ""                    # why not, in words
    unread: str = ""                      # the variant whose rules do not read it ("" if both do)
    read_under: tuple[ReadUnder, ...] = ()  # its words under the other's settings, where those change them

    @property
    def in_play(self) -> bool:
        return any(p[0] in IN_PLAY for p in self.paths)

    @property
    def section(self) -> str:
        return self.key.split(".")[0]


def clause_key(path: tuple[str, ...]) -> str:
    if path[:2] in (("scoring", "items"), ("scoring", "events")):
        return ".".join(path[:3])
    if path[:2] == ("endgame", "restrictions"):
        return "endgame.restrictions"
    dotted = ".".join(path)
    return _CLAUSE_OF.get(dotted, dotted)


def _words(book: Rulebook, rules: Rules, key: str) -> str:
    """The clause's words, with the readings the file chose for it (issue 36), marked as such."""
    text = _rule_words(book, rules, key)
    said = [c.text for k, c in book.clauses().items() if k.startswith(key + ".reading")]
    # (and the readings whose words assume this setting, ``also``: said only while it keeps its value, so a
    # difference in it is one in them too; a re-attack saw Scopa's both-reach reading go with its target unsaid)
    # And the readings of this setting filed under another rule's words (Kasino misar's target, said with its
    # goal), or (``also``) whose words assume it, or a section holding it: said only while it keeps its value,
    # so a difference in it is one in them too (a re-attack saw Scopa's both-reach reading go unsaid with
    # its target). Each reading once.
    for r in rules.readings:
        about = [r.setting, *(k for k, _ in r.assumes)]
        if any(clause_key(tuple(a.split("."))) == key or key.startswith(a + ".") for a in about) \
                and reading_applies(rules, r) and f"Reading: {r.text}" not in said:
            said.append(f"Reading: {r.text}")
    return " ".join([text, *said]) if said and text else text


def _rule_words(book: Rulebook, rules: Rules, key: str) -> str:
    clauses = book.clauses()
    if key == "endgame.restrictions":
        texts = [c.text for k, c in clauses.items() if k.startswith("endgame.restrictions.")]
        return " ".join(texts) or "no endgame restrictions"
    if key in clauses:
        return clauses[key].text
    if key == "game.target" and rules.game.goal == "lowest" and "game.goal" in clauses:
        return clauses["game.goal"].text      # a negative game words its loss limit with its goal
    if key == "game.goal" and "game.target" in clauses:
        # A game won by the highest total says so with its target (a re-attack read "no such rule here" beside
        # Kasino misar's penalties).
        return clauses["game.target"].text
    if key == "capture.several_groups" and "capture.total" in clauses:
        # A capture by a total says how many sets a play takes in its own sentence ("One play takes one such set":
        # an audit read "does not apply in this variant" beside Escoba's one set a capture).
        return clauses["capture.total"].text
    if key == "seats.partnerships" and "seats.partnership_players" in clauses:
        # Teams at other counts than four are said with those counts (a rule author's Scopa for six in two teams of
        # three read "does not apply in this variant" beside the setting that seats them so).
        return clauses["seats.partnership_players"].text
    if key.startswith("scoring.items."):
        item = rules.scoring.item(key.split(".")[2])
        return item_words(rules, item) if item is not None else "no such scoring item"
    if key.startswith("scoring.events."):   # (worded with the items that count it, which say what it takes)
        name = key.split(".")[2]
        event = next((e for e in rules.scoring.events if e.name == name), None)
        if event is None:
            return "no such capture event"
        counted = [item_words(rules, i) for i in rules.scoring.items if i.count == "event" and i.event == name]
        return " ".join(counted) or (f"A capture event `{name}`: one capture taking "
                                     + " and ".join(f"`{t}`" for t in event.takes) + ", which no scoring item counts.")
    if key.startswith("deck."):
        if key == "deck.packs":   # two packs (issue 27): one pack says nothing in the rulebook
            return "One pack."
        return "none" if key == "deck.card_values" else ""
    # The clause's own setting (``key``), not the differing one behind it: game.both_reach is
    # worded by its own value even where game.count_out (a list) is what differs.
    try:
        value: Any = rules.data
        for part in key.split("."):
            value = value[part]
        text = word(rules, key, value)
    except (KeyError, TypeError):
        text = None
    # Worded, but left out of this variant's rulebook: another setting makes it moot.
    return "does not apply in this variant" if text else "no such rule here"


def _no_effect(rules: Rules, book: Rulebook, other: Rules, paths: list[tuple[str, ...]]) -> bool:
    """Whether taking ``paths`` from ``other`` leaves ``rules``' rulebook word for word the same."""
    data = dict(rules.data)
    for path in paths:
        data = with_value(data, path, get(dict(other.data), path))
    try:
        changed = rulebook(Rules.from_data(data))
    except (KeyError, TypeError, ValueError, IndexError):
        return False
    return changed.clauses() == book.clauses()


def _read_under(a: Rules, b: Rules, key: str, paths: list[tuple[str, ...]],
                words: tuple[str, str]) -> tuple[ReadUnder, ...]:
    """Each variant's value of ``paths`` as the other's rulebook would word it, where a setting
    that changes their words (``WORDED_BY``) is set differently in the two and the words are not
    the variant's own (``words``: A's and B's): what the other does with it."""
    depends = dict.fromkeys(d for p in paths for d in WORDED_BY.get(".".join(p), ()))
    differing = tuple(d for d in depends if get(dict(a.data), tuple(d.split("."))) != get(dict(b.data), tuple(d.split("."))))
    if not differing:
        return ()
    out = []
    for x, y, own in ((a, b, words[0]), (b, a, words[1])):
        data = dict(y.data)
        for path in paths:
            data = with_value(data, path, get(dict(x.data), path))
        try:
            clause = rulebook(Rules.from_data(data)).clauses().get(key)
        except (KeyError, TypeError, ValueError, IndexError):
            continue          # (the other's rules cannot take this value: nothing to read)
        if clause is not None and clause.text != own:
            out.append(ReadUnder(y.name, x.name, differing, clause.text))
    return tuple(out)


#: Build settings that act only on a build already on the table (African Casino's, issue 36: raising a
#: partner's build, adding to another side's, a second build of one value, a second build of one player).
_ON_EXISTING_BUILDS = frozenset({"raise_single", "raise_own", "raise_with_table_cards", "raise_takes_in", "add_sets",
                                 "continue_as_begun", "owner_obligation", "single_build_as_card",
                                 "raise_partners", "raise_for_partner", "augment_opponents", "one_per_value",
                                 "one_per_player", "opponents_hand_only"})
#: Build settings about a partner's builds: they cannot matter where no partnership game is open to both.
_PARTNERS_ONLY = frozenset({("build", "for_partner"), ("build", "raise_partners"), ("build", "raise_for_partner")})


def _cannot_change_play(a: Rules, b: Rules, paths: list[tuple[str, ...]]) -> str:
    """Why settings about builds cannot change play between ``a`` and ``b`` ("" if they can).

    Where one variant allows no building, no position both can reach holds a build, so a rule
    that acts only on a build already made (raising it, adding to it, its owner's duty) never
    applies. (Rules about making a new build still can: the other variant's new builds are
    credited to them, A against A with B's value.) A rule about building for a partner cannot
    matter where no partnership game is open to both.
    """
    if not all(p[0] == "build" for p in paths):
        return ""
    if all(p[1] in _ON_EXISTING_BUILDS for p in paths):
        for r in (a, b):
            if not r.build.allowed:
                return f"{r.name} allows no building, so no position both reach holds a build for it to act on"
    if all(p in _PARTNERS_ONLY for p in paths):
        both = range(max(a.seats.min_players, b.seats.min_players), min(a.seats.max_players, b.seats.max_players) + 1)
        if not any(a.partnership(n, True) and b.partnership(n, True) for n in both):
            return "no partnership game is open to both, so no player has a partner's build to use"
    return ""


def _unread_by(a: Rules, b: Rules, paths: list[tuple[str, ...]]) -> str:
    """Why the settings ``paths`` cannot make the two games differ (``unread``): neither variant reads them (a build
    limit where neither builds), or one does not and what leaves them unread is a difference of its own, said in
    its own row (a lurch's limit in a game of one hand, against a game with no lurch: the target differs). "" where
    both read one of them. An audit found such settings counted as rules that differ, worded "no such rule here"
    on one side and "does not apply" on the other."""
    reasons: list[str] = []
    for path in paths:
        dotted = ".".join(str(p) for p in path)
        ways = [(r.name, unread(r, dotted)) for r in (a, b)]
        unread_here = [(name, way) for name, way in ways if way is not None]
        # (A setting of play read by one of them is searched for a position instead, ``differences.compare``:
        # South African Casino's pile settings against standard show moves of their own.)
        if not unread_here or (len(unread_here) == 1 and path[0] in IN_PLAY):
            return ""
        reasons += [f"{name} does not read it: {way.why}" for name, way in unread_here]
    return "; ".join(dict.fromkeys(reasons))


def same_items(a: Rules, b: Rules) -> dict[str, str]:
    """``b``'s scoring items that score what one of ``a``'s does under another name, as
    {b's name: a's name}: the same kind of count over the same cards (and, for a primiera,
    the same card points; for an "at least" item, the same number of cards). Scopa's cards,
    coins, settebello, primiera and sweeps are Escoba's cartas, oros, siete de oros, setenta
    and escobas: one item each, not two."""
    def shape(item: Any) -> tuple[Any, ...]:
        return (item.count, item.cards if item.count in ("most", "each", "at_least", "primiera") else None,
                tuple(item.card_points), item.all_suits if item.count == "primiera" else None,
                item.event if item.count == "event" else None, item.at_least)

    names_a = {i.name for i in a.scoring.items}
    names_b = {i.name for i in b.scoring.items}
    out: dict[str, str] = {}
    for ib in b.scoring.items:
        if ib.name in names_a:
            continue
        for ia in a.scoring.items:
            if ia.name in names_b or ia.name in out.values():
                continue
            if shape(ia) == shape(ib):   # (the same selector text: ``cards`` is part of the shape)
                out[ib.name] = ia.name
                break
    return out


def _renamed(data: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """``data`` with its scoring items renamed by ``names`` (and nothing else changed)."""
    if not names:
        return data
    scoring = dict(data["scoring"])
    scoring["items"] = {names.get(k, k): v for k, v in scoring["items"].items()}
    out = dict(data)
    out["scoring"] = scoring
    return out


def differences(a: Rules, b: Rules) -> list[Difference]:
    """The rules that differ between ``a`` and ``b``, in rulebook order, each said in both variants' words.
    An item ``b`` scores under another name (:func:`same_items`) is compared with ``a``'s as one item."""
    alias = same_items(a, b)
    flat_a, flat_b = flatten(dict(a.data)), flatten(_renamed(dict(b.data), alias))
    differing = [p for p in dict.fromkeys(list(flat_a) + list(flat_b)) if flat_a.get(p) != flat_b.get(p)]
    book_a, book_b = rulebook(a), rulebook(b)
    by_key: dict[str, list[tuple[str, ...]]] = {}
    for path in differing:
        by_key.setdefault(clause_key(path), []).append(path)
    order = {c: k for k, c in enumerate(list(book_a.clauses()) + list(book_b.clauses()))}
    out = []
    back = {v: k for k, v in alias.items()}
    for key, paths in by_key.items():
        words_a = _words(book_a, a, key)
        parts = key.split(".")
        words_b = _words(book_b, b, ".".join(parts[:2] + [back[parts[2]]] + parts[3:])
                         if key.startswith("scoring.items.") and len(parts) > 2 and parts[2] in back else key)
        unread_a, unread_b = _no_effect(a, book_a, b, paths), _no_effect(b, book_b, a, paths)
        why = "no rule of either variant depends on it" if unread_a and unread_b else \
            _cannot_change_play(a, b, paths) or _unread_by(a, b, paths)
        unread = a.name if unread_a and not unread_b else b.name if unread_b and not unread_a else ""
        under = _read_under(a, b, key, paths, (words_a, words_b))
        out.append(Difference(key, tuple(paths), words_a, words_b, bool(why), why, unread, under))
    section_order = ["seats", "deck", "deal", "capture", "build", "trail", "sweeps", "scoring", "game", "endgame"]
    out.sort(key=lambda d: (section_order.index(d.section) if d.section in section_order else 99,
                            order.get(d.key, 10_000), d.key))
    return out
