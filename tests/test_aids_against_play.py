"""What the learning aids tell a player, held against what then happens, in every seating of every bundled
variant and example house rule: each seating's first hand is played once by random and greedy players (a seed of
its own for each seating), and on the way

- the counting aid (``counting.count_for``, a random seat at about a third of the positions): what it calls
  decided is scored, and no side scores an item above what the aid said it could still win (``can_win``) on top
  of what it already held (``HandResult.by_item``, points before the endgame restrictions: a side they keep
  from an item is left out, as the aid leaves it out). A bound too low is a wrong lesson: a player told a race
  is lost gives it up;
- the warnings (``warnings.risks``, every risk, avoidable or not, at about half the decisions of games won by
  the highest total): where the next player's real hand holds a card that sweeps the table, takes a scoring
  card the move left within reach, or takes the build the move made, by playing that one card, the warnings
  named that card among those that may do it. They try one unseen card at a time in the next player's place;
  the engine's moves here are the next player's with their whole hand, so a rule that lets a card capture only
  beside the rest of a hand (or forbids it) shows. Where the next player's real hand sweeps or takes such a card
  by playing several cards together (Hungarian Casino), the risk was warned of (naming sets "such as": which ones
  is the module's choice);
- the tutorial's rules that limit a move (``tutorial.limits``, at every position): where it says the owner's
  duty keeps the player from trailing, no trail is legal; where it says compulsory capture keeps a card from
  being trailed, that card (by name: with two packs a card held twice is one card for play) has no trail, and
  would have one were captures never compulsory.

Each check is shown able to fail (an aid made wrong on purpose is caught), and each defect the checks found has
a test of its own at the end.
"""

from __future__ import annotations

import random
import zlib
from functools import reduce
from operator import or_
from typing import Any, Iterable

import pytest

from cassino.apps.authors.matrix import Seating, seatings
from cassino.apps.learning.counting import Count, count_for
from cassino.apps.learning.tutorial import limits
from cassino.apps.learning.warnings import risks
from cassino.engine.core import Engine, Position
from cassino.engine.game import Game
from cassino.engine.moves import Move, MoveKind
from cassino.engine.notation import cards_text, format_move
from cassino.language.settings import unchecked
from cassino.language.variants import load_rules
from cassino.players.bots import make_bot
from cassino.players.knowledge import seen_by

from conftest import EXAMPLES

SEATINGS = seatings() + seatings(str(p) for p in EXAMPLES)


# ---------------------------------------------------------------------- the checks
def _claims(count: Count, game: Game, result: Any) -> list[str]:
    """What ``count`` (taken in ``game``) claimed that the hand's ``result`` contradicts."""
    wrong = []
    rules = {i.name: i for i in game.rules.scoring.items}
    piles_move = bool(game.hand.stacks)       # African Casino: a pile's cards can still change sides
    for item in count.items:
        scored = result.by_item.get(item.name, {})
        for side in count.sides:
            if not game.scorer.counts_for(rules[item.name], game.scores[side], game.restrictions_on):
                continue
            got, can = scored.get(side, 0), item.can_win[side]
            said = f"{item.name} for side {side}: the aid said {item}, the hand scored {got}"
            if item.count in ("most", "primiera"):
                if item.decided_for == side and got != item.points:
                    wrong.append(f"decided, not scored: {said}")
                if (item.open or item.decided_for is not None) and \
                        got > (item.points if item.decided_for == side else 0) + can:
                    wrong.append(f"above the bound: {said}")
            elif item.count == "each":
                held = item.held[side] * item.points
                if item.open and got > held + can:
                    wrong.append(f"above the bound: {said}")
                if not piles_move and got < held:
                    wrong.append(f"below the cards held: {said}")
            elif item.count == "at_least":
                need = item.at_least or 1
                if item.held[side] >= need and not piles_move and got != item.points:
                    wrong.append(f"reached, not scored: {said}")
                if item.held[side] < need and can == 0 and got:
                    wrong.append(f"out of reach, scored: {said}")
            elif item.count == "last_capture" and item.open and got > can:
                wrong.append(f"above the bound: {said}")
    return wrong


def _union(masks: Iterable[int]) -> int:
    return reduce(or_, masks, 0)


def _taken(move: Move) -> int:
    return move.loose | _union(move.builds)


def _missed(game: Game, move: Move) -> tuple[int, list[str]]:
    """How many of the next player's one-card captures were looked at after ``move``, and those the warnings
    should have named and did not."""
    engine, before = game.engine, game.hand
    deck, seat = engine.deck, before.turn
    legal = engine.playable_moves(before)
    found = risks(game, move, legal)
    after = engine.close_turn(engine.apply(before, move))
    nxt = after.turn
    if after.over or after.teams[nxt] == before.teams[seat] or not after.hands[nxt]:
        return 0, []
    sweeps_score = any(i.count == "sweeps" and (i.points or i.by_size or i.first_play_points)
                       for i in game.rules.scoring.items)
    scoring = _union(game.scorer.masks[i.name] for i in game.rules.scoring.items if i.count == "each" and i.points)
    within_reach = move.played | _union(_taken(m) for m in legal if m.kind == MoveKind.CAPTURE)
    exposed = scoring & within_reach & (after.table | _union(b.cards for b in after.builds))
    exposed |= scoring & move.played & after.pile_tops()
    new_builds = {b.cards for b in after.builds if after.teams[b.owner] == before.teams[seat] and b not in before.builds}
    takers = {w.kind if w.kind != "scoring-card" else w.cards: set(w.takers) for w in found}
    unseen = engine.full & ~seen_by(before, seat)
    looked, missed = 0, []
    for reply in engine.legal_moves(after):
        if reply.kind == MoveKind.CAPTURE and reply.played.bit_count() > 1 and reply.played & unseen == reply.played:
            # Cards played together (Hungarian Casino): a warning of the risk at all, naming some sets "such as".
            looked += 1
            said = f"ply {before.ply}: {format_move(move, deck)}, then seat {nxt}'s {format_move(reply, deck)}"
            if sweeps_score and len(engine.apply(after, reply).sweeps) > len(after.sweeps) and "sweep" not in takers:
                missed.append(f"{said} sweeps; no sweep was warned of")
            for scored in cards_text(deck, _taken(reply) & exposed):
                if (scored,) not in takers:
                    missed.append(f"{said} takes {scored}; it was not warned of")
            continue
        if reply.kind != MoveKind.CAPTURE or reply.played.bit_count() != 1 or not reply.played & unseen:
            continue
        looked += 1
        card = cards_text(deck, reply.played)[0]
        said = f"ply {before.ply}: {format_move(move, deck)}, then seat {nxt}'s {format_move(reply, deck)}"
        if sweeps_score and len(engine.apply(after, reply).sweeps) > len(after.sweeps) and \
                card not in takers.get("sweep", ()):
            missed.append(f"{said} sweeps; the warnings named {sorted(takers.get('sweep', ()))}")
        for scored in cards_text(deck, _taken(reply) & exposed):
            if card not in takers.get((scored,), ()):
                missed.append(f"{said} takes {scored}; the warnings named {sorted(takers.get((scored,), ()))}")
        if any(b in new_builds for b in reply.builds) and card not in takers.get("build", ()):
            missed.append(f"{said} takes the new build; the warnings named {sorted(takers.get('build', ()))}")
    return looked, missed


_NEVER_COMPULSORY: dict[int, tuple[Any, Engine]] = {}


def _never_compulsory(rules: Any) -> Engine:
    """An engine of ``rules`` with captures never compulsory (made once a rules object: the rules are kept)."""
    if id(rules) not in _NEVER_COMPULSORY:
        _NEVER_COMPULSORY[id(rules)] = (rules, Engine(unchecked(rules, ("capture", "compulsory"), "never")))
    return _NEVER_COMPULSORY[id(rules)][1]


def _wrong(game: Game) -> list[str]:
    hand, engine = game.hand, game.engine
    said = limits(game)
    moves = engine.playable_moves(hand)
    names = lambda mask: set(cards_text(engine.deck, mask))  # noqa: E731
    trailed = set().union(*(names(m.played) for m in moves if m.kind == MoveKind.TRAIL))
    wrong = []
    if "owner's duty" in said and trailed:
        wrong.append(f"the owner's duty is said to keep them from trailing, but {sorted(trailed)} may be trailed")
    if "compulsory capture" in said:
        # The rule is the cause: with captures never compulsory, a card refused now could be trailed.
        refused = names(hand.hands[hand.turn]) - trailed
        free = _never_compulsory(game.rules).playable_moves(hand)
        if not refused & set().union(*(names(m.played) for m in free if m.kind == MoveKind.TRAIL)):
            wrong.append(f"compulsory capture is said to refuse a trail, but the cards not trailed "
                         f"{sorted(refused)} are refused with captures never compulsory too")
    return wrong


# ---------------------------------------------------------------------- every seating
@pytest.mark.parametrize("seating", SEATINGS, ids=lambda s: s.short)
def test_what_the_aids_say_holds_in_play(seating: Seating) -> None:
    rules = load_rules(seating.variant)
    seed = zlib.crc32(seating.label.encode()) % 10_000
    game = Game.new(rules, seed, seating.players, seating.partners)
    rng = random.Random(seed)
    bots = [make_bot(rng.choice(["random", "greedy"]), seed + s) for s in range(seating.players)]
    warned = rules.game.goal != "lowest"    # (points are penalties there: nothing is warned of)
    counts: list[tuple[Game, Count]] = []
    wrong: list[str] = []
    while not game.over and game.hand_no == 1:
        ply = game.hand.ply
        wrong += [f"ply {ply}, the tutorial: {w}" for w in _wrong(game)]
        if rng.random() < 0.3:
            counts.append((game, count_for(game, rng.randrange(seating.players))))
        move = bots[game.hand.turn].choose(game, game.hand.turn)
        if warned and rng.random() < 0.5 and len(game.engine.playable_moves(game.hand)) > 1:
            wrong += [f"the warnings: {w}" for w in _missed(game, move)[1]]
        game = game.play(move)
    assert game.results, "the first hand was not scored"
    for at, count in counts:
        wrong += [f"ply {at.hand.ply}, the counting aid: {w}" for w in _claims(count, at, game.results[0])]
    assert not wrong, f"seed {seed}: " + "\n".join(wrong[:5])


# ---------------------------------------------------------------------- each check can fail
def test_a_count_that_claims_too_little_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: an aid whose bounds are each one point short is caught in standard."""
    from dataclasses import replace

    game = Game.new(load_rules("standard"), 17, 2)
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    taken = []
    while not game.over and game.hand_no == 1:
        count = count_for(game, game.hand.turn)
        short = tuple(replace(i, can_win={s: max(0, v - 1) for s, v in i.can_win.items()}) for i in count.items)
        taken.append((game, replace(count, items=short)))
        game = game.play(bots[game.hand.turn].choose(game, game.hand.turn))
    assert any(_claims(count, at, game.results[0]) for at, count in taken)


def test_a_warning_left_out_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: warnings that never name a sweep are caught in Scopa, where sweeps score."""
    import sys

    here, every = sys.modules[__name__], risks
    monkeypatch.setattr(here, "risks", lambda game, move, legal: tuple(w for w in every(game, move, legal)
                                                                         if w.kind != "sweep"))
    missed = []
    for seed in range(40):
        game = Game.new(load_rules("scopa"), seed, 2)
        bots = [make_bot("greedy", 1), make_bot("random", 2)]
        while not game.over and game.hand_no == 1 and not missed:
            move = bots[game.hand.turn].choose(game, game.hand.turn)
            missed += _missed(game, move)[1]
            game = game.play(move)
        if missed:
            break
    assert any("sweeps" in m for m in missed)


def test_a_limit_said_where_nothing_limits_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tutorial that says the owner's duty and compulsory capture everywhere is caught in standard (where a
    player may always trail, and owns no build at the first turn)."""
    import sys

    monkeypatch.setattr(sys.modules[__name__], "limits", lambda game: {"owner's duty", "compulsory capture"})
    wrong = _wrong(Game.new(load_rules("standard"), 3, 2))
    assert any("owner's duty" in w for w in wrong) and any("compulsory capture" in w for w in wrong)


# ---------------------------------------------------------------------- what the checks found
def test_a_holder_of_two_builds_is_given_the_card_it_lacks() -> None:
    """Tuxedo: seat 1 holds builds of 8 and 6 and two cards. Trying a 6 in its hand, the warnings gave it a second 6
    to keep for the build of 6 and no 8, so the 6 could take nothing, and leaving the 5 (a scoring card) in the
    build of 6 went unwarned; seat 1 held 6G and 8Y and took it (found by the test above on another seed)."""
    from cassino.apps.learning.warnings import warnings_for
    from cassino.engine.notation import parse_move

    game = Game.new(load_rules("tuxedo"), 605, 2)
    engine, deck = game.engine, game.engine.deck
    cards = lambda *names: [deck.parse(n) for n in names]  # noqa: E731
    state = engine.position(Position(players=2, hands={0: cards("1Y", "4Y", "6Y"), 1: cards("6G", "8Y")},
                                     builds=[(cards("1B", "7R"), 8, 1), (cards("1G", "5B"), 6, 1)]))
    at = Game.at(engine, state)
    trail = engine.resolve(at.hand, parse_move("4Y trail", deck))
    said = [w for w in warnings_for(at, trail) if w.kind == "scoring-card"]
    assert said and said[0].cards == ("5B",) and "6G" in said[0].takers, said
    looked, missed = _missed(at, trail)
    assert looked >= 1 and not missed


def test_a_card_held_twice_is_not_a_card_refused() -> None:
    """Krypkasino (two packs, compulsory capture): a hand of 5C 5C 6S 9C against a 10 of diamonds may trail
    every card; the moves name the trail of 5C once, and the tutorial read the second copy as refused and
    taught compulsory capture there (found by the test above)."""
    rules = load_rules("krypkasino")
    game = Game.new(rules, 1, 3)
    engine, deck = game.engine, game.engine.deck
    state = engine.position(Position(players=3, hands={0: [deck.parse(c) for c in ("5C", "5C", "6S", "9C")],
                                                       1: [deck.parse(c) for c in ("2H", "3H")],
                                                       2: [deck.parse(c) for c in ("2D", "3D")]},
                                     table=[deck.parse("10D")]))
    at = Game.at(engine, state)
    assert "compulsory capture" not in limits(at) and not _wrong(at)
    assert {m.kind for m in engine.playable_moves(at.hand)} == {MoveKind.TRAIL}


@pytest.mark.parametrize("rule, case", [
    # A builder for a partner whose card the partner holds may trail (Hoyle reads the duty so, and the engine).
    ("extends: standard\nbuild:\n  for_partner: true\n",
     {"players": 4, "partners": True, "to_play": 1, "hands": {1: ["7D", "9S"], 3: ["8C", "2H"]},
      "table": ["6S", "10D", "JH", "QD"], "builds": [{"cards": ["AH", "AD", "3C", "4S", "7S"], "value": 8,
                                                      "owner": 1, "holder": 3}]}),
    # One group a play, two builds of 9 beside each other in Draw Casino: the 9 may take neither, and the owner
    # left no other move trails (a combination `cassino validate` warns of).
    ("extends: draw\ncapture:\n  several_groups: false\n",
     {"players": 3, "to_play": 2, "hands": {2: ["3C", "6C", "9C", "QH"]}, "table": ["7S", "JS", "KS"],
      "builds": [{"cards": ["AH", "8D", "9H", "9D"], "value": 9, "owner": 2},
                 {"cards": ["AC", "3H", "5S"], "value": 9, "owner": 2}]}),
])
def test_the_owners_duty_is_not_taught_where_the_owner_may_trail(tmp_path: Any, rule: str, case: dict[str, Any]) -> None:
    """Found in house rules drawn at random: the tutorial said the owner's duty kept the player from trailing where
    the engine let them trail."""
    import yaml

    from cassino.apps.authors.matrix import scenario_starts

    (tmp_path / "house.yaml").write_text("name: house\ndescription: a drawn house rule\n" + rule, encoding="utf-8")
    (tmp_path / "cases.yaml").write_text(yaml.safe_dump({"variant": "house.yaml", "cases": [
        {"name": "the position", **case, "expect": {"legal": [f"{case['hands'][case['to_play']][0]} trail"]}}]}),
        encoding="utf-8")
    (start,), _ = scenario_starts([tmp_path / "cases.yaml"])
    trails = [m for m in start.game.engine.playable_moves(start.game.hand) if m.kind == MoveKind.TRAIL]
    assert trails and start.game.hand.stock
    assert "owner's duty" not in limits(start.game) and not _wrong(start.game)


@pytest.mark.parametrize("rule, players, partners, seed", [
    ("extends: scopone\ncapture:\n  from_piles: opponents_top\n  take_all: true\ndeal:\n  draw_after_play: true\n",
     4, True, 700974),
    ("extends: scopa\ncapture:\n  from_piles: opponents_top\ndeal:\n  draw_after_play: true\n", 4, False, 505971),
])
def test_a_primiera_is_not_decided_while_pile_cards_change_sides(tmp_path: Any, rule: str, players: int,
                                                                 partners: bool, seed: int) -> None:
    """Found in house rules drawn at random: with opponents' pile tops in play (``capture.from_piles``) the counting
    aid called a primiera decided while the cards of it in the piles could still be taken, and the hand ended
    otherwise (the most and each items took that into account; the primiera did not)."""
    (tmp_path / "house.yaml").write_text("name: house\ndescription: a drawn house rule\n" + rule, encoding="utf-8")
    rules = load_rules(str(tmp_path / "house.yaml"))
    game = Game.new(rules, seed, players, partners)
    bots = [make_bot(random.Random(seed + s).choice(["random", "greedy"]), seed + s) for s in range(players)]
    counts = []
    while not game.over and game.hand_no == 1:
        counts += [(game, count_for(game, seat)) for seat in range(players)]
        game = game.play(bots[game.hand.turn].choose(game, game.hand.turn))
    primiera = [i for _, c in counts for i in c.items if i.count == "primiera"]
    assert primiera and all(i.decided_for is None for i in primiera if i.open or i.left)
    assert not [w for at, c in counts for w in _claims(c, at, game.results[0])]
