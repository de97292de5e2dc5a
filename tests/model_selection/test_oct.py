# SPDX-License-Identifier: BSD-3-Clause
import networkx as nx
import numpy as np
import pytest
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import mutual_info_score

from skbn.base import BaseStructureLearner
from skbn.datasets import load_network, make_erdos_renyi_dag, make_problem
from skbn.graph._convert import to_adjacency
from skbn.learners import PCStable
from skbn.model_selection import (
    OCTSearchCV,
    markov_blankets,
    prediction_mutual_information,
)


class GraphByName(BaseStructureLearner):
    """Returns one of a few fixed graphs, chosen by the ``which`` parameter."""

    def __init__(self, graphs=None, which="truth"):
        self.graphs = graphs
        self.which = which

    def _learn(self, data, prepared):
        g = self.graphs[self.which]
        return to_adjacency(g, list(data.names)).astype(np.int8), "dag"


def test_markov_blankets_match_networkx_neighbourhoods():
    for seed in range(10):
        dag = make_erdos_renyi_dag(9, 14, random_state=seed)
        nodes = list(dag.nodes)
        blankets = markov_blankets(nx.to_numpy_array(dag, nodelist=nodes, dtype=int))
        for v, mb in zip(nodes, blankets):
            expected = set(dag.predecessors(v)) | set(dag.successors(v))
            for c in dag.successors(v):
                expected |= set(dag.predecessors(c))
            expected.discard(v)
            assert {nodes[k] for k in mb} == expected


def test_mutual_information_matches_independent_formulas():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 500)
    yhat = np.where(rng.random(500) < 0.7, y, rng.integers(0, 4, 500))
    assert prediction_mutual_information(y, yhat, discrete=True) == pytest.approx(
        mutual_info_score(y, yhat)
    )
    z = rng.normal(size=500)
    zhat = z + rng.normal(size=500)
    rho = np.corrcoef(z, zhat)[0, 1]
    assert prediction_mutual_information(z, zhat, discrete=False) == pytest.approx(
        -0.5 * np.log(1 - rho**2)
    )
    assert prediction_mutual_information(z, np.zeros(500), discrete=False) == 0.0


@pytest.fixture(scope="module")
def gaussian():
    return make_problem("asia", n_samples=600, random_state=1)


@pytest.mark.slow
def test_true_graph_predicts_better_than_the_empty_graph(gaussian):
    X, dag = gaussian
    empty = nx.DiGraph()
    empty.add_nodes_from(dag.nodes)
    graphs = {"truth": dag, "empty": empty}
    oct_ = OCTSearchCV(
        GraphByName(graphs),
        {"which": ["empty", "truth"]},
        cv=3,
        n_permutations=200,
        random_state=0,
    ).fit(X)
    mi = oct_.cv_results_["mean_mutual_information"]
    assert mi[1] > mi[0] + 0.1
    assert oct_.best_params_ == {"which": "truth"}
    assert oct_.cv_results_["pvalue"][0] < 0.05
    assert set(oct_.graph_.edges) == set(dag.edges)


@pytest.mark.slow
def test_sparsity_prefers_the_smaller_blanket_among_equivalent_configurations(gaussian):
    X, dag = gaussian
    # an independent noise column, a parent of every node in the padded graph: larger
    # blankets, no better predictions
    X = X.assign(noise=np.random.default_rng(5).normal(size=len(X)))
    truth = dag.copy()
    truth.add_node("noise")
    padded = truth.copy()
    padded.add_edges_from(("noise", v) for v in dag.nodes)
    graphs = {"truth": truth, "padded": padded}
    kwargs = dict(cv=3, n_permutations=300, random_state=0)
    oct_s = OCTSearchCV(GraphByName(graphs), {"which": ["padded", "truth"]}, **kwargs).fit(X)
    sizes = oct_s.cv_results_["mean_blanket_size"]
    assert sizes[0] > sizes[1]
    assert oct_s.cv_results_["equivalent"].all()
    assert oct_s.best_params_ == {"which": "truth"}


def test_discrete_data_and_determinism():
    X = load_network("asia").sample(800, random_state=0)
    grid = {"alpha": [0.001, 0.05]}
    kwargs = dict(
        cv=3,
        n_permutations=50,
        random_state=0,
        predictor=RandomForestClassifier(20, random_state=0),
    )
    a = OCTSearchCV(PCStable(), grid, **kwargs).fit(X)
    b = OCTSearchCV(PCStable(), grid, n_jobs=2, **kwargs).fit(X)
    np.testing.assert_array_equal(
        a.cv_results_["mean_mutual_information"], b.cv_results_["mean_mutual_information"]
    )
    np.testing.assert_array_equal(a.cv_results_["pvalue"], b.cv_results_["pvalue"])
    assert (a.cv_results_["mean_mutual_information"] > 0).all()


def test_too_few_rows_for_the_folds():
    X = load_network("asia").sample(5, random_state=0)
    with pytest.raises(ValueError, match="cv=10 folds need at least 10 rows"):
        OCTSearchCV(PCStable(), {"alpha": [0.05]}).fit(X)


@pytest.mark.slow
def test_shared_predictions_leave_each_configurations_scores_unchanged():
    # configurations that give a variable the same blanket share its predictions; each
    # configuration must still score exactly as when it is tuned alone
    X = load_network("asia").sample(600, random_state=3)
    truth = nx.DiGraph(load_network("asia").graph)
    pruned = truth.copy()
    pruned.remove_edge(*next(iter(truth.edges)))
    empty = nx.DiGraph()
    empty.add_nodes_from(truth.nodes)
    graphs = {"truth": truth, "pruned": pruned, "empty": empty}
    kwargs = dict(
        cv=3,
        n_permutations=20,
        random_state=0,
        predictor=RandomForestClassifier(10, random_state=0),
    )
    names = ["truth", "pruned", "empty"]
    together = OCTSearchCV(GraphByName(graphs), {"which": names}, **kwargs).fit(X)
    for i, name in enumerate(names):
        alone = OCTSearchCV(GraphByName(graphs), {"which": [name]}, **kwargs).fit(X)
        np.testing.assert_array_equal(
            together.cv_results_["mutual_information"][i],
            alone.cv_results_["mutual_information"][0],
        )

    # distinct blankets per variable over the three graphs, counted with networkx
    def blanket(g, v):
        mb = set(g.predecessors(v)) | set(g.successors(v))
        for c in g.successors(v):
            mb |= set(g.predecessors(c))
        return frozenset(mb - {v})

    distinct = sum(len({blanket(graphs[k], v) for k in names}) for v in X.columns)
    assert distinct < len(names) * X.shape[1]
    assert together.n_predictions_ == 3 * distinct


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_swapped_tables_by_product_equal_the_swapped_rows(seed):
    """The permutation test's matrix-product tables give each swapped row's mutual information
    exactly as scikit-learn's plug-in estimate on the swapped row itself."""
    from skbn.model_selection._oct import _mi_discrete_swapped

    rng = np.random.default_rng(seed)
    n = 500
    y = rng.integers(0, 3, n)
    a = rng.integers(0, 4, n)
    b = np.where(rng.random(n) < 0.6, y, rng.integers(0, 5, n))
    swaps = rng.random((40, n)) < 0.5
    got, reversed_roles = _mi_discrete_swapped(y, a, b, swaps.astype(np.float32))
    want = [mutual_info_score(y, np.where(row, b, a)) for row in swaps]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(
        reversed_roles, [mutual_info_score(y, np.where(row, a, b)) for row in swaps], rtol=1e-12
    )


@pytest.mark.parametrize("which", ["oct", "stars"])
def test_oct_and_stars_share_the_search_base(which):
    # the refit, graph_ and network_ come from the base every structure search shares
    from skbn.datasets import load_network
    from skbn.learners import PCStable
    from skbn.model_selection import OCTSearchCV, StARSSearchCV
    from skbn.model_selection._base_search import StructureSelection

    X = load_network("asia").sample(600, random_state=0)
    grid = {"alpha": [0.01, 0.05]}
    if which == "oct":
        small_forest = RandomForestClassifier(n_estimators=5, random_state=0)
        search = OCTSearchCV(
            PCStable(), grid, cv=3, predictor=small_forest, n_permutations=50, random_state=0
        )
    else:
        search = StARSSearchCV(PCStable(), grid, n_subsamples=4, random_state=0)
    search.fit(X)
    assert isinstance(search, StructureSelection)
    assert search.best_estimator_.get_params()["alpha"] == search.best_params_["alpha"]
    assert search.network_.parents == search.best_estimator_.network_.parents
    assert set(search.graph_.edges) == set(search.best_estimator_.graph_.edges)
    assert search.refit_time_ >= 0
    unrefitted = type(search)(**{**search.get_params(deep=False), "refit": False}).fit(X)
    with pytest.raises(AttributeError, match="refit=True"):
        _ = unrefitted.network_
