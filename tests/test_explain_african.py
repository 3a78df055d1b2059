"""`cassino explain` shows African Casino's building settings (issue 36): each one's value, the schema's
words for it, where the value comes from, and the file's reading of it."""

from __future__ import annotations

from pathlib import Path

import pytest

NEW = ("pile_cards", "raise_partners", "augment_opponents", "one_per_value", "one_per_player")


def _line(out: str, key: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith(key + " ="))


@pytest.mark.parametrize("name, values", [
    ("swazi-casino", {"pile_cards": "augment", "raise_partners": "no", "augment_opponents": "no",
                      "one_per_value": "yes", "one_per_player": "no   [default]"}),
    ("south-african-casino", {"pile_cards": "augment", "raise_partners": "no", "augment_opponents": "no",
                              "one_per_value": "yes", "one_per_player": "yes"}),
])
def test_each_setting_its_value_and_where_it_comes_from(cli, name: str, values: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("explain", name)
    assert code == 0, err
    for key in NEW:
        assert _line(out, key).strip() == f"{key} = {values[key]}", key
    lines = out.splitlines()
    pile = lines.index(next(line for line in lines if line.strip().startswith("pile_cards =")))
    assert "only augments" in lines[pile + 1]                       # the schema's words under the value
    assert lines[pile + 2].strip().startswith("Reading: ")          # the file's reading of it


def test_a_house_rule_of_swazi_says_which_file_gives_each(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "my-swazi.yaml"
    path.write_text("name: my-swazi\ndescription: Swazi with one build a player\nextends: swazi-casino\n"
                    "build:\n  one_per_player: true\n", encoding="utf-8")
    code, out, err = cli("explain", str(path))
    assert code == 0, err
    for key in ("pile_cards", "raise_partners", "augment_opponents", "one_per_value"):
        assert _line(out, key).endswith("[from swazi-casino.yaml]"), key
    assert _line(out, "one_per_player").strip() == "one_per_player = yes"     # its own
    code, out, err = cli("explain", "royal")
    assert code == 0, err
    assert _line(out, "pile_cards").strip() == "pile_cards = taken   [default]"
