"""`cassino sweep`: a grid of variants simulated locally, in worker processes and on a Dask cluster."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT


def cassino(*args: str, timeout: int = 180) -> subprocess.CompletedProcess[str]:
    """The real command, in a process of its own (for what must cross a process boundary)."""
    return subprocess.run([sys.executable, "-m", "cassino", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=timeout)


def sweep_json(cli, *args: str) -> dict:  # type: ignore[no-untyped-def, type-arg]
    code, out, err = cli("sweep", *args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


GRID = ("standard", "--set", "scoring.items.sweeps.points=0,1", "--set", "game.target=11,21", "--games", "12")


def test_grid_applies_each_value_and_matches_simulate(cli) -> None:  # type: ignore[no-untyped-def]
    result = sweep_json(cli, *GRID)
    rows = result["grid"]
    assert [(r["settings"]["scoring.items.sweeps.points"], r["settings"]["game.target"]) for r in rows] == [
        (0, 11), (0, 21), (1, 11), (1, 21)]
    by = {(r["settings"]["scoring.items.sweeps.points"], r["settings"]["game.target"]): r for r in rows}
    assert by[(0, 21)]["points_per_hand"]["sweeps"] == 0 < by[(1, 21)]["points_per_hand"]["sweeps"]
    assert by[(0, 11)]["hands_per_game"] < by[(0, 21)]["hands_per_game"]
    for r in rows:
        lo, hi = r["leader_win_rate_95ci"]
        assert 0 <= lo <= r["leader_win_rate"] <= hi <= 1
        assert r["leader_advantage"] == pytest.approx(r["leader_win_rate"] - 0.5, abs=1e-4)
    # The grid point equal to the file itself plays exactly the games `cassino simulate` plays.
    sim = json.loads(cli("simulate", "standard", "--games", "12", "--format", "json")[1])
    same = by[(0, 21)]
    assert same["leader_win_rate"] == sim["first_player_win_rate"]
    assert same["moves_per_hand"] == sim["moves_per_hand"] and same["hands_per_game"] == sim["hands_per_game"]


def test_worker_processes_give_the_same_numbers(cli) -> None:  # type: ignore[no-untyped-def]
    args = ("standard", "--set", "capture.equal_cards=any,all", "--games", "30")
    assert sweep_json(cli, *args) == sweep_json(cli, *args, "--workers", "2")


def test_a_local_dask_cluster_gives_the_same_numbers(cli) -> None:  # type: ignore[no-untyped-def]
    from distributed import LocalCluster

    args = ("examples/sweeps-score.yaml", "--set", "sweeps.cancel=false,true", "--games", "30", "--format", "json")
    code, out, err = cli("sweep", *args)
    assert code == 0, err
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                      host="127.0.0.1") as cluster:
        remote = cassino("sweep", *args, "--cluster", cluster.scheduler_address)
    assert remote.returncode == 0, remote.stderr
    assert json.loads(remote.stdout) == json.loads(out)


def test_text_csv_and_plot(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    png = tmp_path / "advantage.png"
    code, out, err = cli("sweep", *GRID, "--plot", str(png))
    assert code == 0, err
    header = next(line for line in out.splitlines() if line.startswith("scoring.items.sweeps.points"))
    assert "leader wins (95% CI)" in header and "advantage (95% CI)" in header and "sweeps pts" in header
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000
    table = list(csv.DictReader(io.StringIO(cli("sweep", *GRID, "--format", "csv")[1])))
    assert len(table) == 4 and {"game.target", "leader_advantage_low", "points_cards"} <= set(table[0])


@pytest.mark.parametrize("args, message", [
    (["--set", "game.targt=11"], "no setting `game.targt`\n    hint: did you mean `game.target`?"),
    (["--set", "game.target=eleven"], "`game.target` must be a whole number or null, not \"eleven\""),
    (["--set", "game.target=0,21"], "`game.target` must be at least 1"),
    (["--set", "capture.equal_cards=some"], "must be one of any, all_when_pairing, all"),
    (["--set", "deal.hand_size=20"], "does not deal out exactly"),
    (["--set", "capture.hand_cards.max=3"], "cannot be combined with building"),
    (["--set", "scoring.items.sweepz.points=1"], "no scoring item `sweepz`\n    hint: did you mean `sweeps`?"),
    (["--set", "game"], "write PATH=VALUE"),
    (["--set", "game.lurch=1"], "is a section"),
    (["--set", "game.target="], "give one or more values"),
    (["--set", "game.target=[1,2"], "cannot read the value"),
    (["--set", "game.target=11,11"], "given twice"),
    (["--set", "game.target=11", "--set", "game.target=21"], "already varied"),
    ([], "name at least one setting to vary"),
    (["--set", "game.target=11", "--games", "0"], "--games must be at least 1"),
    (["--set", "game.target=11", "--workers", "0"], "--workers must be at least 1"),
    (["--set", "game.target=11", "--players", "7"], "for 2 to 4 players, not 7"),
    (["--set", "game.target=11", "--bots", "nosuchbot"], "nosuchbot"),
    (["--set", "game.target=11", "--cluster", "nonsense"], "write the scheduler's address as tcp://HOST:PORT"),
    (["--set", "game.target=11", "--cluster", "tcp://127.0.0.1:1"], "nothing answers there"),
    (["--set", "game.target=11", "--plot", "/nonexistent-dir/p.png", "--games", "2"], "cannot write"),
])
def test_bad_sweeps_are_refused_with_exit_2(cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("sweep", "standard", *args)
    assert code == 2, out
    assert message in err


def test_missing_or_bad_rule_file_through_the_real_command() -> None:
    for target, message in (("nosuch.yaml", "nosuch.yaml"), ("tests/bad/unknown-key.yaml", "unknown setting")):
        result = cassino("sweep", target, "--set", "game.target=11")
        assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_leader_wins_count_the_partner_only_in_partnerships() -> None:
    """The seat opposite the leader wins for the leader's side only when the seats play as
    two teams; in a 4-player game of four sides it is a win for someone else."""
    from cassino.apps.authors.simulate import GameStats, summarise

    stats = [GameStats(k, winner_seat=2 if k % 2 else 0, first_seat=0, hands=1, plies=48, sweeps=0,
                       item_points={}) for k in range(10)]
    alone = summarise("standard", 4, ("greedy",), 1, stats, partners=False)
    assert alone["first_player_win_rate"] == 0.5
    teamed = summarise("standard", 4, ("greedy",), 1, stats, partners=True)
    assert teamed["first_player_win_rate"] == 1.0


def test_sweep_measures_the_advantage_against_the_sides_actually_seated(cli) -> None:  # type: ignore[no-untyped-def]
    """Dominican Casino always seats four players as two partnerships, asked or not: an even
    share for the leader's side is then a half, not a quarter."""
    data = sweep_json(cli, "dominican", "--set", "scoring.items.sweeps.points=1", "--players", "4", "--games", "6")
    row = data["grid"][0]
    assert row["leader_advantage"] == round(row["leader_win_rate"] - 0.5, 4)


def test_a_variant_that_always_plays_in_partnerships_is_shown_by_side(cli) -> None:  # type: ignore[no-untyped-def]
    """An audit read "games won: seat 0 1, seat 1 1, seat 2 0, seat 3 0" for Scopone, and "partners": false from
    sweep, though Scopone seats its four as two sides whether or not --partners asks."""
    code, out, err = cli("simulate", "scopone", "--games", "3")
    assert code == 0, err
    assert "by scoring item and side (seats 0+2, seats 1+3):" in out and "games won: seats 0+2 " in out
    assert "seat 2 0" not in out and "the side that leads first wins" in out
    code, out, err = cli("simulate", "scopone", "--games", "3", "--format", "json")
    summary = json.loads(out)
    assert summary["partners"] is True and summary["sides"] == [[0, 2], [1, 3]]
    assert all(per_seat[2] == per_seat[3] == 0 for per_seat in summary["points_per_hand"].values())
    assert summary["wins_by_side"] == summary["wins_by_seat"][:2] and sum(summary["wins_by_side"]) == 3
    assert all(by_side == summary["points_per_hand"][item][:2]
               for item, by_side in summary["points_per_hand_by_side"].items())
    data = sweep_json(cli, "scopone", "--set", "game.target=11,21", "--games", "3")
    assert data["partners"] is True and all(row["partners"] and row["sides"] == [[0, 2], [1, 3]]
                                            and len(row["wins_by_side"]) == 2 for row in data["grid"])
    code, out, err = cli("simulate", "standard", "--games", "2", "--players", "3", "--format", "json")
    alone = json.loads(out)
    assert alone["partners"] is False and alone["sides"] == [[0], [1], [2]]


def test_partners_asked_of_a_game_played_alone_is_refused_and_a_mixed_grid_says_so(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """An audit's sweep of a file played without partnerships ran four alone under --partners (simulate refuses it),
    and a grid of seats.partnerships=never,always was headed "in partnerships", its never row four alone."""
    alone = tmp_path / "alone.yaml"
    alone.write_text("name: alone\nextends: standard\nseats: {partnerships: never}\n", encoding="utf-8")
    code, _, err = cli("sweep", str(alone), "--set", "game.target=11,21", "--players", "4", "--partners",
                       "--games", "2")
    assert code == 2 and "alone is played without partnerships; leave out --partners" in err
    code, out, _ = cli("sweep", "standard", "--set", "seats.partnerships=never,always", "--players", "4",
                       "--games", "2")
    assert code == 0 and "4 players in partnerships where a row's rules seat them" in out.splitlines()[0]
    code, out, _ = cli("sweep", "standard", "--set", "game.target=11", "--games", "2")
    assert out.startswith("standard: 1 variant x 2 games")


def test_simulate_partners_alone_seats_four(cli) -> None:  # type: ignore[no-untyped-def]
    """`--partners` alone seats four, as in sweep and train (simulate said "this table has 2")."""
    code, out, err = cli("simulate", "standard", "--partners", "--games", "2", "--format", "json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["players"] == 4 and summary["partners"] is True


def test_a_grid_of_games_that_may_never_end_says_why_its_rows_are_empty(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """An audit's sweep of a lowest-wins game without compulsory capture printed "-" and zeros, unexplained, where
    simulate says why its games stopped unfinished."""
    from cassino.apps.authors.sweep import format_text

    low = tmp_path / "low.yaml"
    low.write_text("name: low\nextends: standard\ngame: {goal: lowest}\n", encoding="utf-8")
    code, out, err = cli("sweep", str(low), "--set", "game.target=21", "--games", "1", "--format", "json")
    assert code == 0, err
    result = json.loads(out)
    assert "go on for ever" in result["grid"][0]["unfinished_why"]
    text = format_text(result)
    assert "game.target=21: 1 game stopped unfinished" in text and "may let a game go on for ever" in text
    # (each row its own reason: a re-audit's standard game to a million, stopped by the move limit, was told the
    # lowest-wins reason of the first row's default)
    from cassino.apps.authors.sweep import plan, run

    result = run(plan("standard", ["game.target=11,21"]), 1)
    result["grid"][1].update(unfinished=1, unfinished_why="no side reached the target within the move limit")
    text = format_text(result)
    assert "game.target=21: 1 game stopped unfinished" in text and "within the move limit" in text
    assert "game.target=11:" not in text and "lowest total" not in text
    code, out, _ = cli("sweep", str(low), "--set", "game.target=21,31", "--games", "2", "--format", "json")
    assert all("go on for ever" in row["unfinished_why"] for row in json.loads(out)["grid"])


def test_partners_alone_seats_the_fewest_that_play_in_teams(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A re-audit: `--partners` alone seated four in simulate, sweep and train even where teams sit only at six
    ("--players 4 is not allowed", never typed); a game never played in teams says so first."""
    six = tmp_path / "six.yaml"
    six.write_text("name: six\nextends: krypkasino\nseats: {min_players: 6, max_players: 6, partnership_players: [6], "
                   "team_size: 3}\n", encoding="utf-8")
    code, out, err = cli("simulate", str(six), "--partners", "--games", "1", "--bot", "random", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["players"] == 6
    code, out, err = cli("sweep", str(six), "--set", "game.target=42", "--partners", "--games", "1", "--bot", "random")
    assert code == 0 and "6 players in partnerships" in out, err
    code, _, err = cli("simulate", "hungarian", "--partners", "--games", "1")
    assert code == 2 and "hungarian is played without partnerships; leave out --partners" in err
    code, _, err = cli("sweep", "standard", "--set", "game.target=11", "--partners", "--players", "3", "--games", "1")
    assert code == 2 and "--partners needs four players" in err
