"""A game whose record cannot be written goes on in another file, and `save FILE` moves it there.

An audit removed the record's folder during a game: the next move stopped the game with exit 2,
and every move since the game's start was lost (the in-game `save` could not name another file).
Now the move that could not be recorded is not made, the player is asked for a new file, and the
game plays on there; an empty answer or the end of input stops it (exit 2) as its record last was.
"""

from __future__ import annotations

import shutil
from io import StringIO
from pathlib import Path
from typing import Callable

from rich.console import Console

from cassino.apps.game.play import start_session
from cassino.apps.game.records import Record, actor_of, apply_action, load_game, load_record
from cassino.language.variants import load_rules


def _session(save: Path, typed: list[str | Callable[[], str]], variant: str = "standard", seed: int = 40,
             seats: tuple[str, ...] = ("human", "greedy"), tutorial: bool = False):  # type: ignore[no-untyped-def]
    """A terminal session fed ``typed`` (a line, or a function called when the line is read, which may
    change the files first and returns the line); its screen is a string."""
    from cassino.apps.game.play import Aids

    out = StringIO()
    lines = iter(typed)

    def read(prompt: str) -> str:
        out.write(prompt)
        try:
            line = next(lines)
        except StopIteration:
            raise EOFError from None
        return line() if callable(line) else line

    record = Record(load_rules(variant), seed, len(seats), False, list(seats), source=variant)
    record.save(save)
    console = Console(file=out, width=200, markup=False, highlight=False, soft_wrap=True)
    return start_session(record, save, console, read=read, aids=Aids(tutorial=tutorial)), out


def _removed(folder: Path, line: str) -> Callable[[], str]:
    def act() -> str:
        shutil.rmtree(folder)
        return line
    return act


def test_a_record_whose_folder_is_gone_moves_to_a_file_the_player_names(tmp_path: Path) -> None:
    gone, other = tmp_path / "gone", tmp_path / "other"
    gone.mkdir()
    other.mkdir()
    session, out = _session(gone / "g.json", ["1", _removed(gone, "1"), str(other / "kept.json"), "1", "quit"])
    assert session.run() == 0
    screen = out.getvalue()
    assert "the game could not be saved" in screen and "there is no folder" in screen
    assert "a move that could not be written is not made" in screen
    assert f"saved to {other / 'kept.json'}" in screen
    record, _ = load_game(other / "kept.json")
    # Two moves of seat 0's: the first, and the one typed after the game moved to the new file (the one
    # that could not be written was not made); with the computer's moves in between.
    game, ours = record.new_game(), 0
    for action in record.actions:
        ours += actor_of(action, game) == 0
        game = apply_action(game, action)
    assert ours == 2, record.actions
    assert session.save_path == other / "kept.json"


def test_no_new_file_named_stops_the_game_with_exit_2(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    for answer in ([""], []):   # an empty line, and the end of input
        gone.mkdir(exist_ok=True)
        session, out = _session(gone / "g.json", ["1", _removed(gone, "1"), *answer])
        assert session.run() == 2
        # (the record went with its folder: stopping loses the game, and the prompt and the end say so)
        assert "Enter stops the game, which is then lost: its record is gone" in out.getvalue()
        assert f"stopped: the game is lost: its record {gone / 'g.json'} no longer exists" in out.getvalue()


def test_stopping_where_the_record_is_still_there_says_it_keeps_the_game(tmp_path: Path) -> None:
    """A record that cannot be replaced (the disk full: its writing fails) still holds the game to its last
    move, and stopping says so."""
    from cassino.apps.game.records import RecordError

    path = tmp_path / "g.json"
    session, out = _session(path, ["1", "1", ""])
    real_save = session.record.save
    calls = []

    def full(where, game=None):  # type: ignore[no-untyped-def]
        calls.append(where)
        if len(calls) >= 3:   # (the first moves are written; then the disk is full)
            raise RecordError(f"{where}: cannot write the game record: no space left on the device")
        real_save(where, game)
    session.record.save = full  # type: ignore[method-assign]
    assert session.run() == 2
    assert f"stopped: the game is not saved past its last move in {path}" in out.getvalue()
    assert "which is then lost" not in out.getvalue()
    assert load_record(path).actions   # the moves written are there


def test_a_name_that_cannot_be_used_is_refused_and_asked_again(tmp_path: Path) -> None:
    gone, other = tmp_path / "gone", tmp_path / "other"
    gone.mkdir()
    other.mkdir()
    (other / "taken.json").write_text("{}")
    session, out = _session(gone / "g.json", ["1", _removed(gone, "1"), str(other / "taken.json"),
                                               str(tmp_path / "nowhere" / "x.json"), str(other) + "/",
                                               str(other / "new.json"), "quit"])
    assert session.run() == 0
    screen = out.getvalue()
    assert "taken.json exists and is not replaced: name a file that does not exist yet" in screen
    assert "there is no folder" in screen
    assert "ends in a slash" in screen
    assert (other / "taken.json").read_text() == "{}"   # never replaced
    assert load_record(other / "new.json").actions


def test_save_file_moves_the_game_and_leaves_the_old_record_as_it_was(tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    session, out = _session(first, ["1", f"save {second}", "1", "quit"])
    assert session.run() == 0
    old, new = load_record(first), load_record(second)
    assert len(new.actions) > len(old.actions) >= 2
    assert new.actions[:len(old.actions)] == old.actions
    assert f"saved to {second}, where the game is recorded from now on" in out.getvalue()


def test_save_file_refuses_an_existing_file_and_plays_on_in_the_old_one(tmp_path: Path) -> None:
    first, taken = tmp_path / "first.json", tmp_path / "taken.json"
    taken.write_text("mine")
    session, out = _session(first, [f"save {taken}", "save   ", "1", "quit"])
    assert session.run() == 0
    assert f"not saved: {taken} exists and is not replaced" in out.getvalue()
    assert taken.read_text() == "mine"
    assert load_record(first).actions


def test_a_move_to_a_new_file_holds_that_file_while_the_game_plays(tmp_path: Path) -> None:
    """The new file is locked like the first (a second `--resume` of it is refused), and let go at the end."""
    from cassino.files import Busy, hold

    first, second = tmp_path / "first.json", tmp_path / "second.json"
    seen: list[str] = []

    def try_it() -> str:
        try:
            hold(second, what="the game record").release()
            seen.append("free")
        except Busy:
            seen.append("held")
        return "quit"

    session, _ = _session(first, [f"save {second}", try_it])
    assert session.run() == 0
    assert seen == ["held"]
    hold(second, what="the game record").release()   # free once the game is over


def test_save_reads_one_name_as_a_shell_does_and_says_how_to_resume_it(tmp_path: Path) -> None:
    """An audit's `save new3.json extra` saved to 'new3.json extra' and printed a resume command that the
    shell split; `save "with space.json"` kept the quotes in the name."""
    import shlex

    first = tmp_path / "first.json"
    spaced = tmp_path / "with space.json"
    session, out = _session(first, [f"save {tmp_path / 'a.json'} extra", f'save "{spaced}"', f"save '{spaced}'",
                                    "quit"])
    assert session.run() == 0
    screen = out.getvalue()
    assert "not saved: name one file (you gave 2 words)" in screen
    assert not (tmp_path / "a.json extra").exists() and not (tmp_path / "a.json").exists()
    assert spaced.exists() and load_record(spaced).actions == load_record(first).actions
    assert f"cassino play --resume {shlex.quote(str(spaced))}" in screen
    assert f"not saved: the game is already recorded in {spaced}" in screen


def test_every_file_the_game_was_in_stays_locked_while_it_plays(tmp_path: Path) -> None:
    """An audit found the first and the last file locked after two moves, the one in between not."""
    from cassino.files import Busy, hold

    names = [tmp_path / n for n in ("g.json", "a.json", "b.json")]
    seen: list[list[str]] = []

    def look() -> str:
        row = []
        for path in names:
            try:
                hold(path, what="the game record").release()
                row.append("free")
            except Busy:
                row.append("held")
        seen.append(row)
        return "quit"

    from cassino.files import hold as take
    first = take(names[0], what="the game record")   # (as `cassino play` holds the file it starts in)
    try:
        session, _ = _session(names[0], [f"save {names[1]}", f"save {names[2]}", look])
        assert session.run() == 0
    finally:
        first.release()
    assert seen == [["held", "held", "held"]]
    for path in names[1:]:
        hold(path, what="the game record").release()   # let go at the end
