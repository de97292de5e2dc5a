# SPDX-License-Identifier: BSD-3-Clause
"""Every plot renders to a file, and draws what it says."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from skbn.datasets import load_network, make_problem  # noqa: E402
from skbn.ensemble import PEFLearner, bootstrap_edge_frequencies  # noqa: E402
from skbn.learners import FGES, HillClimb, PCStable  # noqa: E402
from skbn.model_selection import (  # noqa: E402
    InSampleSearchCV,
    OTSLSearchCV,
    StARSSearchCV,
    intersection_validate,
)
from skbn.plotting import (  # noqa: E402
    plot_cluster_sizes,
    plot_edge_strengths,
    plot_graph,
    plot_interval_curves,
    plot_search_curve,
)
from skbn.scores import AIC, BDeu  # noqa: E402


@pytest.fixture(scope="module")
def asia():
    return load_network("asia").sample(800, random_state=0)


def _saved(ax, path):
    ax.figure.savefig(path, dpi=60)
    plt.close(ax.figure)
    assert path.stat().st_size > 2000
    return path


def test_graph_against_truth_renders(tmp_path, asia):
    learned = HillClimb().fit(asia).graph_
    ax = plot_graph(learned, truth=load_network("asia").graph, title="asia")
    _saved(ax, tmp_path / "graph.png")


def test_search_curve_marks_the_choice(tmp_path, asia):
    grid = {"criterion__penalty_discount": [1, 2, 4, 8]}
    search = OTSLSearchCV(HillClimb(AIC()), grid, n_resamples=3, random_state=0).fit(asia)
    ax = plot_search_curve(search)
    chosen = search.best_params_["criterion__penalty_discount"]
    star = [line for line in ax.lines if line.get_marker() == "*"][0]
    assert star.get_xdata()[0] == chosen
    assert star.get_ydata()[0] == pytest.approx(search.cv_results_["mean_test_score"].max())
    _saved(ax, tmp_path / "otsl.png")


def test_search_curve_with_two_hyperparameters_and_other_tuners(tmp_path, asia):
    grid = {"alpha": [0.01, 0.05, 0.1], "max_cond_size": [1, 2]}
    stars = StARSSearchCV(PCStable(), grid, n_subsamples=4, random_state=0).fit(asia)
    with pytest.raises(ValueError, match="choose one"):
        plot_search_curve(stars)
    ax = plot_search_curve(stars, param="alpha")
    assert len([line for line in ax.lines if line.get_marker() == "o"]) == 2  # one per depth
    _saved(ax, tmp_path / "stars.png")
    insample = InSampleSearchCV(HillClimb(BDeu()), {"criterion__iss": [1, 10]}).fit(asia)
    _saved(plot_search_curve(insample), tmp_path / "insample.png")


def test_interval_curves_render(tmp_path, asia):
    result = intersection_validate(
        {"bic": HillClimb(), "bdeu": HillClimb(BDeu())},
        asia,
        sample_sizes=[100, 200],
        n_subsamples=2,
        random_state=0,
    )
    ax = plot_interval_curves(result)
    assert len(ax.get_legend().get_texts()) == 2
    _saved(ax, tmp_path / "interval.png")


def test_edge_strength_heat_map(tmp_path, asia):
    freqs = bootstrap_edge_frequencies(HillClimb(), asia, n_resamples=6, random_state=0)
    ax = plot_edge_strengths(freqs, threshold=0.5)
    image = ax.images[0].get_array()
    assert image.shape == (8, 8)
    assert np.all((image >= 0) & (image <= 1))
    strong = freqs.table[freqs.table["strength"] * freqs.table["direction"] >= 0.5]
    assert len(ax.patches) >= len(strong)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["strength \u2265 0.5"]
    assert plot_edge_strengths(freqs).get_legend() is None  # no outline, nothing to explain
    _saved(ax, tmp_path / "strengths.png")


def test_cluster_sizes(tmp_path):
    X, _ = make_problem("asia", n_nodes=120, n_samples=500, random_state=0)
    pef = PEFLearner(FGES()).fit(X)
    ax = plot_cluster_sizes(pef)
    heights = sorted((bar.get_height() for bar in ax.patches), reverse=True)
    assert heights == sorted((len(c) for c in pef.clusters_), reverse=True)
    _saved(ax, tmp_path / "clusters.png")


def test_an_edge_along_a_layer_bows_around_the_nodes_between_its_ends():
    # a, b, c are roots of the truth (one layer): an arc between the two ends of that row
    # would run through the middle one, so it is drawn bowed; the others stay straight
    import matplotlib
    from matplotlib.patches import FancyArrowPatch

    matplotlib.use("Agg")
    import networkx as nx

    from skbn.graph import as_adjacency
    from skbn.plotting import _crosses_its_row, _layered_positions, plot_graph

    truth = nx.DiGraph([("a", "d"), ("b", "d"), ("c", "d")])
    learned = nx.DiGraph()
    learned.add_nodes_from(["a", "b", "c", "d"])
    learned.add_edges_from([("b", "d"), ("c", "d")])
    T, nodes = as_adjacency(truth, list(learned.nodes))
    pos = _layered_positions(T, nodes)
    left, right = sorted("abc", key=lambda v: pos[v][0])[::2]
    assert _crosses_its_row((left, right), pos) and not _crosses_its_row(("b", "d"), pos)
    learned.add_edge(left, right)
    ax = plot_graph(learned, truth=truth)
    rads = [
        getattr(patch.get_connectionstyle(), "rad", 0.0)
        for patch in ax.patches
        if isinstance(patch, FancyArrowPatch)
    ]
    assert rads.count(0.3) == 1 and rads.count(0.0) == len(rads) - 1
