# SPDX-License-Identifier: BSD-3-Clause
"""Number columns as numbers: integer measurements, declared kinds, unseen values, blankets."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import Pipeline

from skbn._supervised import MAX_CATEGORY_VALUES, feature_kinds
from skbn.classification import BayesianNetworkClassifier
from skbn.feature_selection import MarkovBlanketSelector


def _integer_measurements(n=500, seed=0):
    # the reproducer: four noisy integer readings of one latent cause of the class
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    z = rng.normal(size=n)
    X = pd.DataFrame(
        {
            f"x{j}": np.round(100 + 8 * y + 10 * z + 10 * rng.normal(size=n)).astype(int)
            for j in range(4)
        }
    )
    return X, y


def test_the_rule_reads_many_whole_numbers_as_a_measurement():
    X = pd.DataFrame(
        {
            "age": np.arange(40) + 20,  # 40 integers: a measurement
            "grade": np.arange(40) % 4,  # 4 integers: categories
            "dose": np.linspace(0, 1, 40),  # floats: a measurement
            "coded": (np.arange(40) % 3).astype(float),  # whole floats in 3 values: codes
            "flag": np.arange(40) % 2 == 0,  # bool: always a category (not listed)
            "name": list("ab") * 20,  # text: always a category (not listed)
        }
    )
    assert feature_kinds(X) == (["age", "dose"], ["grade", "coded"])
    # a list (names, positions or a mask) names the categories; every other number is one
    assert feature_kinds(X, ["age"]) == (["grade", "dose", "coded"], ["age"])
    assert feature_kinds(X, [1]) == (["age", "dose", "coded"], ["grade"])
    assert feature_kinds(X, [False] * 5 + [True]) == (["age", "grade", "dose", "coded"], [])
    # the boundary of the rule
    edge = pd.DataFrame({"k": np.arange(60) % MAX_CATEGORY_VALUES})
    assert feature_kinds(edge) == ([], ["k"])
    assert feature_kinds(edge.assign(k=np.arange(60) % (MAX_CATEGORY_VALUES + 1))) == (["k"], [])


@pytest.mark.parametrize(
    "given, message",
    [
        (["nope"], "names \\['nope'\\], which are not columns"),
        ([7], "positions \\[7\\] outside the 2 features"),
        ([True], "boolean mask needs 2 entries"),
        ([[0]], "got an array of shape"),
    ],
)
def test_bad_categorical_features_are_refused_before_any_work(given, message):
    X = pd.DataFrame({"a": np.arange(30), "b": np.arange(30) % 2})
    with pytest.raises(ValueError, match=message):
        BayesianNetworkClassifier(categorical_features=given).fit(X, np.arange(30) % 2)


@pytest.mark.parametrize("structure", ["auto", "tan", "naive_bayes", "hill_climb"])
def test_integer_measurements_cross_validate_without_error(structure):
    # read as categories, three such features in a test row held unseen values and were
    # refused as "missing together"; inside cross_val_score that was a silent nan
    X, y = _integer_measurements()
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    clf = BayesianNetworkClassifier(structure, random_state=0)
    auc = cross_val_score(clf, X, y, cv=cv, scoring="roc_auc", error_score="raise")
    assert np.isfinite(auc).all() and auc.mean() > 0.55  # above chance
    loss = -cross_val_score(clf, X, y, cv=cv, scoring="neg_log_loss", error_score="raise")
    prior = log_loss(y, np.tile(np.bincount(y) / len(y), (len(y), 1)))
    if structure in ("auto", "hill_climb"):
        # a learned structure sees that the four readings repeat one cause; naive Bayes and
        # TAN multiply them as if independent, over-confident (as CategoricalNB would be)
        assert loss.mean() < prior


def test_an_integer_column_read_as_float_with_blanks_is_binned_the_same():
    X, y = _integer_measurements()
    holed = X.astype(float)
    holed.iloc[::7, 1] = np.nan  # what pandas reads from a CSV with blank cells
    clf = BayesianNetworkClassifier("naive_bayes").fit(X, y)
    clf_holed = BayesianNetworkClassifier("naive_bayes").fit(holed, y)
    # the same number columns, binned: prediction of a complete row is close, and the
    # integer frame is accepted by the model fitted on floats (and vice versa)
    assert list(clf._binning.columns) == list(clf_holed._binning.columns) == list(X.columns)
    np.testing.assert_allclose(clf_holed.predict_proba(X), clf_holed.predict_proba(X.astype(float)))
    assert np.abs(clf.predict_proba(X) - clf_holed.predict_proba(X)).max() < 0.2


def test_a_declared_category_keeps_a_state_per_value():
    X, y = _integer_measurements(200)
    clf = BayesianNetworkClassifier("naive_bayes", categorical_features=["x0"]).fit(X, y)
    assert clf._binning.columns == ["x1", "x2", "x3"]
    j = clf._names.index("x0")
    assert clf._arities[j] == X["x0"].nunique()  # one state per value, no binning
    # an unseen value of the category is marginalised, with a warning that names it
    test = X.head(2).assign(x0=[10_000, X["x0"].iloc[1]])
    with pytest.warns(UserWarning, match=r"'x0': \[10000\]"):
        proba = clf.predict_proba(test)
    expected = clf.predict_proba(X.head(2).assign(x0=np.nan).astype({"x0": float}))
    np.testing.assert_allclose(proba[0], expected[0])


def test_a_measurement_outside_the_training_range_falls_in_its_bin():
    X, y = _integer_measurements()
    clf = BayesianNetworkClassifier("tan").fit(X, y)
    far = X.head(3) + 10_000
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "unseen" warning: a number is never unseen
        high = clf.predict_proba(far)
    np.testing.assert_allclose(high, clf.predict_proba(pd.DataFrame([X.max()] * 3)))


def test_the_selector_never_hands_a_pipeline_zero_columns():
    # 60 rows of noise beside one weak signal: the search leaves the target alone
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(60, 3)), columns=["a", "b", "c"])
    y = pd.Series(rng.integers(0, 2, 60), name="outcome")
    X["a"] += 0.6 * y
    with pytest.warns(UserWarning, match="target 'outcome' has 0 feature.*\\['a'\\]"):
        selector = MarkovBlanketSelector().fit(X, y)
    assert list(selector.markov_blanket_) == [] and list(selector.selected_) == ["a"]
    assert list(selector.get_feature_names_out()) == ["a"]
    model = Pipeline([("mb", MarkovBlanketSelector()), ("lr", LogisticRegression())])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        scores = cross_val_score(model, X, y, cv=3, error_score="raise")
    assert np.isfinite(scores).all()
    # min_features=0 keeps the empty blanket empty, and says so
    with pytest.warns(UserWarning, match="is empty, so no feature is selected"):
        empty = MarkovBlanketSelector(min_features=0).fit(X, y)
    assert empty.selected_.size == 0


def test_warnings_name_the_callers_line():
    X = pd.DataFrame({"a": list("uv") * 20})
    clf = BayesianNetworkClassifier("naive_bayes").fit(X, [0, 1] * 20)
    with pytest.warns(UserWarning, match="not seen during fit") as caught:
        clf.predict_proba(pd.DataFrame({"a": ["w"]}))
    assert caught[0].filename == __file__


def test_the_discretizers_warnings_name_the_column_and_the_callers_line():
    # scikit-learn's "feature 1" is the second continuous column, which is the user's "b"
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=100), "b": np.r_[np.zeros(90), rng.normal(size=10)]})
    with pytest.warns(UserWarning, match="feature 1 is column 'b'") as caught:
        BayesianNetworkClassifier("naive_bayes").fit(X, rng.integers(0, 2, 100))
    assert {w.filename for w in caught if "column 'b'" in str(w.message)} == {__file__}


def test_tan_on_categories_and_measurements_kept_continuous_is_refused_before_work():
    # with discretizer=None, few-valued whole numbers are categories beside continuous
    # measurements; a tree over both kinds may need an arc a CG network cannot hold
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"grade": rng.integers(0, 3, 80).astype(float), "dose": rng.normal(size=80)})
    y = rng.integers(0, 2, 80)
    with pytest.raises(ValueError, match=r"categories: \['grade'\].*categorical_features=\[\]"):
        BayesianNetworkClassifier("tan", discretizer=None).fit(X, y)
    clf = BayesianNetworkClassifier("tan", discretizer=None, categorical_features=[]).fit(X, y)
    assert np.isfinite(clf.predict_proba(X)).all()
