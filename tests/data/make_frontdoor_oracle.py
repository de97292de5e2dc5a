# SPDX-License-Identifier: BSD-3-Clause
"""Record pgmpy's front-door answers on random DAGs with hidden nodes (an oracle of
``skbn.causal``).

Run from the repository root (needs pgmpy 1.1.2):

    python -m tests.data.make_frontdoor_oracle

Each case is an Erdos-Renyi DAG of 6 measured nodes and 5 to 8 edges (``skbn.datasets``)
with one or two hidden common causes of two or three of them each, a treatment and an
outcome among the measured nodes with a directed path between them, and every candidate
set of up to three other measured nodes; every other DAG has Pearl's case planted along
its order (``u0 -> x``, ``u0 -> y``, ``x -> m -> y``). pgmpy's ``CausalInference`` answers
``is_valid_frontdoor_adjustment_set`` for each and ``get_all_frontdoor_adjustment_sets``
(its brute force over every subset) per pair. They are written to
``frontdoor_oracle.json.gz``.
"""

from __future__ import annotations

import gzip
import itertools
import json
import warnings
from pathlib import Path

import networkx as nx
import numpy as np

from skbn.datasets import make_erdos_renyi_dag

OUT = Path(__file__).resolve().parent / "frontdoor_oracle.json.gz"


def main() -> None:
    warnings.simplefilter("ignore")
    from pgmpy.inference import CausalInference
    from pgmpy.models import DiscreteBayesianNetwork

    rng = np.random.default_rng(0)
    cases = []
    for seed in range(80):
        dag = make_erdos_renyi_dag(6, int(rng.integers(5, 9)), random_state=seed)
        # one or two hidden common causes, each of two or three measured nodes
        latents = [f"u{i}" for i in range(int(rng.integers(1, 3)))]
        for u in latents:
            children = rng.choice(sorted(dag), int(rng.integers(2, 4)), replace=False)
            dag.add_edges_from((u, str(c)) for c in children)
        if seed % 2:
            # plant Pearl's case along the DAG's order: u0 -> x, u0 -> y, x -> m -> y
            x, m, y = sorted(rng.choice(6, 3, replace=False))
            order = list(nx.topological_sort(dag.subgraph([v for v in dag if v[0] != "u"])))
            x, m, y = order[x], order[m], order[y]
            dag.add_edges_from([("u0", x), ("u0", y), (x, m), (m, y)])
        model = DiscreteBayesianNetwork(list(dag.edges()), latents=set(latents))
        model.add_nodes_from(dag.nodes())
        inference = CausalInference(model)
        measured = sorted(set(dag) - set(latents))
        for x, y in itertools.permutations(measured, 2):
            if not nx.has_path(dag, x, y):
                continue
            others = [v for v in measured if v not in (x, y)]
            candidates = [
                {
                    "Z": list(Z),
                    "frontdoor": bool(inference.is_valid_frontdoor_adjustment_set(x, y, list(Z))),
                }
                for size in range(4)
                for Z in itertools.combinations(others, size)
            ]
            every = sorted(sorted(s) for s in inference.get_all_frontdoor_adjustment_sets(x, y))
            cases.append(
                {
                    "seed": seed,
                    "nodes": sorted(dag),
                    "edges": [list(e) for e in dag.edges()],
                    "latents": latents,
                    "x": x,
                    "y": y,
                    "candidates": candidates,
                    "all": every,
                }
            )
    with gzip.open(OUT, "wt") as handle:
        json.dump({"pgmpy": "1.1.2", "cases": cases}, handle, separators=(",", ":"))
    print(f"{len(cases)} cases, {sum(len(c['candidates']) for c in cases)} candidate sets")


if __name__ == "__main__":
    main()
