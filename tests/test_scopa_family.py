"""The Scopa family's capabilities (issue 27) through the public API and the CLI: captures by a
fixed total, the misdeal, the dealer's initial sweep, primiera, the file checks that refuse
combinations which cannot work, and the computer players' worth of primiera cards."""

from __future__ import annotations

from pathlib import Path

import pytest

from cassino.engine.core import Engine, Position
from cassino.engine.game import Game
from cassino.engine.movegen import popcount
from cassino.engine.scoring import Scorer
from cassino.language.settings import unchecked
from cassino.language.variants import load_rules
from cassino.players.gain import CardWorth

from conftest import validate_refuses

ROOT = Path(__file__).resolve().parent.parent


def test_a_misdeal_of_three_kings_is_dealt_again() -> None:
    rules = load_rules("scopa")
    engine = Engine(rules)
    plain = Engine(unchecked(rules, ("deal", "misdeal", "cards"), ""))
    kings = engine.misdeal_mask
    assert popcount(kings) == 4
    # Seeds whose first deal puts three or four kings on the table without the rule.
    bad = [s for s in range(4000) if popcount(plain.start(s, 2).table & kings) >= 3]
    assert bad, "no seed deals three kings to the table: the test shows nothing"
    for seed in bad:
        hand = engine.start(seed, 2)
        assert popcount(hand.table & kings) < 3
        assert popcount(hand.table) == 4 and all(popcount(h) == 3 for h in hand.hands)
        assert hand == engine.start(seed, 2)   # still one hand per seed


def test_the_dealer_takes_an_initial_table_of_fifteen_as_escobas() -> None:
    engine = Engine(load_rules("escoba"))
    taken = ones = twos = 0
    for seed in range(1500):
        hand = engine.start(seed, 2, dealer=1)
        if not hand.sweeps:
            continue
        taken += 1
        pile = hand.piles[1]
        assert hand.table == 0 and popcount(pile) == 4 and hand.last_capturer == 1
        total = sum(engine.tv[i][0] for i in range(engine.n_cards) if pile >> i & 1)
        assert total == 15 * len(hand.sweeps) and all(w.seat == 1 for w in hand.sweeps)
        ones += len(hand.sweeps) == 1
        twos += len(hand.sweeps) == 2
    assert ones and twos, (ones, twos)
    # A whole game starts so too, and the hand's escobas count them.
    game = next(g for g in (Game.new(engine, seed=s) for s in range(300)) if g.hand.sweeps)
    first = len(game.hand.sweeps)
    dealer_side = game.hand.teams[game.hand.dealer]
    hand_no = game.hand_no
    while game.hand_no == hand_no and not game.over:
        game = game.play(game.legal_moves()[0])
    assert game.results[0].by_item["escobas"][dealer_side] >= first


def test_no_dealer_take_where_the_table_does_not_make_the_total() -> None:
    engine = Engine(load_rules("escoba"))
    for seed in range(300):
        hand = engine.start(seed, 2)
        if not hand.sweeps:
            assert popcount(hand.table) == 4 and not any(hand.piles)


def test_a_card_takes_what_makes_the_total_with_it() -> None:
    engine = Engine(load_rules("escoba"))
    d = engine.deck
    state = engine.position(Position(players=2, hands={0: [d.parse("7D")]},
                                     table=[d.parse(c) for c in ("7C", "JH", "5S", "3C")]))
    shown = sorted(str(m) for m in engine.legal_moves(state))
    moves = {tuple(sorted(str(c) for c in d.cards_of(m.loose))) for m in engine.legal_moves(state) if m.loose}
    assert moves == {("JH",), ("3C", "5S")}, shown


def test_primiera_best_card_per_suit_and_missing_suits() -> None:
    engine = Engine(load_rules("scopa"))
    scorer = Scorer(engine)
    item = engine.rules.scoring.item("primiera")
    assert item is not None
    d = engine.deck
    pile = d.mask([d.parse(c) for c in ("7D", "AD", "6H", "2H", "KS", "5C")])
    assert scorer.primiera_total(item, pile) == 21 + 18 + 10 + 15
    assert scorer.primiera_total(item, d.mask([d.parse(c) for c in ("7D", "6H", "KS")])) == -1
    lenient = Scorer(Engine(unchecked(engine.rules, ("scoring", "items", "primiera", "all_suits"), False)))
    assert lenient.primiera_total(item.__class__(**{**item.__dict__, "all_suits": False}),
                                  d.mask([d.parse(c) for c in ("7D", "6H", "KS")])) == 21 + 18 + 10


def test_the_computer_keeps_sevens_and_sixes_for_primiera() -> None:
    engine = Engine(load_rules("escoba"))
    worth = CardWorth(engine, Scorer(engine)).worth
    d = engine.deck

    def w(card: str) -> float:
        return worth[d.index(d.parse(card))]

    assert w("7H") > w("6H") > w("AH") > w("5H") > w("KH")
    # Without the setenta item the same cards are worth alike.
    flat = unchecked(engine.rules, ("scoring", "items", "setenta", "points"), 0)
    plain = CardWorth(Engine(flat), Scorer(Engine(flat))).worth
    assert plain[d.index(d.parse("7H"))] == plain[d.index(d.parse("KH"))]


@pytest.mark.parametrize("variant", ["scopa", "scopone", "escoba"])
def test_whole_games_by_simulate(cli, variant: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("simulate", variant, "--games", "4")
    assert code == 0, err
    assert "primiera" in out or "setenta" in out
    assert "games won" in out


BAD = {
    "total with valueless cards": ("capture:\n  total: 15\n  several_groups: false\n"
                                   "build:\n  allowed: false\n", "standard", "number value"),
    "total below the highest card": ("capture:\n  total: 9\n", "escoba", "not above the highest card value"),
    "total with building": ("build:\n  allowed: true\n", "escoba", "without building"),
    "total with several groups": ("capture:\n  several_groups: true\n", "escoba", "one set a play"),
    "dealer takes without a total": ("deal:\n  dealer_takes_total: true\n", "scopa", "capture.total is null"),
    "misdeal that cannot happen": ("deal:\n  misdeal: {cards: \"rank=K\", at_least: 5}\n", "scopa", "can never happen"),
    "misdeal every time": ("deal:\n  misdeal: {cards: \"all\", at_least: 1}\n", "scopa", "every initial table"),
    "misdeal selector": ("deal:\n  misdeal: {cards: \"rank=Z\", at_least: 3}\n", "scopa", "no rank Z"),
    "primiera unknown rank": ("scoring:\n  items:\n    primiera: {card_points: {\"9\": 5}}\n", "scopa", "rank `9`"),
    "primiera without points": ("scoring:\n  items:\n    p2: {count: primiera}\n", "scopa", "gives no rank any points"),
    "card points on another item": ("scoring:\n  items:\n    cards: {card_points: {\"7\": 1}}\n", "scopa",
                                    "read only by `count: primiera`"),
    "card points of the wrong type": ("scoring:\n  items:\n    primiera: {card_points: {\"7\": seven}}\n", "scopa",
                                      "card_points"),
    "total of the wrong type": ("capture:\n  total: fifteen\n", "escoba", "capture.total"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_hostile_settings_are_refused_with_one_line(cli, tmp_path: Path, case: str) -> None:  # type: ignore[no-untyped-def]
    validate_refuses(cli, tmp_path, *BAD[case])
