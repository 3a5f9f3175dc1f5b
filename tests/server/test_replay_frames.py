"""The replay viewer's frames are the engine's: for seeded card rounds and dice games played
by bots, every frame :func:`turn_frames` builds from the stored header and actions equals
the view the engine gave at that step while the game was played, and a card frame's cards
are the engine state's (every card once the game is over; a seat's frames show only what
that seat's view showed)."""

from __future__ import annotations

from typing import Any

import pytest

from cambio.cards import EMPTY, Rules, card_code
from cambio.games.board import GAME as BOARD
from cambio.server.games import TurnKind, game_kinds
from cambio.server.turn_session import TurnSession, turn_frames

from ..support.cards_table import card_session, card_state
from ..support.nim import NIM

CARD_BOTS = ("random", "easy", "memory")


def played(session: TurnSession, names: list[dict[str, Any]], bots: list[str],
           snapper: bool = False) -> tuple[dict[str, Any], list[tuple[int, str]],
                                            list[dict[str, Any]]]:
    """Deal and play a round with bots (a snap now and then when the game has snaps): its
    header, actions, and the engine's open view and each seat's view after every step."""
    header = session.next_header(names, "2026-01-01T00:00:00+00:00")
    session.deal(header)
    seat_bots = [session.seat_bot(b, i) for i, b in enumerate(bots)]
    seen = [snapshot(session)]
    actions: list[tuple[int, str]] = []
    while not session.round_over():
        text: str | None = None
        seat = -1
        if snapper and session.snap_window() is not None:
            seat = next((s for s in range(session.players) if session.can_snap(s)), -1)
            text = seat_bots[seat].snap(seat) if seat >= 0 else None
        if text is None:
            seat = session.decider()  # type: ignore[assignment]
            text = seat_bots[seat].move(seat)
        applied = session.play(seat, text, session.version)
        actions.append((seat, applied.text))
        seen.append(snapshot(session))
    return header, actions, seen


def snapshot(session: TurnSession) -> dict[str, Any]:
    return {"open": session.open_view(),
            **{str(s): session.view(s) for s in range(session.players)}}


@pytest.mark.parametrize("seed", range(40))
def test_card_frames_are_the_engines_at_every_step(seed: int) -> None:
    players = 2 + seed % 3
    rules = Rules.preset(("house", "rulebook", "wikipedia")[seed % 3])
    session = card_session(rules, players, seed)
    names = [{"name": f"p{i}"} for i in range(players)]
    header, actions, seen = played(session, names, [CARD_BOTS[(seed + i) % 3]
                                                    for i in range(players)], snapper=True)
    state = card_state(session)
    frames = turn_frames(session.table_game, header, actions, None)
    # the deal, one frame an action, the end
    assert len(frames) == len(actions) + 2
    assert [f["view"] for f in frames[:-1]] == [s["open"] for s in seen]
    assert frames[-1]["event"] == {"end": session.position.outcome()}  # type: ignore[union-attr]
    # Once over, every card is face up: the engine's own grids.
    assert frames[-1]["view"]["grids"] == [
        [None if c == EMPTY else card_code(c) for c in g] for g in state.grids]
    for seat in range(players):
        mine = turn_frames(session.table_game, header, actions, seat)
        assert [f["view"] for f in mine[:-1]] == [s[str(seat)] for s in seen]
        # Nor does an event show it another seat's drawn card.
        assert all("card" not in f["event"] for f in mine[1:-1]
                   if f["event"]["action"] == "draw" and f["event"]["seat"] != seat)


@pytest.mark.parametrize("seed", range(20))
def test_dice_frames_are_the_engines_at_every_step(seed: int) -> None:
    players = 2 + seed % 2
    setup = ("quick", "full")[seed // 2 % 2]
    session = TurnSession(BOARD, players, {"setup": setup}, seed, "m")
    names = [{"name": f"p{i}"} for i in range(players)]
    header, actions, seen = played(session, names, ["random"] * players)
    frames = turn_frames(BOARD, header, actions, None)
    assert [f["view"] for f in frames[:len(seen)]] == [s["open"] for s in seen]
    end = session.position.outcome()  # type: ignore[union-attr]
    assert end is not None and frames[-1]["event"] == {"end": end}
    last = frames[-1]["view"]
    assert last["winners"] == end["winners"]
    if end["termination"] == "line":
        assert last["lines"] and {line["seat"] for line in last["lines"]} == set(end["winners"])


def test_any_games_frames_come_from_its_position() -> None:
    kind = TurnKind(NIM)
    session = kind.session(2, {"most": "3"}, "t", 9, 1)
    assert isinstance(session, TurnSession)
    header, actions, seen = played(session, [{"name": "a"}, {"name": "b"}],
                                   ["random", "perfect"])
    frames = kind.frames(header, actions, None, 1)["frames"]
    assert [f["view"] for f in frames[:-1]] == [s["open"] for s in seen]
    assert [f["event"]["action"] for f in frames[1:-1]] == [t for _, t in actions]


def test_the_card_kind_serves_frames_for_a_stored_round() -> None:
    kind = game_kinds()["cards"]
    players, config = kind.config({"players": 3, "rounds": 2})
    session = kind.session(players, config, "t", 4, 1)
    assert isinstance(session, TurnSession)
    names = [{"name": n} for n in ("a", "b", "c")]
    for _ in range(2):
        header, actions, seen = played(session, names, ["easy", "memory", "random"])
        body = kind.frames(header, actions, None, 2)
        assert [f["view"] for f in body["frames"][:-1]] == [s["open"] for s in seen]
        # Names and rules: never the round's seed, from which every card follows.
        assert body["header"]["players"] == names and "seed" not in body["header"]
        session.finish_round()
    assert session.game_over()
