"""The panel styles: bots written against the public view API only."""

from __future__ import annotations

import ast
from pathlib import Path
from random import Random

import pytest

from cambio.bots.cards import CardBot, ExpectedPointsBot, make_bot, play_round
from cambio.bots.cards import styles as styles_module
from cambio.cards import HIDDEN, Phase, Rules, State, observe
from cambio.cards.actions import CAMBIO, SNAP, arg_a, kind_of

from .knowledge import twin_views, varied_rounds

PRESETS = ("rulebook", "house", "wikipedia")
STYLES = ("rusher", "snapper")


@pytest.mark.parametrize("name", STYLES)
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 4])
def test_styles_play_legal_rounds_to_the_end(name: str, preset: str, players: int) -> None:
    for seed in range(6):
        state = State(Rules.preset(preset), players, seed=seed, polled=True)
        bots: list[CardBot] = [make_bot(name if s % 2 == 0 else "memory", seed + s)
                               for s in range(players)]
        play_round(state, bots)  # raises on an illegal answer
        assert state.is_over()


@pytest.mark.parametrize("name", STYLES)
def test_styles_decide_from_the_view_only(name: str) -> None:
    """The cards the seat has not seen, shuffled: every decision is the same."""
    checked = 0
    for t in twin_views(varied_rounds(8), Random(name)):
        assert make_bot(name, 1).act(t.view) == make_bot(name, 1).act(t.twin)
        checked += 1
    assert checked > 100


def test_styles_import_only_the_public_card_api() -> None:
    """Written as an outside bot would be: nothing from the other bots or the engine."""
    tree = ast.parse(Path(styles_module.__file__).read_text())
    modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    modules |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert modules <= {"__future__", "dataclasses", "functools", "cambio.cards",
                       "cambio.cards.actions"}


def _would(rounds: int = 40) -> dict[str, tuple[int, int]]:
    """On the views of ``memory`` self-play rounds: how many times each bot would call
    Cambio where it may, and would snap a card it has not seen (a blind snap)."""
    names = ("memory", *STYLES)
    out = dict.fromkeys(names, (0, 0))
    rules = Rules.preset("rulebook")
    for seed in range(rounds):
        state = State(rules, 2, seed=seed, polled=True)
        bots = [ExpectedPointsBot(seed), ExpectedPointsBot(seed)]
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            if CAMBIO in view.legal or view.phase == Phase.POLL:
                for name in names:
                    a = make_bot(name, seed).act(view)
                    calls, blind = out[name]
                    out[name] = (calls + (a == CAMBIO),
                                 blind + (kind_of(a) == SNAP and view.at(arg_a(a)) == HIDDEN))
            state.apply(bots[seat].act(view), seat)
    return out


def test_the_styles_play_differently_from_memory() -> None:
    """On the same views the rusher calls far more often than memory; the snapper snaps
    on the odds, cards it has not seen, which memory never does."""
    would = _would()
    assert would["rusher"][0] > 2 * would["memory"][0]
    assert would["memory"][1] == 0
    assert would["snapper"][1] > 0
