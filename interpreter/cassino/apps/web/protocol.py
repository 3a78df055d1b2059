"""What a browser may send over its websocket, checked before anything else reads it.

Every client message is one JSON object of at most :data:`MAX_BYTES` bytes, with
a ``type`` from :data:`FIELDS` and exactly that type's fields, each of the right
kind and size. Anything else is a :class:`ProtocolError` whose words go back to
that client alone: a malformed message never reaches a table, so it cannot
change a game or disturb the other players.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ...errors import CassinoError
from ...files import lone_surrogate

MAX_BYTES = 4096
MAX_TEXT = 200          # a move in notation is far shorter
MAX_CARDS = 60          # the largest deck's worth of card names in a `why` question

#: Message type -> its fields and their kinds ("text": a short string, "cards": a short list of short strings,
#: "flag": true or false).
FIELDS: dict[str, dict[str, str]] = {
    "hello": {"token": "text"},     # the first message: which seat (or the watcher's token)
    "move": {"text": "text"},       # a move in notation, clicked or typed
    "hint": {},
    "undo": {},
    "claim": {},
    "why": {"played": "cards", "items": "cards"},   # why the clicked cards are not a legal move
    "count": {"on": "flag"},        # the counting aid in every state sent to this browser, or no more
    "warn": {"text": "text"},       # what a move may give away, asked before it is sent
    "tutorial": {"on": "flag"},     # each rule's rulebook sentence the first time it applies, or no more
    "lessons_read": {},             # the lessons shown were read (Got it): not sent again to this seat
    "review": {},                   # the finished game reviewed for this seat
    "ping": {},
}


class ProtocolError(CassinoError):
    """A client message that is not one the server understands."""


@dataclass(frozen=True)
class Request:
    type: str
    fields: dict[str, Any]

    def text(self, name: str) -> str:
        value = self.fields[name]
        assert isinstance(value, str)
        return value

    def flag(self, name: str) -> bool:
        value = self.fields[name]
        assert isinstance(value, bool)
        return value

    def cards(self, name: str) -> list[str]:
        value = self.fields[name]
        assert isinstance(value, list)
        return value


def _check(kind: str, name: str, value: Any) -> None:
    if kind == "flag":
        if not isinstance(value, bool):
            raise ProtocolError(f"`{name}` must be true or false")
        return
    if kind == "text":
        if not isinstance(value, str):
            raise ProtocolError(f"`{name}` must be text")
        if len(value) > MAX_TEXT:
            raise ProtocolError(f"`{name}` is too long ({len(value)} characters; at most {MAX_TEXT})")
        return
    if not isinstance(value, list) or not all(isinstance(v, str) and len(v) <= 8 for v in value):
        raise ProtocolError(f"`{name}` must be a list of card names such as \"9D\" or builds such as \"[3C 5D]\"")
    if len(value) > MAX_CARDS:
        raise ProtocolError(f"`{name}` names too many cards ({len(value)})")


def parse_request(raw: str | bytes | None) -> Request:
    """A checked client message; ProtocolError (in words) for anything else."""
    if raw is None:
        raise ProtocolError("an empty message: send a JSON object such as {\"type\": \"ping\"}")
    if isinstance(raw, (bytes, bytearray)):
        raise ProtocolError("binary messages are not understood: send JSON text")
    if len(raw.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise ProtocolError(f"the message is too large (at most {MAX_BYTES} bytes)")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("not JSON: send a JSON object such as {\"type\": \"ping\"}") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object with a \"type\"")
    if lone_surrogate(data):   # ("\ud800": no text the server writes or sends can hold it; it broke the socket)
        raise ProtocolError("a text in the message holds half of a character (a lone surrogate such as \\ud800): "
                            "send whole characters")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ProtocolError(f"unknown message type {str(kind)[:20]!r}: one of {', '.join(FIELDS)}")
    wanted = FIELDS[kind]
    extra = sorted(set(data) - set(wanted) - {"type"})
    if extra:
        raise ProtocolError(f"`{kind}` has no field `{str(extra[0])[:20]}`")
    for name, field_kind in wanted.items():
        if name not in data:
            raise ProtocolError(f"`{kind}` needs `{name}`")
        _check(field_kind, name, data[name])
    return Request(kind, {k: data[k] for k in wanted})
