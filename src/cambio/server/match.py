"""A table's games one after another: replaying a stored game, and the results a table
keeps of its games (per-round scores, totals, winners) so that a rematch keeps the history.

Nothing here is stored on its own: results are what the stored actions replay to, so a
restart rebuilds them with the games themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .session import Session

if TYPE_CHECKING:  # the summary's fields are read without storage (server/solo.py)
    from .store import Store

HISTORY_SHOWN = 20
"""Earlier games a table summary lists (the win tally counts every game)."""


def replay_game(store: Store, new_session: Callable[[int, int], Session], table_id: str,
                game_no: int) -> tuple[Session, int]:
    """Game ``game_no`` of a table rebuilt by replaying every stored action, and its seed.
    Reads storage only, so it may run in a worker thread."""
    found = store.game_seed(table_id, game_no)
    if found is None:
        raise RuntimeError(f"table {table_id}: game {game_no} is not stored")
    game_seed = found[0]
    session = new_session(game_seed, game_no)
    for round_no, header in store.rounds(table_id, game_no):
        session.deal(header)
        for seat, text in store.actions(table_id, game_no, round_no):
            session.play(seat, text, session.version)
        if session.round_over():
            session.finish_round()
    return session, game_seed


def past_results(store: Store, new_session: Callable[[int, int], Session], table_id: str,
                 current: int) -> list[dict[str, Any]]:
    """The results of a table's games before game ``current`` (a worker thread may run it)."""
    out = []
    for game_no in range(1, current):
        session, _ = replay_game(store, new_session, table_id, game_no)
        if session.game_over():
            out.append({"game_no": game_no, **session.result()})
    return out


def summary_fields(session: Session | None, history: list[dict[str, Any]], players: int,
                   next_round: float | None) -> dict[str, Any]:
    """What a table summary says of its games: this game's result so far, the earlier
    games', every seat's wins, and the seconds until the next round is dealt."""
    result = session.result() if session is not None and session.round_no else None
    wins = [0] * players
    done = history + ([result] if result is not None and result["winners"] is not None
                      else [])
    for game in done:
        for seat in game["winners"]:
            wins[seat] += 1
    return {"result": result, "history": history[-HISTORY_SHOWN:], "wins": wins,
            "next_round": None if next_round is None else round(max(0.0, next_round), 2)}
