# SPDX-License-Identifier: BSD-3-Clause
"""Parameters on a given graph: hand-computed tables, pgmpy's estimators, Gaussian regressions."""

import warnings

import numpy as np
import pandas as pd
import pytest

from skbn import FGES, HillClimb, PCStable
from skbn.datasets import load_network, make_erdos_renyi_dag, make_linear_gaussian
from skbn.parameters import ParameterLearner, fit_network

with warnings.catch_warnings():  # pgmpy announces its own deprecations on import
    warnings.simplefilter("ignore", FutureWarning)
    estimators = pytest.importorskip("pgmpy.estimators")
    pgmpy_models = pytest.importorskip("pgmpy.models")

TINY = pd.DataFrame(
    {
        "a": ["x", "x", "y", "y", "y", "x"],
        "b": ["u", "v", "v", "v", "u", "v"],
    }
)


def _graph(*arcs, nodes=("a", "b")):
    import networkx as nx

    g = nx.DiGraph(kind="dag")
    g.add_nodes_from(nodes)
    g.add_edges_from(arcs)
    return g


def test_hand_computed_tables():
    g = _graph(("a", "b"))
    mle = fit_network(g, TINY, method="mle")
    # a: x 3, y 3; b | a=x: u 1, v 2; b | a=y: u 1, v 2
    np.testing.assert_allclose(mle.cpts["a"], [0.5, 0.5])
    np.testing.assert_allclose(mle.cpts["b"], [[1 / 3, 2 / 3], [1 / 3, 2 / 3]])
    bayes = fit_network(g, TINY, equivalent_sample_size=4.0)
    # BDeu prior: 4 / (q r) per cell; for b: q = 2, r = 2 -> 1 per cell
    np.testing.assert_allclose(bayes.cpts["b"], [[2 / 5, 3 / 5], [2 / 5, 3 / 5]])
    np.testing.assert_allclose(bayes.cpts["a"], [(3 + 2) / 10, (3 + 2) / 10])
    assert bayes.states["b"] == ("u", "v")


def test_mle_gives_a_uniform_row_to_an_unseen_configuration():
    X = pd.DataFrame({"a": pd.Categorical(["x", "x"], categories=["x", "y"]), "b": ["u", "v"]})
    net = fit_network(_graph(("a", "b")), X, method="mle")
    np.testing.assert_allclose(net.cpts["b"][1], [0.5, 0.5])
    np.testing.assert_allclose(net.cpts["a"], [1.0, 0.0])


@pytest.mark.parametrize("method", ["mle", "bayes"])
def test_same_tables_as_pgmpy(method):
    alarm = load_network("alarm")
    X = alarm.sample(3000, random_state=0)
    net = fit_network(alarm.graph, X, method=method, equivalent_sample_size=5.0)
    model = pgmpy_models.DiscreteBayesianNetwork(list(alarm.graph.edges))
    model.add_nodes_from(alarm.nodes)
    frame = X.astype(str)
    names = {v: list(alarm.states[v]) for v in alarm.nodes}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method == "mle":
            est = estimators.MaximumLikelihoodEstimator(model, frame, state_names=names)
            cpds = {v: est.estimate_cpd(v) for v in alarm.nodes}
        else:
            est = estimators.BayesianEstimator(model, frame, state_names=names)
            cpds = {
                v: est.estimate_cpd(v, prior_type="BDeu", equivalent_sample_size=5.0)
                for v in alarm.nodes
            }
    rng = np.random.default_rng(0)
    checked = 0
    for v in alarm.nodes:
        table = net.cpts[v]
        for _ in range(4):
            index = tuple(int(rng.integers(k)) for k in table.shape)
            config = {u: net.states[u][k] for u, k in zip(net.parents[v], index[:-1])}
            seen = (X[list(config)] == pd.Series(config)).all(axis=1).any() if config else True
            if method == "mle" and not seen:
                continue  # pgmpy and skbn differ only in how they fill unseen rows
            got = cpds[v].get_value(**{v: net.states[v][index[-1]], **config})
            assert table[index] == pytest.approx(got, abs=1e-12), (v, config)
            checked += 1
    assert checked > 100


def test_learner_network_matches_its_score_samples():
    X = load_network("asia").sample(4000, random_state=1)
    hc = HillClimb().fit(X)
    net = hc.network_
    assert net.name == "HillClimb"
    np.testing.assert_allclose(net.log_likelihood(X), hc.score_samples(X), rtol=1e-12)
    assert {(u, v) for v in net.nodes for u in net.parents[v]} == set(hc.graph_.edges)


def _extensions(cpdag):
    """Every DAG in the equivalence class of ``cpdag``, by trying each orientation."""
    import itertools

    import networkx as nx

    from skbn.graph import dag_to_cpdag

    undirected = sorted({tuple(sorted(e)) for e in cpdag.edges if cpdag.has_edge(*e[::-1])})
    directed = [e for e in cpdag.edges if not cpdag.has_edge(*e[::-1])]
    target = set(cpdag.edges)
    for flips in itertools.product([False, True], repeat=len(undirected)):
        g = nx.DiGraph(kind="dag")
        g.add_nodes_from(cpdag.nodes)
        g.add_edges_from(directed)
        g.add_edges_from((v, u) if f else (u, v) for (u, v), f in zip(undirected, flips))
        if nx.is_directed_acyclic_graph(g) and set(dag_to_cpdag(g).edges) == target:
            yield g


def test_cpdag_extensions_have_the_same_likelihood():
    X = load_network("asia").sample(4000, random_state=2)
    pc = PCStable().fit(X)
    assert pc.graph_.graph["kind"] == "cpdag"
    dags = list(_extensions(pc.graph_))
    assert len(dags) >= 2
    mle = [fit_network(g, X, method="mle").log_likelihood(X).sum() for g in dags]
    np.testing.assert_allclose(mle, mle[0], rtol=1e-10)  # the likelihood is score-equivalent
    # the learner's own network is one of them
    own = pc.network_
    arcs = {(u, v) for v in own.nodes for u in own.parents[v]}
    assert any(arcs == set(g.edges) for g in dags)
    assert fit_network(pc.graph_, X, method="mle").log_likelihood(X).sum() == pytest.approx(
        mle[0], rel=1e-10
    )


def test_gaussian_parameters_match_least_squares():
    from sklearn.linear_model import LinearRegression

    dag = make_erdos_renyi_dag(6, 8, random_state=3)
    X = make_linear_gaussian(dag, random_state=3).sample(3000, random_state=4) + 2.0
    net = fit_network(dag, X, method="mle")
    bayes = fit_network(dag, X)  # the same regressions, the variance with one prior row
    n = len(X)
    for j, v in enumerate(net.nodes):
        pa = list(net.parents[v])
        column_var = X[v].var(ddof=0)
        if not pa:
            assert net.intercepts[j] == pytest.approx(X[v].mean())
            assert net.noise_std[j] ** 2 == pytest.approx(column_var, rel=1e-8)
            continue
        reg = LinearRegression().fit(X[pa], X[v])
        W = net.weights
        coef = W.data[W.indptr[j] : W.indptr[j + 1]]
        np.testing.assert_allclose(coef, reg.coef_, rtol=1e-8)
        assert net.intercepts[j] == pytest.approx(reg.intercept_, rel=1e-8)
        resid = X[v] - reg.predict(X[pa])
        ml_var = np.mean(resid**2)
        assert net.noise_std[j] == pytest.approx(np.sqrt(ml_var), rel=1e-8)
        assert bayes.intercepts[j] == pytest.approx(net.intercepts[j], rel=1e-12)
        assert bayes.noise_std[j] ** 2 == pytest.approx((n * ml_var + column_var) / (n + 1))
    fges = FGES().fit(X)
    np.testing.assert_allclose(fges.network_.log_likelihood(X), fges.score_samples(X))
    sample = net.sample(20000, random_state=0)
    np.testing.assert_allclose(sample.mean().to_numpy(), net.means, atol=0.05)


def test_parameter_learner_is_an_estimator():
    from sklearn.base import clone
    from sklearn.model_selection import cross_val_score

    asia = load_network("asia")
    X = asia.sample(1000, random_state=0)
    scores = cross_val_score(ParameterLearner(asia.graph), X, cv=3)
    assert np.all(np.isfinite(scores)) and np.all(scores < 0)
    est = clone(ParameterLearner(asia.graph, method="mle"))
    assert est.get_params()["method"] == "mle"


def test_bad_input_is_refused_before_work():
    with pytest.raises(ValueError, match="nodes without a column \\['c'\\]"):
        ParameterLearner(_graph(("a", "c"), nodes=("a", "b", "c"))).fit(TINY)
    with pytest.raises(ValueError, match="columns without a node"):
        ParameterLearner(_graph(nodes=("a",))).fit(TINY)
    with pytest.raises(ValueError, match="must be \\(2, 2\\)"):
        ParameterLearner(np.zeros((3, 3))).fit(TINY)
    with pytest.raises(ValueError, match="method"):
        ParameterLearner(_graph(), method="em").fit(TINY)
    with pytest.raises(ValueError, match="equivalent_sample_size"):
        ParameterLearner(_graph(), equivalent_sample_size=0).fit(TINY)
    # arcs both ways in a graph marked DAG: named as the undirected edge it is, not a cycle
    with pytest.raises(ValueError, match="has an undirected edge a -- b"):
        ParameterLearner(_graph(("a", "b"), ("b", "a"))).fit(TINY)


def test_a_graph_with_self_loops_is_refused_by_name():
    from skbn.datasets import load_network
    from skbn.parameters import ParameterLearner

    X = load_network("asia").sample(300, random_state=0)[["asia", "tub", "smoke"]]
    with pytest.raises(ValueError, match=r"self-loops at \['asia', 'tub', 'smoke'\]"):
        ParameterLearner(np.eye(3)).fit(X)  # was a RuntimeError from the DAG extension


def test_a_family_its_parents_determine_keeps_held_out_scores_finite_and_moderate():
    # e = 3c + 1 exactly: the least-squares variance is ~0, so a held-out row 1 sd off used
    # to score -5.6e10; one prior row at the column's variance keeps it near -n/2 per sd^2
    rng = np.random.default_rng(0)
    n = 600
    c = rng.normal(size=n)
    X = pd.DataFrame({"c": c, "e": 3 * c + 1, "z": c + rng.normal(size=n)})
    hc = HillClimb().fit(X)
    held = X.iloc[:5].copy()
    exact = hc.score_samples(held)
    held["e"] += X["e"].std()
    off = hc.score_samples(held)
    assert np.all(np.isfinite(exact)) and np.all(off > -2 * n)
    assert np.all(off < exact - n / 4)  # still far less likely than an exact row


def test_fit_network_names_the_network_after_its_graph_not_the_estimator():
    from skbn.datasets import load_network
    from skbn.learners import HillClimb
    from skbn.parameters import fit_network

    bn = load_network("asia")
    X = bn.sample(500, random_state=0)
    assert fit_network(bn.graph, X).name == "asia"
    assert fit_network(HillClimb().fit(X).graph_, X).name == "network"


def test_tables_beyond_the_machines_memory_are_refused_before_counting(monkeypatch):
    # two string columns of 30,000 and 29,999 states once died in numba's "Allocation failed"
    # (the classifier's TAN) or asked for 6.71 GiB (ChowLiu); here 300 x 299 states against
    # a machine of 1 MB, the same path
    from skbn.classification import BayesianNetworkClassifier
    from skbn.learners import ChowLiu

    rng = np.random.default_rng(0)
    a = rng.integers(0, 300, 3000)
    X = pd.DataFrame({"a": [f"u{v}" for v in a], "b": [f"v{v % 299}" for v in a]})
    monkeypatch.setattr("skbn.utils._memory.physical_memory", lambda: 2**20)
    with pytest.raises(ValueError, match=r"of 'b' given \['a'\].*300\] parent states and 299"):
        ChowLiu().fit(X)
    with pytest.raises(ValueError, match="parameter tables"):
        BayesianNetworkClassifier("tan").fit(X, a % 2)
    monkeypatch.setattr("skbn.utils._memory.physical_memory", lambda: 2**34)
    assert ChowLiu().fit(X).parameters_ is not None
