"""The exact solver and `cassino solve`, through the engine's public API and the command line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cassino.apps.cli import main
from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.notation import format_move, parse_move
from cassino.engine.scoring import Scorer
from cassino.engine.state import HandState
from cassino.language.variants import load_rules
from cassino.players.bots import GreedyBot, SearchBot
from cassino.players.solver import Solver, cards_left, missing_knowledge


def minimax(engine: Engine, scorer: Scorer, state: HandState, side: int, scores: dict[int, int]) -> int:
    """The value by brute force: every line played out, no pruning, no table."""
    if state.over:
        points, _ = scorer.hand_points(state, scores)
        return points[side] - max(p for s, p in points.items() if s != side)
    values = [minimax(engine, scorer, engine.apply(state, m), side, scores) for m in engine.legal_moves(state)]
    return max(values) if state.teams[state.turn] == side else min(values)


def late_positions(variant: str, players: int, left: int, count: int, partners: bool = False,
                   dealt: bool = False) -> list[Game]:
    """Positions of greedy games with at most ``left`` cards still to play in the first hand
    (``dealt``: and nothing left in the stock)."""
    engine = Engine(load_rules(variant))
    out = []
    for seed in range(200):
        game = Game.new(engine, seed, players, partners)
        bots = [GreedyBot(seed * 7 + s) for s in range(players)]
        while not game.over and game.hand_no == 1:
            if cards_left(game.hand) <= left and len(game.legal_moves()) > 1 and not (dealt and game.hand.stock):
                out.append(game)
                break
            game = game.play(bots[game.hand.turn].choose(game, game.hand.turn))
        if len(out) == count:
            break
    return out


CASES = [("standard", 2, False), ("royal", 2, False), ("hoyle", 2, False), ("dominican", 2, False),
         ("tuxedo", 3, False), ("hungarian", 2, False), ("draw", 2, False), ("spade", 2, False),
         ("standard", 4, True), ("face-builds", 2, False)]


@pytest.mark.parametrize("variant,players,partners", CASES)
def test_solver_values_equal_brute_force(variant: str, players: int, partners: bool) -> None:
    """Alpha-beta with its table and ordering gives every move the value plain minimax gives."""
    games = late_positions(variant, players, 5, 3, partners)
    assert games
    for game in games:
        state = game.hand
        side = state.teams[state.turn]
        scores = dict(enumerate(game.scores))
        solver = Solver(game.engine, game.scorer, side, scores)
        values = solver.move_values(state)
        assert {mv.move for mv in values} == set(game.legal_moves())
        for mv in values:
            assert mv.value == minimax(game.engine, game.scorer, game.engine.apply(state, mv.move), side, scores)
        assert [mv.value for mv in values] == sorted((mv.value for mv in values), reverse=True)
        assert solver.value(state) == values[0].value
        assert Solver(game.engine, game.scorer, side, scores).best_move(state) in \
            {mv.move for mv in values if mv.value == values[0].value}


def test_principal_line_reaches_the_value() -> None:
    for game in late_positions("standard", 2, 8, 4):
        state = game.hand
        side = state.teams[state.turn]
        solver = Solver(game.engine, game.scorer, side)
        value = solver.value(state)
        for move in solver.principal_line(state):
            state = game.engine.apply(state, move)
        assert state.over and solver.final_value(state) == value


def test_scores_under_restrictions_change_the_value() -> None:
    """A side under an endgame restriction scores only its allowed items: the solver counts that."""
    engine = Engine(load_rules("dominican-soto"))
    scorer = Scorer(engine)
    restricted = next(r for r in engine.rules.endgame.restrictions)
    for game in late_positions("dominican-soto", 2, 6, 6):
        state = game.hand
        side = state.teams[state.turn]
        free = Solver(engine, scorer, side, {0: 0, 1: 0}).value(state)
        held = Solver(engine, scorer, side, {side: restricted.score, 1 - side: 0}).value(state)
        assert held == minimax(engine, scorer, state, side, {side: restricted.score, 1 - side: 0})
        if held != free:
            return
    pytest.fail("no position where a restriction changed the value")


def test_missing_knowledge() -> None:
    game = Game.new(Engine(load_rules("standard")), 3, 2)
    assert "40 cards" in (missing_knowledge(game.hand, 0) or "")
    last = late_positions("standard", 2, 8, 1, dealt=True)[0]
    assert missing_knowledge(last.hand, last.hand.turn) is None
    four = late_positions("standard", 4, 8, 1, dealt=True)[0]
    assert missing_knowledge(four.hand) is None
    assert "cannot see" in (missing_knowledge(four.hand, four.hand.turn) or "")


@pytest.mark.parametrize("variant", ["standard", "royal", "hungarian"])
def test_search_plays_an_exact_move_in_the_last_deal(variant: str) -> None:
    """In a 2-player last deal every card's place is known: the search plays a best move."""
    for game in late_positions(variant, 2, 6, 3, dealt=True):
        state = game.hand
        assert missing_knowledge(state, state.turn) is None
        solver = Solver(game.engine, game.scorer, state.teams[state.turn], dict(enumerate(game.scores)))
        values = {mv.move: mv.value for mv in solver.move_values(state)}
        move = SearchBot(seed=1, iterations=2).choose(game, state.turn)
        assert values[move] == max(values.values())


def test_search_uses_the_solver_in_sampled_deals_with_few_cards_left() -> None:
    """With ``exact_cards`` at or above the cards left, sampled deals are solved: same guesses
    for the same seed, and a legal move, in a 3-player game where the position is not known."""
    for game in late_positions("tuxedo", 3, 6, 3):
        assert missing_knowledge(game.hand, game.hand.turn) is not None
        a = SearchBot(seed=4, iterations=4, exact_cards=6).choose(game, game.hand.turn)
        b = SearchBot(seed=4, iterations=4, exact_cards=6).choose(game, game.hand.turn)
        assert a == b and a in game.legal_moves()


# ---------------------------------------------------------------- cassino solve
POSITION = """\
variant: standard
cases:
  - name: last deal
    hand: [8D, 3H, KS, AS]
    hands: {1: [5C, 2S, 10D, KH]}
    table: [5S, 3C, 7H]
    captured: {0: [2C, 2D, 2H, 3D, 3S, 4C, 4D, 4H, 4S, 5D, 5H, 6C, 6D, 6H, 6S, 7C, 7D, 7S], 1: rest}
    last_capture: 1
  - name: after a move
    hand: [8D, 3H]
    hands: {1: [5C, 2S]}
    table: [5S, 3C]
    captured: {0: [10D], 1: rest}
    moves: ["8D capture 5S 3C"]
  - name: not known
    hand: [8D, 3H]
    table: [5S]
  - name: card twice
    hand: [8D, 3H]
    table: [8D]
    captured: {1: rest}
  - name: refused move
    hand: [8D, 3H]
    hands: {1: [5C]}
    table: [5S]
    captured: {1: rest}
    moves: ["3H capture 5S"]
  - name: scored
    captured: {0: [AS], 1: rest}
  - name: mover without cards
    hands: {1: [KD]}
    table: [5S, 3D]
    captured: {0: rest}
    stock: []
"""


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "pos.yaml"
    path.write_text(POSITION, encoding="utf-8")
    return path


def test_solve_lists_every_move_best_first(scenario: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(scenario), "--case", "last deal"]) == 0
    out = capsys.readouterr().out.splitlines()
    engine = Engine(load_rules("standard"))
    rows = [line.split() for line in out[1:-3]]
    moves = [parse_move(" ".join(r[:-1]), engine.deck) for r in rows]
    values = [int(r[-1]) for r in rows]
    from cassino.apps.authors.scenarios import Runner
    import yaml

    data = yaml.safe_load(POSITION)
    state, _ = Runner().position(data["cases"][0], data, engine.rules, engine)
    state = state.with_(over=False)
    assert set(moves) == set(engine.legal_moves(state)) and len(moves) == len(set(moves))
    assert values == sorted(values, reverse=True)
    solver = Solver(engine, Scorer(engine), 0)
    for move, value in zip(moves, values):
        assert solver.value(engine.apply(state, move)) == value
    assert out[-3].startswith("principal line: seat 0: " + format_move(moves[0], engine.deck))
    assert out[-2].startswith("as moves: [\"" + format_move(moves[0], engine.deck) + "\"")
    sign = f"{values[0]:+d}" if values[0] else "0"
    assert out[-1] == f"best: {format_move(moves[0], engine.deck)} ({sign})"


def test_solve_plays_the_case_moves_first(scenario: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(scenario), "--case", "after a move"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 to play" in out and out.strip().splitlines()[-1].startswith("best: ")


@pytest.mark.parametrize("args,message", [
    (["--case", "not known"], "not known in full: 49 cards are not placed"),
    (["--case", "card twice"], "8D is placed twice"),
    (["--case", "refused move"], "moves[0] '3H capture 5S' is refused"),
    (["--case", "scored"], "the hand is over"),
    (["--case", "nothing"], "no case named 'nothing'; the cases are: last deal, after a move"),
    ([], "7 cases; name one with --case"),
    (["--case", "mover without cards"], "seat 0 is to play and has no move (no card in hand)"),
    (["--case", "last deal", "--max-positions", "10"], "too large to solve exactly"),
])
def test_solve_refuses_what_it_cannot_solve(scenario: Path, capsys: pytest.CaptureFixture[str],
                                           args: list[str], message: str) -> None:
    assert main(["solve", str(scenario), *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err and captured.out == ""


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_solve_max_positions_out_of_range(scenario: Path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["solve", str(scenario), "--case", "last deal", "--max-positions", value])
    assert stop.value.code == 2 and "--max-positions" in capsys.readouterr().err


def test_solve_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(tmp_path / "missing.yaml")]) == 2
    assert "cannot read a rule or scenario file: no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.yaml"
    bad.write_text("variant: standard\ncases: {name: x}\n", encoding="utf-8")
    assert main(["solve", str(bad)]) == 2
    assert "`cases` must be a list" in capsys.readouterr().err
    broken = tmp_path / "broken.yaml"
    broken.write_text("variant: standard\ncases: [\n", encoding="utf-8")
    assert main(["solve", str(broken)]) == 2
    assert "YAML syntax error" in capsys.readouterr().err
    unknown = tmp_path / "unknown.yaml"
    unknown.write_text("variant: no-such-variant\ncases: [{name: a, hand: [AS]}]\n", encoding="utf-8")
    assert main(["solve", str(unknown)]) == 2
    assert "no-such-variant" in capsys.readouterr().err


def test_solve_the_bundled_last_deals(capsys: pytest.CaptureFixture[str]) -> None:
    """Scenario files: the last deals given in full (tests/positions) solve (the small one checked by
    brute force), and a case that leaves cards in the stock is refused."""
    import yaml

    from cassino.apps.authors.scenarios import Runner

    path = Path(__file__).parent / "positions" / "last-deals.yaml"
    assert main(["check", str(path)]) == 0   # a scenario file like any other
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for case in data["cases"]:
        assert main(["solve", str(path), "--case", case["name"]]) == 0
        best = capsys.readouterr().out.splitlines()[-1]
        assert best.startswith("best: ")
    small = data["cases"][-1]
    engine = Engine(load_rules("standard"))
    state, _ = Runner().position(small, data, engine.rules, engine)
    value = minimax(engine, Scorer(engine), state, state.teams[state.turn], {})
    assert best.endswith(f"({value:+d})" if value else "(0)")
    other = Path(__file__).parent / "scenarios" / "standard.yaml"
    first = yaml.safe_load(other.read_text(encoding="utf-8"))["cases"][0]["name"]
    assert main(["solve", str(other), "--case", first]) == 2
    assert "not known in full" in capsys.readouterr().err


MISAR = """variant: kasino-misar
cases:
  - name: one capture left
    table: [10D]
    hand: [10S]
    hands: {1: [3H]}
    captured: {1: rest}
    last_capture: 1
    stock: []
"""


def test_solve_says_how_to_read_a_value_where_the_lowest_total_wins(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """An audit computed kasino misar's points by hand (seat 0: storan 3, a spade, the tabbe's 5 = 9; seat 1: 17 less
    the tabbe's 5 = 12) and found +3 where the header said "its side's points minus the other side's" (-3): the
    value is turned where the lowest total wins, so that higher is better everywhere, and the header says so."""
    path = tmp_path / "misar.yaml"
    path.write_text(MISAR, encoding="utf-8")
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    assert "the other side's hand points minus its side's (the lowest total wins: higher is better)" in out
    assert "10S capture 10D  +3" in out


def test_solve_says_how_to_read_a_value_with_three_sides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "three.yaml"
    path.write_text("variant: standard\nplayers: 3\ncases:\n  - name: three\n    hand: [9D]\n    hands: {1: [5C], 2: [KS]}\n"
                    "    table: [9C, 4H]\n    captured: {0: rest}\n    stock: []\n", encoding="utf-8")
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    assert "minus the best placed other side's (most points; the other seats all play against it)" in out


def test_the_principal_line_as_moves_plays_out_in_a_case_in_turns_of_several_actions(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """An audit pasted solve's principal line of a South African last deal into a case's `moves`: its `seat 0: end`
    entries were refused (a turn ends by itself with its hand card). The `as moves` line is a turn an entry."""
    import json

    import yaml

    source = Path(__file__).parent / "positions" / "south-african-last-deal.yaml"
    code, out, err = cli("solve", str(source))
    assert code == 0, err
    said = next(line for line in out.splitlines() if line.startswith("as moves: "))
    moves = json.loads(said[len("as moves: "):])
    assert moves[0].endswith("; end") and not any(m == "end" for m in moves)
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data["cases"][0].update(moves=moves, expect={"hand_over": True})
    (tmp_path / "line.yaml").write_text(json.dumps(data), encoding="utf-8")
    code, out, err = cli("check", str(tmp_path / "line.yaml"))
    assert code == 0 and out.strip().endswith("1 passed, 0 failed"), out + err


def test_solve_says_when_the_cases_moves_were_played_first(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """An audit: a case with `moves` was solved after them, and the first line said only "seat 0 to play"."""
    path = tmp_path / "m.yaml"
    path.write_text("variant: standard\ncases:\n  - name: m\n    hand: [9D, 9C]\n    hands: {1: [2C, 3C]}\n"
                    "    captured: {0: rest}\n    stock: []\n    moves: [\"9D trail\", \"2C trail\"]\n", encoding="utf-8")
    code, out, err = cli("solve", str(path))
    assert code == 0 and out.startswith("standard, after the case's 2 moves: seat 0 to play"), out + err
