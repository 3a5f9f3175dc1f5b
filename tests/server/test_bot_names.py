"""Bot names over the REST lobby: the registry's names, their old aliases, the dice Hard."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from .harness import ServerProcess, auth


@pytest.fixture()
def http(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=30) as client:
        yield client


def test_old_and_new_card_bot_names_seat_and_the_dice_hard_is_native(
        http: httpx.Client) -> None:
    bots = http.get("/api/bots").json()
    assert [b["name"] for b in bots["board"] if b["level"] == "hard"] == ["native"]
    host = http.post("/api/tables", json={"game": "cards", "players": 5, "name": "Ann"}).json()
    tid, token = host["table"], host["token"]
    for seat, name in enumerate(("hard", "medium", "deep", "memory"), start=1):
        r = http.put(f"/api/tables/{tid}/seats/{seat}/bot", json={"bot": name},
                     headers=auth(token))
        assert r.status_code == 200, r.text
    board = http.post("/api/tables", json={"game": "board", "players": 2, "name": "Bo"}).json()
    r = http.put(f"/api/tables/{board['table']}/seats/1/bot", json={"bot": "native"},
                 headers=auth(board["token"]))
    assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "bot"
