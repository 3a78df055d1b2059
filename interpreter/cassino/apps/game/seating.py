"""Who sits at the table: player counts, partnerships and seat kinds, checked against a variant.

Every front end (play, simulate, perft, records) asks the same questions before
a game starts, so they are answered once here, in words a player can act on.
The engine refuses a bad player count too, but with a programmer's error; these
checks come first so a user never sees it.
"""

from __future__ import annotations

from ...errors import CassinoError
from ...language.rules import Rules


def players_text(rules: Rules) -> str:
    """``2 to 4 players``, or ``2 players only`` when the range is one number."""
    s = rules.seats
    if s.min_players == s.max_players:
        return f"{s.min_players} players only"
    return f"{s.min_players} to {s.max_players} players"


def player_count(rules: Rules, players: int | None, *, option: str = "--players") -> int:
    """``players`` (or the variant's fewest when not given), once the variant is known to allow it."""
    if players is None:
        return rules.seats.min_players
    if isinstance(players, bool) or not isinstance(players, int):
        raise CassinoError(f"{option} must be a whole number of players; {rules.name} is for {players_text(rules)}")
    if not rules.seats.min_players <= players <= rules.seats.max_players:
        raise CassinoError(f"{rules.name} is for {players_text(rules)}; {option} {players} is not allowed")
    return players


def partners_count(rules: Rules, players: int | None, partners: bool, *, option: str = "--players") -> int:
    """The players at a table of ``simulate``, ``sweep`` or ``train``: ``players``, or with ``partners`` alone the
    fewest that play in teams (four, or Krypkasino-of-threes' six: an audit's `--partners` was refused "--players 4
    is not allowed" where teams sit only at six); a game never played in teams says so first."""
    if players is None and partners:
        counts = rules.seats.team_counts()
        if rules.seats.partnerships == "never" or not counts:
            partnership(rules, rules.seats.min_players, True)   # (says why: without partnerships, or at which counts)
        players = min(counts)
    return player_count(rules, players, option=option)


#: Player counts in words, as teams are spoken of (`teams_text`, `how`'s partnerships).
COUNT_WORDS = {4: "four", 6: "six", 8: "eight", 9: "nine", 10: "ten", 12: "twelve"}


def teams_text(rules: Rules) -> str:
    """``four players (two teams of two)``; ``four or six players (teams of two)`` (seats.partnership_players)."""
    counts = rules.seats.partnership_players
    size = rules.seats.team_size
    words = " or ".join(COUNT_WORDS.get(n, str(n)) for n in counts)
    if counts == (4,) and size == 2:
        return "four players (two teams of two)"
    return f"{words} players (teams of {'two' if size == 2 else 'three'})"


def partnership(rules: Rules, players: int, partners: bool, *, option: str = "--partners") -> bool:
    """Whether the table plays as two teams; refuses a request the variant or the count cannot meet."""
    # (a game that never has partnerships says so first: a player's audit of Hungarian was told "--partners needs
    # four players", and four were then refused)
    if partners and rules.seats.partnerships == "never":
        raise CassinoError(f"{rules.name} is played without partnerships; leave out {option}")
    if partners and players not in rules.seats.partnership_players:
        raise CassinoError(f"{option} needs {teams_text(rules)}; this table has {players}")
    return rules.partnership(players, partners)


def seat_kinds(kinds: list[str], players: int) -> list[str]:
    """The seats' kinds ("human" or a computer player's name), one per player, each known."""
    from ...players.bots import make_bot

    if len(kinds) != players:
        raise CassinoError(f"{len(kinds)} seat{'s' if len(kinds) != 1 else ''} named for {players} players")
    for kind in kinds:
        if kind != "human":
            make_bot(kind)
    return kinds
