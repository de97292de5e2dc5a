# SPDX-License-Identifier: BSD-3-Clause
"""How many of a network's true arcs the phase-1 poset of ``BootstrapPosetLearner`` admits.

Phase 2 can only keep arcs that the poset allows, so the share of true arcs that the poset
admits in their true direction caps the method's recall (TPR). This script fits the learner
as ``examples/reproduce_bootstrap.py`` does (hill climbing on BIC, 100 + 100 resamples,
alpha 0.01, FDR) on data sampled from a bundled network, for each phase-1 start and loop
removal rule, and prints, per data seed and as mean ± sd: the poset's arcs, the true arcs it
admits in their direction, the true adjacencies it admits in either direction, and the TPR
and PPV of the arcs the learner keeps.

Usage::

    python -m examples.benchmarks.bootstrap_poset_recall --network alarm --samples 1000 10000 \
        --seeds 0 1 2 3 4
"""

from __future__ import annotations

import argparse

import networkx as nx
import pandas as pd

from examples.reproduce_bootstrap import ppv_tpr
from skbn.datasets import load_network
from skbn.ensemble import BootstrapPosetLearner


def admitted(poset: nx.DiGraph, truth: nx.DiGraph) -> tuple[int, int]:
    """True arcs the poset allows in their direction, and in either direction."""
    same = sum(poset.has_edge(u, v) for u, v in truth.edges())
    either = sum(poset.has_edge(u, v) or poset.has_edge(v, u) for u, v in truth.edges())
    return same, either


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", default="alarm")
    parser.add_argument("--samples", nargs="+", type=int, default=[1000, 10000])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--resamples", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    bn = load_network(args.network)
    truth = bn.graph
    rows = []
    for m in args.samples:
        for seed in args.seeds:
            X = bn.sample(m, random_state=seed)
            for start in ("random_chain", "empty"):
                for loop in ("confidence", "agony"):
                    est = BootstrapPosetLearner(
                        n_poset_resamples=args.resamples,
                        n_test_resamples=args.resamples,
                        loop_removal=loop,
                        alpha=0.01,
                        start=start,
                        random_state=seed,
                        n_jobs=args.jobs,
                    ).fit(X)
                    same, either = admitted(est.poset_, truth)
                    ppv, tpr, _ = ppv_tpr(truth, est.graph_.edges())
                    rows.append(
                        dict(
                            m=m,
                            seed=seed,
                            start=start,
                            poset=loop,
                            poset_arcs=est.poset_.number_of_edges(),
                            admitted=same,
                            either_direction=either,
                            tpr=tpr,
                            ppv=ppv,
                        )
                    )
                    print(rows[-1], flush=True)
    frame = pd.DataFrame(rows)
    n_arcs = truth.number_of_edges()
    print(f"\n{args.network}: {n_arcs} true arcs; mean ± sd over seeds {args.seeds}\n")
    print("| m | start | poset | poset arcs | true arcs admitted | either direction | TPR | PPV |")
    print("|---:|---|---|---:|---:|---:|---:|---:|")
    for (m, start, loop), g in frame.groupby(["m", "start", "poset"], sort=True):
        cells = [
            f"{g[c].mean():.{d}f} ± {g[c].std(ddof=1):.{d}f}"
            for c, d in (
                ("poset_arcs", 1),
                ("admitted", 1),
                ("either_direction", 1),
                ("tpr", 3),
                ("ppv", 3),
            )
        ]
        print(f"| {m:,} | {start} | {loop} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
