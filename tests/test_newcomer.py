"""What a new user meets first (issue 11): examples by name, how to play, rule-file messages, start-up paths.

Each test is one of the issue's points that is not a whole subcommand's hostile-option table
(tests/test_cli_hostile.py), a damaged record (tests/test_records_damaged.py), the end of a hand
(tests/test_hand_summary.py) or a refused move (tests/test_reasons.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from cassino.apps.game.howto import how_to_play
from cassino.apps.game.records import fresh_path
from cassino.errors import RuleFileError
from cassino.language import selectors
from cassino.language.catalogue import describe, example_names, find_example
from cassino.language.cards import Deck
from cassino.language.resolve import resolve_name
from cassino.language.variants import load, load_rules

from conftest import EXAMPLES, ROOT, VARIANTS


def cassino(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cassino", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


# ---------------------------------------------------------------- point 19: examples by name
def test_every_example_is_known_by_name_and_by_its_clone_path(tmp_path: Path) -> None:
    assert example_names() == [p.stem for p in EXAMPLES]
    for path in EXAMPLES:
        found = find_example(path.stem)   # the clone's file, or the installed package's copy of it
        assert found is not None and found.name == path.name and found.read_bytes() == path.read_bytes()
        assert find_example(f"examples/{path.name}") is not None
        assert load(path.stem).rules.name == load(str(path)).rules.name
        assert describe(path.stem) and describe(path.stem) == load(path.stem).rules.description


def test_an_example_plays_by_name_from_any_folder(tmp_path: Path) -> None:
    """From a folder without examples/, `examples/fifty.yaml` and `fifty` both find the shipped copy."""
    for name in ("fifty", "examples/fifty.yaml"):
        result = cassino("validate", name, cwd=tmp_path)
        assert result.returncode == 0 and "ok (fifty)" in result.stdout, result.stderr
    result = cassino("play", "face-builds-one-hand", "--humans", "0", "--bot", "random", "--seed", "2",
                     "--save", "f.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "face-builds-one-hand: 003's Casino with one hand as the game" in result.stdout
    assert "hand 1 scoring" in result.stdout


def test_a_file_of_the_same_name_wins_over_the_shipped_example(tmp_path: Path) -> None:
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "fifty.yaml").write_text("name: mine\ndescription: my fifty\nextends: standard\n")
    result = cassino("validate", "examples/fifty.yaml", cwd=tmp_path)
    assert result.returncode == 0 and "ok (mine)" in result.stdout


def test_an_unknown_name_suggests_an_example_too() -> None:
    with pytest.raises(RuleFileError) as err:
        resolve_name("fity")
    assert "did you mean `fifty`?" in (err.value.diagnostics[0].hint or "")


def test_a_bundled_name_typed_as_a_file_says_to_drop_the_ending(tmp_path: Path) -> None:
    """`cassino play standard.yaml` in a folder without such a file said only "no such file" (a docs audit): it
    now says the name is a bundled variant's (or a shipped example's) and how to name it; a file of that name in the
    folder is still the one read, and a name that is no variant's gets no such hint."""
    result = cassino("play", "standard.yaml", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "no such file" in result.stderr and "`standard` is a bundled variant: name it without its ending" \
        in result.stderr, result.stderr
    result = cassino("validate", "fifty.yml", "royal.YAML", "nothing.yaml", "sub/standard.yaml", cwd=tmp_path)
    said = result.stdout + result.stderr
    assert result.returncode == 2 and "4 invalid" in said
    assert "`fifty` is a house-rule example: name it without its ending (fifty)" in said
    assert "`royal` is a bundled variant" in said
    assert said.count("name it without its ending") == 2, said   # (not of nothing.yaml, nor of a path in a folder)
    (tmp_path / "standard.yaml").write_text("name: mine\nextends: standard\n")
    result = cassino("validate", "standard.yaml", cwd=tmp_path)
    assert result.returncode == 0 and "ok (mine)" in result.stdout


@pytest.mark.parametrize("typed, meant", [("royal casino", "royal"), ("Royal-Casino", "royal"), ("royal_casino", "royal"),
                                          ("swazi", "swazi-casino"), ("south african casino", "south-african-casino"),
                                          ("Kasino Misar", "kasino-misar"), ("standrd", "standard"), ("fity", "fifty")])
def test_a_variant_named_as_people_say_it_is_suggested(typed: str, meant: str) -> None:
    """A docs audit typed `royal casino` and was offered `krypkasino`, and `Royal-Casino` nothing: a name written with
    spaces, capitals or the game's word for Casino, or the first word of a longer name, is suggested as meant."""
    with pytest.raises(RuleFileError) as err:
        resolve_name(typed)
    assert (err.value.diagnostics[0].hint or "").startswith(f"did you mean `{meant}`?"), err.value.diagnostics


def test_the_wheel_carries_the_examples() -> None:
    """pyproject force-includes examples/ beside variants/ and schema/ (a real install is checked by hand:
    see the README's note on `pip install .`)."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    included = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert included["examples"] == "cassino/data/examples"
    from cassino import paths

    assert paths.EXAMPLES_DIR.is_dir() and paths.EXAMPLES_DIR.name == "examples"


# ---------------------------------------------------------------- point 18: how to play
@pytest.mark.parametrize("variant", VARIANTS)
def test_how_to_play_is_generated_from_the_settings(variant: str) -> None:
    rules = load_rules(variant)
    text = how_to_play(rules)
    for word in ("trail", "capture", "Sweep", "last player who captured", "Points for a hand"):
        assert word in text, (variant, word)
    assert ("Owner" in text) is rules.build.allowed     # no word of builds where there is no building
    for item in rules.scoring.items:
        assert f"  {item.name.replace('_', ' ')}: " in text   # (the name in words)
    if not rules.build.allowed:
        assert "there is no building" in text
    game = next(line for line in text.splitlines() if line.startswith("Game: "))
    if rules.game.target is not None:
        assert f" {rules.game.target} points" in game, (variant, game)
    # (An audit found `how` saying "the first side to 21 points wins" in Kasino misar, won by the lowest total.)
    assert ("lowest total wins" in game) is (rules.game.goal == "lowest" and rules.game.target is not None), game
    # (worded by when points count: "a side with N points or more once a hand's points are added", or "the
    # first side to reach N" where the game stops there, or to claim it)
    wins = "first side to" in game or "points or more once a hand's points are added wins" in game
    assert wins is (rules.game.goal == "highest" and rules.game.target is not None), game


@pytest.mark.parametrize("variant", VARIANTS)
def test_how_to_play_names_the_letters_a_pack_names_otherwise(variant: str) -> None:
    """(An audit: in-game ``how`` said "Q counts 9" and "1 for most coins" in Scopa, but only the rulebook said
    that the Q typed is the knight and D the coins.)"""
    rules = load_rules(variant)
    lines = how_to_play(rules).splitlines()
    named = [line for line in lines if line.startswith("Cards: ")]
    renamed_suits = [s for s in rules.deck.suits if not s.name.lower().startswith(s.letter.lower())]
    knight = next((r for r in rules.deck.ranks if r.rank == "Q" and r.name == "knight"), None)
    assert bool(named) is bool(renamed_suits or knight), (variant, named)
    for s in renamed_suits:
        assert f"{s.letter} ({s.symbol}) is {s.name}" in named[0]
    if knight is not None:
        assert "Q is the knight" in named[0]
        assert lines.index(named[0]) + 1 == next(i for i, line in enumerate(lines) if line.startswith("Card values"))


def test_how_to_play_says_a_house_rules_goal_scoring_lurch_and_the_rules_its_lines_leave_out(tmp_path: Path) -> None:
    """An audit's house rules: `how` said "the first side to 30 points wins" of a game won by the lowest total,
    nothing of difference scoring or a lurch worth 3 games, of a misdeal, of a compulsory capture's hold on
    building, of court cards piled by rank, or of sweeps limited in the last deal."""
    def house(name: str, text: str) -> str:
        path = tmp_path / f"{name}.yaml"
        path.write_text(f"name: {name}\ndescription: an audit's house rule\nextends: standard\n{text}", encoding="utf-8")
        return how_to_play(load_rules(str(path)))

    lowest = house("lowest", "game: {goal: lowest, target: 30}\n")
    assert "first side to" not in lowest and "at 30 points or more" in lowest and "lowest total wins" in lowest
    lurch = house("lurch", "seats: {max_players: 2}\ngame: {target: 15, score_mode: difference, "
                           "lurch: {below: 5, multiplier: 3}}\n")
    assert "scores the difference" in lurch and "lurch and counts as 3 games" in lurch
    misdeal = house("misdeal", "deal: {misdeal: {cards: 'rank=A', at_least: 2}}\n")
    assert "If 2 or more aces are among the cards first dealt to the table" in misdeal
    compulsory = house("compulsory", "capture: {compulsory: whenever_possible}\n")
    assert "you may not build or trail" in compulsory
    piled = house("piled", "capture: {valueless_cards: all}\nbuild: {valueless: always}\n")
    assert "may be piled by rank" in piled and "each takes every loose card of its own rank at once" in piled
    last_deal = house("last-deal", "sweeps: {in_last_deal: false}\nscoring: {items: {sweeps: {points: 1}}}\n")
    assert "Emptying the table in the last deal of the hand" in last_deal
    # Standard's own rules are the summary's lines alone: nothing "also".
    assert "Also in this game" not in how_to_play(load_rules("standard"))


def test_a_house_rule_changes_what_the_player_reads() -> None:
    standard, house = how_to_play(load_rules("standard")), how_to_play(load_rules("owner-may-trail"))
    assert "not while you own a build" in standard and "not while you own a build" not in house
    assert "it scores nothing here" in standard
    assert "(it scores)" in how_to_play(load_rules("sweeps-score"))


# ---------------------------------------------------------------- issue 25: the example moves of help and how
def _help_and_how(rules_name: str, tmp_path: Path) -> str:
    """What a player reads after typing help and how at the first prompt of a game."""
    from io import StringIO

    from rich.console import Console

    from cassino.apps.game.play import start_session
    from cassino.apps.game.records import Record

    rules = load_rules(rules_name)
    seats = ["human"] + ["random"] * (rules.seats.min_players - 1)
    record = Record(rules, 1, len(seats), False, seats, source=rules_name)
    typed = iter(["help", "how", "quit"])
    out = StringIO()
    session = start_session(record, tmp_path / "g.json", Console(file=out, width=300, soft_wrap=True),
                            read=lambda _: next(typed))
    session.run()
    screen = out.getvalue()
    return screen[screen.index("Type the number of a move"):]


@pytest.mark.parametrize("name", VARIANTS + [p.stem for p in EXAMPLES])
def test_every_example_move_in_help_and_how_is_one_the_variant_allows(name: str, tmp_path: Path) -> None:
    """Each move printed between backticks parses in the variant's deck and is of a kind its settings
    allow; several cards played at once appear (and are explained) exactly where the variant allows them."""
    import re

    from cassino.engine.core import Engine
    from cassino.engine.moves import MoveKind
    from cassino.engine.notation import parse_move
    from cassino.errors import CassinoError

    rules = load_rules(name)
    deck = Engine(rules).deck
    text = _help_and_how(name, tmp_path)
    moves = []
    for span in re.findall(r"`([^`]+)`", text):
        try:
            deck.parse(span.split()[0].split("+")[0])
        except CassinoError:
            continue                              # `cassino explain`, `claim`: not moves
        moves.append((span, parse_move(span, deck)))
    kinds = {m.kind for _, m in moves}
    assert {MoveKind.CAPTURE, MoveKind.TRAIL} <= kinds, (name, text)
    for span, move in moves:
        if move.kind in (MoveKind.BUILD, MoveKind.TRAIL_BUILD):
            assert rules.build.allowed, (name, span)
        if move.kind is MoveKind.TRAIL_BUILD:
            assert rules.trail.with_build, (name, span)
        if move.kind is MoveKind.BUILD and move.builds:
            assert rules.build.raise_single or rules.build.multiple, (name, span)
        assert bin(move.played).count("1") <= rules.capture.hand_cards_max, (name, span)
    several = [span for span, move in moves if bin(move.played).count("1") > 1]
    assert bool(several) is (rules.capture.hand_cards_max > 1), name
    if several:
        assert "joined with +" in text
    # Help and how show the same examples: each move appears in both.
    assert all(text.count(f"`{span}`") >= 2 for span, _ in moves), name


def test_the_examples_are_legal_in_the_positions_they_come_from() -> None:
    from cassino.apps.game.move_examples import move_examples
    from cassino.engine.core import Engine
    from cassino.engine.notation import parse_move

    for name in VARIANTS + [p.stem for p in EXAMPLES]:
        rules = load_rules(name)
        engine = Engine(rules)
        for example in move_examples(rules):
            state = engine.position(example.position)
            assert engine.is_legal(state, parse_move(example.text, engine.deck)), (name, example.text)


# ---------------------------------------------------------------- point 14 and 16: rule-file messages
def test_a_bad_extends_path_names_the_rule_files_folder(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("name: house\ndescription: x\nextends: nowhere/base.yaml\n")
    result = cassino("validate", "house.yaml", cwd=tmp_path)
    assert result.returncode == 2
    assert f"relative to the folder of house.yaml, {tmp_path.resolve()}" in result.stderr
    assert "relative to ." not in result.stderr
    # Leaving the folders a rule file may extend from is said as such, naming them (docs/security.md).
    (tmp_path / "house.yaml").write_text("name: house\ndescription: x\nextends: ../nowhere/base.yaml\n")
    result = cassino("validate", "house.yaml", cwd=tmp_path)
    assert result.returncode == 2
    assert "outside the folders a rule file may extend from" in result.stderr
    assert str(tmp_path.resolve()) in result.stderr


def test_a_file_with_only_a_name_gets_one_message(tmp_path: Path) -> None:
    (tmp_path / "only.yaml").write_text("name: only\n")
    result = cassino("validate", "only.yaml", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("missing section") == 1
    assert "missing sections `description`, `source`, `deck`" in result.stderr


# ---------------------------------------------------------------- point 17: start-up paths
def test_version_and_list_do_not_import_the_engine_or_the_validators() -> None:
    probe = ("import sys; from cassino.apps.cli import main; main({argv}); "
             "print(sorted(m for m in ('jsonschema', 'lark', 'argparse', 'cassino.engine', 'cassino.errors') "
             "if m in sys.modules))")
    version = subprocess.run([sys.executable, "-c", probe.format(argv="['--version']")], capture_output=True, text=True)
    assert version.stdout.splitlines()[-1] == "[]"
    listing = subprocess.run([sys.executable, "-c", probe.format(argv="['list']")], capture_output=True, text=True)
    assert listing.stdout.splitlines()[-1] == "['argparse']"
    validate = subprocess.run([sys.executable, "-c", probe.format(argv="['validate', 'standard']")],
                              capture_output=True, text=True)
    assert "'lark'" not in validate.stdout.splitlines()[-1], "the bundled selectors need no grammar"


SIMPLE = st.one_of(
    st.just("all"), st.just(" ALL "),
    st.builds(lambda r, s: f"{r}{s}", st.sampled_from(["A", "2", "10", "t", "J", "k", "Z"]), st.sampled_from("SHDCx")),
    st.builds(lambda f, op, w: f"{f} {op}{w}", st.sampled_from(["suit", "rank", "Value", "colour", "color"]),
              st.sampled_from(["=", "!=", "<", ">=", ">"]),
              st.sampled_from(["S", "h", "A", "10", "5", "red", "black", "Q", "x", "14"])),
)


@given(SIMPLE)
def test_the_fast_selector_path_means_what_the_grammar_means(text: str) -> None:
    deck = Deck.from_rules(load_rules("royal").deck)

    def via(compile_: object) -> object:
        try:
            predicate = compile_()  # type: ignore[operator]
        except selectors.SelectorError as e:
            return ("error", str(e))
        return [predicate(card) for card in deck.cards]

    fast = via(lambda: selectors.compile_selector(text, deck.view))
    grammar = via(lambda: selectors._Build(text, deck.view).transform(selectors._parser().parse(text)))
    assert fast == grammar


# ---------------------------------------------------------------- point 6: fresh names
def test_fresh_names_never_reuse_a_file(tmp_path: Path) -> None:
    first = fresh_path("cassino-standard-5", tmp_path)
    assert first.name == "cassino-standard-5.json"
    first.write_text("{}")
    second = fresh_path("cassino-standard-5", tmp_path)
    second.write_text("{}")
    assert (second.name, fresh_path("cassino-standard-5", tmp_path).name) == \
        ("cassino-standard-5-2.json", "cassino-standard-5-3.json")


def test_library_entry_points_refuse_what_the_cli_refuses() -> None:
    from cassino.apps.authors.perft import perft
    from cassino.apps.authors.simulate import run
    from cassino.engine.core import Engine
    from cassino.errors import CassinoError

    engine = Engine(load_rules("standard"))
    with pytest.raises(CassinoError, match="0 or more"):
        perft(engine, engine.start(1, 2), -2)
    with pytest.raises(CassinoError, match="--players 9 is not allowed"):
        run("standard", 1, players=9)
    with pytest.raises(CassinoError, match="workers must be at least 1"):
        run("standard", 1, workers=0)
    with pytest.raises(CassinoError, match="needs four players"):
        run("standard", 1, players=2, partners=True)


def test_libyaml_and_pyyaml_read_every_shipped_file_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast composer gives the same values and the same positions (for error messages) as PyYAML's."""
    from cassino.language import yamlsource

    if yamlsource._FAST is None:
        pytest.skip("this PyYAML was built without libyaml")
    files = sorted((ROOT / "variants").glob("*.yaml")) + EXAMPLES + sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))
    fast = [yamlsource.load_yaml(p) for p in files]
    monkeypatch.setattr(yamlsource, "_FAST", None)
    slow = [yamlsource.load_yaml(p) for p in files]
    for f, s in zip(fast, slow):
        assert (f.data, f.key_positions, f.value_positions) == (s.data, s.key_positions, s.value_positions), f.path


def test_how_to_play_a_capture_total_says_what_the_card_takes() -> None:
    """Escoba's short how-to said a card takes "loose cards of the same value" and sets "that add
    up to its value (a 9 takes 4+5)": under a capture total of 15 neither is a legal capture."""
    text = how_to_play(load_rules("escoba"))
    assert "loose cards that make 15 with it (a 5 takes a card of 10, or 4+6)" in text
    assert "of the same value" not in text and "a 9 takes 4+5" not in text
    house = load_rules(ROOT / "examples" / "escoba-equal-first.yaml")
    assert "while one loose card alone makes 15 with it, it takes that card, not a set" in how_to_play(house)
    assert "while a loose card equals it" in how_to_play(load_rules("scopa"))


@pytest.mark.parametrize("variant, said, unsaid", [
    # A re-attack on `how`: points counted as won said to score at the end of the hand; Ulmann's 2-point first-play
    # sweep left out; internal names in the Endgame lines; restricted sides' sweeps left out; a trail limit in
    # nested brackets; "several sides reach 11" under difference scoring, where only one side scores a hand.
    ("hungarian", ["captured cards score as they are won."], ["at the end of the hand."]),
    ("hungarian-ulmann", ["2 for a sweep of the whole first table by the hand's first play"], []),
    ("dominican", ["Endgame: A side with exactly 19 points at the start of a hand may score only big casino in it",
                   "restrictions and the limit on sweeps are lifted", "see Endgame below"],
     ["big_casino", "see the end of the game"]),
    ("dominican-restricted-no-sweeps", ["A side under an endgame restriction records no sweeps at all.",
                                        "are not even recorded, so they cancel nothing"],
     ["(they still cancel the opponents')."]),
    ("face-builds", ["not while you own a build: then capture or raise one"], ["build (then"]),
    ("eleven-difference", ["scores the difference"], ["If several sides reach"]),
    # A second re-attack: claiming games end at a correct claim, not by themselves at the target; a deal that gives out
    # the whole pack has no "more each until the stock runs out".
    ("points-as-earned", ["a correct claim wins it"], ["once a side's points reach the target"]),
    ("scopone", ["the first deal gives out the whole pack"], ["until the stock runs out"]),
    ("south-african-casino", ["(with 3 or 4 players the first deal gives out the whole pack)"], []),
    # A player's audit of the Scopa family: Escoba's dealer taking a first table of 15 and its optional capture left
    # out, the primiera's points by rank and its suits not given, a cryptic "(the hand)".
    ("escoba", ["the dealer takes them at once and scores a sweep for each set",
                "trail: lay the card face up on the table (any card, even one that could capture: you never have to)",
                "by their primiera points (7: 21, 6: 18, A: 16, 5: 15, 4: 14, 3: 13, 2: 12, J/Q/K: 10; a side without "
                "a card of every suit cannot win it)", "until the stock runs out, which ends the hand"], ["(the hand)"]),
    ("scopa", ["(not a card that could capture)", "7: 21, 6: 18"], ["you never have to", "the dealer takes them"]),
    ("scopone-scientifico", ["Deal: 10 cards each and none to the table"], []),   # (its difference, a re-audit)
])
def test_how_to_play_agrees_with_itself_and_the_rulebook(variant: str, said: list[str], unsaid: list[str]) -> None:
    text = how_to_play(load_rules(variant))
    for words in said:
        assert words in text, (variant, words)
    for words in unsaid:
        assert words not in text, (variant, words)


def test_how_to_play_says_what_the_rulebook_says_of_teams_short_deals_pegging_and_ties() -> None:
    """A re-attack compared each game's `how` with its rulebook: Krypkasino's said nothing of its short last deals
    or its teams, Spade's nothing of when its cards count, Tuxedo's nothing of the cards left at the end, and
    Finnish Kasino's "split on a tie" read as leaving no point unscored (the book: shared, rounded down)."""
    def how(variant: str) -> str:
        return how_to_play(load_rules(variant))

    kryp = how("krypkasino")
    assert kryp.startswith("How to play krypkasino (2 to 6 players; four or six may play in teams of two)")
    assert "a stock too short for full hands is dealt one card at a time, the cards left over face up" in kryp
    assert "too short" not in how("standard") and "teams" not in how("hungarian").splitlines()[0]
    assert how("scopone").startswith("How to play scopone (4 players only; in teams of two)")
    assert ("cards: 3 for most cards, nobody on a tie (counted when the hand is over, after the cards left on the "
            "table; not added once a side has reached the target)") in how("spade")
    assert "counted when the hand is over" not in how("standard")
    assert "(an orange; not the taking of the cards left at the end)" in how("tuxedo")
    assert "spades: 2 for most spades, shared on a tie, rounded down" in how("finnish-kasino")


@pytest.mark.parametrize("deal, seats, hint", [
    ("{hand_size: 40}", "", "deal fewer cards"),
    ("{hand_size: 12, table_cards: 4, short_stock: split_rest_to_table}", "seats: {max_players: 5}\n",
     "deal fewer cards, or lower seats.max_players to 4")])
def test_a_deal_too_large_says_to_lower_the_most_players_only_where_it_helps(tmp_path: Path, deal: str, seats: str,
                                                                            hint: str) -> None:
    """A docs audit: a deal too large for the fewest players was told to "lower seats.max_players", which cannot
    help; where some player counts can be dealt, the hint names the largest that can."""
    path = tmp_path / "big.yaml"
    path.write_text(f"extends: standard\nname: big\ndeal: {deal}\n{seats}", encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(path)
    found = [d for d in err.value.diagnostics if "the first deal needs" in d.message]
    assert [d.hint for d in found] == [hint], err.value.diagnostics


@pytest.mark.parametrize("text, hint", [
    ("game:\ntarget: 11\n", "`target` is a setting of `game`: indent it under `game:`, which stands empty"),
    ("target: 11\n", "`target` is a setting of `game`: put it under `game:`, indented")])
def test_a_sections_setting_at_the_top_level_is_told_where_it_goes(tmp_path: Path, text: str, hint: str) -> None:
    """A docs audit wrote `game:` and then `target: 11` without indenting it, and was told only that `target` is
    unknown at the top level: the hint says whose setting it is and to indent it."""
    path = tmp_path / "ind.yaml"
    path.write_text("extends: standard\nname: ind\n" + text, encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(path)
    assert [d.hint for d in err.value.diagnostics if "unknown setting `target`" in d.message] == [hint]


def test_a_yes_where_a_number_goes_is_said_as_yaml_reads_it(tmp_path: Path) -> None:
    """`target: yes` was refused as "not true", a value the author never wrote (a docs audit): the message says how
    YAML reads it."""
    path = tmp_path / "y.yaml"
    path.write_text("extends: standard\nname: y\ngame: {target: yes}\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(path)
    assert [d.message for d in err.value.diagnostics] == [
        "`game.target` must be a whole number or null, not true (YAML reads yes, no, on and off as true and false)"]


def test_every_key_given_twice_is_said_in_one_run(tmp_path: Path) -> None:
    """`validate` says every mistake of a kind in one run (README): a file with three keys given twice was refused at
    the first, the next found only once it was mended. Each is said where it is given again."""
    path = tmp_path / "dup.yaml"
    path.write_text("extends: standard\nname: d\ngame: {target: 11, target: 12}\nname: e\n"
                    "sweeps: {points: 1}\nsweeps: {points: 2}\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(path)
    assert [(d.line, d.message) for d in err.value.diagnostics] == [
        (3, "duplicate key `target` (first given on line 3)"), (4, "duplicate key `name` (first given on line 2)"),
        (6, "duplicate key `sweeps` (first given on line 5)")]
