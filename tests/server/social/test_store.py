"""The social tables on a real SQLite file and a real PostgreSQL database: migration,
relations, reports with their evidence, sanctions and the moderation log, and what
deleting a player takes with them."""

from __future__ import annotations

import asyncio

from cambio.server.social.hush import read_hush
from cambio.server.social.moderation import BAN, MUTE, Moderator, log, reports, standing
from cambio.server.store import open_store
from cambio.server.store import players_sql as sql
from cambio.server.store import social_sql as social

from ...support.databases import Database


def test_relations_reports_and_sanctions_round_trip(database: Database) -> None:
    store = open_store(database.url)
    clock = [1_000.0]

    async def main() -> None:
        await store.write([sql.insert_player(p, p.upper(), 1.0) for p in ("_a", "_b", "_c")]
                          + [sql.insert_key("kb", "_b", "browser", None),
                             social.relate("follows", "_a", "_b", 5.0),
                             social.relate("follows", "_a", "_b", 6.0),  # once only
                             social.relate("mutes", "_a", "_c", 5.0),
                             social.relate("blocks", "_c", "_b", 5.0),
                             social.insert_report("r1", "_a", "_b", "abuse", "rude", "t1",
                                                  {"chat": [{"seat": 1, "text": "ugh"}]},
                                                  7.0)])
        moderator = Moderator(store, "cli:op", clock=lambda: clock[0])
        await moderator.sanction("_b", MUTE, 3600.0, "rude in chat")
        clock[0] += 10
        await moderator.sanction("_b", BAN, None, "again")
        clock[0] += 10
        await moderator.warn("_c", "be nice")

    try:
        asyncio.run(main())
        assert store.read(social.COUNT.format(relation="follows"), ("_a",)) == [(1,)]
        held = standing(store, "_b", now=clock[0] - 10)
        assert set(held) == {MUTE, BAN} and held[BAN].until is None
        assert held[MUTE].until == 1_000.0 + 3600.0
        assert standing(store, "_b", now=1_000.0 + 3601.0).keys() == {BAN}  # the mute ran out
        assert store.read("SELECT key_hash FROM player_keys WHERE player_id = '_b'") == []
        [r] = reports(store, open_only=False)
        assert r["evidence"]["chat"][0]["text"] == "ugh" and r["closed"] is not None
        assert reports(store) == []  # acting on the player closed it
        assert [(e["actor"], e["action"]) for e in log(store)] == [
            ("cli:op", "warn"), ("cli:op", "ban"), ("cli:op", "mute")]
        hush = read_hush(store, {0: "_a", 1: "_b", 2: "_c"}, strangers=True, now=clock[0])
        assert hush.hides(0, 2) and not hush.hides(2, 0)      # _a muted _c
        assert hush.hides(2, 1)                               # _c blocked _b
        assert hush.refusal(1, emote=True) is not None        # banned: not even emotes
        assert hush.refusal(0, emote=False) is not None       # unclaimed, among strangers
        assert hush.refusal(0, emote=True) is None
        asyncio.run(store.write(sql.delete_player("_b")))
        for relation in social.RELATIONS:
            assert store.read(f"SELECT * FROM {relation} WHERE player_id = '_b' OR "
                              "other_id = '_b'") == []
        assert len(reports(store, open_only=False)) == 1  # the operators' record stays
    finally:
        store.close()


def test_the_migration_runs_once_and_reopening_changes_nothing(database: Database) -> None:
    open_store(database.url).close()
    store = open_store(database.url)
    try:
        assert store.read("SELECT version FROM schema_version") == [(sql.SCHEMA_VERSION,)]
        assert store.read("SELECT COUNT(*) FROM moderation") == [(0,)]
    finally:
        store.close()
