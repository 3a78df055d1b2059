"""The step-wise encoding shared by the OpenSpiel game and the PettingZoo environment:
every completed action sequence is one legal move, chance deals uniformly, parameters
are checked, and redealt hidden cards stay consistent with the play."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

from cassino.apps.research.resampling import resample
from cassino.apps.research.stepwise import (PARAMETERS, TABLE, IllegalStep, Setup, SetupError, Step, always_partners,
                                           play_out, table_for)
from cassino.engine.core import bits
from cassino.engine.notation import format_move
from cassino.errors import CassinoError, RuleFileError
from cassino.language.variants import load_rules

from conftest import EXAMPLES, VARIANTS

from cassino.apps.research.views import Kind, Layout


def _table(variant: str = "standard", **params: object):  # type: ignore[no-untyped-def]
    """The variant's table; partners=True where its seats always play so (partners=False is refused)."""
    setup = Setup.from_params({"variant": variant, **params})
    if "partners" not in params and always_partners(setup):
        setup = Setup.from_params({"variant": variant, **params, "partners": True})
    return table_for(setup)


def _turns(step: Step, rng: random.Random, every: int) -> list[Step]:
    """Turn starts met when playing at random, one in ``every``."""
    out = []
    k = 0
    while not step.ended:
        if step.deal is not None:
            step = step.apply(rng.choice(bits(step.deal.remaining)))
            continue
        if not step.prefix:
            k += 1
            if k % every == 0:
                out.append(step)
        step = step.apply(rng.choice([a for a in step.legal if a != step.table.encoding.CLAIM]))
    return out


def _sequences(start: Step) -> list[str]:
    """Every complete action sequence from a turn's start, as the move each one plays."""
    done = len(start.log)
    claim = start.table.encoding.CLAIM
    found: list[str] = []

    def walk(s: Step) -> None:
        for action in s.legal:
            if action == claim:
                continue
            nxt = s.apply(action)
            if len(nxt.log) > done:
                entry = nxt.log[done]
                assert entry[0] == "move" and entry[1] == start.game.hand.turn
                found.append(entry[2])
            else:
                assert len(nxt.legal) > 1, "a forced step was left to the player"
                assert nxt.prefix[len(s.prefix)] == action and list(nxt.prefix) == sorted(nxt.prefix)
                walk(nxt)

    walk(start)
    return found


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_completed_sequence_is_exactly_one_legal_move(variant: str) -> None:
    table = _table(variant)
    deck = table.engine.deck
    for start in _turns(table.initial, random.Random(variant), every=5):
        legal = sorted(format_move(m, deck) for m in start.game.legal_moves())
        assert sorted(_sequences(start)) == legal
        assert all(0 <= a < table.encoding.size for a in start.legal)


@pytest.mark.parametrize("variant", ["standard", "hungarian", "royal", "face-builds"])
def test_actions_for_plays_the_move_it_was_given(variant: str) -> None:
    table = _table(variant)
    rng = random.Random(3)
    for start in _turns(table.initial, rng, every=3):
        for move in start.game.legal_moves():
            s = start
            for action in start.actions_for(move):
                s = s.apply(action)
            assert s.log[len(start.log)] == ("move", start.game.hand.turn, format_move(move, table.engine.deck), -1)   # -1: no partner holds it
    with pytest.raises(IllegalStep, match="start of a turn"):
        table.initial.actions_for(move)


def test_the_action_set_is_bounded_and_documented() -> None:
    table = _table("standard")
    enc = table.encoding
    n = 52
    assert enc.KIND == n and enc.VALUE == n + 4
    assert enc.values == (*range(1, 11), "J", "Q", "K")
    assert enc.BUILD == n + 4 + 13 and enc.LOOSE == enc.BUILD + n // 2 and enc.DONE == enc.LOOSE + n
    assert enc.size == enc.CLAIM + 1 == 149
    assert enc.describe(enc.KIND + 1) == "capture" and enc.describe(enc.DONE) == "done"
    assert "out of range" in enc.describe(enc.size)


def _deal(step: Step, cards: list[str]) -> Step:
    deck = step.table.engine.deck
    for name in cards:
        step = step.apply(deck.index(deck.parse(name)))
    return step


def test_the_docstring_example_a_nine_takes_a_pair_and_a_sum() -> None:
    """9D capture 9C 4D 5H: the table's cards come first, then each seat's, as chance chooses them."""
    table = _table("standard")
    deck = table.engine.deck
    step = table.initial
    assert step.deal is not None and step.deal.to == (TABLE,) * 4 + (0,) * 4 + (1,) * 4
    step = _deal(step, ["9C", "4D", "5H", "KS", "AH", "2H", "3H", "4H", "9D", "2C", "3S", "7S"])
    assert step.to_play == 1 and bits(step.game.hand.hands[1]) == sorted(
        deck.index(deck.parse(c)) for c in ["9D", "2C", "3S", "7S"])
    nine = deck.index(deck.parse("9D"))
    step = step.apply(nine)
    assert [step.describe(a) for a in step.legal] == ["trail", "capture"]
    step = step.apply(table.encoding.KIND + 1)
    # Loose cards come in deck order (suits S H D C, then rank): 5H, 4D, 9C.
    assert [step.describe(a) for a in step.legal] == ["loose 5H", "loose 9C"]
    step = step.apply(table.encoding.LOOSE + deck.index(deck.parse("5H")))
    assert [step.describe(a) for a in step.prefix[-2:]] == ["loose 5H", "loose 4D"]   # 4D follows by itself
    assert [step.describe(a) for a in step.legal] == ["loose 9C", "done"]
    step = step.apply(table.encoding.LOOSE + deck.index(deck.parse("9C")))
    assert step.log[-1] == ("move", 1, "9D capture 4D 5H 9C", -1)
    assert step.actions_for is not None and step.to_play == 0


def test_chance_deals_every_card_once_uniformly() -> None:
    table = _table("standard")
    step = table.initial
    seen: set[int] = set()
    while step.deal is not None:
        outcomes = step.chance_outcomes()
        assert {c for c, _ in outcomes} == set(range(52)) - seen
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9 and len({p for _, p in outcomes}) == 1
        card = min(c for c, _ in outcomes)
        seen.add(card)
        step = step.apply(card)
        if step.deal is not None:
            with pytest.raises(IllegalStep, match="not a card still to be dealt"):
                step.apply(card)
    hand = step.game.hand
    assert hand.table | hand.hands[0] | hand.hands[1] == sum(1 << c for c in seen)
    # Cards left in the stock are none of the dealt ones, and are not chosen until dealt.
    assert not set(hand.stock) & seen and len(hand.stock) == 40


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_hand_conserves_cards_and_its_returns_are_zero_sum(variant: str) -> None:
    table = _table(variant)
    rng = random.Random(variant)
    step = play_out(table.initial, lambda s: rng.choice(s.legal), rng)
    assert step.ended == "hand" or step.ended == "game"
    hand = step.view_hand()
    assert sum(bin(p).count("1") for p in hand.piles) + bin(hand.table).count("1") + len(hand.stock) + sum(
        bin(b.cards).count("1") for b in hand.builds) + sum(bin(h).count("1") for h in hand.hands) == 52 or \
        table.n_cards != 52
    returns = step.returns()
    assert abs(sum(returns)) < 1e-9 and max(map(abs, returns)) <= table.utility
    assert step.legal_actions() == ()
    with pytest.raises(IllegalStep, match="over"):
        step.apply(0)


def test_same_choices_same_game() -> None:
    table = _table("royal", players=3)

    def run(seed: int) -> Step:
        rng = random.Random(seed)
        return play_out(table.initial, lambda s: rng.choice(s.legal), rng)

    assert run(5).log == run(5).log and run(5).log != run(6).log


def test_whole_games_deal_hand_after_hand_and_can_be_cut_off() -> None:
    rng = random.Random(2)
    step = play_out(_table("standard", whole_game=True).initial, lambda s: rng.choice(s.legal), rng)
    assert step.ended == "game" and step.hands_done >= 1 and step.game.winner is not None
    assert step.returns() == [step.game.scores[0] - step.game.scores[1], step.game.scores[1] - step.game.scores[0]]
    cut = play_out(_table("standard", whole_game=True, max_hands=1).initial, lambda s: rng.choice(s.legal), rng)
    assert cut.ended == "cut" and cut.hands_done == 1


def test_win_payoff_is_plus_one_and_a_shared_minus_one() -> None:
    rng = random.Random(4)
    table = _table("royal", players=3, payoff="win")
    for _ in range(5):
        step = play_out(table.initial, lambda s: rng.choice(s.legal), rng)
        winner = step.winner()
        returns = step.returns()
        if winner is None:
            assert returns == [0.0, 0.0, 0.0]
        else:
            assert returns[winner] == 1.0 and sorted(returns)[:2] == [-0.5, -0.5]


def test_partners_share_returns() -> None:
    rng = random.Random(8)
    step = play_out(_table("standard", players=4, partners=True).initial, lambda s: rng.choice(s.legal), rng)
    r = step.returns()
    assert r[0] == r[2] == -r[1] == -r[3]


def test_claims_are_a_turns_first_action_in_whole_games_with_claiming() -> None:
    path = str(next(p for p in EXAMPLES if p.name == "hoyle-claiming.yaml"))
    table = _table(path, whole_game=True)
    claim = table.encoding.CLAIM
    step = _turns(table.initial, random.Random(1), every=1)[0]
    assert step.legal[-1] == claim
    after = step.apply(step.legal[0])
    assert claim not in after.legal or not after.prefix
    ended = step.apply(claim)
    assert ended.ended == "game" and ended.log[-1] == ("claim", step.game.hand.turn)
    assert claim not in _turns(_table(path).initial, random.Random(1), every=1)[0].legal   # single hands: no claims


def test_a_step_pickles_without_its_engine() -> None:
    table = _table("dominican")
    step = _turns(table.initial, random.Random(1), every=4)[0]
    step = step.apply(step.legal[0])
    back = pickle.loads(pickle.dumps(step))
    assert back.game.hand == step.game.hand and back.prefix == step.prefix and back.log == step.log
    assert back.legal == step.legal and back.table.setup == table.setup
    # (the restored step has the process's one table of its setup, not a table built again: ``table_for``'s cache,
    # which had slipped onto another function, and each OpenSpiel state restored paid a whole table's set-up)
    assert back.table is table and _table("dominican") is table
    assert len(pickle.dumps(step)) < 200_000


@pytest.mark.parametrize("variant", ["standard", "draw", "hungarian", "dominican"])
def test_resampling_keeps_what_the_seat_saw_and_redeals_what_it_did_not(variant: str) -> None:
    table = _table(variant)
    record = Layout(table, Kind(perfect_recall=True))
    rng = random.Random(11)
    changed = 0
    for start in _turns(table.initial, rng, every=7)[:3]:
        seat = start.to_play
        assert seat is not None
        for step in (start, start.apply(start.legal[-1])):
            for _ in range(3):
                found = resample(step, seat, rng)
                if found is None:
                    continue
                new = found.step
                assert record.text(new, seat) == record.text(step, seat)
                assert new.view_hand().hands[seat] == step.view_hand().hands[seat]
                if step.to_play == seat:
                    assert new.legal == step.legal and new.prefix == step.prefix
                changed += new.view_hand().hands != step.view_hand().hands
                replayed = step.hand_start or table.initial
                for action in found.actions:
                    replayed = replayed.apply(action)
                assert replayed.game.hand == new.game.hand
    assert changed


# ---------------------------------------------------------------------- hostile parameters
@pytest.mark.parametrize("params,message", [
    ({"bogus": 1}, "Unknown parameter 'bogus'. Available parameters are: dealer, max_hands"),
    ({"players": "3"}, "Wrong type for parameter players. Expected type: int, got str"),
    ({"players": True}, "Wrong type for parameter players. Expected type: int, got bool"),
    ({"players": 2.0}, "Wrong type for parameter players. Expected type: int, got float"),
    ({"partners": 1}, "Wrong type for parameter partners. Expected type: bool, got int"),
    ({"variant": 7}, "Wrong type for parameter variant. Expected type: str"),
    ({"payoff": "money"}, "payoff must be one of points, win"),
    ({"max_hands": 0}, "max_hands must be 1 or more"),
    ({"variant": "  "}, "variant is empty"),
])
def test_bad_parameters_are_named(params: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(SetupError, match=message.replace("(", r"\(")):
        Setup.from_params(params)


@pytest.mark.parametrize("params,message", [
    ({"players": 9}, "standard is for 2 to 4 players, not 9"),
    ({"players": 1}, "standard is for 2 to 4 players, not 1"),
    ({"variant": "hungarian", "players": 3}, "hungarian is for 2 players, not 3"),
    ({"players": 3, "partners": True}, "partners needs players=4"),
    ({"variant": "tuxedo", "players": 4, "partners": True}, "tuxedo never plays in partnerships"),
    ({"dealer": 2}, "dealer must be a seat, 0 to 1, not 2"),
    ({"dealer": -1}, "dealer must be a seat"),
])
def test_parameters_the_variant_cannot_play_are_refused(params: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(SetupError, match=message):
        _table(**{"variant": "standard", **params})


def test_unknown_missing_and_damaged_rule_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError, match="no bundled variant or file named `nosuch`"):
        _table("nosuch")
    with pytest.raises(RuleFileError, match="cannot read a rule or scenario file: no such file"):
        _table(str(tmp_path / "missing.yaml"))
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nextends: standard\ncapture: [unclosed\n", encoding="utf-8")
    with pytest.raises(RuleFileError):
        _table(str(bad))
    assert issubclass(SetupError, CassinoError) and issubclass(SetupError, ValueError)


def test_defaults_are_the_variants_smallest_table() -> None:
    table = _table("standard")
    assert table.players == load_rules("standard").seats.min_players
    assert table.setup.params() == {**PARAMETERS, "players": table.players}


def test_the_tables_kept_are_bounded_and_the_latest_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """``table_for`` keeps a table for each setup asked for and the setup it resolved to, up to ``TABLES_KEPT``
    setups (two keys each); past that it lets the kept tables go and goes on keeping."""
    from cassino.apps.research import stepwise

    monkeypatch.setattr(stepwise, "TABLES_KEPT", 2)
    monkeypatch.setattr(stepwise, "_TABLES", {})
    made = [table_for(Setup(variant="standard", max_hands=n)) for n in range(1, 6)]
    assert len(stepwise._TABLES) <= 2 * 2
    assert table_for(Setup(variant="standard", max_hands=5)) is made[-1]
    assert table_for(made[-1].setup) is made[-1]              # (the resolved setup: players=2 filled in)
    assert len({id(t) for t in made}) == 5
