# SPDX-License-Identifier: BSD-3-Clause
"""Greedy hill climbing over DAGs, with an optional tabu list and random restarts."""

from __future__ import annotations

from collections import deque
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state

from skbn.base import BaseStructureLearner, check_required_acyclic, edge_constraint_matrix
from skbn.graph._array import has_path as _reaches
from skbn.graph._array import topological_sort_array
from skbn.graph._convert import as_adjacency
from skbn.scores import Score
from skbn.utils._param_validation import HasMethods, Interval

__all__ = ["HillClimb"]

_ADD, _DELETE, _REVERSE = 0, 1, 2


class _Search:
    """State of one greedy search: the DAG, local scores and the toggle-delta table.

    ``delta[x, y]`` is the change of the score when ``x`` is toggled in the parent set of
    ``y`` (added if absent, removed if present); a reversal of ``x -> y`` changes the score by
    ``delta[x, y] + delta[y, x]``. Only the columns of nodes whose parents change are
    recomputed after a move.
    """

    def __init__(self, bound, A, allowed, required, max_indegree):
        self.bound = bound
        self.A = A.astype(bool)
        self.allowed = allowed
        self.required = required
        self.max_indegree = max_indegree
        p = A.shape[0]
        self.local = np.empty(p)
        self.delta = np.empty((p, p))
        for y in range(p):
            self._refresh(y)

    def _refresh(self, y: int) -> None:
        column = self.bound.toggle_scores(y, np.flatnonzero(self.A[:, y]))
        self.local[y] = column[y]
        self.delta[:, y] = column - column[y]
        self.delta[y, y] = -np.inf

    @property
    def total(self) -> float:
        return float(self.local.sum())

    def candidate_deltas(self) -> np.ndarray:
        """Deltas of every add/delete/reverse move as a (3, p, p) array.

        Entries are -inf for moves that are illegal for reasons other than acyclicity and the
        tabu list, which are checked lazily on the best candidates only.
        """
        A, d = self.A, self.delta
        indeg_ok = np.ones(A.shape[0], dtype=bool)
        if self.max_indegree is not None:
            indeg_ok = A.sum(axis=0) < self.max_indegree
        out = np.full((3,) + A.shape, -np.inf)
        can_add = ~A & ~A.T & self.allowed & indeg_ok[None, :]
        out[_ADD][can_add] = d[can_add]
        removable = A & ~self.required
        out[_DELETE][removable] = d[removable]
        can_rev = removable & self.allowed.T & indeg_ok[:, None]
        out[_REVERSE][can_rev] = (d + d.T)[can_rev]
        return out

    def acyclic_after(self, move: int, x: int, y: int) -> bool:
        if move == _ADD:
            return not _reaches(self.A, y, x)
        if move == _REVERSE:
            return not _reaches(self.A, x, y, skip=(x, y))
        return True

    def apply(self, move: int, x: int, y: int) -> None:
        if move == _ADD:
            self.A[x, y] = True
            self._refresh(y)
        elif move == _DELETE:
            self.A[x, y] = False
            self._refresh(y)
        else:
            self.A[x, y] = False
            self.A[y, x] = True
            self._refresh(y)
            self._refresh(x)


def _arcs_toggled(move: int, x: int, y: int) -> list[tuple[int, int]]:
    return [(x, y)] if move != _REVERSE else [(x, y), (y, x)]


def _climb(search: _Search, *, tabu_length, max_tabu, max_iter, tol, keys):
    """Greedy search from the search's current DAG. Returns (best A, best score, n_iter)."""
    state = int(np.bitwise_xor.reduce(keys[search.A])) if search.A.any() else 0
    tabu: deque[int] = deque(maxlen=max(tabu_length, 1))
    tabu_set: dict[int, int] = {}

    def remember(h: int) -> None:
        if tabu_length == 0:
            return
        if len(tabu) == tabu.maxlen:
            old = tabu[0]
            tabu_set[old] -= 1
            if not tabu_set[old]:
                del tabu_set[old]
        tabu.append(h)
        tabu_set[h] = tabu_set.get(h, 0) + 1

    remember(state)
    best_A, best_score = search.A.copy(), search.total
    n_iter = 0
    stale = 0
    while max_iter is None or n_iter < max_iter:
        deltas = search.candidate_deltas()
        threshold = tol if tabu_length == 0 else -np.inf
        flat = deltas.ravel()
        candidates = np.flatnonzero(flat > threshold)
        if len(candidates) == 0:
            break
        # Best first; ties broken by move type then row-major position (deterministic).
        order = candidates[np.lexsort((candidates, -flat[candidates]))]
        chosen = None
        p = search.A.shape[0]
        for idx in order.tolist():
            move, rest = divmod(idx, p * p)
            x, y = divmod(rest, p)
            new_state = state
            for u, v in _arcs_toggled(move, x, y):
                new_state ^= int(keys[u, v])
            if tabu_length and new_state in tabu_set:
                continue
            if not search.acyclic_after(move, x, y):
                continue
            chosen = (move, x, y, new_state)
            break
        if chosen is None:
            break
        move, x, y, state = chosen
        search.apply(move, x, y)
        remember(state)
        n_iter += 1
        score = search.total
        if score > best_score + tol:
            best_A, best_score = search.A.copy(), score
            stale = 0
        else:
            stale += 1
            if tabu_length == 0 or stale >= max_tabu:
                break
    return best_A, best_score, n_iter


def _perturb(A, allowed, required, max_indegree, n_moves, rng):
    """Apply ``n_moves`` random legal add/delete/reverse moves to a copy of A."""
    A = A.copy()
    p = A.shape[0]
    done = 0
    for _ in range(100 * max(n_moves, 1)):
        if done == n_moves or p < 2:
            break
        x, y = rng.choice(p, size=2, replace=False)
        if A[x, y] and not required[x, y]:
            if rng.random_sample() < 0.5:
                A[x, y] = False
                done += 1
            elif (
                allowed[y, x]
                and (max_indegree is None or A[:, x].sum() < max_indegree)
                and not _reaches(A, x, y, skip=(x, y))
            ):
                A[x, y], A[y, x] = False, True
                done += 1
        elif (
            not A[x, y]
            and not A[y, x]
            and allowed[x, y]
            and (max_indegree is None or A[:, y].sum() < max_indegree)
            and not _reaches(A, y, x)
        ):
            A[x, y] = True
            done += 1
    return A


class HillClimb(BaseStructureLearner):
    """Score-based structure learning by greedy hill climbing over DAGs.

    Each step applies the single arc addition, deletion or reversal that most improves a
    decomposable score, keeping the graph acyclic; the search stops at a local optimum. A
    tabu list (``tabu_length > 0``) lets the search walk through non-improving moves, and
    random restarts perturb the best DAG and climb again.

    Local scores are cached, and a table of score changes is kept so that after a move only
    the families whose parents changed are rescored.

    Parameters
    ----------
    criterion : Score, default=None
        The score to maximise (a :mod:`skbn.scores` object); None uses
        :class:`~skbn.scores.BIC` on discrete data and :class:`~skbn.scores.GaussianBIC` on
        continuous data.
    max_indegree : int, default=None
        Largest parent set; None for no limit.
    tabu_length : int, default=0
        Number of recently visited DAGs the search may not return to. With 0 the search
        stops at the first local optimum (plain hill climbing).
    max_tabu : int, default=None
        With a tabu list: stop after this many moves without improving the best score.
        Defaults to ``tabu_length`` (bnlearn's ``max.tabu``).
    max_iter : int, default=None
        Largest number of moves per climb; None for no limit.
    n_restarts : int, default=0
        Random restarts after the first climb; each perturbs the best DAG so far.
    n_perturbations : int, default=1
        Random moves applied at each restart.
    start_graph : networkx.DiGraph or array-like, default=None
        DAG to start from (its arcs must respect the constraints); default the empty graph
        plus ``required_edges``.
    allowed_edges, forbidden_edges, required_edges : iterable of (u, v), DiGraph or array
        Arcs the search may use (all if None), may not use, and must keep.
    tol : float, default=1e-9
        A move must improve the score by more than this.
    random_state : int, RandomState instance or None, default=None
        Seeds the restarts' perturbations and the tabu list's hashing.
    verbose : int, default=0
        Above 0, show a progress bar over restarts.

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The learned DAG over the feature names.
    score_ : float
        Its score on the training data.
    n_iter_ : int
        Moves made in all climbs together.
    parameters_ : object
        Fitted CPTs or regressions, used by ``score_samples``.
    feature_names_in_ : ndarray of str
    n_features_in_ : int
    data_kind_ : {"discrete", "gaussian"}
        The kind of data the learner was fitted on.

    See Also
    --------
    TabuSearch : hill climbing with a tabu list by default.

    References
    ----------
    M. Scutari, C. E. Graafland and J. M. Gutierrez, "Who learns better Bayesian network
    structures: accuracy and speed of structure learning algorithms", IJAR 115, 2019.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import HillClimb
    >>> X = load_network("asia").sample(2000, random_state=0)
    >>> hc = HillClimb().fit(X)
    >>> hc.graph_.number_of_nodes(), hc.graph_.graph["kind"]
    (8, 'dag')
    """

    _parameter_constraints = {
        "criterion": [Score, None],
        "max_indegree": [Interval(Integral, 0, None, closed="left"), None],
        "tabu_length": [Interval(Integral, 0, None, closed="left")],
        "max_tabu": [Interval(Integral, 1, None, closed="left"), None],
        "max_iter": [Interval(Integral, 0, None, closed="left"), None],
        "n_restarts": [Interval(Integral, 0, None, closed="left")],
        "n_perturbations": [Interval(Integral, 1, None, closed="left")],
        "start_graph": ["array-like", HasMethods(["edges"]), None],
        "allowed_edges": ["array-like", HasMethods(["edges"]), None],
        "forbidden_edges": ["array-like", HasMethods(["edges"]), None],
        "required_edges": ["array-like", HasMethods(["edges"]), None],
        "tol": [Interval(Real, 0, None, closed="left")],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        criterion: Score | None = None,
        *,
        max_indegree: int | None = None,
        tabu_length: int = 0,
        max_tabu: int | None = None,
        max_iter: int | None = None,
        n_restarts: int = 0,
        n_perturbations: int = 1,
        start_graph=None,
        allowed_edges=None,
        forbidden_edges=None,
        required_edges=None,
        tol: float = 1e-9,
        random_state=None,
        verbose: int = 0,
    ) -> None:
        self.criterion = criterion
        self.max_indegree = max_indegree
        self.tabu_length = tabu_length
        self.max_tabu = max_tabu
        self.max_iter = max_iter
        self.n_restarts = n_restarts
        self.n_perturbations = n_perturbations
        self.start_graph = start_graph
        self.allowed_edges = allowed_edges
        self.forbidden_edges = forbidden_edges
        self.required_edges = required_edges
        self.tol = tol
        self.random_state = random_state
        self.verbose = verbose

    def _constraints(self, names):
        p = len(names)
        allowed = edge_constraint_matrix(self.allowed_edges, names, "allowed_edges")
        forbidden = edge_constraint_matrix(self.forbidden_edges, names, "forbidden_edges")
        required = edge_constraint_matrix(self.required_edges, names, "required_edges")
        allowed = np.ones((p, p), dtype=bool) if allowed is None else allowed.copy()
        np.fill_diagonal(allowed, False)
        if forbidden is not None:
            allowed &= ~forbidden
        required = np.zeros((p, p), dtype=bool) if required is None else required
        if np.any(required & ~allowed):
            bad = [(names[i], names[j]) for i, j in zip(*np.nonzero(required & ~allowed))]
            raise ValueError(f"required_edges {bad[:5]} are forbidden or not allowed.")
        check_required_acyclic(required, names)
        if self.max_indegree is not None and np.any(required.sum(axis=0) > self.max_indegree):
            raise ValueError("required_edges give some node more parents than max_indegree.")
        return allowed, required

    def _start(self, names, allowed, required) -> np.ndarray:
        if self.start_graph is None:
            return required.copy()
        A, _ = as_adjacency(
            self.start_graph, list(names) if hasattr(self.start_graph, "nodes") else None
        )
        if A.shape[0] != len(names):
            raise ValueError(f"start_graph has {A.shape[0]} nodes; X has {len(names)} columns.")
        A = A.astype(bool) | required
        if topological_sort_array(A.astype(np.int8)) is None:
            raise ValueError("start_graph (with required_edges) is not a DAG.")
        if np.any(A & ~allowed):
            raise ValueError("start_graph uses arcs that are forbidden or not allowed.")
        if self.max_indegree is not None and np.any(A.sum(axis=0) > self.max_indegree):
            raise ValueError("start_graph has a node with more parents than max_indegree.")
        return A

    def _prepare(self, data):
        allowed, required = self._constraints(data.names)
        return allowed, required, self._start(data.names, allowed, required)

    def _learn(self, data, prepared):
        allowed, required, A0 = prepared
        rng = check_random_state(self.random_state)
        p = data.n_features
        keys = rng.randint(1, np.iinfo(np.int64).max, size=(p, p), dtype=np.int64)
        bound = self._resolved_score(data).bind(data)
        max_tabu = self.max_tabu if self.max_tabu is not None else max(self.tabu_length, 1)
        options = dict(
            tabu_length=self.tabu_length,
            max_tabu=max_tabu,
            max_iter=self.max_iter,
            tol=self.tol,
            keys=keys,
        )
        search = _Search(bound, A0, allowed, required, self.max_indegree)
        best_A, best_score, n_iter = _climb(search, **options)
        restarts = range(self.n_restarts)
        if self.verbose and self.n_restarts:
            from tqdm.auto import tqdm

            restarts = tqdm(restarts, desc=f"{type(self).__name__} restarts")
        for _ in restarts:
            start = _perturb(
                best_A, allowed, required, self.max_indegree, self.n_perturbations, rng
            )
            search = _Search(bound, start, allowed, required, self.max_indegree)
            A, score, k = _climb(search, **options)
            n_iter += k
            if score > best_score + self.tol:
                best_A, best_score = A, score
        self.score_ = best_score
        self.n_iter_ = n_iter
        return best_A.astype(np.int8), "dag"
