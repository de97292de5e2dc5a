# SPDX-License-Identifier: BSD-3-Clause
"""Every learner on data that mixes discrete and continuous columns."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV

from skbn.datasets import load_network, make_conditional_gaussian
from skbn.learners import (
    FGES,
    HITONMB,
    HITONPC,
    IAMB,
    MMHC,
    GrowShrink,
    HillClimb,
    PCStable,
    TabuSearch,
)
from skbn.metrics import f1_adjacency
from skbn.parameters import ParameterLearner
from skbn.scores import CGLogLikelihood

LEARNERS = [HillClimb(), TabuSearch(), FGES(), PCStable(), MMHC()]


@pytest.fixture(scope="module")
def network():
    return make_conditional_gaussian(load_network("alarm"), 0.3, random_state=0)


@pytest.fixture(scope="module")
def sample(network):
    return network.sample(3000, random_state=1)


@pytest.mark.slow
@pytest.mark.parametrize("learner", LEARNERS, ids=lambda e: type(e).__name__)
def test_learners_recover_a_conditional_gaussian_network(learner, network, sample):
    graph = learner.fit(sample).graph_
    assert learner.data_kind_ == "mixed"
    continuous = set(network.continuous)
    into_discrete = [(u, v) for u, v in graph.edges if u in continuous and v not in continuous]
    assert into_discrete == []
    assert f1_adjacency(network.graph, graph) > 0.8


def test_required_arc_into_a_discrete_column_is_refused_naming_it(sample, network):
    child = next(v for v in sample.columns if v not in network.continuous)
    parent = network.continuous[0]
    with pytest.raises(ValueError, match=f"'{parent}', '{child}'.*conditional-Gaussian"):
        HillClimb(required_edges=[(parent, child)]).fit(sample)


def test_discrete_only_score_names_the_continuous_columns(sample, network):
    with pytest.raises(ValueError, match=repr(network.continuous[0])):
        HillClimb("bdeu").fit(sample)
    with pytest.raises(ValueError, match="discrete"):
        PCStable(ci_test="fisher_z").fit(sample)


def test_score_samples_is_the_conditional_gaussian_likelihood(sample):
    learner = HillClimb().fit(sample)
    # maximum-likelihood parameters on the same rows: the total is the CG log-likelihood
    fitted = ParameterLearner(learner.graph_, method="mle").fit(sample)
    total = float(np.sum(fitted.score_samples(sample)))
    assert total == pytest.approx(CGLogLikelihood().score_graph(learner.graph_, sample), rel=1e-9)
    held_out = learner.score_samples(sample.iloc[:50])
    assert held_out.shape == (50,) and np.isfinite(held_out).all()


def test_unseen_configuration_falls_back_to_the_pooled_regression():
    rng = np.random.default_rng(0)
    n = 400
    g = rng.integers(0, 2, n)
    x = rng.normal(size=n) + 3 * g
    X = pd.DataFrame({"g": pd.Categorical(np.array(["a", "b"])[g], ["a", "b", "c"]), "x": x})
    est = HillClimb().fit(X)
    assert est.graph_.has_edge("g", "x")
    new = pd.DataFrame({"g": pd.Categorical(["c"], ["a", "b", "c"]), "x": [1.5]})
    pooled_mean, pooled_var = x.mean(), x.var()
    expected = -0.5 * (np.log(2 * np.pi * pooled_var) + (1.5 - pooled_mean) ** 2 / pooled_var)
    # the CPT of g gives "c" its smoothed share; the x part is the pooled Gaussian
    p_c = (0 + 1 / 3) / (n + 1)
    assert est.score_samples(new)[0] == pytest.approx(expected + np.log(p_c), rel=1e-9)


def test_grid_search_over_mixed_scores(sample):
    small = sample.iloc[:800, :12]
    search = GridSearchCV(HillClimb(), {"criterion": ["bic", "aic"]}, cv=3).fit(small)
    assert search.best_params_["criterion"] in {"bic", "aic"}
    assert np.isfinite(search.cv_results_["mean_test_score"]).all()


def test_network_export_is_refused_with_a_reason(sample, tmp_path):
    from skbn.io import write_network

    network = HillClimb().fit(sample.iloc[:, :10]).network_
    with pytest.raises(TypeError, match="ConditionalGaussianNetwork"):
        write_network(network, tmp_path / "mixed.bif")


@pytest.mark.parametrize(
    "learner",
    [
        IAMB(),
        GrowShrink(),
        pytest.param(HITONPC(), marks=pytest.mark.slow),
        pytest.param(HITONMB(), marks=pytest.mark.slow),
    ],
)
def test_local_learners_hold_no_arc_from_continuous_into_discrete(learner):
    # they once oriented such arcs and failed after learning, fitting the parameters
    from sklearn.datasets import load_wine

    from skbn.classification import BayesianNetworkClassifier

    X, y = load_wine(return_X_y=True, as_frame=True)
    data = X.assign(cls=y.astype(str))
    fitted = clone(learner).fit(data)
    into_class = [
        u for u in fitted.graph_.predecessors("cls") if not fitted.graph_.has_edge("cls", u)
    ]
    assert into_class == []
    assert fitted.graph_.degree("cls") > 0  # the class is related to the measurements
    clf = BayesianNetworkClassifier(clone(learner), discretizer=None).fit(X, y)
    assert clf.score(X, y) > 0.9
