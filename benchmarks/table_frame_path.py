"""A table's share of the frame path, in process: a seat's ``act`` handled by a real table
(judged, applied, stored in a real SQLite file, an ``update`` built and encoded for each of
three seats and a spectator), without the sockets.

Seeded 3-seat rulebook rounds, every seat a person's connection (no bots, so no timer
fires): the deciding seat plays its first legal action other than ``cambio`` (which it
calls once it may, after a dozen actions). CPU time of the whole process (the store's
writer thread included) per action, best of ``--repeat``. It builds the table as the
server does, so it runs on an older tree as well; compare two trees in one run::

    for tree in BASE/src src BASE/src src; do
      PYTHONPATH=$tree nice -n 10 .venv/bin/python benchmarks/table_frame_path.py
    done
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

from cambio.server.games import game_kinds
from cambio.server.settings import Settings
from cambio.server.store import SeatRow, Store, TableRow, open_store
from cambio.server.table import Conn, Table


async def rounds(count: int, folder: Path) -> tuple[float, int]:
    """CPU seconds spent in ``Table.act`` over ``count`` rounds, and the actions played."""
    store = open_store(str(folder / "bench.sqlite3"))
    settings = Settings(database=str(folder / "bench.sqlite3"))
    kinds = game_kinds(())
    spent, actions = 0.0, 0
    try:
        for k in range(count):
            table_id = f"t{k}"
            _, config = kinds["cards"].config({"players": 3, "rules": {"preset": "rulebook"}})
            row = TableRow(table_id, "cards", 3, config, 1000 + k, "waiting", 0, 0.0)
            seats = [SeatRow(i, "human", f"P{i}", None, f"h{i}") for i in range(3)]
            await store.write([Store.insert_table(row)]
                              + [Store.put_seat(table_id, s) for s in seats])
            table = Table(store, settings, kinds, row, seats)
            conns = [Conn(i, limit=10**6) for i in range(3)] + [Conn(None, limit=10**6)]
            for conn in conns:
                await table.connect(conn)
            await table.start(None)
            s = table.session
            assert s is not None
            while not s.round_over():
                seat = s.decider()
                assert seat is not None
                legal = [a for a in s.view(seat)["legal"] if not a.startswith("snap")]
                others = [a for a in legal if a != "cambio"]
                text = "cambio" if "cambio" in legal and (s.version > 12 or not others) \
                    else others[0]
                t0 = time.process_time()
                await table.act(conns[seat], text, s.version, None)
                spent += time.process_time() - t0
                actions += 1
                for conn in conns:
                    while len(conn.outbox):
                        conn.outbox.pop()
            await table.stop_actor()
    finally:
        store.close()
    return spent, actions


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=40)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    best = float("inf")
    actions = 0
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="cambio-frame-") as tmp:
            spent, actions = asyncio.run(rounds(args.rounds, Path(tmp)))
        best = min(best, spent / actions * 1e6)
    if args.json:
        print(json.dumps({"us_per_action": best, "actions": actions}))
    else:
        print(f"{best:.1f} us of CPU per action ({actions} actions, best of {args.repeat})")


if __name__ == "__main__":
    main()
