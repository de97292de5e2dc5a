# SPDX-License-Identifier: BSD-3-Clause
import os
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest

from skbn.datasets import TRAINING_NETWORKS, load_network, make_training_problems


def test_training_problems_follow_the_recipe():
    problems = make_training_problems(12, n_nodes=(5, 60), n_samples=300, random_state=0)
    assert len(problems) == 12
    for k, (X, dag) in enumerate(problems):
        assert 5 <= X.shape[1] <= 60
        assert list(X.columns) == list(dag.nodes)
        assert nx.is_directed_acyclic_graph(dag)
        # standardised columns; a piece no larger than one copy of its (connected) base
        # network is connected (larger ones span copies joined by few random arcs)
        np.testing.assert_allclose(X.mean(), 0, atol=1e-10)
        np.testing.assert_allclose(X.std(ddof=0), 1, atol=1e-10)
        base = TRAINING_NETWORKS[k % len(TRAINING_NETWORKS)]
        stems = {str(v).rsplit("_", 1)[0] for v in dag.nodes}
        base_graph = load_network(base).graph
        assert stems <= set(base_graph.nodes)
        if X.shape[1] <= base_graph.number_of_nodes():
            assert nx.is_weakly_connected(dag)


@pytest.mark.slow
def test_training_problems_do_not_depend_on_the_hash_seed():
    code = (
        "import hashlib\n"
        "from skbn.datasets import make_training_problems\n"
        "h = hashlib.sha256()\n"
        "for X, dag in make_training_problems(9, n_nodes=(20, 40), n_samples=50,"
        " random_state=1):\n"
        "    h.update(X.to_numpy().tobytes()); h.update(str(list(dag.edges)).encode())\n"
        "print(h.hexdigest())\n"
    )
    outs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outs) == 1


def test_training_problems_errors():
    with pytest.raises(ValueError, match="n_nodes"):
        make_training_problems(2, n_nodes=(10, 5))
    with pytest.raises(ValueError, match="at least 1"):
        make_training_problems(0)
