"""Behaviour pinned across the merge of five duplicated pairs: each digest was
taken with the code before the merge and must not move.

- ``ExpectedPointsBot._switch_gain`` now serves ``OpponentModelBot`` too (hooks ``_est_at``,
  ``_swap_weight``): seeded expert/memory rounds play the same actions.
- ``BudgetedSearch._set_budget`` sets alphabeta's and native's budgets: seeded games of
  both play the same moves.
- ``board.solve``'s one predecessor update: pinned by
  ``tests/board/test_solve.py::test_3x3_solution_matches_a_fixed_point_iteration``.
- The board commands' shared option groups: the rules reach the summaries.
- The simulations' shared ``Tally`` (``cambio.sim.run``): the same summaries.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from typer.testing import CliRunner

from cambio.board import Rules as BoardRules
from cambio.board.setup import quick_setup
from cambio.bots.board import make_bot as make_board_bot
from cambio.bots.board import play_game
from cambio.bots.cards import make_bot, play_round
from cambio.cards import Rules, State
from cambio.cli.main import app
from cambio.sim import board, cards


def digest(value: Any) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:16]


def test_expert_and_memory_play_as_before() -> None:
    h = hashlib.sha256()
    for preset in ("rulebook", "house", "wikipedia"):
        for seed in range(6):
            state = State(Rules.preset(preset), 3, seed=seed, polled=True)
            play_round(state, [make_bot(n, seed * 3 + i)
                               for i, n in enumerate(("expert", "memory", "expert"))])
            h.update(repr(list(state.history)).encode())
    assert h.hexdigest()[:16] == "1d5584b1053e0c93"


def test_alphabeta_and_native_play_as_before() -> None:
    h = hashlib.sha256()
    for players in (2, 3):
        rules = BoardRules(players=players)
        for seed in range(3):
            specs = ["alphabeta:300", "native:3000", "alphabeta:200"][:players]
            bots = [make_board_bot(s, rules, seed=seed + i) for i, s in enumerate(specs)]
            b = play_game(quick_setup(rules, seed), bots)
            h.update(repr((b.position(), b.ply, [x.name for x in bots])).encode())
    assert h.hexdigest()[:16] == "18be3fb6c31b829e"


def test_simulation_summaries_as_before() -> None:
    a = cards.simulate(cards.SimConfig(Rules.preset("house"), 3, ("memory", "random", "expert"),
                                       30, 5))
    b = board.simulate(board.SimConfig(BoardRules(players=3), ("random", "greedy", "random"),
                                       20, 5, True))
    out = []
    for summary, keys in ((a, cards.TIMING_KEYS), (b, board.TIMING_KEYS)):
        s = {k: v for k, v in summary.items() if k not in keys}
        if s["game"] == "board":
            assert s["rules"].pop("preset") == "board"
        out.append(digest(json.dumps(s, sort_keys=True)))
    # Re-pinned when summaries began counting a tie of k as 1/k (wins alone, tied wins, win
    # shares with intervals): the same games, the same scores and ties.
    assert out == ["d20e03f60cf23ea9", "9ce974c8047f0ebf"]


def test_board_commands_read_their_rules_from_the_shared_options() -> None:
    runner = CliRunner()
    rules = ["--size", "4", "--line", "3", "--other-line", "mover_loses", "--max-plies", "40"]
    common = ["--games", "4", "--seed", "3", "--json", "--no-progress"]
    sim = runner.invoke(app, ["sim", "board", "--bots", "random,greedy", *rules, *common])
    tour = runner.invoke(app, ["tournament", "board", "--bots", "random,greedy", *rules,
                               *common, "--workers", "2"])
    assert sim.exit_code == 0 and tour.exit_code == 0, sim.output + tour.output
    for out in (json.loads(sim.stdout), json.loads(tour.stdout)):
        assert {k: out["rules"][k] for k in ("size", "line", "other_line", "max_plies")} == {
            "size": 4, "line": 3, "other_line": "mover_loses", "max_plies": 40}
        assert out["games"] == 4 and out["seed"] == 3
    bad = runner.invoke(app, ["sim", "board", "--other-line", "nobody"])
    assert bad.exit_code != 0 and "owner" in bad.output
