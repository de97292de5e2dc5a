# SPDX-License-Identifier: BSD-3-Clause
"""Record dagitty's adjustment verdicts on CPDAGs, MAGs and PAGs (an oracle of ``skbn.causal``).

dagitty (Textor et al.) implements Perkovic et al.'s generalised adjustment criterion for
every graph kind; its JavaScript core runs under node. To re-record, from the repository
root:

1. get dagitty's source (github.com/jtextor/dagitty, recorded at commit 7a65777) and, in
   its ``jslib`` folder, build ``dagitty-node.js`` as its Makefile's target of that name
   does (``node-pre.js``, the ``graph/*.js`` files of ``GRAPH_FILES``,
   ``parser/GraphDotParser.js`` and ``node-post.js``, concatenated), then
   ``npm install underscore`` there;
2. set ``DAGITTY_NODE`` to that ``dagitty-node.js`` and run
   ``python -m tests.data.make_dagitty_adjustment_oracle``.

Each case is a graph, a treatment, an outcome and sampled candidate sets of up to three
nodes: CPDAGs of random DAGs (``skbn.datasets.make_erdos_renyi_dag``, 8 nodes), and the MAG
and PAG of random DAGs with one or two hidden nodes (``skbn.graph.dag_to_mag`` and
``dag_to_pag``, 7 to 11 measured nodes), each with its DAG and latents so that a test can
also check the verdicts against the DAG itself. Writes ``dagitty_adjustment_oracle.json.gz``
(each graph once, the cases naming theirs).
"""

from __future__ import annotations

import gzip
import itertools
import json
import os
import subprocess
from pathlib import Path

import numpy as np

from skbn.datasets import make_erdos_renyi_dag
from skbn.graph import dag_to_cpdag, dag_to_mag, dag_to_pag, endpoint_matrix

HERE = Path(__file__).resolve().parent
OUT = HERE / "dagitty_adjustment_oracle.json.gz"
DAGITTY_COMMIT = "7a65777"
# dagitty's edge operators by (mark at the first node, mark at the second): 1 circle,
# 2 arrowhead, 3 tail, as in skbn's endpoint matrices
OPERATORS = {
    (3, 2): "->",
    (2, 3): "<-",
    (2, 2): "<->",
    (1, 1): "@-@",
    (1, 2): "@->",
    (2, 1): "<-@",
}


def graph_edges(graph, kind: str) -> tuple[list, list]:
    """The graph's nodes and its edges as ``[u, operator, v]`` triples."""
    if kind == "pdag":
        nodes = sorted(graph)
        edges = []
        for u, v in sorted(graph.edges()):
            if graph.has_edge(v, u):
                if u < v:
                    edges.append([u, "--", v])
            else:
                edges.append([u, "->", v])
        return nodes, edges
    M, nodes = endpoint_matrix(graph)
    edges = [
        [nodes[i], OPERATORS[int(M[j, i]), int(M[i, j])], nodes[j]]
        for i, j in zip(*np.nonzero(np.triu(M)))
    ]
    return nodes, edges


def _cases(kind: str, n_graphs: int, rng) -> list:
    cases = []
    for seed in range(n_graphs):
        if kind == "pdag":
            dag = make_erdos_renyi_dag(8, int(rng.integers(6, 14)), random_state=seed)
            latents = []
            graph = dag_to_cpdag(dag)
        else:
            p = int(rng.integers(8, 13))
            dag = make_erdos_renyi_dag(p, int(rng.integers(p, 2 * p)), random_state=seed)
            pool = [n for n in dag if dag.out_degree(n) >= 2] or list(dag)
            k = min(len(pool), int(rng.integers(1, 3)))
            latents = sorted(rng.choice(pool, size=k, replace=False).tolist())
            graph = (dag_to_pag if kind == "pag" else dag_to_mag)(dag, latents)
        nodes, edges = graph_edges(graph, kind)
        for x, y in itertools.permutations(nodes, 2):
            if rng.random() > 0.3:
                continue
            others = [v for v in nodes if v not in (x, y)]
            sets = [
                list(Z)
                for size in range(4)
                for Z in itertools.combinations(others, size)
                if rng.random() < 0.08
            ]
            if sets:
                cases.append(
                    {
                        "type": kind,
                        "seed": seed,
                        "nodes": nodes,
                        "edges": edges,
                        "dag": [list(e) for e in dag.edges()],
                        "latents": latents,
                        "x": x,
                        "y": y,
                        "sets": sets,
                    }
                )
    return cases


def main() -> None:
    rng = np.random.default_rng(0)
    cases = _cases("pdag", 80, rng) + _cases("pag", 150, rng) + _cases("mag", 50, rng)
    script = HERE / "dagitty_adjustment.js"
    answer = subprocess.run(
        ["node", str(script)],
        input="\n".join(json.dumps(c) for c in cases),
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "DAGITTY_NODE": os.environ["DAGITTY_NODE"]},
    )
    answers = [json.loads(line) for line in answer.stdout.splitlines()]
    if len(answers) != len(cases):
        raise RuntimeError(f"{len(answers)} answers for {len(cases)} cases")
    # each graph once; a case names its graph by position
    graphs, index, compact = [], {}, []
    shared = ("type", "seed", "nodes", "edges", "dag", "latents")
    for case, got in zip(cases, answers):
        key = json.dumps([case[k] for k in shared])
        if key not in index:
            index[key] = len(graphs)
            graphs.append({k: case[k] for k in shared})
        compact.append(
            {"graph": index[key], "x": case["x"], "y": case["y"], "sets": case["sets"], **got}
        )
    with gzip.open(OUT, "wt") as handle:
        json.dump(
            {"dagitty": DAGITTY_COMMIT, "graphs": graphs, "cases": compact},
            handle,
            separators=(",", ":"),
        )
    print(f"{len(cases)} cases, {sum(len(c['sets']) for c in cases)} sets -> {OUT}")


if __name__ == "__main__":
    main()
