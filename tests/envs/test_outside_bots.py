"""Bots from outside the package, by import path or entry point, wherever bots are named.

The agent lives in ``tests/envs/outside_agent.py`` and is named by its file path, as a
researcher names a module of their own; every process (``--workers``, Ray) imports it itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cambio.board import Rules as BoardRules
from cambio.bots.board import make_bot as make_board_bot
from cambio.bots.cards import check_bot_name, make_bot
from cambio.bots.resolve import entry_point_names
from cambio.cards import Rules
from cambio.envs.gymnasium import CardsSeatEnv
from cambio.sim import board as board_sim
from cambio.sim import cards as cards_sim
from cambio.sim import tournament
from cambio.sim.parallel import Where

AGENT = str(Path(__file__).with_name("outside_agent.py").resolve())
CARD_BOT = f"{AGENT}:card_bot"
BOARD_BOT = f"{AGENT}:board_bot"


def untimed(summary: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in keys}


def test_import_path_builds_the_outside_bot_with_its_argument() -> None:
    bot: Any = make_bot(CARD_BOT, 3)
    assert type(bot).__name__ == "LastOrRandom" and bot.bias == pytest.approx(0.333)
    assert make_bot(f"{CARD_BOT}:0.9", 3).bias == pytest.approx(0.9)  # type: ignore[attr-defined]
    assert check_bot_name(f"  {CARD_BOT} ") == CARD_BOT  # case and path kept
    assert check_bot_name(" Memory") == "memory"
    assert type(make_board_bot(BOARD_BOT, BoardRules(size=4), 1)).__name__ == "FirstMove"


@pytest.mark.parametrize("name", [f"{AGENT}:nothing", "no_such_module_xyz:make",
                                  "/no/such/file.py:make", "tests"])
def test_bad_import_paths_are_clear_errors(name: str) -> None:
    with pytest.raises(ValueError, match="bot"):
        make_bot(name, 0)


def test_entry_point_group_adds_a_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An installed package's ``cambio.bots`` entry point (a dist-info on ``sys.path``)."""
    dist = tmp_path / "outside_agent_pkg-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: outside-agent-pkg\n"
                                   "Version: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[cambio.bots]\nlastish = outside_agent:card_bot\n"
        "[cambio.board_bots]\nfirst = outside_agent:board_bot\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(Path(AGENT).parent))
    assert "lastish" in entry_point_names("cards")
    assert type(make_bot("lastish", 1)).__name__ == "LastOrRandom"
    assert make_bot("lastish:0.5", 1).bias == 0.5  # type: ignore[attr-defined]
    assert type(make_board_bot("first", BoardRules(size=4), 1)).__name__ == "FirstMove"
    env = CardsSeatEnv(opponents=("lastish",))
    env.reset(seed=1)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_outside_bot_same_results_in_process_workers_and_ray(local_ray: None) -> None:
    cards = cards_sim.SimConfig(Rules.preset("rulebook"), 2, (CARD_BOT, "memory"), 120, seed=5)
    here = untimed(cards_sim.simulate(cards), cards_sim.TIMING_KEYS)
    assert here["by_bot"][CARD_BOT]["wins"] > 0
    assert untimed(cards_sim.simulate(cards, where=Where(2)), cards_sim.TIMING_KEYS) == here
    ray = Where(workers=2, ray="local")
    assert untimed(cards_sim.simulate(cards, where=ray), cards_sim.TIMING_KEYS) == here

    board = board_sim.SimConfig(BoardRules(size=4), (BOARD_BOT, "random"), 20, seed=4)
    b_here = untimed(board_sim.simulate(board), board_sim.TIMING_KEYS)
    assert untimed(board_sim.simulate(board, where=ray), board_sim.TIMING_KEYS) == b_here

    tour = tournament.TournamentConfig(Rules.preset("rulebook"), 2, ("random", CARD_BOT), 40,
                                       seed=2)
    t_here = untimed(tournament.summarize(tour, tournament.run(tour)), tournament.TIMING_KEYS)
    for where in (Where(2), ray):
        assert untimed(tournament.summarize(tour, tournament.run(tour, where=where)),
                       tournament.TIMING_KEYS) == t_here

    from cambio.cli.main import app

    args = ["sim", "cards", "--players", "2", "--bots", f"{CARD_BOT},random", "--games", "60",
            "--seed", "1", "--json", "--no-progress"]
    runner = CliRunner()
    outs = [runner.invoke(app, [*args, *extra]) for extra in ([], ["--workers", "2"],
                                                                ["--ray", "local"])]
    assert all(o.exit_code == 0 for o in outs), [o.output for o in outs]
    a, b, c = (untimed(json.loads(o.stdout), cards_sim.TIMING_KEYS) for o in outs)
    assert a == b == c and a["bots"] == [CARD_BOT, "random"]




def test_web_table_seats_a_bot_the_server_was_started_with(tmp_path: Path) -> None:
    """``cambio serve --bot PATH:CALLABLE``: the lobby offers it, a table seats it, and it
    plays a whole round against a person."""
    import asyncio

    import httpx

    from tests.server.harness import (
        Client,
        ServerProcess,
        auth,
        create_table,
        start,
        ws_url,
    )
    from tests.support.databases import sqlite_database

    async def play(server: ServerProcess) -> Client:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            bots = (await http.get("/api/bots")).json()
            assert CARD_BOT in {b["name"] for b in bots["cards"]}
            host = await create_table(http, {"game": "cards", "players": 2, "name": "Ann",
                                             "rules": {"preset": "rulebook", "overrides": {}}})
            r = await http.put(f"/api/tables/{host['table']}/seats/1/bot",
                               json={"bot": CARD_BOT}, headers=auth(host["token"]))
            assert r.status_code == 200 and r.json()["seats"][1]["bot"] == CARD_BOT, r.text
            await start(http, host["table"], host["token"], fill=None)
            client = Client(ws_url(server, host["table"], host["token"]), seed=1, play=True)
            await client.run(timeout=120)
            return client

    with ServerProcess(sqlite_database(tmp_path), extra=["--bot", CARD_BOT]) as server:
        client = asyncio.run(play(server))
    assert client.status == "finished"
    assert any(m["event"].get("seat") == 1 for m in client.of_type("update"))
