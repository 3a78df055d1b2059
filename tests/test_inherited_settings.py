"""Settings inherited without a word (issue 36): finnish-kasino extended standard and kept its
`endgame.lifted_after_tie: true`, which lifted the Finnish limit on sweeps after a tie past 16.
The file now says it, and `cassino explain` marks, for a file that extends another, each value
the file does not set itself with the file (or the schema default) it comes from."""

from __future__ import annotations


def _line(out: str, setting: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(f"  {setting} = "))


def test_explain_marks_each_inherited_value_with_its_file(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("explain", "finnish-kasino")
    assert code == 0
    assert "extends: standard\n" in out   # as the file names it (issue 50)
    assert _line(out, "lifted_after_tie") == "  lifted_after_tie = no"          # its own, now said
    assert _line(out, "on_last_play").endswith("[from standard.yaml]")
    assert _line(out, "from_piles").endswith("[default]")
    assert _line(out, "sweeps_from").endswith("= 10")


def test_explain_marks_a_chain_of_parents(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("explain", "dominican-soto")
    assert code == 0
    assert "extends: dominican -> royal -> standard\n" in out
    assert _line(out, "sweeps_from").endswith("[from dominican.yaml]")
    assert _line(out, "hand_size").endswith("[from standard.yaml]")


def test_a_file_that_extends_nothing_has_no_marks(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("explain", "standard")
    assert code == 0
    assert "[from" not in out and "[default]" not in out and "extends:" not in out


def test_a_house_rule_shows_what_it_inherits(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    house = tmp_path / "mine.yaml"
    house.write_text("name: mine\ndescription: no sums\nextends: finnish-kasino\ncapture: {sums: false}\n")
    code, out, _ = cli("explain", str(house))
    assert code == 0
    assert _line(out, "sums") == "  sums = no"
    assert _line(out, "lifted_after_tie").endswith("[from finnish-kasino.yaml]")

