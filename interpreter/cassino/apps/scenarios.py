"""Scenario files: executable rule examples, run by ``cassino check`` (see SCENARIOS.md).

A file names a variant and lists cases; each case sets up a position, may play
moves, and states what must hold: moves legal or illegal, points for the hand,
game scores, the winner. A case whose position is impossible fails with a
message that says why; a file that is not a scenario file is an error (exit 2).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..language.cards import Card, CardError
from ..engine.core import Engine, Position, subsets_summing, unions
from ..errors import CassinoError, Diagnostic, RuleFileError
from ..engine.moves import MoveSyntaxError
from ..engine.notation import format_move, parse_move
from ..language.rules import Rules
from ..engine.scoring import Scorer
from ..engine.state import HandState
from ..language.variants import load
from ..language.yamlsource import Document, load_yaml

FILE_KEYS = {"variant", "players", "cases", "description", "source"}
CASE_KEYS = {"name", "variant", "players", "partners", "to_play", "dealer", "hand", "hands", "table", "builds",
             "captured", "sweeps", "last_capture", "scores", "moves", "expect", "source", "description"}
EXPECT_KEYS = {"legal", "illegal", "hand_points", "scores", "winner", "exactly"}


class ImpossiblePosition(CassinoError):
    """A case's position cannot exist in the variant (a card twice, a card not in the deck, ...)."""


@dataclass
class CaseResult:
    name: str
    passed: bool
    problems: list[str] = field(default_factory=list)


@dataclass
class FileResult:
    path: str
    cases: list[CaseResult]


def _near(word: str, choices: set[str]) -> str | None:
    m = difflib.get_close_matches(word, sorted(choices), n=1)
    return f"did you mean `{m[0]}`?" if m else None


def _check_shape(doc: Document) -> list[Diagnostic]:
    """Structural problems that make the file unusable (exit 2)."""
    data = doc.data
    out: list[Diagnostic] = []
    if not isinstance(data, dict):
        return [doc.diagnostic((), "a scenario file is a mapping with `variant` and `cases`")]
    for key in data:
        if key not in FILE_KEYS:
            out.append(doc.diagnostic((key,), f"unknown key `{key}` in a scenario file", key=True,
                                      hint=_near(str(key), FILE_KEYS)))
    cases = data.get("cases")
    if not isinstance(cases, list):
        out.append(doc.diagnostic(("cases",) if "cases" in data else (),
                                  "`cases` must be a list of cases (each a mapping with a `name`)"))
        return out
    if "variant" not in data and not all(isinstance(c, dict) and "variant" in c for c in cases):
        out.append(doc.diagnostic((), "no `variant`: name a bundled variant or a rule file at the top of the file"))
    names: dict[str, int] = {}
    for i, case in enumerate(cases):
        if not isinstance(case, dict):
            out.append(doc.diagnostic(("cases", i), "a case is a mapping (name: ..., expect: ...)"))
            continue
        for key in case:
            if key not in CASE_KEYS:
                out.append(doc.diagnostic(("cases", i, key), f"unknown key `{key}` in case {i + 1}", key=True,
                                          hint=_near(str(key), CASE_KEYS)))
        name = case.get("name")
        if not isinstance(name, str) or not name:
            out.append(doc.diagnostic(("cases", i), f"case {i + 1} has no `name`"))
        elif name in names:
            out.append(doc.diagnostic(("cases", i, "name"), f"case name {name!r} is used twice (first in case {names[name] + 1})"))
        else:
            names[name] = i
        expect = case.get("expect", {})
        if not isinstance(expect, dict):
            out.append(doc.diagnostic(("cases", i, "expect"), "`expect` is a mapping (legal, illegal, hand_points, scores, winner)"))
            continue
        for key in expect:
            if key not in EXPECT_KEYS:
                out.append(doc.diagnostic(("cases", i, "expect", key), f"unknown expectation `{key}`", key=True,
                                          hint=_near(str(key), EXPECT_KEYS)))
    return out


class Runner:
    """Runs scenario files; caches variants so many cases stay fast."""

    def __init__(self) -> None:
        self._rules: dict[str, tuple[Rules, Engine, Scorer]] = {}

    def variant(self, ref: str, base: Path) -> tuple[Rules, Engine, Scorer]:
        ref = str(ref)
        is_path = "/" in ref or ref.endswith((".yaml", ".yml"))
        key = str((base / ref).resolve()) if is_path else ref
        if key not in self._rules:
            rules = load(key).rules
            engine = Engine(rules)
            self._rules[key] = (rules, engine, Scorer(engine))
        return self._rules[key]

    def run_file(self, path: str | Path) -> FileResult:
        """Raises RuleFileError when the file cannot be used at all."""
        doc = load_yaml(path)
        problems = _check_shape(doc)
        if problems:
            raise RuleFileError(problems)
        data = doc.data
        base = Path(path).resolve().parent
        try:
            if "variant" in data:
                self.variant(data["variant"], base)
        except RuleFileError as e:
            raise RuleFileError([doc.diagnostic(("variant",), f"variant {data['variant']!r} cannot be loaded")]
                                + e.diagnostics) from None
        results = []
        for case in data["cases"]:
            results.append(self.run_case(case, data, base))
        return FileResult(str(path), results)

    def run_case(self, case: dict[str, Any], file: dict[str, Any], base: Path) -> CaseResult:
        name = str(case["name"])
        try:
            rules, engine, scorer = self.variant(case.get("variant", file.get("variant")), base)
        except RuleFileError as e:
            return CaseResult(name, False, ["the variant cannot be loaded:"] + [d.format(caret=False) for d in e.diagnostics])
        try:
            state, scores = self.position(case, file, rules, engine)
        except (ImpossiblePosition, CardError, ValueError) as e:
            return CaseResult(name, False, [f"impossible position: {e}"])
        problems: list[str] = []
        for k, text in enumerate(case.get("moves") or []):
            try:
                move = parse_move(str(text), engine.deck)
            except MoveSyntaxError as e:
                return CaseResult(name, False, [f"moves[{k}] cannot be read: {e}"])
            if move not in engine.legal_moves(state):
                return CaseResult(name, False, [f"moves[{k}] {text!r} is refused: {engine.why_illegal(state, move)}"])
            state = engine.apply(state, move)
        expect = case.get("expect") or {}
        legal = engine.legal_moves(state)
        legal_set = set(legal)
        for text in expect.get("legal") or []:
            problems += self._expect_move(engine, state, legal_set, str(text), should_be_legal=True)
        for text in expect.get("illegal") or []:
            problems += self._expect_move(engine, state, legal_set, str(text), should_be_legal=False)
        if "exactly" in expect:
            problems += self._expect_exactly(engine, legal, expect["exactly"] or [])
        side_key = {s: min(seat for seat in range(state.players) if state.teams[seat] == s) for s in state.sides}
        if "hand_points" in expect:
            points, _ = scorer.hand_points(state, {s: scores.get(side_key[s], 0) for s in state.sides})
            found = {side_key[s]: p for s, p in points.items()}
            problems += _compare("hand_points", expect["hand_points"], found)
        if "scores" in expect or "winner" in expect:
            result = scorer.result(state, {s: scores.get(side_key[s], 0) for s in state.sides})
            if "scores" in expect:
                problems += _compare("scores", expect["scores"], {side_key[s]: v for s, v in result.scores.items()})
            if "winner" in expect:
                found_w = None if result.winner is None else side_key[result.winner]
                if found_w != expect["winner"]:
                    problems.append(f"winner: expected {expect['winner']}, found {found_w}")
        return CaseResult(name, not problems, problems)

    @staticmethod
    def _expect_move(engine: Engine, state: HandState, legal: set, text: str, should_be_legal: bool) -> list[str]:
        try:
            move = parse_move(text, engine.deck)
        except MoveSyntaxError as e:
            return [f"cannot read {text!r}: {e}"]
        is_legal = move in legal
        if should_be_legal and not is_legal:
            return [f"expected legal: {text}\n  found illegal: {engine.why_illegal(state, move)}"]
        if not should_be_legal and is_legal:
            return [f"expected illegal: {text}\n  found legal"]
        return []

    @staticmethod
    def _expect_exactly(engine: Engine, legal: list, texts: list) -> list[str]:
        want = set()
        for text in texts:
            try:
                want.add(parse_move(str(text), engine.deck))
            except MoveSyntaxError as e:
                return [f"cannot read {text!r}: {e}"]
        have = set(legal)
        out = []
        for m in sorted(want - have, key=lambda m: format_move(m, engine.deck)):
            out.append(f"exactly: expected legal, found illegal: {format_move(m, engine.deck)}")
        for m in sorted(have - want, key=lambda m: format_move(m, engine.deck)):
            out.append(f"exactly: found legal but not listed: {format_move(m, engine.deck)}")
        return out

    # ------------------------------------------------------------------ positions
    def position(self, case: dict[str, Any], file: dict[str, Any], rules: Rules,
                 engine: Engine) -> tuple[HandState, dict[int, int]]:
        deck = engine.deck
        players = int(case.get("players", file.get("players", rules.seats.min_players)))
        if not rules.seats.min_players <= players <= rules.seats.max_players:
            raise ImpossiblePosition(f"{rules.name} is for {rules.seats.min_players}-{rules.seats.max_players} players, not {players}")
        partners = case.get("partners")
        if partners and players != 4:
            raise ImpossiblePosition("partners need 4 players")
        to_play = int(case.get("to_play", 0))
        seats = range(players)
        if to_play not in seats:
            raise ImpossiblePosition(f"to_play {to_play} is not a seat (seats 0-{players - 1})")
        placed: dict[Card, str] = {}

        def cards(value: Any, where: str) -> list[Card]:
            if value is None:
                return []
            if not isinstance(value, list):
                raise ImpossiblePosition(f"{where} must be a list of cards")
            out = []
            for text in value:
                try:
                    card = deck.parse(str(text))
                except CardError as e:
                    raise ImpossiblePosition(f"{where}: {e}") from None
                if card in placed:
                    raise ImpossiblePosition(f"{card} is placed twice ({placed[card]} and {where})")
                placed[card] = where
                out.append(card)
            return out

        def seat_of(key: Any, where: str) -> int:
            try:
                seat = int(key)
            except (TypeError, ValueError):
                raise ImpossiblePosition(f"{where}: {key!r} is not a seat number") from None
            if seat not in seats:
                raise ImpossiblePosition(f"{where}: seat {seat} does not exist with {players} players")
            return seat

        hands: dict[int, list[Card]] = {}
        for key, value in (case.get("hands") or {}).items():
            seat = seat_of(key, "hands")
            hands[seat] = cards(value, f"hands[{seat}]")
        if "hand" in case:
            if to_play in hands:
                raise ImpossiblePosition(f"both `hand` and `hands[{to_play}]` give the hand of seat {to_play}")
            hands[to_play] = cards(case["hand"], "hand")
        table = cards(case.get("table"), "table")
        builds = []
        for k, b in enumerate(case.get("builds") or []):
            if not isinstance(b, dict) or "cards" not in b or "value" not in b:
                raise ImpossiblePosition(f"builds[{k}] needs `cards` and `value`")
            bc = cards(b["cards"], f"builds[{k}]")
            value = b["value"]
            if isinstance(value, str) and not value.isdigit():
                value = value.upper()
            else:
                value = int(value)
            owner = seat_of(b.get("owner", to_play), f"builds[{k}].owner")
            self._check_build(engine, bc, value, k)
            builds.append((bc, value, owner))
        captured: dict[int, list[Card]] = {}
        rest_seat = None
        for key, value in (case.get("captured") or {}).items():
            seat = seat_of(key, "captured")
            if value == "rest":
                if rest_seat is not None:
                    raise ImpossiblePosition("`rest` is given to two seats")
                rest_seat = seat
                continue
            captured[seat] = cards(value, f"captured[{seat}]")
        if rest_seat is not None:
            captured[rest_seat] = [c for c in deck.cards if c not in placed]
            for c in captured[rest_seat]:
                placed[c] = f"captured[{rest_seat}]"
        sweeps: dict[int, list[int]] = {}
        for key, value in (case.get("sweeps") or {}).items():
            seat = seat_of(key, "sweeps")
            if isinstance(value, list):
                sweeps[seat] = [int(v) for v in value]
            else:
                if any(i.count == "sweeps" and i.by_size for i in rules.scoring.items):
                    raise ImpossiblePosition("this variant scores sweeps by size: give each seat's sweeps as a "
                                             "list of sizes, e.g. {0: [4, 2]}")
                sweeps[seat] = [1] * int(value)
        last = case.get("last_capture")
        pos = Position(players=players, partners=bool(partners) if partners is not None else False,
                       to_play=to_play, dealer=case.get("dealer"), hands=hands, table=table, builds=builds,
                       captured=captured, sweeps=sweeps,
                       last_capture=seat_of(last, "last_capture") if last is not None else None)
        if partners is None and rules.seats.partnerships == "always" and players == 4:
            pos = replace(pos, partners=True)
        state = engine.position(pos)
        if rest_seat is not None and not case.get("moves"):
            state = state.with_(over=True, stock=())
        scores = {seat_of(k, "scores"): int(v) for k, v in (case.get("scores") or {}).items()}
        return state, scores

    @staticmethod
    def _check_build(engine: Engine, cards: list[Card], value: int | str, k: int) -> None:
        deck = engine.deck
        mask = deck.mask(cards)
        if len(cards) < 2:
            raise ImpossiblePosition(f"builds[{k}] has {len(cards)} card: a build has two or more")
        if isinstance(value, str):
            if any(c.rank != value for c in cards):
                raise ImpossiblePosition(f"builds[{k}]: a build announced as {value} holds only {value}s")
            return
        items = [(1 << deck.index(c), deck.table_values[deck.index(c)]) for c in cards]
        if any(not v for _, v in items) or mask not in unions(subsets_summing(items, value)):
            names = " ".join(str(c) for c in cards)
            raise ImpossiblePosition(f"builds[{k}]: the cards {names} cannot make a build of {value}")


def _compare(what: str, expected: Any, found: dict[int, int]) -> list[str]:
    if not isinstance(expected, dict):
        return [f"{what}: expected a mapping of seat to points, found {expected!r}"]
    out = []
    for key, want in expected.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            out.append(f"{what}: {key!r} is not a seat")
            continue
        if seat not in found:
            out.append(f"{what}[{seat}]: no such side (sides are given by their lowest seat: {sorted(found)})")
        elif found[seat] != want:
            out.append(f"{what}[{seat}]: expected {want}, found {found[seat]}")
    return out


