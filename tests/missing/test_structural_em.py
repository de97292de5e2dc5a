# SPDX-License-Identifier: BSD-3-Clause
"""StructuralEM and its likelihood-weighting E-step."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.utils.estimator_checks import check_estimator

from skbn._kernels.em import FlatNetwork, likelihood_weighting_estep
from skbn.datasets import load_network, make_problem
from skbn.learners import HillClimb, PCStable, StructuralEM
from skbn.metrics import f1_adjacency


@pytest.fixture(scope="module")
def asia():
    return load_network("asia")


@pytest.fixture(scope="module")
def incomplete(asia):
    X = asia.sample(2000, random_state=0)
    return X.mask(np.random.default_rng(0).random(X.shape) < 0.15)


def _chain_tables():
    """A -> B, both binary: P(A=1) = 0.3, P(B=1 | A=0) = 0.2, P(B=1 | A=1) = 0.9."""
    arities = np.array([2, 2], dtype=np.int64)
    order = np.array([0, 1], dtype=np.int64)
    par_ptr = np.array([0, 0, 1], dtype=np.int64)
    par_idx = np.array([0], dtype=np.int64)
    table_ptr = np.array([0, 2, 6], dtype=np.int64)
    log_tables = np.log(np.array([0.7, 0.3, 0.8, 0.2, 0.1, 0.9]))
    return FlatNetwork(arities, order, par_ptr, par_idx, table_ptr, log_tables)


@pytest.mark.slow
def test_estep_matches_the_exact_posterior_of_a_chain():
    network = _chain_tables()
    # A missing, B = 1 observed: P(A=1 | B=1) = 0.27 / (0.27 + 0.14)
    codes = np.array([[-1, 1]], dtype=np.int16)
    counts = np.zeros(6)
    imputed, loglik = likelihood_weighting_estep(codes, network, 20000, 7, counts)
    posterior = 0.27 / 0.41
    assert counts[1] == pytest.approx(posterior, abs=0.01)
    assert counts[5] == pytest.approx(posterior, abs=0.01)  # (A=1, B=1)
    assert counts[3] == pytest.approx(1 - posterior, abs=0.01)  # (A=0, B=1)
    assert imputed[0, 0] == 1  # the posterior mode
    assert loglik == pytest.approx(np.log(0.41), abs=0.01)  # P(B=1)
    # a complete row adds exact counts and its exact log-likelihood
    counts[:] = 0
    complete = np.array([[0, 1]], dtype=np.int16)
    _, loglik = likelihood_weighting_estep(complete, network, 5, 7, counts)
    assert counts.tolist() == [1, 0, 0, 1, 0, 0]
    assert loglik == pytest.approx(np.log(0.7 * 0.2))


@pytest.mark.slow
def test_structural_em_recovers_asia_and_fills_every_value(asia, incomplete):
    sem = StructuralEM(random_state=0).fit(incomplete)
    assert f1_adjacency(asia.graph, sem.graph_) >= 0.8
    assert not sem.imputed_.isna().any().any()
    observed = incomplete.notna().to_numpy()
    assert (sem.imputed_.astype(str).to_numpy()[observed] == incomplete.to_numpy()[observed]).all()
    assert 1 <= sem.n_iter_ <= sem.max_iter
    assert len(sem.log_likelihoods_) == sem.n_iter_
    # the observed-data likelihood grows from the empty graph's
    assert sem.log_likelihoods_[-1] > sem.log_likelihoods_[0]


@pytest.mark.slow
def test_structural_em_is_deterministic_given_random_state(incomplete):
    a = StructuralEM(fit_tables="em", random_state=3).fit(incomplete)
    b = StructuralEM(fit_tables="em", random_state=3).fit(incomplete)
    assert set(a.graph_.edges) == set(b.graph_.edges)
    pd.testing.assert_frame_equal(a.imputed_, b.imputed_)


def test_structural_em_refuses_what_it_cannot_do(incomplete):
    X, _ = make_problem("asia", n_samples=100, random_state=0)
    with pytest.raises(ValueError, match="fit_tables='em' is for discrete data"):
        StructuralEM(fit_tables="em").fit(X)
    with pytest.raises(ValueError, match="skbn structure learner"):
        StructuralEM(estimator=PCStable).fit(incomplete)
    with pytest.raises(ValueError, match="max_iter"):
        StructuralEM(max_iter=0).fit(incomplete)


def test_structural_em_wraps_a_constraint_based_learner(asia, incomplete):
    sem = StructuralEM(PCStable(), max_iter=2, random_state=0).fit(incomplete)
    assert sem.estimator_.graph_ is sem.graph_
    assert f1_adjacency(asia.graph, sem.graph_) >= 0.6


@pytest.mark.slow
def test_structural_em_passes_sklearn_checks():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_estimator(
            StructuralEM(HillClimb(), max_iter=2, n_particles=5, random_state=0),
            expected_failed_checks={
                # the check subtracts the column means, so the data it then fits are
                # fractional floats: not discrete data, which StructuralEM needs
                "check_positive_only_tag_during_fit": "fractional floats are not discrete",
                # it learns from NaN; the check's NaN sits among fractional floats, which
                # are refused first
                "check_estimators_nan_inf": "fractional floats are not discrete",
            },
        )


def test_structural_em_scores_and_exposes_its_network_like_every_learner():
    asia = load_network("asia")
    X = asia.sample(1000, random_state=0)
    incomplete = X.mask(np.random.default_rng(0).random(X.shape) < 0.1)
    sem = StructuralEM(random_state=0).fit(incomplete)
    held_out = asia.sample(200, random_state=1)
    rows = sem.score_samples(held_out)
    assert rows.shape == (200,) and np.all(np.isfinite(rows)) and np.all(rows < 0)
    assert sem.score(held_out) == pytest.approx(rows.mean())
    network = sem.network_
    # the network's DAG is in the class of the learned graph (a CPDAG from the default
    # learner): the same adjacencies, and every arc of the graph kept
    arcs = set(network.graph.edges)
    assert arcs <= set(sem.graph_.edges)
    assert {frozenset(e) for e in arcs} == {frozenset(e) for e in sem.graph_.edges}
    # the network's own log-likelihood of a row equals score_samples
    assert network.log_likelihood(held_out.iloc[:5]) == pytest.approx(rows[:5])
