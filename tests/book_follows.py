"""Does the rulebook change wherever the play does? A player learns the game from the book (``cassino rules``,
which the tutorial and ``how`` quote): a setting that changes a move or a score without a word of the book
changing is a rule they cannot know, and ``cassino diff`` calls such a setting moot ("no rule of either variant
depends on it"), judging by the words alone.

So, over house rules drawn at random (``cassino.apps.authors.generated``, what ``soak.py --generated`` plays: one
to five settings over a bundled variant), each setting a rule overrides is taken out again (back to the base's
value), and where the two rulebooks read word for word the same, the rule with it and the rule without it must
play the same: ``cassino diff``'s position search for every difference of play (its worked examples first, then
random and constructed positions) finds no position whose legal moves differ, and its sample hand scores the same.
Settings drawn in combination are the point: one setting's words may hang on another's (Escoba's capture total
worded "one card or several" whatever ``capture.sums`` said, the first find).

``benchmarks/book_follows_play.py`` runs it over many seeds; ``tests/test_book_follows_play.py`` is its CI slice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

from cassino.apps.authors import generated
from cassino.apps.authors.differences import _same_cards, find_position, sample_scoring
from cassino.errors import CassinoError
from cassino.language.compare import differences
from cassino.language.rulebook import is_reading, rulebook
from cassino.language.rules import Rules
from cassino.language.unread import unread
from cassino.language.variants import load_rules


@dataclass(frozen=True)
class Silent:
    """A setting that changes play where the rulebook says nothing different."""

    seed: int
    rule: str            # the drawn house rule in one line (``generated.summary``)
    setting: str         # section.key taken out
    how: str             # "moves" (a position's legal moves differ) or "score" (the sample hand's points differ)
    example: str         # the first difference found, in a line


def _without(data: dict[str, Any], section: str, key: str) -> dict[str, Any]:
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in data.items()}
    del out[section][key]
    if not out[section]:
        del out[section]
    return out


def _loaded(data: dict[str, Any], folder: Path, name: str) -> Rules | None:
    try:
        return load_rules(str(generated.write(data, folder / f"{name}.yaml")))
    except CassinoError:
        return None


def _words(rules: Rules, readings: bool = True) -> tuple[tuple[str, str], ...]:
    return tuple((c.key, c.text) for s in rulebook(rules).sections for c in s.clauses if readings or not is_reading(c))


def played_apart(a: Rules, b: Rules, seed: int, tries: int) -> tuple[str, str] | None:
    """How A and B play apart ("moves" or "score", and the first difference in a line), or None where no position
    searched and no sample hand shows them apart. (Not ``differences.compare``: it searches no position for a
    difference whose words are the same in both books, calling it moot, which is the very claim checked here.)"""
    diffs = differences(a, b)
    for d in diffs:
        if d.in_play and d.key != "deck.packs":
            found = find_position(a, b, d, seed % 997 + 1, tries)
            if found is not None:
                return "moves", f"{d.key}: only without it {len(found.only_a)} moves, only with it {len(found.only_b)}"
    # (A hand's points differ otherwise only through its moves, which the search above looks at; the sample hands,
    # up to a dozen of them, are played where a difference is in what scores, makes a sweep or deals: as `diff` does.)
    if _same_cards(a, b) and any(d.section in ("scoring", "sweeps", "deal") for d in diffs):
        points = sample_scoring(a, b, seed % 997 + 1)["total"]
        if points["a"] != points["b"]:
            return "score", f"sample hand {points}"
    return None


def checks(seed: int, bases: Sequence[str], tries: int, folder: Path) -> Iterator[tuple[str, Silent | None]]:
    """For each setting of seed's drawn rule: ("said", None) where the two books' rules differ, ("silent", Silent)
    where the books do not differ and the play does, ("reading only", Silent) where only a reading ("Reading: ...",
    which the tutorial leaves out) differs and the play does, ("idle", None) where neither the rules' words nor the
    play differ, ("invalid", None) where the rule without the setting does not validate; and ("unread, yet plays",
    Silent) where the rule marks the setting unread (``language.unread``: `explain`'s "Not used here", `validate`'s
    warning) and taking it out changes the play all the same, or ("moot in diff, yet plays", Silent) where the books
    differ, `cassino diff` says the difference cannot change the game, and it does."""
    path, data = generated.valid(random.Random(seed), bases, folder, seed)
    house = load_rules(str(path))
    words, rules_words = _words(house), _words(house, readings=False)
    for section, settings in list(data.items()):
        if not isinstance(settings, dict):
            continue
        for key in list(settings):
            less = _loaded(_without(data, section, key), folder, f"less-{seed}")
            if less is None:
                yield "invalid", None
                continue
            value = settings[key]
            paths = [f"{section}.{key}.{k}" for k in value] if isinstance(value, dict) else [f"{section}.{key}"]
            if all(unread(house, p) is not None for p in paths):
                # `explain` marks it "Not used here" and `validate` warns of it: taking it out must change nothing.
                apart = played_apart(less, house, seed, tries)
                if apart is not None:
                    yield "unread, yet plays", Silent(seed, generated.summary(data), f"{section}.{key}", *apart)
                    continue
            if _words(less, readings=False) != rules_words:
                said = differences(less, house)
                if said and all(d.moot for d in said):
                    # `cassino diff` says the setting cannot change the game (a build rule where nobody builds):
                    # taking it out must change nothing.
                    apart = played_apart(less, house, seed, tries)
                    if apart is not None:
                        yield "moot in diff, yet plays", Silent(seed, generated.summary(data), f"{section}.{key}",
                                                                *apart)
                        continue
                yield "said", None
                continue
            apart = played_apart(less, house, seed, tries)
            if apart is None:
                yield "idle", None
                continue
            outcome = "silent" if _words(less) == words else "reading only"
            yield outcome, Silent(seed, generated.summary(data), f"{section}.{key}", *apart)
