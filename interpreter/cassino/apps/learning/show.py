"""The learning aids drawn in the terminal with rich (the browser draws the same values its own way)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from .counting import Count
from .review import LOST, REVIEW_Z, SEARCH_MARGIN, SKIPPED, UNCLEAR, Review, ReviewedMove


def _points(value: float) -> str:
    return f"{value:+.2f}".rstrip("0").rstrip(".") if value else "0"


def _how(m: ReviewedMove) -> str:
    if m.method == "exact":
        return "exact (every card's place known)"
    if m.method == "search" and m.known:
        said = ("every card's place known, but too many ways to play on for the exact solver: playouts of the one "
                "real deal, an estimate")
        return f"{said}; {m.note}" if m.note else said
    if m.method == "search":
        deals = f"search, {m.deals} deals" + (f", then {m.confirmed_deals} more" if m.confirmed_deals else "")
        deals = f"{deals}: ±{m.error:.2f}" if _better(m) else deals
        return f"{deals}; {m.note}" if m.note else deals
    return "the only legal move"


def _better(m: ReviewedMove) -> bool:
    """Another move was named as better by a visible amount."""
    return m.best != m.played and m.loss >= 0.005


def show_review(review: Review, console: Console, moves_shown: bool = True) -> None:
    """The replay face up with each reviewed move's verdict, then the summary of the biggest mistakes."""
    by_action = {m.action: m for m in review.moves}
    missed = {c.action: c for c in review.missed_claims}
    who = ", ".join(f"seat {s} ({review.seat_kinds[s]})" for s in review.seats)
    console.rule(f"review of a game of {review.variant}: {who}")
    console.print("values are the mover's side's points in the hand against the other side's: exact where every "
                  f"card's place is known to the mover and the solver can finish, otherwise the search's average "
                  f"over {review.deals} deals of the cards it could not see; there a move is lost only when a better "
                  f"move's lead, {REVIEW_Z:g} errors either side, lies wholly beyond {SEARCH_MARGIN:g} points, good "
                  f"when every move's lies within (its error read as at least that of the decision's largest lead in "
                  f"any deal, so that a rare large lead is not missed: the ± shown), and unclear when one still straddles it after more deals (or when "
                  f"every card is known but the solver could not finish: playouts of the one real deal are no proof)")
    for note in review.notes:
        console.print(f"note: {note}")
    hand = None
    for step in review.steps if moves_shown else ():
        if step.hand_no != hand:
            hand = step.hand_no
            console.rule(f"hand {hand}")
        hands = "; ".join(f"seat {s}: {' '.join(h) or '-'}" for s, h in enumerate(step.hands))
        table = " ".join(step.table) or "(empty)"
        builds = ("  builds: " + "; ".join(step.builds)) if step.builds else ""
        console.print(f"{step.action:>4}. deal {step.deal_no}  table: {table}{builds}", highlight=False)
        console.print(f"      hands: {hands}", highlight=False, style="dim")
        m = by_action.get(step.action)
        line = f"      seat {step.seat} plays {step.text}"
        if step.action in missed:
            c = missed[step.action]
            console.print(f"      ✗ a claim would have won the game here: the side had {c.points} points of "
                          f"{c.target} (type `claim` before moving)", style="red", highlight=False)
        if m is None:
            console.print(line, highlight=False)
        elif m.verdict == LOST:
            console.print(f"{line}   ✗ lost {_points(m.loss).lstrip('+')} points: better {m.best} "
                          f"({_points(m.best_value)} against {_points(m.played_value)}; {_how(m)})",
                          style="red", highlight=False)
        elif m.verdict == UNCLEAR:
            # (a rival that seemed no better is unclear only for too few deals to rule out a rare large lead;
            # an audit read "it seemed 0.00 better" of the move the hint had chosen, with no error said)
            seemed = (f"it seemed {m.loss:.2f} better" if _better(m)
                      else f"it seemed no better, but on too few deals to rule out a rare large lead: ±{m.error:.2f}")
            console.print(f"{line}   ? unclear: {m.best} may be worth more than {SEARCH_MARGIN:g} points more "
                          f"({seemed}; {_how(m)})", style="yellow", highlight=False)
        elif m.verdict == SKIPPED:
            console.print(f"{line}   - {m.note}", style="dim", highlight=False)
        elif m.method == "search" and _better(m):
            # Another move looked better, but by no more than the margin, even at its error's edge.
            console.print(f"{line}   ✓ good ({m.best} seemed {m.loss:.2f} better, at most {SEARCH_MARGIN:g} even "
                          f"allowing for the error; {_how(m)})", style="green", highlight=False)
        else:
            console.print(f"{line}   ✓ {'best' if m.method != 'forced' else 'forced'} ({_how(m)})",
                          style="green", highlight=False)
    console.rule("summary")
    if review.result:   # (a re-attack: the review never said who won, nor a lurch)
        console.print(f"the game: {review.result}", highlight=False)
    for seat in review.seats:
        mine = [m for m in review.moves if m.seat == seat]
        marked = sum(m.marked for m in mine)
        skipped = review.count(SKIPPED, seat)
        console.print(f"seat {seat}: {len(mine)} moves reviewed, {marked} lost points, "
                      f"{review.count(UNCLEAR, seat)} unclear{f', {skipped} skipped' if skipped else ''}, "
                      f"{_points(review.total_loss(seat)).lstrip('+')} points lost in all", highlight=False)
        claims = [c for c in review.missed_claims if c.seat == seat]
        if claims:
            first = claims[0]
            console.print(f"seat {seat}: a claim would have won the game at move {first.action} ({first.points} "
                          f"points of {first.target})" + (f", and at {len(claims) - 1} later moves" if len(claims) > 1
                                                           else ""), style="red", highlight=False)
    worst = review.mistakes()
    if not worst:
        console.print("no move lost points" if review.moves else "no move to review")
        return
    table = Table(title="the biggest mistakes", box=None, padding=(0, 2))
    for column in ("move", "hand", "seat", "played", "better", "lost"):
        table.add_column(column)
    for m in worst:
        table.add_row(str(m.action), f"{m.hand_no}, deal {m.deal_no}", str(m.seat), m.played, m.best,
                      _points(m.loss).lstrip("+"))
    console.print(table)


def show_count(count: Count, console: Console) -> None:
    """The counting aid as a few lines under the table."""
    console.print(count.text(), highlight=False, style="cyan")
