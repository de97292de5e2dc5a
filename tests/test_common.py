# SPDX-License-Identifier: BSD-3-Clause
"""scikit-learn's estimator checks and skbn's own checks, on every learner."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from skbn.datasets import load_network
from skbn.utils.estimator_checks import check_structure_learner
from skbn.utils.testing import all_learners

LEARNERS = [cls(**params) for cls, params in all_learners()]

# Checks that cannot apply to a learner, as {check name: reason}; none so far. (Node names
# are needed even for arrays, so feature_names_in_ is x0, x1, ... after fitting an array;
# scikit-learn's current checks accept that.)
EXPECTED_FAILED: dict[str, str] = {}


def _expected_failed_checks(estimator):
    return EXPECTED_FAILED


@parametrize_with_checks(LEARNERS, expected_failed_checks=_expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.fixture(scope="module")
def asia():
    return load_network("asia").sample(1500, random_state=0)


@pytest.mark.parametrize("estimator", LEARNERS, ids=lambda e: type(e).__name__)
def test_skbn_learner_checks(estimator, asia):
    check_structure_learner(estimator, asia)


def test_all_learners_are_found():
    names = {cls.__name__ for cls, _ in all_learners()}
    assert {"FGES", "HillClimb", "TabuSearch", "PCStable", "MMHC", "BootstrapPosetLearner"} <= names
    assert np.all([name[0].isupper() for name in names])
