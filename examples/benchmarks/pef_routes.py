# SPDX-License-Identifier: BSD-3-Clause
"""How far PEF's sparse route's partition is from the dense route's, at the default threshold.

Both routes partition the same data (``PEFLearner(route=...).partition``); the adjusted Rand
index (scikit-learn's) compares the two partitions: 1 is the same partition, 0 is what
independent random partitions give on average.

Usage::

    python -m examples.benchmarks.pef_routes          # replicated ALARM and CHILD, 3 seeds
"""

from __future__ import annotations

import argparse

import numpy as np
from sklearn.metrics import adjusted_rand_score

from skbn.datasets import make_problem
from skbn.ensemble import PEFLearner


def labels(parts: list, columns) -> np.ndarray:
    """Cluster number of every column."""
    index = {c: i for i, c in enumerate(columns)}
    out = np.empty(len(columns), dtype=int)
    for k, part in enumerate(parts):
        out[[index[c] for c in part]] = k
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--problems",
        nargs="+",
        default=["alarm:1000", "alarm:2000", "child:1000"],
        help="network:variables (made with make_problem, n = 1,000 rows)",
    )
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    print("| problem | p | seed | clusters (dense) | clusters (sparse) | adjusted Rand |")
    print("|---|---:|---:|---:|---:|---:|")
    for problem in args.problems:
        network, nodes = problem.split(":")
        for seed in range(args.seeds):
            X, _ = make_problem(network, n_nodes=int(nodes), n_samples=1000, random_state=seed)
            dense = PEFLearner(route="dense").partition(X)
            sparse = PEFLearner(route="sparse").partition(X)
            ari = adjusted_rand_score(labels(dense, X.columns), labels(sparse, X.columns))
            print(
                f"| {network} | {X.shape[1]} | {seed} | {len(dense)} | {len(sparse)} | {ari:.3f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
