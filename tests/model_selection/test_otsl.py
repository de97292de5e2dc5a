# SPDX-License-Identifier: BSD-3-Clause
import networkx as nx
import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import KBinsDiscretizer

from skbn.datasets import load_network, make_problem
from skbn.graph import to_dag
from skbn.learners import FGES, HillClimb, PCStable
from skbn.metrics import f1_adjacency
from skbn.model_selection import (
    InSampleSearchCV,
    OTSLRandomSearchCV,
    OTSLSearchCV,
    OutOfSampleBootstrap,
    StARSSearchCV,
    aic_scorer,
    auto_scorer,
    bdeu_scorer,
    bic_scorer,
    ebic_scorer,
    make_structure_scorer,
    make_truth_scorer,
)
from skbn.scores import AIC, BIC, EBIC, BDeu, GaussianBIC, GaussianEBIC
from skbn.utils.testing import fixed_graph_learner


@pytest.fixture(scope="module")
def asia():
    bn = load_network("asia")
    return bn, bn.sample(1500, random_state=0)


def test_out_of_sample_bootstrap_follows_the_paper():
    X = np.zeros((1000, 3))
    splits = list(OutOfSampleBootstrap(n_resamples=10, random_state=1).split(X))
    assert len(splits) == 10
    for train, test in splits:
        assert len(train) == 900 and len(test) == 100
        assert not set(train) & set(test)  # test rows never drawn for training
        assert len(set(train)) < 900  # drawn with replacement
    again = list(OutOfSampleBootstrap(n_resamples=10, random_state=1).split(X))
    assert all(
        np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) for a, b in zip(splits, again)
    )
    with pytest.raises(ValueError, match="n_resamples"):
        list(OutOfSampleBootstrap(n_resamples=0).split(X))


def test_splitter_works_in_sklearns_grid_search(asia):
    _, X = asia
    search = GridSearchCV(
        HillClimb(BDeu()),
        {"criterion__iss": [1, 10]},
        cv=OutOfSampleBootstrap(3, random_state=0),
        scoring=bdeu_scorer,
    )
    search.fit(X)
    assert search.n_splits_ == 3 and search.best_params_["criterion__iss"] in (1, 10)


def test_scorers_score_the_structure_on_held_out_data(asia):
    bn, X = asia
    test = X.iloc[:300]
    est = HillClimb(EBIC(gamma=0.7)).fit(X.iloc[300:])
    assert ebic_scorer(est, test) == pytest.approx(EBIC(gamma=0.7).score_graph(est.graph_, test))
    other = HillClimb(BIC()).fit(X.iloc[300:])
    assert ebic_scorer(other, test) == pytest.approx(EBIC(gamma=0).score_graph(other.graph_, test))
    assert bdeu_scorer(HillClimb(BDeu(iss=7)).fit(X), test) == pytest.approx(
        BDeu(iss=7).score_graph(HillClimb(BDeu(iss=7)).fit(X).graph_, test)
    )
    assert bdeu_scorer(other, test) == pytest.approx(BDeu(iss=1).score_graph(other.graph_, test))
    fixed = make_structure_scorer(EBIC(gamma=0.3, base="aic"))
    assert fixed(other, test) == pytest.approx(
        EBIC(gamma=0.3, base="aic").score_graph(other.graph_, test)
    )


def test_cpdags_are_scored_through_an_extension_and_pdags_without_one_give_nan():
    Xg, truth = make_problem("asia", n_samples=3000, random_state=0)
    fges = FGES(GaussianEBIC(gamma=0.2)).fit(Xg)
    assert ebic_scorer(fges, Xg) == pytest.approx(
        GaussianEBIC(gamma=0.2).score_graph(to_dag(fges.graph_), Xg)
    )
    cycle = nx.DiGraph(kind="pdag")
    cycle.add_nodes_from(Xg.columns)
    for u, v in [("asia", "tub"), ("tub", "either"), ("either", "lung"), ("lung", "asia")]:
        cycle.add_edge(u, v)
        cycle.add_edge(v, u)
    stub = fixed_graph_learner(cycle).fit(Xg)
    assert np.isnan(bic_scorer(stub, Xg))


def test_normalised_ebic_reads_the_configurations_penalty(asia):
    from skbn.model_selection import make_normalised_ebic_scorer
    from skbn.scores import AIC

    _, X = asia
    est = HillClimb(AIC(penalty_discount=11)).fit(X)
    scorer = make_normalised_ebic_scorer(20)
    assert scorer(est, X) == pytest.approx(EBIC(gamma=0.5, base="aic").score_graph(est.graph_, X))
    fges = FGES(penalty_discount=3).fit(X)
    assert scorer(fges, X) == pytest.approx(
        EBIC(gamma=0.1, base="aic").score_graph(to_dag(fges.graph_), X)
    )


def test_truth_scorers(asia):
    bn, X = asia
    est = fixed_graph_learner(bn.graph).fit(X)
    assert make_truth_scorer(bn.graph, "f1")(est, X) == 1.0
    assert make_truth_scorer(bn.graph, "shd")(est, X) == 0.0
    with pytest.raises(ValueError, match="metric must be"):
        make_truth_scorer(bn.graph, "auc")


def test_otsl_picks_the_best_mean_over_the_same_resamples(asia):
    _, X = asia
    grid = {"criterion__gamma": [0.0, 0.5, 2.0]}
    search = OTSLSearchCV(HillClimb(EBIC()), grid, n_resamples=4, random_state=3).fit(X)
    # recompute over the same splits, each held-out structure scored by the default (AIC on
    # discrete data)
    means = []
    for gamma in grid["criterion__gamma"]:
        values = []
        for train, test in OutOfSampleBootstrap(4, random_state=3).split(X):
            est = HillClimb(EBIC(gamma=gamma)).fit(X.iloc[train])
            values.append(aic_scorer(est, X.iloc[test]))
        means.append(np.mean(values))
    np.testing.assert_allclose(search.cv_results_["mean_test_score"], means)
    assert search.best_index_ == int(np.argmax(means))
    assert search.best_score_ == pytest.approx(max(means))
    assert set(search.graph_.edges()) == set(search.best_estimator_.graph_.edges())


def test_ties_go_to_the_first_configuration(asia):
    bn, X = asia
    stub = fixed_graph_learner(bn.graph)
    search = OTSLSearchCV(stub, {"level": [5, 1, 3]}, n_resamples=3, random_state=0).fit(X)
    assert search.best_params_ == {"level": 5}
    assert list(search.cv_results_["rank_test_score"]) == [1, 1, 1]


def test_nan_splits_are_left_out_of_the_mean():
    Xg, _ = make_problem("asia", n_samples=600, random_state=0)
    cycle = nx.DiGraph(kind="pdag")
    cycle.add_nodes_from(Xg.columns)
    for u, v in [("asia", "tub"), ("tub", "either"), ("either", "lung"), ("lung", "asia")]:
        cycle.add_edge(u, v)
        cycle.add_edge(v, u)
    search = OTSLSearchCV(
        fixed_graph_learner(cycle),
        {"level": [0]},
        scoring="bic",
        n_resamples=3,
        random_state=0,
        refit=False,
    )
    with pytest.warns(UserWarning, match="1 of 1 configuration\\(s\\) had fewer than 2"):
        search.fit(Xg)
    assert np.isnan(search.cv_results_["mean_test_score"][0])
    assert search.cv_results_["n_finite_splits"][0] == 0

    calls = []

    def flaky(estimator, X, y=None):  # NaN on the first split only
        calls.append(1)
        return float("nan") if len(calls) == 1 else 5.0

    search = OTSLSearchCV(
        HillClimb(),
        {"max_indegree": [1]},
        scoring=flaky,
        n_resamples=3,
        random_state=0,
        refit=False,
    ).fit(Xg)
    assert search.cv_results_["n_finite_splits"][0] == 2
    assert search.best_score_ == 5.0


def test_determinism_and_parallelism(asia):
    _, X = asia
    grid = {"criterion__iss": [1, 5, 20]}
    a = OTSLSearchCV(HillClimb(BDeu()), grid, scoring="bdeu", n_resamples=3, random_state=7)
    b = clone(a).set_params(n_jobs=2)
    a.fit(X)
    b.fit(X)
    np.testing.assert_allclose(a.cv_results_["mean_test_score"], b.cv_results_["mean_test_score"])
    assert a.best_params_ == b.best_params_


def test_error_score_and_bad_parameters(asia):
    _, X = asia
    bad = {"criterion": [GaussianEBIC()]}  # needs continuous data: every fit fails
    with pytest.raises(ValueError, match="needs gaussian data"):
        OTSLSearchCV(HillClimb(), bad, n_resamples=2, error_score="raise", random_state=0).fit(X)
    from sklearn.exceptions import FitFailedWarning

    search = OTSLSearchCV(
        HillClimb(), {"criterion": [GaussianEBIC(), BIC()]}, n_resamples=2, random_state=0
    )
    with pytest.warns((FitFailedWarning, UserWarning)):
        search.fit(X)
    assert isinstance(search.best_params_["criterion"], BIC)
    assert np.isnan(search.cv_results_["mean_test_score"][0])
    with pytest.raises(ValueError, match="scoring must be one of"):
        OTSLSearchCV(HillClimb(), {"max_indegree": [1]}, scoring="auc").fit(X)


def test_pipeline_with_discretisation():
    Xg, truth = make_problem("asia", n_samples=1000, random_state=0)
    pipe = make_pipeline(
        KBinsDiscretizer(n_bins=3, encode="ordinal", strategy="uniform").set_output(
            transform="pandas"
        ),
        HillClimb(BDeu()),
    )
    search = OTSLSearchCV(
        pipe, {"hillclimb__criterion__iss": [1, 10]}, scoring="bdeu", n_resamples=2, random_state=0
    )
    Xi = search.fit(Xg.astype(float))
    assert Xi.graph_.number_of_nodes() == 8


def test_random_search_and_in_sample_baseline(asia):
    _, X = asia
    rnd = OTSLRandomSearchCV(
        HillClimb(EBIC()),
        {"criterion__gamma": [0, 0.5, 1, 2]},
        n_iter=2,
        n_resamples=2,
        random_state=0,
    ).fit(X)
    assert len(rnd.cv_results_["params"]) == 2
    ins = InSampleSearchCV(PCStable(), {"alpha": [0.001, 0.05]}, scoring="bic").fit(X)
    assert ins.n_splits_ == 1 and "alpha" in ins.best_params_


def test_stars_picks_the_densest_stable_configuration(asia):
    _, X = asia
    stars = StARSSearchCV(
        PCStable(), {"alpha": [0.0001, 0.01, 0.2, 0.5]}, beta=0.05, n_subsamples=6, random_state=0
    ).fit(X)
    res = stars.cv_results_
    order = np.argsort(res["mean_n_edges"], kind="stable")
    assert np.all(np.diff(res["monotone_instability"][order]) >= 0)
    stable = [k for k in order if res["monotone_instability"][k] <= 0.05]
    assert stars.best_index_ == stable[-1]
    assert set(stars.graph_.edges()) == set(stars.best_estimator_.graph_.edges())


def test_otsl_under_a_dask_cluster_matches_serial(asia):
    distributed = pytest.importorskip("dask.distributed", reason="dask is in the test extra")
    import joblib

    _, X = asia
    grid = {"criterion__iss": [1, 10]}
    serial = OTSLSearchCV(
        HillClimb(BDeu()), grid, scoring="bdeu", n_resamples=2, random_state=0
    ).fit(X)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster),
        joblib.parallel_backend("dask"),
    ):
        spread = OTSLSearchCV(
            HillClimb(BDeu()), grid, scoring="bdeu", n_resamples=2, random_state=0, n_jobs=-1
        ).fit(X)
    assert spread.best_params_ == serial.best_params_
    np.testing.assert_allclose(
        spread.cv_results_["mean_test_score"], serial.cv_results_["mean_test_score"]
    )


def test_search_is_clonable_with_nested_parameters(asia):
    search = OTSLSearchCV(HillClimb(EBIC(gamma=0.1)), {"criterion__gamma": [0]})
    params = clone(search).get_params()
    assert params["estimator__criterion__gamma"] == 0.1 and params["n_resamples"] == 10
    assert "cv" not in params
    assert isinstance(
        pd.DataFrame(
            OTSLSearchCV(HillClimb(), {"max_indegree": [1]}, n_resamples=2, random_state=0)
            .fit(asia[1])
            .cv_results_
        ),
        pd.DataFrame,
    )


def test_search_exposes_the_refitted_network(asia):
    _, X = asia
    search = OTSLSearchCV(
        HillClimb(BIC()), {"criterion__penalty_discount": [1, 2]}, n_resamples=2, random_state=0
    ).fit(X)
    net = search.network_
    assert {(u, v) for v in net.nodes for u in net.parents[v]} == set(search.graph_.edges)
    np.testing.assert_allclose(net.log_likelihood(X), search.best_estimator_.score_samples(X))


@pytest.mark.parametrize("search_class", ["OTSLSearchCV", "StARSSearchCV"])
def test_bad_candidates_and_data_are_refused_before_any_fit(search_class, asia, monkeypatch):
    import scipy.sparse as sp

    import skbn.model_selection._base_search as base_search
    from skbn import model_selection

    def no_fits(*args, **kwargs):  # pragma: no cover - reached only on the old behaviour
        raise AssertionError("a fit ran before the input was checked")

    # every search's fits go through the search base (StARS and OCT included)
    monkeypatch.setattr(base_search, "run_fits", no_fits)
    _, X = asia
    cls = getattr(model_selection, search_class)
    grid = {"criterion__penalty_discount": [1.0, -1.0]}
    with pytest.raises(ValueError, match="candidate .*-1.0.* is invalid, so no fit was run"):
        cls(HillClimb(BIC()), grid).fit(X)
    with pytest.raises(TypeError, match="Sparse data"):
        cls(HillClimb(BIC()), {"criterion__penalty_discount": [1, 2]}).fit(
            sp.csr_matrix(np.ones((50, 3)))
        )
    holed = X.astype(object)
    holed.iloc[3, 0] = None
    with pytest.raises(ValueError, match="missing values"):
        cls(HillClimb(BIC()), {"criterion__penalty_discount": [1, 2]}).fit(holed)


def _hand_bic(pairs, n_states_a, n_states_b):
    """BIC of a -> b counted by hand: sum N log(N / N_parent) per table, minus the penalty."""
    from collections import Counter

    n = len(pairs)
    ll = 0.0
    count_a = Counter(a for a, _ in pairs)
    for c in count_a.values():
        ll += c * np.log(c / n)
    for (a, _), c in Counter(pairs).items():
        ll += c * np.log(c / count_a[a])
    k = (n_states_a - 1) + n_states_a * (n_states_b - 1)
    return ll - np.log(n) / 2 * k


@pytest.mark.parametrize("as_strings", [False, True])
def test_held_out_scores_are_hand_counts_with_the_fit_time_levels(as_strings):
    # the fit sees three levels of a; the held-out rows hold only two of them, yet the
    # parameter count uses three, whatever the column type
    train = pd.DataFrame({"a": list("xyzxyzxx"), "b": list("uvuvuvvu")})
    test = pd.DataFrame({"a": list("xyxyxxyy"), "b": list("uuvvuvuv")})
    if not as_strings:
        train = train.astype("category")
        test = test.astype({"a": pd.CategoricalDtype(list("xyz")), "b": "category"})
    learner = fixed_graph_learner(nx.DiGraph([("a", "b")], kind="dag")).fit(train)
    expected = _hand_bic(list(zip(test.a, test.b)), 3, 2)
    assert bic_scorer(learner, test) == pytest.approx(expected, rel=1e-12)


def test_the_default_scoring_is_aic_on_discrete_and_bic_on_continuous_data(asia):
    bn, X = asia
    hc = HillClimb().fit(X.iloc[:1000])
    assert auto_scorer(hc, X.iloc[1000:]) == AIC().score_graph(hc.graph_, X.iloc[1000:])
    assert auto_scorer(hc, X.iloc[1000:]) != BIC().score_graph(hc.graph_, X.iloc[1000:])
    Xg, _ = make_problem("asia", n_samples=500, random_state=0)
    fges = FGES().fit(Xg.iloc[:400])
    expected = GaussianBIC().score_graph(to_dag(fges.graph_), Xg.iloc[400:])
    assert auto_scorer(fges, Xg.iloc[400:]) == pytest.approx(expected, rel=1e-12)


def test_the_default_scoring_tunes_gamma_where_a_sparser_graph_is_closer_to_the_truth():
    # ALARM, n = 10,000, from an over-fitting AIC start: one held-out score common to every
    # configuration picks gamma > 0, and that graph is closer to the true one than gamma = 0's
    bn = load_network("alarm")
    X = bn.sample(10000, random_state=0)
    learner = HillClimb(EBIC(gamma=0.0, base="aic"))
    grid = {"criterion__gamma": [0.0, 0.5, 1.0]}
    search = OTSLSearchCV(learner, grid, n_resamples=3, random_state=0).fit(X)
    assert search.best_params_["criterion__gamma"] > 0
    means = search.cv_results_["mean_test_score"]
    assert means[search.best_index_] > means[0]
    start = clone(learner).fit(X)
    assert f1_adjacency(bn.graph, search.graph_) > f1_adjacency(bn.graph, start.graph_) + 0.05


def test_scoring_each_configuration_with_its_own_gamma_prefers_gamma_zero():
    # the audit's finding: on ALARM at n = 10,000 a common held-out score picks gamma > 0,
    # scoring each configuration with its own gamma picks gamma = 0
    X = load_network("alarm").sample(10000, random_state=0)
    grid = {"criterion__gamma": [0, 0.5, 1, 2]}
    common = OTSLSearchCV(HillClimb(EBIC()), grid, scoring="bic", n_resamples=3, random_state=0)
    assert common.fit(X).best_params_["criterion__gamma"] > 0
    own = OTSLSearchCV(HillClimb(EBIC()), grid, scoring="ebic", n_resamples=3, random_state=0)
    assert own.fit(X).best_params_["criterion__gamma"] == 0


@pytest.mark.slow
def test_the_default_scoring_tunes_gaussian_ebic():
    # linear-Gaussian copies of ALARM (111 variables, n = 1,000): GaussianEBIC with gamma = 0
    # over-fits, the default held-out score (GaussianBIC) picks a larger gamma, closer to truth
    X, truth = make_problem("alarm", n_nodes=100, n_samples=1000, random_state=0)
    learner = FGES(GaussianEBIC(gamma=0.0))
    grid = {"criterion__gamma": [0.0, 0.5, 1.0]}
    search = OTSLSearchCV(learner, grid, n_resamples=5, random_state=0).fit(X)
    assert search.best_params_["criterion__gamma"] > 0
    start = clone(learner).fit(X)
    assert f1_adjacency(truth, search.graph_) > f1_adjacency(truth, start.graph_) + 0.03


def test_grid_search_with_the_splitter_agrees_with_otsl_that_ranks_only_all_finite(asia):
    # scikit-learn averages a NaN split into a NaN mean and ranks it last; OTSLSearchCV does the
    # same with min_finite_fraction=1 (and leaves NaN splits out of the mean below that)
    bn, X = asia

    def count(rows):  # a fact of the held-out rows, whatever their index
        return int((rows["bronc"].astype(str) == str(X["bronc"].iloc[0])).sum())

    def scorer(estimator, rows, y=None):
        assert isinstance(rows, pd.DataFrame)  # a user's scorer gets a DataFrame
        if estimator.level == 1 and count(rows) % 2 == 0:
            return float("nan")
        return count(rows) / 1000 - estimator.level

    grid = {"level": [1, 2, 3]}
    splitter = OutOfSampleBootstrap(4, random_state=0)
    parities = [count(X.iloc[test]) % 2 for _, test in splitter.split(X)]
    assert 0 in parities and 1 in parities  # level 1 has both NaN and finite splits
    learner = fixed_graph_learner(bn.graph)
    with pytest.warns(UserWarning, match="non-finite"):
        sk = GridSearchCV(learner, grid, scoring=scorer, cv=splitter, refit=False).fit(X)
    with pytest.warns(UserWarning, match="fewer than"):
        otsl = OTSLSearchCV(
            learner,
            grid,
            scoring=scorer,
            n_resamples=4,
            random_state=0,
            refit=False,
            min_finite_fraction=1.0,
        ).fit(X)
    np.testing.assert_array_equal(
        sk.cv_results_["mean_test_score"], otsl.cv_results_["mean_test_score"]
    )
    np.testing.assert_array_equal(
        sk.cv_results_["rank_test_score"], otsl.cv_results_["rank_test_score"]
    )
    assert sk.best_index_ == otsl.best_index_ == 1
    lenient = OTSLSearchCV(
        learner,
        grid,
        scoring=scorer,
        n_resamples=4,
        random_state=0,
        refit=False,
        min_finite_fraction=0.0,
    ).fit(X)
    assert lenient.best_index_ == 0  # level 1's finite splits are averaged and it wins
