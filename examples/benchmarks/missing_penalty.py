# SPDX-License-Identifier: BSD-3-Clause
"""How the weight of the available-case noise penalty was chosen.

HillClimb() with its default score on ALARM and INSURANCE, n = 1,000, 5,000 and 20,000 rows
(seed 0), values removed completely at random at 5%, 20% and 40%, for each weight ``a`` of
``a * sqrt(n (n - |O|) / |O|)`` per parameter (``a = 0``: bnlearn's node-average BIC). Prints F1 of
the adjacencies and SHD against the true DAG, and the same on the complete rows.

``--kind gaussian`` does the same on linear-Gaussian data (``make_linear_gaussian`` on the
structures of CHILD and ALARM, n = 1,000, seeds 0 and 1), where the weight is chosen
separately (``GAUSSIAN_NOISE_PENALTY``). ``--kind mixed`` runs conditional-Gaussian versions
of CHILD and ALARM (the last 30% of a topological order continuous, n = 1,000, seeds 0 and
1), which share the discrete weight.

Usage::

    python -m examples.benchmarks.missing_penalty
    python -m examples.benchmarks.missing_penalty --kind gaussian
    python -m examples.benchmarks.missing_penalty --kind mixed
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np

import skbn.scores._available as available
from skbn.datasets import load_network, make_conditional_gaussian, make_linear_gaussian
from skbn.learners import HillClimb
from skbn.metrics import f1_adjacency, shd

WEIGHTS = [0.0, 0.125, 0.25, 0.5, 1.0]
GAUSSIAN_WEIGHTS = [0.5, 1.0, 2.0, 4.0]
MIXED_WEIGHTS = [0.125, 0.25, 0.5, 1.0]


def _grid(problems, weights, attribute: str) -> None:
    """HillClimb on each incomplete problem for each weight; prints F1/SHD and the means.

    ``problems`` yields ``(label, X, truth, rate, seed)``; ``attribute`` names the module
    constant of ``skbn.scores._available`` that holds the weight (read when a score is bound).
    """
    totals = dict.fromkeys(weights, 0.0)
    cells = 0
    for label, X, truth, rate, seed in problems:
        incomplete = X.mask(np.random.default_rng(seed).random(X.shape) < rate)
        results = []
        for a in weights:
            setattr(available, attribute, a)
            graph = HillClimb().fit(incomplete).graph_
            f1 = f1_adjacency(truth, graph)
            totals[a] += f1
            results.append(f"a={a}: {f1:.3f}/{shd(truth, graph)}")
        complete = f1_adjacency(truth, HillClimb().fit(X).graph_)
        cells += 1
        print(label, rate, f"complete {complete:.3f};", "  ".join(results), flush=True)
    print("mean F1-adjacent:", {a: round(t / cells, 3) for a, t in totals.items()})


def _discrete():
    for name in ["alarm", "insurance"]:
        network = load_network(name)
        for n, rate in itertools.product([1000, 5000, 20000], [0.05, 0.2, 0.4]):
            yield f"{name} {n}", network.sample(n, random_state=0), network.graph, rate, 0


def _gaussian():
    for name in ["child", "alarm"]:
        truth = load_network(name).graph
        for seed, rate in itertools.product([0, 1], [0.05, 0.2, 0.4]):
            X = make_linear_gaussian(truth, random_state=seed).sample(1000, random_state=seed)
            yield f"{name} {seed}", X, truth, rate, seed


def _mixed():
    for name in ["child", "alarm"]:
        network = load_network(name)
        for seed, rate in itertools.product([0, 1], [0.05, 0.2, 0.4]):
            cg = make_conditional_gaussian(network, 0.3, random_state=seed)
            yield f"{name} {seed}", cg.sample(1000, random_state=seed), cg.graph, rate, seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=["discrete", "gaussian", "mixed"], default="discrete")
    kind = parser.parse_args().kind
    if kind == "gaussian":
        _grid(_gaussian(), GAUSSIAN_WEIGHTS, "GAUSSIAN_NOISE_PENALTY")
    else:  # discrete and mixed data share the weight
        _grid(
            _discrete() if kind == "discrete" else _mixed(),
            WEIGHTS if kind == "discrete" else MIXED_WEIGHTS,
            "NOISE_PENALTY",
        )


if __name__ == "__main__":
    main()
