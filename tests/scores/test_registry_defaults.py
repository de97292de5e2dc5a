# SPDX-License-Identifier: BSD-3-Clause
"""The score registry holds every choice of a score by data kind, for each purpose."""

import pytest

from skbn.datasets import load_network, make_linear_gaussian
from skbn.learners import HillClimb
from skbn.model_selection import auto_scorer
from skbn.scores._registry import SCORES


def test_held_out_defaults_are_the_registrys():
    assert SCORES.default("discrete", "held_out")[0] == "aic"
    assert SCORES.default("gaussian", "held_out")[0] == "bic"
    # a learner's own default is a separate purpose
    assert SCORES.default("discrete") == ("ebic", {"gamma": "auto"})
    with pytest.raises(ValueError, match="No default"):
        SCORES.default("discrete", "no such purpose")


def test_auto_scorer_scores_with_the_registrys_held_out_family():
    from skbn.model_selection import get_structure_scorer

    X = load_network("asia").sample(1000, random_state=0)
    learner = HillClimb().fit(X)
    assert auto_scorer(learner, X) == pytest.approx(get_structure_scorer("aic")(learner, X))
    net = make_linear_gaussian(load_network("asia").graph, random_state=0)
    Xg = net.sample(500, random_state=0)
    gaussian = HillClimb("bic-g").fit(Xg)
    assert auto_scorer(gaussian, Xg) == pytest.approx(get_structure_scorer("bic")(gaussian, Xg))
