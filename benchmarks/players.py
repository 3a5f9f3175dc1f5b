"""Players: what a password and a matchmaker tick cost the server's CPU.

* argon2id: hashing a password (a claim) and checking one (a sign-in) with the parameters
  the server uses (argon2-cffi's defaults), in milliseconds of one core.
* Play now's pairing rule (``cambio.server.players.matching.form``), which the matchmaker
  runs every 0.25 s on the event loop, in milliseconds per tick:
  - **the most that can wait**: entries form a table as soon as enough of one kind want one
    size, so at most ``s - 1`` entries of a kind wait for size ``s`` (one ticket per
    player): 28 per card kind (sizes 2-8), 3 per dice kind, 180 over every kind the lobby
    offers (3 presets and 2 setups, rated or casual); a tick over all of them, none forming;
  - **a rush**: ``--rush`` players of one kind arriving in one tick, paired two by two.

    .venv/bin/python benchmarks/players.py --rush 1000 --repeat 5

Each figure is the median of ``--repeat`` runs; the machine's other load moves it.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from cambio.server.players import keys
from cambio.server.players.matching import Entry, form

KINDS = [("cards", p, r, range(2, 9)) for p in ("house", "rulebook", "wikipedia")
         for r in (True, False)] + [("board", s, r, range(2, 4)) for s in ("quick", "full")
                                    for r in (True, False)]


def entry(i: int, game: str, variant: str, rated: bool, size: int) -> Entry:
    return Entry(ticket=f"t{i}", player=f"_p{i}", name=f"P{i}", token_hash="h",
                 address=f"a{i}", game=game, variant=variant, sizes=(size,), rated=rated,
                 joined=float(i), fill_at=1e12, mu=25.0)


def fullest() -> list[Entry]:
    """Every kind, every size: one entry fewer than the size (nothing forms)."""
    out: list[Entry] = []
    for game, variant, rated, sizes in KINDS:
        for size in sizes:
            out += [entry(len(out), game, variant, rated, size) for _ in range(size - 1)]
    return out


def ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rush", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    secret = "correct horse battery"
    stored = keys.hash_password(secret)
    hashing = ms(lambda: keys.hash_password(secret), args.repeat)
    checking = ms(lambda: keys.password_matches(stored, "wrong guess"), args.repeat)
    print(f"argon2id: hash {hashing:.0f} ms, check {checking:.0f} ms")
    most = fullest()
    assert form(most, now=0.0) == []
    print(f"pairing, the most that can wait ({len(most)}): "
          f"{ms(lambda: form(most, now=0.0), args.repeat):.2f} ms a tick")
    rush = [entry(i, "cards", "house", True, 2) for i in range(args.rush)]
    assert len(form(rush, now=0.0)) == args.rush // 2
    print(f"pairing, a rush of {args.rush} in one tick: "
          f"{ms(lambda: form(rush, now=0.0), args.repeat):.2f} ms")


if __name__ == "__main__":
    main()
