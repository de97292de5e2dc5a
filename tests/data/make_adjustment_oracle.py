# SPDX-License-Identifier: BSD-3-Clause
"""Record pgmpy's adjustment-set answers on random DAGs (an oracle of ``skbn.causal``).

Run from the repository root (needs pgmpy 1.1.2):

    python -m tests.data.make_adjustment_oracle

Each case is an Erdos-Renyi DAG of 8 nodes and 12 edges (``skbn.datasets``), a treatment
and an outcome, and a candidate set. pgmpy's ``CausalInference`` answers
``is_valid_adjustment_set`` (d-separation in the proper back-door graph),
``is_valid_backdoor_adjustment_set`` (Pearl's back-door criterion) and, per pair,
``get_minimal_adjustment_set``. They are written to ``adjustment_oracle.json.gz``.
"""

from __future__ import annotations

import gzip
import itertools
import json
import warnings
from pathlib import Path

import numpy as np

from skbn.datasets import make_erdos_renyi_dag

OUT = Path(__file__).resolve().parent / "adjustment_oracle.json.gz"


def main() -> None:
    warnings.simplefilter("ignore")
    from pgmpy.inference import CausalInference
    from pgmpy.models import DiscreteBayesianNetwork

    rng = np.random.default_rng(0)
    cases = []
    for seed in range(30):
        dag = make_erdos_renyi_dag(8, 12, random_state=seed)
        model = DiscreteBayesianNetwork(list(dag.edges()))
        model.add_nodes_from(dag.nodes())
        inference = CausalInference(model)
        nodes = sorted(dag)
        for x, y in itertools.permutations(nodes, 2):
            if rng.random() > 0.3:
                continue
            try:
                minimal = inference.get_minimal_adjustment_set(x, y)
            except ValueError as exc:  # pgmpy refuses pairs it finds adjacent
                minimal = str(exc)
            others = [v for v in nodes if v not in (x, y)]
            candidates = []
            for size in (0, 1, 2, 3):
                for Z in itertools.combinations(others, size):
                    if rng.random() < 0.15:
                        candidates.append(
                            {
                                "Z": list(Z),
                                "adjustment": bool(
                                    inference.is_valid_adjustment_set(x, y, list(Z))
                                ),
                                "backdoor": bool(
                                    inference.is_valid_backdoor_adjustment_set(x, y, list(Z))
                                ),
                            }
                        )
            cases.append(
                {
                    "seed": seed,
                    "edges": [list(e) for e in dag.edges()],
                    "nodes": nodes,
                    "x": x,
                    "y": y,
                    "minimal": minimal
                    if minimal is None or isinstance(minimal, str)
                    else sorted(minimal),
                    "candidates": candidates,
                }
            )
    with gzip.open(OUT, "wt") as handle:
        json.dump({"pgmpy": "1.1.2", "cases": cases}, handle, separators=(",", ":"))
    print(f"{len(cases)} pairs, {sum(len(c['candidates']) for c in cases)} candidate sets")


if __name__ == "__main__":
    main()
