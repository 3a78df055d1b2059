"""`benchmarks/bot_strength.py`: its numbers are printed, not asserted; the players its names make are
(its refusals of bad arguments: test_benchmark_arguments)."""

from __future__ import annotations

import sys

import pytest

from conftest import benchmark


def test_the_names_make_the_searches_they_say() -> None:
    bot = benchmark("bot_strength").bot
    plain, fixed = bot("plain:32", 1), bot("fixed:16", 1)
    assert (plain.iterations, plain.infer, plain.close) == (32, "off", 0)
    assert (fixed.iterations, fixed.infer, fixed.close) == (16, "weighted", 0)
    custom = bot("custom:64:exact_limit=12+settle=0.2+exact=no", 1)
    assert (custom.iterations, custom.exact_limit, custom.settle, custom.exact) == (64, 12, 0.2, False)
    assert bot("old:8", 1).evaluation == "worth" and bot("search", 1).name == "search"


def test_a_small_match_prints_its_row(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["bot_strength.py", "--variants", "standard", "--players", "2", "--pairings",
                                      "greedy-vs-random", "--cap", "2", "--min", "1", "--batch", "2", "--one-hand",
                                      "--workers", "1"])
    assert benchmark("bot_strength").main() == 0
    assert "| standard | 2 | greedy vs random [bundled] | 2 |" in capsys.readouterr().out


def test_one_pair_knows_no_spread() -> None:
    # (one pair's lead printed "-7.50 ± -3.83": the interval of a share, 0-100%, read as points)
    script = benchmark("bot_strength")
    mean, low, high = script.interval([-7.5])
    assert mean == -7.5 and low == -float("inf") and high == float("inf")
    assert script.share_interval([1.0]) == (1.0, 0.0, 1.0)
    assert script.interval([1.0, 3.0])[0] == 2.0 and 2.0 - script.interval([1.0, 3.0])[1] > 0


def test_six_players_rotate_one_partnership_of_two_through_each_place(monkeypatch: pytest.MonkeyPatch) -> None:
    script = benchmark("bot_strength")
    played: list[tuple[str, ...]] = []

    def one_game(variant: str, names: tuple[str, ...], seed: int, one_hand: bool,  # type: ignore[no-untyped-def]
                 partners: bool):
        assert partners
        played.append(names)
        a_side = names.index("A")
        # side 0 wins every game; each seat moves once (A's seats 1 s, B's 2 s); side s scores 10 * s
        return 0, [[1.0 if name == "A" else 2.0] for name in names], {0: 0, 1: 10, 2: 20} | {a_side: 30}

    monkeypatch.setattr(script, "one_game", one_game)
    share, times_a, times_b, lead = script.one_pair(("krypkasino", "A", "B", 5, True, 6, True))
    # A holds seats k and k+3 (a partnership of two), for k = 0, 1, 2 in turn; B the other four seats
    assert played == [("A", "B", "B", "A", "B", "B"), ("B", "A", "B", "B", "A", "B"), ("B", "B", "A", "B", "B", "A")]
    assert share == pytest.approx(1 / 3)        # A won the first of three games
    # A's 30 over the mean of the others: 30 - 15, 30 - 10, 30 - 5
    assert lead == pytest.approx(15 + 20 + 25)
    assert times_a == [1.0] * 6 and times_b == [2.0] * 12


def test_six_players_are_three_partnerships_in_a_real_hand() -> None:
    script = benchmark("bot_strength")
    winner, times, points = script.one_game("kasino-misar", ("greedy",) * 6, 11, True, True)
    assert sorted(points) == [0, 1, 2] and winner in (None, 0, 1, 2) and all(times)
    # The same player in every seat: each game of the rotation is the same game, so no lead and an even share;
    # a rotation that missed a partnership, or compared it with one other, would show a lead
    share, times_a, times_b, lead = script.one_pair(("kasino-misar", "greedy", "greedy", 11, True, 6, True))
    assert lead == pytest.approx(0) and share == pytest.approx(1 / 3)
    assert len(times_b) == 2 * len(times_a) == 2 * sum(len(t) for t in times)
    assert max(points.values()) != min(points.values())   # (else a lead of 0 would prove nothing)


@pytest.mark.parametrize("variant, players, labels", [
    ("krypkasino", "6", ("6",)), ("standard", "all", ("2", "3", "4:alone", "4"))])
def test_a_match_prints_a_row_for_each_seating(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                               variant: str, players: str, labels: tuple[str, ...]) -> None:
    """Six players in three partnerships of two; ``all``: every seating the rules allow."""
    monkeypatch.setattr(sys, "argv", ["bot_strength.py", "--variants", variant, "--players", players, "--pairings",
                                      "greedy-vs-random", "--cap", "1", "--min", "1", "--batch", "1", "--one-hand",
                                      "--workers", "1"])
    assert benchmark("bot_strength").main() == 0
    out = capsys.readouterr().out
    for label in labels:
        assert f"| {variant} | {label} | greedy vs random [" in out


@pytest.mark.parametrize("variant, players, partners, sides", [
    ("south-african-casino", 3, False, 3), ("standard", 4, False, 4), ("standard", 4, True, 2), ("standard", 2, False, 2)])
def test_every_seating_rotates_the_first_player_through_each_side(monkeypatch: pytest.MonkeyPatch, variant: str,
                                                                  players: int, partners: bool, sides: int) -> None:
    script = benchmark("bot_strength")
    played: list[tuple[str, ...]] = []

    def one_game(variant: str, names: tuple[str, ...], seed: int, one_hand: bool,  # type: ignore[no-untyped-def]
                 partners_asked: bool):
        assert partners_asked == partners
        played.append(names)
        first = names.index("A")
        # the side of A's first seat wins; A's side scores 12, side s otherwise 3 * s
        return first % sides, [[1.0] for _ in names], {s: 3 * s for s in range(sides)} | {first % sides: 12}

    monkeypatch.setattr(script, "one_game", one_game)
    share, times_a, times_b, lead = script.one_pair((variant, "A", "B", 5, True, players, partners))
    # each side once, A on every seat of it and nowhere else
    assert [tuple(seat for seat, name in enumerate(names) if name == "A") for names in played] == [
        tuple(seat for seat in range(players) if seat % sides == side) for side in range(sides)]
    assert share == 1.0 and len(times_a) == players and len(times_b) == players * (sides - 1)
    assert lead == pytest.approx(sum(12 - sum(3 * s for s in range(sides) if s != side) / (sides - 1)
                                     for side in range(sides)))


@pytest.mark.parametrize("players, partners", [(3, False), (4, False)])
def test_a_seating_alone_is_one_side_a_seat_in_a_real_hand(players: int, partners: bool) -> None:
    script = benchmark("bot_strength")
    winner, times, points = script.one_game("standard", ("greedy",) * players, 11, True, partners)
    assert sorted(points) == list(range(players)) and winner in (None, *range(players)) and all(times)
    assert max(points.values()) != min(points.values())   # (else a lead of 0 below would prove nothing)
    # the same player in every seat: each game of the rotation is the same game, so no lead and an even share
    share, times_a, times_b, lead = script.one_pair(("standard", "greedy", "greedy", 11, True, players, partners))
    assert lead == pytest.approx(0) and share == pytest.approx(1 / players)
    assert len(times_b) == (players - 1) * len(times_a) == (players - 1) * sum(len(t) for t in times)

