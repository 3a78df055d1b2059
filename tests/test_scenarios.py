"""`cassino check`: every scenario file passes, the docs' examples run, hostile input is a file error (exit 2)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from cassino.apps.authors.scenario_format import CASE_KEYS, EXPECT_KEYS
from cassino.apps.authors.scenarios import Runner
from cassino.errors import RuleFileError

from conftest import ROOT, SHARED, VARIANTS

SCENARIOS = sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))
#: Cases written from the rule texts by readers who had not read the engine (their README says more).
SECOND_READING = sorted((ROOT / "tests" / "scenarios" / "second-reading").glob("*.yaml"))
#: Cases written from the printed rulebooks alone by readers who read neither the engine nor the texts.
RULEBOOK_READING = sorted((ROOT / "tests" / "scenarios" / "rulebook-reading").glob("*.yaml"))
#: A third reading of the classic and Royal texts, aimed at seatings and combinations (its README says more).
THIRD_READING = sorted((ROOT / "tests" / "scenarios" / "third-reading").glob("*.yaml"))
#: A fourth reading of the five rule texts, every variant from them, aimed at seatings and crowded tables (session 99).
FOURTH_READING = sorted((ROOT / "tests" / "scenarios" / "fourth-reading").glob("*.yaml"))
#: A fifth reading: the nine variants of public pages, from those pages, aimed at seatings and crowded tables.
FIFTH_READING = sorted((ROOT / "tests" / "scenarios" / "fifth-reading").glob("*.yaml"))
#: Every written reading of a variant file (`readings:`) shown in play, written from the rulebooks and the schema.
WRITTEN_READINGS = sorted((ROOT / "tests" / "scenarios" / "readings").glob("*.yaml"))


def check(*files: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cassino", "check", *map(str, files)],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_file_passes(path: Path) -> None:
    result = check(path)
    last = result.stdout.strip().splitlines()[-1]
    assert result.returncode == 0, result.stdout + result.stderr
    passed = int(last.split()[0])
    assert last == f"{passed} passed, 0 failed"
    assert passed >= 10, f"{path.name}: a variant's file needs at least 10 cases"


#: Cases kept from readers outside the code, each folder run in one `check`: (files, at least so many files, at
#: least so many cases). The second reading: 806 cases written from the rule texts by readers who had not read the
#: engine. The rulebook reading: 1,588 cases written from the printed rulebooks of every bundled variant, house-rule
#: example and drawn house rule by readers who read neither the engine nor the rule texts (what a book teaches is
#: what the engine plays). The third reading: 377 cases from the classic and Royal texts, aimed at three and four
#: players, partnerships, heavy tables and endgames. The fourth: 129 cases from the five texts, every variant they give,
#: at three, four alone and in teams, five and six players, and crowded tables. The written readings: 133 cases, each
#: reading a variant file writes shown in play. The fifth: 107 cases of the nine public-page variants, as the fourth.
READINGS = {"second-reading": (SECOND_READING, 20, 800), "rulebook-reading": (RULEBOOK_READING, 40, 1_580),
            "third-reading": (THIRD_READING, 12, 377), "fourth-reading": (FOURTH_READING, 12, 129),
            "fifth-reading": (FIFTH_READING, 9, 107), "readings": (WRITTEN_READINGS, 18, 133)}


@pytest.mark.parametrize("reading", READINGS)
def test_a_reading_from_outside_the_code_passes(reading: str) -> None:
    files, least_files, least_cases = READINGS[reading]
    assert len(files) >= least_files
    result = check(*files)
    last = result.stdout.strip().splitlines()[-1]
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert last.endswith(" passed, 0 failed") and int(last.split()[0]) >= least_cases, last


def test_every_variant_has_a_scenario_file() -> None:
    assert {p.stem for p in SCENARIOS} >= set(VARIANTS)


@pytest.mark.skipif(not (SHARED / "scenarios" / "examples.yaml").exists(),
                    reason="checks the scenario contract's own examples (../shared/scenarios/examples.yaml), which only "
                           "the developers' workspace has; a clone does not need them: tests/scenarios/ covers every variant")
def test_shared_examples_pass() -> None:
    result = check(SHARED / "scenarios" / "examples.yaml")
    assert result.returncode == 0, result.stdout
    assert result.stdout.strip().splitlines()[-1] == "5 passed, 0 failed"


def test_a_build_made_with_a_cards_hand_value_is_a_position(tmp_path: Path) -> None:
    """The Nordic games count an ace 14 from the hand and 1 on the table. Where multiple builds are made (a house rule
    of Krypkasino with building), play reaches a build of 14 of an ace and 3+5+6, the ace played from the hand; a
    scenario of that position was refused as impossible (each card was counted by its table value only; the twin
    games' reordered builds found it). A build no count of its cards makes is still refused."""
    (tmp_path / "kh.yaml").write_text("name: kryp-builds\ndescription: Krypkasino with multiple builds\n"
                                      "extends: krypkasino\nbuild: {allowed: true, add_sets: true}\n", encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text("variant: kh.yaml\ncases:\n"
                 "  - name: the ace from the hand builds 14 with 3+5+6\n    hand: [AD, AS]\n    table: [3H, 5C, 6H]\n"
                 "    expect: {legal: [\"AD build 14 on 3H 5C 6H\"]}\n"
                 "  - name: and the build is a position\n    hand: [AS, 2C]\n"
                 "    builds: [{cards: [AD, 3H, 5C, 6H], value: 14, owner: 0}]\n"
                 "    expect: {legal: [\"AS capture [AD 3H 5C 6H]\"]}\n"
                 "  - name: no count of these makes 14\n    hand: [AS, 2C]\n"
                 "    builds: [{cards: [2D, 3H, 5C, 6H], value: 14, owner: 0}]\n"
                 "    expect: {legal: [\"AS capture [2D 3H 5C 6H]\"]}\n", encoding="utf-8")
    result = check(f)
    assert result.stdout.strip().splitlines()[-1] == "2 passed, 1 failed", result.stdout
    assert "FAILED: no count of these makes 14" in result.stdout
    assert "builds[0]: the cards 2D 3H 5C 6H cannot make a build of 14" in result.stdout


def test_check_reports_failures_and_bad_files(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("variant: standard\ncases:\n"
                 "  - name: wrong on purpose\n    table: [5C]\n    hand: [5D]\n"
                 "    expect: {illegal: [\"5D capture 5C\"], legal: [\"5D capture 4C\"]}\n"
                 "  - name: a build its cards cannot make\n    builds: [{cards: [2C, 3C], value: 9, owner: 1}]\n"
                 "    hand: [9D]\n    expect: {legal: [\"9D trail\"]}\n", encoding="utf-8")
    result = check(f)
    assert result.returncode == 1
    out = result.stdout
    assert "FAILED: wrong on purpose" in out and "expected illegal: 5D capture 5C" in out
    assert "4C is not loose on the table" in out
    assert "cannot make a build of 9" in out
    assert out.strip().splitlines()[-1] == "0 passed, 2 failed"
    bad = tmp_path / "bad.yaml"
    bad.write_text("variant: standard\ncases:\n  - name: x\n    tabel: [5C]\n", encoding="utf-8")
    result = check(bad)
    assert result.returncode == 2
    assert f"{bad}:4: unknown key `tabel`" in result.stderr   # FILE:LINE: (SCENARIOS.md)
    assert "did you mean `table`?" in result.stderr


def test_the_documented_examples_pass(tmp_path: Path) -> None:
    """Every complete scenario file in docs/scenarios.md runs and passes."""
    text = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "cases:" in b]
    files = []
    for i, block in enumerate(blocks):
        f = tmp_path / f"doc{i}.yaml"
        f.write_text(block.replace("../examples/", f"{ROOT / 'examples'}/"), encoding="utf-8")
        files.append(f)
    result = check(*files)
    assert result.returncode == 0, result.stdout + result.stderr
    assert int(result.stdout.strip().splitlines()[-1].split()[0]) >= 20


def test_the_coverage_table_names_real_cases() -> None:
    """docs/rule-examples.md cites cases as `file.yaml: name`; each must exist."""
    names = {p.name: {c["name"] for c in yaml.safe_load(p.read_text(encoding="utf-8"))["cases"]} for p in SCENARIOS}
    text = (ROOT / "docs" / "rule-examples.md").read_text(encoding="utf-8")
    refs = re.findall(r"`([a-z-]+\.yaml): ([^`]+)`", text)
    assert len(refs) > 250
    missing = [f"{f}: {n}" for f, n in refs if n not in names.get(f, set())]
    assert not missing, missing


def test_a_card_not_in_the_deck_or_placed_twice_fails_its_case_at_its_place(tmp_path: Path) -> None:
    """The contract (SCENARIOS.md): an impossible position fails its case (exit 1) and the run goes
    on; issue 25: the failure gives FILE:LINE:COL of the card and, for a card twice, both places."""
    f = tmp_path / "s.yaml"
    f.write_text("variant: standard\ncases:\n"
                 "  - name: fine\n    table: [5C]\n    hand: [5D]\n    expect: {legal: [\"5D capture 5C\"]}\n"
                 "  - name: twice\n    table: [4H, 5C]\n    hand: [9D, 5C]\n    expect: {legal: [\"9D trail\"]}\n"
                 "  - name: not in the deck\n    table: [4H]\n    builds: [{cards: [2C, 9X], value: 11}]\n"
                 "    expect: {legal: [\"9D trail\"]}\n"
                 "  - name: fine after\n    table: [6C]\n    hand: [6D]\n    expect: {legal: [\"6D capture 6C\"]}\n",
                 encoding="utf-8")
    second = tmp_path / "t.yaml"
    second.write_text("variant: standard\ncases:\n  - name: next file\n    hand: [KD]\n"
                      "    expect: {legal: [\"KD trail\"]}\n", encoding="utf-8")
    result = check(f, second)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr == ""
    out = result.stdout
    # where the card is written the second time, and where the first
    assert (f"{f}: FAILED: twice\n  {f}:8:17: impossible position: card 5C is placed twice: "
            f"in `table` here and in `hand` at {f}:9:16\n") in out, out
    assert (f"{f}: FAILED: not in the deck\n  {f}:13:27: impossible position: `builds[0]`: '9X': "
            "no suit X in this deck") in out, out
    assert out.strip().splitlines()[-1] == "3 passed, 2 failed"      # the run went on past them


IMPOSSIBLE_CARDS = [
    # (case body, the located failure expected on stdout; {f} is the file)
    ("table: [5C, 5c]\nexpect: {winner: null}",
     "{f}:4:17: impossible position: card 5C is placed twice: in `table` here and in `table` at {f}:4:13"),
    ("hands: {1: [1C]}\nexpect: {winner: null}", "{f}:4:17: impossible position: `hands[1]`: '1C'"),
    ("captured: {0: [AS], 1: [AS]}\nexpect: {winner: null}",
     "{f}:4:29: impossible position: card AS is placed twice: in `captured[1]` here and in `captured[0]` at {f}:4:20"),
    ("hand: [QQ]\nexpect: {winner: null}", "{f}:4:12: impossible position: `hand`: 'QQ'"),
    ("builds: [{cards: [2C, 3C], value: 5}]\nhand: [3C]\nexpect: {winner: null}",
     "{f}:4:27: impossible position: card 3C is placed twice: in `builds[0]` here and in `hand` at {f}:5:12"),
]


LOCATED_FAILURES = [
    # (case body, the located failure expected on stdout; {f} is the file): an audit of the authors' tools found
    # these failures said without FILE:LINE:COL, while a card in a position had it
    ("hand: [9D]\ntable: [4D, 5H]\nexpect: {legal: [\"9D grab 4D 5H\"]}", "{f}:6:22: cannot read '9D grab 4D 5H'"),
    ("hand: [9D]\ntable: [4D, 5H]\nexpect: {illegal: [\"9D\", \"9D capture 4Z\"]}", "{f}:6:30: cannot read '9D capture 4Z'"),
    ("hand: [9D]\ntable: [4D, 5H]\nexpect: {exactly: [\"9D trail\", \"9D captur 4D 5H\"]}",
     "{f}:6:36: cannot read '9D captur 4D 5H'"),
    ("hand: [9D, 2C]\ntable: [4D, 5H]\nmoves: [\"9D capture\"]\nexpect: {winner: null}",
     "{f}:6:13: moves[0] cannot be read"),
    ("hand: [9D, 2C]\ntable: [4D, 5H]\nmoves: [\"2C capture 4D\"]\nexpect: {winner: null}",
     "{f}:6:13: moves[0] '2C capture 4D' is refused"),
    ("hand: [9D]\nhands: {5: [2C]}\nexpect: {winner: null}",
     "{f}:5:13: impossible position: hands: seat 5 does not exist with 2 players"),
    ("players: 7\nhand: [9D]\nexpect: {winner: null}", "{f}:4:14: impossible position: standard is for 2-4 players, not 7"),
    # An audit's: these failures had no place in the file (the seat to play, partners, a build, two hands of one
    # seat, an expectation not met), and two court cards built as K passed in standard, which builds none.
    ("to_play: 2\nhand: [9D]\nexpect: {winner: null}", "{f}:4:14: impossible position: to_play 2 is not a seat"),
    ("partners: true\nhand: [9D]\nexpect: {winner: null}", "{f}:4:15: impossible position: partners need 4 players"),
    ("hand: [KD]\nbuilds: [{cards: [KS, KH], value: K}]\nexpect: {winner: null}",
     "{f}:5:39: impossible position: builds[0]: standard never builds cards without a number value"),
    ("hand: [KD]\nbuilds: [{cards: [3S, 4H], value: 8}]\nexpect: {winner: null}",
     "{f}:5:39: impossible position: builds[0]: the cards 3S 4H cannot make a build of 8"),
    ("hand: [9D]\nhands: {0: [2C]}\nexpect: {winner: null}",
     "{f}:4:11: impossible position: both `hand` and `hands[0]` give the hand of seat 0 at {f}:5:16"),
    ("hand: [9D]\ntable: [4D, 5H]\nexpect: {legal: [\"9D capture 4D\"]}", "{f}:6:22: expected legal: 9D capture 4D"),
    ("hand: [9D]\ntable: [4D, 5H]\nexpect: {illegal: [\"9D capture 4D 5H\"]}",
     "{f}:6:24: expected illegal: 9D capture 4D 5H"),
    # An audit's: partners asked where the rules never seat partners, or no partners where they always do, were
    # ignored without a word (the case played alone, or in teams).
    ("variant: tuxedo\nplayers: 4\npartners: true\nhand: [5B]\nexpect: {winner: null}",
     "{f}:6:15: impossible position: tuxedo is never played in partnerships (seats.partnerships: never)"),
    ("variant: dominican\nplayers: 4\npartners: false\nhand: [5C]\nexpect: {winner: null}",
     "{f}:6:15: impossible position: dominican always seats 4 players as partners (seats.partnerships: always)"),
    # A re-attack's: "is for 6-6 players" for a variant of one player count.
    ("variant: krypkasino-threes\nplayers: 4\nhand: [5H]\nexpect: {winner: null}",
     "{f}:5:14: impossible position: krypkasino-threes is for 6 players, not 4"),
    # A build's value that is no rank of the deck cannot be read (it passed as an illegal move).
    ("hand: [5H]\ntable: [5S]\nexpect: {illegal: [\"5H build Z on 5S\"]}",
     "{f}:6:24: cannot read '5H build Z on 5S': `Z` is not a rank of this deck"),
]


@pytest.mark.parametrize("body,message", IMPOSSIBLE_CARDS + LOCATED_FAILURES,
                         ids=[b.split(chr(10))[0] + "|" + b.split(chr(10))[-1][:20] for b, _ in IMPOSSIBLE_CARDS + LOCATED_FAILURES])
def test_an_impossible_card_or_a_failing_move_is_a_failed_case_located(tmp_path: Path, body: str, message: str) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("variant: standard\ncases:\n  - name: impossible\n" + textwrap.indent(body, "    ") + "\n",
                 encoding="utf-8")
    result = check(f)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert message.format(f=f) in result.stdout, result.stdout
    assert result.stdout.strip().splitlines()[-1] == "0 passed, 1 failed"


FIRST_PLAY_SWEEPS = [
    # (sweeps, the failure expected): Ulmann's 2-point sweep is the non-dealer's, with the hand's first play
    # (002 Ulmann 2: "If the non-dealer is able to sweep the four cards initially dealt to the table,
    # capturing them all with the first play"); a scenario that says otherwise is not a position of a hand.
    ("{1: [{size: 4, first_play: true}]}", "seat 1's sweep is marked `first_play`, but seat 0 plays first"),
    ("{0: [{size: 4, first_play: true}, {size: 4, first_play: true}]}", "2 sweeps are marked `first_play`"),
    ("{0: [2, {size: 4, first_play: true}]}", "seat 0's sweep number 2 is marked `first_play`"),
    ("{0: [{size: 3, first_play: true}]}", "a sweep made with the first play takes the 4 cards dealt to the table, not 3"),
]


@pytest.mark.parametrize("sweeps,message", FIRST_PLAY_SWEEPS, ids=[m for _, m in FIRST_PLAY_SWEEPS])
def test_a_first_play_sweep_no_first_play_could_make_is_refused(tmp_path: Path, sweeps: str, message: str) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("variant: hungarian-ulmann\ncases:\n"
                 f"  - name: refused\n    sweeps: {sweeps}\n    captured: {{0: [AS], 1: rest}}\n"
                 "    expect: {hand_points: {0: 3, 1: 10}}\n"
                 "  - name: the leader's first play\n    sweeps: {0: [{size: 4, first_play: true}, 2]}\n"
                 "    captured: {0: [AS], 1: rest}\n    expect: {hand_points: {0: 4, 1: 10}}\n", encoding="utf-8")
    result = check(f)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert f"{f}:4:" in result.stdout and "impossible position: " + message in result.stdout, result.stdout
    assert result.stdout.strip().splitlines()[-1] == "1 passed, 1 failed"


def test_new_expectations_report_what_differs(tmp_path: Path) -> None:
    """Issue 26: items, reason, kind and holder each fail a case (exit 1) when they do not hold."""
    f = write(tmp_path, """
        - name: items
          sweeps: {0: 1}
          captured: {0: [AS, 10D], 1: rest}
          expect: {items: {0: {big_casino: 2, aces: 2}}}
        - name: reason
          builds: [{cards: [3C, 5D], value: 8, owner: 0}]
          hand: [8H, KD]
          expect: {illegal: [{move: KD trail, reason: "too early"}, {move: "8H capture [3C 5D]", reason: x}]}
        - name: kind and holder
          variant: hoyle
          players: 4
          partners: true
          table: [3C, 5D, 8S]
          hand: [8H, 8D]
          moves: ["8H build 8 on 3C 5D 8S"]
          expect: {builds: [{cards: [3C, 5D, 8S, 8H], value: 8, kind: single, holder: 2}]}
        """)
    result = check(f)
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    assert "items[0].aces: expected 2, found 1" in out and "big_casino" not in out
    assert "illegal: KD trail: expected a reason containing 'too early'" in out and "may not trail" in out
    assert "expected illegal: 8H capture [3C 5D] (x)" in out
    assert "expected single, found multiple" in out and "expected held by seat 2, found seat 0" in out
    assert out.strip().splitlines()[-1] == "0 passed, 3 failed"


def write(tmp_path: Path, body: str, variant: str = "standard") -> Path:
    f = tmp_path / "s.yaml"
    f.write_text(f"variant: {variant}\ncases:\n" + textwrap.indent(textwrap.dedent(body), "  "), encoding="utf-8")
    return f


def test_check_scores_sweeps_as_play_cancels_them(tmp_path: Path) -> None:
    """Issue 17: {0: 1, 2: 1, 1: 1} with partners is one sweep to none, as play would leave it."""
    f = write(tmp_path, """
        - name: partners
          players: 4
          sweeps: {0: 1, 2: 1, 1: 1}
          captured: {0: [AS, AH, AD, AC, 10D, 2S], 1: rest}
          expect: {hand_points: {0: 8, 1: 4}}
        - name: three players, one lacks a sweep
          players: 3
          sweeps: {0: 1, 1: 1}
          captured: {0: [AS], 1: rest}
          expect: {sweeps: {0: 1, 1: 1, 2: 0}}
        """, "dominican")
    result = check(f)
    assert result.returncode == 0, result.stdout


def test_check_follows_the_variants_timing_mid_hand(tmp_path: Path) -> None:
    """Issue 17: a seat at 20 taking an ace mid-hand has not won a standard game; a Spade Cassino
    seat at 58 holding most cards has not won before the cards are counted."""
    f = write(tmp_path, """
        - name: standard at 20 takes an ace
          scores: {0: 20, 1: 0}
          table: [AH, 5C]
          hand: [AD, 9S]
          hands: {1: [KC, 2D]}
          moves: ["AD capture AH"]
          expect: {winner: 1}
        - name: spade at 58 with 29 cards
          variant: spade
          scores: {0: 58, 1: 0}
          captured: {0: [3H, 4H, 5H, 6H, 7H, 8H, 9H, 10H, JH, QH, KH, 3C, 4C, 5C, 6C, 7C, 8C, 9C, QC, KC,
                         3D, 4D, 5D, 6D, 7D, 8D, 9D, QD, KD]}
          table: [JD, 5S]
          hand: [JC, 10C]
          hands: {1: [2D, 9S]}
          moves: ["JC capture JD"]
          expect: {winner: 0}
        """)
    result = check(f)
    assert result.returncode == 1
    assert result.stdout.count("winner: expected 1, found null") == 1
    assert result.stdout.count("winner: expected 0, found null") == 1


HOSTILE = [
    # (case body, the message expected on stderr)
    ("stock: 6C\nexpect: {winner: null}", "`cases[0].stock` must be a list of cards"),
    ("stock: [5C]\ntable: [5C]\nexpect: {winner: null}", "impossible stock: 5C is also in table"),
    ("stock: [ZZ]\nexpect: {winner: null}", "impossible stock"),
    ("stock: [6C]\nexpect: {winner: null}", "impossible stock: 51 cards are nowhere"),
    ("events: [orange]\nexpect: {winner: null}", "`cases[0].events` must map seats"),
    ("events: {0: [orange]}\nexpect: {winner: null}", "standard has no capture event named 'orange'"),
    ("sweeps: {0: [0]}\nexpect: {winner: null}", "must be a sweep's size"),
    ("sweeps: {0: [{size: 2, first: true}]}\nexpect: {winner: null}", "unknown key `first`"),
    ("target: 0\nexpect: {winner: null}", "`cases[0].target` must be a number of points"),
    ("first_play: maybe\nexpect: {winner: null}", "`cases[0].first_play` must be true or false"),
    ("restrictions_lifted: 1\nexpect: {winner: null}", "`cases[0].restrictions_lifted` must be true or false"),
    ("table: [5C]\nhand: [5D]\nmoves: [\"claim 0\"]\nexpect: {winner: null}", "standard has no claiming"),
    ("table: [5C]\nhand: [5D]\ncaptured: {1: rest}\nmoves: [\"5D capture 5C\", \"5D trail\"]\nexpect: {winner: null}",
     "comes after the end of the hand"),
    ("variant: spade\nscores: {0: 59}\ntable: [AH, 7C]\nhand: [AC, 9D]\nhands: {1: [2D]}\n"
     "moves: [\"AC capture AH\", \"2D trail\"]\nexpect: {winner: 0}", "comes after the end of the game"),
    ("table: [5C]\nhand: [5D]\nmoves: [\"5D capture 5C\"]\nexpect: {winner: null}", "unseen cards"),
    ("moves: \"5D trail\"\nexpect: {winner: null}", "`cases[0].moves` must be a list of moves"),
    # (in the file's words: a re-attack read "must be true or false, not None")
    ("partners: null\nexpect: {winner: null}", "`cases[0].partners` must be true or false, not null"),
    ("table: [5C]\nexpect: {}", "`expect` is empty"),
    ("table: [5C]", "has no `expect`"),
    ("table: [5C]\nexpect: {legal: \"9D trail\"}", "`cases[0].expect.legal` must be a list of moves"),
    ("table: [5C]\nexpect: {legal: [], illegal: []}", "every expectation is empty"),
    ("captured: {0: rest}\nexpect: {legal: [\"5D trail\"]}", "the case's hand is over"),
    ("table: [5C]\nexpect: {to_play: true}", "`cases[0].expect.to_play` must be a seat number"),
    ("table: [5C]\nexpect: {ended_by: nothing}", "`cases[0].expect.ended_by` must be one of"),
    ("table: [5C]\nexpect: {builds: [{cards: [5C], value: 5, own: 1}]}", "unknown key `own`"),
    ("table: [5C]\nexpect: {hands: {x: [5C]}}", "'x' is not a seat number"),
    ("to_play: one\nexpect: {winner: null}", "`cases[0].to_play` must be a seat number"),
    # issue 26: the new expectations and `holder`, each refused when written wrongly
    ("captured: {0: [AS], 1: rest}\nexpect: {items: {}}", "`cases[0].expect.items` is empty"),
    ("captured: {0: [AS], 1: rest}\nexpect: {items: {0: {}}}", "(it is empty, so it would check nothing)"),
    ("captured: {0: [AS], 1: rest}\nexpect: {items: {0: [sweeps]}}", "must map scoring items to points"),
    ("captured: {0: [AS], 1: rest}\nexpect: {items: {0: {sweeps: one}}}", "must be a whole number"),
    ("captured: {0: [AS], 1: rest}\nexpect: {items: {5: {aces: 1}}}", "seat 5 does not name a side"),
    ("captured: {0: [AS], 1: rest}\nexpect: {items: {0: {ace: 1}}}", "has no scoring item `ace`"),
    ("table: [5C]\nhand: [5D]\nexpect: {items: {0: {aces: 0}}}", "the case's hand has not been scored"),
    ("table: [5C]\nhand: [5D]\nexpect: {illegal: [{move: 5D trail}]}", "needs `reason`"),
    ("table: [5C]\nhand: [5D]\nexpect: {illegal: [{move: 5D trail, reason: \"\"}]}", "must be text the refusal"),
    ("table: [5C]\nhand: [5D]\nexpect: {illegal: [{move: 5D trail, reason: 7}]}", "must be text the refusal"),
    ("table: [5C]\nhand: [5D]\nexpect: {illegal: [{move: 5D trail, why: x}]}", "unknown key `why`"),
    ("table: [5C]\nhand: [5D]\nexpect: {illegal: [7]}", "must be a move in notation, or {move"),
    # brackets read as a YAML list (a re-attack's block item `- [3C 5D]`): the hint says to quote the move
    ("table: [5C]\nhand: [5D]\nexpect:\n  legal:\n    - [5C 5D]", "hint: a move naming a build in brackets needs "
                                                                  "quotes around the whole move"),
    ("table: [5C]\nhand: [5D]\nmoves:\n  - [5C 5D]\nexpect: {winner: null}", "needs quotes around the whole move"),
    ("table: [5C]\nhand: [5D]\nexpect: {builds: [{cards: [5C, 5D], value: 5, kind: double}]}",
     "must be `single` or `multiple`"),
    ("builds: [{cards: [5C, 3D], value: 8, owner: 0, holder: 9}]\nhand: [KD]\nexpect: {legal: [\"KD trail\"]}",
     "seat 9 does not exist"),
    ("builds: [{cards: [5C, 3D], value: 8, owner: 0, holder: x}]\nhand: [KD]\nexpect: {legal: [\"KD trail\"]}",
     "must be a seat number"),
    ("builds: [{cards: [5C, 3D], value: 8, owner: 0, holder: 1}]\nhand: [KD]\nexpect: {legal: [\"KD trail\"]}",
     "standard has no building for a partner"),
    ("variant: hoyle\nplayers: 4\npartners: true\nbuilds: [{cards: [5C, 3D], value: 8, owner: 0, holder: 1}]\n"
     "hand: [KD]\nexpect: {legal: [\"KD trail\"]}", "is not the partner of the owner 0"),
]


@pytest.mark.parametrize("body,message", HOSTILE, ids=[m for _, m in HOSTILE])
def test_hostile_input_is_a_file_error(tmp_path: Path, body: str, message: str) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("variant: standard\ncases:\n  - name: hostile\n" + textwrap.indent(body, "    ") + "\n",
                 encoding="utf-8")
    result = check(f)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert message in result.stderr, result.stderr
    assert re.search(rf"^{re.escape(str(f))}:\d+: ", result.stderr, re.M), result.stderr   # FILE:LINE: (SCENARIOS.md)


_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 70),
              st.sampled_from(["AS", "10D", "5C", "5D", "ZZ", "rest", "orange", "claim 0", "5D capture 5C", "standard"])),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from([0, 1, 2, "x", "cards", "value", "size"]),
                                                                 inner, max_size=3),
    max_leaves=8)
_CASE_KEYS = sorted(CASE_KEYS.keys() - {"name", "expect", "source", "description"})


@given(position=st.dictionaries(st.sampled_from(_CASE_KEYS), _VALUES, max_size=6),
       expect=st.dictionaries(st.sampled_from(sorted(EXPECT_KEYS)), _VALUES, min_size=1, max_size=3))
def test_any_case_is_run_or_refused_never_a_crash(tmp_path_factory: pytest.TempPathFactory,
                                                   position: dict, expect: dict) -> None:
    """Whatever a case holds, check either runs it or refuses the file with FILE:LINE diagnostics."""
    f = tmp_path_factory.mktemp("fuzz") / "s.yaml"
    f.write_text(yaml.safe_dump({"variant": "standard", "cases": [{"name": "c", **position, "expect": expect}]}),
                 encoding="utf-8")
    try:
        result = Runner().run_file(f)
    except RuleFileError as e:
        assert e.diagnostics and all(d.file == str(f) and d.line >= 1 for d in e.diagnostics)
    else:
        assert len(result.cases) == 1


def test_a_player_count_the_file_gives_every_case_is_said_at_its_line(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("variant: standard\nplayers: 7\ncases:\n  - name: x\n    hand: [9D]\n    expect: {winner: null}\n",
                 encoding="utf-8")
    result = check(f)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{f}:2:10: impossible position: standard is for 2-4 players, not 7" in result.stdout, result.stdout


def test_a_file_of_no_cases_is_a_file_error(tmp_path: Path) -> None:
    """`cases: []` passed with exit 0, so a scenario file emptied by mistake passed in a suite."""
    f = tmp_path / "s.yaml"
    f.write_text("variant: standard\ncases: []\n", encoding="utf-8")
    result = check(f)
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"{f}:2: `cases` is empty: a scenario file holds at least one case" in result.stderr


def test_a_case_is_named_by_its_path_in_every_message_of_one_report(tmp_path: Path) -> None:
    """An audit read "case 2 has no `name`" beside "`cases[1].table` must be ..." in one report: the same case,
    counted two ways. Every message names a case by its path now."""
    path = tmp_path / "s.yaml"
    path.write_text("variant: standard\ncases:\n  - name: a\n    table: [9C]\n    hand: [9D]\n"
                    "  - table: 5\n    hand: [9D]\n    expect:\n      legal: [\"9D capture 9C\"]\n"
                    "  - name: a\n    bogus: 1\n    expect: {legal: [\"9D trail\"]}\n")
    from cassino.apps.cli import main
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["check", str(path)])
    said = err.getvalue()
    assert code == 2
    for expected in ("`cases[0]` has no `expect`", "`cases[1]` has no `name`", "`cases[1].table` must be",
                     "unknown key `bogus` in `cases[2]`", "is used twice (first in `cases[0]`)"):
        assert expected in said, (expected, said)
    assert not re.search(r"\bcase \d", said), said


def test_a_name_of_the_wrong_type_an_unquoted_build_and_a_long_move_are_said_well(tmp_path: Path) -> None:
    """An audit's files: `name: 12` was refused twice (its type, then "has no name"); a move naming a build unquoted
    in a list got the general YAML hint; a 15,000-character move was echoed whole."""
    named = tmp_path / "named.yaml"
    named.write_text("variant: standard\ncases:\n  - name: 12\n    hand: [KD]\n    expect: {legal: [\"KD trail\"]}\n",
                     encoding="utf-8")
    result = check(named)
    assert result.returncode == 2 and "`cases[0].name` must be text, not 12" in result.stderr
    assert "has no `name`" not in result.stderr
    unquoted = tmp_path / "unquoted.yaml"
    unquoted.write_text("variant: standard\ncases:\n  - name: a build\n    builds: [{cards: [3C, 3D], value: 6, owner: 1}]\n"
                        "    hand: [2H, 8S]\n    expect:\n      legal: [2H build 8 on [3C 3D]]\n", encoding="utf-8")
    result = check(unquoted)
    assert result.returncode == 2 and f"{unquoted}:7: YAML syntax error" in result.stderr
    assert 'write each item in double quotes, e.g. ["2H build 8 on [3C 3D]", "KD trail"]' in result.stderr
    long = tmp_path / "long.yaml"
    move = "KD capture " + " ".join(["AS"] * 5000)
    long.write_text(f"variant: standard\ncases:\n  - name: long\n    hand: [KD]\n    expect: {{legal: [\"{move}\"]}}\n",
                    encoding="utf-8")
    result = check(long)
    assert result.returncode == 1 and "(15,010 characters): 15,010 characters is longer than any move" in result.stdout
    assert len(result.stdout) < 600, result.stdout[:300]


def test_every_expectation_not_met_is_at_its_place_and_in_the_files_words(tmp_path: Path) -> None:
    """A re-attack: `winner`, `game_over`, `table`, `items`... failed with no place, and said None and True."""
    f = write(tmp_path, """
        - name: many
          hand: [9D, 2C]
          table: [4D, 5H]
          moves: ["9D capture 4D 5H"]
          expect:
            winner: 1
            game_over: true
            table: [3D]
        """)
    result = check(f)
    assert result.returncode == 1, result.stdout + result.stderr
    lines = [line.strip() for line in result.stdout.splitlines() if ": expected " in line]
    assert len(lines) == 3 and all(line.startswith(f"{f}:") for line in lines), result.stdout
    assert f"{f}:9:15: winner: expected 1, found null" in result.stdout
    assert f"{f}:10:18: game_over: expected true, found false" in result.stdout


def test_exactly_says_why_a_move_it_lists_is_refused(tmp_path: Path) -> None:
    """A second re-attack: under `exactly:` a refused move was listed without its reason, which `legal:` gives."""
    f = write(tmp_path, """
        - name: royal K
          table: [5S]
          hand: [8H, KD]
          expect:
            exactly: ["8H build K on 5S", "8H trail", "KD trail", "8H build 13 on 5S"]
        """, variant="royal")
    result = check(f)
    assert result.returncode == 1 and "exactly: expected legal, found illegal: 8H build K on 5S: K counts 13 here" \
        in result.stdout, result.stdout
