"""A game in progress, whatever shows it: what `cassino play` and `cassino serve` share.

The terminal and the browser differ in how they draw a table and read a click or
a line, not in how a game goes on. Both drive it through a :class:`GameSession`:
every action is applied through the engine and written to the game record at
once (atomically), computer players are seeded from the record's seed, the seat
and the number of actions so far (so a game resumed in either front end plays on
exactly as it would have), claims come before moves, a typed move is read or
refused with the engine's reason, and hint and undo work the same way.

Nothing here prints or waits: methods return values (an :class:`Acted`, a
:class:`~cassino.engine.moves.Move`) or raise :class:`~cassino.errors.CassinoError`
with the words to show, and each front end shows them its own way.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...engine.game import Game
from ...engine.moves import Move, MoveKind
from ...engine.notation import (CARD_ACTION, CARD_EXPECTED, END_ALONE, ENDS_AFTER_ACTION, cards_text, format_move,
                                parse_move, parse_turn)
from ...engine.rng import derive
from ...errors import CassinoError, PositionTooLargeError, printable
from ...language.cards import Deck
from ...players.base import claim_wins
from ...players.bots import Bot, SearchBot, make_bot
from .move_examples import move_examples
from .records import Record, actor_of, apply_action, replay
from .summary import HandSummary, hand_summary, last_turns


class NotAMove(CassinoError):
    """Typed text whose first word is not a card: neither a move nor anything close to one."""


def _numbered_card(deck: Deck, word: str) -> bool:
    """Whether ``word`` is written as a card the deck has not, whose own refusal is the answer: a numbered card of one
    of the deck's suits (``TH``, ``10H``, ``9C``: Scopa's 40 cards have no 8, 9 or 10; a player's audit typed TH there
    and was told only that it was no move), or one of the deck's ranks with a letter that is no suit (``TY``: "no suit
    Y in this deck (suits: S H D C)", where a re-audit was told only that it was no move), or a court card or ace of
    one of the deck's suits that the deck has not (``QH`` in South African Casino's 40 cards, where a player's audit
    was told only that it was no move), or a French pack's card where the suits are others (``AS`` in Tuxedo's
    colours)."""
    rank, suit = word[:-1].upper(), word[-1:].upper()
    if not rank or not suit.isalpha():
        return False
    if suit in deck.suits or suit in "SHDC":   # (a French pack's card in Tuxedo's colours: `AS`, `KD`, a player's audit)
        return rank.isdigit() or rank in ("T", "A", "J", "Q", "K")
    return rank in deck.ranks or (rank == "T" and "10" in deck.ranks)


@dataclass(frozen=True)
class Acted:
    """One action taken: who, what (in notation), and the summary of the hand it ended, if any."""

    seat: int
    action: str
    summary: HandSummary | None
    new_hand: bool


#: The notation's words for a word after `trail` (``notation._unexpected``), said again with this game's own.
TRAIL_ALONE = "a trail names only the card played"


class GameSession:
    """One game being played: the game, who sits where, and the record written after every action."""

    def __init__(self, game: Game, record: Record, bots: dict[int, Bot], save_path: Path) -> None:
        self.game = game
        self.record = record
        self.bots = bots
        self.save_path = save_path
        #: Each seat's last turn this hand, in notation (``summary.last_turns``; cleared when a new hand is dealt).
        self.last_moves: dict[int, str] = {}
        #: This hand's actions but claims, (seat, action), whose turns ``last_moves`` shows (``note_hand``).
        self.hand_actions: list[tuple[int, str]] = []
        #: The actions of the hand in play as the record was read (``open``): a resumed game's, each with its
        #: seat and the deal it was played in.
        self.this_hand: list[tuple[int, str, int]] = []
        #: The seats with an action ``undo`` would take back (None: not worked out since the record was read
        #: or an undo; kept up to date by ``act`` after that, so asking costs nothing a move).
        self._undoable: set[int] | None = None

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without its computer players (`cassino serve` sends a session to its worker processes,
        and a player's compiled caches cannot be pickled): each is made again from its name on the other
        side, which changes nothing it chooses, since every decision reseeds the player first."""
        state = dict(self.__dict__)
        state["bots"] = {seat: None for seat in self.bots}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state.setdefault("_undoable", None)
        state.setdefault("this_hand", [])
        state.setdefault("hand_actions", [])
        self.__dict__.update(state)
        self.bots = {seat: make_bot(self.record.seats[seat], self.record.seed + seat) for seat in state["bots"]}

    @classmethod
    def open(cls, record: Record, save_path: Path, bot_seed: int | None = None) -> "GameSession":
        """The record's game replayed, with a computer player for every seat that is not ``human``."""
        seed = record.seed if bot_seed is None else bot_seed
        bots = {seat: make_bot(kind, seed + seat) for seat, kind in enumerate(record.seats) if kind != "human"}
        this_hand: list[tuple[int, str, int]] = []

        def seen(before: Game, action: str, after: Game) -> None:
            this_hand.append((actor_of(action, before), action, before.hand.deal_no))
            if after.hand_no != before.hand_no:
                this_hand.clear()

        opened = cls(replay(record, each=seen), record, bots, save_path)
        # (a resumed game shows each seat's last turn of the hand, as it did before it was left)
        opened.note_hand([(seat, action) for seat, action, _ in this_hand])
        opened.this_hand = this_hand
        return opened

    def note_hand(self, log: list[tuple[int, str]]) -> None:
        """Each seat's last turn (``last_moves``) from the hand's actions so far, (seat, action), claims left out."""
        self.hand_actions = [(seat, action) for seat, action in log if not action.startswith("claim")]
        self.last_moves = last_turns(self.hand_actions, self.game.rules.build.free_actions)

    # ------------------------------------------------------------------ who plays
    def humans(self) -> int:
        return sum(1 for s in self.record.seats if s == "human")

    def claimant(self) -> int | None:
        """A computer seat that claims the game now (a bot claims exactly when it has reached the target)."""
        if self.game.over:
            return None
        for seat, bot in self.bots.items():
            if bot.wants_to_claim(self.game, seat):
                return seat
        return None

    def computer_to_move(self) -> bool:
        return not self.game.over and self.game.hand.turn in self.bots

    def computer_choice(self) -> str:
        """The move the computer player to move chooses, in notation (not yet played).

        Seeded from the record's seed, the seat and the actions so far, so the same
        position in the same game always gets the same answer, resumed or not.
        """
        seat = self.game.hand.turn
        bot = self.bots[seat]
        bot.reseed(derive(self.record.seed, seat, len(self.record.actions)))
        return format_move(bot.choose(self.game, seat), self.game.engine.deck)

    # ------------------------------------------------------------------ acting
    def save(self) -> None:
        self.record.save(self.save_path, self.game)

    def act(self, action: str, after: Game | None = None) -> Acted:
        """Apply an action, record it, and write the record before anything else happens. ``after``: the
        game after the action, where it was worked out beforehand (the browser's heavy tables do so apart)."""
        before = self.game
        seat = actor_of(action, before)
        self.game = apply_action(before, action) if after is None else after
        self.record.actions.append(action)
        try:
            self.save()
        except BaseException:
            # Not written, not made: the game stays where its record says it is.
            self.record.actions.pop()
            self.game = before
            raise
        if self._undoable is not None and not _forced_end(before, action):
            self._undoable.add(seat)
        summary = None
        if not action.startswith("claim"):
            summary = hand_summary(before, parse_move(action, before.engine.deck), self.game)
        new_hand = self.game.hand_no != before.hand_no
        self.note_hand([] if new_hand else self.hand_actions + [(seat, action)])
        return Acted(seat, action, summary, new_hand)

    def claim(self, seat: int) -> Acted:
        if not self.game.rules.game.claiming:
            raise CassinoError("there is no claiming in this game: play on to the end of the hand")
        return self.act(f"claim {seat}")

    def lettered(self, text: str) -> str:
        """``text`` with each suit symbol the table shows (``A♠``) written as its letter (``AS``): a person may
        type a card as they see it (a documentation audit found `A♠ trail` refused as no move)."""
        for suit in self.game.rules.deck.suits:
            if suit.symbol and not suit.symbol.isalnum() and suit.symbol in text:
                # (the emoji form too, the symbol and a variation selector, as an emoji picker inserts it: `6♦️`,
                # refused as no move in a player's audit)
                text = text.replace(suit.symbol + "\ufe0f", suit.letter).replace(suit.symbol + "\ufe0e", suit.letter)
                text = text.replace(suit.symbol, suit.letter)
        return text

    def read_move(self, text: str) -> Move:
        """A typed move for the seat to play, once the engine allows it.

        :class:`NotAMove` when the first word is not a card; otherwise a CassinoError
        whose first line says what is wrong: the notation's error, or the engine's
        reason the move is refused (``engine.why_illegal``).
        """
        deck = self.game.engine.deck
        text = self.lettered(text)
        if ";" in text:
            raise CassinoError("one action at a time here: a turn's actions are played one after another "
                               "(type the first, then the next)")
        words = text.split()
        # (A build of cards in play alone, and a turn's end, name no card first: build.free_actions.)
        if not (words and words[0].lower() in ("build", "end")):
            try:
                deck.parse(words[0].split("+")[0] if words else "")
            except CassinoError as e:
                if words and _numbered_card(deck, words[0].split("+")[0]):
                    raise CassinoError(str(e).splitlines()[0]) from None   # ("'TH': no rank 10 in this deck (...)")
                raise NotAMove(f"{text!r} is not a move") from None
        try:
            move = parse_move(text, deck)
        except CassinoError as e:
            raise CassinoError(self.misread(words) or self.said_for_this_game(str(e).splitlines()[0])) from None
        if not self.game.engine.is_legal(self.game.hand, move):
            raise CassinoError(self.to_the_player(self.game.engine.why_illegal(self.game.hand, move)))
        return move

    def to_the_player(self, reason: str) -> str:
        """A reason a typed move is refused, said to the player who typed it, the seat to play: their own hand is
        ``your hand`` (a player's audit at seat 0 read "KH is not in the hand of seat 0")."""
        return re.sub(rf"not in the hand of seat {self.game.hand.turn}\b", "not in your hand", reason)

    #: The words that follow a move's played card (the notation's actions; ``trail build`` starts with ``trail``).
    ACTION_WORDS = ("trail", "capture", "build")

    def actions(self) -> list[str]:
        """The actions this game's rules allow after the played card, as typed: no `build` where there is no
        building (``build.allowed``)."""
        return [w for w in self.ACTION_WORDS if w != "build" or self.game.rules.build.allowed]

    def misread(self, words: list[str]) -> str | None:
        """A move that cannot be read, said with the rules in hand where the notation, which does not know them,
        would say too much or too little; None to keep the notation's words.

        - A word after the played card that is no action (`5H foo`), or none (`5H`), or a build cut short where
          there is no building (`5H build`): the actions this game allows (a player's audit read "write trail,
          capture or build" in Scopa, which has no building).
        - `end` and more (`end end`): `end` alone ends a turn (the parser's words were "expected the move's end").
        """
        hidden = next((c for w in words for c in w if c in _CONTROL), None)
        if hidden is not None:
            # (a player's audit typed `3G trail` and Ctrl-G: told "`trail` is not an action ... did you mean `trail`?",
            # the terminal showing nothing of the character)
            return (f"the move holds a control character, {printable(hidden)}, which a terminal does not show: type "
                    f"the move again")
        if words and words[0].lower() == "end":
            if len(words) < 2:
                return None
            hand = self.game.hand
            ending = parse_move("end", self.game.engine.deck)
            if not self.game.engine.is_legal(hand, ending):
                return self.game.engine.why_illegal(hand, ending)
            return ("write `end` once to end your turn" if all(w.lower() == "end" for w in words)
                    else "write `end` alone to end your turn")
        if not words:
            return None
        try:
            first = self.game.engine.deck.parse(words[0].split("+")[0])
        except CassinoError:
            return None   # (the played card is what is wrong)
        allowed = self.actions()
        actions = f"{', '.join(allowed[:-1])} or {allowed[-1]}"
        if len(words) == 1:   # (`5H`: the notation's "after `build` the value, e.g. `3H build 8 on 5S`", in Scopa too)
            return f"the move ends too soon: after the played card write {actions}, e.g. `{first} trail`"
        if "build" in (w.lower() for w in words[1:]) and "build" not in allowed:   # (`5H build`, `5H trail build`)
            return f"there is no building here: after the played card write {actions}"
        if "build" not in allowed and any(c in w for w in words for c in "[]"):
            # (the notation's "a build's cards go in brackets", where there are none)
            capture = self.examples().get(MoveKind.CAPTURE)
            example = f", e.g. `{capture}`" if capture else ""
            return f"there is no building here: a move names the cards it takes alone, with no brackets{example}"
        if words[1].lower() in self.ACTION_WORDS:
            return None
        near = difflib.get_close_matches(words[1].lower(), allowed, n=1, cutoff=0.5)
        hint = f" (did you mean `{near[0]}`?)" if near else ""
        return f"`{words[1]}` is not an action: after the played card write {actions}{hint}"

    def examples(self) -> dict[MoveKind, str]:
        """This game's example moves (``move_examples``: each legal in a position of the game's own cards) that
        play a card from the hand, the first of each kind: a capture, a build where there is building, a trail."""
        shown: dict[MoveKind, str] = {}
        engine = self.game.engine
        for example in move_examples(self.game.rules, engine):
            move = parse_move(example.text, engine.deck)
            if move.played and move.kind in (MoveKind.CAPTURE, MoveKind.BUILD, MoveKind.TRAIL):
                shown.setdefault(move.kind, example.text)
        return shown

    def said_for_this_game(self, said: str) -> str:
        """The notation's words for text that cannot be read (``said``, their first line) with this game's own
        examples where they give the notation's fixed ones, which know no rules nor deck (a player's audit read
        "e.g. `8D capture 8C`, `3H build 8 on 5S`" in Scopa, which has no building and no 8): a move is CARD
        ACTION, a move that ends after its action, a card expected (where there are no builds to name). Other
        words as they are."""
        if TRAIL_ALONE in said:
            return self.trail_alone(said)
        if said == END_ALONE and not self.game.rules.build.free_actions:
            return "`end` is no card nor action here: a turn is one move, which ends it"
        if not said.endswith((CARD_ACTION, ENDS_AFTER_ACTION, CARD_EXPECTED)):
            return said
        examples = self.examples()
        capture = examples.get(MoveKind.CAPTURE)
        building = self.game.rules.build.allowed
        if said.endswith(CARD_ACTION) and examples:
            shown = ", ".join(f"`{examples[k]}`" for k in (MoveKind.CAPTURE, MoveKind.BUILD, MoveKind.TRAIL)
                              if k in examples)
            return said[:-len(CARD_ACTION)] + f"a move is CARD ACTION, e.g. {shown}"
        if said == ENDS_AFTER_ACTION and capture:
            build = examples.get(MoveKind.BUILD)
            if building and build:
                return (f"the move ends too soon: after `capture` or `on` name the cards, after `build` the value, "
                        f"e.g. `{capture}`, `{build}`")
            return f"the move ends too soon: after `capture` name the cards it takes, e.g. `{capture}`"
        if said.endswith(CARD_EXPECTED) and capture and not building:   # (no builds to name in brackets)
            return said[:-len(CARD_EXPECTED)] + f"a card is expected here, e.g. `{capture.split()[-1]}`"
        return said

    def trail_alone(self, said: str) -> str:
        """The notation's words for a word after `trail` (`3S trail trail`), with this game's own trail and the
        form of a trail with a build only where the rules have one (``trail.with_build``; a player's audit of
        Royal read of `trail build VALUE on CARDS`, a form Royal lacks)."""
        head = said.split(TRAIL_ALONE)[0]
        trail = self.examples().get(MoveKind.TRAIL)
        example = f", e.g. `{trail}`" if trail else ""
        if self.game.rules.trail.with_build:
            return (f"{head}{TRAIL_ALONE}{example}; a trail with a build goes on `trail build VALUE on CARDS`")
        return f"{head}{TRAIL_ALONE}{example}"

    def read_turn(self, text: str) -> list[Move]:
        """A typed turn of several actions (``a; b``: ``build.free_actions``), every action checked in turn
        against the position it is played in: a CassinoError naming the action refused, else the moves.
        One action alone is :meth:`read_move`'s."""
        engine = self.game.engine
        text = self.lettered(text)
        if ";" not in text:
            return [self.read_move(text)]
        try:
            steps = parse_turn(text, engine.deck, engine.free_actions)
        except CassinoError as e:
            said = self.said_for_this_game(str(e).splitlines()[0])
            parts = text.split(";")
            for k, part in enumerate(parts, 1):   # (the action that cannot be read, said as for one alone)
                try:
                    parse_move(part, engine.deck)
                except CassinoError:
                    mended = self.misread(part.split())
                    if mended is not None:
                        said = f"action {k} of {len(parts)}: {mended}"
                    break
            raise CassinoError(said) from None
        refusal = engine.turn_refusal(self.game.hand, steps)
        if refusal is not None:
            raise CassinoError(self.to_the_player(refusal))   # (a browser audit read "2S is not in the hand of seat 1")
        return steps

    def typed_turn_open(self, seat: int) -> bool:
        """Whether a whole turn just typed (``a; b``, ``read_turn``) is still ``seat``'s, its card from the hand played:
        the terminal and the browser then end it (`end`), as typing a whole turn says it is the whole turn."""
        hand = self.game.hand
        return bool(hand.turn_card) and not self.game.over and hand.turn == seat

    def hint(self, seat: int) -> Move:
        """What the search player would play for ``seat`` (it reads only what that seat can see)."""
        return SearchBot(derive(self.record.seed, self.game.hand.ply)).choose(self.game, seat)

    def claim_hint(self, seat: int, move: Move | None = None) -> bool:
        """Whether the hint for ``seat`` is to claim: now (``move`` None), or at once after ``move``, the move the
        hint gives, which takes the seat's side to the target (a player's audit of Hungarian followed the hints,
        which named moves only, and lost games it had won to the computer's claim)."""
        if move is None:
            return claim_wins(self.game, seat)
        after = self.game.play(move)
        return not claim_wins(self.game, seat) and claim_wins(after, seat)

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s last action and the computer players' actions after it.

        Against computer players; with several people at the table, one cannot take back what the others have
        seen and answered, so there only an action of a turn that is still going on (a turn of several actions,
        ``build.free_actions``), no one else having played since (``_turn_goes_on``).
        """
        if self.humans() != 1 and not self._turn_goes_on(seat):
            raise CassinoError("with several people at the table, undo takes back only an action of your own turn "
                               "while it goes on (nobody else has played since); against computer players, any of "
                               "your moves")
        mine = [k for k, actor in _choices(self.record) if actor == seat]
        if not mine:
            raise CassinoError("nothing to undo")
        self.record.actions = self.record.actions[: mine[-1]]
        # (each seat's last turn worked out again from the record: a player's audit saw them all vanish)
        hand: list[tuple[int, str]] = []

        def seen(before: Game, action: str, after: Game) -> None:
            hand.append((actor_of(action, before), action))
            if after.hand_no != before.hand_no:
                hand.clear()

        self.game = replay(self.record, each=seen)
        self.note_hand(hand)
        self._undoable = None
        self.save()

    def can_undo(self, seat: int) -> bool:
        """Whether ``undo`` for ``seat`` would take something back (the browser offers its button only then)."""
        if self.humans() != 1:
            return self._turn_goes_on(seat)
        if self._undoable is None:
            self._undoable = {actor for _, actor in _choices(self.record)}
        return seat in self._undoable

    def _turn_goes_on(self, seat: int) -> bool:
        """Whether ``seat`` made this hand's last action and is still to move: a turn of several actions going on,
        which nobody else has answered (a player's audit found undo refused there at a table of people)."""
        return (not self.game.over and self.game.hand.turn == seat and bool(self.hand_actions)
                and self.hand_actions[-1][0] == seat)

    # ------------------------------------------------------------------ showing
    def ordered(self, moves: list[Move]) -> list[Move]:
        """The moves in the order the hand is shown (lowest card first), then as generated."""
        deck = self.game.engine.deck
        place = {name: k for k, name in enumerate(cards_text(deck, self.game.hand.hands[self.game.hand.turn]))}
        return sorted(moves, key=lambda m: [place.get(n, len(place)) for n in cards_text(deck, m.played)])

    def listed_moves(self, limit: int) -> tuple[list[Move], int]:
        """At most about ``limit`` moves to offer, and how many legal moves there are in all
        (-1: more than the engine lists, see ``Engine.move_budget``).

        A table of many low cards can have tens of thousands of captures; they are counted,
        not all made into moves: each hand card gets a share of the offered moves, and any
        legal move can still be typed. Beyond the engine's listing budget the offer comes
        from the lazy walk (``Engine.some_moves``), a share for every hand card.
        """
        engine, hand = self.game.engine, self.game.hand
        if self.game.over:
            return [], 0
        try:
            keys = engine.move_keys(hand)
        except PositionTooLargeError:
            return self.ordered(engine.some_moves(hand, limit)), -1
        if len(keys) <= limit:
            return self.ordered(engine.moves_of(hand, keys)), len(keys)
        quota = max(3, limit // max(1, bin(hand.hands[hand.turn]).count("1")))
        # Each hand card's trail and the turn's end keep a place in their card's share (an audit's 67,468 moves
        # showed captures and builds only: the simplest moves were the ones not numbered).
        deck = engine.deck
        plain = [f"{card} trail" for card in cards_text(deck, hand.hands[hand.turn])] + ["end"] * bool(hand.turn_card)
        kept = {engine.key_of(hand, parse_move(text, deck)) for text in plain}
        by_card: dict[int, list[int]] = {}
        for key in keys:
            group = by_card.setdefault(engine.played_of(hand, key), [])
            if key in kept or len(group) < quota - 1:
                group.append(key)
        chosen = [k for group in by_card.values() for k in group]
        return self.ordered(engine.moves_of(hand, chosen)), len(keys)

    def matching_moves(self, words: list[str], limit: int, start: int = 0) -> tuple[list[Move], int]:
        """``moves CARD ... KIND``: the legal moves that name every card given (played, taken, built with, or a
        build's card) and are of the kinds given (capture, build, trail, end), at most ``limit`` of them from the
        ``start``-th on, and how many match in all. CassinoError for a word that is neither, or a position beyond
        the listing budget."""
        engine, hand = self.game.engine, self.game.hand
        deck = engine.deck
        kinds = {"capture": MoveKind.CAPTURE, "build": MoveKind.BUILD, "trail": MoveKind.TRAIL, "end": MoveKind.END}
        wanted_kinds, cards = set(), set()
        for word in words:
            if word.lower() in kinds:
                wanted_kinds.add(kinds[word.lower()])
                continue
            try:
                cards.add(str(deck.parse(self.lettered(word))))
            except CassinoError as e:
                if _numbered_card(deck, word):   # ("'TH': no rank 10 in this deck (ranks: ...)", as a move says it)
                    raise CassinoError(str(e).splitlines()[0]) from None
                example = (cards_text(deck, hand.hands[hand.turn] or hand.table) or ["10S"])[0]
                # (a kind this game has: "moves build" was offered in Scopa and Hungarian, a re-audit)
                kind = "build" if self.game.rules.build.allowed else "trail"
                raise CassinoError(f"{word[:20]!r} is neither a card nor a kind of move: e.g. moves {example}, "
                                   f"moves {kind}, moves {example} capture") from None
        try:
            moves = self.ordered(engine.legal_moves(hand))
        except PositionTooLargeError:
            raise CassinoError(f"this position has more legal moves than the computer lists (over "
                               f"{engine.move_budget:,}): type the move in notation (help shows how)") from None
        found = []
        for move in moves:
            if wanted_kinds and move.kind not in wanted_kinds and not (
                    MoveKind.BUILD in wanted_kinds and move.kind is MoveKind.TRAIL_BUILD):
                continue
            if cards and not cards <= set(format_move(move, deck).replace("[", " ").replace("]", " ").split()):
                continue
            found.append(move)
        return found[start:start + limit], len(found)

    def typing(self) -> str:
        """How the deck's suits are typed: ``♠ S, ♥ H, ...`` (e.g. A♦ is AD)."""
        deck = self.game.engine.deck
        pairs = [f"{sym} {letter}" for letter, sym in zip(deck.suits, deck.suit_symbols) if sym != letter]
        example = deck.cards[-1]
        sym = dict(zip(deck.suits, deck.suit_symbols)).get(example.suit, example.suit)
        shown = f"{example.rank}{sym} is typed {example}"
        if pairs:   # (no word of tens where the pack has none: Scopa's 40 cards, a player's audit)
            return f"{', '.join(pairs)} ({shown}" + ("; 10 may be typed T)" if "10" in deck.ranks else ")")
        # (suits shown as their letters: each letter with its suit's name; a player's audit of Tuxedo read
        # "e.g. 10Y" alone)
        named = [f"{s.letter} {s.name}" for s in self.game.rules.deck.suits if s.name and s.name != s.letter]
        tens = "; 10 may be typed T" if "10" in deck.ranks else ""   # (Tuxedo's tens too, a re-audit)
        return f"{', '.join(named)} (e.g. {example}{tens})" if named else f"e.g. {example}{tens}"

    def rulebook(self, fmt: str = "text") -> str:
        """The same rulebook `cassino rules` prints, examples included."""
        from ...language.render import render
        from ..authors.rulebooks import book_for

        return render(book_for(self.game.rules), fmt)


#: Characters a terminal acts on or hides, never part of a move (``misread``).
_CONTROL = frozenset(chr(c) for c in (*range(0x00, 0x20), *range(0x7f, 0xa0)))


def _choices(record: Record) -> list[tuple[int, int]]:
    """(index, seat) of each action of ``record`` its player chose: every action but an `end` the game played
    for them (``_forced_end``), the actions ``undo`` takes back."""
    game = record.new_game()
    out = []
    for k, action in enumerate(record.actions):
        if not _forced_end(game, action):
            out.append((k, actor_of(action, game)))
        game = apply_action(game, action)
    return out


def _forced_end(game: Game, action: str) -> bool:
    """Whether ``action`` is the end of a turn of several actions that was the only move left (the game plays
    it for the player, who decided nothing): undo goes back past it to the player's own last choice, since
    taking back only the end would have the game play it again at once (a documentation audit found undo
    taking back nothing, over and over, in Swazi Casino)."""
    if action != "end":
        return False
    moves = game.engine.playable_moves(game.hand)
    return len(moves) == 1 and moves[0].kind is MoveKind.END
