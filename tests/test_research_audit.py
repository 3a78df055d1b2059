"""A researcher's audit of the research interfaces (docs/research.md, docs/training.md): what the pages
promise, tried through the public API and the command line, and found not so."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

TINY = ["--hands", "2", "--rounds", "1", "--deals", "2", "--quiet"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty user cache of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "cassino" / "playouts"


def test_a_negative_seed_trains_weights_the_search_then_reads(cli, cache: Path) -> None:  # type: ignore[no-untyped-def]
    """`--seed` takes a negative whole number (its help says so); the weights it fits are written in a form
    the reader takes, the seed as the unsigned number that deals the same cards, and the search plays them.
    Before, the file said `"seed": -1`, which the reader calls damaged: the fit was passed over and every
    later training of those rules refused to write into the file."""
    from cassino.players import weights as store

    code, out, err = cli("train", "standard", "--seed", "-1", *TINY)
    assert code == 0, err
    [path] = cache.glob("*.json")
    [entry] = store.read(path)   # raised FileProblem ("`seed` ... 0 or more") before
    assert entry.seed == 2 ** 64 - 1
    code, out, err = cli("explain", "standard")
    assert code == 0 and "passed over" not in out, out
    assert "2 players: playouts fitted to these rules for 2 players by self-play (2 hands; `cassino train`" in out
    # A second seating of the same rules goes into the same file beside it.
    code, out, err = cli("train", "standard", "--players", "3", "--seed", "-5", *TINY)
    assert code == 0, err
    assert sorted((e.players, e.seed) for e in store.read(path)) == [(2, 2 ** 64 - 1), (3, 2 ** 64 - 5)]


def test_a_negative_seed_fits_what_its_unsigned_twin_fits(cli, tmp_path: Path, cache: Path) -> None:  # type: ignore[no-untyped-def]
    """The recorded seed is the same shuffle: `--seed -1` and `--seed 18446744073709551615` fit one set of
    weights and record one seed."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert cli("train", "standard", "--seed", "-1", "--out", str(a), *TINY)[0] == 0
    assert cli("train", "standard", "--seed", str(2 ** 64 - 1), "--out", str(b), *TINY)[0] == 0
    ea, eb = (json.loads(p.read_text())["entries"] for p in (a, b))
    assert ea == eb


def test_vector_env_takes_one_seed_a_game_as_a_numpy_array() -> None:
    """`seed` may be one seed a game (docs/research.md): as numpy gives them, ``np.arange``, too. Before, an
    array was refused ("seed must be a whole number, one per game"), a list of the same numbers taken."""
    np = pytest.importorskip("numpy")
    from cassino.vector import SetupError, VectorEnv

    by_list = VectorEnv(3, seed=[5, 6, 7])
    by_array = VectorEnv(3, seed=np.arange(5, 8))
    by_int = VectorEnv(3, seed=5)
    first = [v.reset() for v in (by_list, by_array, by_int)]   # (no seed: each game's generator goes on)
    for got in first[1:]:
        for a, b in zip(first[0], got):
            assert np.array_equal(a, b)
    obs, masks, to_play = by_array.reset(seed=np.array([9, 10, 11], dtype=np.uint32))
    again = VectorEnv(3).reset(seed=9)
    assert np.array_equal(obs, again[0]) and np.array_equal(masks, again[1])
    for bad in (np.arange(2), np.arange(6).reshape(2, 3), np.array([1.0, 2.0, 3.0]), np.array([1, -2, 3])):
        with pytest.raises(SetupError):
            VectorEnv(3, seed=bad)


def test_a_bad_variant_is_a_rule_file_error_and_a_value_error(tmp_path: Path) -> None:
    """docs/research.md: bad settings are a `SetupError`; a variant that is no name, or a damaged rule file, is
    `RuleFileError` (not a `SetupError`; both `ValueError`s), from `env()` and `VectorEnv` alike."""
    pytest.importorskip("pettingzoo")
    from cassino.errors import RuleFileError
    from cassino.pettingzoo import SetupError, env
    from cassino.vector import VectorEnv

    damaged = tmp_path / "damaged.yaml"
    damaged.write_text("name: damaged\nextends: standard\ngame: {target: 11\n", encoding="utf-8")
    for variant, words in (("nosuch", "no bundled variant or file named `nosuch`"), (str(damaged), "damaged.yaml:3")):
        for make in (lambda: env(variant=variant), lambda: VectorEnv(2, variant=variant)):
            with pytest.raises(RuleFileError, match=words) as caught:
                make()
            assert isinstance(caught.value, ValueError) and not isinstance(caught.value, SetupError)
    with pytest.raises(SetupError, match="for 2 to 4 players"):
        env(players=9)


def test_a_whole_game_cut_off_names_no_winner() -> None:
    """docs/research.md: a whole game cut off at `max_hands` is truncated, not terminated; under `win` every seat's
    return is 0, under `points` the scores are valued as they stand (the sides' points minus the others' mean)."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from cassino.pettingzoo import env

    ends = {}
    for payoff in ("win", "points"):
        e = env(variant="royal", players=3, whole_game=True, max_hands=1, payoff=payoff)
        e.reset(seed=1)
        rng = np.random.default_rng(1)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            if terminated or truncated:
                ends.setdefault(payoff, {})[agent] = (reward, terminated, truncated)
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(t == (0.0, False, True) for t in ends["win"].values()), ends
    points = [ends["points"][f"player_{s}"] for s in range(3)]
    assert all(not term and trunc for _, term, trunc in points)
    assert abs(sum(r for r, _, _ in points)) < 1e-9 and any(r for r, _, _ in points)


def test_numpy_true_and_false_are_taken_for_bools_as_numpy_ints_for_ints() -> None:
    """numpy's integers were taken for `players`, `max_hands` and `dealer`; numpy's bools were refused with a
    message at odds with itself ("Expected type: bool, got bool with np.True_"). Both are taken now, as Python's."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from cassino.pettingzoo import SetupError, env
    from cassino.vector import VectorEnv

    e = env(variant="standard", players=np.int64(4), partners=np.True_, whole_game=np.bool_(True))
    setup = e.unwrapped.table.setup
    assert (setup.players, setup.partners, setup.whole_game) == (4, True, True)
    assert type(setup.partners) is bool and type(setup.whole_game) is bool
    v = VectorEnv(2, whole_game=np.True_, seed=0)
    assert v.table.setup.whole_game is True and v.observation_size == env(whole_game=True).unwrapped.layout.size
    with pytest.raises(SetupError, match="Expected type: bool, got int64"):
        env(whole_game=np.int64(1))
    with pytest.raises(SetupError, match="Expected type: bool, got str"):
        env(partners="yes")


@pytest.mark.parametrize("max_hands", [10 ** 7, 2 ** 31 - 1, 2 ** 31, 10 ** 40])
def test_too_many_hands_is_a_parameter_error_not_a_binding_failure(max_hands: int) -> None:
    """`max_hands` past what OpenSpiel's 32-bit game length holds was pybind11's "incompatible constructor
    arguments" (a TypeError) from `load_game`; the PettingZoo environment took it, its bounds overflowing float32.
    Now every interface refuses it, saying the most allowed. (From 2**31 on, pyspiel itself cannot pass the number
    to the game: its own "Unable to cast" comes before the game sees it.)"""
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    importlib.import_module("cassino.openspiel")   # (registers python_cassino)
    from cassino.pettingzoo import SetupError, env
    from cassino.vector import VectorEnv

    if max_hands < 2 ** 31:
        with pytest.raises(pyspiel.SpielError, match="max_hands must be at most 1,000,000"):
            pyspiel.load_game("python_cassino", {"whole_game": True, "max_hands": max_hands})
    for make in (lambda: env(whole_game=True, max_hands=max_hands), lambda: VectorEnv(1, max_hands=max_hands)):
        with pytest.raises(SetupError, match="max_hands must be at most 1,000,000"):
            make()
    game = pyspiel.load_game("python_cassino", {"variant": "krypkasino", "whole_game": True, "max_hands": 10 ** 6})
    assert game.max_game_length() == 6 * 104 * 10 ** 6 + 1


def test_a_weights_file_written_with_a_negative_seed_before_is_read(cli, cache: Path) -> None:  # type: ignore[no-untyped-def]
    """A weights file `cassino train --seed -1` wrote before the fix holds `"seed": -1`: it is read (the seed as
    the unsigned number that deals the same cards), not passed over as damaged with its weights lost."""
    from cassino.players import weights as store

    assert cli("train", "standard", *TINY)[0] == 0
    [path] = cache.glob("*.json")
    doc = json.loads(path.read_text())
    doc["entries"][0]["seed"] = -1
    path.write_text(json.dumps(doc))
    [entry] = store.read(path)
    assert entry.seed == 2 ** 64 - 1
    code, out, _ = cli("explain", "standard")
    assert code == 0 and "passed over" not in out
    for seed in (-(2 ** 63) - 1, 2 ** 64, "1", True):
        doc["entries"][0]["seed"] = seed
        path.write_text(json.dumps(doc))
        with pytest.raises(Exception, match="`seed` a whole number of 64 bits"):
            store.read(path)
