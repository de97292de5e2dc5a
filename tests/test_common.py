# SPDX-License-Identifier: BSD-3-Clause
"""scikit-learn's estimator checks and skbn's own checks, on every learner and data kind.

Each learner runs twice where it can: as constructed for discrete data (categorical input,
so scikit-learn's checks feed integer codes) and set up for Gaussian data (its tags then say
so, and the checks feed floats). Gaussian-only learners (PEFLearner) run once, on floats.
"""

import inspect
import warnings

import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator
from sklearn.utils import get_tags
from sklearn.utils.estimator_checks import parametrize_with_checks
from sklearn.utils.fixes import parse_version

from skbn.datasets import load_network, make_problem
from skbn.utils.estimator_checks import check_structure_learner
from skbn.utils.testing import GAUSSIAN_EXPECTED_FAILURES, all_learners, gaussian_learners

LEARNERS = [cls(**params) for cls, params in all_learners()] + gaussian_learners()


def _searches(learner, grid):
    from skbn.model_selection import (
        InSampleSearchCV,
        InterValSearchCV,
        OCTSearchCV,
        OTSLRandomSearchCV,
        OTSLSearchCV,
        StARSSearchCV,
    )

    return [
        OTSLSearchCV(learner, grid, n_resamples=2, random_state=0),
        OTSLRandomSearchCV(learner, grid, n_iter=2, n_resamples=2, random_state=0),
        InSampleSearchCV(learner, grid),
        StARSSearchCV(learner, grid, n_subsamples=2, random_state=0),
        OCTSearchCV(learner, grid, cv=2, n_permutations=20, random_state=0),
        InterValSearchCV(learner, grid, sample_size=5, n_subsamples=2, random_state=0),
    ]


def _meta_estimators():
    from skbn.learners import HillClimb
    from skbn.scores import BIC, GaussianBIC

    grid = {"criterion__penalty_discount": [1, 2]}
    return _searches(HillClimb(BIC()), grid) + _searches(HillClimb(GaussianBIC()), grid)


#: The search meta-estimators, over a discrete and a Gaussian learner.
SEARCHES = _meta_estimators()


#: scikit-learn 1.6's own check casts the data to int32 codes for categorical estimators, then
#: subtracts a float mean in place, which numpy refuses (fixed in scikit-learn 1.7).
OLD_SKLEARN_FAILURES = (
    {"check_positive_only_tag_during_fit": "scikit-learn < 1.7 breaks on its own int32 cast"}
    if parse_version(sklearn.__version__) < parse_version("1.7")
    else {}
)


#: A learner for discrete data alone that declares allow_nan gets float codes from
#: scikit-learn, which this check then centres: the non-integer values are refused as not
#: discrete (they are not), while the check accepts only an error about negative values.
DISCRETE_ONLY_WITH_NAN = {
    "check_positive_only_tag_during_fit": "centred float codes are not discrete data, which "
    "this learner alone requires; it refuses them by name"
}


def _expected_failed_checks(estimator):
    # learners that learn from missing values declare allow_nan, so the checks feed them NaN
    # and expect it to be taken, not refused
    if not get_tags(estimator).input_tags.categorical:
        return dict(GAUSSIAN_EXPECTED_FAILURES)
    failures = dict(OLD_SKLEARN_FAILURES)
    kind = getattr(estimator, "_required_data_kind", lambda: None)()
    if kind == "discrete" and get_tags(estimator).input_tags.allow_nan:
        failures.update(DISCRETE_ONLY_WITH_NAN)
    return failures


def _id(estimator):
    kind = "categorical" if get_tags(estimator).input_tags.categorical else "gaussian"
    return f"{type(estimator).__name__}-{kind}"


def _checks():
    # scikit-learn before 1.7 hands pytest a generator, which pytest 9 deprecates: take the
    # marker apart and give pytest a list
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        marker = parametrize_with_checks(
            LEARNERS + SEARCHES, expected_failed_checks=_expected_failed_checks
        )
    names, values = marker.args[:2]
    return pytest.mark.parametrize(names, list(values), **marker.kwargs)


# scikit-learn's checks fit on a few rows (5 to 20), where a Gaussian graph with several
# parents rightly warns that the rows are too few for its parent sets
@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::skbn.data.FewRowsWarning")
# with allow_nan declared, scikit-learn hands categorical estimators float codes (to hold
# NaN); a learner whose criterion follows the data (the default) reads whole-number floats as
# continuous, as documented, and says so with this warning
@pytest.mark.filterwarnings("ignore::skbn.data.DataKindWarning")
@_checks()
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.fixture(scope="module")
def asia():
    return load_network("asia").sample(1500, random_state=0)


@pytest.fixture(scope="module")
def asia_gaussian():
    return make_problem("asia", n_samples=1500, random_state=0)[0]


@pytest.mark.parametrize("estimator", LEARNERS, ids=_id)
def test_skbn_learner_checks(estimator, asia, asia_gaussian):
    gaussian = not get_tags(estimator).input_tags.categorical
    check_structure_learner(estimator, asia_gaussian if gaussian else asia)


def test_every_learner_is_checked_on_each_kind_it_takes():
    names = {cls.__name__ for cls, _ in all_learners()}
    assert {
        "FGES",
        "HillClimb",
        "TabuSearch",
        "PCStable",
        "MMHC",
        "BootstrapPosetLearner",
        "PEFLearner",
    } <= names
    assert np.all([name[0].isupper() for name in names])
    gaussian = {type(e).__name__ for e in LEARNERS if not get_tags(e).input_tags.categorical}
    discrete_capable = names - {"PEFLearner", "AutoSLEEnsemble"}
    assert discrete_capable <= gaussian


def test_every_search_meta_estimator_is_checked():
    import skbn.model_selection as ms

    public = {
        name
        for name in ms.__all__
        if inspect.isclass(getattr(ms, name)) and issubclass(getattr(ms, name), BaseEstimator)
    }
    checked = {type(e).__name__ for e in SEARCHES}
    assert public <= checked, sorted(public - checked)
