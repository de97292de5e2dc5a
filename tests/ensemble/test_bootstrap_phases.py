# SPDX-License-Identifier: BSD-3-Clause
"""The bootstrap + poset learner as phases: arc counts -> poset -> null counts -> p-values."""

import numpy as np
import pytest

from skbn.base import BaseStructureLearner
from skbn.datasets import load_network
from skbn.ensemble import (
    BootstrapPosetLearner,
    bootstrap_arc_counts,
    edge_pvalues,
    permutation_arc_counts,
    poset_from_counts,
)
from skbn.graph import to_adjacency


class _Echo(BaseStructureLearner):
    """Returns its start graph restricted to the allowed arcs (a stand-in with known output)."""

    _constraint_kinds = frozenset({"allowed"})

    def __init__(self, start_graph=None, allowed_edges=None, random_state=None):
        self.start_graph = start_graph
        self.allowed_edges = allowed_edges
        self.random_state = random_state

    def _learn(self, data, constraints):
        p = data.n_features
        A = np.zeros((p, p), dtype=np.int8) if self.start_graph is None else self.start_graph
        return (np.asarray(A) * constraints.allowed).astype(np.int8), "dag"


@pytest.fixture(scope="module")
def asia():
    return load_network("asia").sample(800, random_state=0)


def test_phase_one_counts_what_the_fits_returned(asia):
    p = asia.shape[1]
    counts = bootstrap_arc_counts(_Echo(), asia, 10, start="random_chain", random_state=0)
    # every fit returned a chain through all nodes: p - 1 arcs, each node left at most once
    assert counts.sum() == 10 * (p - 1)
    assert np.all(counts.sum(axis=1) <= 10)
    # the default start is the empty graph
    assert not bootstrap_arc_counts(_Echo(), asia, 10, random_state=0).any()


def test_phase_two_counts_only_poset_arcs(asia):
    p = asia.shape[1]
    poset = np.zeros((p, p), dtype=bool)
    poset[0, 1] = poset[1, 2] = True
    real, null = permutation_arc_counts(_Echo(), asia, poset, 8, random_state=0)
    assert not real[~poset].any() and not null[~poset].any()
    # each fit starts from (and returns) one random poset arc
    assert real.sum() == 8 and null.sum() == 8


def test_pvalues_prefer_arcs_seen_more_on_real_data():
    real, null = np.array([50, 10, 0]), np.array([5, 10, 0])
    p, q = edge_pvalues(real, null, 50)
    assert p[0] < 1e-6 and p[1] > 0.4 and p[2] == 1.0
    assert np.all(q >= p)
    p_bin, _ = edge_pvalues(real, null, 50, test="binomial", correction=None)
    assert p_bin[0] < 1e-6 and p_bin[1] > 0.4


def test_poset_from_counts_is_acyclic_and_keeps_the_stronger_arc():
    counts = np.array([[0, 5, 0], [1, 0, 4], [2, 0, 0]])  # a <-> b and a cycle a -> b -> c -> a
    poset = poset_from_counts(counts, "confidence", 0)
    assert poset[0, 1] and not poset[1, 0] and poset[1, 2] and not poset[2, 0]
    assert poset_from_counts(counts, "agony", 0)[0, 1]


def test_the_learner_is_the_composition_of_its_phases(asia):
    from sklearn.utils import check_random_state

    from skbn.learners import HillClimb

    est = BootstrapPosetLearner(
        HillClimb(), n_poset_resamples=5, n_test_resamples=5, random_state=3
    ).fit(asia)
    rng = check_random_state(3)
    counts = bootstrap_arc_counts(HillClimb(), asia, 5, random_state=rng)
    poset = poset_from_counts(counts, "confidence", rng)
    real, null = permutation_arc_counts(HillClimb(), asia, poset, 5, random_state=rng)
    names = list(asia.columns)
    assert np.array_equal(to_adjacency(est.poset_, names).astype(bool), poset)
    table = est.edge_pvalues_
    got = {(r.u, r.v): (r.count, r.null_count) for r in table.itertuples()}
    for i, j in zip(*np.nonzero(poset)):
        assert got[names[i], names[j]] == (real[i, j], null[i, j])
