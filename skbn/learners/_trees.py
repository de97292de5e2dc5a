# SPDX-License-Identifier: BSD-3-Clause
"""Tree-shaped networks: Chow-Liu trees and tree-augmented naive Bayes (TAN).

A Chow-Liu tree is the maximum-weight spanning tree of the pairwise mutual information,
the tree-shaped DAG of highest likelihood (Chow and Liu, 1968). TAN conditions the same
construction on a class variable: the tree is spanned on the conditional mutual information
given the class, which then becomes a parent of every other variable (Friedman, Geiger and
Goldszmidt, 1997). Both come from one local score, the log-likelihood: ``n`` times the
(conditional) mutual information of ``x`` and ``y`` is the gain in log-likelihood of ``y``
when ``x`` joins its parents. Another decomposable score (BIC, BDeu) subtracts its
penalty from those gains; pairs with no positive gain are then left out, and the tree
becomes a forest. The spanning tree is scipy's.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from scipy.sparse.csgraph import breadth_first_order, minimum_spanning_tree

from skbn.base import BaseStructureLearner
from skbn.scores._base import Score

__all__ = ["TAN", "ChowLiu"]


def _position(data, node, what: str) -> int:
    """Column position of ``node`` (a column name or position)."""
    names = list(data.names)
    if isinstance(node, Integral) and not isinstance(node, bool):
        if not -len(names) <= node < len(names):
            raise ValueError(f"{what}={node} is out of range for {len(names)} columns.")
        return int(node) % len(names)
    if str(node) not in names:
        shown = names[:8] + (["..."] if len(names) > 8 else [])
        raise ValueError(f"{what}={node!r} is not a column; the columns are {shown}.")
    return names.index(str(node))


def _refuse_mixed(data, who: str, spanned=None) -> None:
    """Refuse a tree over both discrete and continuous columns (among ``spanned``)."""
    if data.kind != "mixed":
        return
    discrete = data.discrete if spanned is None else data.discrete[spanned]
    if discrete.any() and not discrete.all():
        raise ValueError(
            f"{who} needs all-discrete or all-continuous columns: in a conditional-Gaussian "
            "network a continuous variable cannot be the parent of a discrete one, and a tree "
            "over both kinds may need such an arc. Discretise the continuous columns (e.g. "
            "sklearn.preprocessing.KBinsDiscretizer) or learn with HillClimb."
        )


def spanning_tree(weights: np.ndarray, root: int, among: np.ndarray) -> np.ndarray:
    """The maximum-weight spanning tree over ``among``, directed away from ``root``.

    Parameters
    ----------
    weights : ndarray of shape (p, p)
        Symmetric weights (e.g. mutual information); only the entries among ``among`` count.
    root : int
        The root; must be in ``among``.
    among : ndarray of int
        The positions spanned.

    Returns
    -------
    ndarray of shape (p, p), int8
        ``A[u, v] = 1`` for the arc ``u -> v``; tree arcs of weight ``<= 0`` are left out.
    """
    p = weights.shape[0]
    A = np.zeros((p, p), dtype=np.int8)
    m = len(among)
    if m < 2:
        return A
    W = weights[np.ix_(among, among)]
    W = np.maximum(W, W.T)
    # the maximum tree of W is the minimum tree of (top - W); every weight stays positive, so
    # scipy (which reads zeros as absent edges) sees a complete graph and returns one tree;
    # ties fall to the lower position, as scipy's Kruskal orders its edges stably
    cost = (W.max() + 1.0) - W
    np.fill_diagonal(cost, 0.0)
    tree = minimum_spanning_tree(np.triu(cost))
    tree = tree + tree.T
    start = int(np.flatnonzero(among == root)[0])
    order, predecessors = breadth_first_order(tree, start, directed=False)
    for v in order[1:]:
        u = predecessors[v]
        # an arc of no positive weight is left out: a forest (each part still a tree)
        if W[u, v] > 0:
            A[among[u], among[v]] = 1
    return A


class ChowLiu(BaseStructureLearner):
    """The Chow-Liu tree: the tree-shaped DAG of highest likelihood.

    Spans the variables with the maximum-weight tree of their pairwise mutual information
    (empirical, for discrete columns; ``-log(1 - r^2) / 2`` from the correlation, for
    continuous ones) and directs its arcs away from ``root``. Every root gives the same
    likelihood. The search is one pass over the pairs, so it is the fastest learner here, and
    the tree is a common start for a search or the structure of a classifier.

    Parameters
    ----------
    root : str or int, default=0
        The root (a column name or position); the tree's arcs point away from it.
    criterion : Score or str, default="loglik"
        The score whose single-parent gains weigh the pairs. ``"loglik"`` (the
        log-likelihood of the data's kind) gives ``n`` times the mutual information: the
        Chow-Liu tree. A penalised score (``"bic"``, ``"bdeu"``) keeps only the pairs whose
        gain beats the penalty: a forest.

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The tree (``p - 1`` arcs) or forest; ``graph_.graph["kind"] == "dag"``.
    weights_ : ndarray of shape (n_features, n_features)
        The symmetric pair weights the tree was spanned on: with ``"loglik"``, the mutual
        information in nats.
    network_, parameters_, feature_names_in_, n_features_in_, data_kind_
        As for every skbn learner.

    See Also
    --------
    TAN : The tree conditioned on a class variable.

    References
    ----------
    C. Chow and C. Liu, "Approximating discrete probability distributions with dependence
    trees", IEEE Transactions on Information Theory 14(3), 1968.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import ChowLiu
    >>> X = load_network("asia").sample(2000, random_state=0)
    >>> tree = ChowLiu(root="smoke").fit(X)
    >>> tree.graph_.number_of_edges(), tree.graph_.in_degree("smoke")
    (7, 0)
    """

    _parameter_constraints = {"root": [str, Integral], "criterion": [Score, str]}
    _family_parameters = ("criterion",)
    _handles_missing = True

    def __init__(self, root=0, criterion="loglik"):
        self.root = root
        self.criterion = criterion

    def _prepare(self, data, constraints):
        _refuse_mixed(data, "ChowLiu")
        return _position(data, self.root, "root")

    def _learn(self, data, root):
        S = self._resolved_score(data).bind(data).pairwise_scores()
        gain = (S - np.diag(S)[None, :]) / max(data.n_samples, 1)
        weights = (gain + gain.T) / 2
        np.fill_diagonal(weights, 0.0)
        self.weights_ = weights
        return spanning_tree(weights, root, np.arange(data.n_features)), "dag"


class TAN(BaseStructureLearner):
    """Tree-augmented naive Bayes: a class variable with a Chow-Liu tree under it.

    The class is a parent of every other variable, and those variables form the
    maximum-weight spanning tree of their mutual information conditional on the class,
    directed away from ``root``. It is the structure of
    :class:`~skbn.classification.BayesianNetworkClassifier` with ``structure="tan"``.

    Parameters
    ----------
    class_node : str or int, default=-1
        The class variable (a column name or position; the last column by default).
    root : str, int or None, default=None
        The root of the tree among the other variables; ``None``: the variable with the
        highest mutual information with the class.
    criterion : Score or str, default="loglik"
        The score whose gains weigh the pairs given the class; ``"loglik"``: ``n`` times
        the conditional mutual information (the TAN of Friedman et al.); a penalised score
        leaves out pairs with no positive gain (a forest under the class).

    Attributes
    ----------
    graph_ : networkx.DiGraph
        ``p - 1`` arcs from the class and ``p - 2`` tree arcs (fewer for a forest).
    weights_ : ndarray of shape (n_features, n_features)
        The symmetric pair weights given the class: with ``"loglik"``, the conditional
        mutual information in nats.
    network_, parameters_, feature_names_in_, n_features_in_, data_kind_
        As for every skbn learner.

    References
    ----------
    N. Friedman, D. Geiger and M. Goldszmidt, "Bayesian network classifiers", Machine
    Learning 29, 1997.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import TAN
    >>> X = load_network("asia").sample(2000, random_state=0)
    >>> tan = TAN(class_node="lung").fit(X)
    >>> tan.graph_.out_degree("lung"), tan.graph_.number_of_edges()
    (7, 13)
    """

    _parameter_constraints = {
        "class_node": [str, Integral],
        "root": [str, Integral, None],
        "criterion": [Score, str],
    }
    _family_parameters = ("criterion",)
    _handles_missing = True

    def __init__(self, class_node=-1, root=None, criterion="loglik"):
        self.class_node = class_node
        self.root = root
        self.criterion = criterion

    def _prepare(self, data, constraints):
        target = _position(data, self.class_node, "class_node")
        others = np.array([j for j in range(data.n_features) if j != target], dtype=np.int64)
        _refuse_mixed(data, "TAN", others)
        if data.kind == "mixed" and not data.discrete[target]:
            raise ValueError(
                f"class_node {data.names[target]!r} is continuous; TAN needs a discrete class."
            )
        root = None if self.root is None else _position(data, self.root, "root")
        if root is not None and root == target:
            raise ValueError("root must be another variable than class_node.")
        return target, root

    def _learn(self, data, prepared):
        target, root = prepared
        p = data.n_features
        bound = self._resolved_score(data).bind(data)
        n = max(data.n_samples, 1)
        with_class = np.array([target], dtype=np.int64)
        info = np.zeros((p, p))
        marginal = np.zeros(p)
        base = bound.toggle_scores(target, [])
        for y in range(p):
            if y == target:
                continue
            marginal[y] = (base[y] - base[target]) / n
            row = bound.toggle_scores(y, with_class)
            info[:, y] = (row - row[y]) / n
        info = (info + info.T) / 2
        info[target, :] = info[:, target] = 0.0
        np.fill_diagonal(info, 0.0)
        self.weights_ = info
        others = np.array([j for j in range(p) if j != target], dtype=np.int64)
        if root is None and len(others):
            root = int(others[np.argmax(marginal[others])])
        A = spanning_tree(info, root, others) if len(others) else np.zeros((p, p), np.int8)
        A[target, others] = 1
        return A, "dag"
