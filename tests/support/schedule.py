"""The suite's tiers (markers by folder and fixture) and the order pytest-xdist hands tests out.

Why an order at all (``pytest --longest-first``, e.g. ``make unit WORKERS=4
SCHEDULE=--longest-first``): run on more xdist workers than the machine has cores (most
server, browser and cluster tests wait on processes and sockets), the suite's tests are
handed out in small units (:class:`Scheduling`: a measured test alone, a module's other tests
a few at a time, and the cluster groups below). A 100-second test handed out last would
run alone at the end while every other worker is idle; handed out first, it runs beside the
short ones (longest job first). The order inside
each group is still pytest-randomly's shuffle, so a test that depends on what ran before it
still shows up.

The cluster tests each run several server processes, Redis and bots: all of them at once on
four workers left a loaded machine unable to start a node within its minute. They are two
units, the twenty kills alone and the rest in sequence, so at most two run at a time (as when
``make unit`` ran two workers). (Not ``--dist loadgroup``: with pytest 9.2 and xdist 3.8 its
``xdist_group`` marks do nothing, as xdist renames ``item._nodeid``, which pytest no longer
reads.)

``MEASURED`` holds the seconds a test (one of its parameters, or the slowest of them) took in
a ``--durations`` run of the whole suite (``pytest -n 4 --longest-first``, 3 December 2026,
after issues 21-26 landed), halved: that run shared the machine at a load average of 10-17,
about twice a quiet machine's times. It is a guide to the order only: nothing asserts it.
Tests of 5 s or more are also marked ``slow``, so ``pytest -m "not slow"`` leaves them out.
Re-measure with ``pytest -n 4 --longest-first -p no:randomly --durations=100`` (``make unit``
prints the 20 slowest of every run) and update the table when a test becomes slow or stops
being so (docs/testing.md, "Tiers and times").
"""

from __future__ import annotations

from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

SLOW_SECONDS = 5.0

MEASURED: dict[str, float] = {
    # Measured alone (114 s at a load of 10), halved like the rest.
    "tests/packaging/test_wheel.py::"
    "test_the_sdist_and_both_wheels_install_without_a_compiler_and_run": 57,
    "tests/cluster/test_failover.py::test_twenty_kill_9s": 72,
    "tests/board/test_native_search.py::test_fixed_depth_values_equal_the_python_search": 38,
    "tests/envs/test_exploit.py::test_best_response_learns_to_beat_random_and_reports_json": 28,
    "tests/cards/test_sim.py::test_cli_json_contract_and_determinism": 28,
    "tests/test_pinned_pairs.py::test_alphabeta_and_native_play_as_before": 18,
    "tests/cluster/test_workers.py::test_the_front_killed": 20,
    "tests/web/test_fit.py::test_every_decision_fits_the_screen": 18,
    "tests/cluster/test_failover.py::test_postgres_down_and_back": 21,
    "tests/cluster/test_faults.py::"
    "test_redis_restart_then_postgres_outage_leaves_every_table_served": 23,
    "tests/web/test_offline.py::test_a_solo_round_with_no_network_and_no_server": 14,
    "tests/cluster/test_failover.py::test_redis_restarted_mid_game": 12,
    # (measured alone on a loaded machine, 5 December 2026, halved)
    "tests/cluster/test_booking.py::test_a_process_dying_at_a_games_end_leaves_it_booked_once":
        15,
    "tests/web/test_reconnect.py::"
    "test_the_page_reconnects_after_a_crash_and_a_match_runs_to_its_totals": 11,
    "tests/cluster/test_faults.py::"
    "test_a_passed_on_call_reaches_the_owner_whatever_connection_it_takes": 15,
    "tests/web/test_cards_game.py::test_two_players_play_a_card_round_in_their_browsers": 10,
    "tests/web/test_match_flow.py::test_match_over_screen_then_a_rematch_keeps_the_history": 15,
    "tests/cluster/test_workers.py::test_two_workers_one_port": 23,
    "tests/cards/test_record_fuzz.py::test_mutated_records_exit_0_or_2_never_a_traceback": 18,
    "tests/server/test_storage.py::test_a_second_server_on_the_same_database_is_refused": 9,
    "tests/envs/test_outside_bots.py::test_outside_bot_same_results_in_process_workers_and_ray": 8,
    "tests/web/test_players.py::test_closing_the_page_leaves_the_queue": 8,
    "tests/cards/test_bots.py::test_memory_bots_do_not_gang_up_on_a_seat": 8,
    "tests/web/test_long_names.py::test_forty_character_names_never_widen_a_phone_page": 7,
    "tests/server/test_hardening.py::"
    "test_a_database_outage_answers_unavailable_with_retry_after": 7,
    "tests/server/test_match.py::test_match_result_history_and_restart": 7,
    "tests/cluster/test_failover.py::test_sigterm_hands_tables_over": 7,
    "tests/web/test_tutorial.py::test_learn_to_play_guides_a_fixed_round_to_its_end": 18,
    "tests/web/test_turn_clock.py::test_the_clock_runs_out_a_bot_plays_then_i_am_back": 6,
    "tests/web/test_offline.py::test_the_static_build_plays_a_solo_round": 6,
    "tests/server/test_chat.py::test_chat_reaches_who_may_read_it_and_survives_a_restart": 6,
    "tests/cards/test_deep.py::test_hard_plays_legal_rounds": 6,
    "tests/server/test_slowloris.py::"
    "test_half_open_requests_from_one_address_do_not_take_the_server_down": 6,
    "tests/server/test_hardening.py::test_text_that_is_not_utf8_sets_only_its_table_aside": 6,
    "tests/web/test_lobby_features.py::test_rules_in_words_named_private_tables_and_quick_play": 6,
    "tests/server/players/test_server.py::test_history_and_ratings_survive_restarts": 5,
    "tests/web/test_hints.py::test_assist_mode_offers_a_hint_against_the_hard_bot": 5,
    "tests/server/test_restart.py::test_sigkill_mid_game_then_every_table_resumes": 5,
    "tests/web/test_players.py::"
    "test_a_claimed_player_signs_in_elsewhere_and_sees_the_same_history": 5,
    "tests/web/test_reconnect_words.py::test_the_badge_says_why_and_when_it_retries": 5,
    "tests/cards/test_events.py::"
    "test_records_observations_from_events_are_those_of_comparing_states": 5,
    "tests/cards/test_batch.py::"
    "test_thousands_of_seeded_games_per_preset_match_the_compiled_engine": 5,
    "tests/sim/test_parallel.py::test_ray_gives_the_same_summaries_and_cli_json": 28,
    # (measured alone on a loaded machine, 5 December 2026, halved)
    "tests/sim/test_parallel.py::test_a_local_ray_listens_on_loopback_only": 27,
    "tests/server/players/test_hostile.py::test_deleting_a_player_removes_them": 5,
    "tests/server/players/test_hostile.py::test_guessing_names_and_passwords_is_rate_limited": 5,
    "tests/cards/test_deep.py::"
    "test_a_margin_per_test_overrules_the_prior_only_where_the_plain_margin_does": 5,
    "tests/web/test_long_names_views.py::test_spectator_and_replay_with_long_names_fit_a_phone": 5,
    "tests/web/test_keyboard.py::test_a_whole_round_by_keyboard_with_a_snap": 5,
    "tests/web/test_players.py::"
    "test_a_new_visitor_plays_a_rated_game_and_finds_it_on_their_profile": 4,
    "tests/server/test_third_game.py::test_a_server_without_the_game_sets_its_tables_aside": 4,
    "tests/server/test_storage.py::test_a_failing_write_halts_the_table_visibly_once": 4,
    "tests/web/test_wording.py::test_a_real_log_names_your_bot_and_no_self_snap_twice": 4,
    "tests/cards/test_sim.py::test_cli_table_names_seats_bots_and_the_dealer_rotation": 4,
    "tests/web/test_phone.py::test_lobby_and_a_card_table_are_usable_on_a_phone": 4,
    "tests/server/test_third_game.py::test_a_player_and_a_bot_play_on_across_a_kill": 4,
    "tests/server/test_listing.py::test_an_expired_waiting_table_leaves_the_lobby": 4,
    "tests/server/test_hostile.py::"
    "test_stale_actions_and_lost_snaps_do_not_close_the_connection": 4,
    "tests/web/test_board_game.py::"
    "test_a_board_game_against_a_bot_from_the_full_setup_to_the_end": 4,
    # Added with their own run (5 December, load 21), halved as above.
    "tests/server/players/test_sign_in_flood.py::"
    "test_a_sign_in_flood_is_refused_past_the_budget_and_a_person_gets_in": 15,
    "tests/server/test_kernels.py::"
    "test_tables_play_while_the_kernels_load_and_the_lobby_answers": 10,
    # (measured alone at a load of 8, 5 December 2026, halved)
    "tests/web/test_social.py::"
    "test_a_correspondence_game_over_restarts_tells_whose_move_it_is": 24,
    "tests/cluster/test_failover.py::test_a_correspondence_deadline_outlives_its_owner": 8,
    "tests/web/test_social.py::test_report_mute_and_block_from_a_chat_line_and_the_profile": 7,
    # CI's clean-clone run of 5 December (2,228 tests, 4 workers on 2 cores), halved: the
    # tests among its 20 slowest that were missing above (those measured shorter above were
    # raised to CI's figure, halved).
    "tests/web/test_review_pages.py::test_daily_deal_and_its_reviews": 20,
    "tests/web/test_languages.py::test_a_reader_of_another_language_sees_no_english": 19,
}

FOLDERS = {"tests/web/": "browser", "tests/cluster/": "cluster"}
"""The tiers given by folder; the markers are registered in pyproject.toml."""


def measured_id(nodeid: str) -> float:
    """The measured seconds of the test ``nodeid``: its own entry, else its function's (any
    of its parameters), else 0."""
    found = MEASURED.get(nodeid)
    return MEASURED.get(nodeid.split("[", 1)[0], 0.0) if found is None else found


def measured(item: pytest.Item) -> float:
    """The measured seconds of ``item`` (:func:`measured_id`)."""
    return measured_id(item.nodeid)


def uses_postgres(item: pytest.Item) -> bool:
    """A test on the PostgreSQL store: it takes the ``postgres`` fixture, or it is a server
    test whose store parameter (tests/server/conftest.py) is ``postgres``."""
    if "postgres" in getattr(item, "fixturenames", ()):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and callspec.params.get("backend") == "postgres"


ALONE = "tests/cluster/test_failover.py::test_twenty_kill_9s"
"""The one cluster test in a unit of its own (the longest test of the suite)."""


def unit(nodeid: str) -> str:
    """The unit of work a test is handed out in: the twenty kills, the other cluster tests
    together, a measured test alone (so the long ones spread over the workers), and the
    rest of a module together (cut into :data:`CHUNK`-test pieces by :func:`units`).

    Why modules: a module's fixtures (its server; chromium and Playwright in every browser
    module) are set up again whenever a worker's next test is in another module. Handed out
    one test at a time, a module's tests were spread over every worker, between other
    modules' tests (docs/testing.md, "Units of a module")."""
    if nodeid == ALONE:
        return "cluster-kills"
    if nodeid.startswith("tests/cluster/"):
        return "cluster"
    return nodeid if measured_id(nodeid) else nodeid.split("::", 1)[0]


CHUNK = 8
"""The most tests of a module handed out together: enough that a module's fixtures serve
several tests, few enough that a module of many slow tests handed out last does not run
alone at the end."""


def units(nodeids: list[str]) -> dict[str, str]:
    """Each test's unit (:func:`unit`), a module's tests cut into pieces of :data:`CHUNK`
    consecutive tests in ``nodeids``' order."""
    seen: dict[str, int] = {}
    out = {}
    for nodeid in nodeids:
        key = unit(nodeid)
        if key == nodeid.split("::", 1)[0]:  # a module's unmeasured tests
            n = seen[key] = seen.get(key, -1) + 1
            key = f"{key}#{n // CHUNK}"
        out[nodeid] = key
    return out


class Scheduling(LoadScopeScheduling):  # type: ignore[misc]
    """xdist's ``loadscope`` with :func:`units` as the scopes. A worker gets its next unit
    when it has two tests or fewer left; the units go out in collection order, which
    :func:`longest_first` made (xdist's own reordering, by number of tests, is turned
    off)."""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        super().__init__(config, log)
        config.option.loadscopereorder = False
        self._units: dict[str, str] = {}

    def schedule(self) -> None:
        if self.collection is None and self.registered_collections:
            # Every worker collected the same tests in the same order (xdist checks).
            self._units = units(list(next(iter(self.registered_collections.values()))))
        super().schedule()

    def _split_scope(self, nodeid: str) -> str:
        return self._units.get(nodeid) or unit(nodeid)


def mark(item: pytest.Item) -> None:
    for folder, marker in FOLDERS.items():
        if item.nodeid.startswith(folder):
            item.add_marker(marker)
    if uses_postgres(item):
        item.add_marker("postgres")
    if measured(item) >= SLOW_SECONDS:
        item.add_marker("slow")


def longest_first(items: list[pytest.Item]) -> None:
    """Sort in place: each unit's tests together (:func:`unit`), the units by their measured
    seconds in all, longest first. A stable sort, so the tests of a unit, and the units
    nothing in the table measures (almost all), keep pytest-randomly's order."""
    seconds: dict[str, float] = {}
    for item in items:
        key = unit(item.nodeid)
        seconds[key] = seconds.get(key, 0.0) + measured(item)
    first = {unit(item.nodeid): i for i, item in reversed(list(enumerate(items)))}
    items.sort(key=lambda item: (-seconds[unit(item.nodeid)], first[unit(item.nodeid)]))
