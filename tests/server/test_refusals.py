"""The server's refusals carry the words the page shows in the reader's language: a catalog key
(``web/static/locales``) and its params beside the English ``message`` (docs/i18n.md, "The
server's words"). The engines' own reasons are matched to keys; every key the server can
send is in all four catalogs."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from cambio.board import Board
from cambio.board.errors import IllegalMoveError
from cambio.cards import Rules, State
from cambio.cards.errors import IllegalActionError
from cambio.server.errors import ProtocolError, Words, said
from cambio.server.players.names import MAX_DISPLAY, display_name
from cambio.server.players.ratings import UNRATED, unrated_code
from cambio.server.refusals import KEYS, illegal
from cambio.server.server_messages import error
from cambio.server.table_core import Refusal, judge_act
from tests.support.cards_table import card_session

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "src" / "cambio" / "web" / "static" / "locales"


def catalog(lang: str) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((LOCALES / f"{lang}.json").read_text())
    return loaded


def sent_keys() -> set[str]:
    """Every key the server names: the engines' reasons, each ``Words("key", ...)`` in the
    server's code, the unrated reasons' codes and a sanction's (built from its kind)."""
    source = "\n".join(p.read_text() for p in (ROOT / "src" / "cambio" / "server").rglob("*.py"))
    named = set(re.findall(r'Words\(\s*"([\w.]+)"', source))
    assert len(named) > 40  # the pattern still finds them
    sanctions = {f"refusal.{what}{until}"
                 for what in ("banned", "muted") for until in ("", "Until")}
    return named | set(KEYS) | {f"unrated.{code}" for code in UNRATED} | sanctions


@pytest.mark.parametrize("lang", ["en", "de", "es", "fr"])
def test_every_key_the_server_sends_is_in_every_catalog(lang: str) -> None:
    words = catalog(lang)
    missing = sorted(k for k in sent_keys() if k not in words)
    assert missing == []


@pytest.mark.parametrize("lang", ["de", "es", "fr"])
def test_a_reader_of_another_language_gets_no_english_for_them(lang: str) -> None:
    """Each text differs from English's (a name such as "MCTS" may not; none of these is)."""
    en, words = catalog("en"), catalog(lang)
    same = sorted(k for k in sent_keys() if words.get(k) == en.get(k))
    assert same == []


def reason(state: State, action: str, seat: int) -> str:
    with pytest.raises(IllegalActionError) as refused:
        state.play(action, seat)
    return refused.value.reason


def test_the_card_engines_reasons_get_their_keys() -> None:
    rules = Rules.preset("rulebook")
    state = State(rules, 2, seed=5)
    actor = state.current_player()
    cases = {
        "refusal.notYourTurn": reason(state, "draw", 1 - actor),
        "refusal.noTake": reason(state, "take", actor),
    }
    late = State(dataclasses.replace(rules, earliest_cambio_turn=3), 2, seed=5)
    early = illegal(reason(late, "cambio", late.current_player()))
    for key, text in cases.items():
        said_ = illegal(text)
        assert isinstance(said_, Words) and said_.key == key
        assert said_ == text  # the English message is the engine's, unchanged
    assert isinstance(early, Words) and early.key == "refusal.cambioFromTurn"
    assert early.params == {"turn": 3}


def test_the_dice_engines_reasons_get_their_keys() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError) as refused:
        board.play("pass")
    said_ = illegal(refused.value.reason)
    assert isinstance(said_, Words) and said_.key == "refusal.passNotLegal"


def test_an_unknown_reason_stays_plain_text() -> None:
    assert not isinstance(illegal("something new"), Words)
    assert said(illegal("something new")) == {}


def test_a_refused_act_sends_its_key_beside_the_english() -> None:
    s = card_session(Rules.preset("rulebook"), 2, 3)
    s.deal(s.next_header([{"name": "a"}, {"name": "b"}], "now"))
    seat = s.decider()
    assert seat is not None
    wrong = judge_act(s, "playing", None, 1 - seat, "draw", 0)
    assert isinstance(wrong, Refusal)
    sent = error(wrong.code, wrong.message, "r1")
    assert sent["code"] == "illegal" and sent.get("key") == "refusal.notYourTurn"
    assert sent["message"].startswith("it is seat")
    spectator = judge_act(s, "playing", None, None, "draw", 0)
    assert isinstance(spectator, Refusal)
    assert error(spectator.code, spectator.message).get("key") == "refusal.spectator"
    plain = error("stale", "the current version is 4")
    assert "key" not in plain and "params" not in plain


def test_a_rest_error_names_its_params() -> None:
    with pytest.raises(ProtocolError) as refused:
        display_name("x" * 500)
    assert said(refused.value.message) == {"key": "refusal.nameTooLong",
                                           "params": {"max": MAX_DISPLAY}}
    assert refused.value.message == f"names are limited to {MAX_DISPLAY} characters"


def test_a_stored_unrated_reason_has_its_code() -> None:
    assert unrated_code("a player never made a move") == "noMove"
    assert unrated_code(UNRATED["provisional"]) == "provisional"
    assert unrated_code("a reason of an older server") is None
    assert unrated_code(None) is None
