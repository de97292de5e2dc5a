# SPDX-License-Identifier: BSD-3-Clause
"""ChowLiu and TAN against a spanning tree computed independently and against bnlearn 4.9's
chow.liu and tree.bayes (a stored oracle), and the blanket selector."""

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import mutual_info_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from skbn.datasets import load_network
from skbn.feature_selection import MarkovBlanketSelector
from skbn.graph import markov_blanket
from skbn.learners import TAN, ChowLiu
from tests.data import load_oracle


@pytest.fixture(scope="module")
def asia():
    return load_network("asia").sample(3000, random_state=0)


def _skeleton(graph):
    return {frozenset(e) for e in graph.edges}


def test_chow_liu_is_the_maximum_mutual_information_tree(asia):
    # mutual information from scikit-learn, spanning tree from networkx
    names = list(asia.columns)
    g = nx.Graph()
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            g.add_edge(a, b, weight=mutual_info_score(asia[a], asia[b]))
    expected = {frozenset(e) for e in nx.maximum_spanning_tree(g).edges}
    tree = ChowLiu(root="asia").fit(asia)
    assert _skeleton(tree.graph_) == expected
    assert tree.graph_.in_degree("asia") == 0
    assert all(d <= 1 for _, d in tree.graph_.in_degree())
    w = tree.weights_[names.index("smoke"), names.index("lung")]
    assert w == pytest.approx(mutual_info_score(asia["smoke"], asia["lung"]), rel=1e-9)


def test_gaussian_chow_liu_weights_are_from_the_correlation():
    X = load_network("asia").sample(500, random_state=0).apply(lambda c: c.cat.codes)
    X = X.astype(float) + np.random.default_rng(0).normal(size=X.shape)
    tree = ChowLiu(criterion="loglik-g").fit(X)
    r = np.corrcoef(X.to_numpy(), rowvar=False)
    with np.errstate(divide="ignore"):
        expected = -0.5 * np.log(1 - r**2)
    np.fill_diagonal(expected, 0.0)
    np.testing.assert_allclose(tree.weights_, expected, rtol=1e-6, atol=1e-12)


def test_a_penalised_chow_liu_is_a_forest(asia):
    full = ChowLiu().fit(asia)
    forest = ChowLiu(criterion="bic").fit(asia)
    assert forest.graph_.number_of_edges() < full.graph_.number_of_edges() == 7
    assert _skeleton(forest.graph_) <= _skeleton(full.graph_)


def test_tan_is_a_tree_under_the_class(asia):
    tan = TAN(class_node="lung").fit(asia)
    g = tan.graph_
    others = [v for v in g if v != "lung"]
    assert all(g.has_edge("lung", v) for v in others)
    assert all(g.in_degree(v) <= 2 for v in others)
    assert nx.is_tree(g.subgraph(others).to_undirected())
    with pytest.raises(ValueError, match="class_node='nope' is not a column"):
        TAN(class_node="nope").fit(asia)


@pytest.mark.slow
# on the checks' random data the blanket may be empty, which scikit-learn warns about
@pytest.mark.filterwarnings("ignore:No features were selected")
@parametrize_with_checks([MarkovBlanketSelector(), MarkovBlanketSelector(discretizer=None)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_selector_finds_most_true_blankets_on_alarm():
    # measured over all 37 targets at n = 10,000: mean F1 0.944 with the default learner
    # (BOSS), 0.874 with hill climbing; here every third target, to keep the test short
    network = load_network("alarm")
    X = network.sample(10000, random_state=0)
    f1 = {"auto": [], "hill_climb": []}
    for target in X.columns[::3]:
        truth = markov_blanket(network.graph, target)
        for learner, scores in f1.items():
            selector = MarkovBlanketSelector(learner, random_state=0)
            found = set(selector.fit(X.drop(columns=target), X[target]).markov_blanket_)
            scores.append(2 * len(found & truth) / (len(found) + len(truth)))
    assert np.mean(f1["auto"]) >= 0.9 and np.median(f1["auto"]) == 1.0
    assert np.mean(f1["auto"]) >= np.mean(f1["hill_climb"])


def test_selector_in_a_pipeline_with_pandas_output():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    selector = MarkovBlanketSelector().set_output(transform="pandas").fit(X, y)
    out = selector.transform(X)
    assert isinstance(out, pd.DataFrame)
    assert list(out.columns) == list(selector.get_feature_names_out())
    assert list(out.columns) == list(selector.markov_blanket_)
    model = make_pipeline(MarkovBlanketSelector(), StandardScaler(), LogisticRegression())
    assert model.fit(X, y).score(X, y) > 0.9


@pytest.mark.parametrize("case", load_oracle("bnlearn_tree_oracle"), ids=lambda c: c["network"])
def test_chow_liu_and_tan_equal_bnlearns(case):
    # bnlearn 4.9's chow.liu (skeleton) and tree.bayes (arcs) on the same sample, recorded
    # by tests/data/make_bnlearn_tree_oracle.py; the same mutual information, so the same tree
    X = load_network(case["network"]).sample(case["n"], random_state=case["seed"]).astype(str)
    assert _skeleton(ChowLiu().fit(X).graph_) == {frozenset(e) for e in case["chow_liu"]}
    for target, arcs in case["tan"].items():
        expected = {tuple(a) for a in arcs}
        # the same tree with skbn's root (the feature most informative of the class) ...
        tan = TAN(class_node=target).fit(X)
        assert _skeleton(tan.graph_) == {frozenset(a) for a in expected}, target
        # ... and the same arcs when it hangs from bnlearn's root, the first feature
        first = next(c for c in X.columns if c != target)
        assert set(TAN(class_node=target, root=first).fit(X).graph_.edges) == expected, target
