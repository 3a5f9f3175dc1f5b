"""``cambio admin``: the operators' commands (docs/moderation.md).

They open the server's database directly (beside a running server: SQLite's lock file and
PostgreSQL's advisory lock are a server's, not these commands'), act in one transaction each
and log who did it, so they reach every process of a cluster at once: the servers read a
player's sanctions when the player next does something a sanction forbids. Like
:mod:`.command`, this imports only typer and plain values until a command runs.
"""

from __future__ import annotations

import asyncio
import getpass
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from .settings import Settings

if TYPE_CHECKING:
    from .store import Store

T = TypeVar("T")
admin_app = typer.Typer(help="Moderation: reports, warnings, mutes, bans and operators.",
                        no_args_is_help=True)

Database = Annotated[str, typer.Option(
    "--database", "--db", metavar="PATH|URL",
    help="The server's database: an SQLite file or a PostgreSQL URL.")]
Who = Annotated[str, typer.Argument(help="The player: a username or a player id (_...).")]
Reason = Annotated[str, typer.Option("--reason", "-r", help="Why (the player is shown it).")]
Actor = Annotated[str | None, typer.Option(
    "--as", help="Who acts, for the log (default: cli:$USER).")]
DEFAULT_DB = Settings().database


def duration(raw: str | None) -> float | None:
    """``--for``, in seconds (:func:`.social.moderation.duration`)."""
    from .social.moderation import duration as seconds

    try:
        return seconds(raw)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _open(database: str) -> Store:
    from .store import StoreError, is_postgres, open_store, sqlite_path

    if not is_postgres(database) and not Path(sqlite_path(database)).is_file():
        _fail(f"no database at {database} (the server's --database)")
    try:
        return open_store(database, exclusive=False)
    except StoreError as exc:
        _fail(str(exc))
        raise  # not reached: _fail exits


def _player_id(store: Store, who: str) -> str:
    from .players.names import lookup_key
    from .store import players_sql as sql

    key = lookup_key(who)
    rows = store.read(sql.PLAYER_BY_ID if key.startswith("_") else sql.PLAYER_BY_USERNAME,
                      (key,))
    if not rows:
        _fail(f"no player {who!r}")
    return str(rows[0][0])


def _with_store(database: str, work: Callable[[Store], T]) -> T:
    store = _open(database)
    try:
        return work(store)
    finally:
        store.close()


def _act(database: str, who: str, actor: str | None,
         action: Callable[[Any, str], Coroutine[Any, Any, None]]) -> str:
    """Run one moderation ``action(moderator, player_id)``; returns the player's id."""
    from .social.moderation import Moderator

    def work(store: Store) -> str:
        pid = _player_id(store, who)
        moderator = Moderator(store, actor or f"cli:{getpass.getuser()}")
        try:
            asyncio.run(action(moderator, pid))
        except ValueError as exc:
            _fail(str(exc))
        return pid

    return _with_store(database, work)


@admin_app.command("reports")
def reports_command(database: Database = DEFAULT_DB,
                    every: Annotated[bool, typer.Option(
                        "--all", help="Closed reports too.")] = False,
                    player: Annotated[str | None, typer.Option(
                        help="Only the reports about this player.")] = None,
                    limit: Annotated[int, typer.Option(min=1, max=1000)] = 50,
                    as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Reports (open ones unless --all), newest first, with their evidence."""
    from .social.moderation import reports

    def work(store: Store) -> list[dict[str, Any]]:
        pid = _player_id(store, player) if player else None
        return reports(store, open_only=not every, player_id=pid, limit=limit)

    found = _with_store(database, work)
    if as_json:
        typer.echo(json.dumps(found, ensure_ascii=False, indent=1))
        return
    if not found:
        typer.echo("no reports")
    for r in found:
        state = f"closed {r['closed']}" if r["closed"] else "open"
        typer.echo(f"{r['id']}  {r['created']}  {state}  {r['player']} ({r['name']})  "
                   f"{r['reason']}  by {r['reporter']}")
        if r["note"]:
            typer.echo(f"    note: {r['note']}")
        if r["table"]:
            seats = r["evidence"].get("seats", {})
            typer.echo(f"    table {r['table']}, seats {seats}")
            for line in r["evidence"].get("chat", []):
                mark = ">" if line["n"] == r["evidence"].get("line") else " "
                typer.echo(f"   {mark}[{line['at']}] seat {line['seat']} {line['name']}: "
                           f"{line['text']}")


@admin_app.command("log")
def log_command(database: Database = DEFAULT_DB,
                player: Annotated[str | None, typer.Option(help="Only this player.")] = None,
                limit: Annotated[int, typer.Option(min=1, max=1000)] = 50) -> None:
    """The moderation log, newest first: who did what to whom, and why."""
    from .social.moderation import log

    def work(store: Store) -> list[dict[str, Any]]:
        return log(store, _player_id(store, player) if player else None, limit)

    for e in _with_store(database, work):
        extra = f" until {e['until']}" if e.get("until") else ""
        typer.echo(f"{e['at']}  {e['actor']}  {e['action']}  {e['player']}{extra}  "
                   f"{e.get('reason', e.get('role', ''))}")


@admin_app.command("warn")
def warn_command(who: Who, reason: Reason, database: Database = DEFAULT_DB,
                 actor: Actor = None) -> None:
    """Warn a player (they see it); closes their open reports."""
    pid = _act(database, who, actor, lambda m, p: m.warn(p, reason))
    typer.echo(f"warned {pid}")


For = Annotated[str | None, typer.Option(
    "--for", help="How long: 30m, 12h, 7d, 2w (default: until lifted).")]
Lifted = Annotated[str, typer.Option("--reason", "-r", help="Why it is lifted.")]


def _sanction_command(kind: str, who: str, reason: str, database: str, for_: str | None,
                      actor: str | None) -> None:
    seconds = duration(for_)

    async def act(moderator: Any, pid: str) -> None:
        await moderator.sanction(pid, kind, seconds, reason)

    pid = _act(database, who, actor, act)
    done = {"mute": "muted", "ban": "banned"}[kind]
    typer.echo(f"{done} {pid}" + (f" for {for_}" if for_ else ""))


def _lift_command(kind: str, who: str, reason: str, database: str, actor: str | None
                  ) -> None:
    pid = _act(database, who, actor, lambda m, p: m.lift(p, kind, reason))
    typer.echo(f"lifted the {kind} of {pid}")


@admin_app.command("mute")
def mute_command(who: Who, reason: Reason, database: Database = DEFAULT_DB, for_: For = None,
                 actor: Actor = None) -> None:
    """Stop a player chatting, at every table, for a time or until unmuted."""
    _sanction_command("mute", who, reason, database, for_, actor)


@admin_app.command("unmute")
def unmute_command(who: Who, database: Database = DEFAULT_DB, actor: Actor = None,
                   reason: Lifted = "lifted") -> None:
    """Lift a player's mute."""
    _lift_command("mute", who, reason, database, actor)


@admin_app.command("ban")
def ban_command(who: Who, reason: Reason, database: Database = DEFAULT_DB, for_: For = None,
                actor: Actor = None) -> None:
    """Ban a player: every session ends, no sign-in, no Play now (rated tables), no chat."""
    _sanction_command("ban", who, reason, database, for_, actor)


@admin_app.command("unban")
def unban_command(who: Who, database: Database = DEFAULT_DB, actor: Actor = None,
                  reason: Lifted = "lifted") -> None:
    """Lift a player's ban (they sign in again with their password)."""
    _lift_command("ban", who, reason, database, actor)


@admin_app.command("dismiss")
def dismiss_command(who: Who, reason: Reason, database: Database = DEFAULT_DB,
                    actor: Actor = None) -> None:
    """Close a player's open reports with no action against them."""
    pid = _act(database, who, actor, lambda m, p: m.dismiss(p, reason))
    typer.echo(f"dismissed the reports about {pid}")


@admin_app.command("grant")
def grant_command(who: Who, database: Database = DEFAULT_DB, actor: Actor = None) -> None:
    """Make a player an operator (their own actions are then logged under their id)."""
    pid = _act(database, who, actor, lambda m, p: m.set_operator(p, True))
    typer.echo(f"{pid} is an operator")


@admin_app.command("revoke")
def revoke_command(who: Who, database: Database = DEFAULT_DB, actor: Actor = None) -> None:
    """Take the operator role back."""
    pid = _act(database, who, actor, lambda m, p: m.set_operator(p, False))
    typer.echo(f"{pid} is no longer an operator")


@admin_app.command("operators")
def operators_command(database: Database = DEFAULT_DB) -> None:
    """The players who hold the operator role."""
    from .store import social_sql as sql

    for pid, name, shown in _with_store(database, lambda store: store.read(sql.OPERATORS)):
        typer.echo(f"{pid}  {shown or '-'}  {name}")


def register(app: typer.Typer) -> None:
    """Add ``admin`` to the ``cambio`` command (:mod:`cambio.cli.main`)."""
    app.add_typer(admin_app, name="admin")
