"""Cards worth more than 61 (the schema allows values up to 99): the one-value passes read their tables of cards
by worth at the deck's highest value, never past it (issue 52's pass drops the cards worth too much at once)."""

from __future__ import annotations

from pathlib import Path

RANKS = "\n".join(f'    - {{rank: "{r}", value: {v}}}' for r, v in
                  [("A", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7), ("8", 8), ("9", 9),
                   ("10", 10), ("J", 70), ("Q", 75), ("K", 99)])


def test_sums_past_sixty_one_are_found(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rules = tmp_path / "big.yaml"
    rules.write_text(f"name: big-values\nextends: standard\ndeck:\n  ranks:\n{RANKS}\n", encoding="utf-8")
    case = tmp_path / "case.yaml"
    case.write_text(f"variant: {rules}\ncases:\n  - name: a sum past 61\n    table: [JS, 5H, 4C, AD]\n"
                    "    hand: [QS, 2C]\n    expect:\n      legal: [\"QS capture JS 5H\", \"QS capture JS 4C AD\"]\n"
                    "      illegal: [{move: \"QS capture JS 4C\", reason: \"cannot be taken\"}]\n", encoding="utf-8")
    code, out, err = cli("check", str(case))
    assert code == 0, out + err
