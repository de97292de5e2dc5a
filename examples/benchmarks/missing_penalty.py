# SPDX-License-Identifier: BSD-3-Clause
"""How the weight of the available-case noise penalty was chosen.

HillClimb() with its default score on ALARM and INSURANCE, n = 1,000, 5,000 and 20,000 rows
(seed 0), values removed completely at random at 5%, 20% and 40%, for each weight ``a`` of
``a * sqrt(n - |O|)`` per parameter (``a = 0``: bnlearn's node-average BIC). Prints F1 of
the adjacencies and SHD against the true DAG, and the same on the complete rows.

Usage::

    python examples/benchmarks/missing_penalty.py
"""

from __future__ import annotations

import itertools

import numpy as np

import skbn.scores._available as available
from skbn.datasets import load_network
from skbn.learners import HillClimb
from skbn.metrics import f1_adjacency, shd

WEIGHTS = [0.0, 0.25, 0.5, 1.0, 2.0]


def main() -> None:
    totals = dict.fromkeys(WEIGHTS, 0.0)
    cells = 0
    for name in ["alarm", "insurance"]:
        network = load_network(name)
        for n, rate in itertools.product([1000, 5000, 20000], [0.05, 0.2, 0.4]):
            X = network.sample(n, random_state=0)
            incomplete = X.mask(np.random.default_rng(0).random(X.shape) < rate)
            results = []
            for a in WEIGHTS:
                available.NOISE_PENALTY = a  # read when a score is bound
                graph = HillClimb().fit(incomplete).graph_
                f1 = f1_adjacency(network.graph, graph)
                totals[a] += f1
                results.append(f"a={a}: {f1:.3f}/{shd(network.graph, graph)}")
            complete = f1_adjacency(network.graph, HillClimb().fit(X).graph_)
            cells += 1
            print(name, n, rate, f"complete {complete:.3f};", "  ".join(results), flush=True)
    print("mean F1-adjacent:", {a: round(t / cells, 3) for a, t in totals.items()})


if __name__ == "__main__":
    main()
