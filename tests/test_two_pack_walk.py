"""Two packs walked lazily: a step of a two-pack deck offers the copies of a card as one card
and costs what the actions offered cost, as with one pack (issue 35: a step listed every
legal move, 24 loose cards took 60 s and 1.9 GB).

- On random two-pack positions (Krypkasino; Casino with building on two packs, twin
  builds among them; Swazi Casino's pile tops on two packs), the actions offered after
  every prefix are exactly the next actions of the engine's own move list (which names
  each move once, whichever copies it could use), and every listed move is reached.
- At 24 loose cards of two packs a whole move is chosen without the engine's move list
  ever being made.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cassino.errors import PositionTooLargeError

from cassino.apps.research.stepwise import Setup, Step, table_for
from cassino.engine import movegen
from cassino.engine.core import Position, bits
from cassino.engine.moves import MoveKind
from cassino.engine.state import HandState

TWO_PACK_FILES = {
    "standard-two-packs": "extends: standard\ndeck:\n  packs: 2\ndeal:\n  short_stock: split_rest_to_table\n",
    # Swazi Casino as bundled (the Khasino rules, issue 36: a pile card only augments a base; one
    # build a value; ...: the whole-move rules of engine/turnrules.py), and its pile tops taken like
    # loose cards with none of those rules on (`capture.pile_cards: taken`, as
    # examples/swazi-tops-taken.yaml, the building settings' defaults, no trail with a build): the
    # tops alone, Swazi Casino as it was played before.
    "swazi-two-packs": "extends: swazi-casino\ndeck:\n  packs: 2\ndeal:\n  short_stock: split_rest_to_table\n",
    "swazi-tops-taken-two-packs": ("extends: swazi-casino\ndeck:\n  packs: 2\n"
                                   "deal:\n  short_stock: split_rest_to_table\n"
                                   "capture:\n  pile_cards: taken\nbuild:\n  one_per_value: false\n"
                                   "  augment_opponents: true\n  raise_partners: true\ntrail:\n  with_build: false\n"),
}


@pytest.fixture(scope="module")
def variants(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder: Path = tmp_path_factory.mktemp("two-packs")
    out = {"krypkasino": "krypkasino"}
    for name, body in TWO_PACK_FILES.items():
        path = folder / f"{name}.yaml"
        path.write_text(f"name: {name}\ndescription: {name}\n{body}", encoding="utf-8")
        out[name] = str(path)
    return out


def _position(variant: str, seed: int, plies: int, loose: int) -> HandState | None:
    """A position reached by random play, then ``loose`` stock cards laid on the table (copies of
    cards already there among them, where the stock has them)."""
    engine = table_for(Setup(variant=variant)).engine
    state = engine.start(seed, engine.rules.seats.min_players)
    rng = random.Random(seed)
    for _ in range(plies):
        after = engine.apply(state, rng.choice(engine.legal_moves(state)))
        if after.over or after.deal_no != state.deal_no:
            break
        state = after
    if state.over or not state.hands[state.turn]:
        return None
    size = engine.pack_size
    on_table = {c % size for c in bits(state.table)}
    in_hand = {c % size for c in bits(state.hands[state.turn])}
    first = [c for c in state.stock if c % size in on_table]
    then = [c for c in state.stock if c % size in in_hand and c not in first]
    moved = (first + then + [c for c in state.stock if c not in first and c not in then])[:loose]
    table = state.table
    for c in moved:
        table |= 1 << c
    return state.with_(table=table, stock=tuple(c for c in state.stock if c not in moved))


def _walk_all(start: Step, seqs: list[tuple[int, ...]]) -> set[tuple[int, ...]]:
    """Every action path from the turn's start; checks each state's offer on the way."""
    enc = start.table.encoding
    by_prefix: dict[tuple[int, ...], set[int]] = {}
    for s in seqs:
        for n in range(len(s)):
            by_prefix.setdefault(s[:n], set()).add(s[n])
    reached: set[tuple[int, ...]] = set()

    def walk(step: Step) -> None:
        offered = {a for a in step.legal if a != enc.CLAIM}
        assert offered == by_prefix[step.prefix], step.prefix
        words = [step.describe(a) for a in offered]
        assert len(set(words)) == len(words), words
        for action in sorted(offered):
            nxt = step.apply(action)
            if nxt.game.hand is not step.game.hand or nxt.ended:     # the move was played
                path = step.prefix + (action,)
                while path[-1] != enc.DONE:   # the forced actions the step took by itself
                    (forced,) = by_prefix[path]
                    path += (forced,)
                reached.add(path)
                played = nxt.trace[-1][1]
                assert start.table.engine.is_legal(start.game.hand, played)
            else:
                walk(nxt)

    walk(start)
    return reached


@pytest.mark.parametrize("name", sorted(["krypkasino", *TWO_PACK_FILES]))
def test_the_lazy_walk_offers_exactly_the_engines_moves_named_once(variants: dict[str, str], name: str) -> None:
    variant = variants[name]
    table = table_for(Setup(variant=variant))
    engine = table.engine
    walked = copies_on_table = twin_builds = 0
    rng = random.Random(name)
    for _ in range(32):
        state = _position(variant, rng.randrange(10_000), rng.randrange(12), rng.choice([0, 4, 8, 12]))
        if state is None:
            continue
        try:
            moves = engine.legal_moves(state)
        except PositionTooLargeError:   # (a turn of several actions' builds of a full table: beyond listing)
            continue
        if len(moves) > 80:      # (a walk of every move costs some milliseconds a move)
            continue
        seqs = [seq for seq, _ in table.encoding.sequences(state, moves)]
        assert len(set(seqs)) == len(seqs), "two of the engine's moves got one action sequence"
        assert _walk_all(Step.at(table, state), seqs) == set(seqs)
        walked += 1
        size = engine.pack_size
        names = [c % size for c in bits(state.table)]
        copies_on_table += len(names) != len(set(names))
        builds = [table.encoding.canon(b.cards) for b in state.builds]
        twin_builds += len(builds) != len(set(builds))
    assert walked >= 10 and copies_on_table >= 4


def _big(hand: str, ranks: str) -> tuple[object, HandState]:
    table = table_for(Setup(variant="krypkasino"))
    deck = table.engine.deck
    held = [deck.parse(c) for c in hand.split()]
    loose = [c for c in deck.cards if c not in held and c.rank in ranks.split()]
    other = [c for c in deck.cards if c not in held and c not in loose][:len(held)]
    return table, table.engine.position(Position(players=2, hands={0: held, 1: other}, table=loose))


def test_a_move_at_24_loose_cards_of_two_packs_is_chosen_without_listing_the_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Krypkasino, the eight A, 2 and 3 of two packs loose (24 cards) against 10S 9S 8S 7S: the
    engine's move generator is replaced by one that counts its calls, and none is made."""
    table, state = _big("10S 9S 8S 7S", "A 2 3")
    assert bin(state.table).count("1") == 24
    calls = []

    def counted(*args: object) -> list[int]:
        calls.append(args)
        raise AssertionError("the step listed every legal move")

    monkeypatch.setattr(movegen, "generate", counted)
    monkeypatch.setattr("cassino.engine.core.generate", counted)
    engine = table.engine
    rng = random.Random(3)
    for _ in range(6):
        step = Step.at(table, state)
        while step.game.hand is state:
            step = step.apply(rng.choice([a for a in step.legal if a != table.encoding.CLAIM]))
        move = step.trace[-1][1]
        assert move.kind is MoveKind.CAPTURE and move.loose & state.table == move.loose
        worth = max(engine.hv[bits(move.played)[0]])
        assert sum(max(engine.tv[c]) for c in bits(move.loose)) % worth == 0
    assert calls == []


def test_a_table_of_copies_offers_what_the_engine_lists() -> None:
    """The same walk where nearly every loose card has its twin loose: the eight 3s and eight
    kings of two packs against 6S and JD; every action path is one of the engine's moves,
    each reached once."""
    table, state = _big("6S JD", "3 K")
    seqs = [seq for seq, _ in table.encoding.sequences(state, table.engine.legal_moves(state))]
    assert len(seqs) > 30
    assert _walk_all(Step.at(table, state), seqs) == set(seqs)


def _positioned(variant: str, **position: object) -> tuple[object, HandState]:
    table = table_for(Setup(variant=variant))
    deck = table.engine.deck

    def cards(names: str) -> list[object]:
        return [deck.parse(c) for c in names.split()]

    pos: dict[str, object] = {}
    for key, value in position.items():
        if key == "builds":
            pos[key] = [(cards(c), v, owner) for c, v, owner in value]  # type: ignore[attr-defined]
        elif isinstance(value, dict):
            pos[key] = {seat: cards(names) for seat, names in value.items()}
        else:
            pos[key] = cards(value)  # type: ignore[arg-type]
    return table, table.engine.position(Position(players=2, **pos))  # type: ignore[arg-type]


def test_twin_builds_are_offered_as_one(variants: dict[str, str]) -> None:
    """Two builds of 3D 5H (one of each pack's copies), alike for play: taking one of them is one
    move, by the first; taking both another; the engine lists the same."""
    table, state = _positioned(variants["standard-two-packs"], hands={0: "8D 8C 2S", 1: "KH"},
                               table="8S 3C 5C", builds=[("3D 5H", 8, 1), ("3D 5H", 8, 1)])
    assert len(state.builds) == 2 and state.builds[0].cards != state.builds[1].cards
    seqs = [seq for seq, _ in table.encoding.sequences(state, table.engine.legal_moves(state))]
    assert _walk_all(Step.at(table, state), seqs) == set(seqs)
    enc = table.encoding
    offered = Step.at(table, state)
    for action in seqs[0][:2]:   # play an eight, capture
        offered = offered.apply(action)
    assert enc.BUILD in offered.legal and enc.BUILD + 1 not in offered.legal   # the second twin follows the first


@pytest.mark.parametrize("name", ["swazi-two-packs", "swazi-tops-taken-two-packs"])
def test_an_opposing_pile_top_is_not_its_twin_on_the_table(variants: dict[str, str], name: str) -> None:
    """Swazi Casino on two packs: the 5H on the table and an opponent's 5H pile top are different
    items (taking a top changes a pile); each has its own id, and every move is offered once. The
    layout holds bases (5H, 5D, 2C 3C) for the top to augment, as the Khasino rules ask."""
    table, state = _positioned(variants[name], hands={0: "5S 10D", 1: "KH"},
                               table="5H 5D 2C 3C", captured={1: "9S 5H"})
    assert state.pile_tops() and state.table & ~state.pile_tops() == state.table
    seqs = [seq for seq, _ in table.encoding.sequences(state, table.engine.legal_moves(state))]
    assert len(set(seqs)) == len(seqs) > 5
    assert _walk_all(Step.at(table, state), seqs) == set(seqs)


def test_a_pile_top_taken_in_the_walk_leaves_its_pile_not_its_twin_on_the_table(variants: dict[str, str]) -> None:
    """Two packs, an opponent's 5H pile top and a 5H on the table. A name is the table's copy
    first (``Engine._as_named``): the top is taken only together with its twin, never alone, since
    a move taking it alone would be written as the move taking the table's 5H and its record would
    replay another game. Stepped through, that capture takes both: the top leaves its pile, the
    table's 5H the table (before, the walk's copy was matched by name and the table's was taken)."""
    table, state = _positioned(variants["swazi-tops-taken-two-packs"], hands={0: "5S 10D", 1: "KH"},
                               table="5H 5D 2C 3C", captured={1: "9S 5H"})
    top = state.pile_tops()
    engine = table.engine
    twin = next(c for c in range(engine.n_cards) if state.table >> c & 1 and str(engine.deck.cards[c]) == "5H")
    legal = engine.legal_moves(state)
    assert not [m for m in legal if m.loose & top and not m.loose >> twin & 1], "a top taken without its twin"
    capture = next(m for m in legal if m.kind.value == "capture" and m.loose & top)
    step = Step.at(table, state)
    for action in step.actions_for(capture):
        step = step.apply(action)
    after = step.game.hand
    assert not after.stacks[1] or after.stacks[1][-1] != top.bit_length() - 1, "the top is still on its pile"
    assert not after.table >> twin & 1, "the table's 5H was left"

def test_a_places_cards_by_identity_are_the_copies_it_holds_counted_per_card() -> None:
    """``Encoding.canon`` (two packs: a quick path of three mask operations) against a count of each card's
    copies: k copies of card i are ids i, i + S, ... whichever copies chance dealt."""
    enc = table_for(Setup(variant="krypkasino", players=2)).encoding
    size = enc.pack_size
    rnd = random.Random(52)
    for _ in range(2000):
        mask = rnd.getrandbits(2 * size) & rnd.getrandbits(2 * size)
        want = 0
        for card in range(size):
            for j in range((mask >> card & 1) + (mask >> (card + size) & 1)):
                want |= 1 << (card + j * size)
        assert enc.canon(mask) == want


def test_a_positions_moves_name_their_pile_tops_alike_with_the_map_made_once(tmp_path: Path) -> None:
    """``Encoding.sequences`` works out the loose cards' ids once a position (``loose_map``) and hands them
    to ``loose_ids``: the same actions as each move's ids found on its own (two packs, opposing pile tops
    in play, as the soak's house rule had them)."""
    rule = tmp_path / "pile-tops.yaml"
    rule.write_text("name: pile-tops\nextends: krypkasino\ncapture:\n  from_piles: opponents_top\n", encoding="utf-8")
    table = table_for(Setup(variant=str(rule), players=2))
    rng = random.Random(7)
    step, checked, tops = table.initial, 0, 0
    while not step.terminal and checked < 60:
        if step.deal is not None:
            step = step.apply(rng.choice(bits(step.deal.remaining)))
            continue
        hand = step.game.hand
        moves = table.engine.playable_moves(hand)
        enc = table.encoding
        for (seq, move) in enc.sequences(hand, moves):
            assert seq == enc.sequence(hand, move)
            if move.loose:
                assert enc.loose_ids(hand, move.loose) == enc.loose_ids(hand, move.loose, dict(enc.loose_map(hand)))
                tops += bool(move.loose & hand.pile_tops())
        checked += 1
        step = step.apply(rng.choice(step.legal))
    assert checked and tops
