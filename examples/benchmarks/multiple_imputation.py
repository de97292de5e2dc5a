# SPDX-License-Identifier: BSD-3-Clause
"""How many imputations: MultipleImputation's accuracy by number of copies, on Gaussian data.

The recipe: a linear-Gaussian network on the structure of a bundled network
(``make_linear_gaussian``, seeded), ``n`` rows per seed, values removed completely at random
at each rate. ``MultipleImputation()`` (HillClimb on each copy, IterativeImputer drawing from
the posterior) is fitted once with the largest number of copies; the first ``m`` copies are
then pooled for every ``m`` of the grid (the copies' seeds come one after another from the
same stream, so the first ``m`` of 20 are exactly the copies of ``n_imputations=m``).
Baselines on the same data: ``HillClimb()`` with its available-case BIC, ``PCStable()`` with
testwise deletion, and ``HillClimb()`` on the complete rows before removal.

Usage (the command behind the table in examples/benchmarks/results/missing/missing.md)::

    python -m examples.benchmarks.multiple_imputation \
        --out examples/benchmarks/results/missing/missing_mi.csv
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from examples.benchmarks._common import structure_scores
from examples.benchmarks._results import write_manifest
from skbn.datasets import load_network, make_linear_gaussian
from skbn.ensemble import MultipleImputation, edge_frequencies
from skbn.graph._convert import to_adjacency
from skbn.learners import HillClimb, PCStable


def run(networks, n, rates, seeds, grid, out=None) -> pd.DataFrame:
    rows = []
    for name in networks:
        truth = load_network(name).graph
        for seed in seeds:
            full = make_linear_gaussian(truth, random_state=seed).sample(n, random_state=seed)
            base = dict(network=name, p=truth.number_of_nodes(), n=n, seed=seed)

            def add(method, rate, seconds, graph, truth=truth, base=base, **extra):
                f1a, f1h, dist, edges = structure_scores(truth, graph)
                rows.append(
                    {
                        **base,
                        "rate": rate,
                        "method": method,
                        "seconds": seconds,
                        "f1_adjacent": f1a,
                        "f1_arrowhead": f1h,
                        "shd": dist,
                        "edges": edges,
                        **extra,
                    }
                )

            add("HillClimb(), complete data", 0.0, 0.0, HillClimb().fit(full).graph_)
            for rate in rates:
                X = full.mask(np.random.default_rng(seed).random(full.shape) < rate)
                for label, learner in (("HillClimb()", HillClimb()), ("PCStable()", PCStable())):
                    start = time.perf_counter()
                    graph = learner.fit(X).graph_
                    add(label, rate, time.perf_counter() - start, graph)
                start = time.perf_counter()
                mi = MultipleImputation(n_imputations=max(grid), random_state=seed).fit(X)
                seconds = time.perf_counter() - start
                names = list(mi.feature_names_in_)
                fits = [to_adjacency(e.graph_, names) for e in mi.estimators_]
                for m in grid:
                    graph = edge_frequencies(fits[:m], names).averaged_graph(0.5)
                    add(
                        f"MultipleImputation(n_imputations={m})",
                        rate,
                        seconds * m / max(grid),
                        graph,
                        m=m,
                    )
                print(name, seed, rate, "done", flush=True)
                if out is not None:  # keep what is done if the run is stopped
                    pd.DataFrame(rows).to_csv(out, index=False)
    return pd.DataFrame(rows)


def report(df: pd.DataFrame) -> str:
    lines = [
        "| network | rate | method | F1-adjacent | F1-arrowhead | SHD | seconds |",
        "|---|---|---|---|---|---|---|",
    ]
    for (name, rate, method), part in df.groupby(["network", "rate", "method"], sort=False):
        lines.append(
            f"| {name} ({part['p'].iloc[0]}) | {rate:.0%} | {method} | "
            f"{part['f1_adjacent'].mean():.3f} ({part['f1_adjacent'].std(ddof=0):.3f}) | "
            f"{part['f1_arrowhead'].mean():.3f} | {part['shd'].mean():.1f} | "
            f"{part['seconds'].mean():.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="+", default=["child", "alarm"])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--rates", nargs="+", type=float, default=[0.2, 0.4])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--grid", nargs="+", type=int, default=[1, 3, 5, 10, 20])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--report", type=Path, help="print the table of this CSV")
    args = parser.parse_args()
    if args.report:
        df = pd.read_csv(args.report)
    else:
        df = run(args.networks, args.n, args.rates, args.seeds, args.grid, args.out)
        if args.out:
            df.to_csv(args.out, index=False)
            write_manifest(args.out)
    print(report(df))


if __name__ == "__main__":
    main()
