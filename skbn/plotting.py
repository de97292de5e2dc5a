# SPDX-License-Identifier: BSD-3-Clause
"""Plots for learned structures and for the meta-estimators' diagnostics.

Each function draws on a matplotlib ``Axes`` (a new figure when ``ax`` is None) and returns
it, so the caller saves or composes it: ``plot_cluster_sizes(pef).figure.savefig("p.png")``.

* :func:`plot_graph` -- a graph, with edges coloured against a true graph when given.
* :func:`plot_search_curve` -- a tuner's criterion against one hyperparameter (OTSL,
  in-sample, StARS, OCT, scikit-learn's own searches), the chosen configuration marked.
* :func:`plot_interval_curves` -- Intersection-Validation's PHD learning curves.
* :func:`plot_edge_strengths` -- bootstrap arc strengths as a heat map.
* :func:`plot_cluster_sizes` -- the clusters of a fitted :class:`~skbn.ensemble.PEFLearner`.
"""

from __future__ import annotations

import numpy as np

from skbn.graph import plot_graph

__all__ = [
    "plot_cluster_sizes",
    "plot_edge_strengths",
    "plot_graph",
    "plot_interval_curves",
    "plot_search_curve",
]

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
    search : fitted OTSLSearchCV, InSampleSearchCV, StARSSearchCV, OCTSearchCV or any
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

    Returns
    -------
    matplotlib Axes
    """
    return result.plot(ax=ax)


def plot_edge_strengths(source, ax=None, threshold: float | None = None):
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
    ax.set_xlabel("to")
    ax.set_ylabel("from")
    ax.set_title("bootstrap arc strength")
    ax.figure.colorbar(image, ax=ax, fraction=0.04)
    return ax


def plot_cluster_sizes(pef, ax=None):
    """Draw the sizes of a fitted PEFLearner's clusters and the "large cluster" threshold.

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
