# SPDX-License-Identifier: BSD-3-Clause
"""BayesianNetworkClassifier: exact posteriors, agreement with scikit-learn's naive Bayes,
scikit-learn's checks and the pipeline idioms."""

import itertools
import pickle

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.naive_bayes import CategoricalNB, GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import (
    FunctionTransformer,
    KBinsDiscretizer,
    StandardScaler,
)
from sklearn.utils.estimator_checks import parametrize_with_checks

from skbn._kernels.classify import Families, class_log_joint, class_log_joint_serial
from skbn.classification import BayesianNetworkClassifier
from skbn.datasets import load_network
from skbn.learners import PCStable, TabuSearch


@pytest.fixture(scope="module")
def asia():
    return load_network("asia").sample(3000, random_state=0)


@pytest.mark.slow
@parametrize_with_checks(
    [
        BayesianNetworkClassifier(),
        BayesianNetworkClassifier("naive_bayes"),
        BayesianNetworkClassifier("tan"),
        BayesianNetworkClassifier(discretizer=None),
        # PC's graphs can have no consistent DAG extension (this once failed the checks)
        BayesianNetworkClassifier(PCStable()),
    ]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_naive_bayes_at_maximum_likelihood_is_categorical_nb(asia):
    # the same model: class prior and per-class tables by counting, no smoothing
    X, y = asia.drop(columns="lung"), asia["lung"]
    codes = X.apply(lambda c: c.astype("category").cat.codes)
    ours = BayesianNetworkClassifier("naive_bayes", alpha=0).fit(codes, y)
    theirs = CategoricalNB(alpha=1e-10, force_alpha=True).fit(codes, y)
    assert list(ours.classes_) == list(theirs.classes_)
    np.testing.assert_allclose(ours.predict_proba(codes), theirs.predict_proba(codes), atol=1e-6)


def test_gaussian_naive_bayes_at_maximum_likelihood_is_gaussian_nb():
    X, y = load_iris(return_X_y=True, as_frame=True)
    ours = BayesianNetworkClassifier("naive_bayes", discretizer=None, alpha=0).fit(X, y)
    theirs = GaussianNB(var_smoothing=1e-12).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-6)


@pytest.mark.parametrize("structure", ["hill_climb", "tan", TabuSearch(), PCStable()])
def test_posterior_equals_the_full_joint_normalised(asia, structure):
    # the blanket shortcut and the kernel against the whole network's likelihood per class
    X, y = asia.drop(columns="either"), asia["either"]
    clf = BayesianNetworkClassifier(structure).fit(X, y)
    codes, _ = clf._encode(X)
    arities = clf._arities
    joint = np.empty((len(X), len(clf.classes_)))
    for c in range(len(clf.classes_)):
        codes[:, -1] = c
        joint[:, c] = clf.parameters_.log_likelihood_rows(codes, arities)
    expected = np.exp(joint - logsumexp(joint, axis=1, keepdims=True))
    np.testing.assert_allclose(clf.predict_proba(X), expected, atol=1e-10)


def test_parallel_kernel_equals_the_serial_one(asia):
    X, y = asia.drop(columns="either"), asia["either"]
    clf = BayesianNetworkClassifier("tan").fit(X, y)
    codes, _ = clf._encode(X)
    args = (codes, codes.shape[1] - 1, 2, clf._flat)
    np.testing.assert_array_equal(class_log_joint(*args), class_log_joint_serial(*args))


def test_the_blanket_is_what_prediction_reads(asia):
    X, y = asia.drop(columns="lung"), asia["lung"]
    clf = BayesianNetworkClassifier().fit(X, y)
    outside = [c for c in X.columns if c not in set(clf.markov_blanket_)]
    assert outside  # asia's lung has a blanket smaller than the other seven columns
    shuffled = X.copy()
    for c in outside:
        shuffled[c] = X[c].sample(frac=1, random_state=1).to_numpy()
    np.testing.assert_allclose(clf.predict_proba(shuffled), clf.predict_proba(X))
    # and the learned blanket of lung holds its true neighbours in asia's graph
    assert {"smoke", "either"} <= set(clf.markov_blanket_)


def test_labels_of_any_kind_and_multiclass():
    X, y = load_iris(return_X_y=True, as_frame=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    clf = BayesianNetworkClassifier().fit(X, names)
    assert list(clf.classes_) == ["setosa", "versicolor", "virginica"]
    assert set(clf.predict(X)) <= set(names)
    assert (clf.predict(X) == names).mean() > 0.85  # three classes: chance is 1/3
    flags = y.to_numpy() == 2
    assert BayesianNetworkClassifier().fit(X, flags).predict(X).dtype == bool


def test_pipeline_idioms():
    X, y = load_iris(return_X_y=True, as_frame=True)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    search = GridSearchCV(
        BayesianNetworkClassifier(),
        {"structure": ["naive_bayes", "tan", "hill_climb"]},
        scoring="neg_log_loss",
        cv=cv,
    ).fit(X, y)
    assert search.best_params_["structure"] in {"naive_bayes", "tan", "hill_climb"}
    scores = cross_val_score(make_pipeline(BayesianNetworkClassifier("tan")), X, y, cv=cv)
    assert scores.mean() > 0.85
    calibrated = CalibratedClassifierCV(BayesianNetworkClassifier("naive_bayes"), cv=3)
    proba = calibrated.fit(X, y).predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    fitted = BayesianNetworkClassifier().fit(X, y)
    again = pickle.loads(pickle.dumps(fitted))
    np.testing.assert_array_equal(again.predict_proba(X), fitted.predict_proba(X))


def test_bad_input_is_named(asia):
    X, y = asia.drop(columns="lung"), asia["lung"]
    clf = BayesianNetworkClassifier().fit(X, y)
    assert clf.predict(X.head(3)).shape == (3,)
    coded = X.apply(lambda c: c.cat.codes)  # integers where fit saw the states' names
    fitted = BayesianNetworkClassifier().fit(coded.astype(str), y)
    with pytest.raises(ValueError, match="the same text, another type"):
        fitted.predict(coded)
    rng = np.random.default_rng(0)
    floats = pd.DataFrame({"a": rng.normal(size=60), "b": rng.normal(size=60)})
    labels = np.arange(60) % 2
    floats.loc[3, "a"] = np.inf
    with pytest.raises(ValueError, match="infinity: column 'a'"):
        BayesianNetworkClassifier().fit(floats, labels)
    floats.loc[3, "a"] = np.nan  # a missing value in a binned feature is learned around
    assert BayesianNetworkClassifier().fit(floats, labels).predict(floats).shape == (60,)
    # kept continuous, a missing value is learned around and integrated out; infinity not
    assert BayesianNetworkClassifier(discretizer=None).fit(floats, labels).predict(
        floats
    ).shape == (60,)
    gaussian = BayesianNetworkClassifier(discretizer=None).fit(floats.fillna(0.2), labels)
    with pytest.raises(ValueError, match="infinity: column 'a' is continuous"):
        gaussian.predict(floats.fillna(np.inf))
    with pytest.raises(ValueError, match="structure"):
        BayesianNetworkClassifier(structure="forest").fit(X, y)


def test_a_value_impossible_under_every_class_is_left_out():
    # a continuous feature constant in training has no variance; another value at predict
    # time has density 0 under both classes, and must not turn the posterior into NaN
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    X = pd.DataFrame({"signal": y + rng.normal(0, 0.5, 200), "flat": np.zeros(200)})
    # every number column a measurement (by "auto", whole numbers in one value are a category)
    clf = BayesianNetworkClassifier("naive_bayes", discretizer=None, categorical_features=[]).fit(
        X, y
    )
    test = pd.DataFrame({"signal": [0.0, 1.0], "flat": [3.0, 3.0]})
    expected = clf.predict_proba(test.assign(flat=0.0))
    np.testing.assert_allclose(clf.predict_proba(test), expected)
    assert np.isfinite(expected).all()


def _brute_force(clf, codes, missing):
    # p(c | observed) by summing the whole network's joint over the missing features
    from itertools import product

    k = len(clf.classes_)
    out = np.zeros((len(codes), k))
    sizes = [clf._arities[m] for m in missing]
    for config in product(*(range(s) for s in sizes)):
        for c in range(k):
            full = codes.copy()
            full[:, missing] = config
            full[:, -1] = c
            out[:, c] += np.exp(clf.parameters_.log_likelihood_rows(full, clf._arities))
    return out / out.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("structure", ["hill_climb", "tan", "naive_bayes"])
def test_missing_and_unseen_values_are_marginalised_exactly(asia, structure):
    X, y = asia.drop(columns="either"), asia["either"]
    clf = BayesianNetworkClassifier(structure).fit(X, y)
    test = X.head(40).astype(object).copy()
    test.loc[test.index[:20], "lung"] = np.nan  # missing
    test.loc[test.index[10:30], "tub"] = "maybe"  # a category never seen
    test.loc[test.index[5:15], "smoke"] = None
    with pytest.warns(UserWarning, match=r"not seen during fit .*\('tub': \['maybe'\]\)"):
        proba = clf.predict_proba(test)
    np.testing.assert_array_equal(
        clf.set_params(handle_unknown="ignore").predict_proba(test), proba
    )
    with pytest.raises(ValueError, match=r"Categories not seen during fit \('tub': \['maybe'\]"):
        clf.set_params(handle_unknown="error").predict_proba(test)
    clf.set_params(handle_unknown="ignore")
    codes, _ = clf._encode(test)
    names = list(X.columns)
    for row in range(len(test)):
        missing = [j for j in range(len(names)) if codes[row, j] < 0]
        expected = _brute_force(clf, codes[[row]], missing)
        np.testing.assert_allclose(proba[row], expected[0], atol=1e-10)
    # a complete row is untouched, and a row with everything missing gets the class prior
    np.testing.assert_allclose(proba[30:], clf.predict_proba(X.head(40))[30:])
    empty = pd.DataFrame([[np.nan] * len(names)], columns=names).astype(object)
    prior = y.astype(str).value_counts(normalize=True).sort_index().to_numpy()
    np.testing.assert_allclose(clf.predict_proba(empty)[0], prior, atol=2e-3)


def test_a_missing_binned_feature_is_marginalised():
    X, y = load_iris(return_X_y=True, as_frame=True)
    clf = BayesianNetworkClassifier("naive_bayes").fit(X, y)
    test = X.head(5).copy()
    test.iloc[:, 0] = np.nan
    # naive Bayes: marginalising a feature is leaving it out
    rest = BayesianNetworkClassifier("naive_bayes").fit(X.iloc[:, 1:], y)
    np.testing.assert_allclose(clf.predict_proba(test), rest.predict_proba(X.head(5).iloc[:, 1:]))


def _joint_gaussian(clf, c, n_features):
    """Mean and covariance of the continuous features given class ``c``, built node by node
    in topological order (mean_j = a + b'mean_pa, cov_jk = b'cov_pa,k, var_j = s2 + b'cov b)."""
    import networkx as nx

    params = clf.parameters_
    codes = np.zeros((1, n_features + 1), dtype=np.int64)
    codes[0, -1] = c
    mean, cov = np.zeros(n_features), np.zeros((n_features, n_features))
    dag = nx.DiGraph([(int(u), j) for j, pa in enumerate(params.parents) for u in pa])
    dag.add_nodes_from(range(n_features + 1))
    for j in nx.topological_sort(dag):
        if j == n_features:
            continue
        a, beta, var = params.regression_rows(j, codes, clf._arities)
        pa = params.regressions[j].continuous_parents
        mean[j] = a[0] + beta[0] @ mean[pa]
        done = [k for k in range(n_features) if k != j]
        cov[j, done] = cov[done, j] = beta[0] @ cov[np.ix_(pa, done)]
        cov[j, j] = var[0] + beta[0] @ cov[np.ix_(pa, pa)] @ beta[0]
    return mean, cov


@pytest.mark.parametrize("structure", ["hill_climb", "tan", "naive_bayes"])
def test_missing_continuous_features_are_integrated_out(structure):
    # with discretizer=None the features are a Gaussian given the class; a missing feature
    # is integrated out: the posterior is p(c) N(x_obs; mean_c[obs], cov_c[obs, obs])
    from scipy.stats import multivariate_normal

    X, y = load_iris(return_X_y=True, as_frame=True)
    clf = BayesianNetworkClassifier(structure, discretizer=None).fit(X, y)
    test = X.iloc[::10].copy()
    rng = np.random.default_rng(0)
    for row in range(len(test)):
        drop = rng.choice(4, size=row % 4, replace=False)  # 0 to 3 features missing
        test.iloc[row, drop] = np.nan
    proba = clf.predict_proba(test)
    prior = np.exp(clf.parameters_.log_cpts[4][0])
    for row in range(len(test)):
        x = test.iloc[row].to_numpy()
        seen = np.flatnonzero(~np.isnan(x))
        dens = []
        for c in range(3):
            mean, cov = _joint_gaussian(clf, c, 4)
            dens.append(multivariate_normal(mean[seen], cov[np.ix_(seen, seen)]).pdf(x[seen]))
        expected = prior * np.array(dens)
        np.testing.assert_allclose(proba[row], expected / expected.sum(), rtol=1e-6, atol=1e-12)


def test_missing_continuous_values_are_learned_around():
    X, y = load_iris(return_X_y=True, as_frame=True)
    holed = X.copy()
    holed.iloc[::7, 1] = np.nan
    clf = BayesianNetworkClassifier("naive_bayes", discretizer=None, alpha=0).fit(holed, y)
    # naive Bayes: each feature's regression on the class from the rows observing it
    observed = holed.iloc[:, 1].notna()
    for c in range(3):
        rows = observed & (y == c)
        codes = np.zeros((1, 5), dtype=np.int64)
        codes[0, -1] = c
        a, _, var = clf.parameters_.regression_rows(1, codes, clf._arities)
        assert a[0] == pytest.approx(holed.iloc[:, 1][rows].mean())
        assert var[0] == pytest.approx(holed.iloc[:, 1][rows].var(ddof=0))
    with pytest.raises(ValueError, match="infinity"):
        clf.predict_proba(X.head(2).replace(X.iloc[0, 0], np.inf))


@pytest.mark.parametrize(
    "discretizer, message",
    [
        (KBinsDiscretizer(n_bins=3), "returned a sparse matrix"),
        (KBinsDiscretizer(n_bins=3, encode="onehot-dense"), r"shape \(150, \d+\) for 4"),
        (StandardScaler(), "for an observed value of column 'sepal length"),
        (FunctionTransformer(lambda a: a * np.nan), "returned nan for an observed value"),
    ],
)
def test_a_transformer_that_returns_no_bin_codes_is_refused(discretizer, message):
    # these were truncated to integer codes (or all NaN to one state) without a word
    X, y = load_iris(return_X_y=True, as_frame=True)
    with pytest.raises(ValueError, match=message):
        BayesianNetworkClassifier("naive_bayes", discretizer=discretizer).fit(X, y)


def test_the_discretizers_feature_positions_are_named():
    # the discretiser sees the continuous columns only: its "feature 1" is the user's "c"
    X = pd.DataFrame({"s": list("uv") * 20, "f": np.arange(40.0), "c": 1.5})
    with pytest.warns(UserWarning, match="feature 1 is column 'c'"):
        BayesianNetworkClassifier(
            "naive_bayes", discretizer=KBinsDiscretizer(3, encode="ordinal")
        ).fit(X, [0, 1] * 20)


def _iss_zero_data():
    # a = "v" only with class 0, b = "w" only with class 1: under maximum likelihood the row
    # (v, w) is impossible for both classes
    X = pd.DataFrame({"a": ["v", "u", "u", "u"] * 25, "b": ["x", "x", "w", "x"] * 25})
    return X, np.array([0, 1, 1, 0] * 25)


@pytest.mark.parametrize("structure", ["naive_bayes", "tan", "hill_climb"])
def test_iss_zero_gives_finite_probabilities(structure):
    # these were [[nan, nan]] and predict picked class 0
    X, y = _iss_zero_data()
    clf = BayesianNetworkClassifier(structure, alpha=0).fit(X, y)
    rows = pd.DataFrame({"a": ["v", "v", None], "b": ["w", "x", "w"]})
    proba = clf.predict_proba(rows)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    # (v, w): impossible together under both classes: the class frequencies (1/2, 1/2)
    np.testing.assert_allclose(proba[0], [0.5, 0.5])
    # (v, x): maximum likelihood says class 0 for sure (a = v is never seen with class 1)
    np.testing.assert_allclose(proba[1], [1.0, 0.0])
    scores = cross_val_score(
        BayesianNetworkClassifier(structure, alpha=0), X, y, cv=5, scoring="neg_log_loss"
    )
    assert np.isfinite(scores).all()


def test_iss_zero_naive_bayes_is_maximum_likelihood():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    X = pd.DataFrame({f"x{j}": (rng.random(300) < 0.3 + 0.4 * y).astype(int) for j in range(3)})
    clf = BayesianNetworkClassifier("naive_bayes", alpha=0).fit(X, y)
    row = X.iloc[:1]
    by_hand = np.array(
        [
            np.mean(y == c)
            * np.prod([np.mean(X[f"x{j}"][y == c] == row.iloc[0, j]) for j in range(3)])
            for c in (0, 1)
        ]
    )
    np.testing.assert_allclose(clf.predict_proba(row)[0], by_hand / by_hand.sum())


def test_a_family_impossible_under_every_class_is_left_out():
    # the kernel skips a family whose value is -inf for every class, as for any class
    codes = np.array([[0, 0, 0]])
    nodes = np.array([2, 0, 1])  # the class (2), then two children
    parent_ptr, parents = np.array([0, 0, 1, 2]), np.array([2, 2])
    strides = np.array([1, 1])
    class_table = np.log([0.25, 0.75])
    child0 = np.log([[0.2, 0.8], [0.6, 0.4]]).ravel()
    child1 = np.array([[-np.inf, 0.0], [-np.inf, 0.0]]).ravel()  # value 0: never seen
    tables = np.concatenate([class_table, child0, child1])
    table_ptr = np.array([0, 2, 6, 10])
    r = np.array([2, 2, 2])
    for kernel in (class_log_joint, class_log_joint_serial):
        families = Families(nodes, parent_ptr, parents, strides, table_ptr, tables, r)
        out = kernel(codes, 2, 2, families)
        np.testing.assert_allclose(out[0], np.log([0.25 * 0.2, 0.75 * 0.6]))


def test_missing_leaves_sum_out_without_enumeration():
    # naive Bayes: a missing feature is a leaf and sums to one, so the posterior with seven
    # of eight features missing is that of a model of the one observed feature, and with all
    # eight missing the class's own table; both were enumerated (390,625 configurations:
    # refused) before
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 400)
    X = pd.DataFrame({f"x{j}": (rng.integers(0, 5, 400) + y) % 5 for j in range(8)})
    clf = BayesianNetworkClassifier("naive_bayes").fit(X, y)
    one = BayesianNetworkClassifier("naive_bayes").fit(X[["x0"]], y)
    rows = X.iloc[:20].astype(float)
    rows.iloc[:, 1:] = np.nan
    np.testing.assert_allclose(clf.predict_proba(rows), one.predict_proba(X[["x0"]].iloc[:20]))
    rows.iloc[:, 0] = np.nan
    prior = np.exp(clf.parameters_.log_cpts[-1][0])
    np.testing.assert_allclose(clf.predict_proba(rows), np.tile(prior, (20, 1)))


def test_too_many_configurations_are_refused_before_any_row_is_summed(monkeypatch):
    # rows that observe only a feature with a feature parent must sum out that parent's six
    # states (a table of 12 with the class), over the (lowered) limit of 5; a summable
    # pattern comes first, and the
    # refusal must come before it is summed
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 500)
    X = pd.DataFrame({f"x{j}": rng.integers(0, 6, 500) for j in range(5)})
    clf = BayesianNetworkClassifier("tan").fit(X, y)
    child = next(v for v in X.columns if len(list(clf.graph_.predecessors(v))) == 2)
    rows = X.iloc[:4].astype(float)
    rows.iloc[0, :] = np.nan  # all missing: every feature barren, nothing to enumerate
    rows.loc[rows.index[1:], [c for c in X.columns if c != child]] = np.nan
    monkeypatch.setattr("skbn.classification.MAX_MISSING_CONFIGURATIONS", 5)
    summed = []
    for method in ("_summed", "_eliminated"):
        monkeypatch.setattr(clf, method, lambda *a, **k: summed.append(1))
    with pytest.raises(ValueError, match="joint configurations, more than 5"):
        clf.predict_proba(rows)
    assert summed == []


@pytest.mark.parametrize("structure", ["tan", "hill_climb"])
def test_missing_features_sum_out_as_the_brute_force_joint(structure):
    # every family's table, every configuration of a row's missing features: the posterior
    # by the definition, against the classifier's elimination
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 600)
    X = pd.DataFrame({"x0": (y + rng.integers(0, 2, 600)) % 3})
    for j in range(1, 5):
        X[f"x{j}"] = (X[f"x{j - 1}"] + y * (j % 2) + rng.integers(0, 2, 600)) % 3
    clf = BayesianNetworkClassifier(structure).fit(X, y)
    rows = X.iloc[:30].astype(float).mask(rng.random((30, 5)) < 0.5)
    params, names = clf.parameters_, [*X.columns, "class"]
    arities = [3] * 5 + [3]
    expected = np.zeros((30, 3))
    for i in range(30):
        row = rows.iloc[i]
        gone = [j for j in range(5) if np.isnan(row.iloc[j])]
        for config in itertools.product(range(3), repeat=len(gone)):
            x = [0 if np.isnan(v) else int(v) for v in row] + [0]
            for m, v in zip(gone, config):
                x[m] = v
            for c in range(3):
                x[5] = c
                log_p = 0.0
                for j in range(6):
                    pa = list(params.parents[j])
                    q = (
                        np.ravel_multi_index([x[u] for u in pa], [arities[u] for u in pa])
                        if pa
                        else 0
                    )
                    log_p += params.log_cpts[j][q, x[j]]
                expected[i, c] += np.exp(log_p)
    expected /= expected.sum(axis=1, keepdims=True)
    assert names[-1] == "class"
    np.testing.assert_allclose(clf.predict_proba(rows), expected, rtol=1e-10)


def test_the_column_order_does_not_change_continuous_predictions():
    # BOSS finds the same CPDAG for any column order; its DAG extension (and so the Gaussian
    # parameters) once followed the column order and moved predict_proba by up to 0.0095
    from sklearn.datasets import load_wine

    X, y = load_wine(return_X_y=True, as_frame=True)
    fit = lambda cols: BayesianNetworkClassifier(discretizer=None, random_state=0).fit(  # noqa: E731
        X[cols], y
    )
    base = fit(list(X.columns))
    rng = np.random.default_rng(0)
    for _ in range(3):
        cols = list(rng.permutation(X.columns))
        other = fit(cols)
        assert set(other.graph_.edges) == set(base.graph_.edges)
        np.testing.assert_allclose(
            other.predict_proba(X[cols]), base.predict_proba(X), rtol=0, atol=1e-12
        )
