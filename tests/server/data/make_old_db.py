"""How ``main-74d297f.sqlite3`` was made: the server of commit 74d297f (main before players
existed) run once on an empty file, with a finished quick-play game (its human seat played
by the away bot), a table still waiting for a player, and one left in play.

    git worktree add /tmp/old74 74d297f
    PYTHONPATH=/tmp/old74/src .venv/bin/python tests/server/data/make_old_db.py

Not a test: the file it writes is committed, so the migration test needs no old checkout.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
OUT = HERE / "main-74d297f.sqlite3"


def main() -> None:
    for suffix in ("", "-wal", "-shm", ".lock"):
        Path(str(OUT) + suffix).unlink(missing_ok=True)
    port = 8765
    proc = subprocess.Popen([sys.executable, "-m", "cambio.server", "--port", str(port),
                             "--database", str(OUT), "--bot-speed", "200", "--away-after", "1",
                             "--round-pause", "0", "--seed", "7", "--log-level", "warning"])
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                httpx.get(base + "/api/bots")
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        quick = httpx.post(base + "/api/quickplay", json={"name": "Old Ann"}).json()
        waiting = httpx.post(base + "/api/tables", json={"game": "cards", "players": 3,
                                                          "name": "Old Bob"}).json()
        httpx.post(f"{base}/api/tables/{waiting['table']}/join", json={"name": "Old Cy"})
        board = httpx.post(base + "/api/tables", json={"game": "board", "players": 2,
                                                        "name": "Old Dee"}).json()
        httpx.post(f"{base}/api/tables/{board['table']}/start", json={"fill": "greedy"},
                   headers={"Authorization": f"Bearer {board['token']}"})
        for _ in range(300):
            summary = httpx.get(f"{base}/api/tables/{quick['table']}").json()
            if summary["status"] == "finished":
                break
            time.sleep(0.2)
        print(quick["table"], summary["status"], waiting["table"], board["table"])
    finally:
        proc.terminate()
        proc.wait(10)
    subprocess.run(["sqlite3", str(OUT), "PRAGMA wal_checkpoint(TRUNCATE)"], check=False)


if __name__ == "__main__":
    main()
