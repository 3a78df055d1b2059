"""What the ``blind`` consumer of the matrix found (``cassino.apps.authors.blind``: an aid's words must not change when
the cards hidden from the seat to move are dealt again), each pinned at a written position."""

from __future__ import annotations

from cassino import Engine, Game, Position, load_rules, parse_move
from cassino.apps.authors import blind
from cassino.apps.learning.warnings import warnings_for


def test_a_warning_does_not_read_the_card_the_next_deal_lays_on_the_table() -> None:
    """Tuxedo with five players: the dealer's last card, 16 cards left, so the next deal gives three to each and lays
    the last (1R) on the table (``deal.short_stock: split_rest_to_table``). The warning said "this leaves a sweep:
    seat 3 may hold one of 9R, 9Y", of 3B 1R 8R 6Y (18 = 9 + 9), reading the 1R from the stock; dealt otherwise, it
    said nothing (a soak of drawn house rules, seed 9306). The mover cannot know that table: no warning of it."""
    engine = Engine(load_rules("tuxedo"))
    deck = engine.deck

    def cards(text: str) -> list:  # type: ignore[type-arg]
        return [deck.parse(name) for name in text.split()]

    stock = cards("5B 1G 6G 7B 2R 3G 9R 2G 3Y 3R 10G 4Y 6B 8Y 9Y 1R")
    hand, table = cards("10Y"), cards("3B 8R 10R 6Y")
    placed = {str(c) for c in stock + hand + table}
    state = engine.position(Position(players=5, hands={2: hand}, table=table, stock=stock, to_play=2, dealer=2,
                                     captured={0: [c for c in deck.cards if str(c) not in placed]}, last_capture=0))
    game = Game.at(engine, state)
    move = parse_move("10Y capture 10R", deck)
    after = engine.apply(state, move)
    assert deck.cards_of(after.table) == tuple(cards("3B 1R 8R 6Y")) and after.turn == 3
    assert warnings_for(game, move) == ()
    blind.check(game, move, seed=9306, deals=4)
