"""The suite's tiers (markers by folder and fixture) and the order pytest-xdist hands tests out.

Why an order at all (``pytest --longest-first``, e.g. ``make unit WORKERS=4
SCHEDULE=--longest-first``): run on more xdist workers than the machine has cores (most
server, browser and cluster tests wait on processes and sockets), the suite's tests are
handed out one at a time (:class:`Scheduling`: each test is its own unit but for the groups below).
A 100-second test handed out last would run alone at the end while every other worker is
idle; handed out first, it runs beside the short ones (longest job first). The order inside
each group is still pytest-randomly's shuffle, so a test that depends on what ran before it
still shows up.

The cluster tests each run several server processes, Redis and bots: all of them at once on
four workers left a loaded machine unable to start a node within its minute. They are two
units, the twenty kills alone and the rest in sequence, so at most two run at a time (as when
``make unit`` ran two workers). (Not ``--dist loadgroup``: with pytest 9.2 and xdist 3.8 its
``xdist_group`` marks do nothing, as xdist renames ``item._nodeid``, which pytest no longer
reads.)

``MEASURED`` holds the seconds a test (one of its parameters, or the slowest of them) took in
a ``--durations`` run of the whole suite on a clean clone (numba compiling into an empty
cache), so it is a guide to the order only: nothing asserts it. Tests of 5 s or more are also
marked ``slow``, so ``pytest -m "not slow"`` leaves them out. Re-measure with
``pytest -n 4 --longest-first -p no:randomly --durations=80`` and update the table when a
test becomes slow or stops being so (docs/testing.md, "Tiers and times").
"""

from __future__ import annotations

import pytest
from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

SLOW_SECONDS = 5.0

MEASURED: dict[str, float] = {
    "tests/cluster/test_failover.py::test_twenty_kill_9s": 104,
    "tests/cluster/test_players.py::test_players_queueing_on_different_processes_are_paired": 27,
    "tests/server/players/test_server.py::test_two_players_are_paired_and_both_rated": 9,
    "tests/server/players/test_server.py::test_history_and_ratings_survive_restarts": 7,
    "tests/server/players/test_upgrade.py::test_a_database_of_main_upgrades_in_place": 7,
    "tests/web/test_players.py::"
    "test_a_new_visitor_plays_a_rated_game_and_finds_it_on_their_profile": 7,
    "tests/web/test_players.py::"
    "test_a_claimed_player_signs_in_elsewhere_and_sees_the_same_history": 7,
    "tests/server/players/test_hostile.py::"
    "test_secrets_appear_in_no_response_log_or_record": 5,
    "tests/server/players/test_server.py::test_leaving_a_rated_game_is_a_loss": 5,
    "tests/web/test_players.py::test_closing_the_page_leaves_the_queue": 14,
    "tests/cards/test_batch.py::test_uniform_play_is_seeded_and_ends_every_round": 46,
    "tests/envs/test_codec.py::test_docstring_examples[cards_vector]": 29,
    "tests/cards/test_sim.py::test_cli_rejects_bad_options_without_traceback": 28,
    "tests/cluster/test_failover.py::test_redis_restarted_mid_game": 26,
    "tests/board/test_native_search.py::test_fixed_depth_values_equal_the_python_search": 21,
    "tests/web/test_match_flow.py::test_match_over_screen_then_a_rematch_keeps_the_history": 18,
    "tests/cluster/test_workers.py::test_the_front_killed": 18,
    "tests/cluster/test_failover.py::test_postgres_down_and_back": 17,
    "tests/cluster/test_failover.py::test_sigterm_hands_tables_over": 16,
    "tests/cards/test_sim.py::test_records_replay_and_match_the_summary": 15,
    "tests/web/test_reconnect.py::"
    "test_the_page_reconnects_after_a_crash_and_a_match_runs_to_its_totals": 14,
    "tests/web/test_long_names.py::test_forty_character_names_never_widen_a_phone_page": 14,
    "tests/web/test_cards_game.py::test_two_players_play_a_card_round_in_their_browsers": 14,
    "tests/cluster/test_workers.py::test_two_workers_one_port": 14,
    "tests/cards/test_record_fuzz.py::test_mutated_records_exit_0_or_2_never_a_traceback": 13,
    "tests/web/test_turn_clock.py::test_the_clock_runs_out_a_bot_plays_then_i_am_back": 12,
    "tests/server/test_storage.py::test_a_second_server_on_the_same_database_is_refused": 12,
    "tests/server/test_chat.py::test_chat_reaches_who_may_read_it_and_survives_a_restart": 10,
    "tests/cards/test_tournament.py::test_cli_json_is_reproducible_and_plots": 10,
    "tests/cards/test_sim.py::test_cli_json_contract_and_determinism": 10,
    "tests/server/test_restart.py::test_sigkill_mid_game_then_every_table_resumes": 9,
    "tests/cards/test_terminal.py::test_the_same_answers_through_a_real_pipe_give_the_same_game": 9,
    "tests/web/test_spectator.py::"
    "test_a_spectator_never_sees_a_card_the_public_view_does_not_hold": 8,
    "tests/web/test_long_names_views.py::test_spectator_and_replay_with_long_names_fit_a_phone": 8,
    "tests/cards/test_tournament.py::test_cli_rejects_bad_bots_without_traceback": 8,
    "tests/sim/test_parallel.py::test_cli_workers_flag_gives_the_same_json": 7,
    "tests/server/test_hostile.py::"
    "test_stale_actions_and_lost_snaps_do_not_close_the_connection": 7,
    "tests/cards/test_sim.py::test_rule_overrides_reach_the_games": 7,
    "tests/web/test_sound.py::test_sound_is_off_by_default_then_plays_its_cues": 6,
    "tests/web/test_chat.py::test_a_chat_message_reaches_the_other_seat_and_renders_as_text": 6,
    "tests/sim/test_parallel.py::test_ray_gives_the_same_summaries_and_cli_json": 6,
    "tests/server/test_hostile.py::test_a_long_round_flood_ends_at_the_turn_cap": 6,
    "tests/server/test_clock.py::test_idle_player_times_out_bot_plays_then_away_then_back": 6,
    "tests/cards/test_sim.py::test_cli_table_names_seats_bots_and_the_dealer_rotation": 6,
    "tests/cards/test_records.py::test_cli_replay_json_and_errors": 6,
    "tests/cards/test_batch.py::"
    "test_thousands_of_seeded_games_per_preset_match_the_compiled_engine": 6,
    "tests/web/test_phone.py::test_lobby_and_a_card_table_are_usable_on_a_phone": 5,
    "tests/web/test_lobby_features.py::test_rules_in_words_named_private_tables_and_quick_play": 5,
    "tests/server/test_storage.py::"
    "test_damaged_rows_set_their_table_aside_and_the_rest_are_served": 5,
    "tests/server/test_bad_input.py::test_seat_tokens_never_reach_the_log": 5,
    "tests/cards/test_batch.py::test_sim_gives_the_same_summary_on_both_engines": 5,
    "tests/web/test_motion.py::test_cards_travel_and_show_no_hidden_face": 4,
    "tests/web/test_board_game.py::"
    "test_a_board_game_against_a_bot_from_the_full_setup_to_the_end": 4,
    "tests/server/test_storage.py::test_a_failing_write_halts_the_table_visibly_once": 4,
    "tests/server/test_storage.py::test_a_failing_write_between_rounds_halts_the_table_too": 4,
    "tests/server/test_match.py::test_match_result_history_and_restart": 4,
    "tests/envs/test_openspiel.py::test_cards_chance_covers_deal_draws_reshuffles_and_polls": 4,
    "tests/cards/test_bots.py::test_memory_bots_do_not_gang_up_on_a_seat": 4,
}

FOLDERS = {"tests/web/": "browser", "tests/cluster/": "cluster"}
"""The tiers given by folder; the markers are registered in pyproject.toml."""


def measured(item: pytest.Item) -> float:
    """The measured seconds of ``item``: its own entry, else its function's (any of its
    parameters), else 0."""
    found = MEASURED.get(item.nodeid)
    return MEASURED.get(item.nodeid.split("[", 1)[0], 0.0) if found is None else found


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
    together, or the test alone."""
    if nodeid == ALONE:
        return "cluster-kills"
    return "cluster" if nodeid.startswith("tests/cluster/") else nodeid


class Scheduling(LoadScopeScheduling):  # type: ignore[misc]
    """xdist's ``loadscope`` with :func:`unit` as the scope. A worker gets its next unit when
    it has two tests or fewer left; the largest unit (the cluster tests) goes first, then
    the others in collection order, which :func:`longest_first` made."""

    def _split_scope(self, nodeid: str) -> str:
        return unit(nodeid)


def mark(item: pytest.Item) -> None:
    for folder, marker in FOLDERS.items():
        if item.nodeid.startswith(folder):
            item.add_marker(marker)
    if uses_postgres(item):
        item.add_marker("postgres")
    if measured(item) >= SLOW_SECONDS:
        item.add_marker("slow")


def longest_first(items: list[pytest.Item]) -> None:
    """Sort in place by measured time, longest first; a stable sort, so the tests outside the
    table (almost all) keep pytest-randomly's order, after the measured ones."""
    items.sort(key=lambda item: -measured(item))
