"""A variant's rules in words: each setting's value beside what the schema says it means.

The schema's descriptions are the single place settings are documented, so the
explanation cannot drift from what the engine reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .resolve import Resolved
from .rulebook import humanize, reading_applies
from .rules import Rules
from .schema import load_schema
from .unread import unused

SECTIONS = ("deck", "seats", "deal", "capture", "build", "trail", "sweeps", "scoring", "game", "endgame")


def _short(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(_short(v) for v in value) if value else "none"
    if isinstance(value, dict):
        # (A key left unset in a row, such as a `deal.by_players` row without `table_cards`,
        # keeps the setting above it: not shown, rather than shown as "none".)
        return ", ".join(f"{k} {_short(v)}" for k, v in value.items() if v is not None)
    return str(value)


def _file_name(display: str) -> str:
    """A document's file name from its display form (``standard (/x/variants/standard.yaml)`` or a path)."""
    if display.endswith(")") and " (" in display:
        display = display[display.index(" (") + 2:-1]
    return Path(display).name


class _Origins:
    """Where each setting of an extending file comes from (issue 36: settings inherited without a
    word). A file that extends nothing needs no marks: every value is its own or the default."""

    def __init__(self, resolved: Resolved | None) -> None:
        self.resolved = resolved if resolved is not None and len(resolved.documents) > 1 else None
        # Each parent as the file before it names it in `extends` (`standard`, or a path as written).
        self.named: dict[int, str] = {}
        if self.resolved is not None:
            docs = self.resolved.documents
            for k in range(1, len(docs)):
                ref = docs[k - 1].data.get("extends")
                self.named[id(docs[k])] = ref if isinstance(ref, str) and ref else _file_name(docs[k].path)

    def _name(self, doc: Any) -> str:
        return self.named.get(id(doc), _file_name(doc.path))

    def header(self) -> list[str]:
        if self.resolved is None:
            return []
        chain = " -> ".join(self._name(doc) for doc in self.resolved.documents[1:])
        return [f"extends: {chain}",
                f"  a value marked [from FILE] is inherited from that file, [default] is the schema's default; "
                f"unmarked values are set by {_file_name(self.resolved.documents[0].path)} itself"]

    def mark(self, *path: str) -> str:
        if self.resolved is None:
            return ""
        found = self.resolved.origin.get(tuple(path))
        if found is None:
            return "   [default]"
        doc = found[0]
        return "" if doc is self.resolved.documents[0] else f"   [from {_file_name(doc.path)}]"


class _Readings:
    """The file's readings that still apply (issue 36), each said once, under its setting's line."""

    def __init__(self, rules: Rules) -> None:
        self.left = [r for r in rules.readings if reading_applies(rules, r)]

    def under(self, setting: str, prefix: bool = False) -> list[str]:
        taken = [r for r in self.left if r.setting == setting
                 or prefix and (not setting or r.setting.startswith(setting + "."))]
        self.left = [r for r in self.left if r not in taken]
        return [f"      Reading{'' if r.setting == setting else f' ({r.setting})'}: {r.text}"
                + (f" (source: {r.source})" if r.source else "") for r in taken]


class _NotUsed:
    """The "Not used here" line under each unread setting (``unread``): its reason in full the first time,
    "as above" where the setting just before it was unread for the same reason (Scopa's eighteen build
    settings say why once)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.last = ""

    def line(self, setting: str) -> str:
        why = unused(self.rules, setting)
        said, self.last = self.last, why
        if not why:
            return ""
        return "\n      Not used here (as above)." if why == said else f"\n      Not used here: {why}."


def explain(rules: Rules, resolved: Resolved | None = None) -> str:
    """Every setting of ``rules`` beside the schema's description; with ``resolved`` (the file's
    `extends` chain), each value the file does not set itself says which file or default gives it."""
    schema = load_schema()["properties"]
    d = rules.data
    origins = _Origins(resolved)
    said = _Readings(rules)
    not_used = _NotUsed(rules)
    # (the description on its one line, its line breaks read as spaces: a break let a rule file write a line of its
    # own, such as a forged `::error` command, into a CI log; a security audit's find)
    lines = [f"{rules.name}: {' '.join(rules.description.split())}{origins.mark('description')}",
             f"source: {rules.source}{origins.mark('source')}", *origins.header(), ""]
    deck = d["deck"]
    ranks = ", ".join(f"{r['rank']}={_short(r['value']) if r['value'] is not None else 'no value'}" for r in deck["ranks"])
    suits = ", ".join(f"{s['letter']} {s['name']}" for s in deck["suits"])
    lines += ["deck", f"  {len(deck['ranks']) * len(deck['suits'])} cards; values {ranks}{origins.mark('deck', 'ranks')}",
              f"  suits: {suits}{origins.mark('deck', 'suits')}", ""]
    if deck.get("card_values"):
        lines.insert(-1, "  card values: " + ", ".join(
            f"{c['card']}" + "".join(f" {k} {_short(c[k])}" for k in ("hand", "table") if c.get(k) is not None)
            for c in deck["card_values"]) + origins.mark("deck", "card_values"))
    packs = deck.get("packs", 1)
    if packs > 1:   # two packs (issue 27): after the suits, before the blank line
        lines.insert(-1, f"  packs = {packs}: {packs * len(deck['ranks']) * len(deck['suits'])} cards, every card "
                         f"{'twice' if packs == 2 else str(packs) + ' times'} (copies are the same card for play)")
    for section in SECTIONS[1:]:
        if section == "scoring":
            lines.append("scoring")
            for item in rules.scoring.items:
                what = {"most": f"most cards matching `{item.cards}`", "each": f"each card matching `{item.cards}`",
                        "at_least": f"at least {item.at_least} cards matching `{item.cards}`, to every side "
                                    f"that has them",
                        "sweeps": "each sweep", "event": f"each `{item.event}` capture",
                        "last_capture": "the last capture",
                        "primiera": f"the best total of one card a suit matching `{item.cards}`, by "
                                    + ", ".join(f"{r} {p}" for r, p in item.card_points)
                                    + ("; every suit needed" if item.all_suits else "")}[item.count]
                extra = ""
                if item.by_size:
                    extra = " (" + "; ".join(f"{r.points} for {r.min_cards}" + (f"-{r.max_cards}" if r.max_cards else "+")
                                             + " cards" for r in item.by_size) + ")"
                if item.first_play_points is not None:
                    extra += f" ({item.first_play_points} for a first-play sweep)"
                if item.previous_player_points:
                    extra += f" ({item.previous_player_points} to the player seated just before in the order of play)"
                if item.at_end and rules.scoring.when == "as_won":
                    extra += " (not pegged: counted at the end of the hand)"
                ties = f", ties: {item.ties}" if item.count in ("most", "primiera") else ""
                lines.append(f"  {item.name}: {item.points} for {what}{extra}{ties}"
                             f"{origins.mark('scoring', 'items', item.name)}")
                lines += said.under("scoring.items." + item.name, prefix=True)
            for ev in rules.scoring.events:
                lines.append(f"  event {ev.name}: one capture taking from the table " + " and ".join(f"`{t}`" for t in ev.takes)
                             + origins.mark("scoring", "events", ev.name))
            lines.append(f"  points count: {rules.scoring.when}{origins.mark('scoring', 'when')}")
            lines.append("")
            continue
        props = schema[section]["properties"]
        lines.append(section)
        for key, value in d[section].items():
            if isinstance(value, dict) and "properties" in props.get(key, {}):
                for sub, v in value.items():
                    desc = props[key]["properties"][sub]["description"]
                    lines.append(f"  {key}.{sub} = {_short(v)}{origins.mark(section, key, sub)}\n      {desc}"
                                 + not_used.line(f"{section}.{key}.{sub}"))
                    lines += said.under(f"{section}.{key}.{sub}")
                continue
            desc = props.get(key, {}).get("description", "")
            shown = _short(value)
            if (section, key) == ("game", "count_out") and isinstance(value, list):   # items as the rulebook names them
                shown = ", ".join(humanize(str(v)) for v in value) or "none"
            lines.append(f"  {key} = {shown}{origins.mark(section, key)}\n      {desc}"
                         + not_used.line(f"{section}.{key}"))
            lines += said.under(f"{section}.{key}", prefix=True)
        lines.append("")
    rest = said.under("", prefix=True)   # the deck's, and any a line above did not take
    if rest:
        lines += ["readings", *rest, ""]
    return "\n".join(lines).rstrip() + "\n"
