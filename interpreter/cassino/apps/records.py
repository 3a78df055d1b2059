"""Game records: JSON that replays a game exactly.

A record carries the variant's resolved rules (so a later change to the file
cannot silently change a replay), the seed, the seats, and every action in
the move notation as it was made. It is rewritten atomically after every
action (write to a temporary file, then rename), so a crash loses nothing.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..engine.core import Engine
from ..errors import CassinoError
from ..engine.game import Game
from ..engine.notation import format_move, parse_move
from ..language.rules import Rules
from ..language.schema import validate, with_defaults

FORMAT = "cassino-game/1"


class RecordError(CassinoError):
    """A record that cannot be read or does not replay."""


@dataclass
class Record:
    rules: Rules
    seed: int
    players: int
    partners: bool
    seats: list[str]                 # "human", "random", "greedy", "search", ...
    dealer: int = 0
    actions: list[str] = field(default_factory=list)   # moves in notation, or "claim SEAT"
    source: str = ""                 # the variant's name or file as given

    def to_json(self, game: Game | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "cassino": __version__,
            "variant": {"name": self.rules.name, "source": self.source, "rules": self.rules.data},
            "seed": self.seed,
            "players": self.players,
            "partners": self.partners,
            "dealer": self.dealer,
            "seats": self.seats,
            "actions": self.actions,
        }
        if game is not None:
            out["result"] = {"over": game.over, "winner": game.winner, "scores": list(game.scores),
                             "hands": game.hand_no, "ended_by": game.ended_by}
        return out

    def save(self, path: str | Path, game: Game | None = None) -> None:
        """Write atomically: a reader sees the old record or the new one, never half of one."""
        path = Path(path)
        data = json.dumps(self.to_json(game), indent=1, ensure_ascii=False)
        fd, tmp = tempfile.mkstemp(prefix=".cassino-", suffix=".json", dir=path.parent if str(path.parent) else ".")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def new_game(self) -> Game:
        return Game.new(Engine(self.rules), self.seed, self.players, self.partners, dealer=self.dealer)


def load_record(path: str | Path) -> Record:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise RecordError(f"{path}: cannot read: {e.strerror or e}") from None
    except json.JSONDecodeError as e:
        raise RecordError(f"{path}:{e.lineno}:{e.colno}: not a game record: {e.msg}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{path}: not a cassino game record (expected \"format\": \"{FORMAT}\")")
    try:
        rules_data = data["variant"]["rules"]
        from ..errors import Diagnostic

        problems = validate(rules_data, lambda p, m, **kw: Diagnostic(str(path), 0, 0, f"rules: {m}"))
        if problems:
            raise RecordError("; ".join(d.format() for d in problems))
        rules = Rules.from_data(with_defaults(rules_data))
        return Record(rules, int(data["seed"]), int(data["players"]), bool(data["partners"]),
                      [str(s) for s in data["seats"]], int(data.get("dealer", 0)),
                      [str(a) for a in data["actions"]], str(data["variant"].get("source", "")))
    except (KeyError, TypeError, ValueError) as e:
        raise RecordError(f"{path}: the record is incomplete or damaged ({e})") from None


def apply_action(game: Game, action: str) -> Game:
    """One recorded action: a move in notation, or ``claim SEAT``."""
    if action.startswith("claim "):
        return game.claim(int(action.split()[1]))
    move = parse_move(action, game.engine.deck)
    return game.play(move)


def replay(record: Record) -> Game:
    """Play the record's actions from its seed; RecordError at the first that does not apply."""
    game = record.new_game()
    for k, action in enumerate(record.actions):
        try:
            game = apply_action(game, action)
        except CassinoError as e:
            raise RecordError(f"action {k + 1} ({action!r}) does not replay: {e}") from None
    return game


def action_text(game: Game, move: object) -> str:
    return format_move(move, game.engine.deck)  # type: ignore[arg-type]
