# SPDX-License-Identifier: BSD-3-Clause
"""Record Tetrad's MAGs, PAGs and PAG statistics: ``python -m tests.data.make_tetrad_pag_oracle``.

Needs Tetrad 7.6.8 (see ``tests/data/_tetrad.py``). For each of 220 random DAGs
(``skbn.datasets.make_erdos_renyi_dag``, 6 to 40 nodes, average degree 2 to 4) with 1 to 8
hidden nodes (two cases in three chosen among nodes with two or more children, as latent
confounders are), it stores the DAG, the latents, ``GraphTransforms.dagToMag`` and
``dagToPag``. For the first 120 it also perturbs the DAG (arcs removed and added along its
topological order), takes Tetrad's PAG of that one as an "estimate", and stores Tetrad's
adjacency, arrowhead and tail precision and recall of the estimate against the true PAG.
Writes ``tetrad_pag_oracle.json``.
"""

import networkx as nx
import numpy as np

from examples.benchmarks._tetrad import (
    TETRAD_VERSION,
    edge_strings,
    start_tetrad,
    tetrad_dag,
    tetrad_nodes,
)
from skbn.datasets import make_erdos_renyi_dag
from tests.data import save_oracle

N_CASES, N_SCORED = 220, 120
STATISTICS = [
    "AdjacencyPrecision",
    "AdjacencyRecall",
    "ArrowheadPrecision",
    "ArrowheadRecall",
    "TailPrecision",
    "TailRecall",
]


def _case(seed: int) -> tuple[nx.DiGraph, list]:
    rng = np.random.default_rng(seed)
    p = int(rng.integers(6, 21)) if seed < 200 else int(rng.integers(25, 41))
    degree = int(rng.integers(2, 5))
    dag = make_erdos_renyi_dag(p, min(p * degree // 2, p * (p - 1) // 2), random_state=seed)
    k = int(rng.integers(1, max(1, p // 5) + 1))
    parents_of_two = [n for n in dag if dag.out_degree(n) >= 2]
    pool = parents_of_two if seed % 3 and len(parents_of_two) >= k else list(dag)
    latents = sorted(rng.choice(pool, size=k, replace=False).tolist())
    return dag, latents


def _perturbed(dag: nx.DiGraph, seed: int) -> nx.DiGraph:
    rng = np.random.default_rng(10_000 + seed)
    order = list(nx.topological_sort(dag))
    out = nx.DiGraph()
    out.add_nodes_from(dag)
    arcs = list(dag.edges())
    n_drop = min(len(arcs), int(rng.integers(1, 4)))
    drop = set(rng.choice(len(arcs), size=n_drop, replace=False).tolist())
    out.add_edges_from(a for i, a in enumerate(arcs) if i not in drop)
    for _ in range(int(rng.integers(1, 4))):
        i, j = sorted(rng.choice(len(order), size=2, replace=False).tolist())
        out.add_edge(order[i], order[j])
    return out


def main() -> None:
    start_tetrad()
    import edu.cmu.tetrad.algcomparison.statistic as stats
    from edu.cmu.tetrad.graph import GraphTransforms
    from edu.cmu.tetrad.util import Parameters

    out = []
    for seed in range(N_CASES):
        dag, latents = _case(seed)
        nodes = list(dag)
        made = tetrad_nodes(nodes, latents)
        truth = GraphTransforms.dagToPag(tetrad_dag(dag.edges(), made))
        case = {
            "seed": seed,
            "nodes": nodes,
            "dag": sorted(map(list, dag.edges())),
            "latents": latents,
            "mag": edge_strings(GraphTransforms.dagToMag(tetrad_dag(dag.edges(), made))),
            "pag": edge_strings(truth),
            "tetrad": TETRAD_VERSION,
        }
        if seed < N_SCORED:
            est_dag = _perturbed(dag, seed)
            est = GraphTransforms.dagToPag(tetrad_dag(est_dag.edges(), made))
            case["estimate_pag"] = edge_strings(est)
            case["statistics"] = {
                name: float(getattr(stats, name)().getValue(truth, est, None, Parameters()))
                for name in STATISTICS
            }
        out.append(case)
    save_oracle("tetrad_pag_oracle", out)


if __name__ == "__main__":
    main()
