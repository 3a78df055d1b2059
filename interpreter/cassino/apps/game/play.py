"""`cassino play`: a game in the terminal against the computer, or several people at one keyboard.

The screen shows the table's loose cards and builds (value, single or multiple,
owner), the player's hand, scores, the stock, whose turn it is, each player's
last move this hand and the sweeps; at the end of every hand, what each side
scored item by item (``summary``). The player types a move's number or the move
in notation, or a command: help, how, rules, hint, undo, save (or save FILE), claim (asked to
confirm: a claim ends the game), quit. Several people at one keyboard pass it
on: the screen is cleared and each hand shown only once its player is ready. Bad input
gets a one-line reason and the same prompt, and never changes the game. Every
action is written to the game record at once (atomically), and Ctrl-C or the
end of input saves before leaving.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import signal
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from rich.console import Console
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from ...engine.game import Game
from ...engine.moves import Move, MoveKind
from ...engine.notation import cards_text, format_move, max_move_length, parse_move
from ...errors import CassinoError, printable
from ...language.rulebook import card_name
from ...players.bots import Bot
from .howto import claiming, how_to_play
from ..learning.counting import count_for
from ..learning.show import show_count
from ..learning.tutorial import AFTERWARDS, EVENTS, Lesson, Tutorial, grouped, listed
from ..learning.warnings import warnings_for
from .move_examples import examples_text
from ...files import Busy, Held, hold
from .records import Record, RecordError, apply_action, claim_path
from .session import Acted, GameSession, NotAMove
from .said import claim_hinted, claim_words, deal_began, deal_words, sweep_words
from .summary import (HandSummary, builds_in_place, hand_summary, how_ended, lurch_words, pile_seat, side_name,
                      side_seats, target_word, unfinished_hand)

#: Moves numbered on screen at most (more are counted, and can be typed).
MAX_LISTED = 36
#: The most moves ``moves ...`` numbers at once (the rest are narrowed by naming another card or a kind).
MAX_MATCHING = 60

STYLE = {"R": "red", "Y": "yellow", "G": "green", "B": "bold", "H": "red", "D": "red"}

#: Homes the cursor, erases the screen, then, where the terminal keeps one, its scrollback: in that order, as
#: `clear` writes it (a hot-seat audit in tmux: the scrollback erased first, the screen's erasing then pushed the last
#: person's hand back into it, to be scrolled up to).
CLEAR = "\x1b[H\x1b[2J\x1b[3J"


@dataclass(frozen=True)
class Aids:
    """The learning aids a game is played with (``apps/learning``): all off unless asked for."""

    count: bool = False       # the counting aid under every human turn
    warn: bool = False        # warnings before a move that may give something away, with a take-back
    tutorial: bool = False    # each rule's rulebook sentence the first time it applies

    @classmethod
    def of(cls, record: Record, count: bool = False, warn: bool = False, tutorial: bool = False) -> "Aids":
        """The aids asked for, and those ``record`` says its game was played with (``Record.aids``; the tutorial
        where it keeps what was taught, ``Record.taught``): a resumed game keeps its aids, and an aid asked for
        at resume is turned on as well."""
        return cls(count=count or "count" in record.aids, warn=warn or "warn" in record.aids,
                   tutorial=tutorial or record.taught is not None)


#: The signals that end a game at the terminal besides Ctrl-C: ``kill``'s, and the terminal's closing.
_STOPPING: tuple[signal.Signals, ...] = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                                              if hasattr(signal, name))


@contextmanager
def _uninterrupted() -> Iterator[None]:
    """Ctrl-C (SIGINT), SIGTERM and SIGHUP held back for the length of the block and delivered at its end, where
    the system can hold a signal back (POSIX); elsewhere the block is simply run."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = block(signal.SIG_BLOCK, {signal.SIGINT, *_STOPPING})
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, old)


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP (a ``kill``, the terminal closed) taken as Ctrl-C is, so that the game is saved, and its
    files tidied, before the process ends: by default these signals end it at once, and an audit found the record's
    lock (``.NAME.lock``) and a half-written copy (``.cassino-XXXX.tmp``) left beside it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextmanager
def _stopped_as_interrupted() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Stopped` for the length of the block (in the main thread; a signal set to
    be ignored, as `nohup` does, stays ignored)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: object) -> None:
        raise Stopped(signum)

    previous: dict[signal.Signals, Any] = {}
    for sig in _STOPPING:
        try:
            if signal.getsignal(sig) is not signal.SIG_IGN:
                previous[sig] = signal.signal(sig, stop)
        except (OSError, ValueError):
            pass
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


#: What a person types to leave the game (saved first), at their turn or at a screen that waits for Enter.
QUIT_WORDS: frozenset[str] = frozenset({"quit", "exit", "q"})
#: The commands typed at the prompt, for a close match to a misspelt one.
COMMAND_WORDS: tuple[str, ...] = ("help", "how", "rules", "count", "moves", "save", "hint", "undo", "claim", "quit")
#: The commands typed alone (``moves`` and ``save`` take words after them).
BARE_COMMANDS: frozenset[str] = frozenset(COMMAND_WORDS) - {"moves", "save"}
#: Words a player may type to end a turn of several actions, which the game writes `end`.
ENDING_WORDS: frozenset[str] = frozenset({"done", "pass", "e", "finish", "next", "stop", "end turn"})


def shown_text(text: str) -> str:
    """Typed text quoted back in a message: control characters escaped, a long one cut."""
    quoted = repr(text if len(text) <= 60 else text[:50] + "...")
    # (a byte the terminal's encoding could not read comes as a lone surrogate: shown as the byte it was)
    quoted = re.sub(r"\\udc([89a-f][0-9a-f])", r"\\x\1", quoted)
    return printable(quoted)


def read_line(prompt: str) -> str:
    """The player's next line: ``input`` looked up when called (so a patched ``input`` is used)."""
    return input(prompt)


def _tutorials(record: Record, game: Game) -> dict[int, Tutorial]:
    """Each person's tutorial, by human seat: as the record says it stood (``Record.taught``: a resumed game
    teaches nothing again, where a re-attack saw six lessons taught a second time), else fresh."""
    fresh = Tutorial.for_game(game)
    taught = record.taught or {}
    people = [seat for seat, kind in enumerate(record.seats) if kind == "human"]
    if not people:   # (a game watched: the watcher's tutorial, seat -1, taught the game's events; not recorded)
        return {-1: fresh}
    return {seat: replace(fresh, shown=frozenset(taught.get(seat, ()))) for seat in people}


class Session(GameSession):
    """One game at the terminal: the shared game session, drawn with rich and driven by typed lines."""

    def __init__(self, game: Game, record: Record, bots: dict[int, Bot], save_path: Path, console: Console,
                 read: Callable[[str], str] = read_line, aids: Aids = Aids()) -> None:
        super().__init__(game, record, bots, save_path)
        self.console = console
        self.read = read
        self.aids = aids
        # The aids kept in the record, so that the game resumed has them again (``Record.aids``, ``Record.taught``).
        record.aids = list(dict.fromkeys(record.aids + [name for name, on in (("count", aids.count),
                                                                               ("warn", aids.warn)) if on]))
        if aids.tutorial and record.taught is None:
            record.taught = {}
        #: Tutorial mode: each person's own tutorial, by seat (several people at one keyboard each learn what
        #: they meet: the screen is cleared between them), as the record kept them (``Record.taught``).
        self.tutorials: dict[int, Tutorial] = _tutorials(record, game) if aids.tutorial else {}
        #: Several people at one keyboard: what was said since the keyboard was last passed (every move played,
        #: a new deal's banner, the lessons of the game's moves and events, a hand's scoring). Before the screen
        #: is cleared for the next person it is said again where everyone may look (no hand on it): moves alone
        #: on the pass screen, which stays above the next hand; lessons and scorings waited for, so that each
        #: person reads what the game's events taught them, and nobody sees another's cards.
        self.unread: list[tuple[Lesson, ...] | HandSummary | str] = []
        #: A word to the person at the keyboard about their own hand (their turn ended for them), which they
        #: read before the screen is cleared, and nobody else sees again.
        self.private_note = False
        #: The human seat whose hand is on the screen now (several people at one keyboard hand it on).
        self.shown_to: int | None = None
        #: The last hint given, with the position it was for (hand, ply): a warning of that very move says so.
        self.hinted: tuple[int, int, Move] | None = None
        #: The deal whose banner was last shown (hand, deal): a new one is said when play reaches it.
        self.shown_deal: tuple[int, int] | None = None
        #: The deal whose cards the dealer took as dealt has been said (``say_taken_at_the_deal``: once, under its banner).
        self.said_deal: tuple[int, int] | None = None
        #: The tutorial's lessons of the deal's own doing (the dealer's take), said after its words (``held``).
        self.deal_lessons: tuple[Lesson, ...] = ()
        #: The last ``moves ...`` listing (hand, ply, its words) and where its next page starts.
        self.paged: tuple[tuple[int, int, tuple[str, ...]], int] | None = None
        #: The locks on the files the game moved to (``save FILE``), held while it plays and released when it
        #: ends; the file it started in is held by the caller until then.
        self.moved_to: list[Held] = []

    # ------------------------------------------------------------------ drawing
    def card(self, name: str) -> Text:
        deck = self.game.engine.deck
        suit = name[-1]
        rank = name[:-1]
        symbol = dict(zip(deck.suits, deck.suit_symbols)).get(suit, suit)
        return Text(f"{rank}{symbol}", style=STYLE.get(suit, ""))

    def cards(self, mask: int) -> Text:
        out = Text()
        for k, name in enumerate(cards_text(self.game.engine.deck, mask)):
            if k:
                out.append(" ")
            out.append_text(self.card(name))
        return out

    def seat_name(self, seat: int) -> str:
        who = self.record.seats[seat] if 0 <= seat < len(self.record.seats) else "?"
        return f"seat {seat} ({'you' if who == 'human' and self.humans() == 1 else who})"

    def side_name(self, side: int) -> str:
        return side_name(side_seats(self.game.hand.teams)[side])

    def partner_mark(self, seat: int) -> str:
        """`` your partner`` beside the seat of the one person's partner (a player's audit of six players in
        partnerships found them named only in the opening line)."""
        humans = [k for k, kind in enumerate(self.record.seats) if kind == "human"]
        teams = self.game.hand.teams
        if len(humans) != 1 or seat == humans[0] or teams[seat] != teams[humans[0]]:
            return ""
        return ", your partner"

    def scores_words(self) -> str:
        """``scores seat 0: 3  seat 1: 5 (target 11)``: where points are pegged as won, the score as it stands, this
        hand's points in it (a game that ends within a hand ends on these, which the game's scores alone left out
        until the hand was scored)."""
        g = self.game
        standing = g.standing()
        pegged = g.rules.scoring.when == "as_won" and standing != g.scores
        scores = "  ".join(f"{self.side_name(s)}: {standing[s]}" for s in range(len(standing)))
        if pegged:
            scores += " (with this hand's points pegged so far)"
        limit = target_word(g.rules.game.goal == "lowest")
        target = f" ({limit} {g.target})" if g.target is not None else " (one hand)"
        return f"scores {scores}{target}"

    def show_table(self) -> None:
        """Scores, the table and what each player holds and has taken (no hand shown)."""
        g, h = self.game, self.game.hand
        c = self.console
        c.rule(self.banner())
        c.print(f"{self.scores_words()}   stock: {len(h.stock)} cards   dealer: seat {h.dealer}")
        self.say_taken_at_the_deal()   # (under the deal's banner, whoever leads: a re-attack saw it above)
        table = Table(show_header=False, box=None, padding=(0, 1))
        # (no loose card but builds: "(empty)" above them read as if the table were bare, an audit's Swazi game)
        bare = "(empty)" if not h.builds else "(no loose cards)"
        table.add_row("table", self.cards(h.table) if h.table else Text(bare, style="dim"))
        for b in builds_in_place(g):   # (where each was made: the state lists a build that changes last)
            kind = "multiple" if b.multiple else "single"
            line = self.cards(b.cards)
            # (built for a partner, or added to by one: a player's audit read "owner seat 2, held by seat 0" beside
            # "you own the build" said to seat 0; the one to take it is who the rules' one build a player means)
            whose = (f"owner seat {b.owner}" if b.holder == b.owner
                     else f"seat {b.holder}'s to take, seat {b.owner} added last")
            line.append(f"   build of {b.value}, {kind}, {whose} "
                        f"(type it [{' '.join(cards_text(g.engine.deck, b.cards))}])", style="cyan")
            table.add_row("", line)
        c.print(table)
        for s in range(h.players):
            sweeps = sum(1 for w in h.sweeps if w.seat == s and not w.cancelled)
            last = self.last_moves.get(s, "")
            extra = f"  sweeps: {sweeps}" if sweeps else ""
            held = bin(h.hands[s]).count("1")
            line = Text(f"  {self.seat_name(s)}{self.partner_mark(s)}: {held} card{'s' if held != 1 else ''}, "
                        f"{bin(h.piles[s]).count('1')} taken{extra}")
            if pile_seat(h, h.teams[s]) == s:
                # African Casino: the side's face-up pile top, at the seat that took it, in play for the other
                # sides; where a move may reach under it (capture.pile_cards: augment), the cards it may reach.
                stack = h.stacks[h.teams[s]]
                # (partners share one pile, shown at whichever of them captured last: said as the side's, as a
                # player's audit found their own captures under the partner's name)
                shared = h.teams.count(h.teams[s]) > 1
                line.append(f"   pile top ({self.side_name(h.teams[s])}): " if shared else "   pile top: ")
                line.append_text(self.card(cards_text(g.engine.deck, 1 << stack[-1])[0]))
                under = list(reversed(stack[-h.pile_reach:-1])) if h.pile_reach > 1 else []
                if under:
                    line.append(", then under it: ")
                    for k, i in enumerate(under):
                        if k:
                            line.append(" ")
                        line.append_text(self.card(cards_text(g.engine.deck, 1 << i)[0]))
            if last:
                line.append(f"   last: {last}")
            c.print(line)

    def show(self, seat: int) -> None:
        self.show_table()
        h = self.game.hand
        hand = Text("your hand: ")
        hand.append_text(self.cards(h.hands[seat]))
        hand.append(f"   (typed {' '.join(cards_text(self.game.engine.deck, h.hands[seat]))})", style="dim")
        self.console.print(hand)
        if h.turn_card and h.turn == seat:
            # A turn of several actions (build.free_actions) after its card from the hand.
            self.console.print(f"your turn goes on: you played {' '.join(cards_text(self.game.engine.deck, h.turn_card))}"
                               f" from your hand; build with cards in play, or type end", highlight=False)

        if self.aids.count:
            show_count(count_for(self.game, seat), self.console)

    def listed_moves(self, limit: int = MAX_LISTED) -> tuple[list[Move], int]:
        """The moves numbered on screen (``GameSession.listed_moves``), and how many there are in all."""
        return super().listed_moves(limit)

    def list_moves(self, moves: list[Move], total: int, narrowed: bool = False, first: int = 1,
                   again: str = "moves") -> None:
        """The moves numbered to choose from, and how many more there are (``narrowed``: those ``moves ...``
        found, narrowed by cards and kinds, the ``first``-th of them on: ``again``, typed again, shows the next
        ones; or narrow them further, or type one)."""
        deck = self.game.engine.deck
        for k, m in enumerate(moves, first):
            self.console.print(f"  {k:>2}. {format_move(m, deck)}", highlight=False)
        if narrowed:
            if total > len(moves):
                last = first + len(moves) - 1
                nxt = "the next ones" if last < total else "the first ones again"
                self.console.print(f"  ... {first}-{last} of these {total}: {again} again shows {nxt}; name another card "
                                   f"or a kind (capture, build, trail) to narrow them, or type the move",
                                   highlight=False)
            return
        if total < 0:
            self.console.print(f"  ... and more legal moves than the computer lists (over "
                               f"{self.game.engine.move_budget:,}): type any of them in notation (help shows how)",
                               highlight=False)
        elif total > len(moves):
            hand = self.game.hand   # (after the turn's hand card, a turn builds with cards in play: a table card then)
            shown = hand.table & ~hand.turn_card if hand.turn_card else hand.hands[hand.turn]
            card = (cards_text(deck, shown) or ["10S"])[0]
            self.console.print(f"  ... {total - len(moves)} more legal moves, {total} in all: type any of them "
                               f"in notation, or list those with a card: moves {card} (help shows how)", highlight=False)

    def show_summary(self, summary: HandSummary) -> None:
        show_summary(self.console, summary, self.seat_name)

    def act(self, action: str, *, said: str | None = None, forced: bool = False) -> Acted:
        """Apply, record and save an action (``GameSession.act``), then say ``said`` (a computer's move)
        and show the scoring of a hand it ended. ``forced``: an action the game plays for the player (the
        end of a turn with nothing left to build), which the tutorial does not take for the player's own:
        it teaches only what happens to the game after it, not a rule that decided it.

        The record is written before the move is shown, and Ctrl-C waits until both are done: a
        move shown is a move recorded. (Shown first, a Ctrl-C in between left the move out of the
        record, and the resumed game showed it a second time.)
        """
        before = self.game
        move = None if action.startswith("claim") else parse_move(action, before.engine.deck)
        swept = self.sweep_words(before, move) if move is not None else ""
        if swept and said is None:   # (a person's own move is said only where it swept: what it scored is news)
            said = f"{self.seat_name(before.hand.turn)} plays {action}"
        said = f"{said}: {swept}" if swept and said is not None else said
        with _uninterrupted():
            acted = super().act(action)
            if move is None and action.startswith("claim "):   # (a claim said as it is made, and how it stood)
                said = claim_words(before, self.game, int(action.split()[1]), self.seat_name, self.side_name)
            if said is not None:
                self.console.print(said, highlight=False)
        if self.humans() > 1:   # (said again when the keyboard passes: a person's move too, for the others)
            self.unread.append(said if said is not None else
                               f"{self.seat_name(int(action.split()[1]))} claims" if action.startswith("claim ")
                               else f"{self.seat_name(before.hand.turn)} plays {action}")
        lessons: tuple[Lesson, ...] = ()
        if self.tutorials:
            taught: dict[str, Lesson] = {}
            for seat, tutorial in self.tutorials.items():   # (another's move is not "you": its events only)
                self.tutorials[seat], more = tutorial.after(before, move, self.game,
                                                            own=seat == before.hand.turn and not forced, seat=seat)
                taught.update((lesson.key, lesson) for lesson in more)   # (on the one screen once)
            lessons = tuple(taught.values())
        # What the move did is taught beside the move (a sweep too), before a hand it ended is scored; what
        # happened to the game after the scoring; the dealer's take of the next hand's table under that deal's
        # banner, after the cards it took are said (``say_taken_at_the_deal``).
        self.teach(tuple(lesson for lesson in lessons if lesson.topic not in AFTERWARDS))
        if acted.summary is not None:
            self.show_summary(acted.summary)
            if self.humans() > 1:   # (the scoring read by everyone before the screen is cleared, and the next
                self.unread.append(acted.summary)   # hand's first player passes the keyboard even to themselves)
                self.shown_to = None
        self.teach(self.held(tuple(lesson for lesson in lessons if lesson.topic in AFTERWARDS)))
        return acted

    def held(self, lessons: tuple[Lesson, ...]) -> tuple[Lesson, ...]:
        """``lessons`` less those that wait for the deal's words (the dealer's take), which are kept for
        ``say_taken_at_the_deal``."""
        self.deal_lessons += tuple(lesson for lesson in lessons if lesson.topic == "dealer's take")
        return tuple(lesson for lesson in lessons if lesson.topic != "dealer's take")

    def sweep_words(self, before: Game, move: Move) -> str:
        """What ``move`` swept, said in its report line with what it scores, to whom (``said.sweep_words``, the
        browser's words too); "" for none."""
        return sweep_words(before, move, self.seat_name, self.side_name)

    def teach(self, lessons: tuple[Lesson, ...]) -> None:
        """Tutorial mode: the rulebook's sentences for what just happened, each shown once a game."""
        self._say(lessons)
        if lessons and self.humans() > 1:
            self.unread.append(lessons)

    def say(self, text: str) -> None:
        """A public line (a new deal's banner, the dealer's take), said again when the keyboard passes."""
        self.console.print(text, highlight=False)
        if self.humans() > 1:
            self.unread.append(text)

    def say_again(self) -> bool:
        """Several people at one keyboard: the screen cleared and what was said since the keyboard was last
        passed said again (``unread``), with no hand on the screen. True where it should be waited for before
        the screen is cleared again (lessons or a hand's scoring: moves alone stay on the pass screen)."""
        self._clear()
        for said in self.unread:
            if isinstance(said, HandSummary):
                self.show_summary(said)
            elif isinstance(said, str):
                self.console.print(said, highlight=False)
            else:
                self._say(said)
        wait = any(not isinstance(said, str) for said in self.unread)
        # The moves since the last hand's scoring, said again on the pass screen once the read screen is
        # cleared (a re-attack: a computer's first moves of a new hand were not above the next hand shown).
        last = max((k for k, said in enumerate(self.unread) if isinstance(said, HandSummary)), default=-1)
        self.unread = [said for said in self.unread[last + 1:] if isinstance(said, str)] if wait else []
        return wait

    def _say(self, lessons: tuple[Lesson, ...]) -> None:
        # (one rule's sentences under its heading once, a list's items indented under the sentence opening it)
        for group in grouped(lessons):
            lines = [f"rule ({group[0].heading}): {group[0].text}"]
            lines += [("    - " if item else "  ") + lesson.text for lesson, item in zip(group[1:], listed(group)[1:])]
            self.console.print("\n".join(lines), style="magenta", highlight=False)

    def confirmed(self, move: Move) -> bool | None:
        """With --warn: say what ``move`` may give away and ask; True to play it, False to take it
        back, None at the end of input. True at once when there is nothing to warn about."""
        if not self.aids.warn:
            return True
        hinted = self.hinted[2] if self.hinted and self.hinted[:2] == (self.game.hand_no, self.game.hand.ply) else None
        found = warnings_for(self.game, move, hinted)
        if not found:
            return True
        for w in found:
            self.console.print(f"warning: {w.text}", style="yellow", highlight=False)
        try:
            answer = self.read("play it anyway? (y/N) ")
        except EOFError:
            return None
        return answer.strip().lower() in ("y", "yes")

    def claim_words(self) -> str:
        """What a claim is and costs at this table ("" where the variant has no claiming)."""
        return claiming(self.game.rules, self.game.target, len(self.game.scores))

    def help_text(self) -> str:
        """How to type moves and commands, with example moves this variant allows (checked by the engine)."""
        lines = ["Type the number of a move, or the move itself, for example:",
                 examples_text(self.game.rules),
                 f"Cards are typed rank then suit letter: {self.typing()}.",
                 "Commands: help, how (how to play, in short), rules (this variant's full rulebook, as "
                 "`cassino rules` prints it), hint (what the computer would play), "
                 + ("undo (take back your last move, against computer players), " if self.humans() == 1 else "")
                 + "count (the counting aid: what has been seen and won, what "
                 f"is still open), moves (every legal move; {self.moves_examples()}: narrowed by cards and kinds, "
                 "numbered to choose from), "
                 "save (save FILE: keep the game in a new file from now on), "
                 + ("claim (see below), " if self.game.rules.game.claiming else "")
                 + "quit (saves first; `cassino play --resume FILE` continues)."]
        if self.game.engine.free_actions:
            lines.append("A turn holds one card from your hand and, before or after it, any builds of cards in play "
                         "alone (`build 10 on 5S 3D 2C`, no card first); once the hand card is played, `end` ends the "
                         "turn. Type one action at a time, or a whole turn joined by `;`: `build 10 on 5S 3D 2C; 9D "
                         "capture 9C`." + (" Undo takes back one action." if self.humans() == 1 else
                                           " Undo takes back an action of your turn while it goes on."))
        claim = self.claim_words()
        if claim:
            lines.append(f"{claim[:1].upper()}{claim[1:]}")
        return "\n".join(lines)

    def moves_examples(self) -> str:
        """``moves ...`` as help shows it, with a card of this game's deck and a kind of move it has (a player's
        audit read "moves 10S: those with the 10 of spades" in Tuxedo, whose deck has no spades, and "moves
        build" in Hungarian, which has no building)."""
        rules = self.game.rules
        deck = self.game.engine.deck
        tens = [str(card) for card in deck.cards if card.rank == "10"]
        card = tens[0] if tens else str(deck.cards[-1])
        kind = "build" if rules.build.allowed else "capture"
        return (f"moves {card}: those with the {card_name(rules, card)}, moves {kind}, "
                f"moves {card} {'capture' if kind == 'build' else 'trail'}")

    def seating(self) -> str:
        """Who sits where: ``seats: seat 0 you; seat 1 computer (search)``, and the teams."""
        people = self.humans()
        words = []
        for seat, kind in enumerate(self.record.seats):
            if kind == "human":
                words.append(f"seat {seat} {'you' if people == 1 else 'a person at this keyboard'}")
            else:
                words.append(f"seat {seat} computer ({kind})")
        teams = list(side_seats(self.game.hand.teams).values())
        text = "seats: " + "; ".join(words)
        if any(len(t) > 1 for t in teams):
            text += "; partners: " + " against ".join("+".join(map(str, t)) for t in teams)
        players = len(self.record.seats)
        if players > 2:
            # (the order of play, where it is not plain: seats are numbered clockwise, and play to the right goes
            # 0, 3, 2, 1; a player's audit of Scopone read the descending turns as a fault)
            order, seat = [0], 0
            for _ in range(players - 1):
                seat = self.game.engine.next_seat(seat, players)
                order.append(seat)
            side = "right" if self.game.rules.seats.direction == "counterclockwise" else "left"
            # (as a round, whoever leads: "seat 0, 3, 2, 1" read as if seat 0 played first, a re-audit)
            text += f"; play passes to the {side}, round the table: {' → '.join(map(str, order + [0]))}"
        return text

    def pass_to(self, seat: int) -> bool:
        """Several people at one keyboard: clear the screen, and show ``seat``'s hand only once they are ready.

        False when the input ends (the game is saved first)."""
        console = self.console

        def wait(prompt: str) -> bool:
            """Enter read; False where `quit` was typed instead (a re-attack saw it taken as Enter)."""
            return self.read(prompt).strip().lower() not in QUIT_WORDS

        try:
            if self.private_note:   # (a word to the last player about their hand: read before anything else)
                if not wait("press Enter once you have read that: the keyboard is then passed on "):
                    return self.saved_at_quit()
                self.private_note = False
            if not self.unread:
                self._clear()
            elif self.say_again():   # (with no hand on the screen, and read before it is cleared)
                if not wait("press Enter when everyone has read the above: the screen is cleared for the next "
                            "player "):
                    return self.saved_at_quit()
                self._clear()
                for said in self.unread:   # (the moves since the scoring: above the next hand)
                    self.console.print(said, highlight=False)
                self.unread = []
            if not wait(f"Pass the keyboard to seat {seat}: press Enter when ready (the others look away) "):
                return self.saved_at_quit()
        except EOFError:
            self.save()
            console.print(f"\nend of input: game saved to {self.save_path}; "
                          f"continue with: {self.resume_command()}")
            return False
        self.shown_to = seat
        return True

    def saved_at_quit(self) -> bool:
        """`quit` typed: the game saved, and how to go on said (False: the session stops)."""
        self.save()
        self.console.print(f"game saved to {self.save_path}; continue with: {self.resume_command()}")
        return False

    def _clear(self) -> None:
        """The screen cleared (a rule across it where the output is not a terminal)."""
        if self.console.is_terminal:
            self.console.file.write(CLEAR)
            self.console.file.flush()
        else:
            self.console.rule()

    def confirm_claim(self) -> bool | None:
        """Say what a claim is and costs, and ask; True to claim, False to play on, None at the end of input."""
        self.console.print(self.claim_words())
        try:
            answer = self.read("claim now? type yes to claim, anything else to play on: ")
        except EOFError:
            return None
        return answer.strip().lower() in ("yes", "y")

    # ------------------------------------------------------------------ turns
    def longest_line(self) -> int:
        """The longest line read at the prompt: the longest move of this deck (commands are shorter).

        Checked before the line is looked at any further: a 9 MB line took the move parser 78 s and 2 GB.
        """
        return max_move_length(self.game.engine.deck)

    def human_turn(self, seat: int) -> bool:
        """One human decision; False when the player quits."""
        if self.humans() > 1 and self.shown_to != seat and not self.pass_to(seat):
            return False
        moves, total = self.listed_moves()
        first = 1   # (the number of the first move listed: a later page of `moves ...` goes on from its own)
        deck = self.game.engine.deck
        if total == 1 and moves[0].kind is MoveKind.END:
            # (A turn of several actions whose hand can build nothing more: no question to ask the player.)
            self.end_for_the_player()
            return True
        self.show(seat)
        self.list_moves(moves, total)
        if seat in self.tutorials:   # a rule that limits this choice, said before it is made
            self.tutorials[seat], lessons = self.tutorials[seat].before(self.game)
            self.teach(lessons)
        while True:
            try:
                text = self.read(f"seat {seat}> ").strip()
                # (read by the person who answered; what the game's events taught is kept for the others)
                self.unread = [said for said in self.unread if not isinstance(said, tuple)
                               or any(lesson.topic in EVENTS for lesson in said)]
            except EOFError:
                self.save()
                self.console.print(f"\nend of input: game saved to {self.save_path}; "
                                   f"continue with: {self.resume_command()}")
                return False
            if not text:
                continue
            if len(text) > self.longest_line():
                self.console.print(f"that line is {len(text):,} characters: a move or command is at most "
                                   f"{self.longest_line():,} (a move naming every card of the deck); type it again")
                continue
            word = text.lower()
            if word in QUIT_WORDS:
                return self.saved_at_quit()
            if word in ("help", "?", "h"):
                self.console.print(self.help_text())
                continue
            if word == "how":
                self.console.print(how_to_play(self.game.rules), highlight=False)
                continue
            if word == "rules":
                self.console.print(self.rulebook(), markup=False, highlight=False)
                continue
            if word == "count":
                show_count(count_for(self.game, seat), self.console)
                continue
            if word == "moves" or word.startswith(("moves ", "moves\t")):
                # (The moves a crowded table has, narrowed by the cards and kinds named: their numbers then
                # choose from this list, which a player can read, not from a sample of thousands.)
                # The same words again at the same position: the next page of the list (from the start after
                # the last; an audit read "60 at a time" and got the same 60 again).
                words = tuple(text.split()[1:])
                where = (self.game.hand_no, self.game.hand.ply, tuple(w.lower() for w in words))   # (any case)
                start = self.paged[1] if self.paged is not None and self.paged[0] == where else 0
                try:
                    found, matching = self.matching_moves(list(words), MAX_MATCHING, start)
                    if not found and start:   # (past the end: from the start again)
                        start = 0
                        found, matching = self.matching_moves(list(words), MAX_MATCHING, start)
                except CassinoError as e:
                    self.console.print(str(e), highlight=False)
                    continue
                if not found:
                    named = " ".join(text.split()[1:])
                    self.console.print(f"no legal move {'names ' + named if named else 'here'}: type moves for every "
                                       f"one, or help", highlight=False)
                    continue
                moves, first = found, start + 1     # (numbered on from the pages before: 61, 62, ...)
                self.paged = (where, start + len(found))
                self.list_moves(found, matching, narrowed=True, first=start + 1, again=" ".join(("moves",) + words))
                continue
            if word == "save":
                self.save()
                self.console.print(f"saved to {self.save_path}")
                continue
            if word.startswith("save ") or word.startswith("save\t"):
                self.save_to(text[5:])
                continue
            if word == "hint":
                now, after = claim_hinted(self.game)
                if self.claim_hint(seat):   # (what the computer would do: claim the game it has won)
                    self.console.print(f"hint: claim: {now}", highlight=False)
                    continue
                hinted = self.hint(seat)
                self.hinted = (self.game.hand_no, self.game.hand.ply, hinted)
                typed = format_move(hinted, deck)
                if self.claim_hint(seat, hinted):
                    self.console.print(f"hint: {typed}, then claim at once (type `{typed} claim`): {after}",
                                       highlight=False)
                    continue
                self.console.print(f"hint: {typed}")
                continue
            if word == "undo":
                try:
                    self.undo(seat)
                except CassinoError as e:
                    self.console.print(str(e))
                    continue
                self.console.print("took back your last move")
                return True
            if word == "claim":
                if not self.game.rules.game.claiming:
                    self.console.print("there is no claiming in this game: play on to the end of the hand")
                    continue
                sure = self.confirm_claim()
                if sure is None:
                    return self.saved_at_end_of_input("no claim made")
                if not sure:
                    self.console.print("no claim: play on")
                    continue
                try:
                    self.claim(seat)
                except CassinoError as e:
                    self.console.print(str(e))
                    continue
                return True
            # A move with `claim` after it: the claim made as soon as the move is, before the next player plays (a
            # player's audit of Hungarian: a capture reaching 11, then the computer's reply reaching it too, and the
            # computer claimed first, the person never given a prompt in between).
            then_claim = self.game.rules.game.claiming and len(text.split()) > 1 and text.split()[-1].lower() == "claim"
            if then_claim:
                text = text.rsplit(None, 1)[0]
            if text.isdecimal():
                k = int(text)
                if not first <= k < first + len(moves):
                    self.console.print(f"there is no move {k}: choose {first} to {first + len(moves) - 1}")
                    continue
                move = moves[k - first]
            elif ";" in text:
                # A whole turn of several actions: each checked, then played one after another, and the turn
                # ended where its card from the hand was played (one action at a time is `undo`ne).
                try:
                    steps = self.read_turn(text)
                except CassinoError as e:
                    self.console.print(str(e))
                    continue
                for step in steps:
                    self.act(format_move(step, deck))
                if self.typed_turn_open(seat):
                    self.end_typed_turn()
                return True
            else:
                try:
                    move = self.read_move(text)
                except NotAMove:
                    near = self.meant(text, moves)
                    self.console.print(f"{shown_text(text)} is not a move or a command{near}: type a move's number, a "
                                       f"move such as `{format_move(moves[0], deck)}`, or help")
                    continue
                except CassinoError as e:
                    self.console.print(str(e))
                    continue
            sure = self.confirmed(move)
            if sure is None:
                return self.saved_at_end_of_input("the move was not made")
            if not sure:
                self.console.print("taken back: choose another move")
                continue
            self.act(format_move(move, deck))
            if then_claim and not self.game.over:
                # (the score after the move, which the claim is about: a players' re-audit claimed on the line shown
                # before the move, and lost)
                self.console.print(f"after your move: {self.scores_words()}", highlight=False)
                claim = self.confirm_claim()
                if claim is None:
                    return self.saved_at_end_of_input("no claim made")
                if claim:
                    self.claim(seat)
                else:
                    self.console.print("no claim: play on")
            return True

    def end_for_the_player(self) -> None:
        """The turn's `end` played for the player whose hand can build nothing more, and said so to them."""
        self.act("end", forced=True)
        self.console.print("nothing left for your hand to build: your turn ends", highlight=False)
        self.private_note = self.humans() > 1   # (about their hand: read by them alone, before the clear)

    def end_typed_turn(self) -> None:
        """The `end` of a whole turn typed joined by `;`, still open after its card from the hand: said as one
        action at a time says it where the hand can build nothing more (an audit's `QC trail; build 8 on 3H 5H`
        ended the turn without a word, where the same actions typed one at a time were told "nothing left for
        your hand to build"); else the typed turn was the whole turn, and ends as typed."""
        moves = self.game.engine.playable_moves(self.game.hand)
        if len(moves) == 1 and moves[0].kind is MoveKind.END:
            self.end_for_the_player()
        else:
            self.act("end", forced=True)

    def resume_command(self) -> str:
        """The command that continues this game, its file quoted for a shell where it needs to be (a player's audit
        pasted `cassino play --resume sp ace.json` and was refused)."""
        return f"cassino play --resume {shlex.quote(str(self.save_path))}"

    def meant(self, text: str, moves: list[Move]) -> str:
        """`` (did you mean `end`?)`` where typed text that is no move is close to a command, or to ``end`` where a
        turn may end (a player's audit typed `ned` and `done` in a turn of several actions, and was told only
        what a move looks like)."""
        word = text.strip().lower()
        command, _, rest = word.partition(" ")
        if rest and command in BARE_COMMANDS:
            # (a command that takes nothing after it: a player's re-audit typed `claim 1` and was asked "did you mean
            # `claim`?", as if the word were misspelt)
            if command == "claim" and not self.game.rules.game.claiming:
                return " (there is no claiming in this game)"
            if command == "claim":
                return (" (`claim` is typed alone, for your own side; a move's number then `claim` makes the move and "
                        "then claims)")
            return f" (`{command}` is typed alone, with nothing after it)"
        ends = any(m.kind is MoveKind.END for m in moves)
        if ends and word in ENDING_WORDS:
            return " (did you mean `end`?)"
        claiming = self.game.rules.game.claiming
        if not claiming and "claim" in word.split():
            # (`1 claim` in a game with no claiming was asked "did you mean `claim`?", which then said there is none)
            return " (there is no claiming in this game)"
        commands = tuple(c for c in COMMAND_WORDS if claiming or c != "claim")
        near = difflib.get_close_matches(word, commands + (("end",) if ends else ()), n=1, cutoff=0.6)
        return f" (did you mean `{near[0]}`?)" if near else ""

    def save(self) -> None:
        """The record written, with what each person's tutorial has taught (``Record.taught``)."""
        self._keep_taught()
        super().save()

    def _keep_taught(self) -> None:
        """What each person's tutorial has taught, into the record: not the lessons on the screen that the
        others have not yet been shown (``unread``), which a resumed game teaches again."""
        if not self.tutorials:
            return
        waiting = {lesson.topic for said in self.unread if isinstance(said, tuple) for lesson in said}
        self.record.taught = {seat: sorted(t.shown - (waiting if seat != self.shown_to else set()))
                              for seat, t in self.tutorials.items() if seat >= 0}

    def save_to(self, typed: str) -> bool:
        """``save FILE``: the game written to a new file, which records it from now on (the file it was
        in keeps the game up to here, and stays locked while the game plays). ``typed`` is read as a
        shell reads one word (quotes group a name with spaces). A file that exists is not replaced.
        Says what happened; True when the game moved."""
        try:
            words = shlex.split(typed)
        except ValueError:   # (an unclosed quote: shlex's own words were "No closing quotation")
            self.console.print("not saved: a quote is opened and not closed: name one file, in quotes if its name has "
                               "spaces (save \"my game.json\")", highlight=False)
            return False
        if len(words) != 1:
            self.console.print(f"not saved: name one file (you gave {len(words)} words); a name with spaces goes in "
                               f"quotes: save \"my game.json\"", highlight=False)
            return False
        name = words[0]
        if os.path.lexists(name) and not os.path.isdir(name):   # (a folder: said as one, below)
            if os.path.exists(name) and os.path.exists(self.save_path) and os.path.samefile(name, self.save_path):
                said = f"the game is already recorded in {name}"
            else:
                said = f"{name} exists and is not replaced: name a file that does not exist yet"
            self.console.print(f"not saved: {said}", highlight=False)
            return False
        try:
            path = claim_path(name)
            held = hold(path, what="the game record")
        except (Busy, CassinoError) as e:
            self.console.print(f"not saved: {e}", highlight=False)
            return False
        try:
            self._keep_taught()
            self.record.save(path, self.game)
        except RecordError as e:
            held.release()
            self.console.print(f"not saved: {e}", highlight=False)
            return False
        self.moved_to.append(held)   # (the files the game was in stay locked until it ends: none is resumed meanwhile)
        self.save_path = path
        self.console.print(f"saved to {path}, where the game is recorded from now on; continue it later with: "
                           f"cassino play --resume {shlex.quote(str(path))}", highlight=False)
        return True

    def rescue(self, problem: RecordError) -> bool:
        """The record could not be written (its folder removed, the disk full): an action that failed was
        not made. Ask for another file to keep the game in; False when the player names none (an empty
        line, `quit`, or the end of input; where the record is gone, once they say yes to losing the game), and
        the game stops where its record last was (said so, or that the record is gone and the game with it)."""
        self.console.print(f"the game could not be saved: {problem}\nthe game is as it was before that (a move that "
                           f"could not be written is not made)", highlight=False)
        gone = not os.path.isfile(self.save_path)
        stop = "Enter stops the game, which is then lost: its record is gone" if gone else "Enter stops the game"
        while True:
            try:
                name = self.read(f"name a new file to keep the game in and play on ({stop}): ")
            except EOFError:
                name = None   # (nobody to ask)
            if name is not None and name.strip().lower() in QUIT_WORDS:
                name = ""   # (`quit` made a file named quit: an audit's find)
            if name is not None and not name.strip() and gone and not self.lose_the_game():
                continue   # (leaving loses the game where its record is gone: asked first, a no names a file again)
            if not name or not name.strip():
                if gone:
                    self.console.print(f"stopped: the game is lost: its record {self.save_path} no longer exists",
                                       highlight=False)
                else:
                    self.console.print(f"stopped: the game is not saved past its last move in {self.save_path}",
                                       highlight=False)
                return False
            if self.save_to(name.strip()):
                return True

    def lose_the_game(self) -> bool:
        """Asked where the player would leave a game whose record is gone: True to leave all the same."""
        try:
            answer = self.read("its record is gone: leaving now loses the game; leave all the same? (y/N) ")
        except EOFError:
            return True
        return answer.strip().lower() in ("y", "yes")

    def saved_at_end_of_input(self, what: str) -> bool:
        """Input ended at a question: save, say where and how to go on; False (the game stops here)."""
        self.save()
        self.console.print(f"\nend of input: {what}; game saved to {self.save_path}; "
                           f"continue with: {self.resume_command()}")
        return False

    def run(self) -> int:
        """Play until the game ends or the player leaves; Ctrl-C, SIGTERM or SIGHUP saves and says how to resume
        (exit 130, or 128 and the signal's number), the record's lock then released. Where the
        record cannot be written, the player is asked for another file (``rescue``), and the game stops
        with exit 2 if none is given."""
        with _stopped_as_interrupted():
            try:
                self._start()
                while True:
                    try:
                        return self._play()
                    except RecordError as e:
                        if not self.rescue(e):
                            return 2
            except KeyboardInterrupt as e:
                self.save()
                how = f"stopped ({signal.Signals(e.signum).name})" if isinstance(e, Stopped) else "interrupted"
                try:
                    self.console.print(f"\n{how}: game saved; continue with: {self.resume_command()}")
                except OSError:   # (the terminal closed: SIGHUP)
                    pass
                return 128 + e.signum if isinstance(e, Stopped) else 130
            finally:
                while self.moved_to:
                    self.moved_to.pop().release()

    def _start(self) -> None:
        """What the game is, where it is recorded, who sits where; the tutorial's first lesson."""
        # (said again on the first pass screen where several people share the keyboard: the clear before it
        # took the record's name and the seats off the screen before anyone had read them)
        self.say(f"{self.game.rules.name}: {self.game.rules.description}")
        if self.game.over:   # (a finished game resumed: nothing to continue; its end is shown below)
            self.say(f"the game in {self.save_path} is over: cassino review {self.save_path} goes through it")
        elif self.humans() == 0:   # (a game watched reads nothing typed: no `quit`, no `help` to offer)
            self.say(f"the game is recorded in {self.save_path} after every move; stop it with Ctrl-C and continue "
                     f"with: {self.resume_command()}")
        else:
            self.say(f"the game is recorded in {self.save_path} after every move; leave with quit (or Ctrl-C) "
                     f"and continue with: {self.resume_command()}")
        self.say(self.seating())
        if not self.game.over and self.humans():
            self.say("type help for commands, how for how to play, rules for the full rulebook")
        if self.humans() > 1 and not self.game.over:
            # A resumed game: the moves since the last person's this hand (all of the hand's, where no person has
            # played in it yet), said again on the first pass screen as they were before the game was left, each
            # deal's banner before its first move (a re-attack saw them missing after --resume).
            people = {seat for seat, kind in enumerate(self.record.seats) if kind == "human"}
            last = max((k for k, (seat, _, _) in enumerate(self.this_hand) if seat in people), default=0)
            deal = None
            for seat, action, deal_no in self.this_hand[last:]:
                if deal_no != deal:
                    deal = deal_no
                    self.unread.append(f"— {self.game.rules.name} — hand {self.game.hand_no}, deal {deal_no} —")
                self.unread.append(f"{self.seat_name(seat)} claims" if action.startswith("claim")
                                   else f"{self.seat_name(seat)} plays {action}")
            if deal == self.game.hand.deal_no:
                self.shown_deal = (self.game.hand_no, deal)   # (its banner said: not again when play goes on)
        if self.tutorials and not any("first turn" in t.shown for t in self.tutorials.values()):
            # (what a turn is: on the one screen once, for everyone; where a game first played without the
            # tutorial is resumed with it, too)
            started = {seat: tutorial.start(self.game) for seat, tutorial in self.tutorials.items()}
            self.tutorials = {seat: tutorial for seat, (tutorial, _) in started.items()}
            self.teach(self.held(next(iter(started.values()))[1]))

    def banner(self) -> str:
        """The deal's banner: ``standard — hand 2, deal 3``."""
        return f"{self.game.rules.name} — hand {self.game.hand_no}, deal {self.game.hand.deal_no}"

    def say_taken_at_the_deal(self) -> None:
        """What the deal did as it was dealt that the table does not show (``said.deal_words``, the browser's
        words too), said once at the deal's start: cards the dealer took as they were dealt to the table
        (``deal.dealer_takes_total``: Escoba's table making 15), and cards the deal laid on the table, too few to
        give each player one (``deal.short_stock``)."""
        h = self.game.hand
        where = (self.game.hand_no, h.deal_no)
        began = deal_began(self.game)
        if self.said_deal != where and began is not None and began[0] is h:   # (not once play in the deal has begun)
            self.said_deal = where
            for words in deal_words(self.game, self.seat_name):
                self.say(words)
        lessons, self.deal_lessons = self.deal_lessons, ()
        self.teach(lessons)   # (the tutorial's dealer's take, after the cards it took: ``held``)

    def _play(self) -> int:
        """Turns until the game ends (0) or the player leaves (0); RecordError where a move's record
        could not be written (the move not made)."""
        watching = self.humans() == 0
        while not self.game.over:
            seat = self.game.hand.turn
            claimant = self.claimant()
            if claimant is not None:
                self.act(f"claim {claimant}")
                continue
            if self.shown_deal != (self.game.hand_no, self.game.hand.deal_no):
                self.shown_deal = (self.game.hand_no, self.game.hand.deal_no)
                if self.humans() > 1:   # (on the next pass screen, whoever leads the deal)
                    self.unread.append(f"— {self.banner()} —")
                if watching:
                    self.show_table()
                elif self.computer_to_move():
                    # (a computer leads the new deal: its move is said under the deal's banner, not above it,
                    # where an audit read it as the last move of the deal before)
                    self.console.rule(self.banner())
                    self.say_taken_at_the_deal()
            if not self.computer_to_move():
                if not self.human_turn(seat):
                    return 0
            else:
                text = self.computer_choice()
                self.act(text, said=f"{self.seat_name(seat)} plays {text}")
        self.finish()
        return 0

    def finish(self) -> None:
        g = self.game
        if self.humans() > 1 and self.unread:
            # (the last moves and scoring said again with no hand on the screen: a claim or a pegged target
            # ends the game within a hand, and its end was printed under the last person's cards)
            self.say_again()
        self.console.rule("game over")
        for k, r in enumerate(g.results, 1):
            # Each hand by what the game's score gained from it, so that the hands add up to the final score;
            # where that is not the hand's points (counted out, or only the difference scoring), those beside.
            pts = "  ".join(f"{self.side_name(s)} {p}" for s, p in sorted(r.points.items()))
            before = g.results[k - 2].scores if k > 1 else {s: 0 for s in r.scores}
            gained = {s: r.scores[s] - before.get(s, 0) for s in r.scores}
            if any(gained[s] != r.points.get(s, 0) for s in gained):
                why = ("counted out" if r.counted_out else "only the difference scores"
                       if g.rules.game.score_mode == "difference" else "as the game counts it")
                counted = "  ".join(f"{self.side_name(s)} {gained[s]}" for s in sorted(gained))
                self.console.print(f"hand {k} ({why}; the hand's points {pts}): {counted}")
                continue
            self.console.print(f"hand {k}: {pts}")
        stopped = unfinished_hand(g)
        if stopped is not None:
            pts = "  ".join(f"{self.side_name(s)} {p}" for s, p in sorted(stopped.items()))
            why = {"pegging": "when the target was reached, its points pegged as won",
                   "claim": "at a correct claim, its points counted as won",
                   "false claim": "at a false claim"}.get(g.ended_by, f"({g.ended_by})")
            self.console.print(f"hand {g.hand_no} (stopped {why}): {pts}")
        scores = "  ".join(f"{self.side_name(s)}: {g.scores[s]}" for s in range(len(g.scores)))
        self.console.print(f"final scores {scores}")
        if g.winner is None:
            self.console.print(f"no winner ({g.ended_by})")
        else:
            lurch = f" — {lurch_words(g.games_won)}" if g.games_won > 1 else ""
            winners = self.side_name(g.winner)
            how = how_ended(g.ended_by, g.rules.game.goal == "lowest", g.target)
            self.console.print(f"{winners} {'win' if winners.startswith('seats ') else 'wins'} ({how}){lurch}")
        self.console.print(f"record: {self.save_path} (cassino replay {self.save_path})")


#: The scoring table's forms, widest first: (the description column, the score before the hand, the counts in
#: brackets, seat names in full, two spaces between columns).
_SUMMARY_FORMS: tuple[tuple[bool, bool, bool, bool, bool], ...] = (
    (True, True, True, True, True), (False, True, True, True, True), (False, False, True, True, True),
    (False, False, False, True, True), (False, False, False, False, True), (False, False, False, False, False))


def _summary_table(s: HandSummary, described: bool, was: bool, tallies: bool, names: bool, wide: bool) -> Table:
    """The scoring table in one form (``_SUMMARY_FORMS``); no column wraps or cuts."""
    table = Table(box=None, padding=(0, 2 if wide else 1), show_edge=False)
    table.add_column("item", no_wrap=True)
    if described:
        table.add_column("for", no_wrap=True)
    for side in s.seats:
        header = side_name(s.seats[side])
        table.add_column(header if names else header.replace("seats ", "s").replace("seat ", "s"), justify="right",
                         no_wrap=True)
    for item in s.items:
        cells = []
        for side in s.seats:
            pts = item.points.get(side, 0)
            shown = f"{pts}" if item.counted[side] else f"({pts}, not counted)"
            if tallies and item.count != "last_capture":
                shown += f"  [{item.tally.get(side, 0)}]"
            cells.append(shown)
        table.add_row(item.label, *([item.what] if described else []), *cells)
    table.add_row("hand", *(["points this hand"] if described else []),
                  *[str(s.hand_points.get(side, 0)) for side in s.seats], style="bold")
    limit = target_word(s.lowest)
    table.add_row("game", *(["score" + (f" ({limit} {s.target})" if s.target is not None else "")] if described else []),
                  *[f"{s.scores_after[side]} (was {s.scores_before[side]})" if was else str(s.scores_after[side])
                    for side in s.seats], style="bold")
    return table


def _fitting(console: Console, tables: list[Table]) -> int:
    """The index of the first of ``tables`` whose natural width fits the console (the last where none does)."""
    for k, table in enumerate(tables):
        if Measurement.get(console, console.options.update_width(100_000), table).maximum <= console.width:
            return k
    return len(tables) - 1


def show_summary(console: Console, s: HandSummary, seat_name: Callable[[int], str]) -> None:
    """A hand's scoring as a table: one row per item, one column per side, then the game score."""
    def who(side: int) -> str:
        seats = s.seats[side]
        return seat_name(seats[0]) if len(seats) == 1 else side_name(seats)

    console.rule(f"hand {s.hand_no} scoring")
    # No item's name and no side's figure is ever cut (at 80 columns an audit read "little_casi…", and "25
    # (was 1…" at narrower ones): the widest form that fits the terminal is printed, giving up in turn the
    # description column, the score before the hand, the counts in brackets, and long seat names.
    k = _fitting(console, [_summary_table(s, *form) for form in _SUMMARY_FORMS])
    console.print(_summary_table(s, *_SUMMARY_FORMS[k]))
    if _SUMMARY_FORMS[k][2]:   # (the counts in brackets shown)
        console.print("  [n] = each side's count for the item", style="dim")
    if s.leftover:
        to = f"went to {seat_name(s.leftover_to)}, the last to capture" if s.leftover_to is not None else \
            "stay: nobody captured this hand"
        they = "they" if len(s.leftover) > 1 else "it"   # ("KH; they went", a re-audit)
        console.print(f"  left on the table at the end: {' '.join(s.leftover)}; {they} {to}", highlight=False)
    else:
        console.print("  nothing was left on the table at the end", highlight=False)
    for note in s.notes:
        console.print(f"  {note}", highlight=False)
    if s.winner is not None:
        winners = who(s.winner)
        console.print(f"  {winners} {'win' if winners.startswith('seats ') else 'wins'} the game "
                      f"({how_ended(s.ended_by, s.lowest, s.target)})", highlight=False)


def show_replay(record: Record, console: Console) -> None:
    """A recorded game move by move, each hand's scoring at its end (``cassino replay --moves``), with what the
    terminal game says as it is played, in its words (:mod:`.said`): what a deal did as it was dealt that the
    table does not show, where the deal begins; a sweep or a scoring event with the move that made it, and what
    it scores; a claim, and whether it was right (an audit's replay listed the moves and never said a sweep)."""
    game = record.new_game()
    names = {seat: f"seat {seat} ({kind})" for seat, kind in enumerate(record.seats)}
    shown: tuple[int, int] | None = None
    for k, action in enumerate(record.actions, 1):
        shown = show_deal_begun(console, game, shown, names.__getitem__)
        before = game
        game = apply_action(before, action)
        console.print(f"{k:>4}. {replayed_words(before, action, game, names.__getitem__)}", highlight=False)
        if not action.startswith("claim "):
            summary = hand_summary(before, parse_move(action, before.engine.deck), game)
            if summary is not None:
                show_summary(console, summary, names.__getitem__)
    if not game.over:   # (a game left where a deal begins: said as the terminal says it when play goes on)
        show_deal_begun(console, game, shown, names.__getitem__)


def show_deal_begun(console: Console, game: Game, shown: tuple[int, int] | None,
                    name_seat: Callable[[int], str]) -> tuple[int, int]:
    """A replay reaching ``game``: where it begins a hand, the hand's rule; where it begins a deal (other than
    ``shown``, the (hand, deal) last shown), what the deal did as it was dealt (``said.deal_words``), each with
    the deal's number. The (hand, deal) of ``game``."""
    where = (game.hand_no, game.hand.deal_no)
    if where == shown:
        return where
    if shown is None or shown[0] != game.hand_no:
        console.rule(f"hand {game.hand_no}, dealer seat {game.hand.dealer}")
    for words in deal_words(game, name_seat):
        console.print(f"      deal {game.hand.deal_no}: {words}", highlight=False)
    return where


def replayed_words(before: Game, action: str, after: Game, name_seat: Callable[[int], str]) -> str:
    """A replayed action's line, as the terminal game says it: ``seat 1 (greedy): 5H capture 5D``, and where the
    move swept (or made a scoring event) what that scores, ``: a sweep, 1 point to seat 1 (greedy)``
    (``said.sweep_words``); a claim, who claimed what and whether it was right (``said.claim_words``)."""
    if action.startswith("claim "):
        return claim_words(before, after, int(action.split()[1]), name_seat)
    swept = sweep_words(before, parse_move(action, before.engine.deck), name_seat)
    return f"{name_seat(before.hand.turn)}: {action}" + (f": {swept}" if swept else "")


def start_session(record: Record, save_path: Path, console: Console, read: Callable[[str], str] = read_line,
                  bot_seed: int = 0, aids: Aids = Aids()) -> Session:
    opened = GameSession.open(record, save_path, bot_seed)
    session = Session(opened.game, record, opened.bots, save_path, console, read, aids)
    session.note_hand(opened.hand_actions)   # (a resumed hand's turns)
    session.this_hand = opened.this_hand
    return session


class SafeConsole(Console):
    """A rich Console that shows what a file wrote, never acts on it.

    Every piece of text it prints passes through :func:`cassino.errors.printable` on its way out,
    after rich has laid it out and before its own styles are added, so a variant's description, a
    suit symbol, a scoring item's or a record's name holding ESC or BEL shows as ``\\x1b``
    instead of clearing the screen or setting the window's title. Rich's own colours and
    control segments pass unchanged.
    """

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control else Segment(printable(segment.text), segment.style, segment.control)
            for segment in buffer)


#: The widths a console is drawn at: COLUMNS outside them (0, a negative or garbage value, a width
#: of millions) is not used. 0 drew nothing (play showed only its prompts, review nothing at all)
#: and 99,999,999 drew every rule line a hundred million characters long.
MIN_WIDTH, MAX_WIDTH = 20, 1_000


def console_width() -> int | None:
    """The width to draw at when COLUMNS cannot be used as it is; None to let rich read it.

    A usable COLUMNS (a whole number from MIN_WIDTH to MAX_WIDTH) or none at all: rich's own
    choice. Otherwise the terminal's width when standard output is one, else 80, held within bounds.
    """
    import os

    columns = os.environ.get("COLUMNS")
    if columns is None or (columns.strip().isdecimal() and len(columns.strip()) <= 4
                           and MIN_WIDTH <= int(columns) <= MAX_WIDTH):
        return None
    try:
        width = os.get_terminal_size(sys.stdout.fileno()).columns
    except (OSError, ValueError, AttributeError):
        width = 80
    return min(max(width or 80, MIN_WIDTH), MAX_WIDTH)


def default_console() -> Console:
    # markup=False: moves and messages hold brackets ([3H 5D]) that are text, never rich markup.
    return SafeConsole(highlight=False, markup=False, soft_wrap=True, width=console_width(),
                       force_terminal=None if sys.stdout.isatty() else False)
