"""The bot registries: names, aliases, measured stars, lazy imports."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cambio.board import Rules as BoardRules
from cambio.bots.board import make_bot as make_board_bot
from cambio.bots.board.registry import BOARD_BOTS
from cambio.bots.cards import make_bot
from cambio.bots.cards.registry import CARD_BOTS
from cambio.bots.registry import BotEntry, Registry, board_stars, card_stars
from cambio.server.games import game_kinds


def test_old_card_names_are_aliases_of_the_method_names() -> None:
    assert type(make_bot("hard", 1)) is type(make_bot("deep", 1))
    assert type(make_bot("medium", 1)) is type(make_bot("memory", 1))
    assert type(make_bot("hard", 1)).__name__ == "BatchRolloutSearchBot"
    for name in ("random", "easy", "memory", "medium", "expert", "hard", "search", "deep"):
        assert make_bot(name, 0) is not None
    assert make_bot("search:10it", 0) is not None


CLASSES = {"random": "RandomBot", "easy": "SlippingBot", "memory": "ExpectedPointsBot",
           "expert": "OpponentModelBot", "search": "RolloutSearchBot",
           "deep": "BatchRolloutSearchBot"}


def test_each_card_bot_class_is_named_after_its_method() -> None:
    for name, cls in CLASSES.items():
        assert type(make_bot(name, 0)).__name__ == cls
        assert type(make_bot(name, 0)).name == name  # what records and summaries say


@pytest.mark.parametrize("module", ["easy", "memory", "expert", "search", "deep"])
def test_the_old_class_names_still_work_with_a_warning(module: str) -> None:
    import importlib

    from cambio.bots.renamed import CARD_BOTS_RENAMED

    mod = importlib.import_module(f"cambio.bots.cards.{module}")
    package = importlib.import_module("cambio.bots.cards")
    old = next(o for o, n in CARD_BOTS_RENAMED.items() if hasattr(mod, n) and
               getattr(mod, n).__module__ == mod.__name__)
    new = CARD_BOTS_RENAMED[old]
    for where in (mod, package):
        with pytest.warns(DeprecationWarning, match=f"{old} is deprecated.*now .*{new}"):
            assert getattr(where, old) is getattr(mod, new)
    with pytest.raises(AttributeError, match="no attribute 'NoBot'"):
        mod.NoBot  # noqa: B018 -- the attribute access is the test
    old_code = f"from cambio.bots.cards.{module} import {old}\n"
    with pytest.warns(DeprecationWarning):
        exec(old_code, {})  # the import statement outside code would write


def test_the_board_bots_old_class_name_still_works_with_a_warning() -> None:
    from cambio.bots.board import native

    assert type(make_board_bot("native", BoardRules(), 0)) is native.CompiledAlphaBetaBot
    with pytest.warns(DeprecationWarning, match="NativeBot is deprecated.*CompiledAlphaBetaBot"):
        assert native.NativeBot is native.CompiledAlphaBetaBot  # type: ignore[attr-defined]


def test_unknown_names_and_stray_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        make_bot("nobody", 0)
    with pytest.raises(ValueError, match="unknown bot 'memory:3'"):
        make_bot("memory:3", 0)
    with pytest.raises(ValueError, match="unknown bot 'greedy:3'"):
        make_board_bot("greedy:3", BoardRules())
    with pytest.raises(ValueError, match="bad bot spec 'alphabeta:x'"):
        make_board_bot("alphabeta:x", BoardRules())


def test_stars_follow_the_measured_figures() -> None:
    stars = {e.name: e.stars for e in CARD_BOTS.entries.values()}
    assert stars == {"random": 1, "tutor": 1, "easy": 2, "rusher": 2, "snapper": 2, "memory": 3,
                     "expert": 4, "search": 4, "learned": 5, "deep": 5, "adaptive": 5,
                     "deep-read": 5, "reader": 5, "pimc": 3, "modeller": 3, "exploit": 3}
    assert card_stars(0.5) == 3 and card_stars(0.718) == 5
    assert board_stars(0) == 1 and board_stars(1422 + 377) == 5
    assert [b.stars for b in BOARD_BOTS.entries.values()][:2] == [1, 2]


def test_the_lobby_offers_native_as_the_dice_games_hard() -> None:
    bots = game_kinds()["board"].bots()
    hard = [b for b in bots if b["level"] == "hard" and b["alias_of"] is None]
    assert [b["name"] for b in hard] == ["native"]
    assert hard[0]["strength"] == max(b["strength"] for b in bots)
    assert "+377" in hard[0]["measured"]
    assert "perfect" not in {b["name"] for b in bots}
    cards = game_kinds()["cards"].bots()
    assert {b["level"]: b["name"] for b in cards if b["level"] and b["alias_of"] is None} == {
        "easy": "easy", "medium": "memory", "hard": "deep", "master": "adaptive"}
    # Every name a table accepts is listed: the old names as aliases of their bots.
    assert {b["name"]: b["alias_of"] for b in cards if b["alias_of"]} == {
        "medium": "memory", "hard": "deep", "master": "adaptive"}
    assert all({"name", "label", "method", "measured", "strength", "level"} <= set(b)
               for b in cards + bots)


def test_a_name_is_given_once() -> None:
    entry = BotEntry("a", "A", "m", "x", 1, "cambio.bots.cards.registry:_random",
                     aliases=("b",))
    with pytest.raises(ValueError, match="'b' given twice"):
        Registry("t", [entry, BotEntry("b", "B", "m", "x", 1, entry.factory)])


REGISTRY_MODULES = {"cambio.bots", "cambio.bots.registry", "cambio.bots.renamed",
                    "cambio.bots.resolve", "cambio.bots.cards", "cambio.bots.cards.base",
                    "cambio.bots.cards.registry", "cambio.bots.kernels"}
"""What naming the card bots takes: the registries and the resolver, no bot of its own (and
the server's list of kernel families, which imports neither a bot nor numba)."""


def loaded(module: str, prefixes: tuple[str, ...]) -> list[str]:
    code = (f"import json, sys, {module}; print(json.dumps(sorted(m for m in sys.modules "
            f"if m.startswith({prefixes!r}))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    names: list[str] = json.loads(out)
    return names


@pytest.mark.parametrize("module", ["cambio.server.app", "cambio.cli.main", "cambio.cards",
                                    "cambio.board", "cambio.bots.cards", "cambio.bots.board",
                                    "cambio.games.cards"])
def test_importing_loads_no_numba(module: str) -> None:
    assert loaded(module, ("numba", "llvmlite")) == []


@pytest.mark.parametrize("module", ["cambio.server.app", "cambio.cli.main", "cambio.cards",
                                    "cambio.board", "cambio.games.cards"])
def test_importing_loads_no_bot(module: str) -> None:
    """A bot's own module is imported when the bot is first built, not before."""
    assert set(loaded(module, ("cambio.bots",))) <= REGISTRY_MODULES


def test_each_kinds_away_bot_is_a_listed_bot() -> None:
    for kind in game_kinds().values():
        assert kind.away_bot in {b["name"] for b in kind.bots()}


def test_each_bot_has_one_name_a_person_sees() -> None:
    """The lobby's picker, a seat it takes and its profile all say "Medium", never the
    method ("memory") nor the label with it ("Medium (memory)")."""
    shown = {e["name"]: e["display"] for e in CARD_BOTS.public()}
    assert shown["memory"] == shown["medium"] == "Medium"
    assert shown["deep"] == shown["hard"] == "Hard" and shown["adaptive"] == "Master"
    assert shown["easy"] == "Easy" and shown["rusher"] == "Rusher"
    assert {e["display"] for e in BOARD_BOTS.public() if e["name"] == "native"} == {"Hard"}
