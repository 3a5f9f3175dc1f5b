"""Who is who: players, the browsers signed in as them, claims, logins and transfer codes.

Every read runs in a worker thread (a PostgreSQL round trip must not hold up the event loop)
and every write goes through ``Store.write`` like a table's. The rules of identity live here;
the REST handlers (:mod:`.routes`) only read requests and set cookies.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import NOT_FOUND, RATE_LIMITED, ProtocolError, Words
from ..limits import AddressLimiter
from ..social.moderation import refuse_banned
from ..store import Statement, Store
from ..store import players_sql as sql
from . import keys, names, passwords
from .hashing import HashBudget

T = TypeVar("T")
TRANSFER_MINUTES = 10
BROWSER = "browser"
TRANSFER = "transfer"


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    username: str | None
    """The username as its owner spelled it (``None``: not claimed)."""
    password_hash: str | None

    @property
    def handle(self) -> str:
        """What ``/p/{handle}`` shows the player at: the username, else the id."""
        return self.username or self.id

    def public(self) -> dict[str, Any]:
        """The player as anyone may see them (never a secret or a hash)."""
        return {"id": self.id, "name": self.name, "username": self.username,
                "claimed": self.username is not None, "profile": f"/p/{self.handle}"}


def _player(row: tuple[Any, ...]) -> Player:
    return Player(id=str(row[0]), name=str(row[1]), username=row[3], password_hash=row[4])


@dataclass
class Limits:
    """Rates of the doors a guesser would knock on (per process; docs/server.md)."""

    login_per_account: tuple[float, float] = (1 / 60, 5)
    """Sign-in attempts per username: 5 at once, then one a minute (so a guesser who
    spreads over many addresses still gets 1,440 tries a day at one account)."""
    login_per_address: tuple[float, float] = (1 / 6, 20)
    """Sign-in, claim and transfer-code attempts per client address."""
    lookup_per_address: tuple[float, float] = (2.0, 30)
    """Profile and username look-ups per client address (enumeration)."""
    new_per_address: tuple[float, float] = (1.0, 60)
    """New identities per client address."""


class Directory:
    def __init__(self, store: Store, limits: Limits | None = None,
                 hashing: HashBudget | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.hashing = hashing or HashBudget()
        """Every password hash of the process goes through it (:mod:`.hashing`)."""
        self.login_accounts = AddressLimiter(*self.limits.login_per_account)
        self.login_addresses = AddressLimiter(*self.limits.login_per_address)
        self.lookups = AddressLimiter(*self.limits.lookup_per_address)
        self.creations = AddressLimiter(*self.limits.new_per_address)
        self._redeeming: set[str] = set()
        """Transfer codes being redeemed now: between the read and the delete there are
        awaits, and a second request for the same code must not pass the read meanwhile."""

    async def _read(self, text: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return await asyncio.to_thread(self.store.read, text, params)

    async def write(self, statements: list[Statement]) -> None:
        await self.store.write(statements)

    async def _hash(self, address: str, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` (a password hash) within the process's hashing budget, the
        address's recent attempts deciding its place in the queue."""
        return await self.hashing.run(self.login_addresses.spent(address), fn, *args)

    @staticmethod
    def take(limiter: AddressLimiter, key: str, what: str) -> None:
        if not limiter.take(key):
            raise ProtocolError(RATE_LIMITED, Words("refusal.waitMinute",
                                                     f"too many {what}; wait a minute"))

    # ------------------------------------------------------------------ reading
    async def by_key(self, key: str | None) -> Player | None:
        """The player a browser's key belongs to (``None``: no key, or not a valid one)."""
        if not key or len(key) > 200:
            return None
        rows = await self._read(sql.PLAYER_BY_KEY, (keys.key_hash(key), BROWSER))
        return _player(rows[0]) if rows else None

    async def by_id(self, player_id: str) -> Player | None:
        rows = await self._read(sql.PLAYER_BY_ID, (player_id,))
        return _player(rows[0]) if rows else None

    async def lookup(self, name: str, address: str) -> Player | None:
        """``/p/{name}``: a username (any case) or an unclaimed player's id, rate limited
        per address so that guessing names is slow."""
        self.take(self.lookups, address, "look-ups")
        if len(name) > 64:
            return None
        key = names.lookup_key(name)
        text = sql.PLAYER_BY_ID if key.startswith("_") else sql.PLAYER_BY_USERNAME
        rows = await self._read(text, (key,))
        return _player(rows[0]) if rows else None

    # ------------------------------------------------------------------ changing
    async def create(self, name: str, address: str) -> tuple[Player, str]:
        """A new player and the key for the browser that asked."""
        self.take(self.creations, address, "new players from this address")
        player = Player(keys.new_player_id(), name, None, None)
        key = keys.new_key()
        await self.write([sql.insert_player(player.id, name, time.time(),
                                            keys.origin(address)),
                          sql.insert_key(keys.key_hash(key), player.id, BROWSER, None)])
        return player, key

    async def rename(self, player: Player, name: str) -> Player:
        await self.write([sql.rename_player(player.id, name)])
        return Player(player.id, name, player.username, player.password_hash)

    async def claim(self, player: Player, username: Any, password: Any, address: str
                    ) -> Player:
        """Give an unclaimed player a username and a password."""
        self.take(self.login_addresses, address, "attempts from this address")
        if player.username is not None:
            raise ProtocolError("conflict", Words("refusal.hasUsername",
                                                  "this player already has a username"))
        key, shown = names.username(username)
        secret = _password(password)
        weak = await asyncio.to_thread(passwords.weakness, secret, (shown, player.name))
        if weak is not None:
            raise ProtocolError("bad_request", Words("refusal.weakPassword", weak))
        if await self._read(sql.PLAYER_BY_USERNAME, (key,)):
            raise ProtocolError("conflict", Words("refusal.usernameTaken",
                                                  "that username is taken"))
        hashed = await self._hash(address, keys.hash_password, secret)
        try:
            await self.write([sql.claim_player(player.id, key, shown, hashed)])
        except Exception:  # the UNIQUE constraint: taken between the check and the write
            if await self._read(sql.PLAYER_BY_USERNAME, (key,)):
                raise ProtocolError("conflict", Words("refusal.usernameTaken",
                                                      "that username is taken")) from None
            raise
        return Player(player.id, player.name, shown, hashed)

    async def login(self, username: Any, password: Any, address: str) -> tuple[Player, str]:
        """A new browser key for the player with this username and password. Failures are
        limited per username and per address; the answer never says which part was wrong."""
        self.take(self.login_addresses, address, "sign-in attempts from this address")
        if not isinstance(username, str) or not isinstance(password, str):
            raise ProtocolError("bad_request", "\"username\" and \"password\" are text")
        key = names.lookup_key(username)[:64]
        self.take(self.login_accounts, key, "sign-in attempts for this username")
        rows = await self._read(sql.PLAYER_BY_USERNAME, (key,))
        player = _player(rows[0]) if rows else None
        stored = player.password_hash if player is not None else None
        ok = await self._hash(address, keys.password_matches, stored,
                              password[:keys.MAX_PASSWORD])
        if player is None or not ok:
            raise ProtocolError("forbidden", Words("refusal.wrongPassword",
                                                   "wrong username or password"))
        await asyncio.to_thread(refuse_banned, self.store, player.id)
        browser = keys.new_key()
        await self.write([sql.insert_key(keys.key_hash(browser), player.id, BROWSER, None)])
        return player, browser

    async def logout(self, key: str) -> None:
        await self.write([sql.delete_key(keys.key_hash(key))])

    async def delete(self, player: Player, password: Any, address: str) -> None:
        """Remove the player: their keys, username and password, ratings and game history;
        the seats they took stay at their tables without their id (docs/server.md)."""
        if player.username is not None:
            ok = isinstance(password, str) and await self._hash(
                address, keys.password_matches, player.password_hash,
                password[:keys.MAX_PASSWORD])
            if not ok:
                raise ProtocolError("forbidden", Words(
                    "refusal.deletePassword", "send your password to delete a claimed player"))
        await self.write(sql.delete_player(player.id))

    async def new_transfer(self, player: Player) -> tuple[str, int]:
        """A one-time code (valid :data:`TRANSFER_MINUTES`) that signs another browser in
        as this player."""
        code = keys.new_transfer_code()
        now = time.time()
        await self.write([sql.delete_expired_keys(now),
                          sql.insert_key(keys.transfer_hash(code), player.id, TRANSFER,
                                         now + TRANSFER_MINUTES * 60)])
        return code, TRANSFER_MINUTES * 60

    async def redeem(self, code: Any, address: str) -> tuple[Player, str]:
        """Use a transfer code once: this browser gets a key of the player."""
        self.take(self.login_addresses, address, "attempts from this address")
        if not isinstance(code, str) or len(code) > 40:
            raise ProtocolError("bad_request", Words("refusal.codeExpired",
                                                     "\"code\" must be the code you were shown"))
        hashed = keys.transfer_hash(code)
        if hashed in self._redeeming:  # the same answer as a used code
            raise ProtocolError(NOT_FOUND, Words("refusal.codeExpired",
                                                  "no such code, or it has expired"))
        self._redeeming.add(hashed)
        try:
            rows = await self._read(sql.PLAYER_BY_KEY, (hashed, TRANSFER))
            if not rows or rows[0][-1] is None or float(rows[0][-1]) < time.time():
                raise ProtocolError(NOT_FOUND, Words("refusal.codeExpired",
                                                  "no such code, or it has expired"))
            player = _player(rows[0])
            browser = keys.new_key()
            await self.write([sql.delete_key(hashed),
                              sql.insert_key(keys.key_hash(browser), player.id, BROWSER, None)])
        finally:
            self._redeeming.discard(hashed)
        return player, browser


def _password(raw: Any) -> str:
    if not isinstance(raw, str) or not keys.MIN_PASSWORD <= len(raw) <= keys.MAX_PASSWORD:
        raise ProtocolError("bad_request", Words(
            "refusal.passwordLength", f"passwords are {keys.MIN_PASSWORD} to "
                                      f"{keys.MAX_PASSWORD} characters",
            {"min": keys.MIN_PASSWORD, "max": keys.MAX_PASSWORD}))
    return raw
