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


def _hidden_edges(ax):
    """Edges whose drawn path runs through the box of a node other than its ends."""
    from matplotlib.patches import FancyArrowPatch

    ax.figure.canvas.draw()
    boxes = {t.get_text(): t.get_bbox_patch().get_window_extent() for t in ax.texts}
    hidden = []
    for patch in ax.patches:
        if not isinstance(patch, FancyArrowPatch):
            continue
        u, v = patch.edge
        from matplotlib.path import Path

        shaft = patch._get_path_in_displaycoord()[0][0]  # the line, not the arrowhead
        polygon = shaft.to_polygons(closed_only=False)[0]  # curves flattened
        points = Path(polygon).interpolated(20).vertices
        for node, box in boxes.items():
            if node in (str(u), str(v)):
                continue
            inside = (
                (points[:, 0] > box.x0)
                & (points[:, 0] < box.x1)
                & (points[:, 1] > box.y0)
                & (points[:, 1] < box.y1)
            )
            if inside.any():
                hidden.append((u, v, node))
    return hidden


def _overlapping_boxes(ax):
    ax.figure.canvas.draw()
    boxes = [t.get_bbox_patch().get_window_extent() for t in ax.texts if t.get_bbox_patch()]
    return [
        (a, b)
        for k, a in enumerate(boxes)
        for b in boxes[k + 1 :]
        if a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1
    ]


def test_no_arc_is_hidden_behind_the_nodes_of_a_column():
    # a -> b -> c -> d with the three long arcs: a layered layout puts all four in one
    # column, and straight arcs a->c, a->d and b->d ran behind b and c (3 of 6 invisible)
    import matplotlib

    matplotlib.use("Agg")
    import networkx as nx

    from skbn.plotting import plot_graph

    g = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "d"), ("a", "c"), ("a", "d"), ("b", "d")])
    ax = plot_graph(g)
    arrows = {p.edge: p for p in ax.patches if hasattr(p, "edge")}
    assert set(arrows) == set(g.edges)
    rads = {e: getattr(p.get_connectionstyle(), "rad", 0.0) for e, p in arrows.items()}
    assert all(rads[e] == 0 for e in [("a", "b"), ("b", "c"), ("c", "d")])
    assert all(rads[e] != 0 for e in [("a", "c"), ("a", "d"), ("b", "d")])  # bowed round
    assert _hidden_edges(ax) == []


def test_every_arc_of_a_bootstrap_graph_of_sachs_can_be_seen(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from skbn.datasets import load_network
    from skbn.ensemble import bootstrap_edge_frequencies
    from skbn.learners import HillClimb
    from skbn.plotting import plot_graph

    network = load_network("sachs")
    X = network.sample(1000, random_state=0)
    graph = bootstrap_edge_frequencies(HillClimb(), X, n_resamples=8, random_state=0)
    averaged = graph.averaged_graph(0.5)
    ax = plot_graph(averaged, truth=network.graph)
    drawn = [p.edge for p in ax.patches if hasattr(p, "edge")]
    undirected = {frozenset(e) for e in averaged.edges if averaged.has_edge(*e[::-1])}
    directed = [e for e in averaged.edges if frozenset(e) not in undirected]
    truth_only = [e for e in network.graph.edges if not averaged.has_edge(*e)]
    truth_only = [e for e in truth_only if not averaged.has_edge(*e[::-1])]
    # each learned edge once (an undirected one as one line), and the missing true arcs
    assert len(drawn) == len(directed) + len(undirected) + len(truth_only)
    assert _hidden_edges(ax) == []
    assert _overlapping_boxes(ax) == []
    _saved(ax, tmp_path / "sachs.png")


def test_boxes_fit_their_names_and_never_overlap_on_alarm():
    import matplotlib

    matplotlib.use("Agg")
    from skbn.datasets import load_network
    from skbn.plotting import plot_graph

    ax = plot_graph(load_network("alarm").graph)
    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    for text in ax.texts:
        inner = text.get_window_extent(renderer)
        box = text.get_bbox_patch().get_window_extent()
        assert box.x0 <= inner.x0 and inner.x1 <= box.x1  # the name inside its box
    assert _overlapping_boxes(ax) == []


def test_the_legend_says_what_an_undirected_edge_is():
    import matplotlib

    matplotlib.use("Agg")
    from skbn.graph import from_adjacency
    from skbn.plotting import plot_graph

    pdag = from_adjacency([[0, 1, 0], [0, 0, 1], [0, 1, 0]], ["a", "b", "c"], kind="pdag")
    labels = [t.get_text() for t in plot_graph(pdag).get_legend().get_texts()]
    assert labels == ["directed", "undirected (either orientation)"]
    dag = from_adjacency([[0, 1], [0, 0]], ["a", "b"], kind="dag")
    assert plot_graph(dag).get_legend() is None  # nothing to explain
