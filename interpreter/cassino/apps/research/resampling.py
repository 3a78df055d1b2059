"""Redealing what a seat cannot see, consistent with every play so far (OpenSpiel's
``resample_from_infostate``, which IS-MCTS calls once a simulation).

A redeal gives each hidden card (a card another seat holds now, dealt this hand) a card
from everything the seat has not seen (the others' hands and the stock), all different,
and replays the hand with them. It must keep every play legal: a seat that built a 9
held another 9 then; a seat that trailed where a capture was compulsory held no card to
make it. Each such play is a :class:`Check`: the mover's hand then, made of the cards
known to have been in it (those it played since) and the hidden cards dealt to it
before the play, must make the play legal. Only the mover's hand decides whether its
play is legal (the rest of the position is public and the same in every redeal), so a
candidate redeal is judged by these checks before the costly replay.

Three stages, each seeded by the caller's ``random.Random`` (the same generator state
gives the same redeal):

1. plain draws: a uniform draw of the hidden cards among the unseen, kept when every
   check passes and the replay agrees. Uniform over the consistent redeals (rejection
   sampling); most positions take one or two.
2. draws from each slot's domain (:func:`_slot_domains`: the unseen cards that alone
   would make one of its holder's plays illegal left out, and the *needs*: the slots of
   a seat must hold one of the cards, or one of the pairs of cards, its build called
   for). Still uniform over the consistent redeals, and cheap where compulsory captures
   pin cards down (Draw Cassino).
3. a search: the slots are filled seat by seat, each slot's card drawn from its domain
   in a random order, each check made as soon as the cards it needs are in place, each
   need and the remaining slots' cards (a matching) checked ahead, backtracking on a
   failure (a need fails ahead once its missing cards are used elsewhere, below its group's
   last card, or more than its open slots), and starting again in a new random order,
   allowed twice the failures, when a run meets too many (:class:`_Cutoff`). It is
   complete: the true deal passes every check, so it always finds a redeal (random,
   though no longer exactly uniform). It is reached where the constraints
   make uniform draws rare (Swazi Casino's whole pack dealt at once: 20 or more hidden
   cards, several seats each needing a card of a value it built).

:class:`ResampleError` remains for a position where even the search finds nothing, which
would be a bug (the true deal is always consistent).
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field
from typing import Any, Iterator, NamedTuple

from ...engine.core import bits
from ...engine.moves import Move
from ...engine.state import HandState
from ...errors import CassinoError, PositionTooLargeError
from .stepwise import IllegalStep, Step, listed_whole


class Redeal(NamedTuple):
    """A hand replayed with other hidden cards: its actions, who gave each (None: chance), the state reached."""

    actions: list[int]
    players: list[int | None]
    step: Step


class ResampleError(CassinoError):
    """No redeal consistent with the plays was found (a bug: the true deal always is one)."""


@dataclass(frozen=True)
class Check:
    """A play by a seat that held hidden cards then: legal only with some hands."""

    state: HandState            # the position before the play
    move: Move
    mover: int
    known: int                  # the mover's cards then that are not hidden (played then or since)
    slots: tuple[int, ...]      # the hidden slots (indices into the targets) dealt to it before the play
    after: HandState            # the position the play made (what a redeal's play must make, but the cards)


class Need(NamedTuple):
    """Some of ``slots`` must together hold all the cards of one of ``sets`` (card masks of one
    to :data:`_NEED_CARDS` cards): what a play calls for that the mover's known cards lack."""

    slots: tuple[int, ...]
    sets: tuple[int, ...]


@dataclass
class Problem:
    """What a redeal of one position for one seat must satisfy (worked out once, kept a while)."""

    step: Step
    seat: int
    targets: tuple[int, ...]    # the true hidden cards, in the order they were dealt
    unseen: tuple[int, ...]     # the cards the seat has not seen
    owner: tuple[int, ...]      # the seat holding each slot
    group: tuple[int, ...]      # each slot's group: same seat, same run of deals (interchangeable slots)
    checks: tuple[Check, ...]
    domains: list[int] | None = None        # each slot's cards as a mask (None: not worked out yet)
    needs: list[Need] = field(default_factory=list)
    legal_memo: dict[tuple[int, int], bool] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)     # the checks with hidden cards, the likeliest to fail first
    offer_memo: dict[tuple[int, int], bool] = field(default_factory=dict)   # ``offered``'s answers

    def __post_init__(self) -> None:
        if not self.order:
            self.order = [k for k, c in enumerate(self.checks) if c.slots]

    def passes(self, k: int, hand: int) -> bool:
        """Whether check ``k``'s play is legal with the mover holding ``hand``, and makes the position it
        made but for the cards held (under ``build.for_partner`` who holds a build, and what a seat is
        proven to hold, follow from whether the mover kept a card of the build's value:
        ``_same_but_the_cards``; a redeal failing it here is refused before its replay)."""
        key = (k, hand)
        found = self.legal_memo.get(key)
        if found is None:
            c = self.checks[k]
            state = c.state.with_(hands=tuple(hand if o == c.mover else h for o, h in enumerate(c.state.hands)))
            engine = self.step.table.engine
            found = engine.is_legal(state, c.move) and _same_but_the_cards(engine.apply(state, c.move), c.after)
            if len(self.legal_memo) > 200_000:
                self.legal_memo.clear()
            self.legal_memo[key] = found
        return found

    def hand_of(self, k: int, cards: tuple[int, ...]) -> int:
        """The mover's hand at check ``k`` when slot i holds ``cards[i]``."""
        c = self.checks[k]
        hand = c.known
        for i in c.slots:
            hand |= 1 << cards[i]
        return hand

    def offered(self, cards: tuple[int, ...]) -> bool:
        """Whether, with slot i holding ``cards[i]``, the game still offers each play where it offers a sample
        of the legal moves (it lists them, ``Step._listed``, and the position is beyond the engine's listing
        budget, which the mover's hand decides as much as the table): the sample follows the mover's hand, and
        a replay cannot make a play its position does not offer. Asked of a deal the checks passed, before its
        replay (a few listings rather than the replay's every position); not of the search's partial deals."""
        table = self.step.table
        engine = table.engine
        for k in self.order:
            c = self.checks[k]
            if not listed_whole(table, c.state):
                continue
            hand = self.hand_of(k, cards)
            key = (k, hand)
            found = self.offer_memo.get(key)
            if found is None:
                state = c.state.with_(hands=tuple(hand if o == c.mover else h for o, h in enumerate(c.state.hands)))
                try:
                    engine.move_keys(state)
                    found = True   # (within the budget every legal move is offered)
                except PositionTooLargeError:
                    found = _offered(table, state, c.move)
                if len(self.offer_memo) > 200_000:
                    self.offer_memo.clear()
                self.offer_memo[key] = found
            if not found:
                return False
        return True

    def fits(self, cards: tuple[int, ...]) -> bool:
        """Whether every check passes with slot i holding ``cards[i]`` (all different). The check
        that fails is asked first next time (most draws fail on the same few plays)."""
        order = self.order
        for at, k in enumerate(order):
            if not self.passes(k, self.hand_of(k, cards)):
                if at:
                    order.insert(0, order.pop(at))
                return False
        return True


_PLAIN_TRIES = 12           # plain uniform draws judged by the checks before the domains are worked out
_DRAW_LIMIT = 20_000        # cheap draws from the domains in all (collisions and unmet needs included)
_ENUMERATE = 60_000         # up to this many combinations, the fitting ones are listed outright
_FIRST_BUDGET = 16          # failed checks the search's first run may meet before it starts again
_NEED_CARDS = 3             # the most cards a need may call for (a build and a card to take it: two)
_NEED_TRIES = 6_000         # the most card sets tried for one check's need


class _Cutoff:
    """How many failures a run of the search may meet (restarts with a growing cutoff: a run that
    chose badly early does not search all that lies below its choice, and a run allowed more
    failures than the search has nodes is the whole search, so a redeal is still always found)."""

    def __init__(self, budget: int) -> None:
        self.left = budget
        self.reached = False

    def fail(self) -> bool:
        """Count a failure; whether the run must stop."""
        self.left -= 1
        if self.left < 0:
            self.reached = True
        return self.reached


def resample(step: Step, seat: int, rng: random.Random, tries: int = 24) -> Redeal | None:
    """This hand replayed with the cards ``seat`` cannot see dealt afresh, consistent with every play.

    The chance outcomes that dealt a card another seat still holds are replaced by cards
    from everything ``seat`` has not seen, and the hand is replayed move by move from its
    start (each move's actions worked out anew, since how many steps a move takes depends
    on the hand that makes it). Uniform draws first (``tries``: how many passing the cheap
    checks are judged before the search), then the complete search (see the module's
    docstring). Returns None when nothing is hidden; otherwise always a redeal whose
    information state for ``seat`` is this one's.
    """
    problem = _problem(step, seat)
    if problem is None:
        return None
    targets, unseen = problem.targets, list(problem.unseen)
    n = len(targets)
    for _ in range(_PLAIN_TRIES):
        found = _try(problem, tuple(rng.sample(unseen, n)))
        if found is not None:
            return found
    domains, needs = _slot_domains(problem)
    judged = 0
    for drawn in _draws(domains, needs, unseen, rng):
        if judged >= tries:
            break
        judged += 1
        found = _try(problem, drawn)
        if found is not None:
            return found
    for cards in (domains, [_mask(unseen)] * n):     # (full domains: a safety net, never needed so far)
        budget = _FIRST_BUDGET
        while True:     # restarts, each in a new random order, allowed twice the failures of the last
            cut = _Cutoff(budget)
            for drawn in _search(problem, cards, needs if cards is domains else [], rng, cut):
                found = _try(problem, _shuffled_groups(problem, drawn, rng), checked=True)
                if found is not None:
                    return found
            if not cut.reached:     # the whole search was made: nothing fits these domains
                break
            budget *= 2
    raise ResampleError(
        f"no redeal of the {n} card(s) seat {seat} cannot see fits the plays of hand {step.game.hand_no}, "
        f"though the true deal does: a bug in the resampler (please report it with the game's history)")


def _mask(cards: list[int] | tuple[int, ...]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def _offered(table: Any, state: HandState, move: Move) -> bool:
    """Whether the game offers ``move`` at ``state``, a position beyond the listing budget: its actions among
    those of the sample the engine gives there, as ``Step.actions_for`` asks."""
    engine, enc = table.engine, table.encoding
    try:
        if engine.has_copies:
            move = engine.resolve(state, move)
        wanted = enc.sequence(state, move)
    except (KeyError, ValueError, CassinoError):
        return False
    return any(seq == wanted for seq, _ in enc.sequences(state, engine.playable_moves(state)))


def _try(problem: Problem, drawn: tuple[int, ...], checked: bool = False) -> Redeal | None:
    """The replay with slot i holding ``drawn[i]``, if the checks pass, every play is still offered where the
    game offers a sample (``Problem.offered``), and the replay agrees."""
    if not checked and not problem.fits(drawn):
        return None
    if not problem.offered(drawn):
        return None
    step = problem.step
    try:
        found = _replay_hand(step, dict(zip(problem.targets, drawn)), keep_choice=step.to_play == problem.seat)
    except IllegalStep:
        return None
    return found if _same_but_the_cards(found.step.game.hand, step.game.hand) else None


#: What a redeal changes of a position: the hidden cards, in the hands and the stock.
_REDEALT = frozenset({"hands", "stock"})


def _same_but_the_cards(redealt: HandState, real: HandState) -> bool:
    """Whether a replayed position is the real one but for the cards held and in the stock. Legal plays can
    still leave a trace of the hands that dealt them: under ``build.for_partner``, adding to a partner's build
    keeping a card of its value takes it over, so who holds a build, and what a seat is proven to hold once
    it is taken, follow from a hand; and the partner's moves follow from those (building that value for
    them). A redeal that reached another holder or proven value would give the seat other legal moves (the
    soak found one: Swazi Casino with pile tops taken, four in partnerships), so it is refused like an
    illegal play; the true deal always passes."""
    for name in real._fields:
        if name not in _REDEALT and getattr(redealt, name) != getattr(real, name):
            return False
    return True


def _problem(step: Step, seat: int) -> Problem | None:
    """The position's hidden slots and checks (None: nothing hidden), kept for the next calls."""
    held, undealt = step.unseen_by(seat)
    targets = tuple(card for what, card in step.trace if what == "deal" and held >> card & 1)
    if not targets:
        return None
    key = (id(step.hand_start), step.hand_began, step.trace, seat)
    cached = _PROBLEMS.get(key)
    if cached is not None and cached.step.hand_start is step.hand_start:
        return Problem(step, seat, cached.targets, cached.unseen, cached.owner, cached.group, cached.checks,
                       cached.domains, cached.needs, cached.legal_memo, cached.order, cached.offer_memo)
    final = step.view_hand()
    owner = tuple(next(o for o, h in enumerate(final.hands) if h >> card & 1) for card in targets)
    index = {card: k for k, card in enumerate(targets)}
    group: list[int] = []
    checks: list[Check] = []
    dealt: list[int] = []          # the slots dealt so far
    run = 0                        # the runs of deals between moves
    groups: dict[tuple[int, int], int] = {}
    positions = iter(step.positions())
    for what, x in step.trace:
        if what == "deal":
            if x in index:
                dealt.append(index[x])
                group.append(groups.setdefault((run, owner[index[x]]), len(groups)))
            continue
        run += 1
        hand, move = next(positions)
        mover = hand.turn
        slots = tuple(i for i in dealt if owner[i] == mover)
        if mover != seat and slots:
            known = hand.hands[mover] & ~_mask([targets[i] for i in slots])
            checks.append(Check(hand, move, mover, known, slots, step.table.engine.apply(hand, move)))
    problem = Problem(step, seat, targets, tuple(bits(held | undealt)), owner, tuple(group), tuple(checks))
    if len(_PROBLEMS) > 64:
        _PROBLEMS.clear()
    _PROBLEMS[key] = problem
    return problem


_PROBLEMS: dict[tuple[Any, ...], Problem] = {}


def _slot_domains(problem: Problem) -> tuple[list[int], list[Need]]:
    """For each hidden slot, the unseen cards it may hold (a mask), and the needs: slots of
    which one must hold one of some cards.

    At each check the play is tried with the mover's known cards plus one candidate card:
    if the play is legal without the candidate and illegal with it (a capture it would
    have had to make), and with it and any other card (where the seat then held two hidden
    cards or more), the candidate cannot have been in that hand, so it is left out of the
    slots dealt to that seat before the play. Adding a card to a hand takes plays away
    (an obligation to capture with it) or gives plays back (a card kept for a build); the
    known cards alone may pass only because a hand with no legal move may trail (Swazi
    Casino: a seat owning builds of 10 and 11 trails its last 10 holding only it, though
    holding an 11 as well it must keep the 10, which a second 10 lets it trail), and the
    second card is what gives the play back. So no card that some consistent redeal puts
    in a slot is left out (``tests/test_redeal_needs.py`` checks it of the true deal in
    every seating), and drawing each slot from its set and keeping only the consistent
    draws is still uniform. A play that is illegal with the known cards alone (a build needs a
    card to take it) needs some of the hidden cards then to make it legal: a :class:`Need`, the
    smallest sets of cards that do (one card; two where a seat builds while it holds a build
    of another value, which needs a card for each; up to :data:`_NEED_CARDS`).
    """
    if problem.domains is not None:
        return problem.domains, problem.needs
    everything = _mask(problem.unseen)
    excluded = [0] * len(problem.targets)
    needs: list[Need] = []
    for k, c in enumerate(problem.checks):
        if problem.passes(k, c.known):
            free = [card for card in problem.unseen if not c.known >> card & 1]
            out = 0
            for card in free:
                with_it = c.known | 1 << card
                if not problem.passes(k, with_it) and (len(c.slots) == 1 or not any(
                        problem.passes(k, with_it | 1 << other) for other in free if other != card)):
                    out |= 1 << card
            for i in c.slots:
                excluded[i] |= out
        else:
            found = _need(problem, k)
            if found:
                needs.append(Need(c.slots, found))
    problem.domains = [everything & ~x for x in excluded]
    problem.needs = needs
    key = (id(problem.step.hand_start), problem.step.hand_began, problem.step.trace, problem.seat)
    kept = _PROBLEMS.get(key)
    if kept is not None:
        kept.domains, kept.needs = problem.domains, needs
    return problem.domains, needs


def _need(problem: Problem, k: int) -> tuple[int, ...]:
    """The smallest sets of unseen cards (as masks) that, added to check ``k``'s known cards,
    make its play legal; () if none of up to :data:`_NEED_CARDS` cards does (or too many sets
    would have to be tried). Sound as the domains are: adding a card takes plays away but for
    a card the play requires, so the cards the true hand holds for the play's requirements
    make it legal with the known cards alone; a card fills one requirement (a value), so
    every such set has as many cards as there are requirements the known cards leave unmet,
    the smallest size that makes the play legal. (A need only prunes: the search is still
    complete without them.)"""
    c = problem.checks[k]
    free = [card for card in problem.unseen if not c.known >> card & 1]
    tried = 0
    for size in range(1, min(_NEED_CARDS, len(c.slots)) + 1):
        tried += math.comb(len(free), size)
        if tried > _NEED_TRIES:
            return ()   # (not tried at all: too many sets)
        found = []
        for cards in itertools.combinations(free, size):
            hand = c.known
            for card in cards:
                hand |= 1 << card
            if problem.passes(k, hand):
                found.append(hand & ~c.known)
        if found:
            return tuple(found)
    return ()


def _meets(drawn: tuple[int, ...], needs: list[Need]) -> bool:
    for slots, sets in needs:
        held = 0
        for i in slots:
            held |= 1 << drawn[i]
        if not any(s & ~held == 0 for s in sets):
            return False
    return True


def _draws(domains: list[int], needs: list[Need], unseen: list[int], rng: random.Random) -> Iterator[tuple[int, ...]]:
    """Uniform draws of one card a slot from its domain, all different, every need met.

    Few combinations: all the fitting ones are listed and drawn from without replacement
    (so a position with one consistent redeal finds it). Many: drawn in two ways taken in
    turn, a uniform draw among the unseen kept when each card is in its slot's domain,
    and one card a slot from its domain kept when they are all different (each is
    uniform over the same draws, so together they are too), the misfits drawn again.
    """
    lists = [bits(d) for d in domains]
    size = 1
    for d in lists:
        size *= len(d)
    if size <= _ENUMERATE:
        fitting = [c for c in itertools.product(*lists) if len(set(c)) == len(c) and _meets(c, needs)]
        rng.shuffle(fitting)
        yield from fitting
        return
    n = len(domains)
    for k in range(_DRAW_LIMIT):
        if k % 2:
            drawn = tuple(rng.choice(d) for d in lists)
            if len(set(drawn)) < n:
                continue
        else:
            drawn = tuple(rng.sample(unseen, n))
            if not all(domains[i] >> c & 1 for i, c in enumerate(drawn)):
                continue
        if _meets(drawn, needs):
            yield drawn


def _search(problem: Problem, domains: list[int], needs: list[Need], rng: random.Random,
            cut: _Cutoff | None = None) -> Iterator[tuple[int, ...]]:
    """Every assignment of cards to the slots that passes the checks, in a random order
    (one of each set of assignments that differ only within a group of interchangeable
    slots). Slots are filled seat by seat, the most checked seats first, each in the order
    dealt; the cards are tried in one random order; a check is made once its slots are
    filled, and after each card the needs and a matching of the open slots to the cards
    left are checked ahead. ``cut``: the run stops after that many failures (``cut.reached``)."""
    cut = cut or _Cutoff(1 << 62)
    n = len(problem.targets)
    order = list(problem.unseen)
    rng.shuffle(order)
    rank = {c: r for r, c in enumerate(order)}

    def ranked(mask: int) -> int:
        out = 0
        for c in bits(mask):
            out |= 1 << rank[c]
        return out

    dom = [ranked(d) for d in domains]
    need_ranks = [(slots, tuple(ranked(cards) for cards in sets)) for slots, sets in needs]
    counts: dict[int, int] = {}
    for c in problem.checks:
        counts[c.mover] = counts.get(c.mover, 0) + 1
    seats = sorted(set(problem.owner), key=lambda o: (-counts.get(o, 0), o))
    var = [i for o in seats for i in range(n) if problem.owner[i] == o]
    position = {i: j for j, i in enumerate(var)}
    fire: list[list[int]] = [[] for _ in var]
    for k, c in enumerate(problem.checks):
        if c.slots:
            fire[max(position[i] for i in c.slots)].append(k)
    before = [-1] * n        # the previous slot of each slot's group, in ``var``'s order
    last: dict[int, int] = {}
    for i in var:
        g = problem.group[i]
        before[i] = last.get(g, -1)
        last[g] = i
    assign = [-1] * n        # each slot's card, by rank (-1: open)

    def cards() -> tuple[int, ...]:
        return tuple(order[r] if r >= 0 else -1 for r in assign)

    group = problem.group

    def ahead(j: int, used: int) -> bool:
        top: dict[int, int] = {}        # each group's last card so far (a group's cards increase)
        for i in var[:j]:
            top[group[i]] = assign[i]
        room = {}                       # each open slot's cards still possible
        for i in var[j:]:
            above = top.get(group[i])
            room[i] = dom[i] & ~used if above is None else dom[i] & ~used & -(2 << above)
        for slots, sets in need_ranks:
            held = reach = 0
            open_slots = 0
            for i in slots:
                if assign[i] >= 0:
                    held |= 1 << assign[i]
                else:
                    reach |= room[i]
                    open_slots += 1
            for cards in sets:
                missing = cards & ~held
                if not missing & ~reach and missing.bit_count() <= open_slots:
                    break
            else:
                return False
        return _matchable(list(room.values()))

    def fill(j: int, used: int) -> Iterator[tuple[int, ...]]:
        if j == n:
            yield cards()
            return
        i = var[j]
        options = dom[i] & ~used
        if before[i] >= 0:
            options &= ~((2 << assign[before[i]]) - 1)     # increasing within a group
        while options:
            low = options & -options
            options ^= low
            assign[i] = low.bit_length() - 1
            now = used | low
            ok = True
            if fire[j]:
                drawn = cards()
                rank_of = {k: at for at, k in enumerate(problem.order)}
                for k in sorted(fire[j], key=lambda k: rank_of.get(k, 0)):   # the likeliest to fail first
                    if not problem.passes(k, problem.hand_of(k, drawn)):
                        if k in rank_of and rank_of[k]:
                            problem.order.insert(0, problem.order.pop(rank_of[k]))
                        ok = False
                        break
            if ok and ahead(j + 1, now):
                yield from fill(j + 1, now)
            elif cut.fail():
                return
            assign[i] = -1
            if cut.reached:
                return

    yield from fill(0, 0)


def _matchable(masks: list[int]) -> bool:
    """Whether each of the slots (their possible cards as masks) can get a card of its own."""
    owner: dict[int, int] = {}         # card -> slot

    def augment(k: int, seen: list[int]) -> bool:
        options = masks[k] & ~seen[0]
        while options:
            low = options & -options
            options ^= low
            seen[0] |= low
            card = low.bit_length() - 1
            if card not in owner or augment(owner[card], seen):
                owner[card] = k
                return True
        return False

    return all(augment(k, [0]) for k in range(len(masks)))


def _shuffled_groups(problem: Problem, drawn: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    """``drawn`` with the cards of each group of interchangeable slots in a random order."""
    out = list(drawn)
    members: dict[int, list[int]] = {}
    for i, g in enumerate(problem.group):
        members.setdefault(g, []).append(i)
    for slots in members.values():
        if len(slots) > 1:
            cards = [out[i] for i in slots]
            rng.shuffle(cards)
            for i, c in zip(slots, cards):
                out[i] = c
    return tuple(out)


def _replay_hand(step: Step, redeal: dict[int, int], keep_choice: bool) -> Redeal:
    out = Redeal([], [], step.hand_start or step.table.initial)

    def act(s: Step, action: int) -> Step:
        out.actions.append(action)
        out.players.append(s.to_play)
        return s.apply(action)

    s = out.step
    for what, x in step.trace:
        for action in [redeal.get(x, x)] if what == "deal" else s.actions_for(x):
            s = act(s, action)
    while keep_choice and len(s.prefix) < len(step.prefix):
        s = act(s, step.prefix[len(s.prefix)])
    return out._replace(step=s)
