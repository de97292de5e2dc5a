# SPDX-License-Identifier: BSD-3-Clause
"""The MAG of a DAG with latents, against its definition read through networkx.

``dag_to_mag`` tests only the pairs that an inducing path could join (``skbn._kernels.mag``).
Here the adjacencies are checked against the definition itself (no measured set separates
the pair) and against Richardson & Spirtes's one set (the measured ancestors of the pair),
both asked of networkx's d-separation, and the marks against networkx's ancestors.
"""

import itertools

import networkx as nx
import numpy as np
import pytest

from skbn.datasets import make_erdos_renyi_dag
from skbn.graph import ARROW, TAIL, dag_to_mag, endpoint_matrix

d_separated = getattr(nx, "is_d_separator", None)
pytestmark = pytest.mark.skipif(d_separated is None, reason="networkx < 3.3")


def _latents(dag, rng, share):
    """A random share of the nodes, chains and parents of several children among them."""
    nodes = list(dag)
    k = max(1, round(share * len(nodes)))
    return sorted(rng.choice(nodes, size=k, replace=False).tolist())


def _expected_marks(dag, a, b):
    """The marks at ``a`` and at ``b``: a tail at an ancestor of the other end."""
    at_a = TAIL if nx.has_path(dag, a, b) else ARROW
    at_b = TAIL if nx.has_path(dag, b, a) else ARROW
    return at_a, at_b


def test_adjacent_exactly_when_no_measured_set_separates_the_pair():
    rng = np.random.default_rng(11)
    checked = 0
    for seed in range(40):
        dag = make_erdos_renyi_dag(9, int(rng.integers(9, 18)), random_state=seed)
        latents = _latents(dag, rng, rng.choice([0.2, 0.35]))
        observed = [n for n in dag if n not in latents]
        M, order = endpoint_matrix(dag_to_mag(dag, latents))
        assert order == observed
        for (i, a), (j, b) in itertools.combinations(enumerate(observed), 2):
            rest = [n for n in observed if n not in (a, b)]
            separable = any(
                d_separated(dag, {a}, {b}, set(s))
                for r in range(len(rest) + 1)
                for s in itertools.combinations(rest, r)
            )
            if separable:
                assert M[i, j] == M[j, i] == 0, (seed, a, b)
            else:
                assert (M[j, i], M[i, j]) == _expected_marks(dag, a, b), (seed, a, b)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("seed", range(4))
def test_equals_the_measured_ancestors_test_on_every_pair(seed):
    # denser graphs and a third of the nodes hidden: long paths through latents and
    # colliders, which the candidate search must not miss
    rng = np.random.default_rng(seed)
    dag = make_erdos_renyi_dag(60, 150, random_state=seed)
    latents = _latents(dag, rng, 0.33)
    observed = [n for n in dag if n not in latents]
    ancestors = {n: nx.ancestors(dag, n) for n in observed}
    M, _ = endpoint_matrix(dag_to_mag(dag, latents))
    induced = 0
    for (i, a), (j, b) in itertools.combinations(enumerate(observed), 2):
        z = (ancestors[a] | ancestors[b]) - set(latents) - {a, b}
        adjacent = dag.has_edge(a, b) or dag.has_edge(b, a)
        if not adjacent and d_separated(dag, {a}, {b}, z):
            assert M[i, j] == M[j, i] == 0, (a, b)
            continue
        assert (M[j, i], M[i, j]) == _expected_marks(dag, a, b), (a, b)
        induced += not adjacent
    assert induced > 0
