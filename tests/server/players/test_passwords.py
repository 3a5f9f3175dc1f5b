"""Passwords a guesser would try early are refused, with the reason, and change nothing:
the most common ones of leaked password sets (zxcvbn's list) and their usual disguises."""

from __future__ import annotations

import asyncio

import pytest
from zxcvbn.frequency_lists import FREQUENCY_LISTS

from cambio.server.players.passwords import weakness

from ...support.databases import Database
from ..harness import ServerProcess
from .helpers import browser, new_player

COMMON = [p for p in FREQUENCY_LISTS["passwords"][:1000] if len(p) >= 8]
"""The most common passwords long enough to pass the length rule."""


def test_the_thousand_most_common_passwords_are_refused() -> None:
    assert len(COMMON) > 250
    assert [p for p in COMMON if weakness(p) is None] == []


@pytest.mark.parametrize("password", ["Password123", "P@ssw0rd1", "qwertyuiop",
                                      "aaaaaaaaaaaa", "abcdefgh", "drowssap123"])
def test_common_passwords_in_disguise_are_refused(password: str) -> None:
    assert weakness(password) is not None


def test_the_players_own_name_is_no_password() -> None:
    assert weakness("AnnLee2024", ["AnnLee", "Ann"]) is not None


@pytest.mark.parametrize("password", ["correct horse battery", "a long secret",
                                      "Tr0ub4dor&3", "hunter2 is not a password", "x" * 300])
def test_passwords_that_are_hard_to_guess_pass(password: str) -> None:
    if password == "x" * 300:  # judged by its first 72 characters: a repeat, refused
        assert weakness(password) is not None
        return
    assert weakness(password) is None


def test_a_claim_with_a_common_password_is_refused_with_the_reason(database: Database
                                                                   ) -> None:
    with ServerProcess(database) as server:
        asyncio.run(_claims(server))


async def _claims(server: ServerProcess) -> None:
    async with browser(server) as ann:
        me = await new_player(ann, "Ann")
        for password in ("Password123", "AnnLee2024"):
            r = await ann.post("/api/me/claim", json={"username": "AnnLee",
                                                      "password": password})
            assert r.status_code == 400, r.text
            assert "too easy to guess" in r.json()["error"]["message"]
        assert (await ann.get("/api/me")).json()["player"]["claimed"] is False
        r = await ann.post("/api/me/claim", json={"username": "AnnLee",
                                                  "password": "correct horse battery"})
        assert r.status_code == 200, r.text
        assert (await ann.get("/api/me")).json()["player"]["id"] == me["id"]
