# SPDX-License-Identifier: BSD-3-Clause
"""Greedy relaxations of the sparsest permutation (GRaSP): tucks over orders."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from skbn._kernels.boss import stretch_nodes
from skbn._kernels.grasp import _TUCKS, SETTLED, Frames, Run, tuck, tuck_search
from skbn.constraints import CONSTRAINT_PARAMETERS
from skbn.learners._boss import _TOL, _Forest, _missing_buffers, _OrderSearch, _start_order
from skbn.scores import Score
from skbn.utils._parallel import N_JOBS_CONSTRAINT
from skbn.utils._param_validation import Interval

__all__ = ["GRaSP"]


class _Tucks:
    """One GRaSP run's state: an order, each variable's tree node under it, their scores.

    A tuck of the arc ``x -> y`` moves ``y``, with those of its ancestors that stand between
    ``x`` and ``y``, in front of ``x`` (keeping their relative order); only the variables in
    that stretch of the order get new parents, looked up in the shared grow-shrink trees.
    The search itself runs in :func:`skbn._kernels.grasp.tuck_search`, which pauses when the
    trees lack a look-up; this class fills the trees in and resumes it.
    """

    def __init__(self, forest: _Forest, order: np.ndarray, required, rng) -> None:
        self.forest = forest
        self.p = p = forest.p
        self.order = order.copy()
        self.pos = np.empty(p, np.int64)
        self.pos[self.order] = np.arange(p)
        self.rng = rng
        pairs = np.zeros((0, 2), np.int64) if required is None else np.argwhere(required)
        self.node = np.zeros(p, np.int64)
        self.local = np.zeros(p)
        #: the arrays above and the required arcs, as the kernels read them
        self.run = Run(
            order=self.order,
            pos=self.pos,
            node=self.node,
            local=self.local,
            req_a=np.ascontiguousarray(pairs[:, 0], dtype=np.int64),
            req_b=np.ascontiguousarray(pairs[:, 1], dtype=np.int64),
            seen=np.zeros(p, bool),
            stack=np.empty(p, np.int64),
        )
        self._requests = _missing_buffers(p)
        self._rescore(0, p - 1)
        self.n_tucks = 0

    @property
    def total(self) -> float:
        return float(self.local.sum())

    def parents(self, v: int) -> tuple:
        return self.forest.kept(int(self.node[v]))

    def _rescore(self, first: int, last: int) -> float:
        """Look up the parents of the variables at positions first..last; the score change."""
        stretch = self.order[first : last + 1]
        prefix = self.pos < first
        forest = self.forest
        while True:
            nodes, scores, count = stretch_nodes(stretch, prefix, forest.trees(), self._requests)
            if count == 0:
                break
            forest.fill(self._requests, count)
        before = float(self.local[stretch].sum())
        self.node[stretch] = nodes
        self.local[stretch] = scores
        return float(scores.sum()) - before

    def _tuck(self, j: int, i: int) -> bool:
        """Tuck the variable at ``i`` in front of position ``j``; False if knowledge forbids."""
        return tuck(j, i, self.run, self.forest.pool())

    def search(self, depth: int) -> None:
        """Take improving tuck chains (up to ``depth`` tucks deep) until none is left."""
        p = self.p
        frames = Frames(
            state=np.array([-1, 0, 0], np.int64),
            rng=np.array([self.rng.randint(2**63, dtype=np.int64)], np.uint64),
            perm=np.empty((depth, p), np.int64),
            ii=np.zeros(depth, np.int64),
            cand=np.empty((depth, p), np.int64),
            ncand=np.zeros(depth, np.int64),
            cc=np.zeros(depth, np.int64),
            y_pos=np.zeros(depth, np.int64),
            x_of=np.zeros(depth, np.int64),
            j_of=np.zeros(depth, np.int64),
            win_order=np.empty((depth, p), np.int64),
            win_node=np.empty((depth, p), np.int64),
            win_local=np.empty((depth, p)),
            flips=np.empty((depth, depth * p), np.int64),
            flip_len=np.zeros(depth, np.int64),
            now=np.empty(depth * p, np.int64),
            in_prefix=np.zeros(p, bool),
        )
        f = self.forest
        while True:
            status, count = tuck_search(
                depth, _TOL, self.run, frames, f.trees(), f.pool(), self._requests
            )
            if status == SETTLED:
                break
            f.fill(self._requests, count)
        self.n_tucks = int(frames.state[_TUCKS])


def _run_tucks(bound, allowed, required, start, seeds, depth):
    forest = _Forest(bound, allowed, required)
    runs = []
    for seed in seeds:
        rng = np.random.RandomState(seed)
        state = _Tucks(
            forest,
            _start_order(forest.p, start if start is not None else required, rng),
            required,
            rng,
        )
        state.search(depth)
        parents = [state.parents(v) for v in range(forest.p)]
        runs.append((state.order, parents, state.total, state.n_tucks))
    return runs, forest.n_nodes


class GRaSP(_OrderSearch):
    """Greedy relaxations of the sparsest permutation: score-based search over orders by tucks.

    Like :class:`BOSS`, GRaSP (Lam, Andrews and Ramsey 2022) searches over orders of the
    variables, each order standing for its best DAG (every variable takes the best-scoring
    parents among its predecessors, found by grow-shrink). Its move is the tuck: for an arc
    ``x -> y`` of the current DAG, move ``y`` and those of its ancestors that lie between
    ``x`` and ``y`` in front of ``x``. A tuck that raises the score is taken at once; a
    tuck that leaves it unchanged is followed, up to ``depth`` tucks deep, through tucks
    of covered arcs (``x -> y`` with ``pa(y) = pa(x) + {x}``, the arcs whose reversal
    keeps the equivalence class), so the search can cross plateaus of equal score. It stops
    when no tuck sequence within the depth improves. Parent sets come from the grow-shrink
    trees BOSS uses, shared by every start in a process.

    Parameters
    ----------
    criterion : str, Score or None, default=None
        A decomposable score, by family name (``"bic"``, ``"bdeu"``, ...) or as an object;
        None means the default score of the data's kind, with ``penalty_discount``.
    penalty_discount : float, default=1.0
        Multiplier of the score's penalty when the score is given by name or None.
    depth : int, default=3
        Most tucks in a chain (the first may be of any arc, the rest of covered arcs);
        the authors' default is 3. 1 allows single improving tucks only.
    n_starts : int, default=1
        Searches from independent random orders; the best-scoring result is kept.
    allowed_edges, forbidden_edges, required_edges, tiers : default=None
        Background knowledge, as for :class:`BOSS`: parent sets only hold allowed parents,
        and a tuck that would put a required arc backwards is not made.
    n_jobs : int, default=None
        Workers for the starts; the result does not depend on it.
    random_state : int, RandomState instance or None, default=None
        Seeds the starting orders and the order in which variables and arcs are tried.
    verbose : int, default=0
        Unused; kept for the learners' common interface.

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The learned CPDAG (a PDAG when background knowledge orients some edges).
    dag_ : ndarray of shape (n_features, n_features)
        The best DAG found.
    order_ : ndarray of str
        The order it was read from.
    score_ : float
        Its score on the training data.
    n_tucks_ : int
        Improving tuck chains taken by the start that gave the result.
    n_tree_nodes_ : int
        Nodes of the grow-shrink trees built.
    parameters_ : object
        Parameters of the DAG, used by ``score_samples``.
    feature_names_in_ : ndarray of str
    n_features_in_ : int
    data_kind_ : {"discrete", "gaussian", "mixed"}

    See Also
    --------
    BOSS : Order search by best moves of one variable; the default learner.

    References
    ----------
    W.-Y. Lam, B. Andrews and J. Ramsey, "Greedy relaxations of the sparsest permutation
    algorithm", UAI 2022.

    Examples
    --------
    >>> from skbn.datasets import make_problem
    >>> from skbn.learners import GRaSP
    >>> X, truth = make_problem("asia", n_samples=5000, random_state=0)
    >>> GRaSP(random_state=0).fit(X).graph_.graph["kind"]
    'cpdag'
    """

    _count_name = "n_tucks_"
    _family_parameters = ("criterion",)
    _handles_missing = True
    _constraint_kinds = frozenset({"allowed", "forbidden", "required", "tiers"})
    _parameter_constraints = {
        "criterion": [Score, str, None],
        "penalty_discount": [Interval(Real, 0, None, closed="left")],
        "depth": [Interval(Integral, 1, None, closed="left")],
        "n_starts": [Interval(Integral, 1, None, closed="left")],
        **CONSTRAINT_PARAMETERS,
        "n_jobs": N_JOBS_CONSTRAINT,
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        criterion: Score | str | None = None,
        *,
        penalty_discount: float = 1.0,
        depth: int = 3,
        n_starts: int = 1,
        allowed_edges=None,
        forbidden_edges=None,
        required_edges=None,
        tiers=None,
        n_jobs: int | None = None,
        random_state=None,
        verbose: int = 0,
    ) -> None:
        self.criterion = criterion
        self.penalty_discount = penalty_discount
        self.depth = depth
        self.n_starts = n_starts
        self.allowed_edges = allowed_edges
        self.forbidden_edges = forbidden_edges
        self.required_edges = required_edges
        self.tiers = tiers
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def _starts(self, bound, allowed, required, start, seeds, constraints):
        return _run_tucks(bound, allowed, required, start, seeds, self.depth)
