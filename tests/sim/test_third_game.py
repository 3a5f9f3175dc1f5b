"""A third game (Nim, defined in tests/support/nim.py only) through every generic layer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from cambio.cli.main import app
from cambio.sim import run, tournament
from cambio.sim.parallel import Where

from ..support.nim import NIM, NimRules


def untimed(summary: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in keys}


def test_nim_simulates_the_same_on_one_or_two_workers(tmp_path: Path) -> None:
    config = run.RunConfig(NIM.name, NimRules(), 2, ("perfect", "random"), 40, seed=4,
                           record_dir=tmp_path, rotate=True)
    one = run.simulate(config)
    two = run.simulate(config, where=Where(2))
    assert untimed(one, run.TIMING_KEYS) == untimed(two, run.TIMING_KEYS)
    assert one["game"] == "nim" and one["games"] == 40 and one["draws"] == 0
    assert sum(one["wins"]) == 40
    # Perfect play wins every pile not a multiple of 4 that it moves first on, so it wins
    # far more than half.
    assert one["by_bot"]["perfect"]["wins"] > 30
    assert len(list(tmp_path.glob("game-*.jsonl"))) == 40


def test_nim_tournament_on_workers() -> None:
    config = tournament.TournamentConfig(NimRules(), 2, ("perfect", "random"), 24, seed=1,
                                         game=NIM.name)
    one = tournament.summarize(config, tournament.run(config))
    two = tournament.summarize(config, tournament.run(config, where=Where(2)))
    assert untimed(one, tournament.TIMING_KEYS) == untimed(two, tournament.TIMING_KEYS)
    assert one["rules"] == {"preset": "nim", "most": 3}
    assert one["by_bot"]["perfect"]["win_share"] > one["by_bot"]["random"]["win_share"]
    assert one["by_bot"]["perfect"]["decisions"] > 0


def test_nim_records_replay_and_export_through_the_cli(tmp_path: Path) -> None:
    config = run.RunConfig(NIM.name, NimRules(), 3, ("random",) * 3, 3, seed=2,
                           record_dir=tmp_path)
    run.simulate(config)
    record = tmp_path / "game-00001.jsonl"
    runner = CliRunner()
    r = runner.invoke(app, ["replay", str(record), "--json"])
    assert r.exit_code == 0, r.output
    played = run.play_one(config, 0)
    assert json.loads(r.stdout) == {"game": "nim", "moves": played.plies,
                                    "winner": played.winners[0]}
    r = runner.invoke(app, ["replay", str(record)])
    assert r.exit_code == 0 and "took the last stone" in r.stdout
    r = runner.invoke(app, ["export", str(record), "--seat", "1"])
    assert r.exit_code == 0 and r.stdout.count('"take"') == played.plies
    lines = record.read_text().splitlines()
    (tmp_path / "bad.jsonl").write_text("\n".join([lines[0], '{"take": 9}']) + "\n")
    r = runner.invoke(app, ["replay", str(tmp_path / "bad.jsonl")])
    assert r.exit_code == 2 and "line 2" in r.output and "cannot take 9" in r.output


def test_a_record_of_an_unknown_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "chess.jsonl"
    path.write_text('{"format": "cambio-record", "version": 1, "game": "chess"}\n')
    r = CliRunner().invoke(app, ["replay", str(path)])
    assert r.exit_code == 2 and "unknown game 'chess'" in r.output


def test_every_listed_bot_of_every_game_can_be_built() -> None:
    from cambio.board import Rules as BoardRules
    from cambio.cards import Rules
    from cambio.games import get_game

    rules: dict[str, Any] = {"cards": Rules.preset("rulebook"), "board": BoardRules(),
                             NIM.name: NimRules()}
    for name, game_rules in rules.items():
        game = get_game(name)
        for entry in game.bot_list():
            assert game.make_bot(entry["name"], game_rules, 0) is not None
