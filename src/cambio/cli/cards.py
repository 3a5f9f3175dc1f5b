"""Card-game commands (``cambio sim cards``, ``cambio play cards``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from cambio.bots.cards import BOTS, check_bot_name
from cambio.cards import CambioError, Rules

from .parallel_options import RayOpt, WorkersOpt, where

PlayersOpt = Annotated[int, typer.Option("--players", "-p", help="Number of seats.")]
PresetOpt = Annotated[str, typer.Option(
    "--rules", "-r", help="Rule preset: rulebook, house or wikipedia.")]
RuleOpt = Annotated[list[str] | None, typer.Option(
    "--rule", help="Override one rule field, KEY=VALUE (repeatable), e.g. lock_caller=true.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", "-s", help="Seed of all randomness.")]


def rules_from_options(preset: str, overrides: list[str] | None) -> Rules:
    """A rule set from ``--rules`` and ``--rule KEY=VALUE`` options (typer errors if bad)."""
    values: dict[str, str] = {}
    for item in overrides or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise typer.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--rule")
        values[key.strip()] = value
    try:
        return Rules.preset(preset.strip().lower(), **values)
    except CambioError as exc:
        raise typer.BadParameter(str(exc), param_hint="--rules/--rule") from None


def bots_for_seats(spec: str, players: int) -> tuple[str, ...]:
    """``a,b,c`` names one bot per seat; a single name fills every seat (``players`` 0: the
    names as given)."""
    try:
        names = tuple(check_bot_name(n) for n in spec.split(",") if n.strip())
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--bots") from None
    if players == 0:
        return names
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise typer.BadParameter(f"{len(names)} bots named for {players} seats "
                                 "(name one bot, or one per seat)", param_hint="--bots")
    return names


def sim_cards(
    players: Annotated[int | None, typer.Option(
        "--players", "-p", help="Number of seats (default: one per bot named, or 4 for a "
        "single name).")] = None,
    preset: PresetOpt = "rulebook",
    rule: RuleOpt = None,
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help="Bot per seat, comma-separated (one name: every seat). "
        f"Bots: {', '.join(BOTS)}.")] = "random",
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Number of rounds.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the whole run.")] = 0,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object (the summary) instead of tables.")] = False,
    record: Annotated[Path | None, typer.Option(
        "--record", help="Write one full record per game into this folder.")] = None,
    no_progress: Annotated[bool, typer.Option(
        "--no-progress", help="No progress bar on stderr.")] = False,
    workers: WorkersOpt = 1,
    ray: RayOpt = None,
    engine: Annotated[str, typer.Option(
        "--engine", help="auto (the batch engine when every bot has a native version: "
        "random, memory/medium), batch (compiled, many games at once; same results), or "
        "python.")] = "auto",
) -> None:
    """Simulate card-game rounds between bots: progress bar, results table, or --json."""
    from cambio.sim.cards import SimConfig, choose_engine, simulate
    from cambio.sim.report import simulate_and_report

    rules = rules_from_options(preset, rule)
    if players is None:
        named = len([n for n in bots.split(",") if n.strip()])
        players = named if named > 1 else 4
    try:
        rules.check_players(players)
    except CambioError as exc:
        raise typer.BadParameter(str(exc), param_hint="--players") from None
    config = SimConfig(rules, players, bots_for_seats(bots, players), games, seed, record)
    try:
        chosen = choose_engine(config, engine.strip().lower())
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--engine") from None
    place = where(workers, ray)
    simulate_and_report(games=games, label=f"cards · {rules.preset_name} · {players} players",
                        progress=not no_progress, as_json=as_json,
                        simulate=lambda advance: simulate(config, advance, place, chosen),
                        show=print_summary)


def print_summary(summary: dict[str, Any], console: Console) -> None:
    from cambio.sim.cards import bot_rows, seat_rows
    from cambio.sim.report import rate_text, results_table

    s = summary
    rules = s["rules"]
    title = f"cards · {rules['preset']}"
    if rules["overrides"]:
        title += " + " + ", ".join(f"{k}={v}" for k, v in rules["overrides"].items())
    title += f" · {s['players']} players · {s['games']} games · seed {s['seed']}"
    console.print(results_table(
        title, ["seat", "bot", "wins", "tied", "win share (95%)", "mean score", "Cambio calls"],
        seat_rows(s)))
    if len(set(s["bots"])) > 1:
        console.print(results_table("by bot", ["bot", "seats", "wins", "tied", "win share (95%)",
                                               "mean score"], bot_rows(s)))
    reasons = ", ".join(f"{k} {v}" for k, v in s["end_reasons"].items())
    console.print(
        f"mean turns {s['mean_turns']:.1f} · mean actions {s['mean_actions']:.1f} · "
        f"{rate_text(s['games_per_second'])} games/s · ended by: {reasons}")
    console.print(f"[dim]{s['ties']} tied games: {s['ties_note']}. Dealer: {s['dealer']}.[/dim]")


def play_cards(
    players: PlayersOpt = 3,
    preset: PresetOpt = "rulebook",
    rule: RuleOpt = None,
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help=f"Bot for the other seats ({', '.join(BOTS)}), or one per seat "
        "comma-separated.")] = "memory",
    seed: SeedOpt = None,
    seat: Annotated[int, typer.Option("--seat", help="Your seat (0 plays first in round 1).")
                    ] = 0,
    assist: Annotated[bool, typer.Option(
        "--assist", help="Keep the cards you have seen face up on screen.")] = False,
    hint: Annotated[bool, typer.Option(
        "--hint", help="Before each decision, show the hard bot's suggestion and its "
        "estimated effect on your round score.")] = False,
    record: Annotated[Path | None, typer.Option(
        "--record", help="Write the full record of the game here (rounds 2+: FILE-r2 ...).")
                      ] = None,
) -> None:
    """Play Cambio (the card game) in the terminal against bots."""
    from cambio.terminal.cards import TerminalOptions, run_terminal

    rules = rules_from_options(preset, rule)
    if not 2 <= players <= 8:
        raise typer.BadParameter("the terminal game seats 2 to 8 players",
                                 param_hint="--players")
    try:
        rules.check_players(players)
    except CambioError as exc:
        raise typer.BadParameter(str(exc), param_hint="--players") from None
    if not 0 <= seat < players:
        raise typer.BadParameter(f"your seat must be 0 to {players - 1}", param_hint="--seat")
    names = bots_for_seats(bots, players - 1)
    options = TerminalOptions(rules=rules, players=players, seat=seat, bots=names, seed=seed,
                              assist=assist, hint=hint, record=record)
    code = run_terminal(options, sys.stdin, Console(highlight=False))
    raise typer.Exit(code)


def tournament_cards(
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help="Bots to play each other, comma-separated (at least two). "
        f"Bots: {', '.join(BOTS)}.")] = "random,memory",
    players: PlayersOpt = 2,
    preset: PresetOpt = "rulebook",
    rule: RuleOpt = None,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Number of rounds.")] = 600,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the whole run.")] = 0,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object (the summary) instead of tables.")] = False,
    plot_file: Annotated[Path | None, typer.Option(
        "--plot", help="Save a plot of the ratings and the pairwise table (PNG, SVG, ...).")
                         ] = None,
    no_progress: Annotated[bool, typer.Option(
        "--no-progress", help="No progress bar on stderr.")] = False,
    workers: WorkersOpt = 1,
    ray: RayOpt = None,
) -> None:
    """Round robin between card bots, seats rotated: pairwise win shares and ratings."""
    from cambio.sim import tournament as tour

    from .tournament import run_tournament

    rules = rules_from_options(preset, rule)
    names = tuple(dict.fromkeys(bots_for_seats(bots, 0)))
    try:
        config = tour.TournamentConfig(rules, players, names, games, seed)
    except (CambioError, ValueError) as exc:
        raise typer.BadParameter(str(exc), param_hint="--bots/--players") from None
    run_tournament(config, f"tournament · {rules.preset_name} · {players} players",
                   where(workers, ray), as_json=as_json, progress=not no_progress,
                   plot_file=plot_file)


def register(*, sim: typer.Typer, play: typer.Typer, tournament: typer.Typer) -> None:
    """Add the card game's commands to the command groups."""
    sim.command("cards")(sim_cards)
    play.command("cards")(play_cards)
    tournament.command("cards")(tournament_cards)
