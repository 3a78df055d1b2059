"""`cassino play`: a game in the terminal against the computer, or several people at one keyboard.

The screen shows the table's loose cards and builds (value, single or multiple,
owner), the player's hand, scores, the stock, whose turn it is, each player's
last move and the sweeps. The player types a move's number or the move in
notation, or a command: help, hint, undo, save, claim, quit. Bad input gets a
one-line reason and the same prompt, and never changes the game. Every action
is written to the game record at once (atomically), and Ctrl-C or the end of
input saves before leaving.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..players.bots import Bot, SearchBot, make_bot
from ..errors import CassinoError
from ..engine.game import Game
from ..engine.moves import Move, MoveKind
from ..engine.notation import cards_text, format_move, parse_move
from .records import Record, apply_action, replay
from ..engine.rng import derive

RED = {"H", "D", "R"}
STYLE = {"R": "red", "Y": "yellow", "G": "green", "B": "bold", "H": "red", "D": "red"}

HELP = """Type the number of a move, or the move itself: `9D capture 9C 4D 5H`, `3H build 8 on 5S`,
`2H build 8 on [3C 3D]`, `KD trail`. Commands: help, rules (the variant's rulebook), hint (what
the computer would play), undo (take back your last move, against computer players), save, claim
(where the variant has claiming), quit (saves first)."""


@dataclass
class Session:
    """One game at the terminal: the game, who sits where, and the record being written."""

    game: Game
    record: Record
    bots: dict[int, Bot]
    save_path: Path
    console: Console
    read: Callable[[str], str] = input
    last_moves: dict[int, str] = field(default_factory=dict)

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
        who = self.record.seats[seat]
        return f"seat {seat} ({'you' if who == 'human' and self.humans() == 1 else who})"

    def humans(self) -> int:
        return sum(1 for s in self.record.seats if s == "human")

    def show(self, seat: int) -> None:
        g, h = self.game, self.game.hand
        c = self.console
        rules = g.rules
        c.rule(f"{rules.name} — hand {g.hand_no}, deal {h.deal_no}")
        scores = "  ".join(f"{self.side_name(s)}: {g.scores[s]}" for s in range(len(g.scores)))
        target = f" (target {g.target})" if g.target is not None else " (one hand)"
        c.print(f"scores {scores}{target}   stock: {len(h.stock)} cards   dealer: seat {h.dealer}")
        table = Table(show_header=False, box=None, padding=(0, 1))
        table.add_row("table", self.cards(h.table) if h.table else Text("(empty)", style="dim"))
        for b in h.builds:
            kind = "multiple" if b.multiple else "single"
            line = self.cards(b.cards)
            line.append(f"   build of {b.value}, {kind}, owner seat {b.owner}", style="cyan")
            table.add_row("", line)
        c.print(table)
        for s in range(h.players):
            sweeps = sum(1 for w in h.sweeps if w.seat == s and not w.cancelled)
            last = self.last_moves.get(s, "")
            extra = f"  sweeps: {sweeps}" if sweeps else ""
            held = bin(h.hands[s]).count("1")
            c.print(f"  {self.seat_name(s)}: {held} card{'s' if held != 1 else ''}, "
                    f"{bin(h.piles[s]).count('1')} taken{extra}" + (f"   last: {last}" if last else ""))
        hand = Text("your hand: ")
        hand.append_text(self.cards(h.hands[seat]))
        c.print(hand)

    def side_name(self, side: int) -> str:
        seats = [s for s in range(self.game.players) if self.game.hand.teams[s] == side]
        return "seats " + "+".join(map(str, seats)) if len(seats) > 1 else f"seat {seats[0]}"

    def list_moves(self, moves: list[Move]) -> None:
        deck = self.game.engine.deck
        for k, m in enumerate(moves, 1):
            self.console.print(f"  {k:>2}. {format_move(m, deck)}", highlight=False)

    # ------------------------------------------------------------------ saving
    def save(self) -> None:
        self.record.save(self.save_path, self.game)

    def act(self, action: str) -> None:
        """Apply an action, record it, and write the record before anything else happens."""
        seat = self.game.hand.turn
        self.game = apply_action(self.game, action)
        self.record.actions.append(action)
        if not action.startswith("claim"):
            self.last_moves[seat] = action
        self.save()

    # ------------------------------------------------------------------ turns
    def human_turn(self, seat: int) -> bool:
        """One human decision; False when the player quits."""
        moves = self.game.legal_moves()
        deck = self.game.engine.deck
        self.show(seat)
        self.list_moves(moves)
        while True:
            try:
                text = self.read(f"seat {seat}> ").strip()
            except EOFError:
                self.console.print("\nend of input: game saved to " + str(self.save_path))
                self.save()
                return False
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit", "q"):
                self.save()
                self.console.print(f"game saved to {self.save_path}; continue with: cassino play --resume {self.save_path}")
                return False
            if word in ("help", "?", "h"):
                self.console.print(HELP)
                continue
            if word == "rules":
                self.console.print(self.rulebook(), markup=False, highlight=False)
                continue
            if word == "save":
                self.save()
                self.console.print(f"saved to {self.save_path}")
                continue
            if word == "hint":
                hint = SearchBot(derive(self.record.seed, self.game.hand.ply)).choose(self.game, seat)
                self.console.print(f"hint: {format_move(hint, deck)}")
                continue
            if word == "undo":
                if self.undo(seat):
                    return True
                continue
            if word == "claim":
                if not self.game.rules.game.claiming:
                    self.console.print(f"{self.game.rules.name} has no claiming")
                    continue
                self.act(f"claim {seat}")
                return True
            if text.isdigit():
                k = int(text)
                if not 1 <= k <= len(moves):
                    self.console.print(f"there is no move {k}: choose 1 to {len(moves)}")
                    continue
                self.act(format_move(moves[k - 1], deck))
                return True
            try:
                deck.parse(text.split()[0].split("+")[0])
            except CassinoError:
                self.console.print(f"{text!r} is not a move or a command: type a move's number, a move such as "
                                   f"`{format_move(moves[0], deck)}`, or help")
                continue
            try:
                move = parse_move(text, deck)
            except CassinoError as e:
                self.console.print(str(e).splitlines()[0])
                continue
            if move not in moves:
                self.console.print(self.game.engine.why_illegal(self.game.hand, move))
                continue
            self.act(format_move(move, deck))
            return True

    def rulebook(self) -> str:
        """The same rulebook `cassino rules` prints, examples included."""
        from ..language.render import render
        from .rulebooks import book_for

        return render(book_for(self.game.rules), "text")

    def undo(self, seat: int) -> bool:
        """Take back the human's last move and the computer moves after it."""
        if self.humans() != 1:
            self.console.print("undo is for games against computer players")
            return False
        actions = list(self.record.actions)
        mine = [k for k, a in enumerate(actions) if self._actor(k) == seat]
        if not mine:
            self.console.print("nothing to undo")
            return False
        keep = actions[: mine[-1]]
        self.record.actions = keep
        self.game = replay(self.record)
        self.last_moves = {}
        self.save()
        self.console.print("took back your last move")
        return True

    def _actor(self, index: int) -> int:
        game = self.record.new_game()
        for a in self.record.actions[:index]:
            game = apply_action(game, a)
        return game.hand.turn

    def run(self) -> int:
        """Play until the game ends or the player leaves; Ctrl-C saves and says how to resume."""
        try:
            return self._run()
        except KeyboardInterrupt:
            self.save()
            self.console.print(f"\ninterrupted: game saved; continue with: cassino play --resume {self.save_path}")
            return 130

    def _run(self) -> int:
        console = self.console
        console.print(f"{self.game.rules.name}: {self.game.rules.description}")
        console.print(f"recording to {self.save_path} (type help for commands)")
        while not self.game.over:
            seat = self.game.hand.turn
            bot = self.bots.get(seat)
            for s, b in self.bots.items():
                if b.wants_to_claim(self.game, s):
                    self.act(f"claim {s}")
                    break
            if self.game.over:
                break
            if bot is None:
                if not self.human_turn(seat):
                    return 0
            else:
                bot.reseed(derive(self.record.seed, seat, len(self.record.actions)))
                move = bot.choose(self.game, seat)
                text = format_move(move, self.game.engine.deck)
                self.act(text)
                console.print(f"{self.seat_name(seat)} plays {text}", highlight=False)
        self.finish()
        return 0

    def finish(self) -> None:
        g = self.game
        self.console.rule("game over")
        for k, r in enumerate(g.results, 1):
            pts = "  ".join(f"{self.side_name(s)} {p}" for s, p in sorted(r.points.items()))
            self.console.print(f"hand {k}: {pts}")
        scores = "  ".join(f"{self.side_name(s)}: {g.scores[s]}" for s in range(len(g.scores)))
        self.console.print(f"final scores {scores}")
        if g.winner is None:
            self.console.print(f"no winner ({g.ended_by})")
        else:
            lurch = " — a lurch, a double game" if g.games_won > 1 else ""
            self.console.print(f"{self.side_name(g.winner)} wins ({g.ended_by}){lurch}")
        self.console.print(f"record: {self.save_path} (cassino replay {self.save_path})")


def start_session(record: Record, save_path: Path, console: Console, read: Callable[[str], str] = input,
                  bot_seed: int = 0) -> Session:
    bots = {seat: make_bot(kind, bot_seed + seat) for seat, kind in enumerate(record.seats) if kind != "human"}
    game = replay(record)
    return Session(game, record, bots, save_path, console, read)


def default_console() -> Console:
    return Console(highlight=False, soft_wrap=True, force_terminal=None if sys.stdout.isatty() else False)
