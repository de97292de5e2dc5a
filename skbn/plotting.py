# SPDX-License-Identifier: BSD-3-Clause
"""Plots for learned structures and for the meta-estimators' diagnostics.

This is skbn's one plotting module (``skbn.graph.plot_graph`` is the same function). Each
function draws on a matplotlib ``Axes`` (a new figure when ``ax`` is None) and returns
it, so the caller saves or composes it: ``plot_cluster_sizes(pef).figure.savefig("p.png")``.

* :func:`plot_graph` -- a graph, with edges coloured against a true graph when given.
* :func:`plot_search_curve` -- a tuner's criterion against one hyperparameter (OTSL,
  in-sample, StARS, OCT, scikit-learn's own searches), the chosen configuration marked.
* :func:`plot_interval_curves` -- Intersection-Validation's PHD learning curves.
* :func:`plot_edge_strengths` -- bootstrap arc strengths as a heat map.
* :func:`plot_cluster_sizes` -- the clusters of a fitted :class:`~skbn.ensemble.PEFLearner`.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from skbn.graph._array import pdag_to_dag_array, topological_sort_array
from skbn.graph._convert import as_adjacency, from_adjacency
from skbn.graph._pag import ARROW, CIRCLE, TAIL, endpoint_matrix, is_marked

__all__ = [
    "EDGE_COLORS",
    "plot_cluster_sizes",
    "plot_edge_strengths",
    "plot_graph",
    "plot_interval_curves",
    "plot_search_curve",
]

#: Colours of the edge categories drawn when a true graph is given.
EDGE_COLORS = {
    "correct": "#2b8a3e",
    "wrong orientation": "#e8590c",
    "false positive": "#c92a2a",
    "missing": "#868e96",
    "edge": "#343a40",
}


def _layered_positions(A: np.ndarray, nodes: list) -> dict:
    dag = A if topological_sort_array(A) is not None else pdag_to_dag_array(A)
    if dag is None:  # no consistent extension: fall back to a force-directed layout
        g = from_adjacency(A, nodes, kind="pdag")
        return nx.spring_layout(g.to_undirected(), seed=0)
    g = from_adjacency(dag, nodes, kind="dag")
    pos: dict = {}
    for depth, generation in enumerate(nx.topological_generations(g)):
        # Barycentre ordering: place each node under the mean position of its parents, which
        # removes most crossings in one downward sweep.
        def barycentre(node, generation=generation):
            xs = [pos[u][0] for u in g.predecessors(node)]
            return (sum(xs) / len(xs)) if xs else generation.index(node) - len(generation) / 2

        layer = sorted(generation, key=barycentre)
        for k, node in enumerate(layer):
            pos[node] = (k - (len(layer) - 1) / 2, -float(depth))
    return pos


def _edge_lists(A: np.ndarray, nodes: list, category: np.ndarray | None):
    """Split the edges of A into directed and undirected lists per category."""
    out: dict[tuple[str, bool], list] = {}
    rows, cols = np.nonzero(A)
    for i, j in zip(rows.tolist(), cols.tolist()):
        undirected = bool(A[j, i])
        if undirected and i > j:
            continue
        cat = "edge" if category is None else str(category[i, j])
        out.setdefault((cat, undirected), []).append((nodes[i], nodes[j]))
    return out


#: Inches around a node's name in its box, between boxes in a layer, and between layers
#: (the layout is in inches, so a new figure of its size keeps every box apart).
_PAD, _GAP, _LAYER = 0.2, 0.16, 0.85


def _box_half_sizes(nodes, font_size: int) -> dict:
    """Half width and half height (inches) of each node's box, from its name's width."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    font = FontProperties(size=font_size)
    half = {}
    for v in nodes:
        width, _, _ = text_to_path.get_text_width_height_descent(str(v), font, ismath=False)
        half[v] = ((width / 72 + _PAD) / 2, 0.14 * font_size / 8)
    return half


def _spread(pos: dict, half: dict) -> dict:
    """``pos`` with each layer's nodes side by side by their box widths, in inches.

    The order within a layer is kept; layers are :data:`_LAYER` inches apart and centred.
    """
    layers: dict = {}
    for node, (x, y) in pos.items():
        layers.setdefault(y, []).append((x, node))
    out = {}
    for y, members in layers.items():
        members.sort()
        widths = [2 * half[node][0] for _, node in members]
        total = sum(widths) + _GAP * (len(widths) - 1)
        left = -total / 2
        for (_, node), width in zip(members, widths):
            out[node] = (left + width / 2, y * _LAYER)
            left += width + _GAP
    return out


def _hits(points: np.ndarray, edge, pos, half) -> bool:
    """Whether any of ``points`` (x, y rows, inches) lies in the box of a node not in ``edge``."""
    for node, (x, y) in pos.items():
        if node in edge:
            continue
        w, h = half[node]
        if np.any((np.abs(points[:, 0] - x) < w + 0.04) & (np.abs(points[:, 1] - y) < h + 0.04)):
            return True
    return False


def _arc_points(edge, pos, rad: float) -> np.ndarray:
    """Points along the ``arc3`` curve of ``edge`` (matplotlib's quadratic Bezier)."""
    p0, p1 = np.asarray(pos[edge[0]], float), np.asarray(pos[edge[1]], float)
    d = p1 - p0
    control = (p0 + p1) / 2 + rad * np.array([d[1], -d[0]])
    t = np.linspace(0.0, 1.0, 80)[4:-4, None]
    return (1 - t) ** 2 * p0 + 2 * (1 - t) * t * control + t**2 * p1


#: The curvatures tried, in turn, for an edge whose straight line would cross a node.
_BOWS = (0.25, 0.4, 0.6, 0.8, 1.0, 1.3, 1.7, 2.2)


def _route(edge, pos, half, side: int) -> float:
    """Return the ``arc3`` curvature of ``edge``: 0 (straight) unless that crosses a node.

    An edge through another node would read as two edges through it; it bows instead, by
    the first curvature of :data:`_BOWS` whose curve misses every other box (``side``
    first, then the other side), or by the largest one.
    """
    if not _hits(_arc_points(edge, pos, 0.0), edge, pos, half):
        return 0.0
    for bow in _BOWS:
        for sign in (side, -side):
            if not _hits(_arc_points(edge, pos, sign * bow), edge, pos, half):
                return sign * bow
    return side * _BOWS[-1]


def _text_boxes(ax, pos, nodes, font_size):
    """Draw each node as its label in a rounded box; return the boxes' half-sizes in points."""
    boxes = {}
    for node in nodes:
        x, y = pos[node]
        boxes[node] = ax.text(
            x,
            y,
            str(node),
            ha="center",
            va="center",
            fontsize=font_size,
            zorder=3,
            bbox=dict(boxstyle="round,pad=0.35", fc="#e7f5ff", ec="#1c7ed6", lw=1.0),
        )
    renderer = ax.figure.canvas.get_renderer()
    to_points = 72.0 / ax.figure.dpi
    half = {}
    for node, text in boxes.items():
        text.update_bbox_position_size(renderer)
        box = text.get_bbox_patch().get_window_extent(renderer)
        half[node] = (box.width * to_points / 2, box.height * to_points / 2)
    return half


def _shrink(half, direction) -> float:
    """Points from a box's centre to its edge along ``direction`` (display coordinates)."""
    dx, dy = abs(direction[0]), abs(direction[1])
    norm = np.hypot(dx, dy)
    if norm == 0:
        return 0.0
    dx, dy = dx / norm, dy / norm
    w, h = half
    return float(min(w / dx if dx > 1e-12 else np.inf, h / dy if dy > 1e-12 else np.inf)) + 1.0


def _draw_edge(ax, u, v, pos, half, *, color, directed, dashed, rad):
    """One edge from box to box, clipped to the boxes (arc3 curvature ``rad``)."""
    from matplotlib.patches import FancyArrowPatch

    p0 = ax.transData.transform(pos[u])
    p1 = ax.transData.transform(pos[v])
    # arc3's control point, as matplotlib computes it: the tangents at the ends
    mid, d = (p0 + p1) / 2, p1 - p0
    control = mid + rad * np.array([d[1], -d[0]])
    start, end = control - p0, p1 - control
    arrow = FancyArrowPatch(
        pos[u],
        pos[v],
        arrowstyle="-|>" if directed else "-",
        mutation_scale=11,
        color=color,
        lw=1.4,
        linestyle="--" if dashed else "-",
        connectionstyle=f"arc3,rad={rad}",
        shrinkA=_shrink(half[u], start),
        shrinkB=_shrink(half[v], end),
        zorder=2,
        clip_on=False,  # a wide bow may leave the layout's box
    )
    arrow.edge = (u, v)  # which edge it draws, for whoever inspects the figure
    ax.add_patch(arrow)
    return arrow


def _laid_out(A: np.ndarray, nodes: list, ax, font_size: int):
    """Layered positions of ``A``'s nodes, the axes sized to them, and the name boxes drawn.

    Returns ``(ax, pos, sizes, half)``: the axes (a new figure when ``ax`` is None), the
    positions, the boxes' half sizes in inches and as drawn.
    """
    import matplotlib.pyplot as plt

    sizes = _box_half_sizes(nodes, font_size)
    pos = _spread(_layered_positions(A, nodes), sizes)
    xs = [x for x, _ in pos.values()] or [0.0]
    ys = [y for _, y in pos.values()] or [0.0]
    # the layout is in inches: a new figure of that size keeps every box apart
    x_range = (min(xs) - 0.8, max(xs) + 0.8)
    y_range = (min(ys) - 0.45, max(ys) + 0.45)
    if ax is None:
        size = (x_range[1] - x_range[0], y_range[1] - y_range[0])
        _, ax = plt.subplots(figsize=(min(max(3.0, size[0]), 40), min(max(2.0, size[1]), 30)))
    ax.set_xlim(*x_range)
    ax.set_ylim(*y_range)
    ax.set_axis_off()
    return ax, pos, sizes, _text_boxes(ax, pos, nodes, font_size)


def _finish(ax, handles: list, font_size: int, title: str | None):
    """Put the legend beside the drawing (where it hides no node or edge) and the title."""
    if handles:
        ax.legend(
            handles=handles,
            loc="upper left",
            bbox_to_anchor=(1.0, 1.0),
            fontsize=font_size,
            frameon=False,
        )
    if title:
        ax.set_title(title)
    return ax


def plot_graph(
    graph,
    truth=None,
    ax=None,
    *,
    font_size: int = 8,
    title: str | None = None,
):
    """Draw a DAG/CPDAG/PDAG in layers by topological generation.

    Each node is its name in a box sized to it. An edge whose straight line would pass
    through another node (a long arc along a column of nodes, or along a layer) is drawn
    bowed round it, so every edge can be seen and told from the others.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        The graph to draw; undirected edges are drawn without arrowheads. A PAG or MAG
        (``kind="pag"`` or ``"mag"``) is drawn with its marks: an arrowhead, a small open
        circle, or nothing for a tail.
    truth : networkx.DiGraph, optional
        The true graph on the same nodes (not with a PAG: compare PAGs with
        :func:`skbn.metrics.structure_report`). Edges are then coloured: correct, wrong orientation,
        false positive, and missing (dashed, in the true orientation), with a legend. When
        ``graph`` has undirected edges it is compared with the CPDAG of ``truth``. The layout
        follows ``truth`` so that plots of several learned graphs line up.
    ax : matplotlib Axes, optional
        Axes to draw on; a new figure is made if omitted.
    font_size : int, default=8
        Of the node names and the legend.
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on. In a notebook, end the line with ``;`` (or assign the result)
        to show the figure without the ``<Axes: >`` line above it.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import networkx as nx
    >>> truth = nx.DiGraph([("a", "b"), ("b", "c")])
    >>> ax = plot_graph(nx.DiGraph([("a", "b"), ("c", "b")]), truth=truth)
    >>> sorted(t.get_text() for t in ax.get_legend().get_texts())
    ['correct', 'wrong orientation']
    """
    from matplotlib.lines import Line2D

    from skbn.graph._array import dag_to_cpdag_array, pair_types

    if is_marked(graph):
        if truth is not None:
            raise ValueError(
                "plot_graph draws a PAG or MAG with its marks but does not colour it against "
                "a truth; skbn.metrics.structure_report(true_pag, learned) compares two PAGs."
            )
        return _plot_marked(graph, ax, font_size=font_size, title=title)
    A, nodes = as_adjacency(graph)
    category = None
    T = None
    if truth is not None:
        T, _ = as_adjacency(truth, nodes)
        if np.any(A & A.T) and topological_sort_array(T) is not None:
            T = dag_to_cpdag_array(T)
        same = pair_types(A) == pair_types(T)
        adj_a, adj_t = (A | A.T).astype(bool), (T | T.T).astype(bool)
        category = np.where(
            same, "correct", np.where(adj_t, "wrong orientation", "false positive")
        ).astype(object)
        category[~adj_a] = "missing"
    ax, pos, sizes, half = _laid_out(T if T is not None else A, nodes, ax, font_size)
    lists = _edge_lists(A, nodes, category)
    if T is not None:
        missing_adj = (T.astype(bool) & ~(A | A.T).astype(bool)).astype(np.int8)
        for (_, undirected), edges in _edge_lists(missing_adj, nodes, None).items():
            lists.setdefault(("missing", undirected), []).extend(edges)
    seen, kinds = [], set()
    side = 1
    for (cat, undirected), edges in sorted(lists.items()):
        for u, v in edges:
            rad = _route((u, v), pos, sizes, side)
            if rad:
                side = -side  # the next bowed edge bows the other way first
            _draw_edge(
                ax,
                u,
                v,
                pos,
                half,
                color=EDGE_COLORS[cat],
                directed=not undirected,
                dashed=cat == "missing",
                rad=rad,
            )
        kinds.add(undirected)
        if cat not in seen:
            seen.append(cat)
    handles = []
    if truth is not None:
        handles += [
            Line2D([], [], color=EDGE_COLORS[c], linestyle="--" if c == "missing" else "-", label=c)
            for c in EDGE_COLORS
            if c in seen
        ]
    if True in kinds:  # say what a line without an arrowhead is
        grey = EDGE_COLORS["edge"]
        if False in kinds:
            handles.append(Line2D([], [], color=grey, marker=">", label="directed"))
        handles.append(Line2D([], [], color=grey, label="undirected (either orientation)"))
    return _finish(ax, handles, font_size, title)


def _plot_marked(graph, ax, *, font_size: int, title: str | None):
    """Draw a PAG or MAG: each edge once, an arrowhead, an open circle or no mark at each end."""
    from matplotlib.lines import Line2D

    M, nodes = endpoint_matrix(graph)
    # the layout reads tails-to-arrowheads as arcs and every other edge as undirected
    directed = (M == ARROW) & (M.T == TAIL)
    layout = (directed | ((M != 0) & ~directed & ~directed.T)).astype(np.int8)
    ax, pos, sizes, half = _laid_out(layout, nodes, ax, font_size)
    color = EDGE_COLORS["edge"]
    styles = {
        (False, False): "-",
        (False, True): "-|>",
        (True, False): "<|-",
        (True, True): "<|-|>",
    }
    side = 1
    seen = set()
    to_points = ax.figure.dpi / 72.0
    for i, j in zip(*np.nonzero(np.triu(M))):
        u, v = nodes[i], nodes[j]
        rad = _route((u, v), pos, sizes, side)
        if rad:
            side = -side
        at_u, at_v = int(M[j, i]), int(M[i, j])  # the marks at u and at v
        arrow = _draw_edge(ax, u, v, pos, half, color=color, directed=True, dashed=False, rad=rad)
        arrow.set_arrowstyle(styles[(at_u == ARROW, at_v == ARROW)])
        arrow.marks = (at_u, at_v)
        seen.update((at_u, at_v))
        # an open circle where a circle mark is, just outside the node's box, along the
        # edge's tangent there
        p0 = ax.transData.transform(pos[u])
        p1 = ax.transData.transform(pos[v])
        control = (p0 + p1) / 2 + rad * np.array([(p1 - p0)[1], -(p1 - p0)[0]])
        for mark, node, tangent, shrink in (
            (at_u, u, control - p0, arrow.shrinkA),
            (at_v, v, control - p1, arrow.shrinkB),
        ):
            if mark != CIRCLE:
                continue
            unit = tangent / max(np.hypot(*tangent), 1e-12)
            end = ax.transData.transform(pos[node]) + unit * (shrink + 3.0) * to_points
            x, y = ax.transData.inverted().transform(end)
            ax.plot(
                [x],
                [y],
                marker="o",
                markersize=5,
                markerfacecolor="white",
                markeredgecolor=color,
                markeredgewidth=1.2,
                zorder=3,
                clip_on=False,
            )
    handles = []
    if ARROW in seen:
        handles.append(
            Line2D([], [], color=color, marker=">", label="arrowhead: no cause of the other end")
        )
    if TAIL in seen:
        handles.append(
            Line2D([], [], color=color, label="no mark (tail): a cause of the other end")
        )
    if CIRCLE in seen:
        handles.append(
            Line2D([], [], color=color, marker="o", markerfacecolor="white", label="circle: either")
        )
    return _finish(ax, handles, font_size, title)


#: The criterion each tuner reports in ``cv_results_``, and its axis label.
_CRITERIA = (
    ("mean_test_score", "mean held-out score", None),
    ("mean_mutual_information", "mean mutual information (OCT)", None),
    ("instability", "instability (StARS, lower is better)", None),
)


def _axes(ax, size=(5.5, 3.8)):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=size)
    return ax


def plot_search_curve(search, param: str | None = None, ax=None):
    """Plot a fitted tuner's criterion against one hyperparameter, the choice marked.

    Parameters
    ----------
    search : search estimator
        A fitted OTSLSearchCV, InSampleSearchCV, StARSSearchCV, OCTSearchCV or any
        scikit-learn search with ``cv_results_`` and ``best_index_``.
    param : str, optional
        The hyperparameter on the x axis; needed when the grid has more than one. Other
        hyperparameters, if any, give one line per combination.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import HillClimb
    >>> from skbn.model_selection import OTSLSearchCV
    >>> from skbn.scores import AIC
    >>> X = load_network("asia").sample(1000, random_state=0)
    >>> search = OTSLSearchCV(HillClimb(AIC()), {"criterion__penalty_discount": [1, 4, 8]},
    ...                       n_resamples=3, random_state=0).fit(X)
    >>> ax = plot_search_curve(search)
    >>> ax.get_xlabel()
    'criterion__penalty_discount'
    """
    results = search.cv_results_
    params = list(results["params"])
    names = sorted({k for p in params for k in p})
    if param is None:
        if len(names) != 1:
            raise ValueError(f"The grid has several hyperparameters {names}; choose one: param=.")
        param = names[0]
    if param not in names:
        raise ValueError(f"{param!r} is not a searched hyperparameter; these are: {names}.")
    found = [(key, text) for key, text, _ in _CRITERIA if key in results]
    if not found:
        raise ValueError(
            "cv_results_ has none of " + ", ".join(k for k, _, _ in _CRITERIA) + " to plot."
        )
    key, label = found[0]
    values = np.asarray(results[key], dtype=float)
    ax = _axes(ax)
    groups: dict = {}
    for k, p in enumerate(params):
        rest = tuple(sorted((n, repr(v)) for n, v in p.items() if n != param))
        groups.setdefault(rest, []).append(k)
    numeric = all(isinstance(params[k][param], (int, float)) for k in range(len(params)))
    for rest, idx in groups.items():
        xs = [params[k][param] for k in idx]
        x = xs if numeric else list(range(len(xs)))
        name = ", ".join(f"{n}={v}" for n, v in rest) or None
        ax.plot(x, values[idx], marker="o", label=name)
        if not numeric:
            ax.set_xticks(x, [str(v) for v in xs], rotation=30, fontsize=8)
    best = search.best_index_
    x_best = params[best][param]
    if not numeric:
        rest = tuple(sorted((n, repr(v)) for n, v in params[best].items() if n != param))
        x_best = groups[rest].index(best)
    ax.axvline(x_best, color="#c92a2a", linestyle="--", linewidth=1)
    ax.plot(
        [x_best],
        [values[best]],
        marker="*",
        markersize=14,
        color="#c92a2a",
        label="chosen",
        linestyle="none",
    )
    ax.set_xlabel(param)
    ax.set_ylabel(label)
    ax.set_title(type(search).__name__)
    ax.legend(fontsize=7, frameon=False)
    return ax


def plot_interval_curves(result, ax=None):
    """Plot the PHD learning curves of an Intersection-Validation result.

    ``result`` comes from :func:`~skbn.model_selection.intersection_validate`. Mean partial
    Hamming distance to the agreement graph per learner and sample size, with
    standard-error bars (the Intersection-Validation paper's Figure 4).

    Parameters
    ----------
    result : InterValResult
        What :func:`~skbn.model_selection.intersection_validate` returned.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import HillClimb
    >>> from skbn.model_selection import intersection_validate
    >>> X = load_network("alarm").sample(1500, random_state=0)
    >>> result = intersection_validate({"bic": HillClimb(), "bdeu": HillClimb("bdeu")}, X,
    ...                                sample_sizes=[300, 600], n_subsamples=2, random_state=0)
    >>> len(plot_interval_curves(result).get_lines()) >= 2
    True
    """
    return result.plot(ax=ax)


def plot_edge_strengths(source, threshold: float | None = None, ax=None):
    """Draw bootstrap arc strengths as a heat map (rows: from, columns: to).

    Parameters
    ----------
    source : EdgeFrequencies or fitted BootstrapPosetLearner
        From :func:`~skbn.ensemble.bootstrap_edge_frequencies` the cell ``(u, v)`` is the
        fraction of fits with the arc ``u -> v`` (strength times direction); from a
        ``BootstrapPosetLearner`` the phase-2 frequency of each poset arc.
    threshold : float, optional
        Outline the cells at or above it (e.g. the averaging threshold).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skbn.datasets import load_network
    >>> from skbn.ensemble import bootstrap_edge_frequencies
    >>> from skbn.learners import HillClimb
    >>> X = load_network("asia").sample(500, random_state=0)
    >>> freqs = bootstrap_edge_frequencies(HillClimb(), X, n_resamples=5, random_state=0)
    >>> ax = plot_edge_strengths(freqs, threshold=0.5)
    >>> len(ax.get_xticklabels())
    8
    """
    if hasattr(source, "plot_edge_frequencies"):
        return source.plot_edge_frequencies(ax=ax)
    names = list(source.nodes)
    index = {v: k for k, v in enumerate(names)}
    F = np.zeros((len(names), len(names)))
    for row in source.table.itertuples():
        F[index[row.u], index[row.v]] = row.strength * row.direction
    size = 0.28 * len(names) + 3
    ax = _axes(ax, (size, size - 0.6))
    image = ax.imshow(F, cmap="viridis", vmin=0, vmax=1)
    ax.set_xticks(range(len(names)), names, rotation=90, fontsize=7)
    ax.set_yticks(range(len(names)), names, fontsize=7)
    if threshold is not None:
        from matplotlib.patches import Rectangle

        for i, j in zip(*np.nonzero(F >= threshold)):
            ax.add_patch(
                Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="white", linewidth=1.2)
            )
        # the outline's meaning, on a dark key so the white edge shows
        key = Rectangle((0, 0), 1, 1, facecolor=image.cmap(0.15), edgecolor="white", linewidth=1.2)
        ax.legend(
            [key],
            [f"strength \u2265 {threshold:g}"],
            loc="lower right",
            bbox_to_anchor=(1.0, 1.0),  # above the map, clear of its cells and the title
            fontsize=7,
            facecolor="0.3",
            labelcolor="white",
            framealpha=0.9,
        )
    ax.set_xlabel("to")
    ax.set_ylabel("from")
    ax.set_title("bootstrap arc strength", loc="left")
    ax.figure.colorbar(image, ax=ax, fraction=0.04)
    return ax


def plot_cluster_sizes(pef, ax=None):
    """Draw the sizes of a fitted PEFLearner's clusters and the "large cluster" threshold.

    Parameters
    ----------
    pef : PEFLearner
        A fitted one.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skbn.datasets import make_problem
    >>> from skbn.ensemble import PEFLearner
    >>> X, _ = make_problem("child", n_nodes=100, n_samples=500, random_state=0)
    >>> pef = PEFLearner().fit(X)
    >>> ax = plot_cluster_sizes(pef)
    >>> len(ax.patches) == len(pef.clusters_)
    True
    """
    import math

    sizes = sorted((len(c) for c in pef.clusters_), reverse=True)
    ax = _axes(ax)
    ax.bar(range(1, len(sizes) + 1), sizes, color="#4c6ef5")
    threshold = max(2, math.ceil(pef.min_cluster_fraction * pef.n_features_in_))
    ax.axhline(
        threshold,
        color="#c92a2a",
        linestyle="--",
        linewidth=1,
        label=f"large-cluster size ({threshold})",
    )
    ax.set_xlabel("cluster (largest first)")
    ax.set_ylabel("variables")
    ax.set_title(
        f"PEF: {len(sizes)} clusters of {pef.n_features_in_} variables, "
        f"{pef.n_cross_arcs_} arcs added by fusion",
        fontsize=9,
    )
    ax.legend(fontsize=7, frameon=False)
    return ax
