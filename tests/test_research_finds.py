"""Issue 48's findings about the research adapters, each a test that failed before its fix:
redeals in the African Casinos (whole pack dealt, 20 or more hidden cards) and OpenSpiel's
IS-MCTS over a three-player Swazi hand, ``partners=False`` where the seats always play as
partners, equal strings with different tensors, and the tensor pieces docs/research.md
leaves out."""

from __future__ import annotations

import itertools
import random
import re
import sys
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

import cassino.openspiel  # noqa: E402,F401  (registers python_cassino)
from cassino.apps.research.stepwise import Setup, table_for  # noqa: E402
from cassino.apps.research.views import Kind, Layout  # noqa: E402
from cassino.pettingzoo import env  # noqa: E402

from conftest import ROOT, benchmark  # noqa: E402

REDEALS = [("swazi-casino", 2, False), ("swazi-casino", 3, False), ("swazi-casino", 4, True),
           ("south-african-casino", 4, True)]


def _load(**params: Any) -> Any:
    return pyspiel.load_game("python_cassino", params)


def _deal(state: Any, rng: random.Random) -> None:
    actions, probs = zip(*state.chance_outcomes())
    state.apply_action(rng.choices(actions, probs)[0])


def _positions(game: Any, rng: random.Random, every: int, chance: bool = False) -> list[Any]:
    """One hand played at random: a clone at every ``every``-th decision (and at chance nodes)."""
    out = []
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            if chance:
                out.append(state.clone())
            _deal(state, rng)
            continue
        if decisions % every == 0:
            out.append(state.clone())
        decisions += 1
        state.apply_action(rng.choice(state.legal_actions()))
    out.append(state)
    return out


# ---------------------------------------------------------------------- 1. redeals and IS-MCTS
@pytest.mark.parametrize("variant, players, partners", REDEALS)
def test_every_redeal_keeps_what_the_seat_knows(variant: str, players: int, partners: bool) -> None:
    """A redeal at positions all through a random hand (the old fallback gave up on up to one
    call in ten of these: independent draws of 20 cards almost never differ from each other)."""
    game = _load(variant=variant, players=players, partners=partners)
    rng = random.Random(f"{variant}-{players}")
    calls = changed = 0
    for state in _positions(game, rng, every=7)[1:-1]:
        seat = state.current_player()
        other = state.resample_from_infostate(seat, random.Random(calls))
        calls += 1
        assert other is not None
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert other.observation_string(seat) == state.observation_string(seat)
        assert other.observation_tensor(seat) == state.observation_tensor(seat)
        assert other.legal_actions() == state.legal_actions()
        hands = other.cassino_game.hand.hands
        assert hands[seat] == state.cassino_game.hand.hands[seat]
        changed += hands != state.cassino_game.hand.hands
    assert calls >= 4 and changed   # (two players, last deal: the other hand is all the seat has not seen)


def test_a_redeal_keeps_who_holds_a_build_and_what_a_partner_is_proven_to_hold(tmp_path: Any) -> None:
    """The soak's find (session 67): a house rule of Swazi Casino with pile tops taken, four in partnerships.
    Seat 1 added to its partner's build of 13 holding no king, so the build stayed its partner's; a redeal gave
    seat 1 a king, so there it took the build over and, once the build was captured, was proven to hold 13,
    and its partner (seat 3, to play) could build 13 for it: other legal moves behind the same information
    state. A redeal must reach the same holders and proven values (``resampling._same_but_the_cards``)."""
    from cassino.apps.authors.matrix import Budget, Seating, run

    rule = tmp_path / "swazi-tops-partners.yaml"
    rule.write_text("name: generated\ndescription: swazi-casino with generated settings\nextends: swazi-casino\n"
                    "sweeps:\n  residue_is_sweep: false\ncapture:\n  pile_cards: taken\n"
                    "seats:\n  partnerships: always\n")
    soak = Budget(search=4, hint=None, samples=2, review_deals=1, review_actions=None, solve_cards=8,
                  solve_positions=20_000)   # (``benchmarks/soak.py``'s budget, with which the soak met it)
    outcome = run(Seating(str(rule), 4, True), 656154198, soak, rotation=0)
    assert not outcome.failures, outcome.failures[0]
    assert outcome.actions > 25   # (the find was after 25 actions)


def test_the_same_generator_gives_the_same_redeal() -> None:
    game = _load(variant="swazi-casino", players=3)
    state = _positions(game, random.Random(4), every=30)[1]
    seat = state.current_player()
    first = state.resample_from_infostate(seat, random.Random(9))
    again = state.resample_from_infostate(seat, random.Random(9))
    assert first.history() == again.history()


def test_openspiels_ismcts_plays_a_three_player_swazi_hand() -> None:
    """Set up as docs/research.md says; it crashed (ResampleError) within a few decisions here."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = _load(variant="swazi-casino", players=3)
    rs = np.random.RandomState(0)
    rng = random.Random(0)
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0,
                           max_simulations=2, random_state=rs)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng))
    state = _positions(game, random.Random(0), every=20)[1]
    for _ in range(6):
        assert not state.is_terminal()
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


# ---------------------------------------------------------------------- 2. partners=False refused
@pytest.mark.parametrize("variant, players", [("scopone", 0), ("scopone", 4), ("dominican", 4),
                                              ("swazi-casino", 4)])
def test_partners_false_is_refused_where_the_seats_always_play_as_partners(variant: str, players: int) -> None:
    says = rf"{variant} with 4 players always plays in partnerships .* partners=False is refused: pass partners=True"
    with pytest.raises(ValueError, match=says) as caught:
        _load(variant=variant, players=players, partners=False)
    assert isinstance(caught.value, pyspiel.SpielError) and "\n" not in str(caught.value)
    with pytest.raises(ValueError, match=says):
        env(variant=variant, players=players or None, partners=False)
    game = _load(variant=variant, players=players, partners=True)
    assert game.table.partners and "partners=True" in str(game)
    assert str(pyspiel.load_game(str(game))) == str(game)
    assert env(variant=variant, players=players or None).unwrapped.table.partners   # not given: the variant's way


def test_partners_stay_a_choice_where_the_seats_allow_both() -> None:
    assert not _load(variant="south-african-casino", players=4, partners=False).table.partners
    assert _load(variant="south-african-casino", players=4, partners=True).table.partners
    assert not env(variant="south-african-casino", players=4).unwrapped.table.partners
    assert not _load(variant="dominican", partners=False).table.partners           # two players
    assert not env(variant="dominican", players=3).unwrapped.table.partners


@pytest.mark.parametrize("partners, says", [("yes", "Wrong type for parameter partners"),
                                            (1, "Wrong type for parameter partners")])
def test_a_partners_value_of_the_wrong_type_is_refused(partners: Any, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        env(variant="scopone", partners=partners)


# ---------------------------------------------------------------------- 3. strings and tensors
OBSERVED = [dict(variant="standard"), dict(variant="draw"), dict(variant="hungarian"),
            dict(variant="swazi-casino", players=3), dict(variant="south-african-casino", players=4, partners=True),
            dict(variant="krypkasino", players=4, partners=True)]


@pytest.mark.parametrize("params", OBSERVED, ids=lambda p: "-".join(str(v) for v in p.values()))
def test_equal_strings_mean_equal_tensors_for_every_observer(params: dict[str, Any]) -> None:
    """Every observer kind (perfect recall or not, whose cards, public information or not), at
    random positions, chance nodes included: two views with one string have one tensor (every
    hand without public information showed the other seats' hands, its string not their moves;
    a record under way at a chance node left out the cards dealt so far)."""
    game = _load(**params)
    rng = random.Random(str(params))
    states = _positions(game, rng, every=1, chance=True)
    for recall, private, public in itertools.product(
            (False, True), (pyspiel.PrivateInfoType.SINGLE_PLAYER, pyspiel.PrivateInfoType.NONE,
                            pyspiel.PrivateInfoType.ALL_PLAYERS), (True, False)):
        observer = game.make_py_observer(pyspiel.IIGObservationType(
            perfect_recall=recall, public_info=public, private_info=private))
        seen: dict[str, bytes] = {}
        for state in states:
            for seat in range(game.num_players()):
                observer.set_from(state, seat)
                text = observer.string_from(state, seat)
                tensor = observer.tensor.tobytes()
                assert seen.setdefault(text, tensor) == tensor, (recall, private, public, text)
        assert len(seen) > 1


def test_a_record_says_the_cards_of_a_deal_under_way() -> None:
    game = _load(variant="standard")
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(5):   # the table's four, then the first of seat 0's
        _deal(state, rng)
    text = state.information_state_string(0)
    assert re.search(r"^dealing: table \S+ \S+ \S+ \S+; seat 0 \S+$", text, re.M), text
    assert re.search(r"^dealing: table (\S+ ){3}\S+; seat 0 1 cards$", state.information_state_string(1), re.M)


# ---------------------------------------------------------------------- 4. the docs
def test_the_research_page_names_every_tensor_piece() -> None:
    page = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    names = set()
    for params, kinds in [(dict(variant="swazi-casino"), [Kind(True), Kind(True, "all", False)]),
                          (dict(variant="standard", whole_game=True), [Kind(False, "all")])]:
        table = table_for(Setup(**params))
        for kind in kinds:
            names |= {name for name, _, _ in Layout(table, kind).pieces}
    assert {"pile_tops", "pile_under", "hand_number", "chosen_builds", "history"} <= names
    missing = sorted(name for name in names if f"`{name}`" not in page)
    assert not missing, f"docs/research.md does not name {missing}"


# ---------------------------------------------------------------------- the benchmark's arguments
@pytest.mark.parametrize("argv, says", [(["--games", "0"], "below 1"), (["--every", "x"], "not a whole number")])
def test_the_resample_benchmark_refuses_a_bad_argument(argv: list[str], says: str, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["resample_speed.py", *argv])
    with pytest.raises(SystemExit) as stop:
        benchmark("resample_speed").main()
    assert stop.value.code == 2 and says in capsys.readouterr().err
