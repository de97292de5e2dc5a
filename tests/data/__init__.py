# SPDX-License-Identifier: BSD-3-Clause
"""Stored answers of other libraries (the oracles the tests read) and the scripts that record
them."""

import json
from pathlib import Path

HERE = Path(__file__).parent


def load_oracle(name: str):
    """The stored answers ``tests/data/<name>.json``."""
    return json.loads((HERE / f"{name}.json").read_text())


def save_oracle(name: str, answers) -> None:
    """Write ``tests/data/<name>.json`` (what the recording scripts produce)."""
    (HERE / f"{name}.json").write_text(json.dumps(answers, indent=1) + "\n")


def oracle_dag(case: dict):
    """The DAG of one stored PAG case (``nodes`` and ``dag`` arcs) as a networkx graph."""
    import networkx as nx

    dag = nx.DiGraph()
    dag.add_nodes_from(case["nodes"])
    dag.add_edges_from(map(tuple, case["dag"]))
    return dag


def pag_oracle_cases(max_measured: int | None = None, every: int = 1):
    """``(seed, dag, latents)`` of every ``every``-th stored Tetrad PAG case.

    Only cases with at most ``max_measured`` measured nodes when it is given (exact oracles
    slow down fast with the graph).
    """
    for case in load_oracle("tetrad_pag_oracle")[::every]:
        if max_measured is None or len(case["nodes"]) - len(case["latents"]) <= max_measured:
            yield case["seed"], oracle_dag(case), case["latents"]
