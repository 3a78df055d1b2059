"""`cassino play`: a game in the terminal against the computer, or several people at one keyboard.

The screen shows the table's loose cards and builds (value, single or multiple,
owner), the player's hand, scores, the stock, whose turn it is, each player's
last move this hand and the sweeps; at the end of every hand, what each side
scored item by item (``summary``). The player types a move's number or the move
in notation, or a command: help, rules, hint, undo, save, claim, quit. Bad input
gets a one-line reason and the same prompt, and never changes the game. Every
action is written to the game record at once (atomically), and Ctrl-C or the
end of input saves before leaving.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..engine.game import Game
from ..engine.moves import Move
from ..engine.notation import cards_text, format_move, parse_move
from ..engine.rng import derive
from ..errors import CassinoError
from ..players.bots import Bot, SearchBot, make_bot
from .howto import how_to_play
from .records import Record, apply_action, replay
from .summary import HandSummary, hand_summary, side_name, side_seats

#: Moves numbered on screen at most (more are counted, and can be typed).
MAX_LISTED = 36

STYLE = {"R": "red", "Y": "yellow", "G": "green", "B": "bold", "H": "red", "D": "red"}

HELP = """Type the number of a move, or the move itself: `9D capture 9C 4D 5H`, `3H build 8 on 5S`,
`2H build 8 on [3C 3D]` (a build on the table is written in brackets), `KD trail`.
Cards are typed rank then suit letter: {mapping}.
Commands: help, how (how to play, in short), rules (this variant's full rulebook, as `cassino rules`
prints it), hint (what the computer would play), undo (take back your last move, against computer
players), save, claim (where the variant has claiming), quit (saves first; `cassino play --resume
FILE` continues)."""


def read_line(prompt: str) -> str:
    """The player's next line: ``input`` looked up when called (so a patched ``input`` is used)."""
    return input(prompt)


@dataclass
class Session:
    """One game at the terminal: the game, who sits where, and the record being written."""

    game: Game
    record: Record
    bots: dict[int, Bot]
    save_path: Path
    console: Console
    read: Callable[[str], str] = read_line
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

    def typing(self) -> str:
        """How the deck's suits are typed: ``♠ S, ♥ H, ...`` (e.g. A♦ is AD)."""
        deck = self.game.engine.deck
        pairs = [f"{sym} {letter}" for letter, sym in zip(deck.suits, deck.suit_symbols) if sym != letter]
        example = deck.cards[-1]
        sym = dict(zip(deck.suits, deck.suit_symbols)).get(example.suit, example.suit)
        shown = f"{example.rank}{sym} is typed {example}"
        return f"{', '.join(pairs)} ({shown}; 10 may be typed T)" if pairs else f"e.g. {example}"

    def seat_name(self, seat: int) -> str:
        who = self.record.seats[seat] if 0 <= seat < len(self.record.seats) else "?"
        return f"seat {seat} ({'you' if who == 'human' and self.humans() == 1 else who})"

    def humans(self) -> int:
        return sum(1 for s in self.record.seats if s == "human")

    def side_name(self, side: int) -> str:
        return side_name(side_seats(self.game.hand.teams)[side])

    def show_table(self) -> None:
        """Scores, the table and what each player holds and has taken (no hand shown)."""
        g, h = self.game, self.game.hand
        c = self.console
        c.rule(f"{g.rules.name} — hand {g.hand_no}, deal {h.deal_no}")
        scores = "  ".join(f"{self.side_name(s)}: {g.scores[s]}" for s in range(len(g.scores)))
        target = f" (target {g.target})" if g.target is not None else " (one hand)"
        c.print(f"scores {scores}{target}   stock: {len(h.stock)} cards   dealer: seat {h.dealer}")
        table = Table(show_header=False, box=None, padding=(0, 1))
        table.add_row("table", self.cards(h.table) if h.table else Text("(empty)", style="dim"))
        for b in h.builds:
            kind = "multiple" if b.multiple else "single"
            line = self.cards(b.cards)
            line.append(f"   build of {b.value}, {kind}, owner seat {b.owner} (type it [{' '.join(cards_text(g.engine.deck, b.cards))}])",
                        style="cyan")
            table.add_row("", line)
        c.print(table)
        for s in range(h.players):
            sweeps = sum(1 for w in h.sweeps if w.seat == s and not w.cancelled)
            last = self.last_moves.get(s, "")
            extra = f"  sweeps: {sweeps}" if sweeps else ""
            held = bin(h.hands[s]).count("1")
            c.print(f"  {self.seat_name(s)}: {held} card{'s' if held != 1 else ''}, "
                    f"{bin(h.piles[s]).count('1')} taken{extra}" + (f"   last: {last}" if last else ""))

    def show(self, seat: int) -> None:
        self.show_table()
        h = self.game.hand
        hand = Text("your hand: ")
        hand.append_text(self.cards(h.hands[seat]))
        hand.append(f"   (typed {' '.join(cards_text(self.game.engine.deck, h.hands[seat]))})", style="dim")
        self.console.print(hand)

    def ordered(self, moves: list[Move]) -> list[Move]:
        """The moves in the order the hand is shown (lowest card first), then as generated."""
        deck = self.game.engine.deck
        place = {name: k for k, name in enumerate(cards_text(deck, self.game.hand.hands[self.game.hand.turn]))}
        return sorted(moves, key=lambda m: [place.get(n, len(place)) for n in cards_text(deck, m.played)])

    def listed_moves(self) -> tuple[list[Move], int]:
        """The moves to number on screen, and how many legal moves there are in all.

        A table of many low cards can have tens of thousands of captures; they are counted,
        not all made into moves: each hand card gets a few numbered moves, and any legal
        move can still be typed.
        """
        engine, hand = self.game.engine, self.game.hand
        keys = engine.move_keys(hand)
        if len(keys) <= MAX_LISTED:
            return self.ordered(engine.moves_of(hand, keys)), len(keys)
        quota = max(3, MAX_LISTED // max(1, bin(hand.hands[hand.turn]).count("1")))
        by_card: dict[int, list[int]] = {}
        for key in keys:
            group = by_card.setdefault(engine.played_of(hand, key), [])
            if len(group) < quota:
                group.append(key)
        chosen = [k for group in by_card.values() for k in group]
        return self.ordered(engine.moves_of(hand, chosen)), len(keys)

    def list_moves(self, moves: list[Move], total: int) -> None:
        deck = self.game.engine.deck
        for k, m in enumerate(moves, 1):
            self.console.print(f"  {k:>2}. {format_move(m, deck)}", highlight=False)
        if total > len(moves):
            self.console.print(f"  ... {total - len(moves)} more legal moves, {total} in all: type any of them "
                               f"in notation (help shows how)", highlight=False)

    def show_summary(self, summary: HandSummary) -> None:
        show_summary(self.console, summary, self.seat_name)

    # ------------------------------------------------------------------ saving
    def save(self) -> None:
        self.record.save(self.save_path, self.game)

    def act(self, action: str) -> None:
        """Apply an action, record it, and write the record before anything else happens."""
        before = self.game
        seat = before.hand.turn
        self.game = apply_action(before, action)
        self.record.actions.append(action)
        self.save()
        if not action.startswith("claim"):
            self.last_moves[seat] = action
            summary = hand_summary(before, parse_move(action, before.engine.deck), self.game)
            if summary is not None:
                self.show_summary(summary)
        if self.game.hand_no != before.hand_no:
            self.last_moves = {}

    # ------------------------------------------------------------------ turns
    def human_turn(self, seat: int) -> bool:
        """One human decision; False when the player quits."""
        moves, total = self.listed_moves()
        deck = self.game.engine.deck
        self.show(seat)
        self.list_moves(moves, total)
        while True:
            try:
                text = self.read(f"seat {seat}> ").strip()
            except EOFError:
                self.save()
                self.console.print(f"\nend of input: game saved to {self.save_path}; "
                                   f"continue with: cassino play --resume {self.save_path}")
                return False
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit", "q"):
                self.save()
                self.console.print(f"game saved to {self.save_path}; continue with: cassino play --resume {self.save_path}")
                return False
            if word in ("help", "?", "h"):
                self.console.print(HELP.format(mapping=self.typing()))
                continue
            if word == "how":
                self.console.print(how_to_play(self.game.rules), highlight=False)
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
                    self.console.print("there is no claiming in this game: play on to the end of the hand")
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
            if not self.game.engine.is_legal(self.game.hand, move):
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
        console.print(f"the game is recorded in {self.save_path} after every move; leave with quit (or Ctrl-C) "
                      f"and continue with: cassino play --resume {self.save_path}")
        console.print("type help for commands, how for how to play, rules for the full rulebook")
        watching = self.humans() == 0
        shown_deal = None
        while not self.game.over:
            seat = self.game.hand.turn
            bot = self.bots.get(seat)
            for s, b in self.bots.items():
                if b.wants_to_claim(self.game, s):
                    self.act(f"claim {s}")
                    break
            if self.game.over:
                break
            if watching and shown_deal != (self.game.hand_no, self.game.hand.deal_no):
                shown_deal = (self.game.hand_no, self.game.hand.deal_no)
                self.show_table()
            if bot is None:
                if not self.human_turn(seat):
                    return 0
            else:
                bot.reseed(derive(self.record.seed, seat, len(self.record.actions)))
                move = bot.choose(self.game, seat)
                text = format_move(move, self.game.engine.deck)
                console.print(f"{self.seat_name(seat)} plays {text}", highlight=False)
                self.act(text)
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


def show_summary(console: Console, s: HandSummary, seat_name: Callable[[int], str]) -> None:
    """A hand's scoring as a table: one row per item, one column per side, then the game score."""
    def who(side: int) -> str:
        seats = s.seats[side]
        return seat_name(seats[0]) if len(seats) == 1 else side_name(seats)

    console.rule(f"hand {s.hand_no} scoring")
    table = Table(box=None, padding=(0, 2), show_edge=False)
    table.add_column("item")
    table.add_column("for")
    for side in s.seats:
        table.add_column(who(side), justify="right")
    for item in s.items:
        cells = []
        for side in s.seats:
            pts = item.points.get(side, 0)
            shown = f"{pts}" if item.counted[side] else f"({pts}, not counted)"
            if item.count != "last_capture":
                shown += f"  [{item.tally.get(side, 0)}]"
            cells.append(shown)
        table.add_row(item.name, item.what, *cells)
    table.add_row("hand", "points this hand", *[str(s.hand_points.get(side, 0)) for side in s.seats], style="bold")
    table.add_row("game", "score" + (f" (target {s.target})" if s.target is not None else ""),
                  *[f"{s.scores_after[side]} (was {s.scores_before[side]})" for side in s.seats], style="bold")
    console.print(table)
    console.print("  [n] = cards, sweeps or events each side had for the item", style="dim")
    if s.leftover:
        to = f"went to {seat_name(s.leftover_to)}, the last to capture" if s.leftover_to is not None else \
            "stay: nobody captured this hand"
        console.print(f"  left on the table at the end: {' '.join(s.leftover)}; they {to}", highlight=False)
    else:
        console.print("  nothing was left on the table at the end", highlight=False)
    for note in s.notes:
        console.print(f"  {note}", highlight=False)
    if s.winner is not None:
        console.print(f"  {who(s.winner)} wins the game ({s.ended_by})", highlight=False)


def show_replay(record: Record, console: Console) -> None:
    """A recorded game move by move, each hand's scoring at its end (``cassino replay --moves``)."""
    game = record.new_game()
    names = {seat: f"seat {seat} ({kind})" for seat, kind in enumerate(record.seats)}
    hand_no = 0
    for k, action in enumerate(record.actions, 1):
        if game.hand_no != hand_no:
            hand_no = game.hand_no
            console.rule(f"hand {hand_no}, dealer seat {game.hand.dealer}")
        before = game
        game = apply_action(before, action)
        who = names[int(action.split()[1])] if action.startswith("claim ") else names[before.hand.turn]
        console.print(f"{k:>4}. {who}: {action}", highlight=False)
        if not action.startswith("claim "):
            summary = hand_summary(before, parse_move(action, before.engine.deck), game)
            if summary is not None:
                show_summary(console, summary, names.__getitem__)


def start_session(record: Record, save_path: Path, console: Console, read: Callable[[str], str] = read_line,
                  bot_seed: int = 0) -> Session:
    bots = {seat: make_bot(kind, bot_seed + seat) for seat, kind in enumerate(record.seats) if kind != "human"}
    game = replay(record)
    return Session(game, record, bots, save_path, console, read)


def default_console() -> Console:
    # markup=False: moves and messages hold brackets ([3H 5D]) that are text, never rich markup.
    return Console(highlight=False, markup=False, soft_wrap=True,
                   force_terminal=None if sys.stdout.isatty() else False)
