"""The store's WAL stays bounded under steady writes (issue 13, item 4), on a real SQLite file.

The full-size check is ``benchmarks/soak.py`` (16 MiB threshold, half a million actions);
here the same mechanism runs with a 256 KiB threshold and a checkpoint every 50 ms, so a
few seconds of commits cross it many times.
"""

from __future__ import annotations

import asyncio
import os
from itertools import pairwise
from pathlib import Path

from cambio.server.store import Store

LIMIT = 256 * 1024


def test_the_wal_is_cut_back_while_writes_go_on(tmp_path: Path) -> None:
    db = tmp_path / "cambio.sqlite3"
    wal = Path(str(db) + "-wal")
    store = Store(db, wal_limit=LIMIT, checkpoint_every=0.05)
    sizes: list[int] = []

    async def main() -> None:
        # One commit each (two pages of WAL: the row and its index), a few hundred a
        # second like a busy server: about 13 MB of WAL in all.
        for v in range(1, 1501):
            await store.write([Store.insert_action("t", 1, 1, v, v % 4, "snap 1.2" * 8)])
            sizes.append(os.path.getsize(wal) if wal.exists() else 0)
            await asyncio.sleep(0.002)

    try:
        asyncio.run(main())
        assert len(store.actions("t", 1, 1)) == 1500
    finally:
        store.close()
    # Without the cut the file only grows (to the whole 13 MB); with it, it stays within the
    # threshold plus what a few checkpoint intervals write.
    assert max(sizes) < 6 * LIMIT, max(sizes)
    assert sum(1 for a, b in pairwise(sizes) if b < a // 2) >= 3
