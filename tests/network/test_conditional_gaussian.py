# SPDX-License-Identifier: BSD-3-Clause
"""ConditionalGaussianNetwork: hand-computed densities, sampling, and learned networks."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from skbn.datasets import load_network, make_conditional_gaussian
from skbn.learners import HillClimb
from skbn.network import ConditionalGaussianNetwork, DiscreteBayesianNetwork


@pytest.fixture
def smoking():
    bn = DiscreteBayesianNetwork(
        {"smoker": ["no", "yes"], "sex": ["f", "m"]},
        {},
        {"smoker": [0.7, 0.3], "sex": [0.5, 0.5]},
    )
    return ConditionalGaussianNetwork(
        bn,
        parents={"tar": ["smoker"], "fev": ["sex", "tar", "smoker"]},
        intercepts={"tar": [0.0, 2.0], "fev": [[4.0, 3.5], [4.5, 4.2]]},
        coefficients={"tar": [[], []], "fev": [[[-0.2], [-0.3]], [[-0.1], [-0.4]]]},
        variances={"tar": [0.5, 1.0], "fev": [[0.3, 0.2], [0.4, 0.25]]},
    )


def test_log_likelihood_is_the_hand_computed_density(smoking):
    row = pd.DataFrame({"fev": [3.1], "tar": [1.7], "sex": ["m"], "smoker": ["yes"]})
    # sex = m (index 1), smoker = yes (index 1): fev's regression is [1][1]
    expected = (
        np.log(0.3)
        + np.log(0.5)
        + stats.norm.logpdf(1.7, 2.0, np.sqrt(1.0))
        + stats.norm.logpdf(3.1, 4.2 - 0.4 * 1.7, np.sqrt(0.25))
    )
    assert smoking.log_likelihood(row)[0] == pytest.approx(expected, rel=1e-12)
    assert smoking.parents["fev"] == ("sex", "smoker", "tar")
    assert smoking.n_parameters == 2 + 2 * 2 + 4 * 3
    assert sorted(smoking.graph.edges) == sorted(
        [("smoker", "tar"), ("sex", "fev"), ("smoker", "fev"), ("tar", "fev")]
    )


def test_samples_follow_the_regressions(smoking):
    X = smoking.sample(40_000, random_state=0)
    assert list(X.columns) == ["smoker", "sex", "tar", "fev"]
    yes = X[X.smoker == "yes"]
    # tar | smoker=yes ~ N(2, 1)
    assert yes.tar.mean() == pytest.approx(2.0, abs=0.03)
    assert yes.tar.var() == pytest.approx(1.0, rel=0.05)
    cell = X[(X.smoker == "no") & (X.sex == "f")]
    slope, intercept = np.polyfit(cell.tar, cell.fev, 1)
    assert slope == pytest.approx(-0.2, abs=0.03)
    assert intercept == pytest.approx(4.0, abs=0.03)
    resid = cell.fev - (intercept + slope * cell.tar)
    assert resid.var() == pytest.approx(0.3, rel=0.05)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"variances": {"tar": [0.5, 0.0], "fev": [[0.3, 0.2], [0.4, 0.25]]}}, "positive"),
        ({"intercepts": {"tar": [0.0], "fev": [[4.0, 3.5], [4.5, 4.2]]}}, "expected \\(2,\\)"),
        ({"parents": {"tar": ["smoker"], "fev": ["sex", "tar", "age"]}}, "unknown parents"),
        (
            {
                "parents": {"tar": ["fev"], "fev": ["tar"]},
                "intercepts": {"tar": 0.0, "fev": 0.0},
                "coefficients": {"tar": [1.0], "fev": [1.0]},
                "variances": {"tar": 1.0, "fev": 1.0},
            },
            "cycle",
        ),
    ],
)
def test_bad_parameters_are_refused(smoking, change, message):
    args = {
        "parents": {"tar": ["smoker"], "fev": ["sex", "tar", "smoker"]},
        "intercepts": {"tar": [0.0, 2.0], "fev": [[4.0, 3.5], [4.5, 4.2]]},
        "coefficients": {"tar": [[], []], "fev": [[[-0.2], [-0.3]], [[-0.1], [-0.4]]]},
        "variances": {"tar": [0.5, 1.0], "fev": [[0.3, 0.2], [0.4, 0.25]]},
    }
    args.update(change)
    with pytest.raises(ValueError, match=message):
        ConditionalGaussianNetwork(smoking.discrete_part, **args)


def test_generator_network_scores_its_own_samples_best():
    cg = make_conditional_gaussian(load_network("asia"), 0.5, random_state=0)
    other = make_conditional_gaussian(load_network("asia"), 0.5, random_state=1)
    X = cg.sample(5000, random_state=0)
    assert cg.continuous == ["bronc", "either", "xray", "dysp"]
    assert cg.log_likelihood(X).mean() > other.log_likelihood(X).mean()


def test_a_learned_mixed_network_is_conditional_gaussian():
    cg = make_conditional_gaussian(load_network("alarm"), 0.3, random_state=3)
    X = cg.sample(2000, random_state=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        learner = HillClimb().fit(X)
    network = learner.network_
    assert isinstance(network, ConditionalGaussianNetwork)
    assert network.nodes == list(X.columns)
    assert set(network.continuous) == set(cg.continuous)
    assert sorted(network.graph.edges) == sorted(learner.graph_.edges)
    held_out = cg.sample(500, random_state=9)
    np.testing.assert_allclose(
        network.log_likelihood(held_out), learner.score_samples(held_out), rtol=1e-10
    )
    # columns in another order give the same densities
    shuffled = held_out[held_out.columns[::-1]]
    np.testing.assert_allclose(network.log_likelihood(shuffled), network.log_likelihood(held_out))
    again = network.sample(300, random_state=0)
    assert list(again.columns) == list(X.columns)
    assert (again.dtypes == "float64").sum() == len(cg.continuous)
