"""One card bot against every member of a panel of opponents, at 2 and 4 players.

A bot measured against ``memory`` alone is measured against the policy ``hard``'s own
rollouts play: strength that holds against opponents it does not model has to be measured
against several. The panel (``PANEL``) holds every fair bot the project has -- ``random``,
``easy``, ``memory``, ``memory`` with the CMA-ES-tuned weights (``tuned``), ``expert``,
``search`` -- and the public-view styles ``rusher`` and ``snapper``
(:mod:`cambio.bots.cards.styles`), which share no code with the others. Each pairing is
``benchmarks/cards_strength.py``'s (the same deals, every rotation of the seats, ties 1/k,
95% intervals over deals): heads-up, and the bot against three copies of the member.

    .venv/bin/python benchmarks/cards_panel.py --bot hard --rules rulebook --games 2000 \
        --workers 2 --json > panel.json --plot docs/img/cards-panel-hard.png
    .venv/bin/python benchmarks/cards_panel.py --bot memory --panel memory,rusher --games 40
    # how a long panel stands, its journals read while it plays (or after it was stopped):
    .venv/bin/python benchmarks/cards_panel.py --bot hard --games 2000 --journal-dir J --report

``--games`` is the rounds per pairing and table size (deals x players); the equal share is
1/2 heads-up and 1/4 at four players. ``--exploit`` adds the best response to the bot
(``exploit:BOT``, what ``cambio exploit`` plays) to the heads-up panel, and its row shows the
bot's exploitability: what the response wins above one half, with its 95% interval.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from cambio.shares import share_interval
from cards_strength import finished_deals, play_journaled

PANEL = ("random", "easy", "memory", "tuned", "expert", "search", "learned", "rusher",
         "snapper", "pimc", "modeller")
"""The opponents every strong bot is measured against (``tuned`` is
``cards_strength.py``'s ``memory`` with ``memory.TUNED``; ``pimc`` and ``modeller`` search
unlike the shipped bots, :mod:`cambio.bots.cards.pimc`)."""


def pairing(bot: str, member: str, players: int, rules: str, games: int, seed: int,
            workers: int, journal_dir: Path | None = None,
            report: bool = False) -> dict[str, Any] | None:
    """One pairing, resumable: with ``journal_dir`` its finished deals are kept in
    ``cards_strength.py``'s journal, so an interrupted panel of hours starts where it
    stopped. ``report``: play nothing, only read the journal (None when it holds no deal)."""
    deals = max(1, games // players)
    path = None
    if journal_dir is not None:
        journal_dir.mkdir(parents=True, exist_ok=True)
        path = journal_dir / f"{bot}-{member}-{rules}-{players}p-{seed}.jsonl"
    if report:
        if path is None:
            raise ValueError("a report reads the journals: give journal_dir")
        results = finished_deals(bot, member, players, rules, seed, deals, path)
        if not results:
            return None
    else:
        results = play_journaled(bot, member, players, rules, seed, deals, workers, path)
    share, low, high = share_interval([r[0] for r in results])
    row = {"bot": bot, "member": member, "players": players, "rules": rules,
           "rounds": len(results) * players, "of": deals * players, "win_share": share,
           "low": low, "high": high}
    if member == best_response(bot) and players == 2:
        # What the best response wins above the equal share is what the bot gives away.
        row.update(exploitability=0.5 - share, exploitability_low=0.5 - high,
                   exploitability_high=0.5 - low)
    return row


def best_response(bot: str) -> str:
    """The panel member that is a best response to ``bot`` (``cambio exploit``'s player)."""
    return f"exploit:{bot}"


def exploitability_text(row: dict[str, Any]) -> str:
    """``+4.3% (+1.0% to +7.5%)`` for a best response's row, else ``""``."""
    if "exploitability" not in row:
        return ""
    return (f"{row['exploitability']:+.1%} ({row['exploitability_low']:+.1%} to "
            f"{row['exploitability_high']:+.1%})")


def plot(rows: list[dict[str, Any]], title: str, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = sorted({r["players"] for r in rows})
    fig, axes = plt.subplots(1, len(sizes), figsize=(5 * len(sizes), 3.6), squeeze=False)
    for ax, players in zip(axes[0], sizes, strict=True):
        sub = [r for r in rows if r["players"] == players]
        xs = range(len(sub))
        ax.bar(xs, [r["win_share"] for r in sub], color="tab:blue",
               yerr=[[r["win_share"] - r["low"] for r in sub],
                     [r["high"] - r["win_share"] for r in sub]], capsize=3)
        ax.axhline(1.0 / players, color="grey", linestyle="--", label=f"equal share 1/{players}")
        ax.set_xticks(list(xs), [_label(r) for r in sub], rotation=40, fontsize=8)
        ax.set_ylim(0, 1)
        ax.set_title(f"{players} players", fontsize=9)
        ax.legend(fontsize=7)
    axes[0][0].set_ylabel("win share (95% interval)")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def _label(row: dict[str, Any]) -> str:
    """A bar's name: the member, its rounds if unfinished, a best response's
    exploitability."""
    label = row["member"]
    if row["rounds"] != row["of"]:
        label += f"\n({row['rounds']} rounds)"
    if "exploitability" in row:
        label += f"\nexploitability {row['exploitability']:+.1%}"
    return label


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--panel", default=",".join(PANEL),
                        help="comma-separated opponents (default: the whole panel)")
    parser.add_argument("--players", default="2,4", help="table sizes, comma-separated")
    parser.add_argument("--rules", default="rulebook")
    parser.add_argument("--games", type=int, default=400, help="rounds per pairing and size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--plot", help="write a bar chart of the table to this PNG")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--journal-dir", type=Path,
                        help="keep each pairing's finished deals here and resume from them")
    parser.add_argument("--exploit", action="store_true",
                        help="also play the best response to the bot (exploit:BOT, heads-up "
                             "only) and report the bot's exploitability: the response's "
                             "share above one half, with its interval")
    parser.add_argument("--report", action="store_true",
                        help="play nothing: the table (and plot) of the deals the journals "
                             "hold so far; a pairing not finished shows its rounds")
    a = parser.parse_args()
    if a.report and a.journal_dir is None:
        parser.error("--report reads --journal-dir")
    members = [m.strip() for m in a.panel.split(",") if m.strip()]
    sizes = [int(p) for p in a.players.split(",")]
    rows = []
    for players in sizes:
        table_members = list(members)
        if a.exploit and players == 2 and best_response(a.bot) not in members:
            table_members.append(best_response(a.bot))
        for member in table_members:
            row = pairing(a.bot, member, players, a.rules, a.games, a.seed, a.workers,
                          a.journal_dir, report=a.report)
            if row is not None:
                rows.append(row)
    if a.plot:
        plot(rows, f"{a.bot} against the panel, {a.rules}", a.plot)
    if a.json:
        print(json.dumps({"bot": a.bot, "rules": a.rules, "seed": a.seed, "rows": rows}))
        return
    table = Table(title=f"{a.bot} against the panel · {a.rules} · seed {a.seed}")
    for col in ("opponent", "players", "rounds", "win share", "95% interval",
                "exploitability (95%)"):
        table.add_column(col)
    for r in rows:
        rounds = str(r["rounds"]) if r["rounds"] == r["of"] else f"{r['rounds']} of {r['of']}"
        table.add_row(r["member"], str(r["players"]), rounds, f"{r['win_share']:.1%}",
                      f"{r['low']:.1%}–{r['high']:.1%}", exploitability_text(r))
    Console().print(table)


if __name__ == "__main__":
    main()
