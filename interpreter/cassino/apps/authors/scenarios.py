"""Scenario files: executable rule examples, run by ``cassino check`` (docs/scenarios.md).

A file names a variant and lists cases; each case sets up a position, may play
moves (and claims), and states what must hold: moves legal or illegal, the
position after the moves, points for the hand, game scores, the winner.

A case runs as a game of the variant standing at its position (``Game.at``) and
its moves are played through ``Game.play``, so a case is scored by the code that
scores play, on play's timing: sweeps cancel as they are recorded, points that
count at the end of the hand wait for it, pegged points end the game the moment
they reach the target, a finished hand is scored with the game's rules.

Three kinds of trouble, kept apart:
- a mistake in writing the file (wrong type, a claim where the variant has none,
  a move after the game or the hand is over, a stock that cannot be): exit 2, FILE:LINE;
- a position that cannot exist (a card twice, a card the deck lacks, a build its cards cannot
  make): the case fails, and the run goes on (docs/SCENARIOS contract); a card's failure is
  located, FILE:LINE:COL of the card and, for a card twice, of both places;
- an expectation that does not hold: the case fails, with expected and found.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from ...engine.core import Engine, Position, bits, subsets_summing, unions
from ...engine.game import Game
from ...engine.moves import Move, MoveKind, MoveSyntaxError
from ...engine.notation import VALUE_DIGITS, cards_text, format_move, parse_move, parse_turn
from ...engine.scoring import Scorer
from ...engine.state import Build, Capture, Event, HandState, Sweep
from ...errors import CassinoError, Diagnostic, PositionTooLargeError, RuleFileError
from ...files import real_path
from ...language.cards import Card, CardError
from ...language.rules import Rules
from ...language.catalogue import did_you_mean, shipped_name
from ...language.resolve import Confinement, as_given, named_document, names_a_path
from ...language.variants import load
from ...language.yamlsource import Document, PathT
from .scenario_format import check_file as _check_structure


def check_file(doc: Document, expectations: bool = True) -> list[Diagnostic]:
    """``scenario_format.check_file``, and each case's name one line: `check` prints it on a line of its own
    (``FILE: FAILED: NAME``), where a line break would let a file write lines of its own (a forged problem, or a
    CI runner's ``::error::`` command)."""
    out = _check_structure(doc, expectations)
    cases = doc.data.get("cases") if isinstance(doc.data, dict) else None
    for i, case in enumerate(cases if isinstance(cases, list) else []):
        name = case.get("name") if isinstance(case, dict) else None
        if isinstance(name, str) and any(c in name for c in "\n\r\x85\u2028\u2029"):
            out.append(doc.diagnostic(("cases", i, "name"), f"case name {name[:40]!r} holds a line break: a case's "
                                                            f"name is one line", hint="write the name on one line"))
    return out


class ImpossiblePosition(CassinoError):
    """A case's position cannot exist in the variant (a card twice, a card not in the deck, ...).

    The case fails (the contract: an impossible position never stops the run); ``path`` and
    ``earlier`` are the places in the case the failure is about, so its message can say where;
    ``key``: ``path`` is a mapping's key, said at the key itself (a seat that is not at the table)."""

    def __init__(self, message: str, path: PathT | None = None, earlier: PathT | None = None, *,
                 key: bool = False) -> None:
        super().__init__(message)
        self.path = path
        self.earlier = earlier          # the other place of a card given twice
        self.key = key


class FileMistake(CassinoError):
    """A mistake in writing a case that only the variant or the moves reveal (exit 2, at a place)."""

    def __init__(self, path: PathT, message: str, hint: str | None = None, earlier: PathT | None = None, *,
                 key: bool = False) -> None:
        super().__init__(message)
        self.path = path
        self.hint = hint
        self.earlier = earlier          # a second place in the case the message is about (a card given twice)
        self.key = key                  # ``path`` is a mapping's key (a seat), said at the key itself


@dataclass
class CaseResult:
    name: str
    passed: bool
    problems: list[str] = field(default_factory=list)


@dataclass
class FileResult:
    path: str
    cases: list[CaseResult]


@dataclass
class Setup:
    """A case's game at its position, before its moves."""

    game: Game
    start: HandState                # the hand as the case gives it (a scoring case's is over)
    scores: dict[int, int]          # as given, by seat
    explicit_stock: bool


@dataclass
class Outcome:
    """Where a case's moves leave it."""

    game: Game
    hand: HandState                 # the case's hand: as the moves left it, or finished
    hand_no: int                    # the case's hand in the game (its result is results[hand_no - 1])

    @property
    def hand_finished(self) -> bool:
        return self.hand.over


class VariantRefused(RuleFileError):
    """A scenario's `variant:` that may not be read (said at the scenario's own `variant` line)."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__([Diagnostic("", 0, 0, message, hint=hint)])
        self.message = message
        self.hint = hint


class Runner:
    """Runs scenario files; caches variants so many cases stay fast."""

    def __init__(self) -> None:
        self._rules: dict[str, tuple[Rules, Engine, Scorer]] = {}

    def variant(self, ref: str, base: Path) -> tuple[Rules, Engine, Scorer]:
        """The variant a scenario's `variant:` names: a bundled variant or shipped example by name, or a
        rule file by a path relative to the scenario's folder ``base``, which obeys the rule `extends`
        obeys (docs/security.md), as does every `extends` of its chain; never a file of the current folder
        by a bare name (`variant: .env`)."""
        ref = str(ref)
        is_path = names_a_path(ref)
        real = real_path(base / ref)   # (resolved once: the path checked is the path read)
        key = str(real) if is_path else ref
        confined = Confinement.within(base, resolved=True)
        if is_path:
            refused = confined.refusal(base / ref, real)
            if refused is not None:
                raise VariantRefused(f"`variant` may not name `{ref}`: {refused}", confined.hint("variant"))
        elif not shipped_name(ref):
            raise VariantRefused(f"no bundled variant or house-rule example named `{ref}`", did_you_mean(ref) +
                                 "name one by name (cassino list), or a rule file by its path ending in .yaml "
                                 "(relative to this file's folder)")
        if key not in self._rules:
            try:
                rules = load(key, confinement=confined).rules
            except RuleFileError as e:   # (its files named as the scenario file is: relative to the current
                # folder where they lie within it, not by the absolute path `variant:` was resolved to)
                raise RuleFileError([replace(d, file=as_given(d.file)) for d in e.diagnostics]) from None
            engine = Engine(rules)
            self._rules[key] = (rules, engine, Scorer.of(engine))
        return self._rules[key]

    def run_file(self, path: str | Path) -> FileResult:
        """Raises RuleFileError when the file cannot be used: its structure, or a mistake a case reveals."""
        doc, real = named_document(path)
        problems = check_file(doc)
        if problems:
            raise RuleFileError(problems)
        data = doc.data
        base = real.parent   # (the folder of the file that was read, not the path resolved again)
        try:
            if "variant" in data:
                self.variant(data["variant"], base)
        except VariantRefused as e:
            raise RuleFileError([doc.diagnostic(("variant",), e.message, hint=e.hint)]) from None
        except RuleFileError as e:
            raise RuleFileError([doc.diagnostic(("variant",), f"variant {data['variant']!r} cannot be loaded")]
                                + e.diagnostics) from None
        results: list[CaseResult] = []
        mistakes: list[Diagnostic] = []
        for i, case in enumerate(data["cases"]):
            try:
                results.append(self.run_case(case, data, base, locator(doc, ("cases", i))))
            except FileMistake as e:
                message = f"case {case['name']!r}: {e}"
                if e.earlier is not None:
                    line, column = doc.position(("cases", i) + e.earlier)
                    message += f" (line {line}, column {column})"
                mistakes.append(doc.diagnostic(("cases", i) + e.path, message, hint=e.hint, key=e.key))
        if mistakes:
            raise RuleFileError(mistakes)
        return FileResult(str(path), results)

    def starts(self, path: str | Path) -> tuple[list[tuple[str, str, Game]], int]:
        """Each case of a scenario file as a position to play on from: (the case's name, its variant as
        ``load_rules`` reads it, its game before its moves), for the matrix's runs from written positions,
        and how many cases the file has. Left out: a case whose variant cannot be used (as ``run_file``
        would say), a position that cannot be (a case that asserts so), and a game already over (a
        scoring case of a game's last hand). RuleFileError for a file whose structure is wrong."""
        doc, real = named_document(path)
        problems = check_file(doc)
        if problems:
            raise RuleFileError(problems)
        data, base = doc.data, real.parent
        out: list[tuple[str, str, Game]] = []
        for case in data["cases"]:
            ref = str(case.get("variant", data.get("variant")))
            try:
                rules, engine, scorer = self.variant(ref, base)
                setup = self.setup(case, data, rules, engine, scorer)
            except CassinoError:      # (a refused variant, an impossible position: as such a case fails)
                continue
            if not setup.game.over and not setup.game.hand.over:
                out.append((str(case["name"]), str(real_path(base / ref)) if names_a_path(ref) else ref, setup.game))
        return out, len(data["cases"])

    def run_case(self, case: dict[str, Any], file: dict[str, Any], base: Path,
                 locate: Locator | None = None) -> CaseResult:
        """One case of a file that passed the structure check; FileMistake for a mistake it reveals.
        ``locate`` turns a place in the case into FILE:LINE:COL for an impossible position's message."""
        name = str(case["name"])
        try:
            rules, engine, scorer = self.variant(case.get("variant", file.get("variant")), base)
        except VariantRefused as e:
            raise FileMistake(("variant",) if "variant" in case else (), e.message, hint=e.hint) from None
        except RuleFileError as e:
            return CaseResult(name, False, ["the variant cannot be loaded:"] + [d.format(caret=False) for d in e.diagnostics])
        expect = case.get("expect")
        for k, b in enumerate(expect.get("builds") or [] if isinstance(expect, dict) else []):
            _build_value(b["value"], engine, ("expect", "builds", k, "value"))   # (a mistake in the file, before any run)
        try:
            setup = self.setup(case, file, rules, engine, scorer)
        except (ImpossiblePosition, CardError) as e:
            return CaseResult(name, False, [impossible_message(e, locate)])
        if setup.game.over and setup.game.ended_by == "pegging" and not setup.start.over:
            # (a hand in play, whatever the case asks: a reader of the document alone found such a position passed
            # with no moves, failed a `legal` expectation, and was refused only with moves; a finished hand, a
            # scoring case, is scored as play would score it)
            won = setup.game.winner
            raise FileMistake(("captured",) if "captured" in case else ("scores",) if "scores" in case else (),
                              f"the cards in `captured`, pegged on top of `scores`, already take "
                              f"{'side ' if won is None else 'seat ' + str(_lowest_seats(setup.start)[won]) + ' '}to "
                              f"the target ({setup.game.target}): the position comes after the end of the game",
                              hint="give fewer cards to that pile, or a lower score before the hand")
        outcome = play_moves(case, setup, engine, locate)
        if isinstance(outcome, str):
            return CaseResult(name, False, [outcome])
        problems = _Expectations(engine, outcome, locate).check(case["expect"])
        return CaseResult(name, not problems, problems)

    def position(self, case: dict[str, Any], file: dict[str, Any], rules: Rules,
                 engine: Engine) -> tuple[HandState, dict[int, int]]:
        """A case's hand before its moves, and the scores it gives (for ``perft --scenario``)."""
        setup = self.setup(case, file, rules, engine, Scorer.of(engine))
        return setup.start, setup.scores

    # ------------------------------------------------------------------ positions
    def setup(self, case: dict[str, Any], file: dict[str, Any], rules: Rules, engine: Engine,
              scorer: Scorer) -> Setup:
        deck = engine.deck
        # A build's value in words (`value: eight`) is a mistake in the file, said before any impossible position.
        values = [_build_value(b["value"], engine, ("builds", k, "value")) for k, b in enumerate(case.get("builds") or [])]
        players = case.get("players", file.get("players", rules.seats.min_players))
        if not rules.seats.min_players <= players <= rules.seats.max_players:
            seats = rules.seats
            allowed = (f"{seats.min_players}" if seats.min_players == seats.max_players
                       else f"{seats.min_players}-{seats.max_players}")
            raise ImpossiblePosition(f"{rules.name} is for {allowed} players, not {players}",
                                     ("players",) if "players" in case else (FILE_LEVEL, "players") if "players" in file
                                     else None)
        partners = case.get("partners")
        if partners and rules.seats.partnerships == "never":
            raise ImpossiblePosition(f"{rules.name} is never played in partnerships (seats.partnerships: never): "
                                     f"leave `partners` out", ("partners",))
        if partners and players not in rules.seats.partnership_players:
            counts = " or ".join(str(n) for n in rules.seats.partnership_players)
            raise ImpossiblePosition(f"partners need {counts} players", ("partners",))
        if partners is False and rules.seats.partnerships == "always" and players in rules.seats.partnership_players:
            # (an audit's 4-player Dominican case asked for no partners and was scored in teams without a word)
            raise ImpossiblePosition(f"{rules.name} always seats {players} players as partners (seats.partnerships: "
                                     f"always): leave `partners` out, or give it as true", ("partners",))
        to_play = case.get("to_play", 0)
        seats = range(players)
        if to_play not in seats:
            raise ImpossiblePosition(f"to_play {to_play} is not a seat (seats 0-{players - 1})", ("to_play",))
        # Where each card is placed and written, one entry a copy (with two packs, `deck.packs`,
        # a card may be placed twice; one pack, once).
        placed: dict[Card, list[str]] = {}
        written: dict[Card, list[PathT]] = {}

        def cards(value: Any, where: str, path: PathT) -> list[Card]:
            """A list of cards of the case: a card the deck lacks, or one placed more often than
            the deck holds it, makes the position impossible (the case fails, at the card's place)."""
            out = []
            for k, text in enumerate(value or []):
                try:
                    card = deck.parse(str(text))
                except CardError as e:
                    raise ImpossiblePosition(f"`{where}`: {e}", path + (k,)) from None
                if len(placed.get(card, ())) >= deck.packs:
                    if deck.packs == 1:
                        raise ImpossiblePosition(f"card {card} is placed twice: in `{where}` here and in "
                                                 f"`{placed[card][0]}`", path + (k,), written[card][0])
                    # (An audit read "... but the 2 packs hold it 2 times at FILE:LINE:COL", the place after the count.)
                    raise ImpossiblePosition(f"card {card} is placed {deck.packs + 1} times, but the {deck.packs} packs "
                                             f"hold it {deck.packs} times: here in `{where}`, and before in "
                                             f"`{'` and `'.join(placed[card])}`, first", path + (k,), written[card][0])
                placed.setdefault(card, []).append(where)
                written.setdefault(card, []).append(path + (k,))
                out.append(card)
            return out

        def seat_of(key: Any, where: str, path: PathT | None = None, *, is_key: bool = False) -> int:
            """``key`` as a seat at the table; ``is_key``: ``path`` is its key in a seat-keyed mapping (`hands: {3:
            [2C]}`), said there, not at the seat's value (an outside author found `3` said at `[2C]`)."""
            seat = int(key)
            if seat not in seats:
                raise ImpossiblePosition(f"{where}: seat {seat} does not exist with {players} players", path, key=is_key)
            return seat

        hands: dict[int, list[Card]] = {}
        for key, value in (case.get("hands") or {}).items():
            seat = seat_of(key, "hands", ("hands", key), is_key=True)
            hands[seat] = cards(value, f"hands[{seat}]", ("hands", key))
        if "hand" in case:
            if to_play in hands:
                raise ImpossiblePosition(f"both `hand` and `hands[{to_play}]` give the hand of seat {to_play}", ("hand",),
                                         ("hands", next(k for k in case["hands"] if int(k) == to_play)))
            hands[to_play] = cards(case["hand"], "hand", ("hand",))
        table = cards(case.get("table"), "table", ("table",))
        builds = []
        holders: dict[int, int] = {}
        for k, b in enumerate(case.get("builds") or []):
            bc = cards(b["cards"], f"builds[{k}]", ("builds", k, "cards"))
            value = values[k]
            owner = seat_of(b.get("owner", to_play), f"builds[{k}].owner", ("builds", k, "owner") if "owner" in b else None)
            try:
                _check_build(engine, bc, value, k)
            except ImpossiblePosition as e:   # (said at the build's place: an audit found no line to look at)
                raise ImpossiblePosition(str(e), ("builds", k, "value" if "value" in b else "cards")) from None
            builds.append((bc, value, owner))
            if "holder" in b:
                holders[k] = _holder(b["holder"], owner, k, rules, players, bool(partners) or
                                     rules.partnership(players, None), isinstance(value, int))
        captured: dict[int, list[Card]] = {}
        rest_seat, rest_key = None, None
        for key, value in (case.get("captured") or {}).items():
            seat = seat_of(key, "captured", ("captured", key), is_key=True)
            if value == "rest":
                if rest_seat is not None:
                    raise ImpossiblePosition("`rest` is given to two seats", ("captured", key), ("captured", rest_key))
                rest_seat, rest_key = seat, key
                continue
            captured[seat] = cards(value, f"captured[{seat}]", ("captured", key))
        stock = _stock(case, deck, placed, written, rest_seat is not None)
        if rest_seat is not None:
            captured[rest_seat] = _unplaced(deck, placed)
            for c in captured[rest_seat]:
                placed.setdefault(c, []).append(f"captured[{rest_seat}]")
        sweeps = {seat_of(k, "sweeps", ("sweeps", k), is_key=True): _sweep_list(v, rules)
                  for k, v in (case.get("sweeps") or {}).items()}
        events = _events(case, rules, seat_of)
        last = case.get("last_capture")
        pos = Position(players=players, partners=bool(partners), to_play=to_play, dealer=case.get("dealer"),
                       hands=hands, table=table, builds=builds, captured=captured,
                       last_capture=seat_of(last, "last_capture", ("last_capture",)) if last is not None else None, stock=stock)
        if "dealer" in case:
            seat_of(case["dealer"], "dealer", ("dealer",))
        state = engine.position(pos)
        _check_first_play_sweeps(sweeps, engine.leader(state.dealer, players), rules.deal.for_players(players)[1])
        if holders:
            state = _with_holders(state, holders)
        # The piles were won before the case's moves: when each was won matters only to which of
        # two restricted sides met its criterion first, and a given pile was met before any move.
        piles = tuple(Capture(-1, seat, pile, pile) for seat, pile in enumerate(state.piles) if pile)
        state = state.with_(events=events, captures=piles, ply=0 if case.get("first_play", True) else 1)
        if rest_seat is not None and not case.get("moves") and stock is None:
            state = state.with_(over=True, stock=())     # a scoring case: the hand is over, the piles final
        keys = {seat_of(k, "scores", ("scores", k), is_key=True): k for k in (case.get("scores") or {})}
        given = {seat: case["scores"][k] for seat, k in keys.items()}
        lowest = _lowest_seats(state)
        for seat in given:
            if seat not in lowest.values():
                raise ImpossiblePosition(f"scores: seat {seat} plays for the side of seat {lowest[state.teams[seat]]}; "
                                         "a side's score is given by its lowest seat", ("scores", keys[seat]), key=True)
        game = Game.at(engine, state, {side: given.get(seat, 0) for side, seat in lowest.items()},
                       target=case.get("target", ...), restrictions_on=not case.get("restrictions_lifted", False),
                       scorer=scorer, settle=False)
        game = game.with_(hand=_record_sweeps(engine, game.hand, sweeps))
        return Setup(game.settle(), game.hand, given, stock is not None)


Locator = Callable[..., str]   # (path, key=False): FILE:LINE:COL of a place in a case, or of a mapping's key


#: The first part of a path that is the file's own, not the case's (a `players:` given for every case).
FILE_LEVEL = "<file>"


def locator(doc: Document, case: PathT) -> Locator:
    """FILE:LINE:COL of a place in one case of ``doc`` (or of the file, for a path that starts with
    ``FILE_LEVEL``); ``key``: of the key of a mapping (a seat of `hands`), not of its value."""
    def locate(path: PathT, key: bool = False) -> str:
        where = tuple(path[1:]) if path and path[0] == FILE_LEVEL else case + tuple(path)
        line, column = doc.position(where, key=key)
        return f"{doc.path}:{line}:{column}"
    return locate


def impossible_message(error: Exception, locate: Locator | None = None) -> str:
    """The failure line of an impossible position: at the card's place when it is known
    (``FILE:LINE:COL: impossible position: ...``), with the other place of a card given twice."""
    text = f"impossible position: {error}"
    path = getattr(error, "path", None)
    if locate is None or path is None:
        return text
    earlier = getattr(error, "earlier", None)
    return f"{locate(path, key=getattr(error, 'key', False))}: {text}" + (f" at {locate(earlier)}" if earlier is not None else "")


def _holder(value: int, owner: int, k: int, rules: Rules, players: int, partners: bool, numbered: bool) -> int:
    """A build's `holder`: the owner, or the owner's partner for a build made for the value the
    partner declared (001, Taking In); anything else is a mistake in the file."""
    path: PathT = ("builds", k, "holder")
    if value >= players:
        raise FileMistake(path, f"`builds[{k}].holder`: seat {value} does not exist with {players} players",
                          hint=f"seats count from 0 to {players - 1}")
    if value == owner:
        return value
    if not rules.build.for_partner:
        raise FileMistake(path, f"`builds[{k}].holder` {value} is not the owner {owner}, but {rules.name} has no "
                          "building for a partner's declared value", hint="leave out `holder`: the owner holds the build")
    if not partners or value != (owner + 2) % 4:
        raise FileMistake(path, f"`builds[{k}].holder` {value} is not the partner of the owner {owner}"
                          + ("" if partners else " (the seats do not play as partners)"),
                          hint="a build is held by its owner or, built for the partner, by the seat opposite")
    if not numbered:
        raise FileMistake(path, f"`builds[{k}].holder`: a build for a partner is for a number value")
    return value


def _with_holders(state: HandState, holders: dict[int, int]) -> HandState:
    """The builds with the holders a case gives; each holder is proven to hold its build's value,
    as the partner who declared it is in play."""
    builds = tuple(b if k not in holders else Build(b.cards, b.value, b.multiple, b.owner, holders[k], b.pairs)
                   for k, b in enumerate(state.builds))
    proven: list[set[int]] = [set() for _ in range(state.players)]
    for b in builds:
        if isinstance(b.value, int):
            proven[b.holder].add(b.value)
    return state.with_(builds=builds, proven=tuple(frozenset(p) for p in proven))


def _build_value(value: Any, engine: Engine, path: PathT) -> int | str:
    """A build's `value` as docs/scenarios.md has it: a number (digits, also in quotes), or a rank of the deck (upper
    or lower case) for a pile of cards without a number value. Anything else is a mistake in the file, said at the
    value in the words written (an outside author's `value: eight` was a failed case, "EIGHT is no rank")."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text.isdecimal():
        return int(text)
    if text.upper() in engine.deck.ranks:
        return text.upper()
    rules = engine.rules
    hint = "a build's value is a number, such as 8"
    faces = [r.rank for r in rules.deck.ranks if not r.values]
    if faces and rules.build.valueless != "never":
        hint += f"; a pile of cards without a number value is announced by their rank: {', '.join(faces)}"
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    raise FileMistake(path, f"`{where}`: {value!r} is not a number, nor a rank of this deck", hint=hint)


def _check_build(engine: Engine, cards: list[Card], value: int | str, k: int) -> None:
    deck = engine.deck
    mask = deck.mask(cards)
    if len(cards) < 2:
        raise ImpossiblePosition(f"builds[{k}] has {len(cards)} card{'' if len(cards) == 1 else 's'}: a build has two or more")
    if isinstance(value, str):   # (a rank of the deck: `_build_value` said any other text a mistake in the file)
        if any(c.rank != value for c in cards):
            raise ImpossiblePosition(f"builds[{k}]: a build announced as {value} holds only {value}s")
        rules = engine.rules
        rank = next((r for r in rules.deck.ranks if r.rank == value), None)
        if rank is not None and rank.values:
            raise ImpossiblePosition(f"builds[{k}]: {value} has a number value, so a build of {value}s is announced "
                                     f"by its number ({' or '.join(map(str, rank.values))})")
        if rules.build.valueless == "never":   # (an audit's two kings built as K in standard passed as a position)
            raise ImpossiblePosition(f"builds[{k}]: {rules.name} never builds cards without a number value "
                                     f"(build.valueless: never), so no build is announced as {value}")
        return
    # Each card by any value it may count (each copy its own bit): on the table, or from the hand it may have been
    # played from into the build (the Nordic games' ace, 14 in hand and 1 on the table: a build of 14 of an ace
    # and 3+5+6, which play reaches where multiple builds are made, was refused as a position).
    items = [(low, tuple(sorted(set(deck.table_values[i]) | set(deck.hand_values[i]))))
             for low, i in ((low, low.bit_length() - 1) for low in _lows(mask))]
    if any(not v for _, v in items) or mask not in unions(subsets_summing(items, value)):
        names = " ".join(str(c) for c in cards)
        raise ImpossiblePosition(f"builds[{k}]: the cards {names} cannot make a build of {value}")


def _lows(mask: int) -> list[int]:
    """The single-card bits of ``mask``, lowest first."""
    return [1 << i for i in bits(mask)]


def _same_cards(deck: Any, a: int, b: int) -> bool:
    """Whether two card masks hold the same cards by name (two packs: either copy of a 10D)."""
    if a == b or deck.packs == 1:
        return a == b
    return sorted(map(str, deck.cards_of(a))) == sorted(map(str, deck.cards_of(b)))


def _unplaced(deck: Any, placed: dict[Card, list[str]]) -> list[Card]:
    """The deck's cards not placed, in deck order, each copy once (two packs: a card placed once
    still has its other copy unplaced)."""
    left = {c: len(w) for c, w in placed.items()}
    out = []
    for c in deck.cards:
        if left.get(c, 0):
            left[c] -= 1
        else:
            out.append(c)
    return out


def _stock(case: dict[str, Any], deck: Any, placed: dict[Card, list[str]], written: dict[Card, list[PathT]],
           has_rest: bool) -> list[Card] | None:
    """The case's `stock`, next card first: with it, every card is somewhere the case says."""
    if "stock" not in case:
        return None
    out = []
    for k, text in enumerate(case["stock"]):
        try:
            card = deck.parse(str(text))
        except CardError as e:
            raise FileMistake(("stock", k), f"impossible stock: {e}") from None
        if len(placed.get(card, ())) >= deck.packs:
            raise FileMistake(("stock", k), f"impossible stock: {card} is also in {', '.join(placed[card])}",
                              earlier=(written.get(card) or [None])[0])
        placed.setdefault(card, []).append("stock")
        out.append(card)
    missing = _unplaced(deck, placed)
    if missing and not has_rest:
        shown = " ".join(str(c) for c in missing[:6]) + (" ..." if len(missing) > 6 else "")
        raise FileMistake(("stock",), f"impossible stock: {len(missing)} cards are nowhere ({shown}); with "
                          "`stock` given, every card is in a hand, on the table, in the stock or in a pile",
                          hint="give the cards already played to a pile, e.g. `captured: {1: rest}`")
    return out


def _dealt_out(stock: int, rules: Rules, players: int) -> None:
    """FileMistake where the moves deal from a case's `stock` of ``stock`` cards that cannot be dealt out: where the
    pack must deal out exactly (``deal.short_stock: exact``) in deals of a hand each, with no drawing, a stock dealt
    from holds whole deals. (A reader of the document alone gave standard's two players a stock of three and played
    into the next deal: one card was dealt to each and the third never dealt, nor counted. A stock no move deals
    from, such as a card or two that say the last deal is still to come, is not looked at.)"""
    d = rules.deal
    if d.short_stock != "exact" or d.redeal != "when_hands_empty" or d.draw_after_play:
        return
    hand_size, _ = d.for_players(players)
    per = hand_size * players
    if per and stock % per:
        raise FileMistake(("stock",), f"impossible stock: the moves deal from it, and {stock} cards cannot be dealt "
                                      f"out: each deal gives {hand_size} cards to each of the {players} players, so a "
                                      f"stock holds a multiple of {per}",
                          hint=f"give {stock - stock % per} or {stock + per - stock % per} cards to the stock, placing "
                               "the others in hands, on the table or in a pile")


def _sweep_list(value: Any, rules: Rules) -> list[tuple[int, bool]]:
    """A seat's sweeps as (size, first_play) in the order made."""
    if isinstance(value, list):
        return [(v, False) if isinstance(v, int) else (v["size"], bool(v.get("first_play", False))) for v in value]
    if any(i.count == "sweeps" and i.by_size for i in rules.scoring.items):
        raise ImpossiblePosition("this variant scores sweeps by size: give each seat's sweeps as a "
                                 "list of sizes, e.g. {0: [4, 2]}")
    return [(1, False)] * value


def _check_first_play_sweeps(sweeps: dict[int, list[tuple[int, bool]]], leader: int, layout: int) -> None:
    """A sweep made "with the first play" (Ulmann: "If the non-dealer is able to sweep the four cards
    initially dealt to the table, capturing them all with the first play") is the hand's first play: the
    seat that leads makes it, as its first sweep, taking the whole layout; there is one at most."""
    firsts = [(seat, k, size) for seat, made in sweeps.items() for k, (size, first) in enumerate(made) if first]
    if len(firsts) > 1:
        seat, k, _ = firsts[1]
        raise ImpossiblePosition(f"{len(firsts)} sweeps are marked `first_play`: a hand has one first play, "
                                 "so one sweep at most is made with it", ("sweeps", seat, k))
    for seat, k, size in firsts:
        if seat != leader:
            raise ImpossiblePosition(f"seat {seat}'s sweep is marked `first_play`, but seat {leader} plays first "
                                     f"in this hand (the dealer's left): give the sweep to seat {leader}, or "
                                     "set `dealer`", ("sweeps", seat, k))
        if k:
            raise ImpossiblePosition(f"seat {seat}'s sweep number {k + 1} is marked `first_play`: a sweep made "
                                     "with the first play is the seat's first", ("sweeps", seat, k))
        if size != layout:
            raise ImpossiblePosition(f"a sweep made with the first play takes the {layout} cards dealt to the "
                                     f"table, not {size}: write it {{size: {layout}, first_play: true}}",
                                     ("sweeps", seat, k))


def _events(case: dict[str, Any], rules: Rules, seat_of: Any) -> tuple[Event, ...]:
    known = [e.name for e in rules.scoring.events]
    out = []
    for key, names in (case.get("events") or {}).items():
        seat = seat_of(key, "events", ("events", key), is_key=True)
        for k, name in enumerate(names):
            if name not in known:
                raise FileMistake(("events", key, k), f"{rules.name} has no capture event named {name!r}",
                                  hint=f"its events: {', '.join(known)}" if known else "it scores no capture events")
            out.append(Event(seat, name, -1))
    return tuple(out)


def _record_sweeps(engine: Engine, state: HandState, sweeps: dict[int, list[tuple[int, bool]]]) -> HandState:
    """Record a case's sweeps one at a time, as play records them, so that where the variant's
    sweeps cancel (and where a restricted side's are not recorded) they do so exactly as in
    play. Seats take turns: the first sweep of each seat in seat order, then the second, ..."""
    for r in range(max((len(v) for v in sweeps.values()), default=0)):
        for seat in sorted(sweeps):
            if r < len(sweeps[seat]):
                size, first = sweeps[seat][r]
                # Engine._record_sweep is the step play takes when a capture sweeps; the engine
                # has no public name for it yet.
                state = state.with_(sweeps=engine._record_sweep(state, Sweep(seat, size, -1, first_play=first)))
    return state


def _lowest_seats(state: HandState) -> dict[int, int]:
    """Each side's lowest seat, the seat that names the side in a case."""
    return {side: min(seat for seat in range(state.players) if state.teams[seat] == side) for side in state.sides}


# ---------------------------------------------------------------------- moves
def _quoted(text: str, room: int = 60) -> str:
    """A move's text quoted in a message, cut where it is long (an audit's 15,000-character move was echoed whole,
    and its caret line with it)."""
    return repr(text) if len(text) <= room else f"{text[:room]!r}... ({len(text):,} characters)"


def _at(locate: Locator | None, path: PathT, key: bool = False) -> str:
    """``FILE:LINE:COL: `` of a place in the case (``key``: of a mapping's key), where a locator is given (else
    nothing)."""
    return f"{locate(path, key=key)}: " if locate is not None else ""


def _no_long_value(text: Any, path: PathT) -> None:
    """FileMistake where a move's text holds a number longer than a file's numbers may be (docs/scenarios.md: "no
    number longer than 30 digits (a build's value in a move too)"): the file is faulty, not the case failed (a reader
    of the document alone found such a move a failed case)."""
    for word in str(text).replace("[", " ").replace("]", " ").replace(";", " ").split():
        if word.isdecimal() and len(word) > VALUE_DIGITS:
            raise FileMistake(path, f"a build's value of {len(word)} digits: a number in a file has at most "
                                    f"{VALUE_DIGITS} digits, and no build is worth that much")


def play_moves(case: dict[str, Any], setup: Setup, engine: Engine, locate: Locator | None = None) -> Outcome | str:
    """Play the case's moves and claims through the game; a failure message when one is refused (at the
    move's place in the file, where ``locate`` says it)."""
    game = setup.game
    finished = setup.start if setup.start.over else None
    for k, text in enumerate(case.get("moves") or []):
        if game.over:
            raise FileMistake(("moves", k), f"moves[{k}] {text!r} comes after the end of the game "
                              f"(ended by {game.ended_by}): nothing more can be played")
        if finished is not None:
            raise FileMistake(("moves", k), f"moves[{k}] {text!r} comes after the end of the hand: "
                              "a case plays within one hand")
        words = text.split()
        if words and words[0].lower() == "claim":
            game = _claim(game, words, k, text)
            continue
        _no_long_value(text, ("moves", k))
        try:
            steps = parse_turn(text, engine.deck, engine.free_actions)
        except MoveSyntaxError as e:
            return f"{_at(locate, ('moves', k))}moves[{k}] cannot be read: {e}"
        # A turn of several actions is played action by action, and ended once its hand card is played.
        if steps[-1].kind is not MoveKind.END and any(s.played for s in steps) and engine.free_actions:
            steps.append(Move(MoveKind.END, 0))
        seat = game.hand.turn
        for n, step in enumerate(steps):
            if n and (game.over or finished is not None or step.kind is MoveKind.END and not game.hand.turn_card):
                break   # (the turn ended by itself: no card was left in play to build with, or in hand to build for)
            if game.hand.turn != seat:
                return (f"{_at(locate, ('moves', k))}moves[{k}] {text!r} is refused (action {n + 1}): the turn passed to seat {game.hand.turn} "
                        f"after action {n}: a turn is one player's actions; write the next turn as its own move")
            move = engine.resolve(game.hand, step)
            if not _legal_here(engine, game.hand, move, ("moves", k), text):
                where = f" (action {n + 1})" if len(steps) > 1 else ""
                return f"{_at(locate, ('moves', k))}moves[{k}] {text!r} is refused{where}: {engine.why_illegal(game.hand, move)}"
            after = engine.apply(game.hand, move)      # the step play takes, kept to look at a finished hand
            if after.deal_no != game.hand.deal_no and not setup.explicit_stock:
                raise FileMistake(("moves", k), f"moves[{k}] {text!r} empties every hand while the stock still holds "
                                  f"{len(game.hand.stock)} unseen cards, so the next deal would be guesswork",
                                  hint="give `stock` (next card first) to play on into the next deal")
            if after.deal_no != game.hand.deal_no:
                _dealt_out(len(game.hand.stock), engine.rules, game.hand.players)
            game = game.play(move)
            if after.over:
                finished = after
    return Outcome(game, finished if finished is not None else game.hand, 1)


def _legal_here(engine: Engine, state: HandState, move: Move, where: tuple[Any, ...], text: str) -> bool:
    """Whether ``move`` is legal at ``state``, asked of the move alone (``Engine.is_legal``: on a table whose
    moves are too many to list, the lazy walk checks it). FileMistake where even that walk runs past its
    budget: the case asks what cannot be decided, and no answer is given as if it were."""
    try:
        return engine.is_legal(state, move)
    except PositionTooLargeError as e:
        raise _unchecked(where, text, e) from None


def _unchecked(where: tuple[Any, ...], text: str, error: PositionTooLargeError) -> FileMistake:
    """The mistake of a case asking of a move that even the lazy walk cannot judge within its budget."""
    return FileMistake(where, f"{text!r} cannot be checked: {error.overflowed}",
                       hint="give fewer cards on the table, or name a move that takes fewer of them")


def _claim(game: Game, words: list[str], k: int, text: str) -> Game:
    if not game.rules.game.claiming:
        raise FileMistake(("moves", k), f"moves[{k}] {text!r}: {game.rules.name} has no claiming",
                          hint="claims belong to variants with `game.claiming: true` (hungarian, examples/hoyle-claiming.yaml)")
    if len(words) == 1:
        seat = game.hand.turn
    elif len(words) == 2 and words[1].isdecimal() and len(words[1]) <= 4 and int(words[1]) < game.players:
        seat = int(words[1])
    else:
        raise FileMistake(("moves", k), f"moves[{k}] {text!r}: write `claim` (the seat to play claims) or "
                          f"`claim SEAT` with a seat from 0 to {game.players - 1}")
    return game.claim(seat)


# ---------------------------------------------------------------------- expectations
class _Expectations:
    """Compares a case's `expect` with where its moves left the game."""

    def __init__(self, engine: Engine, outcome: Outcome, locate: Locator | None = None) -> None:
        self.engine = engine
        self.locate = locate   # (a move that cannot be read is said at its place in the file)
        self.deck = engine.deck
        self.outcome = outcome
        self.game = outcome.game
        self.hand = outcome.hand
        self.lowest = _lowest_seats(self.hand)

    def check(self, expect: dict[str, Any]) -> list[str]:
        """Each expectation not met, in words, each at its place in the file: an expectation's own (a move, a
        seat's points) where it says one, else its key's (an audit found `winner`, `table`, `items`... said
        with no place)."""
        out: list[str] = []
        for key, want in expect.items():
            problems = getattr(self, "_" + key)(want)
            at = _at(self.locate, ("expect", key))
            file = at.rsplit(":", 3)[0] + ":" if at else ""
            out += [p if not at or p.startswith(file) else at + p for p in problems]
        return out

    # -- moves
    def _in_play(self, key: str) -> None:
        if self.outcome.hand_finished:
            raise FileMistake(("expect", key), f"`expect.{key}`: the case's hand is over, so no move can be "
                              "checked; legal moves belong to a hand in play (a case with `captured` ... `rest` and "
                              "no `moves` or `stock` is a scoring case: add `stock: []` to keep its hand in play)")

    def _legal_now(self, key: str) -> list[Move]:
        """Every legal move now (``exactly``): FileMistake where the position has more than the engine lists."""
        self._in_play(key)
        try:
            return self.game.legal_moves()
        except PositionTooLargeError as e:
            raise FileMistake(("expect", key), f"`expect.{key}` asks for every legal move, and {e.overflowed}",
                              hint="check the moves that matter one by one with `legal` and `illegal`: "
                                   "a single move is checked on a table of any size") from None

    def _moves(self, texts: list[Any], key: str, should_be_legal: bool) -> list[str]:
        self._in_play(key)
        out = []
        for k, text in enumerate(texts):
            reason = None
            if isinstance(text, dict):          # {move, reason}: refused, for a reason containing that text
                text, reason = text["move"], text["reason"]
            _no_long_value(text, ("expect", key, k))
            try:
                steps = parse_turn(text, self.deck, self.engine.free_actions)
            except MoveSyntaxError as e:
                out.append(f"{_at(self.locate, ('expect', key, k))}cannot read {_quoted(text)}: {e}")
                continue
            refusal: str | None = None
            at = _at(self.locate, ("expect", key, k))   # (every failure at its place: an audit had none to look at)
            if len(steps) == 1:
                move = self.engine.resolve(self.hand, steps[0])
                is_legal = not self.game.over and _legal_here(self.engine, self.hand, move, ("expect", key, k), text)
            else:   # a turn of several actions: each legal in turn
                try:
                    refusal = "" if self.game.over else self.engine.turn_refusal(self.hand, steps)
                except PositionTooLargeError as e:
                    raise _unchecked(("expect", key, k), text, e) from None
                is_legal = refusal is None
            if should_be_legal and not is_legal:
                why = (f"the game is over (ended by {self.game.ended_by})" if self.game.over
                       else refusal or self.engine.why_illegal(self.hand, move))
                out.append(f"{at}expected legal: {text}\n  found illegal: {why}")
            elif not should_be_legal and is_legal:
                why = self._why_legal(move) if len(steps) == 1 else None
                out.append(f"{at}expected illegal: {text}" + (f" ({reason})" if reason else "") + "\n  found legal"
                           + (f": {why}" if why else ""))
            elif reason is not None and not is_legal:
                why = (f"the game is over (ended by {self.game.ended_by})" if self.game.over
                       else refusal or self.engine.why_illegal(self.hand, move))
                if reason.strip().lower() not in why.lower():
                    out.append(f"{at}illegal: {text}: expected a reason containing {reason.strip()!r}\n  found: {why}")
        return out

    def _why_legal(self, move: Move) -> str | None:
        """Why a move expected illegal is legal, where the reasons have more to say than that nothing refuses
        it (a trail the rules allow because they leave no move at all: "KS trail: a legal move here: the rules
        leave no move at all (you own the build of 9 ...), so any card may be trailed"); else None."""
        why = self.engine.why_illegal(self.hand, move)
        return None if why.endswith(": a legal move here: nothing refuses it") else why

    def _legal(self, texts: list[str]) -> list[str]:
        return self._moves(texts, "legal", True)

    def _illegal(self, texts: list[str]) -> list[str]:
        return self._moves(texts, "illegal", False)

    def _exactly(self, texts: list[str]) -> list[str]:
        have = set(self._legal_now("exactly"))
        want = set()
        for k, text in enumerate(texts):
            _no_long_value(text, ("expect", "exactly", k))
            try:
                want.add(self.engine.resolve(self.hand, parse_move(text, self.deck)))
            except MoveSyntaxError as e:
                return [f"{_at(self.locate, ('expect', 'exactly', k))}cannot read {_quoted(text)}: {e}"]
        out = []
        at = _at(self.locate, ("expect", "exactly"))
        for m in sorted(want - have, key=lambda m: format_move(m, self.deck)):   # (with why, as `legal` says it)
            out.append(f"{at}exactly: expected legal, found illegal: {self.engine.why_illegal(self.hand, m)}")
        for m in sorted(have - want, key=lambda m: format_move(m, self.deck)):
            out.append(f"{at}exactly: found legal but not listed: {format_move(m, self.deck)}")
        return out

    # -- points and the game
    def _by_seat(self, per_side: dict[int, int]) -> dict[int, int]:
        return {self.lowest[s]: v for s, v in per_side.items()}

    def _hand_points(self, want: dict[Any, int]) -> list[str]:
        game, index = self.game, self.outcome.hand_no - 1
        points = game.results[index].points if len(game.results) > index else game.hand_points_so_far()
        return _compare("hand_points", want, self._by_seat(points), self.locate)

    def _items(self, want: dict[Any, dict[str, int]]) -> list[str]:
        """Each side's points per scoring item in the finished hand (before endgame restrictions)."""
        game, index = self.game, self.outcome.hand_no - 1
        if not self.outcome.hand_finished or len(game.results) <= index:
            raise FileMistake(("expect", "items"), "`expect.items`: the case's hand has not been scored, so its "
                              "items cannot be checked", hint="finish the hand with `moves`, or give a scoring "
                              "case (`captured` with `rest`, no moves); mid-hand points are `hand_points`")
        by_item = game.results[index].by_item
        out = []
        for key, items in want.items():
            seat = int(key)
            if seat not in self.lowest.values():
                raise FileMistake(("expect", "items", key), f"`expect.items`: seat {seat} does not name a side "
                                  f"(sides are named by their lowest seat: {sorted(self.lowest.values())})", key=True)
            side = next(s for s, low in self.lowest.items() if low == seat)
            for name, points in items.items():
                if name not in by_item:
                    near = difflib.get_close_matches(str(name), sorted(by_item), n=1)
                    raise FileMistake(("expect", "items", key, name), f"`expect.items[{seat}]`: "
                                      f"{game.rules.name} has no scoring item `{name}`",
                                      hint=(f"did you mean `{near[0]}`? " if near else "")
                                      + f"its items: {', '.join(sorted(by_item))}")
                found = by_item[name].get(side, 0)
                if found != points:
                    out.append(f"items[{seat}].{name}: expected {points}, found {found}")
        return out

    def _scores(self, want: dict[Any, int]) -> list[str]:
        game = self.game
        scored = game.over or len(game.results) >= self.outcome.hand_no
        found = game.scores if scored else game.standing()
        return _compare("scores", want, self._by_seat(dict(enumerate(found))), self.locate)

    def _winner(self, want: int | None) -> list[str]:
        found = None if self.game.winner is None else self.lowest[self.game.winner]
        return _same("winner", want, found)

    def _game_over(self, want: bool) -> list[str]:
        return _same("game_over", want, self.game.over)

    def _ended_by(self, want: str) -> list[str]:
        return _same("ended_by", want, self.game.ended_by or "(the game goes on)")

    def _target(self, want: int | None) -> list[str]:
        return _same("target", want, self.game.target)

    def _games_won(self, want: int) -> list[str]:
        return _same("games_won", want, self.game.games_won if self.game.over else 0)

    def _restrictions_lifted(self, want: bool) -> list[str]:
        return _same("restrictions_lifted", want, not self.game.restrictions_on)

    # -- the hand's state
    def _hand_over(self, want: bool) -> list[str]:
        return _same("hand_over", want, self.outcome.hand_finished)

    def _to_play(self, want: int | None) -> list[str]:
        return _same("to_play", want, None if self.hand.over or self.game.over else self.hand.turn)

    def _last_capture(self, want: int | None) -> list[str]:
        return _same("last_capture", want, self.hand.last_capturer)

    def _unread_card(self, what: str, want: list[Any], path: PathT) -> list[str]:
        """A card of an expected list the deck cannot read, said at the card itself (a validation audit's
        `table: [4D, 5H, 2X]` was pointed at the list's `[`); none where each is read."""
        for k, text in enumerate(want):
            try:
                self.deck.parse(str(text))
            except CardError as e:
                return [f"{_at(self.locate, path + (k,))}{what}: {e}"]
        return []

    def _cards(self, what: str, want: list[str], found: int, path: PathT | None = None) -> list[str]:
        unread = self._unread_card(what, want, path or ("expect", what))
        if unread:
            return unread
        mask = self.deck.mask([self.deck.parse(t) for t in want])
        if _same_cards(self.deck, mask, found) and len(want) == bin(mask).count("1"):
            return []
        return [f"{what}: expected {_names(self.deck, mask)}, found {_names(self.deck, found)}"]

    def _table(self, want: list[str]) -> list[str]:
        return self._cards("table", want, self.hand.table)

    def _stock(self, want: list[str]) -> list[str]:
        unread = self._unread_card("stock", want, ("expect", "stock"))
        if unread:
            return unread
        cards = [self.deck.parse(t) for t in want]
        found = [self.deck.cards[i] for i in self.hand.stock]
        if cards == found:
            return []
        return [f"stock: expected {' '.join(map(str, cards)) or 'none'}, found {' '.join(map(str, found)) or 'none'} "
                "(next card first)"]

    def _residue(self, want: list[str]) -> list[str]:
        return self._cards("residue", want, self.hand.residue)

    def _seat_cards(self, what: str, want: dict[Any, list[str]], masks: tuple[int, ...]) -> list[str]:
        out = []
        for key, cards in want.items():
            seat = int(key)
            if seat >= len(masks):
                out.append(f"{_at(self.locate, ('expect', what, key), key=True)}{what}[{seat}]: no such seat")
                continue
            out += self._cards(f"{what}[{seat}]", cards, masks[seat], ("expect", what, key))
        return out

    def _hands(self, want: dict[Any, list[str]]) -> list[str]:
        return self._seat_cards("hands", want, self.hand.hands)

    def _captured(self, want: dict[Any, list[str]]) -> list[str]:
        out = self._seat_cards("captured", want, self.hand.piles)
        if out or not any(self.hand.stacks):
            return out
        # Where capture piles are in play (African Casino) a pile's order is part of it, as in a position: the
        # seat's cards in its side's pile, last on top (a reader of the document alone found any order passed).
        for key, cards in want.items():
            seat = int(key)
            mine = self.hand.piles[seat]
            found = [name for c in self.hand.stacks[self.hand.teams[seat]] if mine >> c & 1
                     for name in cards_text(self.deck, 1 << c)]
            wanted = [str(self.deck.parse(str(t))) for t in cards]
            if wanted != found:
                out.append(f"captured[{seat}]: the cards are those, but a pile's order is its own (last on top): "
                           f"expected {' '.join(wanted)}, found {' '.join(found)}")
        return out

    def _sweeps(self, want: dict[Any, int]) -> list[str]:
        found = Counter(w.seat for w in self.hand.sweeps if not w.cancelled)
        return _compare("sweeps", want, {seat: found[seat] for seat in range(self.hand.players)}, self.locate,
                        by="seat")

    def _events(self, want: dict[Any, list[str]]) -> list[str]:
        out = []
        for key, names in want.items():
            seat = int(key)
            if seat >= self.hand.players:   # (an outside author's `events: {6: []}` of two players passed)
                out.append(f"{_at(self.locate, ('expect', 'events', key), key=True)}events[{seat}]: no such seat")
                continue
            found = sorted(e.name for e in self.hand.events if e.seat == seat)
            if sorted(names) != found:
                out.append(f"events[{seat}]: expected {', '.join(sorted(names)) or 'none'}, found {', '.join(found) or 'none'}")
        return out

    def _builds(self, want: list[dict[str, Any]]) -> list[str]:
        found = [(b.cards, b.value, b.owner) for b in self.hand.builds]
        shown = "; ".join(_build_text(self.deck, *b) for b in found) or "none"
        left = list(found)
        by_cards = {b.cards: b for b in self.hand.builds}
        out: list[str] = []
        for k, b in enumerate(want):
            unread = self._unread_card("builds", b["cards"], ("expect", "builds", k, "cards"))
            if unread:
                return unread
            mask = self.deck.mask([self.deck.parse(t) for t in b["cards"]])
            value = _build_value(b["value"], self.engine, ("expect", "builds", k, "value"))
            match = next((f for f in left if _same_cards(self.deck, f[0], mask) and f[1] == value
                          and ("owner" not in b or f[2] == b["owner"])), None)
            if match is None:
                owner = f", owner {b['owner']}" if "owner" in b else ""
                return [f"builds: expected a build of {value} with {_names(self.deck, mask)}{owner}; found {shown}"]
            left.remove(match)
            build = by_cards[match[0]]
            named = f"the build [{_names(self.deck, mask)}] of {value}"
            if "kind" in b and b["kind"] != ("multiple" if build.multiple else "single"):
                out.append(f"builds: {named}: expected {b['kind']}, found {'multiple' if build.multiple else 'single'}")
            if "holder" in b and b["holder"] != build.holder:
                out.append(f"builds: {named}: expected held by seat {b['holder']}, found seat {build.holder}")
        if left:
            return ["builds: found builds not listed: " + "; ".join(_build_text(self.deck, *b) for b in left)]
        return out


def _names(deck: Any, mask: int) -> str:
    return " ".join(cards_text(deck, mask)) or "none"


def _build_text(deck: Any, cards: int, value: int | str, owner: int) -> str:
    return f"[{_names(deck, cards)}] of {value}, owner {owner}"


def _same(what: str, want: Any, found: Any) -> list[str]:
    return [] if want == found else [f"{what}: expected {_written(want)}, found {_written(found)}"]


def _written(value: Any) -> str:
    """A value as a scenario file writes it: `null`, `true`, `false` (an audit read Python's None and True)."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    return str(value)


def _compare(what: str, expected: dict[Any, int], found: dict[int, int], locate: Locator | None = None,
             by: str = "side") -> list[str]:
    """Each side's (``by="seat"``: seat's) expected number against the found one, each difference at its place in the
    file (``locate``): a seat that names none at its key."""
    out = []
    for key, want in expected.items():
        seat = int(key)
        at = _at(locate, ("expect", what, key))
        if seat not in found:
            named = (f"no such seat (seats 0-{max(found)})" if by == "seat"
                     else f"no such side (sides are given by their lowest seat: {sorted(found)})")
            out.append(f"{_at(locate, ('expect', what, key), key=True)}{what}[{seat}]: {named}")
        elif found[seat] != want:
            out.append(f"{at}{what}[{seat}]: expected {want}, found {found[seat]}")
    return out


