"""The generic turn-based session on its own (no server process): Nim, a game the server's
modules do not know, played through :class:`TurnSession` and rebuilt from its actions."""

from __future__ import annotations

import pytest

from cambio.server.errors import ILLEGAL, STALE, ProtocolError
from cambio.server.games import TurnKind, game_kinds
from cambio.server.turn_session import TurnSession, turn_record

from ..support.nim import NIM

NAMES = [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}]


def dealt(most: str = "2") -> tuple[TurnSession, dict[str, object]]:
    session = TurnSession(NIM, 3, {"most": most}, seed=5, match_id="t/1")
    header = session.next_header(NAMES, "2026-01-01T00:00:00+00:00")
    session.deal(header)
    return session, header


def test_a_refused_action_changes_nothing_and_says_why() -> None:
    session, _ = dealt()
    before = [session.view(s) for s in (0, 1, 2, None)]
    for seat, text, version, code, words in [
            (1, "take 1", 0, ILLEGAL, "it is seat 0's turn"),
            (0, "take 3", 0, ILLEGAL, "from 1 to 2"),
            (0, "take 1", 1, STALE, "the current version is 0")]:
        with pytest.raises(ProtocolError) as caught:
            session.play(seat, text, version)
        assert caught.value.code == code and words in caught.value.message
    assert [session.view(s) for s in (0, 1, 2, None)] == before
    assert session.version == 0


def test_legal_actions_go_to_the_deciding_seat_only() -> None:
    session, _ = dealt()
    views = {s: session.view(s) for s in (0, 1, 2, None)}
    assert views[0]["legal"] == ["take 1", "take 2"] and views[0]["actor"] == 0
    assert views[1]["legal"] == views[2]["legal"] == views[None]["legal"] == []
    shared = [{k: v for k, v in view.items() if k not in ("seat", "legal")}
              for view in views.values()]
    assert all(view == shared[0] for view in shared)


def test_bots_play_to_the_end_and_the_record_replays() -> None:
    session, header = dealt()
    bots = [session.seat_bot(name, seed) for seed, name in enumerate(
        ("perfect", "random", "random"))]
    actions: list[tuple[int, str]] = []
    while not session.round_over():
        seat = session.decider()
        assert seat is not None
        text = bots[seat].move(seat)
        applied = session.play(seat, text, session.version)
        actions.append((seat, applied.text))
    assert session.game_over() and session.decider() is None
    end = session.log[-1].end
    assert end is not None and session.result()["winners"] == end["winners"]
    names = ["Ann", "Bo", "Cy"]
    assert turn_record(NIM, dict(header), actions, None) == session.record(names, None)
    from cambio.records.jsonl import parse_record

    result = NIM.replay(parse_record(session.record(names, None)))
    assert [result.winner] == end["winners"]


class Careless:
    """A bot with a bug: it always asks for more stones than anyone may take."""

    def take(self, pile: int, most: int) -> int:
        return most + 5


def test_a_bot_bug_does_not_stop_the_table() -> None:
    session, _ = dealt()
    assert session.bot_move(Careless(), 0) == "take 1"  # the first legal action instead


def test_the_kind_reads_options_and_refuses_the_rest() -> None:
    kind = TurnKind(NIM)
    assert kind.config({"players": 3, "most": "2"}) == (3, {"most": "2"})
    assert kind.config({"players": 2}) == (2, {"most": "3"})
    for body in ({"players": 5}, {"players": 2, "most": "9"}):
        with pytest.raises(ProtocolError) as caught:
            kind.config(body)
        assert caught.value.code == "bad_request"
    assert kind.listing({"most": "2", "clock": None}) == {"most": "2", "rounds": 1}
    assert "nim" not in game_kinds()
    assert game_kinds(("tests.support.nim:NIM",))["nim"].name == "nim"
