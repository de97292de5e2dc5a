# SPDX-License-Identifier: BSD-3-Clause
"""LiNGAM orientation: a DAG from a learner's CPDAG by pairwise likelihood ratios."""

from __future__ import annotations

import numpy as np
from sklearn.base import clone

from skbn._kernels.lingam import pair_differences
from skbn.base import BaseStructureLearner
from skbn.graph._array import directed_part, meek_orient_array, reaches, undirected_part
from skbn.graph._convert import to_adjacency
from skbn.utils._param_validation import HasMethods

__all__ = ["LiNGAMOrientation"]


class LiNGAMOrientation(BaseStructureLearner):
    """Orient the undirected edges of a learner's CPDAG by pairwise likelihood ratios.

    A score- or constraint-based learner on continuous data stops at the Markov equivalence
    class: the edges its CPDAG leaves undirected could point either way under Gaussian
    noise. When the noise is not Gaussian (a linear non-Gaussian acyclic model, LiNGAM),
    the direction of each edge is identifiable, and the pairwise likelihood ratio of
    Hyvarinen & Smith (2013) estimates it from the two variables alone: for standardised
    ``x`` and ``y`` with regression residuals ``r_x|y`` and ``r_y|x``,
    ``R = H(y) + H(r_x|y) - H(x) - H(r_y|x)`` (differential entropies by the maximum-entropy
    approximation, as DirectLiNGAM's ``pwling`` measure) is positive when ``x -> y`` is the
    likelier direction.

    The estimator fits a clone of ``estimator`` and orients its CPDAG's undirected edges
    one at a time, the most confident ratio (largest ``|R|``) first; after each, Meek's
    rules R1-R4 orient what follows from it, so no orientation creates a v-structure or a
    cycle and the result is a DAG of the learner's equivalence class (its directed edges,
    those its background knowledge fixed included, are kept). An edge Meek's rules oriented
    is not overruled by a weaker ratio.

    Parameters
    ----------
    estimator : estimator or None, default=None
        A learner whose ``graph_`` is a CPDAG, PDAG or DAG on the same data (BOSS, GRaSP,
        FGES, PC-Stable, ...), cloned. None means
        :func:`skbn.learners.default_learner` for the number of columns, seeded by
        ``random_state``. PAG learners are refused: their marks are not equivalence-class
        edges.
    random_state : int, RandomState instance or None, default=None
        Seeds the default learner; unused when ``estimator`` is given.

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The learned DAG.
    estimator_ : estimator
        The fitted clone of ``estimator``.
    cpdag_ : networkx.DiGraph
        The graph the clone learned.
    ratios_ : dict
        The likelihood ratio of each edge the CPDAG left undirected, keyed by the pair of
        names in the direction the ratio favours (``R >= 0``).
    n_oriented_ : int
        Edges oriented by their ratio (the rest of the undirected ones by Meek's rules).
    parameters_ : object
        Parameters of the DAG, used by ``score_samples``.
    feature_names_in_ : ndarray of str
    n_features_in_ : int
    data_kind_ : {"gaussian"}

    See Also
    --------
    DirectLiNGAM : The whole causal order from the same ratios, without a skeleton.

    Notes
    -----
    Each ratio reads the two variables alone, not given their other parents, as Hyvarinen &
    Smith's pairwise measures do on a given skeleton: with other parents it estimates the
    direction of the pair's total association. On Gaussian data the ratio carries no
    information about direction (any orientation of the class is as likely) and the
    equivalence class from the learner is the honest answer.

    References
    ----------
    A. Hyvarinen and S. M. Smith, "Pairwise likelihood ratios for estimation of non-Gaussian
    structural equation models", JMLR 14, 2013.

    Examples
    --------
    >>> from skbn.datasets import make_additive_noise, make_erdos_renyi_dag
    >>> from skbn.learners import BOSS, LiNGAMOrientation
    >>> dag = make_erdos_renyi_dag(8, 8, random_state=1)
    >>> sem = make_additive_noise(dag, mechanism="linear", noise="uniform", random_state=1)
    >>> X = sem.sample(2000, random_state=1)
    >>> est = LiNGAMOrientation(BOSS(random_state=0)).fit(X)
    >>> est.cpdag_
    <LearnedGraph cpdag: 8 nodes, 8 edges (2 directed, 6 undirected)>
    >>> est.graph_
    <LearnedGraph dag: 8 nodes, 8 edges (8 directed, 0 undirected)>
    >>> sum(dag.has_edge(u, v) for u, v in est.graph_.edges())  # arcs the true way round
    7
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "random_state": ["random_state"],
    }
    # ties between equal ratios go to the first pair in name order
    _runs_in_name_order = True

    def __init__(self, estimator=None, random_state=None) -> None:
        self.estimator = estimator
        self.random_state = random_state

    def _required_data_kind(self) -> str:
        return "gaussian"

    def _learner(self, n_features: int):
        if self.estimator is not None:
            return clone(self.estimator)
        from skbn.learners._registry import default_learner

        return default_learner(n_features, random_state=self.random_state)

    def _learn(self, data, constraints):
        names = list(data.names)
        fitted = self._learner(data.n_features).fit(data)
        graph = fitted.graph_
        if graph.graph.get("kind") == "pag":
            raise ValueError(
                f"{type(fitted).__name__} learns a PAG, whose circle marks are not the "
                "undirected edges of an equivalence class; LiNGAMOrientation takes a learner "
                "of CPDAGs or DAGs (BOSS, GRaSP, FGES, PCStable, ...)."
            )
        self.estimator_ = fitted
        self.cpdag_ = graph
        A = to_adjacency(graph, names).astype(np.int8)
        forbidden = None
        if isinstance(fitted, BaseStructureLearner):
            # the learner's own knowledge: Meek's rules never orient against it
            forbidden = ~fitted._edge_constraints(names).allowed
            np.fill_diagonal(forbidden, False)
        A = meek_orient_array(A, forbidden=forbidden, acyclic=True)
        first, second = np.nonzero(np.triu(undirected_part(A)))
        ratios = np.zeros(0)
        if len(first):
            X = np.ascontiguousarray(np.asarray(data.values, dtype=np.float64).T)
            ratios = pair_differences(X, first.astype(np.int64), second.astype(np.int64))
        self.ratios_ = {
            (names[i], names[j]) if r >= 0 else (names[j], names[i]): float(abs(r))
            for i, j, r in zip(first.tolist(), second.tolist(), ratios.tolist())
        }
        oriented = 0
        # the most confident first; equal ratios in name order (the data is in name order)
        for e in np.lexsort((second, first, -np.abs(ratios))):
            i, j = int(first[e]), int(second[e])
            if not (A[i, j] and A[j, i]):
                continue  # oriented by Meek's rules after a stronger ratio
            a, b = (i, j) if ratios[e] >= 0 else (j, i)
            directed = directed_part(A).astype(bool)
            if (forbidden is not None and forbidden[a, b]) or reaches(directed, b, a):
                # against the learner's knowledge, or a cycle (possible only where the
                # learner's colliders conflict, as PC-Stable's may): the other way round
                a, b = b, a
                if (forbidden is not None and forbidden[a, b]) or reaches(directed, b, a):
                    raise ValueError(
                        f"The graph {type(fitted).__name__} learned orients no way round "
                        f"the edge {names[i]} - {names[j]} without a cycle; its colliders "
                        "conflict. Use a learner whose CPDAG has a consistent extension "
                        "(BOSS, GRaSP, FGES)."
                    )
            A[b, a] = 0
            A = meek_orient_array(A, forbidden=forbidden, acyclic=True)
            oriented += 1
        self.n_oriented_ = oriented
        return A, "dag"
