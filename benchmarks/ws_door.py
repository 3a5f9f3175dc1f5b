"""The WebSocket door alone: what the server spends on one client frame before the table's
actor sees it (size and rate checks, parsing, the message handed on), in process.

``cambio.server.ws._handle`` is called on the frames a table mostly gets (``act`` above
all, ``sync``, ``ping``, ``chat``) and on malformed ones, with a table that only records
what it is handed. CPU time per frame, best of ``--repeat`` runs of ``--frames`` each. Run
it with another tree first on ``PYTHONPATH`` to compare two versions of the door in one
run::

    for tree in BASE/src src; do
      PYTHONPATH=$tree nice -n 10 .venv/bin/python benchmarks/ws_door.py
    done

``--libraries`` instead times decoding the ``act`` frame alone into a checked message with
each candidate the protocol's definitions could have been written in: the standard
library's ``json`` and hand-written checks (the door before), pydantic (a discriminated
union of models) and msgspec (a tagged union of structs, what the door uses).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from cambio.server import ws
from cambio.server.limits import TokenBucket
from cambio.server.table import Conn

FRAMES = {
    "act": '{"type":"act","action":"switch 0.1 1.2","version":17,"ref":5}',
    "act (snap)": '{"type":"act","action":"snap 1.2","version":18}',
    "sync": '{"type":"sync","since":12,"game_no":1,"round":2}',
    "ping": '{"type":"ping"}',
    "chat": '{"type":"chat","text":"nice one","ref":"c7"}',
    "bad: version true": '{"type":"act","action":"draw","version":true,"ref":1}',
    "bad: not JSON": "this is not json",
}


class Recorder:
    """A table that only counts what the door posts to it."""

    def __init__(self) -> None:
        self.posted = 0

    def post(self, fn: Any, *args: Any) -> None:
        self.posted += 1

    def __getattr__(self, name: str) -> Any:  # table.act, table.sync ...: any handler
        return name


def per_frame(raw: str, frames: int, repeat: int) -> float:
    """Microseconds of CPU per frame, best of ``repeat``."""
    best = float("inf")
    for _ in range(repeat):
        conn = Conn(0, limit=10 * frames, max_errors=10 * frames)
        table = Recorder()
        bucket = TokenBucket(0, 0)  # no rate limit: the checks alone
        handle = ws._handle
        t0 = time.process_time()
        for _ in range(frames):
            handle(raw, conn, table, bucket, 4096)  # type: ignore[arg-type]
        best = min(best, time.process_time() - t0)
    return best / frames * 1e6


def libraries(frames: int, repeat: int) -> dict[str, float]:
    """Microseconds per ``act`` frame decoded and checked, by library, best of ``repeat``."""
    from typing import Annotated, Literal

    import msgspec
    from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

    from cambio.server.client_messages import ClientMessage

    raw = FRAMES["act"]

    def count(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1 << 31

    def by_hand(text: str) -> Any:
        msg = json.loads(text)
        if not isinstance(msg, dict) or msg.get("type") != "act":
            raise ValueError(text)
        ref = msg.get("ref")
        if not (ref is None or isinstance(ref, (str, int, float))):
            raise ValueError(text)
        if not isinstance(msg.get("action"), str) or not count(msg.get("version")):
            raise ValueError(text)
        return msg

    class Act(BaseModel):
        model_config = ConfigDict(frozen=True, strict=True)
        type: Literal["act"]
        action: str
        version: Annotated[int, Field(ge=0, lt=1 << 31)]
        ref: str | int | float | None = None

    class Ping(BaseModel):
        model_config = ConfigDict(frozen=True, strict=True)
        type: Literal["ping"]
        ref: str | int | float | None = None

    adapter: TypeAdapter[Any] = TypeAdapter(
        Annotated[Act | Ping, Field(discriminator="type")])
    decoder = msgspec.json.Decoder(ClientMessage)
    out = {}
    for name, decode in (("json + hand checks", by_hand),
                         ("pydantic", adapter.validate_json),
                         ("msgspec", decoder.decode)):
        best = float("inf")
        for _ in range(repeat):
            t0 = time.process_time()
            for _ in range(frames):
                decode(raw)
            best = min(best, time.process_time() - t0)
        out[name] = best / frames * 1e6
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--frames", type=int, default=100_000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--json", action="store_true")
    p.add_argument("--libraries", action="store_true",
                   help="time decoding an act frame with each candidate library instead")
    args = p.parse_args()
    if args.libraries:
        out = libraries(args.frames, args.repeat)
    else:
        out = {name: per_frame(raw, args.frames, args.repeat) for name, raw in FRAMES.items()}
    if args.json:
        print(json.dumps(out))
        return
    for name, us in out.items():
        print(f"{name:20} {us:6.2f} us")


if __name__ == "__main__":
    main()
