"""A table's games on their own, on a real SQLite file and a clock the test moves: a game is
stored before it is dealt (a failed write changes nothing), it is rebuilt from storage
exactly, a match's next round comes after the pause, and a halt stops it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cambio.server.games import TurnKind, table_game
from cambio.server.store import SqliteStore, Store, StoreError, TableRow
from cambio.server.table.lifecycle import HALTED, Lifecycle

from .manual import ManualTimers

NAMES = [{"name": "Ann"}, {"name": "Bo"}]
PAUSE = 6.0


class Games:
    def __init__(self, tmp_path: Path, rounds: int = 1) -> None:
        self.store = SqliteStore(tmp_path / "games.sqlite3")
        players, config = TurnKind(table_game("cards")).config({"players": 2, "rounds": rounds})
        self.row = TableRow("t1", "cards", players, config, 12345, "waiting", 0, 0.0)
        asyncio.run(self.store.write([Store.insert_table(self.row)]))
        self.timers = ManualTimers()
        self.due: list[int] = []
        self.match = self.lifecycle(self.row)

    def lifecycle(self, row: TableRow) -> Lifecycle:
        async def on_round_due(game_no: int) -> None:
            self.due.append(game_no)

        return Lifecycle(self.store, TurnKind(table_game("cards")), row, self.timers.later,
                         PAUSE, on_round_due,
                         now=self.timers.clock, now_iso=lambda: "2026-01-01T00:00:00+00:00")

    def play_round(self) -> None:
        """Play the round out with random bots, storing each action as the table does."""
        s = self.match.session
        assert s is not None
        bots = {seat: s.seat_bot("random", seat) for seat in range(2)}
        while not s.round_over():
            seat = s.decider()
            assert seat is not None
            applied = s.play(seat, bots[seat].move(seat), s.version)
            asyncio.run(self.store.write([Store.insert_action(
                "t1", self.match.game_no, s.round_no, applied.version, seat, applied.text)]))


def test_a_game_is_stored_before_it_is_dealt(tmp_path: Path) -> None:
    g = Games(tmp_path)
    seed = asyncio.run(g.match.begin(1, [], NAMES))
    s = g.match.session
    assert s is not None and s.round_no == 1 and g.match.live() is s
    assert g.match.status == "playing" and g.match.game_no == 1
    stored = g.store.game_seed("t1", 1)
    assert stored is not None and stored[0] == seed
    assert [n for n, _ in g.store.rounds("t1", 1)] == [1]
    g.store.close()


def test_a_game_whose_write_fails_changes_nothing(tmp_path: Path) -> None:
    g = Games(tmp_path)
    asyncio.run(g.match.begin(1, [], NAMES))
    first = g.match.session
    with pytest.raises(StoreError):  # game 1 is stored already
        asyncio.run(g.match.begin(1, [], NAMES))
    assert g.match.session is first and g.match.game_no == 1
    g.store.close()


def test_a_game_is_rebuilt_from_storage_exactly(tmp_path: Path) -> None:
    g = Games(tmp_path)
    asyncio.run(g.match.begin(1, [], NAMES))
    g.play_round()
    asyncio.run(g.match.end_round())
    s = g.match.session
    assert s is not None and g.match.status == "finished"
    stored = g.store.table("t1")
    assert stored is not None
    again = g.lifecycle(stored)
    built = again.build()
    assert built is not None and again.install(built) == built[1]
    rebuilt = again.session
    assert rebuilt is not None and rebuilt.version == s.version
    assert rebuilt.result() == s.result()
    assert all(rebuilt.view(seat) == s.view(seat) for seat in (0, 1, None))
    g.store.close()


def test_the_next_round_of_a_match_comes_after_the_pause(tmp_path: Path) -> None:
    g = Games(tmp_path, rounds=2)
    asyncio.run(g.match.begin(1, [], NAMES))
    g.play_round()
    asyncio.run(g.match.end_round())
    assert g.match.status == "playing" and g.match.live() is None
    assert g.match.next_round_in() == PAUSE
    asyncio.run(g.timers.advance(PAUSE - 0.5))
    assert g.due == [] and g.match.next_round_in() == 0.5
    asyncio.run(g.timers.advance(0.5))
    assert g.due == [1]
    assert asyncio.run(g.match.next_round(1, NAMES))
    assert g.match.round_no() == 2 and [n for n, _ in g.store.rounds("t1", 1)] == [1, 2]
    assert not asyncio.run(g.match.next_round(1, NAMES))  # dealt already: not due again
    g.play_round()
    asyncio.run(g.match.end_round())
    row = g.store.table("t1")
    assert g.match.status == "finished" and row is not None and row.status == "finished"
    g.store.close()


def test_a_halt_stops_the_table_and_its_pause(tmp_path: Path) -> None:
    g = Games(tmp_path, rounds=2)
    asyncio.run(g.match.begin(1, [], NAMES))
    g.play_round()
    asyncio.run(g.match.end_round())
    g.match.halt("a write failed")
    assert g.match.halted == HALTED and g.match.handles() == []
    asyncio.run(g.timers.advance(2 * PAUSE))
    assert g.due == []
    g.store.close()
