# SPDX-License-Identifier: BSD-3-Clause
"""Greedy hill climbing over DAGs, with an optional tabu list and random restarts."""

from __future__ import annotations

from collections import deque
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state

from skbn._kernels.dag import best_move, move_gains, reachability
from skbn.base import BaseStructureLearner
from skbn.constraints import CONSTRAINT_PARAMETERS, start_graph_matrix
from skbn.graph._array import has_path as _reaches
from skbn.scores import Score
from skbn.utils._memory import check_allocation
from skbn.utils._numeric import significant
from skbn.utils._param_validation import HasMethods, Interval, StrOptions

__all__ = ["HillClimb"]

_ADD, _DELETE, _REVERSE = 0, 1, 2
#: Relative difference under which two moves' gains count as equal (float noise is ~1e-12).
_TIE = 1e-9


class _Search:
    """State of one greedy search: the DAG, local scores and the toggle-delta table.

    ``delta[x, y]`` is the change of the score when ``x`` is toggled in the parent set of
    ``y`` (added if absent, removed if present); a reversal of ``x -> y`` changes the score by
    ``delta[x, y] + delta[y, x]``. Only the columns of nodes whose parents change are
    recomputed after a move, and columns are cached by family in ``cache`` (shared by the
    climbs of one fit). ``R`` holds which node reaches which, so every move that would close
    a cycle is masked at once.
    """

    def __init__(self, bound, A, allowed, required, max_indegree, cache):
        self.bound = bound
        self.A = A.astype(bool)
        self.allowed = allowed
        self.required = required
        self.max_indegree = max_indegree
        self.cache = cache
        p = A.shape[0]
        self.local = np.empty(p)
        self.delta = np.empty((p, p))
        if not self.A.any():
            if "pairwise" not in cache:
                cache["pairwise"] = bound.pairwise_scores()
            S = cache["pairwise"]
            self.local[:] = np.diag(S)
            np.subtract(S, self.local[None, :], out=self.delta)  # no (p, p) temporary
            np.fill_diagonal(self.delta, -np.inf)
        else:
            for y in range(p):
                self._refresh(y)
        self.R = reachability(self.A)
        self._gains = np.empty((3, p, p))

    def _refresh(self, y: int) -> None:
        parents = np.flatnonzero(self.A[:, y])
        key = (y, parents.tobytes())
        column = self.cache.get(key)
        if column is None:
            column = self.cache[key] = self.bound.toggle_scores(y, parents)
        self.local[y] = column[y]
        self.delta[:, y] = column - column[y]
        self.delta[y, y] = -np.inf

    @property
    def total(self) -> float:
        return float(self.local.sum())

    def candidate_deltas(self) -> np.ndarray:
        """Deltas of every add/delete/reverse move as a (3, p, p) array.

        Entries are -inf for illegal moves (cycles, constraints, in-degree); the tabu list
        is checked on the best candidates only. The array is reused between steps.
        """
        limit = -1 if self.max_indegree is None else self.max_indegree
        move_gains(self.A, self.R, self.delta, self.allowed, self.required, limit, self._gains)
        return self._gains

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
        self.R = reachability(self.A)


def _arcs_toggled(move: int, x: int, y: int) -> list[tuple[int, int]]:
    return [(x, y)] if move != _REVERSE else [(x, y), (y, x)]


def _tie_key(idx: int, rank: np.ndarray) -> int:
    """Key of a move for breaking ties: move type, then the tie order of x, then of y.

    Computed per move, not stored: a table of every move's key is 24 bytes a pair (2.4 GB
    at 10,000 variables).
    """
    p = len(rank)
    move, rest = divmod(idx, p * p)
    x, y = divmod(rest, p)
    return move * p * p + int(rank[x]) * p + int(rank[y])


def _climb(search: _Search, *, tabu_length, max_tabu, max_iter, tol, keys, rank):
    """Greedy search from the search's current DAG. Returns (best A, best score, n_iter).

    Each step takes the best legal move. Moves whose gains differ by less than rounding
    (``x -> y`` and ``y -> x`` under a score-equivalent score) are ties, won by the move
    that comes first in the tie order ``rank``, so the choice does not depend on
    floating-point noise or the column order.
    """
    state = int(np.bitwise_xor.reduce(keys[search.A])) if search.A.any() else 0
    tabu: deque[int] = deque(maxlen=max(tabu_length, 1))
    tabu_set: dict[int, int] = {}
    p = search.A.shape[0]

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

    def new_state(idx):
        move, rest = divmod(idx, p * p)
        x, y = divmod(rest, p)
        h = state
        for u, v in _arcs_toggled(move, x, y):
            h ^= int(keys[u, v])
        return h

    remember(state)
    best_A, best_score = search.A.copy(), search.total
    n_iter = 0
    stale = 0
    while max_iter is None or n_iter < max_iter:
        gains = search.candidate_deltas()
        if tabu_length == 0:
            chosen = int(best_move(gains, rank, tol, _TIE))
            if chosen < 0:
                break
        else:
            flat = gains.ravel()
            chosen = _best_non_tabu(flat, rank, new_state, tabu_set)
            if chosen is None:
                break
        move, rest = divmod(chosen, p * p)
        x, y = divmod(rest, p)
        state = new_state(chosen)
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


def _best_non_tabu(flat, rank, new_state, tabu_set):
    """The best legal move that does not return to a tabu DAG (ties by the tie order).

    Candidates are looked at best first, a block at a time, so a step rarely sorts more
    than the few best of its ``3 p**2`` moves.
    """
    legal = np.flatnonzero(flat > -np.inf)
    gains = -flat[legal]
    start, size = 0, 64
    while start < len(legal):
        top = min(start + size, len(legal))
        if top < len(legal):
            part = np.argpartition(gains, top - 1)[:top]
        else:
            part = np.arange(len(legal))
        ranked = legal[part[np.argsort(gains[part], kind="stable")]]
        block = ranked[start:top].tolist()
        for k, idx in enumerate(block):
            if new_state(idx) in tabu_set:
                continue
            level = flat[idx] - _TIE * max(1.0, abs(flat[idx]))
            chosen = idx
            for other in block[k + 1 :]:
                if flat[other] < level:
                    break
                if (
                    _tie_key(other, rank) < _tie_key(chosen, rank)
                    and new_state(other) not in tabu_set
                ):
                    chosen = other
            return chosen
        start, size = top, size * 2
    return None


def infeasible_families(bound, A) -> np.ndarray:
    """The nodes whose family in ``A`` the bound score rates ``-inf`` (outside its model).

    A conditional-Gaussian score does so for a continuous node with a configuration of its
    discrete parents seen in too few rows for its regression; a climb cannot start there,
    as every move's gain would be ``-inf - -inf``.
    """
    A = np.asarray(A, dtype=bool)
    bad = []
    for y in np.flatnonzero(A.any(axis=0)):
        if not np.isfinite(bound.family_score(int(y), tuple(np.flatnonzero(A[:, y]).tolist()))):
            bad.append(int(y))
    return np.asarray(bad, dtype=np.int64)


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
    criterion : str, Score or None, default=None
        The score to maximise: a family name (``"bic"``, ``"bdeu"``, ``"ebic"``, ...; see
        :func:`~skbn.scores.get_score_names`), resolved for the data's kind at ``fit``, or a
        :mod:`skbn.scores` object. None means the default score:
        ``EBIC(gamma="auto")`` on discrete data (BIC exactly unless chance edges would be
        many; :class:`~skbn.scores.EBIC`), ``GaussianEBIC(gamma=1)`` on continuous data
        (chosen by measurement; see the documentation's "How the default scores were chosen"
        and "Wide discrete data" pages). ``"bic"`` gives the Gaussian BIC of earlier releases.
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
    start_graph : networkx.DiGraph, array-like or list of (u, v), default=None
        DAG to start from, as a graph, an adjacency array in column order or a list of arcs
        between column names (its arcs must respect the constraints); default the empty
        graph plus ``required_edges``.
    allowed_edges, forbidden_edges, required_edges : iterable of (u, v), DiGraph or array
        Arcs the search may use (all if None), may not use, and must keep.
    tiers : list of lists of str, dict or Tiers, default=None
        Background-knowledge order: no arc from a later tier to an earlier one (see
        :class:`~skbn.constraints.Tiers`, which can also forbid arcs within tiers).
    tol : float, default=1e-9
        A move must improve the score by more than this.
    tie_order : {"stable", "decreasing", "increasing", "columns", "names"}, default="stable"
        How the search chooses between moves of equal gain (``x -> y`` and ``y -> x`` under
        a score-equivalent score), which decides which local optimum it reaches. The
        candidate that comes first in a variable order wins. "stable" climbs twice, with the
        variables by decreasing score with no parent (ties: mean score with one parent,
        then name) and in the reverse order, and keeps the better result (Kitson &
        Constantinou's HC-Stable); "decreasing" and "increasing" climb once with one of
        them. All three depend on the data only, so the result is the same for every
        column order. "columns" uses the column order, as bnlearn does (its ``hc`` and
        ``tabu`` are reproduced exactly), and depends on it; "names" sorts by name.
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
    TabuSearch : Hill climbing with a tabu list by default.

    References
    ----------
    M. Scutari, C. E. Graafland and J. M. Gutierrez, "Who learns better Bayesian network
    structures: accuracy and speed of structure learning algorithms", IJAR 115, 2019.
    N. K. Kitson and A. C. Constantinou, "Eliminating variable order instability in greedy
    score-based structure learning", PGM 2024.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import HillClimb
    >>> X = load_network("asia").sample(2000, random_state=0)
    >>> hc = HillClimb().fit(X)
    >>> hc.graph_.number_of_nodes(), hc.graph_.graph["kind"]
    (8, 'dag')
    """

    _family_parameters = ("criterion",)
    _handles_missing = True
    _constraint_kinds = frozenset({"allowed", "forbidden", "required", "tiers"})
    _runs_in_name_order = True

    _parameter_constraints = {
        "criterion": [Score, str, None],
        "max_indegree": [Interval(Integral, 0, None, closed="left"), None],
        "tabu_length": [Interval(Integral, 0, None, closed="left")],
        "max_tabu": [Interval(Integral, 1, None, closed="left"), None],
        "max_iter": [Interval(Integral, 0, None, closed="left"), None],
        "n_restarts": [Interval(Integral, 0, None, closed="left")],
        "n_perturbations": [Interval(Integral, 1, None, closed="left")],
        "start_graph": ["array-like", HasMethods(["edges"]), None],
        **CONSTRAINT_PARAMETERS,
        "tol": [Interval(Real, 0, None, closed="left")],
        "tie_order": [StrOptions({"stable", "decreasing", "increasing", "columns", "names"})],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        criterion: Score | str | None = None,
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
        tiers=None,
        tol: float = 1e-9,
        tie_order: str = "stable",
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
        self.tiers = tiers
        self.tol = tol
        self.tie_order = tie_order
        self.random_state = random_state
        self.verbose = verbose

    def _constraints(self, constraints):
        allowed, required = constraints.allowed.copy(), constraints.required.copy()
        if self.max_indegree is not None and np.any(required.sum(axis=0) > self.max_indegree):
            raise ValueError("required_edges give some node more parents than max_indegree.")
        return allowed, required

    def _start(self, names, allowed, required) -> np.ndarray:
        if self.start_graph is None:
            return required.copy()
        A = start_graph_matrix(self.start_graph, names, required, self._data_positions())
        if np.any(A & ~allowed):
            raise ValueError("start_graph uses arcs that are forbidden or not allowed.")
        if self.max_indegree is not None and np.any(A.sum(axis=0) > self.max_indegree):
            raise ValueError("start_graph has a node with more parents than max_indegree.")
        return A

    def _prepare(self, data, constraints):
        p = data.n_features
        # pairwise scores and toggle deltas (8 bytes a pair each), the move gains (24), the
        # tabu hash keys (8), graph, reach and masks (4), and temporaries while they are
        # formed: 61 bytes a pair measured by tracemalloc at 4,000 variables (6.3 GB of
        # resident memory at 10,000)
        check_allocation(
            64.0 * p * p,
            f"{type(self).__name__} on {p} variables (its (p, p) tables of moves)",
            "use FGES (criterion as here; --learner fges on the command line), whose memory "
            "grows with the edges, not with p squared",
        )
        allowed, required = self._constraints(constraints)
        return allowed, required, self._start(data.names, allowed, required)

    def _check_start(self, bound, A0, names) -> None:
        """Refuse a start graph with a family the score rates ``-inf``, before the climb."""
        bad = infeasible_families(bound, A0)
        if not len(bad):
            return
        families = "; ".join(
            f"{names[y]!r} <- {[names[u] for u in np.flatnonzero(A0[:, y])]}" for y in bad[:5]
        )
        more = f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""
        raise ValueError(
            f"start_graph (with required_edges) gives families that {type(bound.score).__name__} "
            f"scores -inf on this data: {families}{more}. With a conditional-Gaussian score "
            "a continuous node needs more rows than continuous parents plus one in every "
            "configuration of its discrete parents. Remove some of those arcs from "
            "start_graph."
        )

    @staticmethod
    def _pairwise(bound, cache):
        if "pairwise" not in cache:
            cache["pairwise"] = bound.pairwise_scores()
        return cache["pairwise"]

    def _tie_orders(self, bound, order, cache) -> list[np.ndarray]:
        """The tie orders to climb with, as ranks of the (name-ordered) variables.

        "stable": the variables by decreasing score with no parent (then by mean score with
        one parent, then by name), and the reverse of that; "decreasing" and "increasing":
        one of them; "columns": the data's column order; "names": the names' order.
        """
        p = len(order)
        if self.tie_order == "names":
            return [np.arange(p)]
        if self.tie_order == "columns":
            return [order.copy()]  # canonical position j is original column order[j]
        S = self._pairwise(bound, cache)
        # compared at 10 significant figures: scores equal up to rounding (every column of
        # standardised data has the same score alone) must not be ordered by float noise
        alone = significant(np.diag(S))
        # the mean over the parents a score allows (a conditional-Gaussian score gives a
        # discrete child of a continuous parent -inf)
        finite = np.isfinite(S)
        np.fill_diagonal(finite, False)
        with_one = significant(
            np.where(finite, S, 0.0).sum(axis=0) / np.maximum(finite.sum(axis=0), 1)
        )
        # decreasing score alone, then decreasing mean score with one parent, then name
        by_score = np.lexsort((np.arange(p), -with_one, -alone))
        decreasing = np.empty(p, dtype=np.int64)
        decreasing[by_score] = np.arange(p)
        increasing = p - 1 - decreasing
        return {
            "stable": [decreasing, increasing],
            "decreasing": [decreasing],
            "increasing": [increasing],
        }[self.tie_order]

    def _learn(self, data, prepared):
        # the base runs this on the columns in name order (_runs_in_name_order); the tie
        # order (how moves of equal gain are chosen between) is separate from it
        allowed, required, A0 = prepared
        p = data.n_features
        order = self._data_positions()
        order = np.arange(p) if order is None else order
        rng = check_random_state(self.random_state)
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
        self._check_start(bound, A0, data.names)
        cache: dict = {}
        best = None
        n_iter = 0
        for rank in self._tie_orders(bound, order, cache):
            search = _Search(bound, A0, allowed, required, self.max_indegree, cache)
            A, score, k = _climb(search, rank=rank, **options)
            # the next search's (p, p) tables are formed while this name holds the last
            # one's: drop it first (a third of the peak memory)
            del search
            n_iter += k
            if best is None or score > best[1] + self.tol:
                best = (A, score, rank)
        best_A, best_score, rank = best
        restarts = range(self.n_restarts)
        if self.verbose and self.n_restarts:
            from tqdm.auto import tqdm

            restarts = tqdm(restarts, desc=f"{type(self).__name__} restarts")
        for _ in restarts:
            # a perturbation that leaves a family outside the score's model (-inf) is drawn
            # again (a few times, then the restart climbs from the best DAG itself)
            for _ in range(10):
                start = _perturb(
                    best_A, allowed, required, self.max_indegree, self.n_perturbations, rng
                )
                if not len(infeasible_families(bound, start)):
                    break
            else:
                start = best_A.copy()
            search = _Search(bound, start, allowed, required, self.max_indegree, cache)
            A, score, k = _climb(search, rank=rank, **options)
            del search
            n_iter += k
            if score > best_score + self.tol:
                best_A, best_score = A, score
        self.score_ = best_score
        self.n_iter_ = n_iter
        return best_A.astype(np.int8), "dag"
