"""`cassino play` says what the rules did as it happens (a player's audit of the terminal game): the cards a deal
lays on the table because they are too few to go round, every sweep in its move's line with what it scores (a
penalty, where the lowest total wins), and a move that cannot be read in the words of this game's actions."""

from __future__ import annotations

import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from cassino.apps.authors.rulebooks import full_rulebook
from cassino.apps.game.play import Session, start_session
from cassino.apps.game.records import Record, load_record, replay
from cassino.apps.game.session import GameSession
from cassino.engine.game import Game
from cassino.engine.moves import MoveKind
from cassino.engine.notation import cards_text, format_move, parse_move
from cassino.errors import CassinoError
from cassino.language.render import render
from cassino.language.variants import load_rules


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cassino", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)


def watched(tmp_path: Path, variant: str, players: int, seed: int) -> tuple[str, Record]:
    """A game of computer players (greedy) watched through the command line: its screen and its record."""
    result = run(["play", variant, "--players", str(players), "--humans", "0", "--bot", "greedy", "--seed", str(seed),
                  "--save", "g.json", "--force"], tmp_path)
    assert result.returncode == 0, result.stderr
    return result.stdout, load_record(tmp_path / "g.json")


def deals(record: Record) -> list[tuple[int, int, str]]:
    """(hand, deal, the cards on the table as the deal was dealt) of every deal after a hand's first."""
    out = []

    def seen(before: Game, action: str, after: Game) -> None:
        if after.hand_no == before.hand_no and after.hand.deal_no != before.hand.deal_no:
            out.append((after.hand_no, after.hand.deal_no, " ".join(cards_text(after.engine.deck, after.hand.table))))

    replay(record, each=seen)
    return out


# ---------------------------------------------------------------- the cards a deal leaves over
def test_six_at_krypkasino_are_told_the_last_deals_four_cards_go_to_the_table(tmp_path: Path) -> None:
    """104 - 4 cards deal out to six in four deals of 24 and four cards over: the rulebook says they "go face up to
    the table at the last full deal", and the game said nothing as they appeared there."""
    book = " ".join(render(full_rulebook("krypkasino"), "text").split())
    assert "the last four cards, too few to give each player one, go face up to the table at the last full deal" in book
    screen, record = watched(tmp_path, "krypkasino", 6, 1)
    said = "the last 4 cards, too few to give each player one, go face up to the table with this deal: "
    hands = len(replay(record).results)
    assert screen.count(said) == hands >= 2
    for hand_no, deal_no, table in deals(record):
        block = screen.split(f"krypkasino — hand {hand_no}, deal {deal_no} ")[1].split(" plays ")[0]
        if deal_no == 4:   # (said under the deal's banner, before anyone plays in it; the cards are on the table)
            laid = block.split(said)[1].splitlines()[0].split()
            assert len(laid) == 4 and set(laid) <= set(table.split())
        else:
            assert said not in block


def test_a_short_last_deal_says_the_cards_left_over_whatever_the_variant(tmp_path: Path) -> None:
    """Not a branch on a variant's name: a house rule of standard whose stock cannot give five players a full last
    hand deals it out one by one and says where the three cards over go."""
    (tmp_path / "short.yaml").write_text("name: short-five\ndescription: five at standard, a short last deal\n"
                                         "extends: standard\nseats: {max_players: 5}\n"
                                         "deal: {short_stock: split_rest_to_table}\n", encoding="utf-8")
    screen, _ = watched(tmp_path, "short.yaml", 5, 2)
    assert ("the stock cannot give everyone a full hand: it is dealt out evenly, 1 card each, and the 3 cards left "
            "over go face up to the table: ") in screen
    even, _ = watched(tmp_path, "krypkasino", 5, 2)    # (100 cards deal out to five in fours: nothing said)
    assert "left over" not in even and "too few to give each player one" not in even


def test_a_person_leading_the_last_deal_reads_it_above_their_hand(tmp_path: Path) -> None:
    out = StringIO()
    seats = ["greedy", "human"] + ["greedy"] * 4    # (seat 1 leads every deal of the first hand)
    record = Record(load_rules("krypkasino"), 1, 6, False, seats, source="krypkasino")
    console = Console(file=out, width=200, markup=False, highlight=False, soft_wrap=True)
    screens: list[str] = []

    def read(prompt: str) -> str:
        screens.append(out.getvalue())
        if len(screens) > 18:
            raise EOFError
        return "1"

    start_session(record, tmp_path / "g.json", console, read=read).run()
    fourth = next(s for s in screens if "hand 1, deal 4" in s)
    last = fourth.split("hand 1, deal 4")[1]
    assert "the last 4 cards, too few to give each player one, go face up to the table with this deal" in last
    assert last.index("too few") < last.index("your hand:")


# ---------------------------------------------------------------- sweeps, as they are made
def swept(record: Record) -> list[bool]:
    """Whether each action of ``record`` recorded a sweep (the hand's own count, the engine's)."""
    out = []

    def seen(before: Game, action: str, after: Game) -> None:
        hand = before.engine.play(before.hand, parse_move(action, before.engine.deck))
        out.append(len(hand.sweeps) > len(before.hand.sweeps))

    replay(record, each=seen)
    return out


def move_lines(screen: str) -> list[str]:
    return [line for line in screen.splitlines() if " plays " in line]


@pytest.mark.parametrize("variant, seed, worth", [
    ("scopa", 2, ", 1 point to seat "),
    ("standard", 2, " (it scores nothing here)"),
])
def test_every_sweep_is_said_in_its_moves_line_with_what_it_scores(tmp_path: Path, variant: str, seed: int,
                                                                    worth: str) -> None:
    screen, record = watched(tmp_path, variant, 2, seed)
    lines = move_lines(screen)
    assert len(lines) == len(record.actions)
    made = swept(record)
    assert any(made)
    for line, sweep in zip(lines, made):
        assert (": a sweep" in line) == sweep, line
        if sweep:
            assert worth in line, line


def test_cards_left_at_the_end_that_count_as_a_sweep_are_said_so(tmp_path: Path) -> None:
    """A sweep nobody chose (``sweeps.residue_is_sweep``): the last capture's taking of what is left at the hand's
    end counts as one, and only the seat's sweep count said so."""
    (tmp_path / "residue.yaml").write_text(
        "name: residue-sweeps\ndescription: standard, the cards left at the end a sweep\nextends: standard\n"
        "sweeps: {residue_is_sweep: true}\nscoring: {items: {sweeps: {points: 1}}}\n", encoding="utf-8")
    screen, record = watched(tmp_path, "residue.yaml", 2, 2)
    lines = move_lines(screen)
    game, ends = record.new_game(), []
    for k, action in enumerate(record.actions):
        after = game.play(parse_move(action, game.engine.deck))
        if after.hand_no != game.hand_no or after.over:
            ends.append(k)
        game = after
    residue = [k for k, line in enumerate(lines) if "the last to capture, and count as a sweep" in line]
    assert residue and set(residue) <= set(ends)
    for k in residue:   # (its worth, to the seat the cards went to)
        assert lines[k].endswith(", 1 point to " + lines[k].split("go to ")[1].split(", the last")[0])


def test_kasino_misar_says_a_sweep_is_a_penalty_when_it_is_made(tmp_path: Path) -> None:
    """Won by the lowest total: a sweep (the tabbe) costs the sweeper 5 and gives -5 to the player before; a
    player's audit learnt it only from the hand's scoring. Your own sweep is said too (your moves are not
    otherwise repeated)."""
    result = subprocess.run([sys.executable, "-m", "cassino", "play", "kasino-misar", "--bot", "greedy", "--seed", "1",
                             "--save", "g.json"], input="1\n" * 400, capture_output=True, text=True, cwd=tmp_path,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    said = [line for line in result.stdout.splitlines() if ": a sweep" in line]
    assert len(said) == sum(swept(load_record(tmp_path / "g.json"))) > 0
    for line in said:
        sweeper = line.split(" plays ")[0].split("> ")[-1]
        assert f": a sweep (tabbe), a penalty of 5 points against {sweeper}; -5 to seat " in line, line
        assert line.endswith(", the player before"), line
    assert any(line.split("> ")[-1].startswith("seat 0 (you) plays ") for line in said)


# ---------------------------------------------------------------- moves that cannot be read
def _session(tmp_path: Path, variant: str, seed: int = 3) -> Session:
    rules = load_rules(variant)
    players = rules.seats.min_players
    record = Record(rules, seed, players, False, ["human"] + ["greedy"] * (players - 1), source=variant)
    console = Console(file=StringIO(), width=200, markup=False, highlight=False, soft_wrap=True)
    return start_session(record, tmp_path / "g.json", console, read=lambda prompt: "quit")


def _refusal(session: GameSession, text: str) -> str:
    with pytest.raises(CassinoError) as e:
        session.read_move(text)
    return str(e.value)


@pytest.mark.parametrize("variant", ["scopa", "escoba", "scopone", "krypkasino"])
def test_a_word_after_the_card_is_answered_with_this_games_actions(tmp_path: Path, variant: str) -> None:
    """No building in these games: "write trail, capture or build" named an action they do not have."""
    session = _session(tmp_path, variant)
    card = cards_text(session.game.engine.deck, session.game.hand.hands[0])[0]
    assert not session.game.rules.build.allowed
    said = _refusal(session, f"{card} foo")
    assert said == "`foo` is not an action: after the played card write trail or capture"
    assert _refusal(session, f"{card} captur").endswith("write trail or capture (did you mean `capture`?)")
    assert _refusal(session, card) == f"the move ends too soon: after the played card write trail or capture, " \
                                      f"e.g. `{card} trail`"
    assert _refusal(session, f"{card} build 9") == "there is no building here: after the played card write trail or " \
                                                   "capture"


def test_where_building_is_allowed_the_word_after_the_card_still_names_it(tmp_path: Path) -> None:
    session = _session(tmp_path, "standard")
    card = cards_text(session.game.engine.deck, session.game.hand.hands[0])[0]
    assert _refusal(session, f"{card} foo") == \
        "`foo` is not an action: after the played card write trail, capture or build"
    assert "ends too soon" in _refusal(session, f"{card} build 9")   # (the notation's words: building is allowed)


# ---------------------------------------------------------------- `end end`
def test_end_written_twice_is_answered_in_plain_words(tmp_path: Path) -> None:
    """South African Casino: a turn holds several actions and `end` ends it; `end end` was answered "unexpected
    `end`; expected the move's end"."""
    session = _session(tmp_path, "south-african-casino")
    game = session.game
    # Before the card from the hand, the turn cannot end: the reason `end` alone gets.
    alone = game.engine.why_illegal(game.hand, parse_move("end", game.engine.deck))
    assert _refusal(session, "end end") == alone
    while not session.game.hand.turn_card:   # (until a turn goes on after its card from the hand)
        session.act(format_move(session.game.legal_moves()[0], game.engine.deck))
    assert session.read_move("end").kind is MoveKind.END
    assert _refusal(session, "end end") == "write `end` once to end your turn"
    assert _refusal(session, "END  End") == "write `end` once to end your turn"
    assert _refusal(session, "end turn") == "write `end` alone to end your turn"
    assert "move's end" not in _refusal(session, "end now")


@pytest.mark.parametrize("variant,said", [
    ("south-african-casino", "`end` is an action of its own: it ends a turn of several actions after `;`"),
    ("standard", "`end` is no card nor action here: a turn is one move, which ends it"),
])
def test_end_where_a_card_belongs_is_said_as_the_word(tmp_path: Path, variant: str, said: str) -> None:
    """`5H capture end` was read as the card "en" and a stray `d` ("unexpected `d`"); `end` is said as a turn's end
    only where a turn holds several actions (build.free_actions)."""
    session = _session(tmp_path, variant)
    card = cards_text(session.game.engine.deck, session.game.hand.hands[0])[0]
    assert _refusal(session, f"{card} capture end").startswith(said)
