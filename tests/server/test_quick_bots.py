"""Which bots a table runs on its event loop: the quick card bots only (a searching bot
there would hold up every other table while it thinks)."""

from cambio.board import Rules as BoardRules
from cambio.bots.board import make_bot as make_board_bot
from cambio.bots.cards import make_bot
from cambio.cards import Rules
from cambio.games.board import GAME as BOARD
from cambio.server.turn_session import TurnSession
from tests.support.cards_table import card_session


def test_quick_card_bots_are_the_ones_without_search() -> None:
    session = card_session(Rules.preset("rulebook"), 3, seed=1, rounds=1, match_id="m")
    quick = {name for name in ("random", "easy", "memory", "medium", "expert", "hard",
                               "search") if session.quick_bot(make_bot(name, 1))}
    # expert is a kind of memory (a subclass) that does more: not quick.
    assert quick == {"random", "easy", "memory", "medium"}


def test_board_bots_all_think_in_a_worker_thread() -> None:
    rules = BoardRules()
    session = TurnSession(BOARD, 2, {"setup": "quick"}, seed=1, match_id="m")
    for name in ("random", "greedy", "mcts", "alphabeta"):
        assert not session.quick_bot(make_board_bot(name, rules, 1))
