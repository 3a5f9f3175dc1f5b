"""``cambio play cards``: whole games driven through the input stream, as a pipe would."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest
from rich.console import Console

from cambio.cards import Rules
from cambio.records.cards import replay
from cambio.records.jsonl import load_record
from cambio.terminal.cards import TerminalOptions, run_terminal

CARD = re.compile(r"\b(?:[A2-9TJQK][CDHS]|X[BR])\b")


class Autopilot:
    """Answers the game's prompts like a careless human, reading what was printed last.

    It types one bad answer first, snaps at the first snap prompt, and otherwise picks among
    the choices each prompt lists. Its answers are kept so a session can be re-run as a pipe.
    """

    def __init__(self, out: io.StringIO, seed: int, rounds: int = 1, stop_after: int = 10**5):
        self.out = out
        self.rng = Random(seed)
        self.rounds = rounds
        self.stop_after = stop_after
        self.answers: list[str] = []
        self.turns = 0
        self.snapped = False

    def readline(self) -> str:
        if len(self.answers) >= self.stop_after:
            return ""
        text = self.out.getvalue()
        prompt = text[:text.rfind("> ")].rstrip("\n").splitlines()[-1]
        answer = self.answer(prompt)
        self.answers.append(answer)
        return answer + "\n"

    def answer(self, p: str) -> str:
        r = self.rng
        if not self.answers:
            return "xyz"
        if p.startswith("Your turn."):
            self.turns += 1
            if "c = call Cambio" in p and self.turns > 5:
                return "c"
            return "t" if "t = take" in p and r.random() < 0.3 else "d"
        if p.startswith("You drew"):
            return r.choice([*listed(r"slot \(([\d ]+)\)", p), "d", "d"])
        if p.startswith("You took"):
            return listed(r"slots \(([\d ]+)\)", p)[0]
        if p.startswith("Snap?"):
            if not self.snapped:
                self.snapped = True
                return "0"
            return r.choice(["", "", "", "", "", "p", "1.0"])
        if p.startswith("Give one"):
            return p.rsplit("Your slots: ", 1)[1].rstrip(".").split()[0]
        if "s = swap these two cards" in p:
            return r.choice(["s", "k"])
        if "s = skip" in p and r.random() < 0.3:
            return "s"
        if p.startswith("Power of") or "Now swap any two" in p:
            inside = p[p.rfind("(") + 1: p.rfind(")")]
            if "your slot, then theirs" in p:
                yours, theirs = inside.split("theirs:")
                return f"{r.choice(re.findall(r'[0-9.]+', yours.split(':')[1]))} " \
                       f"{r.choice(re.findall(r'[0-9]+[.][0-9]+', theirs))}"
            slots = re.findall(r"[0-9]+(?:[.][0-9]+)?", inside)
            return r.choice(slots) if "Type a slot" in p else " ".join(r.sample(slots, 2))
        if p.startswith("Play another round?"):
            self.rounds -= 1
            return "y" if self.rounds > 0 else "n"
        raise AssertionError(f"unexpected prompt: {p!r}")


def listed(pattern: str, prompt: str) -> list[str]:
    found = re.search(pattern, prompt)
    assert found, prompt
    return found.group(1).split()


def play(preset: str, players: int, seed: int, *, seat: int = 0, bots: str = "memory",
         assist: bool = False, rounds: int = 1, stop_after: int = 10**5,
         record: Path | None = None, hint: bool = False,
         **overrides: object) -> tuple[int, str, Autopilot]:
    out = io.StringIO()
    pilot = Autopilot(out, seed, rounds, stop_after)
    options = TerminalOptions(Rules.preset(preset, **overrides), players, seat,
                              (bots,) * (players - 1), seed=seed, assist=assist, hint=hint,
                              record=record)
    code = run_terminal(options, pilot, Console(file=out, width=100))
    return code, out.getvalue(), pilot


def before_reveal(text: str) -> str:
    return text.split("Round over")[0]


@pytest.mark.parametrize("preset", ["rulebook", "house", "wikipedia"])
@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_a_whole_round_through_the_input_stream(preset, players, tmp_path):
    record = tmp_path / "game.jsonl"
    code, text, _ = play(preset, players, seed=players * 7, seat=players // 2,
                             bots="memory" if players < 5 else "random", record=record)
    assert code == 0
    assert "Traceback" not in text
    assert "'xyz' is not a choice here" in text  # a bad answer is refused, then re-asked
    assert "Snap? The top card is" in text
    assert re.search(r"You snapped your slot 0: \w\w, (right|wrong)", text)
    assert "Round over" in text and "Winner" in text and text.rstrip().endswith("playing!")
    result = replay(load_record(record)).summary()
    assert result["validated"] and result["over"]
    reveal = text.split("Round over")[1]
    for s, score in enumerate(result["scores"]):
        name = "you" if s == players // 2 else f"seat {s} ("
        line = next(ln for ln in reveal.splitlines() if ln.strip().startswith(name))
        assert f"score {score:>3}" in line
        assert ("★ wins" in line) == (s in result["winners"])


def test_own_cards_stay_face_down_unless_assisted():
    _, text, _ = play("rulebook", 3, seed=3)
    peek = re.search(r"You peek at your bottom cards: slot 2 = (\w\w), slot 3 = (\w\w)", text)
    assert peek
    mine = [ln for ln in before_reveal(text).splitlines() if ln.startswith("  you ")]
    assert mine and not any(CARD.search(ln) for ln in mine)
    _, assisted, _ = play("rulebook", 3, seed=3, assist=True)
    first = next(ln for ln in assisted.splitlines() if ln.startswith("  you "))
    assert f"2:{peek.group(1)}" in first and f"3:{peek.group(2)}" in first
    assert "0:##" in first


def test_others_actions_are_logged_from_public_facts():
    _, text, _ = play("rulebook", 4, seed=8)
    assert re.search(r"Seat \d drew from the deck and (swapped it into slot \d\.\d, "
                     r"discarding \w\w|discarded it: \w\w)\.", text)
    # a bot's drawn card is never named before it is discarded
    assert not re.search(r"Seat \d drew \w\w from the deck", text)


def test_the_same_answers_through_a_real_pipe_give_the_same_game():
    code, text, pilot = play("wikipedia", 3, seed=21)
    assert code == 0
    done = subprocess.run(
        [sys.executable, "-m", "cambio.cli.main", "play", "cards", "--players", "3",
         "--rules", "wikipedia", "--seed", "21", "--bots", "memory"],
        input="\n".join(pilot.answers) + "\n", capture_output=True, text=True, timeout=60,
        check=False)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.split("Round over")[1] == text.split("Round over")[1]


def test_end_of_input_mid_round_leaves_cleanly_and_keeps_a_partial_record(tmp_path):
    record = tmp_path / "partial.jsonl"
    code, text, _ = play("house", 3, seed=5, stop_after=6, record=record)
    assert code == 0
    assert text.rstrip().endswith("Input ended: leaving the game. Bye!")
    result = replay(load_record(record)).summary()
    assert result["validated"] and not result["over"] and result["actions"] > 0


def test_end_of_input_through_a_pipe_is_not_a_traceback():
    done = subprocess.run(
        [sys.executable, "-m", "cambio.cli.main", "play", "cards", "--seed", "1"],
        input="d\nbanana\n", capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0
    assert "Traceback" not in done.stdout + done.stderr
    assert "'banana' is not a choice here" in done.stdout
    assert "Input ended" in done.stdout


@pytest.mark.parametrize("answers, message, prompt", [
    ("c", "Cambio may be called from turn 9 on.", "Your turn."),
    ("", "'' is not a choice here", "Your turn."),
    ("swap 7", "'swap 7' is not a choice here", "Your turn."),
    ("d\n7", "There is no slot 7.", "You drew"),
    ("d\n2 3", "'2 3' is not a choice here", "You drew"),
    ("d\n1.1", "Choose one of your own slots", "You drew"),
])
def test_bad_answers_are_explained_and_asked_again(answers, message, prompt):
    out = io.StringIO()
    options = TerminalOptions(Rules.preset("rulebook", earliest_cambio_turn=9), 2, 0,
                              ("memory",), seed=2)
    code = run_terminal(options, io.StringIO(f"{answers}\nq\n"), Console(file=out))
    text = out.getvalue()
    assert code == 0
    assert message in text
    assert text.count(prompt) == 2 and "You left the game" in text


@pytest.mark.parametrize("preset", ["rulebook", "wikipedia"])
def test_a_match_of_two_rounds_keeps_totals_and_picks_the_next_first_player(preset):
    _, text, _ = play(preset, 3, seed=13, rounds=2)
    starts = re.findall(r"Round (\d) · seat (\d) deals, seat (\d) plays first", text)
    assert [r for r, _, _ in starts] == ["1", "2"]
    first_round = text.split("Round 2 ·")[0].split("Round over")[1]
    winners = [int(m) for m in re.findall(r"seat (\d) \(memory\)[^\n]*★ wins", first_round)]
    if "you " in first_round and "★ wins" in first_round.split("  you ")[1].split("\n")[0]:
        winners.append(0)
    if preset == "rulebook":
        assert starts[1][2] == "1"  # the dealer moved one seat left
    else:
        assert int(starts[1][2]) in winners  # the winner of the last round starts
    totals = re.findall(r"match total (-?\d+)", text)
    assert len(totals) == 6


def test_hints_suggest_a_legal_move_from_the_players_view():
    code, text, _ = play("rulebook", 2, 4, hint=True, stop_after=12)
    assert code == 0
    hints = [line for line in text.splitlines() if line.startswith("hint: ")]
    assert len(hints) >= 3
    assert any("expected final score" in line and "win chance" in line for line in hints)
    # A hint is printed before each question and names one of the moves offered.
    assert all(line.split()[1] in {"draw", "discard", "swap", "cambio", "peek", "switch",
                                   "look", "keep", "pass", "snap", "give", "skip", "take"}
               for line in hints)


def test_a_cabo_match_plays_to_its_target_of_100():
    code, text, _ = play("cabo", 2, seed=3, rounds=200)
    assert code == 0
    assert "The match is over (someone passed 100)" in text
    totals = [int(t) for t in re.findall(r"match total (-?\d+)", text)]
    assert max(totals[-2:]) > 100 and max(totals[:-2]) <= 100


def test_several_slots_exchange_equal_cards_at_the_drawn_prompt():
    from cambio.cards import State, observe
    from cambio.cards.actions import exchange
    from cambio.terminal.cards_prompts import _swap_or_exchange

    s = State(Rules.preset("cabo"), 2, seed=1, polled=False)
    s.play("draw")
    view = observe(s, 0)
    assert _swap_or_exchange(view, "0 2") == (exchange([0, 2]), None)
    assert _swap_or_exchange(view, "0 99")[0] is None
    plain = State(Rules.preset("rulebook"), 2, seed=1, polled=False)
    plain.play("draw")
    assert _swap_or_exchange(observe(plain, 0), "0 2")[0] is None
