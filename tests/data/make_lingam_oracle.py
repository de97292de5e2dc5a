# SPDX-License-Identifier: BSD-3-Clause
"""Record lingam's DirectLiNGAM on stored cases (the oracle of ``skbn.learners.DirectLiNGAM``).

Run from the repository root (needs lingam 1.13.0):

    python -m tests.data.make_lingam_oracle

Each case is a random Erdos-Renyi DAG with linear mechanisms and non-Gaussian noise from
:func:`skbn.datasets.make_additive_noise` (:func:`case_data`), 3 to 20 variables, 300 or
1,000 rows; a third of the cases give lingam prior knowledge made from tiers (the variables
split into two halves of a topological order: no directed path from the second half to the
first), which skbn receives as ``tiers``. lingam's causal order and adjacency matrix are
written to ``lingam_oracle.json`` with the sum of the data, so that a change of the
generator shows as a failed check rather than as a wrong comparison.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import networkx as nx
import numpy as np

from skbn.datasets import make_additive_noise, make_erdos_renyi_dag

HERE = Path(__file__).resolve().parent
NOISES = ["uniform", "laplace", "exponential", "mixture"]


def case_data(seed: int, p: int, n: int, noise: str):
    """``(X, dag)`` of one case."""
    dag = make_erdos_renyi_dag(p, min(2 * p, p * (p - 1) // 2), random_state=seed)
    model = make_additive_noise(dag, mechanism="linear", noise=noise, random_state=seed)
    return model.sample(n, random_state=seed + 1), dag


def case_tiers(dag) -> list[list[str]]:
    """Two tiers: the first half of a topological order of ``dag``, then the rest."""
    order = list(nx.topological_sort(dag))
    half = len(order) // 2
    return [order[:half], order[half:]]


def cases() -> list[dict]:
    out = []
    seed = 0
    for p in [3, 5, 8, 12, 20]:
        for n in [300, 1000]:
            for noise in NOISES:
                out.append({"seed": seed, "p": p, "n": n, "noise": noise, "tiers": seed % 3 == 2})
                seed += 1
    return out


def record(case: dict) -> dict:
    import lingam

    X, dag = case_data(case["seed"], case["p"], case["n"], case["noise"])
    prior = None
    if case["tiers"]:
        index = {v: k for k, v in enumerate(X.columns)}
        first, second = case_tiers(dag)
        prior = -np.ones((case["p"], case["p"]))
        for a in first:
            for b in second:
                prior[index[a], index[b]] = 0  # lingam: no directed path from b to a
    model = lingam.DirectLiNGAM(prior_knowledge=prior).fit(X.to_numpy())
    return {
        **case,
        "data_sum": float(X.to_numpy().sum()),
        "causal_order": [int(j) for j in model.causal_order_],
        "adjacency": model.adjacency_matrix_.tolist(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE / "lingam_oracle.json"))
    args = parser.parse_args()
    from importlib.metadata import version

    records = [record(case) for case in cases()]
    payload = {"source": f"lingam {version('lingam')} DirectLiNGAM", "cases": records}
    Path(args.out).write_text(json.dumps(payload) + "\n")
    print(f"{len(records)} cases -> {args.out}")


if __name__ == "__main__":
    main()
