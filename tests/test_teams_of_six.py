"""Teams beyond four players (seats.partnership_players, seats.team_size; issue 27, Krypkasino).

pagat's Krypkasino: "With 4 or 6 players it is also possible to play with teams of 2, each player
sitting opposite his or her partner, or 6 players could play in two teams of three, each player
sitting between two opponents." The four-player partnerships of the twelve variants are unchanged.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cassino.engine.core import Engine
from cassino.language.variants import load_rules

ROOT = Path(__file__).resolve().parent.parent


def test_six_players_in_pairs_sit_opposite() -> None:
    engine = Engine(load_rules("krypkasino"))
    assert engine.start(1, 6, partners=True).teams == (0, 1, 2, 0, 1, 2)
    assert engine.start(1, 4, partners=True).teams == (0, 1, 0, 1)
    assert engine.start(1, 6).teams == (0, 1, 2, 3, 4, 5)
    assert engine.start(1, 5, partners=True).teams == (0, 1, 2, 3, 4)    # 5 is not a team count


def test_six_players_in_threes_alternate() -> None:
    engine = Engine(load_rules(ROOT / "examples" / "krypkasino-threes.yaml"))
    assert engine.start(1, 6).teams == (0, 1, 0, 1, 0, 1)


def test_the_four_player_partnerships_are_as_before() -> None:
    engine = Engine(load_rules("standard"))
    assert engine.start(1, 4, partners=True).teams == (0, 1, 0, 1)
    assert load_rules("standard").seats.partnership_players == (4,) and load_rules("standard").seats.team_size == 2


def test_simulate_six_in_pairs_and_in_threes(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("simulate", "krypkasino", "--players", "6", "--partners", "--games", "3")
    assert code == 0, err
    assert re.search(r"games won: seats 0\+3 \d+, seats 1\+4 \d+, seats 2\+5 \d+;", out), out   # three sides of two
    code, out, err = cli("simulate", "examples/krypkasino-threes.yaml", "--players", "6", "--games", "3")
    assert code == 0, err
    assert re.search(r"games won: seats 0\+2\+4 \d+, seats 1\+3\+5 \d+;", out), out           # two sides of three


def test_the_leaders_side_of_six_in_teams_of_two_is_the_leader_and_the_seat_three_on() -> None:
    """With six players in three teams of two the leader's partner sits three seats on: a win by seat 2 (the side
    of 2 and 5) is not the side of a leader at seat 0, as the four-player rule (every other seat) had it."""
    from cassino.apps.authors.simulate import GameStats, summarise

    stats = [GameStats(k, winner_seat=2, first_seat=0, hands=1, plies=96, sweeps=0, item_points={}) for k in range(4)]
    assert summarise("krypkasino", 6, ("greedy",), 1, stats, True, [[0, 3], [1, 4], [2, 5]])["first_player_win_rate"] == 0
    stats = [GameStats(k, winner_seat=0, first_seat=3, hands=1, plies=96, sweeps=0, item_points={}) for k in range(4)]
    assert summarise("krypkasino", 6, ("greedy",), 1, stats, True, [[0, 3], [1, 4], [2, 5]])["first_player_win_rate"] == 1


def test_partners_with_a_count_that_makes_no_teams_is_refused(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("simulate", "krypkasino", "--players", "5", "--partners", "--games", "1")
    assert code == 2
    assert "--partners needs four or six players (teams of two); this table has 5" in err
    assert "Traceback" not in out + err


def _file(tmp_path: Path, seats: str, build: str = "") -> Path:
    path = tmp_path / "teams.yaml"
    path.write_text(f"name: teams\ndescription: teams\nextends: krypkasino\nseats:\n{seats}{build}", encoding="utf-8")
    return path


@pytest.mark.parametrize("seats, build, words", [
    ("  team_size: 3\n  partnership_players: [4]\n", "", "4 players do not make two or more teams of 3"),
    ("  team_size: 3\n  partnership_players: [3]\n", "", "partnership_players"),
    ("  max_players: 4\n  partnership_players: [4, 6]\n", "", "6 players play in partnerships, but the variant is for 2 to 4"),
    ("  team_size: 4\n", "", "team_size"),
    ("  team_size: \"two\"\n", "", "team_size"),
    ("  partnership_players: []\n", "", "partnership_players"),
    ("  partnership_players: [4, 6]\n", "build:\n  allowed: true\n  for_partner: true\n",
     "building for a partner is defined for four players in two pairs only"),
])
def test_validate_refuses_teams_that_cannot_sit(cli, tmp_path: Path, seats: str, build: str, words: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("validate", str(_file(tmp_path, seats, build)))
    assert code == 2, out + err
    assert words in out + err and "Traceback" not in out + err


def test_worked_examples_name_every_partner_of_seat_0() -> None:
    """(A rulebook audit: krypkasino-threes' examples, six players in two teams of three, said "your partner seat 2".)"""
    from cassino.apps.authors.worked_examples import partners_words

    assert partners_words(load_rules("standard"), 4) == "4 in two partnerships (you are seat 0, your partner seat 2)"
    assert partners_words(load_rules("kasino-misar"), 6) == \
        "6 in three partnerships of two (you are seat 0, your partner seat 3)"
    threes = load_rules(str(Path(__file__).resolve().parents[1] / "examples" / "krypkasino-threes.yaml"))
    assert partners_words(threes, 6) == "6 in two teams of three (you are seat 0, your partners seats 2 and 4)"
