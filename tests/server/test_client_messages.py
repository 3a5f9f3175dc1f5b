"""The WebSocket door's parser: each frame becomes one typed client message, or the typed
``bad_message`` error the protocol has always given, with the ``ref`` to echo when the frame
had a valid one (``docs/protocol.md``, error codes). The generated typedefs and doc tables
are those the definitions make today."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cambio.server.client_messages import (
    Act,
    Back,
    BadMessage,
    ChatSay,
    HintRequest,
    Ping,
    Sync,
    parse,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("frame", "expected"), [
    ({"type": "act", "action": "draw", "version": 0}, Act(action="draw", version=0)),
    ({"type": "act", "action": "snap 1.2", "version": 4, "ref": "r", "reaction_ms": 350},
     Act(action="snap 1.2", version=4, ref="r", reaction_ms=350)),
    ({"type": "sync", "since": 3, "game_no": 1, "round": 2},
     Sync(since=3, game_no=1, round=2)),
    ({"type": "sync", "since": 3}, Sync(since=3)),
    ({"type": "hint", "ref": 7}, HintRequest(ref=7)),
    ({"type": "ping"}, Ping()),
    ({"type": "back", "unknown": "fields are ignored"}, Back()),
    ({"type": "chat", "emote": "gg", "ref": 1.5}, ChatSay(emote="gg", ref=1.5)),
])
def test_every_client_message_parses_into_its_type(frame: dict[str, Any],
                                                    expected: object) -> None:
    assert parse(json.dumps(frame)) == expected
    assert parse(json.dumps(frame).encode()) == expected


def test_a_lone_surrogate_the_fast_decoder_refuses_is_still_read_as_json_reads_it() -> None:
    msg = parse('{"type": "chat", "text": "a\\ud800b"}')
    assert isinstance(msg, ChatSay) and msg.text == "a\ud800b"


def refusal(raw: str) -> BadMessage:
    with pytest.raises(BadMessage) as caught:
        parse(raw)
    assert caught.value.code == "bad_message"
    return caught.value


@pytest.mark.parametrize(("raw", "words"), [
    ("this is not json", "not JSON"),
    ('{"type": "act", "action": "draw", "version": NaN}', "not JSON"),
    ('{"type": "ping", "ref": Infinity}', "not JSON"),
    ("[1, 2, 3]", "JSON object"),
    ('"act"', "JSON object"),
    ('{"type": "ping", "ref": 1e400}', '"ref"'),
    ('{"type": "ping", "ref": true}', '"ref"'),
    ('{"type": "ping", "ref": 9007199254740993}', '"ref"'),
    ('{"type": "ping", "ref": "' + "x" * 65 + '"}', '"ref"'),
    ('{"type": "ping", "ref": [1]}', '"ref"'),
])
def test_a_frame_that_is_no_message_echoes_no_ref(raw: str, words: str) -> None:
    bad = refusal(raw)
    assert words in bad.message and bad.ref is None


@pytest.mark.parametrize(("frame", "words"), [
    ({"type": "dance"}, "unknown message type; types: act, sync, hint, ping, back, chat"),
    ({"action": "draw", "version": 0}, "unknown message type"),
    ({"type": 3}, "unknown message type"),
    ({"type": "act"}, '"act" needs'),
    ({"type": "act", "action": 1, "version": 0}, '"act" needs'),
    ({"type": "act", "action": "draw", "version": True}, '"act" needs'),
    ({"type": "act", "action": "draw", "version": -1}, '"act" needs'),
    ({"type": "act", "action": "draw", "version": 1 << 31}, '"act" needs'),
    ({"type": "act", "action": "draw", "version": 1.0}, '"act" needs'),
    ({"type": "act", "action": "snap 0.1", "version": 0, "reaction_ms": -5}, '"act" needs'),
    ({"type": "sync", "since": -1}, '"sync" needs'),
    ({"type": "sync", "since": 0, "round": "1"}, '"sync" needs'),
    ({"type": "chat", "text": 5}, '"chat" needs'),
    ({"type": "chat", "emote": ["gg"]}, '"chat" needs'),
])
def test_a_message_that_does_not_fit_its_type_says_what_it_needs(frame: dict[str, Any],
                                                                  words: str) -> None:
    bad = refusal(json.dumps({**frame, "ref": "mine"}))
    assert words in bad.message and bad.ref == "mine"


def test_the_generated_typedefs_and_doc_tables_are_current() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_protocol.py"),
                           "--check"], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
