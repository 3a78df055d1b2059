"""Tutorial mode: each rule in the rulebook's own words, the first time it applies in play.

The sentences are the variant's rulebook clauses (``language.rulebook``), chosen by the
setting they word, never new prose: a house rule's tutorial says its own rules. What
"applies" is read from the move and the positions around it, through the engine's values
(a capture's taken cards, a new build, a sweep recorded, a new deal, a finished hand),
so it is generic over variants. A clause the variant's rulebook does not have (no sums
in a variant without them) is simply never shown, nor is a reading (``Rulebook.rule_clauses``:
the "Reading:" notes of which way the project read a rule text stay in ``cassino rules``).

A :class:`Tutorial` is an immutable value: :meth:`Tutorial.after` returns the lessons a
move teaches and the tutorial that remembers them, so each is shown once.

One lesson at a time, when the rule decided it. A move teaches what it did: the first time a
kind of move is made (a trail, a capture, a build) its lesson, with the most particular rule the
move used (a capture that was a sum: capture and sums; a build that raised: build and raise), and
after that the first rule of :data:`TOPICS` the move uses that is not taught yet; the rest wait for
a later move that uses them. Only the learner's own move teaches play (another player's move is not
"you"), and the events of the game (a new deal, the end of a hand or of the game) are taught whoever
acts. A rule that limits what the player may do (:data:`LIMITS`: compulsory capture, the owner's
duty, African Casino's whole-move rules, the endgame restrictions) is taught where it limits, when
the learner is about to choose (``Tutorial.before``), one at a time, never after a move it had
nothing to do with. A rule that chooses between moves is taught only where it chose: the equal card
first only when a set of loose cards of the same value was there to take instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from ...engine.core import subsets_summing
from ...engine.game import Game
from ...engine.movegen import generate
from ...engine.moves import Move, MoveKind, PositionTooLargeError
from ...language.rulebook import rulebook
from ...language.rules import Rules
from ...language.settings import with_value

#: A rulebook clause's pointer to another part of the book (``(below)``, ``(see the deal)``), left out of a lesson.
_POINTER = re.compile(r" \((?:below|above|see [^()]*)\)")

#: Stands for the clauses of the scoring items that count sweeps, whatever their names (``Tutorial.expand``).
SWEEP_ITEMS = "scoring.items.<sweeps>"
#: Stands for what the hand scores (its intro and every item), taught at the first turn where the player must count
#: it from the start: in a game won by the lowest total, where every card taken may cost points, and where a claim
#: wins, a player counting their own points to claim (a player's audit of Hungarian Casino was first taught the
#: scoring after the computer's claim had won the game) (``Tutorial.expand``; nothing elsewhere).
SCORING_FIRST = "scoring.<first turn>"
#: Stands for the pack's clause (its suits, and how a card is typed) where the pack is not the French one a newcomer
#: knows (``unfamiliar_pack``), taught at the first turn (``Tutorial.expand``; nothing elsewhere).
PACK = "deck.<unfamiliar>"
#: The French pack's suits, each typed by its initial.
FRENCH_SUITS = frozenset({"spades", "hearts", "diamonds", "clubs"})

#: The situations, in the order their lessons are shown, and the rulebook clauses each one teaches.
TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # What a turn is, and what the game is won by: its goal (points as penalties: the lowest total wins), its
    # target, and claiming where a claim ends it (a browser audit: the target was taught only once the game
    # was over, and claiming never).
    # (African Casino: a turn of several actions said there too, where a player learns what a turn is; a player's
    # audit made a build of cards in play first and was taught nothing of it until a card from the hand)
    # (and what each card counts: a reader's audit built with a king in Royal Casino and took with a knight in Scopa,
    # never told K = 13 or that the knight is 9, which the lesson of card values said only at an ace of two values)
    # (and, where the lowest total wins, which cards cost points: a reader's audit's first capture in kasino misär
    # cost 5 points, the penalty cards untaught until the hand's end)
    # (and where a card counts otherwise from the hand, as Krypkasino's aces 14: a player's audit was told "ace 1" at
    # the first turn and the 14 only after its first ace capture)
    # (and, where the pack is not the French one, its suits and how its cards are typed: a reader's audit of Scopa
    # was never told that ♦ are coins, the suit that scores, or that the knight is typed Q)
    ("first turn", ("turn.kinds", "build.free_actions.turn", "game.goal", "game.target", "game.claiming",
                    PACK, "deck.ranks", "deck.card_values", SCORING_FIRST)),
    ("trail", ("trail.intro",)),
    ("capture", ("capture.intro", "capture.total", "capture.take_all")),
    ("compulsory capture", ("capture.compulsory",)),
    ("court cards", ("capture.valueless_cards",)),
    ("card values", ("deck.ranks", "deck.card_values")),
    ("several hand cards", ("capture.hand_cards.max", "capture.hand_cards.combine")),
    ("sum", ("capture.sums",)),
    ("several groups", ("capture.several_groups",)),
    ("equal cards", ("capture.equal_cards",)),
    ("equal card first", ("capture.equal_card_first",)),
    ("build", ("build.allowed", "build.keep_capturing_card")),
    # A build made for a partner's value, whoever makes it (a teacher's audit of Hoyle in partnerships built for the
    # partner and was taught "You may build only a value you hold", and was never told why its partner's build for
    # it then kept its last card of that value).
    # (with what a build is, where it comes first: "You may also build ..." said before any build was taught)
    ("build for a partner", ("build.allowed", "build.for_partner", "build.keep_capturing_card.partner")),
    # The owner's duty, the first time it keeps the player who owns a build from trailing.
    ("owner's duty", ("build.owner_obligation", "build.owner_obligation_in_last_deal")),
    ("multiple build", ("build.multiple",)),
    ("add to build", ("build.add_sets", "build.opponents_hand_only")),
    # (and whose builds: Dominican and Swazi Casino raise only other players', which a reader's audit never saw taught)
    # (and, at a table of partners, whether a partner's build is raised and to whose values: a teacher's audit of Swazi
    # Casino in teams was taught "You may raise only other players' builds, never your own", the partner's refused)
    ("raise", ("build.raise_single", "build.raise_own", "build.raise_partners", "build.raise_for_partner",
               "build.opponents_hand_only")),
    ("build captured", ("build.single_build_as_card",)),
    # African Casino: an opponent's pile card used; or a use of one that ``capture.pile_cards`` refused
    # (the same rules, taught once: see ``Tutorial._teach``).
    ("pile top", ("capture.from_piles", "capture.pile_cards")),
    ("pile card refused", ("capture.from_piles", "capture.pile_cards")),
    # African Casino's rules of the whole move (issue 36), each the first time it refuses a move the
    # cards allow (``engine.turnrules``).
    ("another side's build", ("build.augment_opponents",)),
    ("partner's build", ("build.raise_partners",)),
    ("raise to a partner's value", ("build.raise_for_partner",)),
    ("one build a value", ("build.one_per_value",)),
    ("one build a player", ("build.one_per_player",)),
    # A turn of several actions (issue 49): a build of cards in play alone, or a turn's end.
    ("several actions", ("build.free_actions",)),
    # What a sweep is, what it scores here (the scoring item that counts sweeps: ``SWEEP_ITEMS``) and whether
    # sweeps cancel (an audit read "the scoring says what each sweep is worth" and never learnt the worth).
    # (and from what score sweeps stop scoring: a re-audit met Finnish Kasino's first sweep lesson in a hand where
    # sweeps scored nothing, the 10-point rule untaught)
    ("sweep", ("sweeps.intro", SWEEP_ITEMS, "sweeps.cancel", "endgame.sweeps_from")),
    # The hand's last play taking every card on the table, where the rules say whether that is a sweep (Scopa: it
    # is not; a player's audit saw the sweeps stay uncounted and no rule said why).
    ("last play", ("sweeps.on_last_play",)),
    # Emptying the table in the last deal, where that is no sweep (Finnish Kasino: a player's audit saw the table
    # cleared in the last deal and no sweep, nothing said).
    ("last deal", ("sweeps.in_last_deal",)),
    # (and the short last deal, where one is: a teacher's audit of Krypkasino at six met "4 more to each player ...
    # until the stock is used up" and a last deal of 4 cards to the table)
    ("new deal", ("deal.redeal", "deal.short_stock")),
    # Drawing back to a full hand after each play (Draw Cassino), the first time the mover draws (a reader's audit
    # found Draw's one rule of its own never taught).
    ("draw", ("deal.draw_after_play",)),
    ("restriction", ("endgame.restrictions.*", "endgame.first_to_meet", "endgame.sweeps_from",
                     "endgame.lifted_after_tie")),
    ("end of hand", ("hand.end", "scoring.intro", "scoring.items.*", "scoring.when")),
    # (the target taught at the first turn)
    ("end of game", ("game.target",)),
    # How a hand that takes several sides past the target is decided (a higher total, a count-out, a target moved
    # up), where one did: a re-audit was taught "If several sides reach 11 ..." at a game one side alone won.
    ("several reach", ("game.both_reach",)),
    # The dealer taking the cards dealt to the table where they make the capture total (Escoba's 15), the first
    # time a hand begins so: a player's audit saw the dealer score escobas before anyone played, untaught.
    ("dealer's take", ("deal.dealer_takes_total",)),
)


#: What happens to the game after an action, taught after what the action itself did (and after the scoring of a
#: hand it ended): a new deal, a hand's end, the game's end, the dealer's take of the next hand's table.
AFTERWARDS: frozenset[str] = frozenset({"new deal", "end of hand", "end of game", "several reach", "dealer's take"})

#: Topics any action teaches (what happens to the table or the game), not only the learner's own move: a sweep
#: scores whoever makes it (a player's audit saw the computer sweep three times in a hand, the rule never taught).
EVENTS: frozenset[str] = AFTERWARDS | {"sweep", "last play", "last deal"}

#: Topics of the rules that limit what the player to move may do, read from the position, not the move:
#: taught before the learner chooses (``Tutorial.before``), where the rule limits them (and a turn that goes
#: on after its card from the hand, where only builds of cards in play or its end are left).
LIMITS: frozenset[str] = frozenset({"compulsory capture", "owner's duty", "pile card refused",
                                    "another side's build", "partner's build", "raise to a partner's value",
                                    "one build a value",
                                    "one build a player", "restriction", "several actions"})

#: The heading a topic is shown under where its name, kept in records (``Record.taught``), says less: the pile
#: card rules taught before a choice they limit (nothing has been refused yet).
HEADINGS: dict[str, str] = {"pile card refused": "what pile cards may do"}

def unfamiliar_pack(rules: Rules) -> bool:
    """Whether the pack is not the French one a newcomer knows: other suits (Scopa's coins and cups, Tuxedo's
    colours), or a suit or a court typed by a letter that is not its name's initial (coins D, the knight Q)."""
    suits = rules.deck.suits
    return ({suit.name.lower() for suit in suits} != FRENCH_SUITS
            or any(suit.letter != suit.name[:1].upper() for suit in suits)
            or any(not rank.rank.isdigit() and rank.rank != rank.name[:1].upper() for rank in rules.deck.ranks))


def ruled_headings(rules: Rules) -> dict[str, str]:
    """Headings a topic is shown under in these rules where its name says another rule: a card equal to a loose
    card that may not be trailed (``capture.compulsory: equal_loose_card``, Dominican's) may still build, and is
    no compulsory capture (a player's audit read "rule (compulsory capture)" above it)."""
    if rules.capture.compulsory == "equal_loose_card":
        return {"compulsory capture": "no trailing a card equal to a loose card"}
    return {}


#: The kinds of move: the first of each is taught with the most particular rule the move used.
KINDS: tuple[str, ...] = ("trail", "capture", "build")

#: Topics taught on their own, never beside a kind of move's first lesson (long).
ALONE: frozenset[str] = frozenset({"pile top", "several actions", "several hand cards"})


@dataclass(frozen=True)
class Lesson:
    """A rule shown: the situation that called for it and the rulebook's sentence."""

    topic: str
    key: str
    text: str
    #: A rule that limits the choice the learner is about to make (``Tutorial.before``), not what a move did.
    ahead: bool = False
    #: The heading this game's rules give the topic (``ruled_headings``), where its name would say another rule.
    label: str = ""

    @property
    def heading(self) -> str:
        """What the lesson is shown under (``label``, ``HEADINGS``; the topic's name elsewhere)."""
        return self.label or HEADINGS.get(self.topic, self.topic)

    def to_json(self) -> dict[str, Any]:
        return {"topic": self.topic, "heading": self.heading, "key": self.key, "text": self.text, "ahead": self.ahead}


def grouped(lessons: tuple[Lesson, ...]) -> tuple[tuple[Lesson, ...], ...]:
    """The lessons of one heading taught together, one group each (in their order): one rule's sentences said
    under its heading once, not each on a card of its own (a reader's audit saw a hand's end taught as eight
    cards, one of them a bare "Each side scores for what it captured in the hand:")."""
    out: list[list[Lesson]] = []
    for lesson in lessons:
        if out and (out[-1][0].heading, out[-1][0].ahead) == (lesson.heading, lesson.ahead):
            out[-1].append(lesson)
        else:
            out.append([lesson])
    return tuple(tuple(group) for group in out)


def listed(group: tuple[Lesson, ...]) -> tuple[bool, ...]:
    """Which lessons of a group are the items of a list an earlier sentence of it opens (one that ends with a
    colon: the scoring items after "Each side scores for what it captured in the hand:")."""
    out: list[bool] = []
    opened = False
    for lesson in group:
        item = opened and lesson.key.startswith("scoring.items.")
        out.append(item)
        opened = item or lesson.text.rstrip().endswith(":")
    return tuple(out)


def lessons_json(lessons: tuple[Lesson, ...]) -> list[dict[str, Any]]:
    """The lessons as the browser gets them: each ``Lesson.to_json``, with ``item`` where it is a list's item
    (``listed``); the browser shows a group of one heading (``grouped``) as one."""
    return [lesson.to_json() | {"item": item} for group in grouped(lessons) for lesson, item in zip(group, listed(group))]


@dataclass(frozen=True)
class Tutorial:
    """The rulebook's sentences for one variant and the topics already shown."""

    clauses: dict[str, str]
    shown: frozenset[str] = field(default=frozenset())
    #: Keys of ``TOPICS`` that stand for clauses named by the rules (``SWEEP_ITEMS``), and those clauses.
    expand: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Headings these rules give topics (``ruled_headings``).
    headings: dict[str, str] = field(default_factory=dict)

    @classmethod
    def for_game(cls, game: Game) -> "Tutorial":
        """The tutorial of ``game``'s rules at its seating: with partners only where some play as a team."""
        teams = game.hand.teams
        return cls.for_rules(game.rules, len(set(teams)) < len(teams))

    @classmethod
    def for_rules(cls, rules: Rules, partners: bool | None = None) -> "Tutorial":
        """The tutorial of ``rules``; ``partners`` False: of a game played without partners, whose lessons say
        nothing of a partner (a teacher's audit of Hoyle at two was taught "If you built for your partner's card ...
        you trail" and "your own and your partner's builds may take table cards in"); None: any seating."""
        if partners is False and rules.seats.partnerships != "never":
            rules = Rules.from_data(with_value(dict(rules.data), ("seats", "partnerships"), "never"))
        sweeps = tuple(f"scoring.items.{item.name}" for item in rules.scoring.items if item.count == "sweeps")
        scoring_first = ("scoring.intro", *(f"scoring.items.{item.name}" for item in rules.scoring.items),
                         *(("scoring.when",) if rules.game.claiming else ())) \
            if rules.game.goal == "lowest" or rules.game.claiming else ()
        # (the rules alone: a newcomer's lesson teaches the rule, not the project's "Reading:" notes of which way it
        # read a rule text, which name texts by number, other variants, files and settings; a player's audit met
        # them mid-lesson. They stay in the reference, `cassino rules`.)
        # (nor the rulebook's pointers to its other parts, "(below)", "(see the deal)", which a lesson alone never
        # reaches: a browser audit read "You may still raise it (below)" and waited for it; a reader's audit met
        # Escoba's "(see the deal)" before the dealer's take was taught)
        return cls({key: _POINTER.sub("", clause.text) for key, clause in rulebook(rules).rule_clauses().items()},
                   expand={SWEEP_ITEMS: sweeps, SCORING_FIRST: scoring_first,
                           PACK: ("deck.suits",) if unfamiliar_pack(rules) else ()},
                   headings=ruled_headings(rules))

    def start(self, game: Game | None = None, to_move: bool = False) -> tuple["Tutorial", tuple[Lesson, ...]]:
        """The lessons for the start of the game (what a turn is; what wins, where the lowest total does; the
        dealer's take where the first hand began with one, ``deal.dealer_takes_total``); ``to_move``: the learner
        is the first to play in ``game``, and a rule limiting their choice there is taught too (``before``)."""
        tutorial, lessons = self._teach({"first turn"} | ({"dealer's take"} if game and dealer_took(game) else set()))
        if to_move and game is not None:
            tutorial, limits = tutorial.before(game)
            lessons += limits
        return tutorial, lessons

    def after(self, before: Game, move: Move | None, after: Game, own: bool = True,
              to_move: bool = False, seat: int | None = None) -> tuple["Tutorial", tuple[Lesson, ...]]:
        """The lessons the action from ``before`` to ``after`` teaches (``move`` None: a claim);
        ``own``: the action is the learner's own (else only the game's events are taught, and a build the
        learner's partner made for the learner's value, ``seat``: they must now keep a card of it); ``to_move``: the
        learner is to play next in ``after``, and a rule limiting their choice there is taught after the
        action's own lessons (``before``)."""
        found = situations(before, move, after, skip=self.shown)
        if not own:
            # (an opponent's build for its partner is not the learner's concern: a hot-seat audit was taught it at a
            # computer opponent's move; the partner's build for the learner is, a teacher's audit found it untaught)
            mine = seat is not None and move is not None and any(
                b.holder == seat and b.owner != seat for b in after.hand.builds if b not in before.hand.builds)
            found &= EVENTS | ({"build for a partner"} if mine else set())
        tutorial, lessons = self._teach(found, one=True)
        if to_move and not after.over:
            tutorial, limits = tutorial.before(after)
            lessons += limits
        return tutorial, lessons

    def before(self, game: Game) -> tuple["Tutorial", tuple[Lesson, ...]]:
        """The lesson of one rule that limits what the player to move in ``game`` may do (``LIMITS``: one
        not taught yet), said before they choose; none where no such rule limits them."""
        if game.over or game.hand.turn_card and _only_end(game):
            return self, ()   # (the game ends the turn for the player: nothing to choose)
        found = limits(game, skip=self.shown)
        # A turn that goes on is said at its prompt, whatever else limits the choice there (a re-attack saw
        # "one build a player" taught there first, and "several actions" only after the player's `end`).
        tutorial, lessons = self._teach(found & {"several actions"})
        tutorial, more = tutorial._teach(found - {"several actions"}, one=True)
        return tutorial, tuple(replace(lesson, ahead=True) for lesson in lessons + more)

    def _teach(self, found: set[str], one: bool = False) -> tuple["Tutorial", tuple[Lesson, ...]]:
        """The lessons of the topics ``found`` not shown yet; ``one``: of play, one topic (a kind of move's
        first lesson with the first particular rule found beside it, ``KINDS``, not one of ``ALONE``; else
        the first topic found; the rest wait for a move that meets them again), with any of the game's
        events."""
        lessons = []
        shown = set(self.shown)
        # A clause another topic already taught is not taught again (a pile card used, then one refused).
        taught = {key for topic, keys in TOPICS if topic in shown for key in self._keys(keys)}
        fresh = {topic: [key for key in self._keys(keys) if key not in taught or _listed_whole(topic, key)]
                 for topic, keys in TOPICS if topic in found and topic not in shown}
        chosen = set(fresh)
        if one:
            play = [topic for topic, _ in TOPICS if fresh.get(topic) and topic not in EVENTS]
            # A kind of move first (a first build that used an ace of two values is taught as a build, with the
            # ace's values beside it, not as the ace alone: an audit saw the duty taught before the build was)
            play = [t for t in play if t in KINDS] + [t for t in play if t not in KINDS]
            chosen = {topic for topic in fresh if topic in EVENTS or not fresh[topic]} | set(play[:1])
            if play and play[0] in KINDS:
                particular = [topic for topic in play[1:] if topic not in KINDS and topic not in ALONE]
                # A capture made by a sum is taught with the sum (what a capture is says "of its own value": a
                # reader's audit saw it beside an ace's values at an ace taking 3 and a jack, the sum untaught),
                # and with the values it counted where a card of several values made it.
                if "sum" in particular:
                    chosen |= {"sum"} | ({"card values"} & set(particular))
                else:
                    chosen |= set(particular[:1])
        order = [topic for topic, _ in TOPICS]
        for topic in sorted(chosen, key=lambda t: (t not in KINDS, order.index(t))):   # (a kind of move first)
            keys = [key for key in fresh[topic] if key not in taught or _listed_whole(topic, key)]
            shown.add(topic)
            taught.update(keys)
            lessons += [Lesson(topic, key, self.clauses[key], label=self.headings.get(topic, "")) for key in keys]
        return Tutorial(self.clauses, frozenset(shown), self.expand, self.headings), tuple(lessons)


    def _keys(self, keys: tuple[str, ...]) -> list[str]:
        """The clauses ``keys`` name that this rulebook has; ``prefix.*`` is each clause under the prefix,
        in the rulebook's order (the scoring items after "Each side scores for what it captured:")."""
        out: list[str] = []
        for key in (k for named in keys for k in self.expand.get(named, (named,))):
            if key.endswith(".*"):
                out += [k for k in self.clauses if k.startswith(key[:-1])]
            elif key in self.clauses:
                out.append(key)
        return out


def situations(before: Game, move: Move | None, after: Game, skip: frozenset[str] = frozenset()) -> set[str]:
    """What happened in one action, as TOPICS names it (``skip``: topics already taught, which
    are not looked for where that costs more than reading the move)."""
    found: set[str] = set()
    if move is not None:
        engine, hand = before.engine, before.hand
        rules = engine.rules
        # (the copies the move took, two packs': as typed, `8C capture 8D` names the first pack's, which a reader's
        # audit of Krypkasino saw read as an 8 left on the table and a pile top taken)
        move = engine.resolve(hand, move)
        state = engine.apply(hand, move)    # the hand just after the move, before the game moves on
        played_rank = {engine.rank[i] for i in _indices(move.played)}
        loose = _indices(move.loose)
        if move.kind is not MoveKind.TRAIL and (
                any(len(engine.hv[i]) > 1 or engine.hv[i] != engine.tv[i] for i in _indices(move.played))
                or any(len(engine.tv[i]) > 1 for i in loose)):
            found.add("card values")          # an ace of 1 or 14, a card worth more in hand (Finnish); a trail
            # counts no value (an audit saw Swazi's ace of 1 or 14 taught at `AS trail`); a loose card counts its
            # table value, so only one of several values there is a card value used (a reader's audit, session
            # 88, saw "aces count 14 when played from hand" taught at a loose ace taken as 1)
        if move.played & (move.played - 1):
            found.add("several hand cards")
        if move.loose & ~hand.table:
            found.add("pile top")
        elif move.kind is MoveKind.CAPTURE and rules.capture.from_piles == "opponents_top":
            # The capturing card goes face up on top of the mover's pile, where the other side may use it: an
            # audit's first Swazi capture left two queens on its pile for the next player's build, untaught.
            found.add("pile top")
        # (build.free_actions: a build of cards in play, a turn going on with something to choose, its end chosen;
        # not a turn the game ends for the player, nothing left to build: an audit saw it taught after such ends)
        if (move.kind == MoveKind.BUILD and not move.played) or (
                move.kind == MoveKind.END and not _only_end(before)) or (
                state.turn_card and after.hand.turn_card and not after.over and not _only_end(after)):
            found.add("several actions")
        if move.kind == MoveKind.END:
            pass
        elif move.kind == MoveKind.TRAIL:
            found.add("trail")
        elif move.kind == MoveKind.CAPTURE:
            found.add("capture")
            if move.builds:
                found.add("build captured")
            # (an equal card is one of the rank played taken at the value it is played at: a loose ace worth 1 taken
            # with a king by an ace played as 14 is in a sum, which a reader's audit saw taught as several groups)
            played_values = {v for i in _indices(move.played) for v in engine.hv[i]}
            odd = [i for i in loose if engine.rank[i] not in played_rank
                   or (engine.tv[i] and not played_values & set(engine.tv[i]))]
            if odd:
                found.add("sum")
            same = [i for i in loose if i not in odd]
            # Several equal cards taken, or one taken and another left (a reader's audit saw Tuxedo's "captures the
            # loose table cards of its own value" taught where one of two equal cards stayed): what the rules say
            # of equal cards decided how many were taken.
            stayed = any(engine.rank[i] in played_rank for i in _indices(hand.table & ~move.loose))
            # (a card without a number value takes by the rules of court cards, taught as such: a reader's audit was
            # told "you may take as many of them as you like" at a queen that may take one queen)
            courts = any(engine.valueless[i] for i in _indices(move.played))
            if (len(same) > 1 or (same and stayed)) and not courts:
                found.add("equal cards")
            if rules.capture.equal_card_first and "equal card first" not in skip and (
                    same if rules.capture.total is None else len(loose) == 1 and not move.builds) \
                    and _sum_passed_over(before, move):
                found.add("equal card first")   # (under a capture total: one card that makes it, taken alone)
            if any(engine.valueless[i] for i in _indices(move.played)):
                found.add("court cards")
            # (cards played together count as their total: a player's audit saw Hungarian's 2+4+7 taking a king
            # taught "several groups", the king set against the 7 alone)
            played = _indices(move.played)
            played_value = (max((v for i in played for v in engine.hv[i]), default=0) if len(played) == 1
                            or rules.capture.hand_cards_combine != "total"
                            else sum(max(engine.hv[i], default=0) for i in played))
            odd_total = sum(min(engine.tv[i]) for i in odd if engine.tv[i])
            if odd and (odd_total > played_value or same or move.builds):
                found.add("several groups")   # more than one set of cards adding up to the card played
        else:
            # (a build of cards in play alone, ``build.free_actions``: taught by "several actions", not by the rules
            # of building with a card from the hand, which a browser audit was taught at one and read as its rule)
            new = [b for b in state.builds if b not in hand.builds]
            if any(b.owner == hand.turn and b.holder != hand.turn for b in new):
                found.add("build for a partner")   # (the partner keeps the card: not the rule of one's own build)
            elif move.played:
                found.add("build")
            if any(b.multiple for b in new):
                found.add("multiple build")
            if move.builds and move.played:
                old = [b for b in hand.builds if b.cards in move.builds]
                if any(b.value != move.value for b in old):
                    found.add("raise")
                elif old:
                    found.add("add to build")
        if not state.over and state.deal_no != hand.deal_no:
            found.add("new deal")
        elif rules.deal.draw_after_play and move.played and bin(state.hands[hand.turn]).count("1") > bin(
                hand.hands[hand.turn] & ~move.played).count("1"):
            found.add("draw")
        swept = any(w.seat == hand.turn and w.ply == hand.ply for w in state.sweeps if w not in hand.sweeps)
        if swept:
            found.add("sweep")
        if move.kind is MoveKind.CAPTURE and not (state.table or state.builds or state.residue):
            if state.over:
                found.add("last play")   # (the hand's last play took every card on the table: a sweep or not, by rule)
            elif not swept and not hand.stock:
                found.add("last deal")   # (the table emptied in the last deal, and no sweep made)
    # (not where a claim ended the game mid-hand: a player's audit of Hungarian Casino was taught "The hand ends
    # when every card has been played" at a claim)
    if after.hand_no != before.hand_no or (after.over and not before.over and move is not None):
        found.add("end of hand")
    if after.over:
        found.add("end of game")
    elif after.hand_no != before.hand_no and dealer_took(after):
        found.add("dealer's take")
    if several_reached(before, after):
        found.add("several reach")
    elif after.hand_no != before.hand_no and not after.over and several_may_reach(before, after):
        # (and at a hand's end from which the next hand, worth what this one was, could take two sides past the
        # target: a re-audit of Swazi Casino met the count-out only after it had decided the game, and a hot-seat
        # audit was taught it at 9 to 2 of 21, nobody near)
        found.add("several reach")
    return found


def _listed_whole(topic: str, key: str) -> bool:
    """Whether ``key`` is taught again under ``topic``: "Each side scores for what it captured in the hand:" and its
    items at the first hand's end, the whole list (a reader's audit saw it without the sweeps item, taught with the
    first sweep, and read the list as every item; where the lowest total wins, the first turn said them all)."""
    return topic == "end of hand" and (key == "scoring.intro" or key.startswith("scoring.items."))


def several_reached(before: Game, after: Game) -> bool:
    """Whether the hand scored by this action took more than one side to the target (or was counted out, which
    only such a hand is): the game was decided, or the target moved up, by ``game.both_reach``."""
    if before.target is None or len(after.results) == len(before.results):
        return False
    result = after.results[-1]
    return result.counted_out or sum(1 for score in after.scores if score >= before.target) > 1


def several_may_reach(before: Game, after: Game) -> bool:
    """Whether, after the hand just scored, two sides or more could reach the target in the next hand, were it worth
    as many points as this one gave out in all (a game played to a target, won by the highest total)."""
    target = after.target
    if target is None or after.rules.game.goal == "lowest":
        return False
    worth = sum(after.scores) - sum(before.scores)
    return sum(1 for score in after.scores if score + worth >= target) > 1


def dealer_took(game: Game) -> bool:
    """Whether the hand in play began with the dealer taking the cards dealt to the table (``deal.dealer_takes_total``)
    and no one has played in it yet."""
    hand = game.hand
    return not hand.ply and any(c.ply < 0 for c in hand.captures)


def limits(game: Game, skip: frozenset[str] = frozenset()) -> set[str]:
    """The rules that limit what the player to move in ``game`` may do, as ``LIMITS`` names them (``skip``:
    topics already taught, not looked for): an endgame restriction on the mover's side, compulsory capture
    keeping a card from being trailed, the owner's duty keeping them from trailing, and African Casino's
    whole-move rules refusing a move the cards allow."""
    if game.over:
        return set()
    found = refused_by_turn_rules(game, skip)
    if "restriction" not in skip and game.hand.teams[game.hand.turn] in game.restricted_sides():
        found.add("restriction")   # (the mover's own side: another's restriction does not limit them)
    turn_goes_on = bool(game.hand.turn_card)   # (the turn's card played: no trail is left to refuse)
    if "compulsory capture" not in skip and not turn_goes_on and game.rules.capture.compulsory != "never" \
            and _trail_refused(game):
        found.add("compulsory capture")   # a card the player may not trail: the rule decides
    if "owner's duty" not in skip and not turn_goes_on and _owner_bound(game):
        found.add("owner's duty")
    if "several actions" not in skip and turn_goes_on:
        found.add("several actions")   # (the turn goes on: builds of cards in play, or its end, said at the prompt)
    return found


#: African Casino's whole-move rules (``engine.turnrules``): each topic and the rule it teaches.
_TURN_RULES: tuple[tuple[str, str], ...] = (
    ("pile card refused", "augment"),
    ("another side's build", "augment_opponents"),
    ("partner's build", "raise_partners"),
    ("raise to a partner's value", "raise_for_partner"),
    ("one build a value", "one_per_value"),
    ("one build a player", "one_per_player"),
)


def refused_by_turn_rules(game: Game, skip: frozenset[str] = frozenset()) -> set[str]:
    """The topics of the whole-move rules (African Casino) that refuse, in the position of the
    player to move, a move its cards allow: the rule decided what the player could do, so its
    lesson is due even when the move played did not meet it (as compulsory capture's is).
    Topics in ``skip`` are not looked for; a position too large to list is passed over."""
    engine, hand = game.engine, game.hand
    rules = engine.turn_rules
    wanted = [(topic, rule) for topic, rule in _TURN_RULES if rules.on(rule) and topic not in skip]
    if not rules.active or not wanted or hand.over:
        return set()
    try:
        keys = generate(engine.tables, hand, pruned=False)   # what the cards allow
    except PositionTooLargeError:
        return set()
    kept = set(rules.keep(hand, keys))
    refused = [key for key in keys if key not in kept]
    found: set[str] = set()
    for topic, rule in wanted:
        if refused and len(rules.alone(rule).keep(hand, refused)) < len(refused):
            found.add(topic)
    return found


def _only_end(game: Game) -> bool:
    """Whether the only move of the player to move is the end of their turn (the game plays it for them)."""
    try:
        moves = game.engine.playable_moves(game.hand)
    except PositionTooLargeError:
        return False
    return len(moves) == 1 and moves[0].kind is MoveKind.END


def _owner_bound(game: Game) -> bool:
    """Whether the player to move owns a build and its owner's duty keeps them from trailing now
    (``build.owner_obligation``, not lapsed in a last deal): no trail is legal. A builder for a partner whose
    card the partner holds may trail, and so may an owner left no other move (drawn house rules: a card that
    may take only one of two builds of its value, in one group a play); the duty was said there."""
    hand, b = game.hand, game.rules.build
    if b.owner_obligation == "none" or not any(x.owner == hand.turn for x in hand.builds):
        return False
    if not (hand.stock or b.owner_obligation_in_last_deal):
        return False
    return not any(m.kind == MoveKind.TRAIL for m in game.engine.playable_moves(hand))


def _sum_passed_over(game: Game, move: Move) -> bool:
    """Whether the capture ``move`` took an equal card (or, under a capture total, one card that makes
    it) where a set of several loose cards worth the same was there to take: equal_card_first decided."""
    engine, hand = game.engine, game.hand
    total = engine.rules.capture.total
    targets = {v for i in _indices(move.played) for v in engine.hv[i]}
    if total is not None:
        targets = {total - v for v in targets}
    items = [(1 << i, tuple(engine.tv[i])) for i in _indices(hand.table) if engine.tv[i]]
    try:
        return any(sub & (sub - 1) for t in targets for sub in subsets_summing(items, t))
    except PositionTooLargeError:
        return True   # (a table too large to look at: say it, as before)


def _trail_refused(game: Game) -> bool:
    """Whether a card in the hand of the player to move may not be trailed, where the only
    rule refusing it is compulsory capture (an owner's no-trail obligation and a holder's
    card kept for a build are the build's lessons)."""
    hand = game.hand
    if any(b.owner == hand.turn or b.holder == hand.turn for b in hand.builds):
        return False   # (an owner's or a holder's duty: the build's lessons)
    engine = game.engine
    moves = engine.playable_moves(hand)
    # With two packs (Krypkasino) the moves name a card held twice once: a copy's trail is the other's.
    size = engine.n_cards // engine.deck.packs
    trailed = {i % size for m in moves if m.kind == MoveKind.TRAIL for i in _indices(m.played)}
    return any(i % size not in trailed for i in _indices(hand.hands[hand.turn]))


def _indices(mask: int) -> list[int]:
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out
