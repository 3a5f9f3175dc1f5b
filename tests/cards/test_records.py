"""Card records: documented examples replay, exports hide what a seat did not see, the CLI."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cambio.cards import Rules, State, card_code, observe
from cambio.cards.actions import Kind, action_text, kind_of
from cambio.records.cards import export, make_header, record_text, replay, run
from cambio.records.jsonl import RecordError, parse_record

ROOT = Path(__file__).resolve().parents[2]
CAMBIO = [sys.executable, "-m", "cambio.cli.main"]


def doc_examples() -> list[str]:
    text = (ROOT / "docs" / "records.md").read_text()
    return re.findall(r"```jsonl\n(.*?)```", text, flags=re.S)


def test_documented_examples_replay():
    full, eyes = doc_examples()
    result = replay(parse_record(full))
    assert result.summary()["scores"] == [11, 18] and result.summary()["winners"] == [0]
    # The player's-eye example is exactly what export produces for seat 1.
    assert export(result, 1).splitlines() == eyes.strip().splitlines()
    assert export(result, None).splitlines() == full.strip().splitlines()
    assert replay(parse_record(eyes)).summary()["validated"] is False


def _random_round(seed: int, preset: str, players: int) -> State:
    s = State(Rules.preset(preset), players, seed=seed)
    rng = random.Random(seed)
    while not s.is_over():
        acts = s.legal_actions()
        calm = [a for a in acts if kind_of(a) not in (Kind.CAMBIO, Kind.SNAP)] or acts
        s.apply(rng.choice(calm if s.turn_number < 10 else acts))
    return s


@pytest.mark.parametrize("preset", ["rulebook", "house", "wikipedia"])
def test_players_eye_export_shows_only_what_the_seat_saw(preset):
    """Every card an export shows a seat is one that seat's view shows at that moment."""
    for seed in range(25):
        players = 2 + seed % 4
        s = _random_round(seed, preset, players)
        header = make_header(s.rules, players, seed=seed)
        for seat in range(players):
            events = parse_record(record_text(header, s.history, seat=seat)).events
            replayed = State(s.rules, players, seed=seed)
            _only_known(events[0]["deal"], observe(replayed, seat))
            for ev, (who, action) in zip(events[1:], s.history, strict=False):
                assert ev["action"] == action_text(action) and ev["seat"] == who
                replayed.apply(action, who)
                view = observe(replayed, seat)
                visible = {card_code(c) for g in view.grids for c in g if c >= 0}
                visible |= {card_code(c) for c in view.discard}
                if view.held >= 0:
                    visible.add(card_code(view.held))
                if view.last_snap is not None:
                    visible.add(card_code(view.last_snap[2]))
                shown = [ev.get("card")] + ev.get("cards", []) + [ev.get("discarded")]
                for code in shown:
                    assert code is None or code in visible, (seed, seat, ev)
                assert "penalty" not in ev


def _only_known(deal, view):
    """The exported deal shows exactly the cards the seat's view shows at the start."""
    for g, vg in zip(deal, view.grids, strict=True):
        for code, c in zip(g, vg, strict=True):
            assert code == ("?" if c < 0 else card_code(c))


def test_full_export_round_trips_and_detects_tampering():
    s = _random_round(3, "house", 3)
    header = make_header(s.rules, 3, seed=3)
    text = record_text(header, s.history)
    assert export(replay(parse_record(text)), None) == text
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if '"card": ' in line and i > 1)
    ev = json.loads(lines[k])
    ev["card"] = "QS" if ev["card"] != "QS" else "QD"
    lines[k] = json.dumps(ev)
    with pytest.raises(RecordError) as err:
        replay(parse_record("\n".join(lines)))
    assert err.value.line == k + 1


def test_record_of_a_different_seed_is_rejected():
    s = _random_round(5, "rulebook", 2)
    text = record_text(make_header(s.rules, 2, seed=5), s.history)
    wrong = text.replace('"seed": 5', '"seed": 6', 1)
    with pytest.raises(RecordError):
        replay(parse_record(wrong))


def test_cli_replay_json_and_errors(tmp_path):
    s = _random_round(7, "wikipedia", 4)
    path = tmp_path / "game.jsonl"
    path.write_text(record_text(make_header(s.rules, 4, seed=7), s.history))
    out = subprocess.run(CAMBIO + ["replay", str(path), "--json"], capture_output=True,
                         text=True, check=True)
    summary = json.loads(out.stdout)
    assert summary["scores"] == s.scores() and summary["winners"] == s.winners()
    shown = subprocess.run(CAMBIO + ["replay", str(path)], capture_output=True, text=True,
                           check=True)
    assert "Reveal" in shown.stdout
    bad = tmp_path / "bad.jsonl"
    lines = path.read_text().splitlines()
    lines[4] = '{"seat": 0, "action": "fly away"}'
    bad.write_text("\n".join(lines))
    failed = subprocess.run(CAMBIO + ["replay", str(bad), "--json"], capture_output=True,
                            text=True)
    assert failed.returncode == 2
    assert "line 5" in failed.stderr and "unknown action" in failed.stderr
    assert failed.stdout == ""


def test_cli_export_for_one_seat(tmp_path):
    s = _random_round(8, "rulebook", 3)
    path = tmp_path / "game.jsonl"
    path.write_text(record_text(make_header(s.rules, 3, seed=8), s.history))
    out = subprocess.run(CAMBIO + ["export", str(path), "--seat", "2"], capture_output=True,
                         text=True, check=True)
    header = json.loads(out.stdout.splitlines()[0])
    assert header["view"] == 2 and "seed" not in header and "deck" not in header


def test_run_matches_the_state():
    s = _random_round(11, "house", 5)
    result = run(make_header(s.rules, 5, seed=11), [(w, a, 0, {}) for w, a in s.history])
    assert result.state == s


def test_a_round_ended_by_the_turn_cap_replays_and_exports():
    rules = Rules.preset("house", max_turns=12)
    s = State(rules, 3, seed=21)
    while not s.is_over():
        acts = [a for a in s.legal_actions() if kind_of(a) not in (Kind.CAMBIO, Kind.SNAP)]
        s.play(acts[0])
    header = make_header(rules, 3, seed=21)
    text = record_text(header, s.history)
    result = replay(parse_record(text))
    assert result.state == s and result.state.end_reason.name == "TURN_CAP"
    assert json.loads(text.splitlines()[0])["rules"]["overrides"] == {"max_turns": 12}
    assert '"reason": "turn_cap"' in text
    for seat in range(3):
        parse_record(export(result, seat))
