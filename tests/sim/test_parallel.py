"""``--workers`` and ``--ray``: the same summary whatever plays the games, in game order."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cambio.board import Rules as BoardRules
from cambio.cards import Rules
from cambio.sim import board as board_sim
from cambio.sim import cards as cards_sim
from cambio.sim import tournament
from cambio.sim.parallel import Where, chunks, play_all

CAMBIO = [sys.executable, "-m", "cambio.cli.main"]


def untimed(summary: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in keys}


def square(config: int, k: int) -> int:
    return config * k * k


def test_chunks_cover_every_game_once_in_order() -> None:
    for games, parts in [(1, 2), (7, 2), (1000, 2), (20_000, 8), (3, 16)]:
        ranges = chunks(games, parts)
        assert [k for lo, hi in ranges for k in range(lo, hi)] == list(range(games))


def test_results_come_back_in_game_order() -> None:
    seen: list[int] = []
    out = play_all(square, 3, 1001, Where(workers=2), seen.append)
    assert out == [3 * k * k for k in range(1001)]
    assert sum(seen) == 1001


def test_cards_sim_same_summary_for_any_workers(tmp_path: Path) -> None:
    config = cards_sim.SimConfig(Rules.preset("house"), 3, ("memory", "random", "memory"), 240,
                                 seed=3, record_dir=tmp_path / "one")
    one = cards_sim.simulate(config)
    two = cards_sim.simulate(cards_sim.SimConfig(config.rules, 3, config.bots, 240, seed=3,
                                                 record_dir=tmp_path / "two"), where=Where(2))
    assert untimed(one, cards_sim.TIMING_KEYS) == untimed(two, cards_sim.TIMING_KEYS)
    for path in sorted((tmp_path / "one").iterdir()):
        assert path.read_text() == (tmp_path / "two" / path.name).read_text()
    assert len(list((tmp_path / "two").iterdir())) == 240


def test_batch_engine_same_summary_on_workers_as_python_engine() -> None:
    config = cards_sim.SimConfig(Rules.preset("wikipedia"), 3, ("random",) * 3, 700, seed=6)
    python = cards_sim.simulate(config, engine="python")
    batch = cards_sim.simulate(config, where=Where(2), engine="batch")
    assert untimed(python, cards_sim.TIMING_KEYS) == untimed(batch, cards_sim.TIMING_KEYS)


def test_board_sim_same_summary_for_any_workers() -> None:
    config = board_sim.SimConfig(BoardRules(size=4), ("random", "greedy"), 40, seed=2)
    one = board_sim.simulate(config)
    two = board_sim.simulate(config, where=Where(2))
    assert untimed(one, board_sim.TIMING_KEYS) == untimed(two, board_sim.TIMING_KEYS)


def test_tournament_same_summary_for_any_workers() -> None:
    config = tournament.TournamentConfig(Rules.preset("rulebook"), 3,
                                         ("random", "memory", "easy"), 90, seed=1)
    one = tournament.summarize(config, tournament.run(config))
    two = tournament.summarize(config, tournament.run(config, where=Where(2)))
    assert untimed(one, tournament.TIMING_KEYS) == untimed(two, tournament.TIMING_KEYS)


def test_cli_workers_flag_gives_the_same_json() -> None:
    def run(*extra: str) -> dict[str, Any]:
        out = subprocess.run([*CAMBIO, "sim", "cards", "--players", "2", "--games", "400",
                              "--seed", "1", "--json", "--no-progress", *extra],
                             capture_output=True, text=True, timeout=120, check=True)
        result: dict[str, Any] = json.loads(out.stdout)
        return result

    one, two = run("--workers", "1"), run("--workers", "2")
    assert (one["wins"], one["mean_score"]) == (two["wins"], two["mean_score"])
    assert untimed(one, cards_sim.TIMING_KEYS) == untimed(two, cards_sim.TIMING_KEYS)


# ---------------------------------------------------------------------- Ray (one local Ray)
@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray for the module (it takes seconds to start); the Ray checks share one
    test so that pytest-xdist does not start a second Ray on its other worker."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


RAY = Where(workers=2, ray="local")


def test_ray_gives_the_same_summaries_and_cli_json(local_ray: None) -> None:
    cards = cards_sim.SimConfig(Rules.preset("rulebook"), 2, ("random", "memory"), 300, seed=1)
    assert (untimed(cards_sim.simulate(cards, where=RAY), cards_sim.TIMING_KEYS)
            == untimed(cards_sim.simulate(cards), cards_sim.TIMING_KEYS))
    randoms = cards_sim.SimConfig(Rules.preset("rulebook"), 2, ("random",) * 2, 500, seed=1)
    assert (untimed(cards_sim.simulate(randoms, where=RAY, engine="batch"),
                    cards_sim.TIMING_KEYS)
            == untimed(cards_sim.simulate(randoms, engine="python"), cards_sim.TIMING_KEYS))
    board = board_sim.SimConfig(BoardRules(size=4, players=3), ("random", "greedy", "random"),
                                30, seed=4)
    assert (untimed(board_sim.simulate(board, where=RAY), board_sim.TIMING_KEYS)
            == untimed(board_sim.simulate(board), board_sim.TIMING_KEYS))
    tour = tournament.TournamentConfig(Rules.preset("wikipedia"), 2, ("random", "memory"), 60,
                                       seed=2)
    assert (untimed(tournament.summarize(tour, tournament.run(tour, where=RAY)),
                    tournament.TIMING_KEYS)
            == untimed(tournament.summarize(tour, tournament.run(tour)),
                       tournament.TIMING_KEYS))

    from cambio.cli.main import app

    args = ["sim", "cards", "--players", "2", "--games", "200", "--seed", "1", "--json",
            "--no-progress"]
    runner = CliRunner()
    here = runner.invoke(app, args)
    on_ray = runner.invoke(app, [*args, "--ray", "local"])
    assert here.exit_code == 0 and on_ray.exit_code == 0, on_ray.output
    a, b = json.loads(here.stdout), json.loads(on_ray.stdout)
    assert (a["wins"], a["mean_score"]) == (b["wins"], b["mean_score"])
    assert untimed(a, cards_sim.TIMING_KEYS) == untimed(b, cards_sim.TIMING_KEYS)


# ---------------------------------------------------------------------- Ray's own process
NODE_IP = """
from cambio.sim.parallel import Where, play_all

def node_ip(config, k):
    import ray
    return [node["NodeManagerAddress"] for node in ray.nodes()][0]

print(sorted(set(play_all(node_ip, None, 4, Where(workers=1, ray="local")))))
"""


def test_a_local_ray_listens_on_loopback_only() -> None:
    """``--ray local`` starts its own Ray on 127.0.0.1: the address its node gives its
    workers (and listens on) is loopback, not the machine's network address."""
    pytest.importorskip("ray")
    done = subprocess.run([sys.executable, "-c", NODE_IP], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "['127.0.0.1']"


def test_a_ray_that_does_not_start_is_one_line_and_exit_1(tmp_path: Path) -> None:
    """Ray failing at start-up (here: its temporary directory cannot be made, under a
    file) is one line on stderr saying so, and exit status 1; no traceback."""
    pytest.importorskip("ray")
    (tmp_path / "a-file").write_text("")
    env = {**os.environ, "RAY_TMPDIR": str(tmp_path / "a-file" / "ray")}
    done = subprocess.run([*CAMBIO, "sim", "cards", "--players", "2", "--games", "10",
                           "--no-progress", "--ray", "local"], capture_output=True, text=True,
                          env=env, timeout=600)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-3000:]
    assert lines[0].startswith("cambio: --ray: a local Ray instance did not start (")
    assert "--workers" in lines[0]
