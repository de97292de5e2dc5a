# SPDX-License-Identifier: BSD-3-Clause
"""The test helpers' d-separation answers networkx's on random DAGs and conditioning sets."""

import networkx as nx
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from skbn.datasets import load_network
from skbn.utils.testing import d_separated
from tests.conftest import random_dags


@given(random_dags(min_nodes=2, max_nodes=9), st.data())
def test_d_separated_equals_networkx_on_random_dags(A, data):
    dag = nx.DiGraph(A)
    dag.add_nodes_from(range(A.shape[0]))
    x, y = data.draw(
        st.lists(st.sampled_from(range(A.shape[0])), min_size=2, max_size=2, unique=True)
    )
    others = [v for v in range(A.shape[0]) if v not in (x, y)]
    cond = set(data.draw(st.lists(st.sampled_from(others), unique=True))) if others else set()
    assert d_separated(dag, x, y, cond) == nx.is_d_separator(dag, {x}, {y}, cond)


def test_d_separated_equals_networkx_on_alarm():
    dag = load_network("alarm").graph
    nodes = list(dag)
    rng = np.random.default_rng(0)
    answers = []
    for _ in range(2000):
        x, y, *rest = rng.choice(len(nodes), size=2 + rng.integers(0, 6), replace=False)
        cond = {nodes[c] for c in rest}
        got = d_separated(dag, nodes[x], nodes[y], cond)
        assert got == nx.is_d_separator(dag, {nodes[x]}, {nodes[y]}, cond)
        answers.append(got)
    assert 0.1 < np.mean(answers) < 0.9  # both answers were checked
