"""The tutorial at a seating with partners, and without (a teacher's audit of session 99): Hoyle in partnerships
built for the partner and was taught "You may build only a value you hold", then never told why its partner's build
for it kept its last card of that value; Hoyle at two was taught "If you built for your partner's card ... you trail"
and "your own and your partner's builds may take table cards in", with no partner at the table."""

from __future__ import annotations

from cassino.apps.learning.tutorial import Tutorial, situations
from cassino.engine.game import Game
from cassino.engine.notation import parse_move
from cassino.language.variants import load_rules
from cassino.players.bots import make_bot

from conftest import position_at

HANDS = {0: ["4S", "9C"], 1: ["KH", "2D"], 2: ["7H", "KD"], 3: ["QS", "JD"]}


def _hoyle_four(to_play: int = 0) -> Game:
    """Seat 2 owns a build of 7 and holds 7H: its 7 is proven; seat 0 holds no 7."""
    return Game.at(*position_at("hoyle", HANDS, ["3H"], builds=[(["2C", "5C"], 7, 2)], players=4, partners=True,
                                to_play=to_play))


def test_a_build_for_the_partner_teaches_building_for_a_partner_not_the_builders_duty() -> None:
    game = _hoyle_four()
    move = parse_move("4S build 7 on 3H", game.engine.deck)
    after = game.play(move)
    assert [(b.owner, b.holder) for b in after.hand.builds if b.cards & move.played] == [(0, 2)]
    assert situations(game, move, after) == {"build for a partner"}
    _, lessons = Tutorial.for_game(game).after(game, move, after)
    # (what a build is first, where no build was taught: "You may also build ..." came before any, a re-audit)
    assert [lesson.key for lesson in lessons] == ["build.allowed", "build.for_partner",
                                                  "build.keep_capturing_card.partner"]
    assert "partner is known to hold" in lessons[1].text and "the partner whose value it is" in lessons[2].text
    # (a build of one's own still teaches the builder's duty)
    own = Game.at(*position_at("hoyle", {0: ["4S", "7C"], 1: ["KH"], 2: ["KD"], 3: ["QS"]}, ["3H"], players=4,
                                partners=True))
    mine = parse_move("4S build 7 on 3H", own.engine.deck)
    assert situations(own, mine, own.play(mine)) == {"build"}


def test_the_partners_build_for_the_learner_is_taught_to_the_learner() -> None:
    """Seat 2 builds for seat 0's proven 9 (a build of 9 seat 0 owns): seat 0's tutorial, another's move, teaches it."""
    game = Game.at(*position_at("hoyle", {0: ["9C", "KS"], 1: ["KH"], 2: ["5D", "QD"], 3: ["QS"]}, ["4H"],
                                builds=[(["6C", "3C"], 9, 0)], players=4, partners=True, to_play=2))
    move = next(m for m in game.legal_moves() if m.kind.value == "build" and m.value == 9 and not m.builds)
    after = game.play(move)
    assert any(b.owner == 2 and b.holder == 0 for b in after.hand.builds)
    _, lessons = Tutorial.for_game(game).after(game, move, after, own=False, seat=0)
    assert "build.keep_capturing_card.partner" in [lesson.key for lesson in lessons]
    # (an opponent's learner, seat 1, is not taught it: the build is not theirs to keep a card for, a hot-seat audit)
    _, theirs = Tutorial.for_game(game).after(game, move, after, own=False, seat=1)
    assert not [lesson for lesson in theirs if lesson.topic == "build for a partner"]


def test_a_game_without_partners_is_taught_no_partners_rule() -> None:
    """Every clause the tutorial may teach at two (Hoyle, standard, Dominican) says nothing of a partner; at four in
    partnerships the partner's rules are there."""
    for name in ("hoyle", "standard", "dominican"):
        two = Tutorial.for_game(Game.new(load_rules(name), 1, 2))
        assert not [key for key, text in two.clauses.items() if "partner" in text.lower()], name
    four = Tutorial.for_game(Game.new(load_rules("hoyle"), 1, 4, True))
    assert "build.for_partner" in four.clauses
    # Scopone always plays in teams, whatever is asked: its tutorial keeps them
    scopone = Game.new(load_rules("scopone"), 1, 4)
    assert any("partner" in text.lower() for text in Tutorial.for_game(scopone).clauses.values())


def test_a_whole_game_at_two_teaches_no_partner() -> None:
    """Hoyle at two, played to its end by greedy players: no lesson shown to seat 0 speaks of a partner."""
    game = Game.new(load_rules("hoyle"), 5, 2)
    tutorial, lessons = Tutorial.for_game(game).start(game, game.hand.turn == 0)
    shown = list(lessons)
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    while not game.over:
        before = game
        move = bots[game.hand.turn].choose(game, game.hand.turn)
        game = game.play(move)
        tutorial, more = tutorial.after(before, move, game, own=before.hand.turn == 0, to_move=game.hand.turn == 0)
        shown += more
    assert len(shown) > 5
    assert not [lesson.text for lesson in shown if "partner" in lesson.text.lower()]


def test_the_raise_lesson_at_a_table_of_partners_says_whose_builds() -> None:
    """A re-audit of Swazi Casino in teams was taught "You may raise only other players' builds, never your own", and
    its partner's build, another player's, was then refused: the raise lesson now says the partner's rules too, and
    at two players only the raise's own."""
    game = Game.at(*position_at("swazi-casino", {0: ["2C", "9D"], 1: ["8H"], 2: ["6C"], 3: ["7C"]}, ["10H"],
                                builds=[(["4S", "3S"], 7, 1)], players=4, partners=True))
    move = parse_move("2C build 9 on [4S 3S]", game.engine.deck)
    assert situations(game, move, game.play(move)) >= {"raise"}
    _, lessons = Tutorial.for_game(game).after(game, move, game.play(move))
    keys = [lesson.key for lesson in lessons if lesson.topic == "raise"]
    assert {"build.raise_own", "build.raise_partners", "build.raise_for_partner"} <= set(keys)
    two = Tutorial.for_game(Game.new(load_rules("swazi-casino"), 1, 2))
    assert "build.raise_own" in two.clauses and "build.raise_partners" not in two.clauses


def test_the_new_deal_lesson_says_the_short_last_deal_where_there_is_one() -> None:
    """Krypkasino at six: the last deal's 4 cards go to the table (a re-audit was told only "until the stock is used
    up"); standard has no short deal and says nothing of one."""
    game = Game.new(load_rules("krypkasino"), 4, 6, True)
    keys = Tutorial.for_game(game)._keys(("deal.redeal", "deal.short_stock"))
    assert keys == ["deal.redeal", "deal.short_stock"]
    assert Tutorial.for_game(Game.new(load_rules("standard"), 4, 2))._keys(("deal.short_stock",)) == []


def test_south_african_one_build_a_player_says_a_build_made_for_you_is_yours() -> None:
    tutorial = Tutorial.for_game(Game.new(load_rules("south-african-casino"), 1, 4, True))
    assert "made or added to for your value by your partner counts here as yours" in \
        tutorial.clauses["build.one_per_player"]
    alone = Tutorial.for_game(Game.new(load_rules("south-african-casino"), 1, 2))
    assert "partner" not in alone.clauses["build.one_per_player"]
