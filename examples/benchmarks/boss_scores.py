# SPDX-License-Identifier: BSD-3-Clause
"""BOSS's default score on dense Gaussian graphs: EBIC against BIC with a penalty discount.

Erdos-Renyi and scale-free DAGs of ``--p`` variables at average degree ``--degrees``, a
linear-Gaussian SEM on each, ``--n`` rows (standardised), several seeds; ``BOSS`` with each
candidate score (its default ``GaussianEBIC(gamma=1)`` among them), one start, seeded. Rows
are appended as they finish; ``--report`` writes the page.

Usage::

    python -m examples.benchmarks.boss_scores
    python -m examples.benchmarks.boss_scores --report
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from examples.benchmarks._common import run_with_limit
from examples.benchmarks._results import result_path, write_manifest
from examples.benchmarks.boss import _gaussian
from skbn.learners import BOSS
from skbn.metrics import f1_adjacency, f1_arrowhead, shd
from skbn.scores import GaussianBIC, GaussianEBIC

SCORES = {
    "ebic-1 (default)": lambda: GaussianEBIC(gamma=1.0),
    "ebic-0.5": lambda: GaussianEBIC(gamma=0.5),
    "bic": lambda: GaussianBIC(),
    "bic-pd2": lambda: GaussianBIC(penalty_discount=2.0),
}
DEFAULT = "ebic-1 (default)"
COLUMNS = [
    "graph",
    "p",
    "degree",
    "n",
    "seed",
    "score",
    "limit",
    "seconds",
    "shd",
    "f1_adjacent",
    "f1_arrowhead",
]


def _fit(label, X, truth, seed) -> dict:
    start = time.perf_counter()
    graph = BOSS(SCORES[label](), random_state=seed).fit(X).graph_
    return {
        "seconds": time.perf_counter() - start,
        "shd": shd(truth, graph),
        "f1_adjacent": f1_adjacency(truth, graph),
        "f1_arrowhead": f1_arrowhead(truth, graph),
    }


def _run(label, X, truth, seed, limit) -> dict:
    """One fit in a forked child; NaN figures when it does not finish within ``limit`` s."""
    result = run_with_limit(_fit, (label, X, truth, seed), limit)
    return result or dict.fromkeys(["seconds", "shd", "f1_adjacent", "f1_arrowhead"], np.nan)


#: What the grid says, checked against the tables above when the page was last written.
NOTE = (
    "**Decision: the default stays `GaussianEBIC(gamma=1)`, and the page says where that "
    "costs.** On these dense graphs (degree 4-8) `GaussianBIC(penalty_discount=2)` is "
    "clearly nearer the best at n = 1,000 (13 of 18 rows against 8, mean ratio 1.08 against "
    "1.26, seeds 0-4: EBIC's extra penalty drops true arcs at the hubs when data are few), "
    "and EBIC is nearer at n = 10,000 (15 of 18 against 11 of 17, 1.42 against 1.55). "
    "Plain BIC "
    "over-fits far behind both (and often misses the time limit at 200 variables); EBIC "
    "with gamma 0.5 sits between. The learner grid (bundled networks and random graphs of "
    "degree 2-6) and the defaults grid (up to 10,000 variables) favour EBIC, so switching "
    "for dense graphs with few rows alone is not supported; users who expect hubs and have "
    "about 1,000 rows should try `BOSS(GaussianBIC(penalty_discount=2))`."
)


def run(args) -> None:
    out = Path(args.out)
    done = set()
    if out.exists():
        old = pd.read_csv(out)
        done = set(zip(old.graph, old.p, old.degree, old.n, old.seed, old.score))
    write_manifest(out)
    for seed in args.seeds:
        for n in args.n:
            for kind in args.graphs:
                for p in args.p:
                    for d in args.degrees:
                        X = truth = None
                        for label in SCORES:
                            if (kind, p, d, n, seed, label) in done:
                                continue
                            if X is None:
                                X, truth = _gaussian(kind, p, d, n, seed)
                            result = _run(label, X, truth, seed, args.limit)
                            row = {
                                "graph": kind,
                                "p": p,
                                "degree": d,
                                "n": n,
                                "seed": seed,
                                "score": label,
                                "limit": args.limit,
                                **result,
                            }
                            pd.DataFrame([row])[COLUMNS].to_csv(
                                out, mode="a", header=not out.exists(), index=False
                            )
                            print(
                                f"{kind} p={p} d={d} n={n} seed={seed} {label:16s} "
                                f"SHD={row['shd']} F1-adj={row['f1_adjacent']:.3f}",
                                flush=True,
                            )


def report(csv: Path, page: Path) -> None:
    table = pd.read_csv(csv)
    labels = list(SCORES)
    stats = table.groupby(["graph", "p", "degree", "n", "score"])[
        ["shd", "f1_adjacent", "f1_arrowhead"]
    ].agg(["mean", "std", "count"])
    seeds = table.groupby(["graph", "p", "degree", "n"])["seed"].nunique()
    lines = [
        "# BOSS's default score on dense Gaussian graphs",
        "",
        "Regenerate with:",
        "",
        "```bash",
        "python -m examples.benchmarks.boss_scores",
        "python -m examples.benchmarks.boss_scores --report",
        "```",
        "",
        "Erdos-Renyi (`er`) and scale-free (`sf`) DAGs at average degree 4, 6 and 8, a "
        "linear-Gaussian SEM on each (`make_linear_gaussian`, columns standardised), and "
        "`BOSS(score, random_state=seed)` with one start for each candidate score. A cell is "
        "the mean SHD over the seeds (sd in brackets), then F1-adjacent / F1-arrowhead; the "
        "lowest SHD of a row is in bold; '-' is a fit that did not finish within the time "
        "limit (120 s; counted as not the best).",
        "",
        "| graph | p | degree | n | seeds | " + " | ".join(labels) + " |",
        "|---|---:|---:|---:|---:|" + "---|" * len(labels),
    ]
    wins = dict.fromkeys(labels, 0)
    worse = []
    for key in seeds.index:
        row = stats.loc[key]
        # a setting that missed the limit on any seed is not compared on the others
        finished = row[("shd", "count")] == seeds[key]
        best = row.loc[finished, ("shd", "mean")].min()
        cells = []
        for label in labels:
            if label not in row.index:
                cells.append("n/r")
                continue
            if not finished[label]:
                cells.append("-")
                continue
            m, sd = row.loc[label, ("shd", "mean")], row.loc[label, ("shd", "std")]
            adj, arrow = (
                row.loc[label, ("f1_adjacent", "mean")],
                row.loc[label, ("f1_arrowhead", "mean")],
            )
            text = f"{m:.1f} ({0 if np.isnan(sd) else sd:.1f}); {adj:.3f} / {arrow:.3f}"
            if m == best:
                wins[label] += 1
                text = f"**{text}**"
            cells.append(text)
        if DEFAULT in row.index:
            gap = row.loc[DEFAULT, ("shd", "mean")] - best if finished[DEFAULT] else np.inf
            if gap > 0.1 * best + 1:
                worse.append((key, gap))
        graph, p, d, n = key
        lines.append(f"| {graph} | {p} | {d:g} | {n} | {seeds[key]} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Rows where each score has the lowest SHD (ties count for each): "
        + ", ".join(f"{label} {k}" for label, k in wins.items())
        + f" of {len(seeds)}.",
        "",
        f"Rows where the default ({DEFAULT}) is more than 10% (and one edge) above the best "
        "SHD: "
        + (
            ", ".join(f"{g} p={p} d={d} n={n} (+{gap:.1f})" for (g, p, d, n), gap in worse)
            or "none"
        )
        + ".",
        "",
    ]
    # near the best (within 10% or one edge) per score and sample size, over finished rows
    cells = table.groupby(["graph", "p", "degree", "n", "score"]).shd.agg(["mean", "count"])
    cells = cells.reset_index().join(seeds.rename("seeds"), on=["graph", "p", "degree", "n"])
    cells = cells[cells["count"] == cells["seeds"]]
    low = cells.groupby(["graph", "p", "degree", "n"])["mean"].transform("min")
    cells["near"] = cells["mean"] <= np.maximum(1.1 * low, low + 1)
    cells["ratio"] = (cells["mean"] + 1) / (low + 1)
    summary = cells.groupby(["n", "score"]).agg(
        near=("near", "sum"), rows=("near", "size"), ratio=("ratio", "mean")
    )
    lines += [
        "## Near the best, by sample size",
        "",
        "Rows where each score's SHD is within 10% (or one edge) of the row's best, and its "
        "mean SHD / best (as (SHD + 1) / (best + 1)), over the rows where it finished on "
        "every seed:",
        "",
        "| n | " + " | ".join(labels) + " |",
        "|---:|" + "---|" * len(labels),
    ]
    for n in sorted(cells.n.unique()):
        row = []
        for label in labels:
            if (n, label) not in summary.index:
                row.append("n/r")
                continue
            r = summary.loc[(n, label)]
            row.append(f"{int(r.near)}/{int(r.rows)} ({r.ratio:.2f})")
        lines.append(f"| {n} | " + " | ".join(row) + " |")
    lines += ["", NOTE, ""]
    page.write_text("\n".join(lines) + "\n")
    write_manifest(page)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graphs", nargs="+", default=["er", "sf"])
    parser.add_argument("--p", nargs="+", type=int, default=[50, 100, 200])
    parser.add_argument("--degrees", nargs="+", type=float, default=[4, 6, 8])
    parser.add_argument("--n", nargs="+", type=int, default=[1000, 10000])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per fit")
    parser.add_argument("--out", default=result_path("boss_scores", "boss_scores.csv"))
    parser.add_argument("--page", default=result_path("boss_scores"))
    parser.add_argument("--report", action="store_true", help="write the page, run nothing")
    args = parser.parse_args(argv)
    if args.report:
        report(Path(args.out), Path(args.page))
        return
    run(args)


if __name__ == "__main__":
    main()
