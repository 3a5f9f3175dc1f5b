"""People among themselves in a real browser, two players in two browser contexts: follow a
player from their profile, see them online in the lobby, invite them from one's waiting
table (the invite shows in their lobby), unfollow; report, mute and block from a chat line
and from the profile, and Play now keeping a blocked pair apart; and a correspondence card
game played over several server restarts, each player told by the lobby's "Your games"
list, the page title and a notification that it is their move.

The tests of two people run on each store, SQLite and PostgreSQL (a server each); the
correspondence game and the quick phrases on SQLite (their server is the module's own: the
correspondence test restarts it; tests/server covers their store on both)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from ..support.databases import BACKENDS, Database
from .conftest import WAIT_MS, Server
from .driver import LAPTOP, new_context, open_page, seen, step, wait_async

DAY = 86400


@pytest.fixture(scope="module")
def social_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # No kernel warm-up child: one outlives a kill -9 holding the port a restart needs.
    srv = Server(Path(tmp_path_factory.mktemp("social")), "social", "--seed", "41",
                 "--bot-speed", "20", "--away-after", "600", "--no-warm-kernels")
    yield srv
    srv.stop()


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The store of the tests of two people (so named, ``-m postgres`` selects them as it
    does the server tests on PostgreSQL: tests/support/schedule.py)."""
    kind: str = request.param
    return kind


@pytest.fixture(scope="module")
def people_server(backend: str, request: pytest.FixtureRequest,
                  tmp_path_factory: pytest.TempPathFactory
                  ) -> Iterator[tuple[Server, Database]]:
    """The server of the tests of two people, on the ``backend`` store, and its database."""
    folder = Path(tmp_path_factory.mktemp("people"))
    if backend == "postgres":
        database = Database("postgres", request.getfixturevalue("postgres").create_database(),
                            folder)
    else:
        database = Database("sqlite", str(folder / "people.sqlite3"), folder)
    # This --db comes after the one Server passes: the later option wins. Play now waits a
    # minute for players: nobody is given bots before asking for them.
    srv = Server(folder, "people", "--seed", "41", "--bot-speed", "20", "--away-after", "600",
                 "--queue-wait", "60", "--no-warm-kernels", "--db", database.url)
    yield srv, database
    srv.stop()


class Person:
    """A browser context (one device) whose player has a name, on the lobby."""

    def __init__(self, browser: Browser, base: str, name: str) -> None:
        self.base = base
        self.ctx: BrowserContext = new_context(browser, {"viewport": LAPTOP})
        self.ctx.grant_permissions(["notifications"], origin=base)
        self.page = self.new_page()
        self.page.goto(base + "/static/favicon.svg")   # same origin: the name the lobby uses
        self.page.evaluate("(n) => localStorage.setItem('cambio:name', n)", name)
        self.lobby()
        self.player: dict[str, Any] = wait_async(
            self.page, "() => fetch('/api/me').then((r) => r.json())"
            ".then((b) => b.player && b.player.name !== 'Player' && b.player)")

    def new_page(self) -> Page:
        return open_page(self.ctx)

    def lobby(self) -> None:
        self.page.goto(self.base + "/")
        self.page.wait_for_selector("#friends-list")

    def look_again(self, page: Page | None = None) -> None:
        """What a player returning to the tab does: the lobby looks again at once."""
        (page or self.page).evaluate("() => dispatchEvent(new Event('focus'))")

    def profile_of(self, other: Person) -> Page:
        page = self.new_page()
        page.goto(self.base + other.player["profile"])
        page.wait_for_selector("#social-actions")
        return page

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """A call with this browser's cookie, as the page makes it."""
        return self.page.evaluate(
            "([m, p, b]) => fetch(p, {method: m, headers: {'Content-Type': 'application/json'},"
            " body: b === null ? undefined : JSON.stringify(b)}).then((r) => r.json())",
            [method, path, body])

    def close(self) -> None:
        self.ctx.close()


@pytest.fixture
def pair(browser: Browser, people_server: tuple[Server, Database]
         ) -> Iterator[tuple[Person, Person]]:
    base = people_server[0].base
    ann = Person(browser, base, "Ann")
    bo = Person(browser, base, "Bo")
    yield ann, bo
    ann.close()
    bo.close()


def toggled(page: Page, button: str, on: bool) -> None:
    page.click(button)
    page.wait_for_selector(f'{button}[data-on="{int(on)}"]')


def test_follow_see_online_invite_and_unfollow(pair: tuple[Person, Person]) -> None:
    ann, bo = pair
    profile = ann.profile_of(bo)
    toggled(profile, "#social-follow", True)
    # Bo's lobby is open (it polls): Ann's lobby shows him online.
    ann.lobby()
    ann.page.wait_for_selector(f'#friends-list li[data-player="{bo.player["id"]}"]'
                               '[data-online="1"]')
    # Ann's new table: she invites Bo from its waiting room.
    ann.page.click("#create")
    ann.page.wait_for_url("**/t/*")
    table = ann.page.url.rsplit("/", 1)[1]
    invite = f'#invite-list li[data-player="{bo.player["id"]}"] button[data-act="invite"]'
    ann.page.click(invite)
    ann.page.wait_for_selector(f"{invite}[disabled]")
    # The invite shows in Bo's lobby as a notice, with the way to the table.
    bo.look_again()
    notice = f'#invites li[data-table="{table}"]'
    bo.page.wait_for_selector(notice)
    assert "Ann" in bo.page.inner_text(notice)
    assert bo.page.get_attribute(f"{notice} a", "href") == f"/t/{table}"
    # Unfollow: gone from her friends.
    toggled(profile, "#social-follow", False)
    ann.lobby()
    ann.page.wait_for_selector("#friends-list li.muted")
    assert ann.page.locator("#friends-list li.friend").count() == 0


def reports(database: Database) -> list[tuple[Any, ...]]:
    return database.rows("SELECT reporter_id, player_id, reason, note, table_id, evidence "
                         "FROM reports")


def operator(database: Database, *args: str) -> None:
    """``cambio admin ARGS`` as an operator runs it: a process of its own."""
    done = subprocess.run([sys.executable, "-m", "cambio.cli.main", "admin", *args, "--db",
                           database.url], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr


def chat_texts(page: Page) -> list[str]:
    texts: list[str] = page.locator("#chat-lines .chat-text").all_text_contents()
    return texts


def say(page: Page, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")
    page.wait_for_function("(t) => [...document.querySelectorAll('#chat-lines .chat-text')]"
                           ".some((e) => e.textContent === t)", arg=text)


def seated(person: Person, table: str, token: str) -> Page:
    page = person.new_page()
    page.goto(person.base + "/static/favicon.svg")
    page.evaluate("([t, k]) => localStorage.setItem('cambio:token:' + t, k)", [table, token])
    page.goto(f"{person.base}/t/{table}")
    page.wait_for_selector(".cards-game[data-version]")
    if page.evaluate("() => !document.getElementById('chat').open"):
        page.click("#chat summary")
    return page


def test_report_mute_and_block_from_a_chat_line_and_the_profile(
        pair: tuple[Person, Person], people_server: tuple[Server, Database]) -> None:
    server, database = people_server
    ann, bo = pair
    made = ann.api("POST", "/api/tables", {"game": "cards", "players": 2, "name": "Ann"})
    joined = bo.api("POST", f"/api/tables/{made['table']}/join", {"name": "Bo"})
    table = made["table"]
    ann.page.evaluate("([t, k]) => fetch('/api/tables/' + t + '/start', {method: 'POST',"
                      " headers: {'Content-Type': 'application/json', Authorization: "
                      "'Bearer ' + k}, body: '{}'})", [table, made["token"]])
    at_ann, at_bo = seated(ann, table, made["token"]), seated(bo, table, joined["token"])
    say(at_bo, "you play like a potato")
    line = '#chat-lines li[data-seat="1"]'
    at_ann.wait_for_selector(line)
    assert at_ann.locator('#chat-lines li[data-seat="0"] .chat-more').count() == 0  # her own
    # Report from the line: a reason and a note; the server attaches the chat itself.
    at_ann.click(f"{line} .chat-more summary")
    at_ann.click(f'{line} button[data-act="report"]')
    at_ann.select_option("#report-reason", "abuse")
    at_ann.fill("#report-note", "rude")
    at_ann.click("#report-send")
    at_ann.wait_for_selector("#report-dialog", state="detached")
    [(reporter, reported, reason, note, where, evidence)] = reports(database)
    assert (reporter, reported, reason, note, where) == (
        ann.player["id"], bo.player["id"], "abuse", "rude", table)
    assert "you play like a potato" in json.loads(evidence)["chat"][0]["text"]
    # An operator warns him from the command line: his own profile says so.
    operator(database, "warn", bo.player["id"], "-r", "mind your words")
    own = bo.new_page()
    own.goto(server.base + bo.player["profile"])
    own.wait_for_selector("#standing li.warning")
    assert "mind your words" in own.inner_text("#standing")
    # Then mutes him for an hour: his profile says so, and the table refuses his lines
    # (an error, and the line never shows); lifted, he speaks again (below).
    operator(database, "mute", bo.player["id"], "-r", "insults", "--for", "1h")
    own.reload()
    own.wait_for_selector('#standing li.sanction[data-kind="mute"]')
    at_bo.fill("#chat-input", "muted words")
    at_bo.click("#chat-send")
    at_bo.wait_for_selector(".toast-error")
    operator(database, "unmute", bo.player["id"])
    # Mute from the line: his lines go, and what he says next never comes.
    at_ann.click(f"{line} .chat-more summary")
    at_ann.click(f'{line} button[data-act="mute"]')
    at_ann.wait_for_selector(line, state="detached")
    say(at_bo, "can you hear me")
    assert "muted words" not in chat_texts(at_bo)
    say(at_ann, "quiet now")       # after his line: had it come, it would be here by now
    assert chat_texts(at_ann) == ["quiet now"]
    # The mute is the server's: her profile of him says so, on a page opened afresh.
    profile = ann.profile_of(bo)
    assert profile.get_attribute("#social-mute", "data-on") == "1"
    toggled(profile, "#social-block", True)
    # Blocked: Bo cannot follow her.
    his = bo.profile_of(ann)
    his.click("#social-follow")
    his.wait_for_selector(".toast-error")
    assert his.get_attribute("#social-follow", "data-on") == "0"
    # Banned from the command line: his session ends, and his table page loses the seat
    # (the server closes it; the token it kept is refused and forgotten): a spectator now.
    operator(database, "ban", bo.player["id"], "-r", "abuse")
    at_bo.wait_for_selector('.cards-game[data-me=""]')
    assert at_bo.evaluate("(t) => localStorage.getItem('cambio:token:' + t)", table) is None
    assert bo.api("GET", "/api/me")["player"] is None


def test_play_now_never_seats_a_blocked_pair(pair: tuple[Person, Person]) -> None:
    """Bo blocks Ann from her profile; both then press Play now for the same game. Two
    people waiting for a two-player table are seated together at once (test_players.py);
    these two wait apart, and asking for bots seats each at a table of their own."""
    ann, bo = pair
    toggled(bo.profile_of(ann), "#social-block", True)
    for p in (ann, bo):
        p.lobby()
        p.page.select_option("#now-preset", "wikipedia")
        p.page.select_option("#now-players", "2")
    for p in (ann, bo):  # each page has polled: the matchmaker sees both from then on
        p.page.click("#play-now")
        p.page.wait_for_selector("#play-now-status:has-text('bots join')")
    for p in (ann, bo):
        p.page.click("#play-now-bots")
    for p in (ann, bo):
        p.page.wait_for_url("**/t/*")
    assert ann.page.url != bo.page.url


NOTIFICATIONS_JS = """() => navigator.serviceWorker.ready.then((r) => r.getNotifications())
  .then((ns) => ns.map((n) => ({title: n.title, body: n.body, tag: n.tag})))"""


def your_move(person: Person, table: str) -> bool | None:
    """What the player's lobby says of the table: their move (True), not (False), not
    listed yet (None)."""
    flag: str | None = person.page.evaluate(
        "(t) => { const row = document.querySelector(`#your-games li[data-table=\"${t}\"]`);"
        " return row ? row.dataset.yourMove : null; }", table)   # one look: the list redraws
    return None if flag is None else flag == "1"


def whose_move(people: list[Person], table: str) -> Person:
    """The one player whose lobby says it is their move (each lobby looks again at once, as
    on returning to its tab)."""
    page = people[0].page
    deadline = WAIT_MS / 1000
    waited = 0.0
    while waited < deadline:
        for p in people:  # a list drawn from an answer asked for now, not an older one
            looks = p.page.evaluate("() => Number(document.getElementById('your-games')"
                                    ".dataset.looks || 0)")
            p.look_again()
            p.page.wait_for_function("(n) => Number(document.getElementById('your-games')"
                                     ".dataset.looks || 0) > n", arg=looks)
        page.wait_for_timeout(200)
        waited += 0.2
        said = [your_move(p, table) for p in people]
        if sorted(said, key=str) == [False, True]:
            return people[said.index(True)]
    raise AssertionError(f"the lobbies never agreed on whose move it is: {said}")


def play_my_turn(page: Page) -> int:
    """Make this seat's moves through the page until the game waits for the other seat."""
    page.wait_for_selector('.table-root[data-conn="open"] .cards-game[data-version]')
    page.wait_for_function("() => { const r = document.querySelector('.cards-game');"
                           " return r && r.dataset.actor === r.dataset.me; }")
    moves = 0
    while seen(page).my_move:
        if step(page, swap=moves == 0):
            moves += 1
        assert moves < 10, "the turn does not pass"
    return moves


def test_a_correspondence_game_over_restarts_tells_whose_move_it_is(
        browser: Browser, social_server: Server) -> None:
    ann = Person(browser, social_server.base, "Ann")
    bo = Person(browser, social_server.base, "Bo")
    try:
        # Ann makes a correspondence table from the lobby's form.
        form = ann.new_page()
        form.goto(social_server.base + "/")
        form.select_option("#clock", str(DAY))
        form.select_option("#on-timeout", "bot")
        form.click("#create")
        form.wait_for_url("**/t/*")
        table = form.url.rsplit("/", 1)[1]
        at = {"Ann": form, "Bo": bo.new_page()}
        at["Bo"].goto(f"{social_server.base}/t/{table}")
        at["Bo"].click("#join")
        form.click("#start")
        for page in at.values():
            page.wait_for_selector(".cards-game[data-version]")
        for p in (ann, bo):  # the service worker is there before a notification is due
            p.page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        for restart in range(3):
            mover = whose_move([ann, bo], table)
            other = bo if mover is ann else ann
            assert mover.page.title().startswith("(1) ")
            assert not other.page.title().startswith("(")
            # The notification: to the player whose move it became, the table's name only.
            mover.page.wait_for_function(f"() => ({NOTIFICATIONS_JS})()"
                                         f".then((ns) => ns.some((n) => n.tag === 'turn-{table}'))")
            shown = mover.page.evaluate(NOTIFICATIONS_JS)
            assert {"title": "Cambio: your move", "body": "Your move at Ann's table",
                    "tag": f"turn-{table}"} in shown
            assert other.page.evaluate(NOTIFICATIONS_JS) == []
            for p in (ann, bo):  # closed: the next check needs a notification of its own
                p.page.evaluate("() => navigator.serviceWorker.ready.then((r) => "
                                "r.getNotifications()).then((ns) => ns.forEach((n) => n.close()))")
            assert play_my_turn(at[mover.player["name"]]) > 0
            # The server goes down and comes back: the game, and whose move, stay.
            social_server.kill()
            social_server.start()
            assert whose_move([ann, bo], table) is other, f"after restart {restart + 1}"
        # The one to move lets the days pass: the server comes back two days on (its clock
        # shifted, no waiting), the deadline has passed, and the seat's bot plays that
        # decision; a turn is a few decisions (draw, then the card), each with a day of its
        # own, so again two days on until the turn has passed.
        late = whose_move([ann, bo], table)
        row = f'#your-games li[data-table="{table}"] .deadline'
        assert "in 1 day" in late.page.inner_text(row) or "hours" in late.page.inner_text(row)
        waiting = bo if late is ann else ann
        start = social_server.cmd[:]
        for days in range(2, 12, 2):
            social_server.kill()
            social_server.cmd = [*start, "--time-offset", str(days * DAY)]
            social_server.start()
            if whose_move([ann, bo], table) is waiting:
                break
        else:
            raise AssertionError("the late seat's bot never finished its turn")
        waiting.page.wait_for_function(f"() => ({NOTIFICATIONS_JS})()"
                                       f".then((ns) => ns.some((n) => n.tag === 'turn-{table}'))")
    finally:
        ann.close()
        bo.close()


def test_an_unclaimed_player_at_play_now_is_offered_quick_phrases_only(
        browser: Browser, social_server: Server) -> None:
    ann = Person(browser, social_server.base, "Ann")
    try:
        page = ann.page
        page.click("#play-now")
        page.click("#play-now-bots")
        page.wait_for_url("**/t/*")
        page.wait_for_selector(".cards-game[data-version]")
        if page.evaluate("() => !document.getElementById('chat').open"):
            page.click("#chat summary")
        page.wait_for_selector(".chat-note:not([hidden])")
        assert "needs an account" in page.inner_text(".chat-note")
        assert not page.is_visible("#chat-input")
        assert page.is_visible('#chat button[data-emote="gg"]')
        # Claimed: free text again.
        r = ann.api("POST", "/api/me/claim", {"username": "ann_social",
                                              "password": "correct horse battery staple 1987"})
        assert r["player"]["claimed"], r
        page.reload()
        page.wait_for_selector("#chat-input", state="visible")
    finally:
        ann.close()
