"""The SQL of people among themselves: follows, blocks, mutes, invites, reports, and the
operators' roles, sanctions and log (their migration step is in :mod:`.players_sql`).

Every relation is a row ``(player_id, other_id)`` read as "player_id follows / blocks /
mutes other_id". The same SQL runs on SQLite and PostgreSQL (the dialect
:mod:`.statements` describes).
"""

from __future__ import annotations

import json
from typing import Any

from .statements import Statement

RELATIONS = ("follows", "blocks", "mutes")
"""The tables of one player's choices about another."""


def relate(relation: str, player_id: str, other_id: str, created: float) -> Statement:
    assert relation in RELATIONS
    return (f"INSERT INTO {relation} (player_id, other_id, created) VALUES (?, ?, ?) "
            "ON CONFLICT (player_id, other_id) DO NOTHING", (player_id, other_id, created))


def unrelate(relation: str, player_id: str, other_id: str) -> Statement:
    assert relation in RELATIONS
    return (f"DELETE FROM {relation} WHERE player_id = ? AND other_id = ?",
            (player_id, other_id))


def unfollow_both(a: str, b: str) -> Statement:
    """A block ends following either way."""
    return ("DELETE FROM follows WHERE (player_id = ? AND other_id = ?) OR "
            "(player_id = ? AND other_id = ?)", (a, b, b, a))


def drop_invites_between(a: str, b: str) -> Statement:
    return ("DELETE FROM invites WHERE (player_id = ? AND from_id = ?) OR "
            "(player_id = ? AND from_id = ?)", (a, b, b, a))


def insert_invite(player_id: str, from_id: str, table_id: str, created: float
                  ) -> Statement:
    """An invite again to the same table is the same invite, made newer."""
    return ("INSERT INTO invites (player_id, from_id, table_id, created) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (player_id, from_id, table_id) DO UPDATE SET created = "
            "excluded.created", (player_id, from_id, table_id, created))


def delete_invite(player_id: str, table_id: str) -> Statement:
    return ("DELETE FROM invites WHERE player_id = ? AND table_id = ?", (player_id, table_id))


def delete_old_invites(before: float) -> Statement:
    return ("DELETE FROM invites WHERE created < ?", (before,))


def forget_player(player_id: str) -> list[Statement]:
    """A deleted player's relations and invites, both ways. Reports and the moderation log
    stay: they are the operators' record of what happened."""
    both = (player_id, player_id)
    return [(f"DELETE FROM {r} WHERE player_id = ? OR other_id = ?", both) for r in RELATIONS
            ] + [("DELETE FROM invites WHERE player_id = ? OR from_id = ?", both),
                 ("DELETE FROM sanctions WHERE player_id = ?", (player_id,))]


def insert_report(report_id: str, reporter: str, player_id: str, reason: str, note: str,
                  table_id: str | None, evidence: dict[str, Any], created: float
                  ) -> Statement:
    return ("INSERT INTO reports (id, reporter_id, player_id, reason, note, table_id, "
            "evidence, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (report_id, reporter, player_id, reason, note, table_id,
             json.dumps(evidence, ensure_ascii=False), created))


def close_reports(player_id: str, at: float) -> Statement:
    """An operator acted on a player: their open reports are dealt with."""
    return ("UPDATE reports SET closed = ? WHERE player_id = ? AND closed IS NULL",
            (at, player_id))


def set_role(player_id: str, role: str | None) -> Statement:
    return ("UPDATE players SET role = ? WHERE id = ?", (role, player_id))


def set_seen(player_id: str, at: float) -> Statement:
    return ("UPDATE players SET seen = ? WHERE id = ?", (at, player_id))


def put_sanction(player_id: str, kind: str, until: float | None, reason: str,
                 created: float) -> Statement:
    return ("INSERT INTO sanctions (player_id, kind, until, reason, created) VALUES "
            "(?, ?, ?, ?, ?) ON CONFLICT (player_id, kind) DO UPDATE SET until = "
            "excluded.until, reason = excluded.reason, created = excluded.created",
            (player_id, kind, until, reason, created))


def lift_sanction(player_id: str, kind: str) -> Statement:
    return ("DELETE FROM sanctions WHERE player_id = ? AND kind = ?", (player_id, kind))


def end_sessions(player_id: str) -> Statement:
    """Every browser signed in as the player, and every transfer code, stops working."""
    return ("DELETE FROM player_keys WHERE player_id = ?", (player_id,))


def log_action(entry_id: str, at: float, actor: str, action: str, player_id: str,
               detail: dict[str, Any]) -> Statement:
    return ("INSERT INTO moderation (id, at, actor, action, player_id, detail) VALUES "
            "(?, ?, ?, ?, ?, ?)", (entry_id, at, actor, action, player_id,
                                    json.dumps(detail, ensure_ascii=False)))


# ---------------------------------------------------------------------- reads
def among(text: str, ids: list[str]) -> tuple[str, tuple[str, ...]]:
    """``text`` ending in ``IN`` completed with a placeholder per id."""
    return f"{text} ({', '.join('?' for _ in ids)})", tuple(ids)


RELATED = "SELECT 1 FROM {relation} WHERE player_id = ? AND other_id = ?"
BLOCKED_EITHER = ("SELECT 1 FROM blocks WHERE (player_id = ? AND other_id = ?) OR "
                  "(player_id = ? AND other_id = ?)")
LIST = ("SELECT p.id, p.name, p.shown, r.created FROM {relation} r JOIN players p ON "
        "p.id = r.other_id WHERE r.player_id = ? ORDER BY r.created DESC LIMIT ?")
FOLLOWED = ("SELECT p.id, p.name, p.shown, p.seen FROM follows f JOIN players p ON "
            "p.id = f.other_id WHERE f.player_id = ? AND NOT EXISTS (SELECT 1 FROM blocks b "
            "WHERE b.player_id = f.other_id AND b.other_id = f.player_id) "
            "ORDER BY p.name LIMIT ?")
COUNT = "SELECT COUNT(*) FROM {relation} WHERE player_id = ?"
PLAYING_AMONG = ("SELECT s.player_id, t.id, t.game, t.config FROM seats s JOIN tables t ON "
                 "t.id = s.table_id WHERE t.status = 'playing' AND s.player_id IN")
SEATED_AT = "SELECT seat, player_id FROM seats WHERE table_id = ? AND player_id IS NOT NULL"
TABLE_STATUS = "SELECT status, game, config FROM tables WHERE id = ?"
INVITES_OF = ("SELECT i.from_id, p.name, p.shown, i.table_id, t.game, t.config, i.created "
              "FROM invites i "
              "JOIN players p ON p.id = i.from_id JOIN tables t ON t.id = i.table_id "
              "WHERE i.player_id = ? AND t.status = 'waiting' AND NOT EXISTS (SELECT 1 FROM "
              "blocks b WHERE b.player_id = i.player_id AND b.other_id = i.from_id) "
              "ORDER BY i.created DESC LIMIT ?")
HUSH_MUTES = "SELECT player_id, other_id FROM mutes WHERE player_id IN"
HUSH_BLOCKS = "SELECT player_id, other_id FROM blocks WHERE player_id IN"
PEOPLE = "SELECT id, username, role FROM players WHERE id IN"
SANCTIONS_AMONG = "SELECT player_id, kind, until, reason FROM sanctions WHERE player_id IN"
SANCTIONS_OF = "SELECT kind, until, reason FROM sanctions WHERE player_id = ?"
BLOCK_PAIRS = ("SELECT player_id, other_id FROM blocks WHERE player_id IN ({ids}) AND "
               "other_id IN ({ids})")
REPORTS = ("SELECT r.id, r.reporter_id, r.player_id, p.name, r.reason, r.note, r.table_id, "
           "r.evidence, r.created, r.closed FROM reports r LEFT JOIN players p ON "
           "p.id = r.player_id")
RECENT_REPORT = ("SELECT 1 FROM reports WHERE reporter_id = ? AND player_id = ? AND "
                 "created > ?")
LOG = "SELECT id, at, actor, action, player_id, detail FROM moderation"
WARNINGS_OF = ("SELECT at, detail FROM moderation WHERE player_id = ? AND action = 'warn' "
               "ORDER BY at DESC LIMIT ?")
ROLE_OF = "SELECT role FROM players WHERE id = ?"
OPERATORS = "SELECT id, name, shown FROM players WHERE role = 'operator' ORDER BY id"
BANS_SINCE = ("SELECT player_id, until, reason, created FROM sanctions WHERE kind = ? AND "
              "created > ?")
MY_TABLES = ("SELECT t.id, s.seat FROM seats s JOIN tables t ON t.id = s.table_id "
             "WHERE s.player_id = ? AND t.status IN ('waiting', 'playing') "
             "ORDER BY t.created DESC LIMIT ?")
"""The tables a player holds a seat at that are not over, newest first."""
SEAT_PEOPLE = ("SELECT s.seat, p.id, p.name, p.shown FROM seats s JOIN players p ON "
               "p.id = s.player_id WHERE s.table_id = ?")
"""The players seated at a table (their public identity: id, name, username)."""
