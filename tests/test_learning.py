"""The learning aids: the counting aid against a recount from the log, warnings on constructed
positions, the tutorial's rulebook sentences once each, and their options in `cassino play`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from cassino.apps.learning.counting import count_for
from cassino.apps.learning.tutorial import Tutorial
from cassino.apps.learning.warnings import warnings_for
from cassino.apps.game.play import Aids, start_session
from cassino.apps.game.records import Record, apply_action
from cassino.engine.core import Engine, Position
from cassino.engine.game import Game
from cassino.engine.moves import MoveKind
from cassino.engine.notation import format_move, parse_move
from cassino.language.rulebook import rulebook
from cassino.language.variants import load_rules
from cassino.players.bots import make_bot

from conftest import every_lesson, every_limit


def _played(variant: str, seed: int, actions: int) -> Game:
    record = Record(load_rules(variant), seed, 2, False, ["random", "random"], source=variant)
    game = record.new_game()
    bots = [make_bot("random", seed), make_bot("random", seed + 1)]
    for _ in range(actions):
        if game.over:
            break
        seat = game.hand.turn
        game = game.play(bots[seat].choose(game, seat))
    return game


@pytest.mark.parametrize("variant, seed, actions", [("standard", 2, 13), ("standard", 9, 31), ("spade", 4, 20),
                                                     ("tuxedo", 3, 17)])
def test_the_count_equals_a_recount_from_the_log(variant: str, seed: int, actions: int) -> None:
    game = _played(variant, seed, actions)
    engine, hand = game.engine, game.hand
    log = game.moves_this_hand()
    assert log, "the test needs moves in the hand in play"
    captured = {s: 0 for s in hand.sides}
    seen = log[0][0].table
    for position, move in log:
        seen |= move.played
        if move.kind == MoveKind.CAPTURE:
            taken = move.played | move.loose
            for b in move.builds:
                taken |= b
            captured[position.teams[position.turn]] |= taken
    for seat in range(hand.players):
        count = count_for(game, seat)
        for item in count.items:
            if item.count in ("most", "each"):
                mask = game.scorer.masks[item.name]
                assert item.held == {s: bin(captured[s] & mask).count("1") for s in hand.sides}, item.name
        for r, rank in zip(count.ranks, engine.deck.ranks):
            assert r.rank == rank
            assert r.seen == bin(seen & engine.rank_mask[engine.deck.ranks.index(rank)]).count("1")
            assert r.in_hand == bin(hand.hands[seat] & engine.rank_mask[engine.deck.ranks.index(rank)]).count("1")
        json.dumps(count.to_json())


@pytest.mark.parametrize("variant, item", [("scopa", "primiera"), ("escoba", "setenta")])
def test_the_primiera_line_counts_each_sides_best_cards_not_the_last_capture(variant: str, item: str) -> None:
    """The count of a primiera item (Scopa's primiera, Escoba's setenta) is each side's best
    card of each suit added up, on every screen of a game; it fell into the last-capture
    branch before (1 for whoever took last, 72 of 72 screens of a scopa game)."""
    record = Record(load_rules(variant), 4, 2, False, ["greedy", "greedy"], source=variant)
    game = record.new_game()
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    screens = 0
    while not game.over and game.hand_no == 1:
        hand = game.hand
        line = next(i for i in count_for(game, hand.turn).items if i.name == item)
        totals = {s: max(0, game.scorer.primiera_total(next(x for x in game.rules.scoring.items
                                                             if x.name == item), hand.side_pile(s)))
                  for s in hand.sides}
        assert line.count == "primiera" and line.held == totals
        screens += 1
        game = game.play(bots[hand.turn].choose(game, hand.turn))
    assert screens > 20


def test_the_last_capture_line_names_who_made_it_so_far() -> None:
    """Swedish Kasino scores the last capture: its line named no one ("last capture: ", a player's audit saw 84
    blank lines in two games); it says who captured last so far, and what the item is worth at the hand's end."""
    record = Record(load_rules("swedish-kasino"), 11, 2, False, ["greedy", "greedy"], source="swedish-kasino")
    game = record.new_game()
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    said = set()
    while not game.over and game.hand_no == 1:
        hand = game.hand
        line = next(x for x in count_for(game, hand.turn).text().splitlines() if x.startswith("last capture:"))
        who = "no capture yet" if hand.last_capturer is None else f"seat {hand.last_capturer} so far"
        assert line == f"last capture: {who} (1 point to the side that captures last in the hand)", line
        said.add(who)
        game = game.play(bots[hand.turn].choose(game, hand.turn))
    assert {"seat 0 so far", "seat 1 so far"} <= said


def test_an_item_that_cannot_score_has_no_line() -> None:
    """Standard's sweeps score nothing (its sweeps item has 0 points): no sweeps line, and
    'and sweeps' is not said of what is still to win."""
    game = _played("standard", 2, 5)
    count = count_for(game, game.hand.turn)
    assert "sweeps" not in [i.name for i in count.items]
    assert not count.sweeps_open and "sweeps" not in count.text()
    house = count_for(_played("scopa", 2, 5), 0)
    assert "sweeps" in [i.count for i in house.items]


def test_the_count_reads_only_public_cards_and_the_seats_own_hand() -> None:
    game = _played("standard", 5, 6)
    hand = game.hand
    seat = hand.turn
    other = 1 - seat
    pool = sorted([i for i in range(game.engine.n_cards) if hand.hands[other] >> i & 1] + list(hand.stock))
    size = bin(hand.hands[other]).count("1")
    hands = list(hand.hands)
    hands[other] = sum(1 << i for i in pool[:size])
    moved = game.with_(hand=hand.with_(hands=tuple(hands), stock=tuple(pool[size:])))
    assert moved.hand.hands[other] != hand.hands[other]
    assert count_for(moved, seat) == count_for(game, seat)


def test_what_can_still_be_won_at_the_start_and_once_decided() -> None:
    game = Game.new(load_rules("standard"), 1, 2)
    fresh = count_for(game, 0)
    total = sum(i.points for i in game.rules.scoring.items if i.count in ("most", "each")) + \
        3 * sum(i.points for i in game.rules.scoring.items if i.name == "aces")   # four aces, one point each
    assert fresh.still_to_win == {0: total, 1: total}
    engine = game.engine
    deck = engine.deck
    cards = list(deck.cards)
    pile = [c for c in cards if c.rank not in ("A",) and str(c) not in ("10D", "2S")][:30]
    rest = [c for c in cards if c not in pile]
    state = engine.position(Position(players=2, hands={0: rest[:2], 1: rest[2:4]}, table=rest[4:6],
                                     captured={0: pile}))
    count = count_for(Game.at(engine, state), 0)
    most = {i.name: i for i in count.items}
    assert most["cards"].decided_for == 0 and most["cards"].can_win == {0: 0, 1: 0}
    assert not most["cards"].open and "decided for seat 0" in count.text()


def _at(variant: str, hands: dict[int, list[str]], table: list[str], captured: dict[int, list[str]] | None = None,
        builds: tuple = ()) -> Game:  # type: ignore[type-arg]
    engine = Engine(load_rules(variant))
    card = engine.deck.parse
    state = engine.position(Position(players=2, to_play=0, hands={s: [card(c) for c in h] for s, h in hands.items()},
                                     table=[card(c) for c in table],
                                     captured={s: [card(c) for c in h] for s, h in (captured or {}).items()},
                                     builds=tuple(([card(c) for c in cs], v, o) for cs, v, o in builds)))
    return Game.at(engine, state)


def _warn(game: Game, text: str) -> set[str]:
    return {w.kind for w in warnings_for(game, parse_move(text, game.engine.deck))}


def test_warning_a_move_that_leaves_a_sweep() -> None:
    # hoyle scores sweeps: trailing the 2 leaves 4+2, which any unseen six sweeps
    game = _at("hoyle", {0: ["9C", "2D", "KS"], 1: ["KH", "QH", "JH"]}, ["4H"])
    assert "sweep" in _warn(game, "2D trail")
    found = warnings_for(game, parse_move("2D trail", game.engine.deck))
    sweep = next(w for w in found if w.kind == "sweep")
    assert "may hold" in sweep.text and "6S" in sweep.takers
    # ...whatever seat 1 really holds (it holds no six): the seat cannot see it
    assert not any(c.startswith("6") for c in ["KH", "QH", "JH"])
    # trailing the king leaves 4 and a king: no single card takes both
    assert "sweep" not in _warn(game, "KS trail")
    # standard scores no sweeps: the same trail warns of none
    assert "sweep" not in _warn(_at("standard", {0: ["9C", "2D", "KS"], 1: ["KH", "QH", "JH"]}, ["4H"]), "2D trail")


def test_warning_on_the_dealers_last_card_of_a_deal() -> None:
    """Hoyle, the dealer's last card: 7H takes 3D 4S and leaves 7C; the next player then gets
    four new cards, and any unseen seven sweeps. It was never warned of (the deal changes)."""
    engine = Engine(load_rules("hoyle"))
    card = engine.deck.parse
    state = engine.position(Position(players=2, to_play=0, dealer=0, hands={0: [card("7H")], 1: []},
                                     table=[card("7C"), card("3D"), card("4S")]))
    game = Game.at(engine, state)
    assert state.stock and engine.apply(state, parse_move("7H capture 3D 4S", engine.deck)).deal_no != state.deal_no
    found = warnings_for(game, parse_move("7H capture 3D 4S", engine.deck))
    sweep = next(w for w in found if w.kind == "sweep")
    assert {"7D", "7S"} <= set(sweep.takers)
    # mid-deal, the same capture warned already
    mid = _at("hoyle", {0: ["7H", "KS"], 1: ["KH", "QH"]}, ["7C", "3D", "4S"])
    assert "sweep" in _warn(mid, "7H capture 3D 4S")


def test_no_warning_on_a_forced_move() -> None:
    """Hoyle: a lone 2D against a 4H can only trail (no 6 held to build): nothing to warn of,
    though a six would sweep; with a choice, the same trail is warned of."""
    forced = _at("hoyle", {0: ["2D"], 1: ["KH", "QH"]}, ["4H"])
    assert [format_move(m, forced.engine.deck) for m in forced.legal_moves()] == ["2D trail"]
    assert warnings_for(forced, parse_move("2D trail", forced.engine.deck)) == ()
    free = _at("hoyle", {0: ["2D", "KS"], 1: ["KH", "QH"]}, ["4H"])
    assert "sweep" in _warn(free, "2D trail")


def test_warning_a_scoring_card_given_up() -> None:
    game = _at("standard", {0: ["10D", "9C", "KS"], 1: ["KH", "QH", "JH"]}, ["3H"])
    assert "scoring-card" in _warn(game, "10D trail")
    assert "scoring-card" not in _warn(game, "9C trail")
    # every other ten seen (captured): nothing can take the big casino
    seen = _at("standard", {0: ["10D", "9C", "KS"], 1: ["KH", "QH", "JH"]}, ["3H"],
               captured={0: ["10S", "10H", "10C"]})
    assert "scoring-card" not in _warn(seen, "10D trail")
    # leaving the little casino on the table when it could have been taken
    left = _at("standard", {0: ["2H", "9C", "KS"], 1: ["KH", "QH", "JH"]}, ["2S"])
    assert "scoring-card" in _warn(left, "9C trail")
    assert "scoring-card" not in _warn(left, "2H capture 2S")


def test_warning_a_build_the_opponent_can_take() -> None:
    game = _at("standard", {0: ["3H", "8C", "KS"], 1: ["KH", "QH", "JH"]}, ["5S"])
    assert "build" in _warn(game, "3H build 8 on 5S")
    seen = _at("standard", {0: ["3H", "8C", "KS"], 1: ["KH", "QH", "JH"]}, ["5S"],
               captured={1: ["8S", "8H", "8D"]})
    assert "build" not in _warn(seen, "3H build 8 on 5S")
    # a capture that clears the table leaves nothing to warn about
    clear = _at("standard", {0: ["5C", "8C", "KS"], 1: ["KH", "QH", "JH"]}, ["5S"])
    assert _warn(clear, "5C capture 5S") == set()


@pytest.mark.parametrize("variant", ["kasino-misar", "krypkasino"])
def test_no_warning_where_the_lowest_total_wins(variant: str, tmp_path: Path) -> None:
    """Points are penalties: a sweep, a scoring card or a build left to the next player is a gift to them,
    no risk (these variants were warned of thousands of such 'risks' over 20 random hands). The same
    position in the variant won by the highest total (a house rule changing only the goal) is warned of."""
    hands, table = {0: ["AS", "9C", "KS"], 1: ["KH", "QH", "JH"]}, ["AD"]
    lowest = _at(variant, hands, table)
    assert lowest.rules.game.goal == "lowest"
    moves = lowest.legal_moves()
    assert len(moves) > 1 and all(warnings_for(lowest, m) == () for m in moves)
    rule = tmp_path / "highest.yaml"
    rule.write_text(f"name: highest\ndescription: {variant} won by the highest total\nextends: {variant}\n"
                    "game:\n  goal: highest\n")
    highest = _at(str(rule), hands, table)
    assert any(warnings_for(highest, m) for m in highest.legal_moves())


def test_the_tutorial_gives_each_rule_in_the_rulebooks_words_once() -> None:
    rules = load_rules("standard")
    clauses = {k: c.text for k, c in rulebook(rules).clauses().items()}
    game = _played("standard", 2, 0)
    tutorial, lessons = Tutorial.for_rules(rules).start()
    shown = [lesson.key for lesson in lessons]
    bots = [make_bot("random", 1), make_bot("random", 2)]
    first_capture = None
    k = 0
    while not game.over and k < 200:
        seat = game.hand.turn
        move = bots[seat].choose(game, seat)
        after = game.play(move)
        tutorial, lessons = tutorial.after(game, move, after)
        for lesson in lessons:
            assert lesson.text == clauses[lesson.key]
            if lesson.key == "capture.intro":
                first_capture = k
        shown += [lesson.key for lesson in lessons]
        if move.kind == MoveKind.CAPTURE and first_capture is None:
            pytest.fail("the first capture did not teach the capture rule")
        game, k = after, k + 1
    assert len(shown) == len(set(shown))
    assert {"turn.kinds", "capture.intro", "trail.intro", "hand.end"} <= set(shown)


def _session(tmp_path: Path, typed: list[str], aids: Aids, seed: int = 3):  # type: ignore[no-untyped-def]
    out = io.StringIO()
    lines = iter(typed)
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    record = Record(load_rules("standard"), seed, 2, False, ["human", "greedy"], source="standard")
    console = Console(file=out, width=200, markup=False, highlight=False, soft_wrap=True)
    return start_session(record, tmp_path / "g.json", console, read=read, aids=aids), out, asked


def _warned_move(session) -> str:  # type: ignore[no-untyped-def]
    """A move in the session's position that draws a warning (the test needs one)."""
    for move in session.game.legal_moves():
        if warnings_for(session.game, move):
            return format_move(move, session.game.engine.deck)
    pytest.skip("no move here draws a warning")


def test_play_warn_asks_and_no_takes_the_move_back(tmp_path: Path) -> None:
    probe, _, _ = _session(tmp_path, [], Aids())
    while probe.computer_to_move():
        probe.act(probe.computer_choice())
    move = _warned_move(probe)
    before = len(probe.record.actions)
    session, out, asked = _session(tmp_path, [move, "n", "quit"], Aids(warn=True))
    session.run()
    assert "warning: this" in out.getvalue() and "taken back" in out.getvalue()
    assert "play it anyway? (y/N) " in asked
    assert len(json.loads((tmp_path / "g.json").read_text())["actions"]) == before
    session, out, asked = _session(tmp_path, [move, "y", "quit"], Aids(warn=True))
    session.run()
    assert json.loads((tmp_path / "g.json").read_text())["actions"][before] == move


def test_play_without_warn_asks_nothing(tmp_path: Path) -> None:
    probe, _, _ = _session(tmp_path, [], Aids())
    while probe.computer_to_move():
        probe.act(probe.computer_choice())
    move = _warned_move(probe)
    session, out, asked = _session(tmp_path, [move, "quit"], Aids())
    session.run()
    assert "warning" not in out.getvalue() and "play it anyway? (y/N) " not in asked


def test_play_count_option_and_command(tmp_path: Path) -> None:
    session, out, _ = _session(tmp_path, ["quit"], Aids(count=True))
    session.run()
    assert out.getvalue().count("still to win this hand at most") == 1
    # (of what is not decided yet: a player's audit read "seat 1 0 points" beside a primiera decided for seat 1)
    assert "still to win this hand at most, of what is not decided yet: " in out.getvalue()
    session, out, _ = _session(tmp_path, ["quit"], Aids())
    session.run()
    assert "still to win" not in out.getvalue()
    session, out, _ = _session(tmp_path, ["count", "quit"], Aids())
    session.run()
    assert "still to win this hand at most" in out.getvalue() and "seen of each rank" in out.getvalue()


def test_play_tutorial_prints_a_rules_words_once(tmp_path: Path) -> None:
    clauses = {k: c.text for k, c in rulebook(load_rules("standard")).clauses().items()}
    session, out, _ = _session(tmp_path, ["1"] * 30 + ["quit"], Aids(tutorial=True))
    session.run()
    text = out.getvalue()
    assert text.count(clauses["turn.kinds"]) == 1
    assert text.count(clauses["capture.intro"]) == 1


def test_a_rules_sentences_are_said_under_its_heading_once_with_a_lists_items_under_it(tmp_path: Path) -> None:
    """A reader's audit saw a hand's end taught as eight lines of "rule (end of hand): ...", one of them a bare
    "Each side scores for what it captured in the hand:": now the heading once, the rule's other sentences
    under it, and the scoring items listed under the sentence that opens them, each the rulebook's words."""
    book = rulebook(load_rules("standard")).clauses()
    session, out, _ = _session(tmp_path, ["1"] * 60 + ["quit"], Aids(tutorial=True))
    session.run()
    lines = out.getvalue().splitlines()
    ends = [k for k, line in enumerate(lines) if "rule (end of hand): " in line]
    assert len(ends) == 1 and lines[ends[0]].endswith(book["hand.end"].text)
    opening = lines.index("  " + book["scoring.intro"].text, ends[0])
    items = [c.text for key, c in book.items() if key.startswith("scoring.items.")]
    assert len(items) >= 4 and lines[opening + 1:opening + 1 + len(items)] == ["    - " + text for text in items]
    assert not any(line.startswith("rule (") and book["scoring.intro"].text in line for line in lines)


def test_the_play_options_are_accepted_by_the_command(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("sys.stdin", io.StringIO("count\nquit\n"))
    code, out, err = cli("play", "standard", "--seed", "4", "--save", str(tmp_path / "g.json"),
                         "--count", "--warn", "--tutorial")
    assert code == 0, err
    assert "still to win" in out and "rule (first turn)" in out


def test_the_tutorial_tells_one_sum_from_several_groups() -> None:
    from cassino.apps.learning.tutorial import situations

    one = _at("standard", {0: ["9C", "KS"], 1: ["KH", "QH"]}, ["2H", "3H", "4H"])
    after = one.play(parse_move("9C capture 2H 3H 4H", one.engine.deck))
    assert {"capture", "sum"} <= situations(one, parse_move("9C capture 2H 3H 4H", one.engine.deck), after)
    assert "several groups" not in situations(one, parse_move("9C capture 2H 3H 4H", one.engine.deck), after)
    two = _at("standard", {0: ["9C", "KS"], 1: ["KH", "QH"]}, ["5H", "4H", "6D", "3D"])
    move = parse_move("9C capture 5H 4H 6D 3D", two.engine.deck)
    assert "several groups" in situations(two, move, two.play(move))


def _lessons(game: Game, text: str) -> dict[str, str]:
    """The lessons (clause key -> sentence) a fresh tutorial gives for the move ``text``."""
    move = parse_move(text, game.engine.deck)
    tutorial, limited = every_limit(Tutorial.for_rules(game.rules), game)   # before the choice
    _, lessons = every_lesson(tutorial, game, move, game.play(move))
    return {lesson.key: lesson.text for lesson in limited + lessons}


@pytest.mark.parametrize("variant, hands, table, move, key, words", [
    # Scopa: the 7 could take the 7 on the table, so it may not be trailed: the capture is forced
    ("scopa", {0: ["7C", "KS"], 1: ["KH", "QH"]}, ["7D", "3D", "4S"], "7C capture 7D", "capture.compulsory",
     "may not trail"),
    # ...and it must take the equal card, not the 3+4
    ("scopa", {0: ["7C", "KS"], 1: ["KH", "QH"]}, ["7D", "3D", "4S"], "7C capture 7D", "capture.equal_card_first",
     "an equal card, not a sum"),
    # Two-handed: a card that could capture may not be trailed, even when another card is played
    ("two-handed", {0: ["5C", "KS"], 1: ["KH", "QH"]}, ["5D"], "5C capture 5D", "capture.compulsory", "may not trail"),
    # Standard: a king takes one king, by rank
    ("standard", {0: ["KC", "9S"], 1: ["KH", "QH"]}, ["KD", "4S"], "KC capture KD", "capture.valueless_cards",
     "only by rank"),
    # Finnish Kasino: the 10D counts 16 from the hand (a 10 and a 6 on the table)
    ("finnish-kasino", {0: ["10D", "3S"], 1: ["KH", "QH"]}, ["10C", "6S"], "10D capture 10C 6S", "deck.card_values",
     "16"),
    # Hungarian: two cards played together, taking what they add up to
    ("hungarian", {0: ["4C", "5C", "KS"], 1: ["KH", "QH", "JH"]}, ["9D", "2S"], "4C+5C capture 9D",
     "capture.hand_cards.combine", "total"),
    # Standard: a set added to a build of the same value makes it multiple
    ("standard", {0: ["3C", "8S", "KS"], 1: ["KH", "QH", "JH"]}, ["5H"], "3C build 8 on 5H", "build.allowed", "build"),
])
def test_the_tutorial_teaches_a_rule_the_first_time_it_decides_a_move(variant: str, hands: dict[int, list[str]],
                                                                      table: list[str], move: str, key: str,
                                                                      words: str) -> None:
    lessons = _lessons(_at(variant, hands, table), move)
    assert key in lessons and words in lessons[key], lessons


def test_the_tutorial_teaches_adding_to_a_build() -> None:
    game = _at("standard", {0: ["3C", "8S", "KS"], 1: ["KH", "QH", "JH"]}, ["AD", "7H"],
               builds=((["5H", "3D"], 8, 1),))
    lessons = _lessons(game, "8S capture 7H AD [3D 5H]")
    assert "capture.several_groups" in lessons and "build.add_sets" not in lessons
    add = _at("standard", {0: ["AC", "8S", "KS"], 1: ["KH", "QH", "JH"]}, ["7H"], builds=((["5H", "3D"], 8, 1),))
    lessons = _lessons(add, "AC build 8 on 7H [3D 5H]")
    assert "build.add_sets" in lessons and "multiple" in lessons["build.add_sets"]


def test_no_compulsory_lesson_where_trailing_is_free() -> None:
    lessons = _lessons(_at("standard", {0: ["7C", "KS"], 1: ["KH", "QH"]}, ["7D"]), "7C capture 7D")
    assert "capture.compulsory" not in lessons


def test_the_tutorial_teaches_an_endgame_restriction_when_a_side_is_under_one() -> None:
    """Dominican: a side with exactly 18 at the start of a hand may score only cards in it."""
    game = Game.new(load_rules("dominican"), 3, 2)
    mover = game.hand.teams[game.hand.turn]     # (the restriction is taught to the side it limits)
    game = game.with_(scores=(18, 4) if mover == 0 else (4, 18))
    game = game.with_(hand=game._deal(game.hand.dealer, game.hand_no))
    assert game.restricted_sides()
    move = game.legal_moves()[0]
    tutorial, limited = every_limit(Tutorial.for_rules(game.rules), game)
    _, lessons = every_lesson(tutorial, game, move, game.play(move))
    keys = [lesson.key for lesson in limited + lessons]
    assert "endgame.restrictions.18" in keys


def test_warnings_do_not_depend_on_the_card_the_mover_will_draw() -> None:
    """In Draw Cassino the position after a play holds the card drawn from the stock, which the mover
    does not know when asking: the warnings (their unseen cards) must not change with the stock's order."""
    from cassino.engine.game import Game
    from cassino.engine.moves import MoveKind
    from cassino.apps.learning.warnings import warnings_for
    from cassino.language.variants import load_rules

    checked = 0
    for seed in range(12):
        game = Game.new(load_rules("draw"), seed, 2)
        hand = game.hand
        reordered = game.with_(hand=hand.with_(stock=tuple(reversed(hand.stock))))
        for move in game.legal_moves():
            if move.kind is MoveKind.TRAIL:
                assert warnings_for(game, move) == warnings_for(reordered, move), (seed, move)
                checked += bool(warnings_for(game, move))
    assert checked, "some trail in these deals gives a warning"


def test_the_end_of_hand_lesson_lists_the_scoring_items_it_introduces() -> None:
    """"Each side scores for what it captured in the hand:" is followed by the items, as in the rulebook."""
    import random

    from cassino.apps.learning.tutorial import Tutorial
    from cassino.engine.game import Game
    from cassino.language.rulebook import rulebook
    from cassino.language.variants import load_rules

    rules = load_rules("standard")
    game, tutorial, rnd = Game.new(rules, 7, 2), Tutorial.for_rules(rules), random.Random(7)
    keys: list[str] = []
    while game.hand_no == 1 and not game.over:
        move = rnd.choice(game.legal_moves())
        after = game.play(move)
        tutorial, lessons = tutorial.after(game, move, after)
        keys += [lesson.key for lesson in lessons]
        game = after
    items = [k for k in rulebook(rules).clauses() if k.startswith("scoring.items.")]
    start = keys.index("scoring.intro") + 1
    assert items and keys[start:start + len(items)] == items


def test_the_tutorial_teaches_pile_tops_when_one_is_taken() -> None:
    """African Casino: taking an opponent's pile top shows the rulebook's sentence on pile tops
    (the top augments the six on the table: a base, as the Khasino rules ask)."""
    from cassino.apps.learning.tutorial import Tutorial, situations

    game = _at("swazi-casino", {0: ["6C", "KS"], 1: ["KH", "QH"]}, ["3D", "6S"], captured={1: ["4H", "6H"]})
    move = parse_move("6C capture 6S 6H", game.engine.deck)
    assert "pile top" in situations(game, move, game.play(move))
    plain = parse_move("KS trail", game.engine.deck)
    assert "pile top" not in situations(game, plain, game.play(plain))
    _, lessons = every_lesson(Tutorial.for_rules(game.rules), game, move, game.play(move))
    assert any(lesson.key == "capture.from_piles" and "top card of each opponent's pile" in lesson.text
               for lesson in lessons)


def test_warning_a_scoring_card_left_on_top_of_your_pile() -> None:
    """African Casino: capturing with the 10♦ leaves it face up on top of your pile, in play for the next
    player: a ten of theirs takes it with the 10♠ left on the table (a base, as the Khasino rules ask)."""
    game = _at("swazi-casino", {0: ["10D", "2C"], 1: ["KH", "QH"]}, ["10C", "10S", "8S"])
    warnings = warnings_for(game, parse_move("10D capture 10C", game.engine.deck))
    texts = [w.text for w in warnings if w.kind == "scoring-card"]
    assert any("10D" in w.cards and "on top of your pile" in w.text for w in warnings), texts
    plain = _at("royal", {0: ["10D", "2C"], 1: ["KH", "QH"]}, ["10C", "8S"])
    assert not [w for w in warnings_for(plain, parse_move("10D capture 10C", plain.engine.deck))
                if w.kind == "scoring-card" and "10D" in w.cards]


def test_the_tutorial_teaches_the_single_card_first_under_a_capture_total() -> None:
    """Escoba with Scopa's "equal card first": the lesson fires when one loose card that makes 15
    is taken alone (a card equal to the played one is never taken under a total, so the lesson,
    which waited for one, never came), in the words the rulebook uses under a total."""
    from cassino.engine.game import Game
    from cassino.engine.notation import parse_move
    from cassino.language.variants import load_rules

    rules = load_rules(Path(__file__).resolve().parents[1] / "examples" / "escoba-equal-first.yaml")
    game = Game.new(rules, 1, 2)
    deck = game.engine.deck
    state = game.engine.position(Position(players=2, hands={0: [deck.parse("5H"), deck.parse("2C")], 1: [deck.parse("3C")]},
                                          table=[deck.parse(c) for c in ("KD", "6H", "4S")]))
    before = game.with_(hand=state)
    move = parse_move("5H capture KD", deck)
    _, lessons = every_lesson(Tutorial.for_rules(rules), before, move, before.play(move))
    texts = [lesson.text for lesson in lessons if lesson.key == "capture.equal_card_first"]
    assert texts and "makes 15" in texts[0]


def test_no_warning_on_any_forced_move_of_a_recorded_game() -> None:
    """The recorded standard game of the review tests, replayed: 39 of its moves are forced (one
    legal move, most of them a dealer's or a player's last card), and none is warned of; warnings
    fired on forced moves before (issue 37)."""
    from cassino.apps.game.records import load_game

    record, _ = load_game(Path(__file__).parent / "records" / "review-greedy-standard-11.json")
    game = record.new_game()
    forced = 0
    for action in record.actions:
        moves = game.legal_moves() if not game.hand.over else []
        if len(moves) == 1:
            forced += 1
            assert warnings_for(game, parse_move(action, game.engine.deck)) == (), action
        game = apply_action(game, action)
    assert forced == 39


def test_a_side_that_can_only_tie_for_most_cards_can_win_what_a_tie_gives(tmp_path: Path) -> None:
    """Standard's most cards (3 points, a tie scores nobody): with 26 cards taken by seat 1, 20 by
    seat 0 and 6 still in the hands, seat 0 can at best draw level, which scores nothing; the aid
    said it could still win 3 (it compared the item's ties with "none", a value ties never has).
    With ties split (a house rule) the same race can still give seat 0 half, 1."""
    engine = Engine(load_rules("standard"))
    names = [f"{c.rank}{c.suit}" for c in engine.deck.cards]
    hands = {0: names[:3], 1: names[3:6]}
    captured = {0: names[6:26], 1: names[26:]}
    count = count_for(_at("standard", hands, [], captured), 0)
    cards = next(i for i in count.items if i.name == "cards")
    assert cards.held == {0: 20, 1: 26} and cards.left == 6
    assert cards.can_win[0] == 0 and cards.open
    house = tmp_path / "split.yaml"
    house.write_text("name: split\ndescription: most cards split on a tie\nextends: standard\n"
                     "scoring:\n  items:\n    cards: {ties: split}\n", encoding="utf-8")
    split = count_for(_at(str(house), hands, [], captured), 0)
    cards = next(i for i in split.items if i.name == "cards")
    assert cards.held == {0: 20, 1: 26} and cards.can_win[0] == 1


def test_the_count_of_a_game_won_by_the_lowest_total_says_penalties_and_lists_a_card_under_each_item() -> None:
    """Kasino misär: the ace of spades scores as an ace and as a spade, and was listed twice with nothing to
    tell the two apart; the points still to come are penalties, not something to win."""
    game = _at("kasino-misar", {0: ["7C", "9D"], 1: ["KH", "QH"]}, ["5H"], captured={0: ["AS", "3S"]})
    count = count_for(game, 0)
    assert count.penalties and not count_for(_at("standard", {0: ["7C"], 1: ["KH"]}, ["5H"]), 0).penalties
    text = count.text()
    assert "still to take this hand at most" in text and "penalty points" in text and "lowest total wins" in text
    scoring = text.splitlines()[0]
    assert "aces: AS won by seat 0" in scoring and "spades: AS won by seat 0, 3S won by seat 0" in scoring
    assert count.to_json()["penalties"] is True
    # standard: each card under one item, listed plainly as before
    plain = count_for(_at("standard", {0: ["7C"], 1: ["KH"]}, ["5H"]), 0).text()
    assert plain.splitlines()[0].startswith("scoring cards: 10D not seen yet") and "still to win" in plain


def test_the_count_says_items_in_words_and_a_primiera_race_as_it_stands() -> None:
    """An audit of the learning aids read `big_casino` where the scoring table says "big casino", and a primiera
    line of "seat 0 0" for a side holding three suits' best cards: the count now names items in words and gives
    each side's best cards added up, with the suits they come from where one is still missing."""
    from cassino.engine.game import Game

    text = count_for(Game.new(load_rules("standard"), 5, 2), 0).text()
    assert "big casino: " in text and "little casino: " in text and "big_casino" not in text
    game = Game.new(load_rules("scopa"), 11, 2)
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    seen = set()
    while not game.over and game.hand_no == 1:
        hand = game.hand
        count = count_for(game, 0)
        line = next(line for line in count.text().splitlines() if line.startswith("primiera: "))
        item = next(i for i in count.items if i.name == "primiera")
        for side, (total, suits, of) in (item.partial or {}).items():
            name = f"seat {side}"
            if suits == 0:
                assert f"{name} none yet" in line
            elif suits < of:
                assert f"{name} {total} from {suits} of {of} suits" in line
                assert item.held[side] == 0   # not counted yet: every suit is needed in Scopa
                seen.add("partial")
            else:
                assert f"{name} {total}" in line and item.held[side] == total
                seen.add("whole")
        game = game.play(bots[hand.turn].choose(game, hand.turn))
    assert seen == {"partial", "whole"}


def test_how_says_a_sweep_is_a_penalty_where_the_lowest_total_wins() -> None:
    """An audit read "(it scores)" of kasino misar's tabbe, a penalty there, and nothing of the -5 to the player
    seated before the sweeper."""
    from cassino.apps.game.howto import how_to_play

    text = how_to_play(load_rules("kasino-misar"))
    assert "its points count against the sweeper" in text and "(it scores)" not in text
    assert "the player seated before the sweeper in the order of play scores -5 points" in text
    assert "(it scores)" in how_to_play(load_rules("scopa"))


def test_a_first_capture_where_pile_tops_are_in_play_teaches_them() -> None:
    """An audit's first Swazi capture left two queens on top of its pile, and the next player built with them
    at once: no lesson had said that a capturing card goes face up on top of the pile, in the others' play. The
    pile-top rules are taught at the first capture too, not only at the first use of another's pile top."""
    rules = load_rules("swazi-casino")
    game = Game.new(rules, 1, 2)
    engine = game.engine
    d = engine.deck
    hand = engine.position(Position(players=2, hands={0: [d.parse("QS"), d.parse("5C")], 1: [d.parse("KS")]},
                                    table=[d.parse("QC"), d.parse("3D")]))
    before = game.with_(hand=hand)
    move = parse_move("QS capture QC", d)
    _, lessons = every_lesson(Tutorial.for_rules(rules), before, move, before.play(move))
    keys = [lesson.key for lesson in lessons if lesson.topic == "pile top"]
    assert "capture.from_piles" in keys and "capture.pile_cards" in keys, keys
    # and the first capture's own lesson (taught alone, before those) says the capturing card lies on top
    intro = next(lesson.text for lesson in lessons if lesson.key == "capture.intro")
    assert "the card you capture with lies on top, where the other side may use it" in intro
    # not where pile tops are never in play
    standard = load_rules("standard")
    game = Game.new(standard, 1, 2)
    d = game.engine.deck
    hand = game.engine.position(Position(players=2, hands={0: [d.parse("QS"), d.parse("5C")], 1: [d.parse("KS")]},
                                         table=[d.parse("QC"), d.parse("3D")]))
    before = game.with_(hand=hand)
    move = parse_move("QS capture QC", d)
    _, lessons = every_lesson(Tutorial.for_rules(standard), before, move, before.play(move))
    assert not [lesson for lesson in lessons if lesson.topic == "pile top"]
    assert "lies on top" not in next(lesson.text for lesson in lessons if lesson.key == "capture.intro")


def test_an_item_scored_each_time_an_event_happens_stays_open() -> None:
    """Tuxedo's oranges score 10 for each orange capture: an audit found the count calling the item "decided"
    after the first orange and its bound 10 points too low from the deal on. It stays open, said as "and
    oranges" beside what is still to win, until the hand's cards are played."""
    game = Game.new(load_rules("tuxedo"), 6, 2)
    bots = [make_bot("random", 1), make_bot("random", 2)]
    text = count_for(game, 0).text()
    assert text.splitlines()[-1].endswith("points, and sweeps, and oranges")
    oranges = 0
    while not game.over and game.hand_no == 1:
        game = game.play(bots[game.hand.turn].choose(game, game.hand.turn))
        if game.over or game.hand_no != 1:
            break
        count = count_for(game, 0)
        item = next(i for i in count.items if i.name == "oranges")
        oranges = max(oranges, sum(item.held.values()))
        assert item.open and item.decided_for is None and "oranges" in count.events_open
        assert "decided" not in next(line for line in count.text().splitlines() if line.startswith("oranges"))
    assert oranges >= 1


def test_how_says_what_an_event_is_and_a_sweep_scored_by_its_size() -> None:
    """An audit read "oranges: 10 for each orange" with no word of what an orange is, and "sweeps: 5 for each
    sweep (10 for 4+ cards; 5 for 1-3 cards)" in Tuxedo's `how`."""
    from cassino.apps.game.howto import how_to_play

    text = how_to_play(load_rules("tuxedo"))
    assert ("oranges: 10 for each capture that takes at least a red card and a yellow card from the table, loose or in "
            "a build it takes (an orange; not the taking of the cards left at the end)") in text
    assert "sweeps: each sweep by the cards it takes (10 for 4+ cards; 5 for 1-3 cards)" in text


def test_the_count_says_no_sweeps_are_open_where_none_could_score() -> None:
    """Finnish Kasino (a players' re-audit): once any side has 10 points sweeps score nothing, and in the last deal a
    table emptied is no sweep; the aid still said "... points, and sweeps" in both."""
    from conftest import position_at

    engine, state = position_at("finnish-kasino", {0: ["KS", "2C"], 1: ["7H", "4S"]}, ["7C", "3D"])
    game = Game.at(engine, state)
    line = lambda g: next(x for x in count_for(g, 0).text().splitlines() if x.startswith("still to win"))  # noqa: E731
    assert line(game.with_(scores=(3, 9))).endswith(", and sweeps")
    assert not line(game.with_(scores=(3, 10))).endswith(", and sweeps")
    assert not line(game.with_(scores=(10, 3))).endswith(", and sweeps")
    engine, last = position_at("finnish-kasino", {0: ["KS", "2C"], 1: ["7H", "4S"]}, ["7C", "3D"], stock=[])
    assert not line(Game.at(engine, last)).endswith(", and sweeps")
    engine, scopa = position_at("scopa", {0: ["KS", "2C"], 1: ["7H", "4S"]}, ["7C", "3D"], stock=[])
    assert line(Game.at(engine, scopa)).endswith(", and sweeps")   # (Scopa's last deal still sweeps, bar the last play)
