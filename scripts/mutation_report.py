"""The mutation score of the rules cores, per module, from the results `make mutation` left in
mutants/ (docs/testing.md).

Killed and timed-out mutants count as caught; survivors and mutants no selected test reaches
("no tests") count as missed; mutants not yet run are shown apart and not scored. Every
survivor should be listed in docs/testing.md with the reason it is equivalent: the report
names those that are not.

    .venv/bin/python scripts/mutation_report.py [--survivors]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
DOCS = ROOT / "docs" / "testing.md"
CAUGHT = {"killed", "timeout", "caught by type check", "segfault"}
MISSED = {"survived", "no tests", "suspicious"}


def results() -> dict[str, dict[str, str]]:
    """``{module: {mutant name: status}}`` for every mutated module of the cores."""
    out: dict[str, dict[str, str]] = {}
    for meta in sorted(MUTANTS.glob("src/cambio/**/*.py.meta")):
        data = json.loads(meta.read_text())
        module = ".".join(meta.relative_to(MUTANTS / "src").with_suffix("").with_suffix("")
                          .parts)
        codes = data.get("exit_code_by_key", {})
        if codes:
            out[module] = {name: status_by_exit_code[code] for name, code in codes.items()}
    return out


def documented() -> set[str]:
    """Mutant names listed in docs/testing.md (as `name`)."""
    if not DOCS.exists():
        return set()
    return set(re.findall(r"`(cambio\.[\w.]+__mutmut_\d+)`", DOCS.read_text()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--survivors", action="store_true", help="list every survivor")
    args = parser.parse_args()
    by_module = results()
    if not by_module:
        print("no results in mutants/: run `make mutation` first", file=sys.stderr)
        return 1
    console = Console(width=110)
    table = Table(title="Mutation score of the rules cores")
    for col in ("module", "mutants", "killed", "timeout", "survived", "no tests",
                "not run", "score"):
        table.add_column(col, justify="left" if col == "module" else "right")
    total: Counter[str] = Counter()
    survivors: list[str] = []
    for module, statuses in by_module.items():
        counts = Counter(statuses.values())
        total.update(counts)
        survivors += [n for n, s in statuses.items() if s in MISSED]
        table.add_row(module, *row(counts))
    table.add_row("all", *row(total), style="bold")
    console.print(table)
    known = documented()
    undocumented = [n for n in survivors if n not in known]
    print(f"{len(survivors)} survivors, {len(survivors) - len(undocumented)} of them "
          f"explained in docs/testing.md")
    shown = survivors if args.survivors else undocumented
    for name in shown:
        print(f"  {name}{'' if name in known else '  (not in docs/testing.md)'}")
    if shown:
        print("see one with: .venv/bin/mutmut show NAME")
    return 0


def row(counts: Counter[str]) -> list[str]:
    caught = sum(counts[s] for s in CAUGHT)
    missed = sum(counts[s] for s in MISSED)
    scored = caught + missed
    score = f"{100 * caught / scored:.1f}%" if scored else "-"
    return [str(sum(counts.values())), str(counts["killed"] + counts["caught by type check"]),
            str(counts["timeout"] + counts["segfault"]), str(counts["survived"]
                                                               + counts["suspicious"]),
            str(counts["no tests"]), str(counts["not checked"] + counts["skipped"]), score]


if __name__ == "__main__":
    sys.exit(main())
