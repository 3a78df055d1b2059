"""Learning aids (import the submodule you need: each is independent): a review of a played game, a counting aid, warnings before a mistake, a tutorial.

People learn Casino by seeing what they missed. Each aid is a function of the engine's
public values (a :class:`~cassino.engine.game.Game`, a record) that returns plain,
frozen data with a ``to_json()``: the terminal draws it with rich (``apps/game/play.py``,
``cassino review``) and a browser page can draw the same values.

- :mod:`.review`: every move of the chosen seats valued by the solver (where the seat
  knows every card's place) or the search's sampled deals, the best move and the loss.
- :mod:`.counting`: what a seat can know has been played and won, and what is still open.
- :mod:`.warnings`: before a move, what it may leave to the next player.
- :mod:`.tutorial`: each rule's own rulebook sentence, the first time it applies.

Every aid reads only what the seat could know (its hand and the public cards), except
the review in a position where every card's place is known to the seat.
"""
