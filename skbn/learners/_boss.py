# SPDX-License-Identifier: BSD-3-Clause
"""Best order score search (BOSS) with grow-shrink trees."""

from __future__ import annotations

import heapq
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state

from skbn._kernels.boss import (
    DONE,
    NO_ROOM,
    GaussianFamily,
    Moves,
    Pool,
    Requests,
    Required,
    Trees,
    gaussian_fill,
    grow_candidates,
    index_branches,
    node_path,
    order_nodes,
    rehash_children,
    sweep,
    walk,
    walk_making,
)
from skbn.base import BaseStructureLearner
from skbn.constraints import CONSTRAINT_PARAMETERS, EdgeConstraints, start_graph_matrix
from skbn.graph._array import (
    dag_to_cpdag_array,
    meek_orient_array,
)
from skbn.learners._fges import backward_search
from skbn.learners._hill_climb import _climb, _Search
from skbn.scores import Score
from skbn.utils._parallel import N_JOBS_CONSTRAINT, effective_n_jobs, parallel_map
from skbn.utils._param_validation import HasMethods, Interval
from skbn.utils._random import spawn_seeds

__all__ = ["BOSS"]

#: Relative score difference under which two orders, or two parent sets, count as equal.
_TOL = 1e-9
#: Unknown look-ups a kernel records (with their prefixes) before handing back.
_MISSING_ROWS = 256
#: up to this many variables the sweeps keep the p x p bit matrix of which trees hold which
#: variable as a branch (12.5 MB at 10,000 variables), and skip the look-ups it rules out
TOUCHES_MAX_VARIABLES = 50_000


def _missing_buffers(p: int) -> Requests:
    """Room for the look-ups a kernel records before handing back."""
    return Requests(np.empty(_MISSING_ROWS, np.int64), np.empty((_MISSING_ROWS, p), dtype=bool))


#: node and branch indices, and variables, are 32-bit: the trees of hub variables reach tens
#: of millions of branches
_INDEX = np.int32
_NODE_DTYPES = {"grow": np.float64, "shrink": np.float64, "kept_first": np.int64}
_MAX_NODES = int(np.iinfo(_INDEX).max)


def _variable_dtype(p: int):
    """What a branch holds, its variable: 2 bytes while ``p`` fits, else 4.

    The branches are nearly all of the trees' memory on scale-free graphs.
    """
    return np.int16 if p <= np.iinfo(np.int16).max else np.int32


class _Forest:
    """The grow-shrink trees of every variable, in flat arrays the kernels read.

    Node ``k`` stands for a parent set of ``owner[k]``: the required parents of that variable
    plus the variables added on the way from its root (``var`` along ``up``). Expanding a node
    scores every addition in one ``addition_scores`` call and keeps the improving ones, best
    first, as branches (``branch_var``); a variable that ranked above the branch taken at an
    ancestor is left out, because any prefix that reaches the node does not hold it (it
    would have been taken instead). A branch becomes a node only when a walk first takes it,
    found from then on in the hash table ``children`` (branch -> node): most never are, and
    a branch costs 2 bytes (4 above 32,767 variables) where a node costs 56. The Gaussian
    kernel scores the addition again when it makes the node, to the same bits
    (``addition_gaussian_loglik_one``); other scores keep each branch's score
    (``branch_grow``, 8 more bytes). On scale-free graphs an expansion keeps about a tenth of
    the variables (a hub's children correlate with much of the graph), so the branches are
    nearly all of the trees' memory. Shrinking a node stores the parents it keeps in
    ``kept_pool``. With a Gaussian likelihood score on a dense covariance matrix these run in
    one numba kernel; any other score is called from Python.
    """

    _NODE_ARRAYS = Pool._fields[:-2] + ("n_branch", "first", "shrink")  # not kept_pool, sizes

    def __init__(self, bound, allowed: np.ndarray | None, required: np.ndarray | None) -> None:
        self.bound = bound
        p = self.p = bound.n_features
        self.allowed = allowed
        self.req_parents = [
            np.flatnonzero(required[:, v]) if required is not None else np.zeros(0, np.int64)
            for v in range(p)
        ]
        # required parents, and required children so that moves keep each variable before them
        self.required = Required(
            *_csr(self.req_parents),
            *_csr(
                [
                    np.flatnonzero(required[v]) if required is not None else np.zeros(0, np.int64)
                    for v in range(p)
                ]
            ),
        )
        cap = max(8 * p, 64)
        self._trees = self._pool = None  # the kernels' tuples of the arrays, made on demand
        #: used lengths: nodes, branches, kept parents; then the number of expansions
        self.sizes = np.zeros(4, np.int64)
        for name in self._NODE_ARRAYS:
            setattr(self, name, np.empty(cap, _NODE_DTYPES.get(name, _INDEX)))
        self.branch_var = np.empty(cap, _variable_dtype(p))
        self.kept_pool = np.empty(cap, np.int64)
        gaussian = bound.gaussian_kernel_args()
        empty = np.zeros((0, 0), bool)
        self.gaussian = None if gaussian is None else GaussianFamily(*gaussian, empty)
        if self.gaussian is not None and allowed is not None:
            self.gaussian = self.gaussian._replace(allowed=allowed)
        self.branch_grow = np.empty(cap if self.gaussian is None else 0, np.float64)
        self.children = np.full((2, _table_size(cap)), -1, _INDEX)
        words = (p + 63) // 64 if p <= TOUCHES_MAX_VARIABLES else 0
        self.touches = np.zeros((p if words else 0, words), dtype=np.uint64)
        self._indexed = 0  # expansions whose branches are marked in touches
        self.roots = np.empty(p, np.int64)
        for v in range(p):
            req = self.req_parents[v]
            score = bound.family_score(v, tuple(req.tolist()))
            self.roots[v] = self._new_node(v, -1, -1, -1, score)

    def index_branches(self) -> None:
        """Bring :attr:`touches` up to the branches made so far.

        Bit ``w`` of row ``v`` is set when ``v`` is a branch of some node of ``w``'s tree:
        without it, ``v`` joining or leaving w's prefix cannot change w's walk, and the
        sweeps skip that look-up. Above :data:`TOUCHES_MAX_VARIABLES` variables the bit
        matrix (p^2 / 8 bytes) is not kept and every look-up is walked.
        """
        if self.touches.shape[0] == 0:
            return
        stop = int(self.sizes[3])
        index_branches(self.touches, self.trees(), self.pool(), self._indexed, stop)
        self._indexed = stop

    @property
    def n_nodes(self) -> int:
        """The trees' nodes: the roots and every branch, made a node or not."""
        return self.p + int(self.sizes[1])

    # -- storage ------------------------------------------------------------------------------

    def _reserve(self, nodes: int, branches: int, kept: int) -> None:
        used_nodes, used_branches, used_kept = (int(x) for x in self.sizes[:3])
        if max(used_nodes + nodes, used_branches + branches) > _MAX_NODES:
            raise MemoryError(
                f"the grow-shrink trees would hold over {_MAX_NODES:,} nodes; "
                "raise penalty_discount, rule out arcs with forbidden_edges or tiers, or use "
                "FGES, which keeps no trees"
            )
        grown = False
        if used_nodes + nodes > self.owner.shape[0]:
            grown = True
            cap = min(max(used_nodes + nodes, 2 * self.owner.shape[0]), _MAX_NODES)
            for name in self._NODE_ARRAYS:
                setattr(self, name, _enlarged(getattr(self, name), used_nodes, cap))
            if _table_size(cap) > self.children.shape[1]:
                table = np.full((2, _table_size(cap)), -1, _INDEX)
                rehash_children(self.children, table)
                self.children = table
        if used_branches + branches > self.branch_var.shape[0]:
            grown = True
            cap = min(max(used_branches + branches, 2 * self.branch_var.shape[0]), _MAX_NODES)
            self.branch_var = _enlarged(self.branch_var, used_branches, cap)
        if self.gaussian is None and self.branch_grow.shape[0] < self.branch_var.shape[0]:
            # only the Python route keeps the branches' scores (in no tuple)
            held = min(used_branches, self.branch_grow.shape[0])
            self.branch_grow = _enlarged(self.branch_grow, held, self.branch_var.shape[0])
        if used_kept + kept > self.kept_pool.shape[0]:
            grown = True
            cap = max(used_kept + kept, 2 * self.kept_pool.shape[0])
            self.kept_pool = _enlarged(self.kept_pool, used_kept, cap)
        if grown:
            self._trees = self._pool = None  # the kernels' tuples hold the old arrays

    def _new_node(self, v: int, up: int, var: int, rank: int, score: float) -> int:
        self._reserve(1, 0, 0)
        k = int(self.sizes[0])
        self.owner[k], self.up[k], self.var[k], self.rank[k] = v, up, var, rank
        self.grow[k] = score
        self.n_branch[k] = -1
        self.first[k] = 0
        self.shrink[k] = np.nan
        self.sizes[0] += 1
        return k

    def path(self, node: int) -> list[int]:
        """The parent set node ``node`` stands for (required parents first)."""
        added = node_path(node, self.up, self.var).tolist()
        return self.req_parents[int(self.owner[node])].tolist() + added

    def kept(self, node: int) -> tuple:
        start = int(self.kept_first[node])
        return tuple(self.kept_pool[start : start + int(self.kept_len[node])].tolist())

    # -- filling in ---------------------------------------------------------------------------

    def trees(self) -> Trees:
        """The arrays a walk reads, as they are now (an enlargement replaces them)."""
        if self._trees is None:
            self._trees = Trees(
                self.roots, self.n_branch, self.first, self.branch_var, self.children, self.shrink
            )
        return self._trees

    def pool(self) -> Pool:
        """The rest of the node pool, as it is now (an enlargement replaces the arrays)."""
        if self._pool is None:
            self._pool = Pool(*(getattr(self, name) for name in Pool._fields))
        return self._pool

    def fill(self, requests: Requests, count: int) -> None:
        """Finish the look-ups a kernel stopped at: expand, walk on, expand ... then shrink.

        Look-up ``r`` is of the variable ``requests.variables[r]`` within the prefix
        ``requests.prefixes[r]``.
        """
        variables, prefixes = requests
        rows = min(count, variables.shape[0])
        if self.gaussian is not None:
            done = 0
            while done < rows:
                rest = Requests(variables[done:], prefixes[done:])
                trees, pool = self.trees(), self.pool()
                done += gaussian_fill(
                    rest, rows - done, trees, pool, self.gaussian, self.required, _TOL
                )
                if done < rows:
                    self._reserve(self.p, self.p, self.p)
            return
        for r in range(rows):
            v = int(variables[r])
            prefix = prefixes[r]
            while True:
                node, b = walk_making(v, prefix, self.trees(), self.pool(), self.branch_grow)
                if b == NO_ROOM:
                    self._reserve(1, 0, 0)
                    continue
                if b == -2:
                    self._expand(node)
                    continue
                if self.shrink[node] != self.shrink[node]:
                    self._shrink(node)
                break

    def _expand(self, node: int) -> None:
        p = self.p
        v = int(self.owner[node])
        parents = self.path(node)
        open_ = np.ones(p, dtype=bool) if self.allowed is None else self.allowed[:, v].copy()
        open_[v] = False
        open_[parents] = False
        scores = self.bound.addition_scores(v, parents)
        base = self.grow[node]
        threshold = base + _TOL * max(1.0, abs(base))
        cand = grow_candidates(node, scores, threshold, open_, self.trees(), self.pool())
        m = cand.shape[0]
        self._reserve(0, m, 0)
        b0 = int(self.sizes[1])
        self.branch_var[b0 : b0 + m] = cand
        self.branch_grow[b0 : b0 + m] = scores[cand]
        self.sizes[1] += m
        self.expanded[int(self.sizes[3])] = node
        self.sizes[3] += 1
        self.first[node] = b0
        self.n_branch[node] = m

    def _shrink(self, node: int) -> None:
        v = int(self.owner[node])
        current = sorted(self.path(node))
        fixed = set(self.req_parents[v].tolist())
        score = float(self.grow[node])
        family = self.bound.family_score
        while True:
            best, best_score = None, score + _TOL * max(1.0, abs(score))
            for u in current:
                if u in fixed:
                    continue
                s = family(v, tuple(w for w in current if w != u))
                if s > best_score:
                    best, best_score = u, s
            if best is None:
                break
            current.remove(best)
            score = best_score
        k = len(current)
        self._reserve(0, 0, k)
        start = int(self.sizes[2])
        self.kept_pool[start : start + k] = current
        self.kept_first[node] = start
        self.kept_len[node] = k
        self.sizes[2] += k
        self.shrink[node] = score

    # -- the search ---------------------------------------------------------------------------

    def lookup(self, v: int, in_prefix: np.ndarray) -> tuple[tuple, float]:
        """The best parents of ``v`` among the variables marked in ``in_prefix``, and score."""
        node, final = walk(v, self.trees(), in_prefix)
        if not final or self.shrink[node] != self.shrink[node]:
            self.fill(Requests(np.array([v], np.int64), in_prefix[None, :].copy()), 1)
            node, final = walk(v, self.trees(), in_prefix)  # the arrays may be new ones
        return self.kept(int(node)), float(self.shrink[node])

    def parents_under(self, order: np.ndarray) -> tuple[list[tuple], float]:
        """Each variable's best parents from its predecessors in ``order``, and the total."""
        in_prefix = np.zeros(self.p, dtype=bool)
        requests = _missing_buffers(self.p)
        while True:
            nodes, total, count = order_nodes(order, in_prefix, self.trees(), requests)
            if count == 0:
                return [self.kept(int(k)) for k in nodes], float(total)
            self.fill(requests, count)


def _table_size(nodes: int) -> int:
    """Slots of a children table for ``nodes`` nodes: a power of 2, at most half full."""
    return 1 << max(2 * nodes - 1, 1).bit_length()


def _enlarged(array: np.ndarray, used: int, cap: int) -> np.ndarray:
    new = np.empty(cap, array.dtype)
    new[:used] = array[:used]
    return new


def _topological_by_priority(arcs: np.ndarray, priority: np.ndarray) -> np.ndarray:
    """Kahn's topological order of ``arcs``, taking the ready variable earliest in ``priority``.

    Shorter than ``p`` when ``arcs`` has a cycle.
    """
    p = arcs.shape[0]
    rank = np.empty(p, np.int64)
    rank[priority] = np.arange(p)
    indegree = arcs.sum(axis=0).astype(np.int64)
    ready = [(int(rank[v]), int(v)) for v in np.flatnonzero(indegree == 0)]
    heapq.heapify(ready)
    out = []
    while ready:
        _, v = heapq.heappop(ready)
        out.append(v)
        for c in np.flatnonzero(arcs[v]).tolist():
            indegree[c] -= 1
            if indegree[c] == 0:
                heapq.heappush(ready, (int(rank[c]), c))
    return np.array(out, dtype=np.int64)


def _start_order(p: int, required: np.ndarray | None, rng) -> np.ndarray:
    """A random order of the variables that keeps every arc of ``required`` forwards."""
    priority = rng.permutation(p)
    if required is None or not required.any():
        return priority.astype(np.int64)
    return _topological_by_priority(required, priority)


def _csr(lists: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    indptr = np.zeros(len(lists) + 1, np.int64)
    indptr[1:] = np.cumsum([len(x) for x in lists])
    flat = np.concatenate(lists).astype(np.int64) if lists else np.zeros(0, np.int64)
    return indptr, flat


def _order_after_backward(bound, constraints, order, parents, required) -> np.ndarray | None:
    """The order of the DAG that BES reaches from the order's DAG, or None.

    The new order is a topological order of that DAG (with the required arcs) that keeps
    variables in their current order where the DAG allows, as Tetrad's BOSS does.
    """
    p = len(order)
    dag = np.zeros((p, p), dtype=np.int8)
    for v, pa in enumerate(parents):
        dag[list(pa), v] = 1
    after = backward_search(bound, constraints, dag)
    if after is None:
        return None
    arcs = after.astype(bool)
    if required is not None:
        arcs |= required
    out = _topological_by_priority(arcs, order)
    return out if len(out) == p else None


class _Polisher:
    """Tabu search over DAGs for ``polish=True``, sharing its family cache between calls.

    The settings are bnlearn's ``tabu`` defaults (a tabu list of 10 DAGs, stop after 10
    moves without improvement); ties between moves go to the variable earlier in the
    order the search has reached.
    """

    def __init__(self, bound, p: int, allowed, required, seed: int) -> None:
        self.bound = bound
        self.allowed = np.ones((p, p), bool) if allowed is None else allowed
        np.fill_diagonal(self.allowed, False)
        self.required = np.zeros((p, p), bool) if required is None else required
        rng = np.random.RandomState(seed)
        self.keys = rng.randint(1, np.iinfo(np.int64).max, size=(p, p), dtype=np.int64)
        self.cache: dict = {}

    def climb(self, A: np.ndarray, rank: np.ndarray) -> tuple[np.ndarray, float]:
        search = _Search(self.bound, A, self.allowed, self.required, None, self.cache)
        best, score, _ = _climb(
            search,
            tabu_length=10,
            max_tabu=10,
            max_iter=None,
            tol=1e-9,
            keys=self.keys,
            rank=rank,
        )
        return best, score


def _parents_matrix(parents, p: int) -> np.ndarray:
    dag = np.zeros((p, p), dtype=bool)
    for v, pa in enumerate(parents):
        dag[list(pa), v] = True
    return dag


def _search(
    forest: _Forest,
    required,
    start,
    seed: int,
    max_sweeps: int | None,
    verbose: int,
    backward=None,
    polisher: _Polisher | None = None,
):
    """One BOSS run from a random order: sweeps of best moves until no variable moves.

    ``start`` (arcs, or None) is what the first order keeps forwards besides ``required``.
    With ``backward`` (the bound score and the constraints), each time the sweeps settle the
    order's DAG goes through BES and the search continues from the order of its result while
    that improves the score (Andrews et al.'s BOSS, as in Tetrad). With a ``polisher``, a
    settled order's DAG then goes through a tabu search over DAGs (the first time also a
    tabu search from the empty graph with ties by the order); while that beats every DAG
    seen, the sweeps continue from a topological order of its result.
    """
    p = forest.p
    rng = np.random.RandomState(seed)
    order = _start_order(p, start if start is not None else required, rng)
    position = np.empty(p, np.int64)
    position[order] = np.arange(p)
    requests = _missing_buffers(p)
    n_sweeps = 0
    polished = None  # (order, parents, score) of the best DAG the polisher returned
    while True:
        n_sweeps = _sweep_until_settled(
            forest, order, position, requests, rng, n_sweeps, max_sweeps, verbose
        )
        parents, total = forest.parents_under(order)
        if max_sweeps is not None and n_sweeps >= max_sweeps:
            break
        if backward is not None:
            new_order = _order_after_backward(*backward, order, parents, required)
            if new_order is not None and not np.array_equal(new_order, order):
                _, new_total = forest.parents_under(new_order)
                if new_total > total + _TOL * max(1.0, abs(total)):
                    if verbose:
                        print(f"BOSS backward phase: score {total:.6g} -> {new_total:.6g}")
                    order = new_order
                    position[order] = np.arange(p)
                    continue
        if polisher is None:
            break
        known = total if polished is None else max(total, polished[2])
        tried = [polisher.climb(_parents_matrix(parents, p), position)]
        if polished is None:
            empty = np.zeros((p, p), bool) if required is None else required.copy()
            tried.append(polisher.climb(empty, position))
        dag, score = max(tried, key=lambda t: t[1])  # the first on a tie
        if not score > known + _TOL * max(1.0, abs(known)):
            break
        if verbose:
            print(f"BOSS tabu polish: score {known:.6g} -> {score:.6g}")
        order = _topological_by_priority(dag if required is None else dag | required, order)
        polished = (order.copy(), [tuple(np.flatnonzero(dag[:, v])) for v in range(p)], score)
        position[order] = np.arange(p)
    if polished is not None and polished[2] > total:
        return *polished, n_sweeps
    return order, parents, total, n_sweeps


def _sweep_until_settled(forest, order, position, requests, rng, n_sweeps, max_sweeps, verbose):
    """Sweeps of best moves (in place on ``order``) until none moves; the sweeps so far."""
    p = forest.p
    moves = Moves(
        order=order,
        position=position,
        in_prefix=np.zeros(p, dtype=bool),
        scores=np.empty(p + 1),
        current=np.full(p, np.nan),  # each variable's score under the order, once walked
        touches=forest.touches,
        marks=np.zeros(p + 1, np.int64),  # scratch of the sweeps (see better_mutation)
    )
    while max_sweeps is None or n_sweeps < max_sweeps:
        variables = rng.permutation(p).astype(np.int64)
        resume, moved = 0, 0
        while True:
            forest.index_branches()
            stopped, k, count = sweep(
                variables, resume, moves, forest.trees(), forest.required, requests, _TOL
            )
            moved += k
            if stopped == DONE:
                break
            forest.fill(requests, count)
            resume = stopped
        n_sweeps += 1
        if verbose:
            print(f"BOSS sweep {n_sweeps}: {moved} variables moved, {forest.n_nodes} tree nodes")
        if moved == 0:
            break
    return n_sweeps


def _run_starts(bound, allowed, required, start, seeds, max_sweeps, verbose, backward, polish):
    forest = _Forest(bound, allowed, required)
    polisher = _Polisher(bound, forest.p, allowed, required, seeds[0]) if polish else None
    runs = [
        _search(forest, required, start, s, max_sweeps, verbose, backward, polisher) for s in seeds
    ]
    return runs, forest.n_nodes


def _pdag_with_knowledge(
    dag: np.ndarray, allowed: np.ndarray | None, required: np.ndarray | None
) -> tuple[np.ndarray, bool]:
    """The CPDAG of ``dag``, with edges the knowledge orients taken from ``dag`` (Meek after).

    An edge is oriented by the knowledge when one of its arcs is ruled out or required.

    ``dag`` honours the knowledge, so orienting as in ``dag`` never goes against it, and
    Meek's rules only add orientations every consistent extension (``dag`` among them) has.
    """
    cpdag = dag_to_cpdag_array(dag)
    if allowed is None:
        return cpdag, False
    forbidden = ~allowed
    np.fill_diagonal(forbidden, False)
    undirected = (cpdag == 1) & (cpdag.T == 1)
    known = forbidden | forbidden.T
    if required is not None:
        known |= required | required.T
    fix = undirected & known
    if not fix.any():
        return cpdag, False
    B = cpdag.copy()
    B[fix & (dag == 0)] = 0
    B = meek_orient_array(B, forbidden)
    return B, True


class _OrderSearch(BaseStructureLearner):
    """What BOSS and GRaSP share: random starts over one set of grow-shrink trees.

    The search runs on the columns in name order; the best start is kept and its CPDAG
    returned. A subclass sets ``_count_name`` (the attribute that reports the best start's count of
    sweeps or tucks) and ``_starts(bound, allowed, required, start, seeds, constraints)``,
    which returns ``(runs, n_tree_nodes)``, each run ``(order, parents, score, count)``.
    """

    _count_name = "n_sweeps_"
    _runs_in_name_order = True
    _positional_attributes = ("dag_",)

    def _prepare(self, data, constraints: EdgeConstraints):
        self._resolved_score(data)  # a discount the score cannot take fails before any work
        start = None
        if getattr(self, "start_graph", None) is not None:
            required = None if constraints.is_empty else constraints.required
            start = start_graph_matrix(
                self.start_graph, data.names, required, self._data_positions()
            )
        return constraints, start

    def _learn(self, data, prepared):
        constraints, start = prepared
        # the base runs this on the columns in name order (_runs_in_name_order), so every
        # tie and every random draw is the same for any column order of the data
        allowed = required = None
        if not constraints.is_empty:
            allowed = np.ascontiguousarray(constraints.allowed)
            required = np.ascontiguousarray(constraints.required)
        bound = self._resolved_score(data).bind(data)
        rng = check_random_state(self.random_state)
        seeds = spawn_seeds(rng, self.n_starts)
        n_workers = min(self.n_starts, effective_n_jobs(self.n_jobs))
        groups = [seeds[k::n_workers] for k in range(n_workers)]
        runs = parallel_map(
            lambda group: self._starts(bound, allowed, required, start, group, constraints),
            groups,
            n_jobs=self.n_jobs if n_workers > 1 else None,
        )
        # back in start order: start s ran in group s % n_workers at place s // n_workers
        results = [runs[s % n_workers][0][s // n_workers] for s in range(self.n_starts)]
        best = 0
        for s in range(1, len(results)):
            if results[s][2] > results[best][2] + _TOL * max(1.0, abs(results[best][2])):
                best = s
        order, parents, total, count = results[best]
        p = data.n_features
        dag = np.zeros((p, p), dtype=np.int8)
        for v, pa in enumerate(parents):
            dag[list(pa), v] = 1
        A, changed = _pdag_with_knowledge(dag, allowed, required)
        self.score_ = total
        setattr(self, self._count_name, count)
        self.n_tree_nodes_ = sum(n for _, n in runs)
        self.order_ = np.asarray([data.names[v] for v in order], dtype=object)
        self.dag_ = dag
        return A.astype(np.int8), "pdag" if changed else "cpdag"


class BOSS(_OrderSearch):
    """Best order score search: score-based learning over orders of the variables.

    Every order of the variables has a best DAG, in which each variable takes the parents
    that score best among its predecessors; BOSS (Andrews et al. 2023) climbs over orders,
    moving one variable at a time to the position that makes the order's DAG score best, in
    sweeps over all variables (in random order) until no move improves the score. The best
    parents under an order are found by a greedy grow phase (add the best improving
    predecessor while one exists) and a shrink phase (drop the parent whose removal improves
    the score most), and both are cached in one grow-shrink tree per variable, so the many
    orders the search compares share their work. The result is the CPDAG of the best DAG, as
    for :class:`FGES`.

    Parameters
    ----------
    criterion : str, Score or None, default=None
        A decomposable score, by family name (``"bic"``, ``"ebic"``, ``"bdeu"``, ...) or as
        an object; None means the default score, with ``penalty_discount``:
        ``EBIC(gamma="auto")`` on discrete data (BIC exactly unless chance edges would be
        many; :class:`~skbn.scores.EBIC`) and ``GaussianEBIC(gamma=1)`` on continuous data.
    penalty_discount : float, default=1.0
        Multiplier of the score's penalty when the score is given by name or None and its
        family has one (bic, aic, ebic).
    n_starts : int, default=1
        Searches from independent random orders; the best-scoring result is kept (ties go to
        the earliest start). The trees are shared between starts run in the same process.
    max_sweeps : int, default=None
        Stop after this many sweeps over the variables; None runs until no variable moves.
    use_bes : bool, default=True
        Each time the sweeps settle, pass the order's DAG through a backward equivalence
        search (GES's deletion phase) and continue from an order of its result while that
        improves the score, as the authors' BOSS in Tetrad does. False gives the order
        search alone (causal-learn's ``boss``).
    polish : bool, default=False
        Each time a start settles, run a tabu search over DAGs (bnlearn's ``tabu``
        settings) from its DAG, and the first time also from the empty graph with ties
        broken by the order; while the best of them beats every DAG the start has seen,
        the order search continues from a topological order of it. Slower (a tabu search
        or two per settling); it reaches a higher score where the order search's
        one-variable moves stall. With ``n_starts`` above 1 this is skbn's best-optimum
        search (see the bnlearn comparison page for its cost).
    start_graph : networkx.DiGraph, array-like or list of (u, v), default=None
        A DAG to start from: every start's first order is a topological order of it (with
        the required arcs; ties by the start's random priority). None starts from random
        orders. (The bootstrap learner's phase-1 chains come in here.)
    allowed_edges, forbidden_edges : iterable of (u, v), DiGraph or array, default=None
        Arcs the search may, or may not, use: a variable's trees only grow with allowed
        parents. In the result, an edge whose one arc is ruled out is oriented the other way
        (the output is then a PDAG).
    required_edges : iterable of (u, v), DiGraph or array, default=None
        Arcs the result must contain: the search keeps ``u`` before ``v`` in every order it
        visits and ``u`` in ``v``'s parents.
    tiers : list of lists of str, dict or Tiers, default=None
        Background-knowledge order (:class:`~skbn.constraints.Tiers`), applied as ruled-out
        arcs.
    n_jobs : int, default=None
        Workers for the starts (processes, or the active joblib backend); the result does
        not depend on it.
    random_state : int, RandomState instance or None, default=None
        Seeds the starting orders and the order in which each sweep visits the variables.
    verbose : int, default=0
        Above 0, print a line per sweep.

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The learned CPDAG (``graph_.graph["kind"] == "cpdag"``; "pdag" when background
        knowledge orients some of its edges).
    dag_ : ndarray of shape (n_features, n_features)
        The best DAG itself (``dag_[i, j] == 1`` for an arc ``i -> j``, columns in ``X``'s
        order).
    order_ : ndarray of str
        The order the best DAG was read from.
    score_ : float
        Its score on the training data.
    n_sweeps_ : int
        Sweeps of the start that gave the result.
    n_tree_nodes_ : int
        Nodes of the grow-shrink trees built (summed over workers).
    parameters_ : object
        Parameters of the DAG, used by ``score_samples``.
    feature_names_in_ : ndarray of str
    n_features_in_ : int
    data_kind_ : {"discrete", "gaussian"}

    See Also
    --------
    FGES : Greedy search over equivalence classes.
    HillClimb : Greedy search over DAGs.

    References
    ----------
    B. Andrews, J. Ramsey, R. Sanchez-Romero, J. Camchong and E. Kummerfeld, "Fast scalable
    and accurate discovery of DAGs using the best order score search and grow-shrink trees",
    NeurIPS 36, 2023.

    Examples
    --------
    >>> from skbn.datasets import make_problem
    >>> from skbn.learners import BOSS
    >>> X, truth = make_problem("asia", n_samples=5000, random_state=0)
    >>> est = BOSS(random_state=0).fit(X)
    >>> est.graph_.graph["kind"]
    'cpdag'
    """

    _family_parameters = ("criterion",)
    _handles_missing = True
    _constraint_kinds = frozenset({"allowed", "forbidden", "required", "tiers"})
    _parameter_constraints = {
        "criterion": [Score, str, None],
        "penalty_discount": [Interval(Real, 0, None, closed="left")],
        "n_starts": [Interval(Integral, 1, None, closed="left")],
        "max_sweeps": [Interval(Integral, 1, None, closed="left"), None],
        "use_bes": ["boolean"],
        "polish": ["boolean"],
        "start_graph": ["array-like", HasMethods(["edges"]), None],
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
        n_starts: int = 1,
        max_sweeps: int | None = None,
        use_bes: bool = True,
        polish: bool = False,
        start_graph=None,
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
        self.n_starts = n_starts
        self.max_sweeps = max_sweeps
        self.use_bes = use_bes
        self.polish = polish
        self.start_graph = start_graph
        self.allowed_edges = allowed_edges
        self.forbidden_edges = forbidden_edges
        self.required_edges = required_edges
        self.tiers = tiers
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def _starts(self, bound, allowed, required, start, seeds, constraints):
        backward = (bound, constraints) if self.use_bes else None
        return _run_starts(
            bound,
            allowed,
            required,
            start,
            seeds,
            self.max_sweeps,
            self.verbose,
            backward,
            self.polish,
        )
