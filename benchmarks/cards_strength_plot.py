"""Plot the win shares of ``benchmarks/cards_strength.py --json`` runs, with their intervals.

    .venv/bin/python benchmarks/cards_strength_plot.py run1.json run2.json ... \
        --out docs/img/cards-strength-hard.png --title "hard against memory"

Each file holds one JSON line (the benchmark's output); each becomes one bar labelled
``first vs other, rules, players``, with its 95% interval and the issue's target if given.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--title", default="win share of the first bot")
    parser.add_argument("--target", type=float, action="append", default=[],
                        help="a horizontal line at this win share (repeatable)")
    a = parser.parse_args()
    rows = [json.loads(p.read_text().strip().splitlines()[-1]) for p in a.runs]
    labels = [f"{r['bots'][0]} vs {r['bots'][1]}\n{r['rules']}, {r['players']}p, "
              f"{r['rounds']:,} rounds" for r in rows]
    mean = [100 * r["win_share"] for r in rows]
    low = [m - 100 * r["low"] for m, r in zip(mean, rows, strict=True)]
    high = [100 * r["high"] - m for m, r in zip(mean, rows, strict=True)]
    fig, ax = plt.subplots(figsize=(1.8 + 1.6 * len(rows), 4.2))
    ax.bar(range(len(rows)), mean, yerr=[low, high], capsize=5, color="#4878a8")
    for t in a.target:
        ax.axhline(100 * t, color="#c04040", linestyle="--", linewidth=1)
    for i, (m, h) in enumerate(zip(mean, high, strict=True)):
        ax.text(i, m + h + 1, f"{m:.1f}%", ha="center", va="bottom", fontsize=9)
    ax.set_xticks(range(len(rows)), labels, fontsize=8)
    ax.set_ylabel("win share (%), 95% interval")
    ax.set_ylim(0, 100)
    ax.set_title(a.title)
    fig.tight_layout()
    a.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(a.out, dpi=110)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
