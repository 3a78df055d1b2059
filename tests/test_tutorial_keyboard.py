"""The tutorial where several people share one keyboard, and in a resumed game (a re-attack of session 78)."""

from __future__ import annotations

import re
import tempfile
from io import StringIO
from pathlib import Path

from rich.console import Console

from cassino.apps.game.play import Aids, start_session
from cassino.apps.game.records import Record, load_record
from cassino.language.variants import load_rules


def _play(record: Record, path: Path, answers: list[str] | None = None, moves: int = 0) -> str:
    """The game at the terminal with the tutorial on, each prompt answered from ``answers`` (then the input
    ends), or (``moves``) each seat's prompt with its first listed move that many times, any other with Enter:
    everything printed, each prompt marked ``<<prompt ...>>``."""
    out = StringIO()
    queue = list(answers or [])
    left = [moves]

    def read(prompt: str) -> str:
        out.write(f"\n<<prompt {prompt}>>\n")
        if answers is None:
            if not prompt.startswith("seat "):
                return ""
            if left[0] <= 0:
                raise EOFError
            left[0] -= 1
            return "1"
        if not queue:
            raise EOFError
        return queue.pop(0)

    session = start_session(record, path, Console(file=out, width=200, markup=False, highlight=False,
                                                  soft_wrap=True), read=read, aids=Aids(tutorial=True))
    session.run()
    return out.getvalue()


def test_two_people_at_one_keyboard_each_learn_and_read_before_the_screen_is_cleared() -> None:
    """Seat 1's lesson was cleared off the screen before anyone read it, and seat 0 was never taught a trail
    because seat 1 had been: each person has their own lessons, and the screen waits for Enter first."""
    rules = load_rules("standard")
    record = Record(rules, 44, 2, False, ["human", "human"], source="standard")
    with tempfile.TemporaryDirectory() as folder:
        out = _play(record, Path(folder) / "g.json", ["", "1", "", "", "1", "", "", "1"] + [""] * 4)
    chunks = out.split("<<prompt ")
    for k, chunk in enumerate(chunks[1:], 1):
        if chunk.startswith("Pass the keyboard") and "rule (" in chunks[k - 1].split(">>", 1)[-1]:
            raise AssertionError(f"a lesson cleared unread: {chunks[k - 1][-400:]}")
    assert "press Enter when everyone has read the above" in out
    taught = re.findall(r"^rule \(([^)]*)\): ", out, re.M)
    assert taught.count("trail") + taught.count("capture") + taught.count("build") >= 2, taught


def test_a_resumed_game_does_not_teach_again_what_its_moves_met() -> None:
    rules = load_rules("standard")
    record = Record(rules, 21, 2, False, ["human", "random"], source="standard")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.json"
        first = _play(record, path, ["1"] * 6 + ["quit"])
        again = _play(load_record(path), path, ["1"] * 3 + ["quit"])
    before = re.findall(r"^rule \(([^)]*)\): (.*)$", first, re.M)
    after = re.findall(r"^rule \(([^)]*)\): (.*)$", again, re.M)
    assert before and not set(after) & set(before), (before, after)


def test_a_game_played_without_the_tutorial_and_resumed_with_it_starts_it_then() -> None:
    """A second re-attack: a game first played without the tutorial and resumed with it taught almost nothing
    (the resumed game was taken as taught). Only a record that kept its tutorial's topics is caught up."""
    rules = load_rules("standard")
    record = Record(rules, 8, 2, False, ["human", "random"], source="standard")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.json"
        replies = iter(["1"] * 6 + ["quit"])
        session = start_session(record, path, Console(file=StringIO()), read=lambda prompt: next(replies))
        session.run()
        assert load_record(path).taught is None          # (played without the tutorial: nothing kept)
        again = _play(load_record(path), path, ["1"] * 4 + ["quit"])
        assert "rule (first turn)" in again
        assert load_record(path).taught is not None and "first turn" in load_record(path).taught[0]


def test_the_scoring_is_read_before_the_screen_is_cleared_and_each_person_gets_the_games_events() -> None:
    """A second re-attack: with three people at one keyboard a hand's scoring was cleared the moment it was
    printed, and the new deal and end of hand were taught only to whoever was at the keyboard; a third saw
    the mover's cards left on the screen while everyone was asked to read. What everyone is to read is said
    again on a cleared screen, with no hand on it, and waited for before the keyboard is passed."""
    rules = load_rules("standard")
    record = Record(rules, 21, 3, False, ["human"] * 3, source="standard")
    with tempfile.TemporaryDirectory() as folder:
        out = _play(record, Path(folder) / "g.json", moves=60)
    waits = out.split("<<prompt press Enter when everyone has read the above")[:-1]
    assert len(waits) >= 2
    shared = [chunk.rsplit("─" * 20, 1)[-1] for chunk in waits]   # (from the clearing rule to the wait)
    assert all("your hand: " not in screen and "<<prompt" not in screen for screen in shared), shared
    assert any("points this hand" in screen for screen in shared)   # (a hand's scoring)
    assert any("rule (new deal)" in screen for screen in shared)
    for screen in out.split("─" * 20):   # nothing said twice on one screen
        said = re.findall(r"^rule \((?:[^)]*)\): (.*)$", screen, re.M)
        assert len(said) == len(set(said)), said


def test_a_damaged_tutorial_field_is_refused_in_words(tmp_path: Path) -> None:
    import json

    from cassino.apps.game.records import RecordError

    rules = load_rules("standard")
    record = Record(rules, 8, 2, False, ["human", "random"], source="standard", taught={0: ["trail"]})
    path = tmp_path / "g.json"
    record.save(path)
    assert load_record(path).taught == {0: ["trail"]}
    for bad, words in ((["trail"], "must be a mapping"), ({"taught": {"1": ["trail"]}}, "not a person's seat"),
                       ({"taught": {"0": "trail"}}, "must be a list of at most 200 names"),
                       ({"taught": {"x": []}}, "not a person"), ({"taught": {"0": [7]}}, "of 1 to 60 characters"),
                       ({"taught": {"0": ["x" * 61]}}, "of 1 to 60 characters"),
                       ({"taught": {"0": ["trail"] * 201}}, "at most 200 names"), ({"other": {}}, "the topics each person")):
        data = json.loads(path.read_text())
        data["tutorial"] = bad
        (tmp_path / "bad.json").write_text(json.dumps(data))
        try:
            load_record(tmp_path / "bad.json")
        except RecordError as e:
            assert words in str(e) and "bad.json" in str(e), (bad, str(e))
        else:
            raise AssertionError(f"{bad!r} was taken")


def test_a_watched_game_teaches_the_games_events() -> None:
    """A third re-attack: `--humans 0 --tutorial` showed no lesson at all (the docs: the tutorial may be
    watched); a watcher is taught what happens to the game, never a player's own rule."""
    rules = load_rules("standard")
    record = Record(rules, 1, 2, False, ["random", "random"], source="standard")
    with tempfile.TemporaryDirectory() as folder:
        out = _play(record, Path(folder) / "g.json", moves=0)
        taught = load_record(Path(folder) / "g.json").taught
    topics = set(re.findall(r"^rule \(([^)]*)\): ", out, re.M))
    assert {"new deal", "end of hand"} <= topics and not topics & {"capture", "trail", "build"}, topics
    assert not taught   # (nobody's to keep)


def test_help_offers_undo_only_where_it_works() -> None:
    """A third re-attack: with two people at one keyboard `help` said "Undo takes back one action" (Swazi),
    and `undo` was refused: undo is for games against computer players."""
    rules = load_rules("swazi-casino")
    for seats, offered in ((["human", "human"], False), (["human", "greedy"], True)):
        record = Record(rules, 3, 2, False, seats, source="swazi-casino")
        with tempfile.TemporaryDirectory() as folder:
            out = _play(record, Path(folder) / "g.json", ["", "help", "undo"] if not offered else ["help", "undo"])
        text = out.split("<<prompt seat 0> >>", 1)[1] if "<<prompt seat 0> >>" in out else out
        assert ("undo (take back" in text and "Undo takes back one action" in text) == offered, text[:1500]


def test_a_turn_the_game_ends_for_a_person_is_read_before_the_keyboard_passes() -> None:
    """A fourth re-attack: in African Casino "nothing left for your hand to build: your turn ends" was cleared
    at once with several people at one keyboard; it is about that person's hand, read by them alone."""
    rules = load_rules("swazi-casino")
    record = Record(rules, 42, 2, False, ["human", "human"], source="swazi-casino")
    with tempfile.TemporaryDirectory() as folder:
        out = _play(record, Path(folder) / "g.json", moves=12)
    ends = [k for k in range(len(out)) if out.startswith("your turn ends", k)]
    assert ends, "no turn was ended for a person: the case is not the one meant"
    waited = 0
    for k in ends:
        following = out[k:].split("<<prompt ", 1)[1]
        assert following.startswith("press Enter once you have read that") or following.startswith("seat "), \
            out[k - 200:k + 300]
        waited += following.startswith("press Enter once you have read that")
    assert waited, "no turn ended for one person before the keyboard passed to the other"
