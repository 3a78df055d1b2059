"""A game played again at the terminal, every seat a person at one keyboard typing what was played: the
``terminal`` consumer of the matrix (:mod:`.matrix`).

The computer players' game is typed, action by action, into ``cassino play``'s own session (:class:`play.Session`,
as ``start_session`` opens it, every seat ``human``): each move by its number where the screen lists it, else in
the notation (the cards sometimes with the suit symbols the table shows), a turn of several actions sometimes as
one line joined by ``;``, a claim as ``claim`` or after the move (``MOVE claim``) and confirmed, the keyboard
passed with Enter, with the warnings (``--warn``) or the tutorial (``--tutorial``: each person's lessons, said on
their own screen) on as the caller asks; once, at an action drawn from the seed, the people type ``quit`` and the game is resumed from its
record as ``cassino play --resume`` resumes it. What is checked:

- the session plays the very game, resumed or not: its record's actions, in order, are the game's (a turn's ``end``
  the session plays for a hand that can build nothing more counts as typed);
- at every prompt of a seat to move, the screen since it was last cleared names no card hidden from that seat
  (the other hands, the stock; with two packs a name only where no copy of it is in sight);
- with the warnings on (``--warn``), a move warned about is confirmed (what a warning says is left to the ``blind``
  consumer: it names the unseen cards that may take what a move leaves, which is no leak where the words are the
  same whichever way those cards are dealt);
- nothing unexpected is asked (a prompt the replay does not know is a failure, not an endless loop).

A claim the terminal cannot type (made by a seat that neither moves now nor has just moved: a computer's claim
comes before anyone's move) ends the replay there; the actions up to it are still compared. An
:class:`AssertionError` says what went wrong, at which action.
"""

from __future__ import annotations

import io
import random
import re
import tempfile
from pathlib import Path
from typing import Any, Sequence

from rich.console import Console

from ...engine.game import Game
from ...engine.notation import format_move, parse_move
from ...errors import CassinoError
from ..game.play import CLEAR, MAX_LISTED, Aids, Session, start_session
from ..game.records import Record, RecordError, apply_action, load_game
from .blind import hidden_names, named

#: The most prompts a replay answers per recorded action (passes, confirmations): more is a loop.
PROMPTS_AN_ACTION = 8


class _Typist:
    """The person (people) at the keyboard: answers each prompt from the recorded actions."""

    def __init__(self, actions: list[str], rng: random.Random, out: io.StringIO) -> None:
        self.actions, self.rng, self.out = actions, rng, out
        self.session: Session | None = None   # (set once the session is opened)
        self.prompts = 0
        self.stopped_at: int | None = None   # the action the replay could not type (a claim), if any
        self.claim_pending = False
        #: The action before which the people at the keyboard type `quit` and the game is resumed from its record
        #: (``cassino play --resume``), or None; ``left`` once they have.
        self.quit_at: int | None = None
        self.left = False
        #: The action a move was last typed for, and the line: asked again with no action played, the session
        #: refused a line that spells the game's own move (a failure, not a retry).
        self.typed_at: tuple[int, str] | None = None

    def read(self, prompt: str) -> str:
        self.prompts += 1
        if self.prompts > PROMPTS_AN_ACTION * (len(self.actions) + 4):
            raise AssertionError(f"the session asked {self.prompts} questions for {len(self.actions)} actions; "
                                 f"the last: {prompt!r}")
        if prompt.startswith("Pass the keyboard") or prompt.startswith("press Enter"):
            return ""
        if prompt.startswith("claim now?"):
            if not self.claim_pending:
                raise AssertionError("the session asked to confirm a claim nobody typed")
            self.claim_pending = False
            return "yes"
        if prompt.startswith("play it anyway?"):
            return "y"
        match = re.fullmatch(r"seat (\d+)> ", prompt)
        if match is None:
            raise AssertionError(f"the session asked {prompt!r}, which a replay cannot answer")
        return self.move_for(int(match.group(1)))

    def move_for(self, seat: int) -> str:
        session = self.session
        assert session is not None
        game = session.game
        done = len(session.record.actions)
        deck = game.engine.deck
        self.hidden_check(game, seat)
        if done >= len(self.actions):
            # (the game's actions all typed, and a turn's end the session played after the last: it saves and
            # stops, as at the end of input; what it played is compared once it has)
            raise EOFError
        typed = session.record.actions
        if _same(deck, typed, self.actions[:done]) is not None:
            raise AssertionError(_differs(deck, typed, self.actions))
        if self.typed_at is not None and self.typed_at[0] == done:
            raise AssertionError(f"the session refused {self.typed_at[1]!r}, typed for action {done} "
                                 f"({self.actions[done]!r}): {self.out.getvalue()[-300:]!r}")
        self.typed_at = None
        if done == self.quit_at and not self.left:
            self.left = True
            return "quit"
        line = self.line_for(seat, game, done)
        if line != "quit":
            self.typed_at = (done, line)
        return line

    def line_for(self, seat: int, game: Game, done: int) -> str:
        """What the person types for the game's action ``done`` (``quit`` where a claim cannot be typed)."""
        session = self.session
        assert session is not None
        deck = game.engine.deck
        action = self.actions[done]
        if action.startswith("claim"):
            claimant = int(action.split()[1])
            if claimant != seat:
                self.stopped_at = done
                return "quit"
            self.claim_pending = True
            return "claim"
        if game.hand.turn != seat:
            raise AssertionError(f"seat {seat} is asked for a move where seat {game.hand.turn} is to play")
        nxt = self.actions[done + 1] if done + 1 < len(self.actions) else ""
        if nxt == f"claim {seat}":
            self.claim_pending = True
            return f"{self.spelt(action)} claim"
        turn = self.whole_turn(done, seat)
        if turn is not None and self.rng.random() < 0.5:
            return "; ".join(self.spelt(a) for a in turn)
        if action != "end" and self.rng.random() < 0.5:
            moves, _ = session.listed_moves(MAX_LISTED)
            key = game.engine.key_of(game.hand, parse_move(action, deck))
            for k, move in enumerate(moves, 1):
                if game.engine.key_of(game.hand, move) == key:
                    return str(k)
        return self.spelt(action)

    def whole_turn(self, done: int, seat: int) -> list[str] | None:
        """The actions from ``done`` that make one turn of several actions of ``seat`` (:func:`typed_turn`)."""
        session = self.session
        assert session is not None
        game = session.game
        return typed_turn(game, self.actions[done:]) if game.hand.turn == seat else None

    def spelt(self, action: str) -> str:
        """The action as a person may type it: the notation, its cards now and then with the suits' symbols."""
        session = self.session
        assert session is not None
        deck = session.game.engine.deck
        if self.rng.random() < 0.7:
            return action
        symbols = {s: sym for s, sym in zip(deck.suits, deck.suit_symbols) if sym and not sym.isalnum()}
        return re.sub(r"\b([0-9A-Za-z]+?)([A-Z])\b",
                      lambda m: m.group(1) + symbols.get(m.group(2), m.group(2)) if _is_card(deck, m.group(0))
                      else m.group(0), action)

    def hidden_check(self, game: Game, seat: int) -> None:
        """The screen since it was last cleared names no card hidden from ``seat``."""
        session = self.session
        assert session is not None
        screen = self.out.getvalue()
        if session.humans() > 1:
            cleared = screen.rfind(CLEAR)
            if cleared < 0:
                raise AssertionError(f"seat {seat} is asked to move on a screen never cleared")
            screen = screen[cleared:]
        else:
            return
        # (Words about the rules and the warnings of --warn name cards as such, not where they lie: the variant's
        # description names its scoring cards, the tutorial's rulebook sentences their examples (`build 10 on 5S 3D
        # 2C`), a warning the unseen cards that may take what a move leaves, which the ``blind`` consumer checks
        # read nothing hidden by dealing those cards again.)
        screen = screen.replace(game.rules.description, "")
        screen = "\n".join(_position_lines(screen))
        deck = game.engine.deck
        symbols = dict(zip(deck.suits, deck.suit_symbols))
        leaked = named((form for name in hidden_names(game, seat)
                        for form in (name, name[:-1] + symbols.get(name[-1], name[-1]))), screen)
        if leaked:
            raise AssertionError(f"seat {seat}'s screen at action {len(session.record.actions)} names hidden "
                                 f"cards {leaked}")


def _position_lines(screen: str) -> list[str]:
    """The screen's lines less the warnings (``warning: ...``) and the tutorial's lessons (``rule (heading): ...``
    and the lines of the same rule under it, indented), which are the rulebook's words, not the position's."""
    kept: list[str] = []
    lesson = False
    for line in screen.splitlines():
        if line.startswith(("rule (", "warning: ")):
            lesson = line.startswith("rule (")
            continue
        if lesson and line.startswith("  ") and not re.match(r"\s+\d+\. ", line):
            continue
        lesson = False
        kept.append(line)
    return kept


def _canonical(deck: Any, action: str) -> str:
    """An action as the notation writes it when read back (with two packs the same move whichever copies of its
    cards it names: the notation writes them in one order since this check found `2D capture 2C 2H` beside
    `2D capture 2H 2C`; compared so all the same, for records written before)."""
    try:
        return format_move(parse_move(action, deck), deck)
    except CassinoError:
        return action   # (a claim)


def _same(deck: Any, typed: list[str], actions: list[str]) -> int | None:
    """The first action at which ``typed`` differs from ``actions`` (also where one is longer), or None."""
    for k, (a, b) in enumerate(zip(typed, actions)):
        if a != b and _canonical(deck, a) != _canonical(deck, b):
            return k
    return None if len(typed) == len(actions) else min(len(typed), len(actions))


def _differs(deck: Any, typed: list[str], actions: list[str]) -> str:
    """Where the actions the session recorded first differ from the game's."""
    first = _same(deck, typed, actions)
    first = min(len(typed), len(actions)) if first is None else first
    return (f"typed at the terminal, action {first} became {typed[first] if first < len(typed) else 'nothing'!r} "
            f"where the game played {actions[first] if first < len(actions) else 'nothing'!r}")


def _is_card(deck: Any, word: str) -> bool:
    try:
        deck.parse(word)
    except CassinoError:   # (a word that is no card is left as it is)
        return False
    return True


def typed_turn(game: Game, actions: Sequence[str]) -> list[str] | None:
    """The first of ``actions`` (played from ``game``) that make one turn of several actions of the seat to play,
    ending in ``end``, as a person types them on one line (the terminal or the table then ends the turn itself),
    or None where they make no such turn. Followed on the game: a play that leaves nothing to build ends a turn by
    itself (the next seat's actions come before any `end`), and so does a play that ends the deal or the hand,
    though the same seat may lead the next (in Swazi Casino with two, the hand's last player leads the next
    hand: a soak typed the last card of one hand and the first turn of the next as one line)."""
    if not game.engine.free_actions:
        return None
    seat, where = game.hand.turn, (game.hand_no, game.hand.deal_no)
    turn: list[str] = []
    for action in actions:
        if action.startswith("claim") or game.over or game.hand.turn != seat \
                or (game.hand_no, game.hand.deal_no) != where:
            return None
        if action == "end":
            return turn if len(turn) >= 2 else None
        turn.append(action)
        game = apply_action(game, action)
    return None


def replay_at_the_terminal(record: Record, actions: list[str], seed: int, warn: bool, tutorial: bool = False) -> int:
    """Type ``actions`` (the game ``record`` deals, from its start) into a terminal session where every seat is a
    person; AssertionError where the session plays another game, asks what it should not, or shows a seat a card
    hidden from it. Returns how many actions were compared (fewer than all where a claim could not be typed)."""
    out = io.StringIO()
    rng = random.Random(seed)
    typist = _Typist(actions, rng, out)
    if len(actions) > 1:
        typist.quit_at = rng.randrange(1, len(actions))
    people = Record(record.rules, record.seed, record.players, record.partners, ["human"] * record.players,
                    source=record.source, aids=["warn"] if warn else [], taught={} if tutorial else None)
    console = Console(file=out, width=120, force_terminal=True, color_system=None, markup=False, highlight=False,
                      soft_wrap=True)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        session = start_session(people, path, console, read=typist.read, aids=Aids(warn=warn, tutorial=tutorial))
        typist.session = session
        code = session.run()
        if code == 0 and typist.left and typist.stopped_at is None and len(session.record.actions) == typist.quit_at:
            # `quit` typed: the game saved, and resumed from its record as `cassino play --resume` resumes it (the
            # aids it was played with kept), the people going on typing where they left off.
            try:
                again, _ = load_game(path)
            except RecordError as e:
                raise AssertionError(f"the game saved at `quit` after {typist.quit_at} actions cannot be resumed: "
                                     f"{e}") from None
            if (again.actions != session.record.actions or again.aids != session.record.aids
                    or (again.taught is None) != (session.record.taught is None)):
                raise AssertionError(f"the game saved at `quit` after {typist.quit_at} actions was resumed with "
                                     f"{len(again.actions)} actions and aids {again.aids}, where it had "
                                     f"{len(session.record.actions)} and {session.record.aids}")
            session = start_session(again, path, console, read=typist.read, aids=Aids.of(again))
            typist.session = session
            code = session.run()
    if code != 0:
        raise AssertionError(f"the session ended with exit {code}:\n{out.getvalue()[-2000:]}")
    typed = session.record.actions
    compared = len(actions) if typist.stopped_at is None else typist.stopped_at
    deck = session.game.engine.deck
    if _same(deck, typed[:compared], actions[:compared]) is not None:
        raise AssertionError(_differs(deck, typed, actions[:compared]))
    # (Past the game's last action only what the session plays for a person: a turn's `end` where the hand can build
    # nothing more, the game's record having stopped in the middle of that turn.)
    if typist.stopped_at is None and (len(typed) < len(actions) or any(a != "end" for a in typed[len(actions):])):
        raise AssertionError(f"the terminal played {len(typed)} actions where the game played {len(actions)}: "
                             f"{typed[len(actions):]}")
    return compared
