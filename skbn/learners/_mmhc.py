# SPDX-License-Identifier: BSD-3-Clause
"""Max-min hill climbing: an MMPC skeleton, then hill climbing restricted to it."""

from __future__ import annotations

import itertools
import math
import threading
import warnings
from numbers import Integral, Real

import numpy as np

from skbn.base import BaseStructureLearner
from skbn.ci_tests import CITest
from skbn.constraints import CONSTRAINT_PARAMETERS
from skbn.graph._array import name_rank
from skbn.graph._convert import to_adjacency
from skbn.learners._hill_climb import HillClimb
from skbn.scores import Score
from skbn.utils._memory import check_memory, data_key
from skbn.utils._parallel import N_JOBS_CONSTRAINT, parallel_map
from skbn.utils._param_validation import HasMethods, Interval, StrOptions
from skbn.utils._warnings import stack_level

__all__ = ["MMHC", "mmpc"]


def _as_double(log_p: float) -> float:
    """The log of ``exp(log_p)`` as a double: below about 1e-308 the p-value is 0 (-inf)."""
    return log_p if math.exp(log_p) > 0.0 else -math.inf


#: Most p-values :class:`_Tests` keeps; past it the older half is dropped (a test asked for
#: again is run again), so memory stays bounded on dense data, where MMPC asks for
#: exponentially many distinct tests (about 100 bytes each).
MAX_CACHED_TESTS = 2_000_000

#: A candidate set this large, with ``max_cond_size=None``, gets a warning: every step of
#: MMPC then tests up to ``2**k`` conditioning sets.
LARGE_CANDIDATE_SET = 16


class _Tests:
    """Log p-values of (x, y | S) for one data set, cached symmetrically in x and y.

    ``doubles``: p-values as R holds them, so those that underflow to 0 tie (bnlearn's).
    The cache holds at most ``max_cached`` tests (:data:`MAX_CACHED_TESTS`); ``n_run``
    counts the distinct tests run (a test dropped from the cache and run again counts again).
    """

    def __init__(self, bound, doubles: bool = False, max_cached: int | None = None) -> None:
        self.bound = bound
        self.doubles = doubles
        self.cache: dict = {}
        self.max_cached = MAX_CACHED_TESTS if max_cached is None else max_cached
        self.n_run = 0
        self._lock = threading.Lock()

    def _store(self, items) -> None:
        with self._lock:  # the threads of one skeleton share the cache
            self.n_run += sum(key not in self.cache for key in items)
            self.cache.update(items)
            if len(self.cache) > self.max_cached:
                for key in list(itertools.islice(self.cache, len(self.cache) // 2)):
                    del self.cache[key]

    def __call__(self, x: int, y: int, cond: tuple) -> float:
        key = (min(x, y), max(x, y), frozenset(cond))
        value = self.cache.get(key)
        if value is None:
            value = self.bound.log_pvalue(x, y, np.array(sorted(cond), dtype=np.int64))
            value = _as_double(value) if self.doubles else value
            self._store({key: value})
        return value

    def many(self, xs: list, y: int, cond: tuple) -> list[float]:
        """``[self(x, y, cond) for x in xs]``, the tests not cached yet in one batch."""
        given = frozenset(cond)
        keys = [(min(x, y), max(x, y), given) for x in xs]
        found = [self.cache.get(key) for key in keys]
        missing = [x for x, value in zip(xs, found) if value is None]
        if missing:
            values = self.bound.log_pvalues(missing, y, np.array(sorted(cond), dtype=np.int64))
            fresh = {}
            for x, value in zip(missing, values.tolist()):
                value = _as_double(value) if self.doubles else value
                fresh[(min(x, y), max(x, y), given)] = value
            self._store(fresh)
            found = [fresh[key] if value is None else value for key, value in zip(keys, found)]
        return found


def _subsets(items, max_size, must=None):
    """Subsets of ``items`` (size <= max_size), those containing ``must`` only if given."""
    items = list(items)
    top = len(items) if max_size is None else min(len(items), max_size)
    if must is None:
        for k in range(top + 1):
            yield from itertools.combinations(items, k)
        return
    rest = [v for v in items if v != must]
    for k in range(top):
        for combo in itertools.combinations(rest, k):
            yield combo + (must,)


def mmpc(tests, target: int, p: int, log_alpha: float, max_cond_size, rank, possible=None) -> set:
    """Find the max-min parents and children of ``target`` (before the symmetry correction).

    Tsamardinos et al. (2006). Forward: repeatedly add the candidate whose minimum
    association with the target over subsets of the current set is largest (association =
    -log p); candidates found
    independent given some subset are dropped for good. Backward: remove members that some
    subset of the others separates from the target.
    """
    candidates = sorted(
        (v for v in range(p) if v != target and (possible is None or possible[target, v])),
        key=lambda v: rank[v],
    )
    worst = {x: -math.inf for x in candidates}  # max log p over the subsets tested so far
    cpc: list[int] = []
    newest = None
    while candidates:
        # every candidate against the target given each subset with the newest member, the
        # candidates in one batch per subset; a candidate found independent is not tested
        # further (as it would stop its own loop over the subsets)
        alive = list(candidates)
        for cond in _subsets(cpc, max_cond_size, must=newest):
            if not alive:
                break
            for x, value in zip(alive, tests.many(alive, target, cond)):
                worst[x] = max(worst[x], value)
            alive = [x for x in alive if worst[x] <= log_alpha]
        candidates = [x for x in candidates if worst[x] <= log_alpha]
        if not candidates:
            break
        best = min(candidates, key=lambda v: (worst[v], rank[v]))
        cpc.append(best)
        if len(cpc) == LARGE_CANDIDATE_SET and (
            max_cond_size is None or max_cond_size >= LARGE_CANDIDATE_SET
        ):
            warnings.warn(
                f"MMPC's parents-and-children set of variable {target} holds "
                f"{LARGE_CANDIDATE_SET} variables: each further step tests every subset of "
                f"it (2**{LARGE_CANDIDATE_SET} and more), which on dense data takes hours. "
                "Bound the conditioning sets with max_cond_size (e.g. 3), or use BOSS or "
                "FGES, whose cost grows with the edges.",
                UserWarning,
                stacklevel=stack_level(),
            )
        candidates.remove(best)
        newest = best
    for x in list(cpc):
        others = [v for v in cpc if v != x]
        if any(tests(x, target, cond) > log_alpha for cond in _subsets(others, max_cond_size)):
            cpc.remove(x)
    return set(cpc)


def _skeleton(key, data, ci_test, alpha, max_cond_size, possible, n_jobs, tie_order="names"):
    """MMPC for every variable, then the symmetry correction: the pairs the search may use.

    Depends on the data (``key`` stands for ``data`` in a cache), the test and its level only,
    not on the score: a grid over the score's parameters runs it once per data set when
    MMHC has a ``memory``. Returns the symmetric boolean matrix and the number of distinct
    tests run.
    """
    columns = tie_order == "columns"
    tests = _Tests(ci_test.bind(data), doubles=columns)
    p = data.n_features
    rank = np.arange(p) if columns else name_rank(data.names)
    log_alpha = math.log(alpha)

    def run(target):
        return mmpc(tests, target, p, log_alpha, max_cond_size, rank, possible)

    # the threads share the test cache; results are per target, so order does not matter
    pcs = parallel_map(run, range(p), n_jobs=n_jobs, prefer="threads")
    allowed = np.zeros((p, p), dtype=bool)
    for t in range(p):
        for x in pcs[t]:
            if t in pcs[x]:
                allowed[x, t] = allowed[t, x] = True
    return allowed, tests.n_run


class MMHC(BaseStructureLearner):
    """Max-min hill climbing (Tsamardinos, Brown & Aliferis 2006).

    MMPC finds each variable's candidate parents and children with conditional-independence
    tests; a pair is kept only if each is in the other's set (the symmetry correction). Hill
    climbing with a score then orients and prunes that skeleton: it may only use arcs between
    kept pairs.

    Parameters
    ----------
    ci_test : str, CITest or None, default=None
        Test of the MMPC phase, by family name (``"g_sq"``, ``"chi_square"``, ``"fisher_z"``,
        ...) or as an object; None means ``"g_sq"`` on discrete and ``"fisher_z"`` on
        continuous data.
    criterion : str, Score or None, default=None
        Score of the hill-climbing phase, by family name or as an object; None means the
        default score (``EBIC(gamma="auto")`` on discrete data, ``GaussianEBIC(gamma=1)``
        on continuous data).
    alpha : float, default=0.05
        Significance level of the tests.
    max_cond_size : int, default=None
        Largest conditioning set in MMPC; None for no limit.
    tabu_length : int, default=0
        Tabu list of the search phase (0: plain hill climbing, as in the original MMHC).
    max_indegree : int, default=None
    allowed_edges, forbidden_edges, required_edges : iterable of (u, v), DiGraph or array
        Background knowledge (:mod:`skbn.constraints`): arcs the search may use (all if
        None), may not use, and must keep.
    tiers : list of lists of str, dict or Tiers, default=None
        Background-knowledge order: no arc from a later tier to an earlier one.
        MMPC never considers a pair with neither arc allowed; a required arc is added to the
        skeleton and kept by the search.
    memory : str, joblib.Memory or None, default=None
        Where to cache the MMPC skeleton (a directory, or an object with joblib's ``cache``
        interface), as scikit-learn's ``Pipeline(memory=...)``. The skeleton depends on the
        data, ``ci_test``, ``alpha``, ``max_cond_size`` and the allowed pairs, not on the
        score, so a search over ``criterion``'s parameters on one data set (each resample of
        :class:`~skbn.model_selection.OTSLSearchCV`, say) runs MMPC once per data set and
        ``alpha`` instead of once per configuration. None caches nothing.
    n_jobs : int, default=None
        Threads running MMPC for different variables; the result does not depend on it.
    random_state : int, RandomState instance or None, default=None
        Passed to the hill-climbing phase.
    tie_order : {"names", "columns"}, default="names"
        How MMPC breaks ties between equally associated candidates. ``"names"``: by column
        name, on log p-values (tiny p-values stay apart), so the result does not depend on
        the columns' order. ``"columns"``: by column position, on p-values as doubles (those
        below about 1e-308 are 0 and tie), and hill climbing with ``tie_order="columns"``:
        bnlearn 4.9's ``mmpc`` and ``mmhc`` on the same data and test (tested against a
        stored bnlearn oracle).
    verbose : int, default=0

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The learned DAG.
    skeleton_ : set of frozenset
        The MMPC skeleton (pairs of names) the search was restricted to.
    score_ : float
    n_tests_ : int
        Distinct CI tests run (read from the cache, with ``memory``, when MMPC did not run;
        past ``MAX_CACHED_TESTS`` kept p-values, a test dropped and run again counts again).
    parameters_ : object

    References
    ----------
    I. Tsamardinos, L. E. Brown and C. F. Aliferis, "The max-min hill-climbing Bayesian
    network structure learning algorithm", Machine Learning 65, 2006.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import MMHC
    >>> X = load_network("asia").sample(5000, random_state=0)
    >>> MMHC().fit(X).graph_.graph["kind"]
    'dag'
    """

    _family_parameters = ("ci_test", "criterion")
    _handles_missing = True
    _constraint_kinds = frozenset({"allowed", "forbidden", "required", "tiers"})
    _parameter_constraints = {
        "ci_test": [CITest, str, None],
        "criterion": [Score, str, None],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "max_cond_size": [Interval(Integral, 0, None, closed="left"), None],
        "tabu_length": [Interval(Integral, 0, None, closed="left")],
        "max_indegree": [Interval(Integral, 0, None, closed="left"), None],
        **CONSTRAINT_PARAMETERS,
        "memory": [str, HasMethods("cache"), None],
        "n_jobs": N_JOBS_CONSTRAINT,
        "random_state": ["random_state"],
        "tie_order": [StrOptions({"names", "columns"})],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        ci_test: CITest | str | None = None,
        criterion: Score | str | None = None,
        *,
        alpha: float = 0.05,
        max_cond_size: int | None = None,
        tabu_length: int = 0,
        max_indegree: int | None = None,
        allowed_edges=None,
        forbidden_edges=None,
        required_edges=None,
        tiers=None,
        memory=None,
        n_jobs: int | None = None,
        random_state=None,
        tie_order: str = "names",
        verbose: int = 0,
    ) -> None:
        self.tie_order = tie_order
        self.ci_test = ci_test
        self.criterion = criterion
        self.alpha = alpha
        self.max_cond_size = max_cond_size
        self.tabu_length = tabu_length
        self.max_indegree = max_indegree
        self.allowed_edges = allowed_edges
        self.forbidden_edges = forbidden_edges
        self.required_edges = required_edges
        self.tiers = tiers
        self.memory = memory
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def _learn(self, data, constraints):
        possible = None if constraints.is_empty else constraints.allowed_pairs
        skeleton = check_memory(self.memory).cache(_skeleton, ignore=["data", "n_jobs"])
        allowed, self.n_tests_ = skeleton(
            data_key(data),
            data,
            self._resolve_family("ci_test", data),
            self.alpha,
            self.max_cond_size,
            possible,
            self.n_jobs,
            self.tie_order,
        )
        allowed = allowed | constraints.required | constraints.required.T
        names = data.names
        self.skeleton_ = {
            frozenset((names[i], names[j])) for i, j in zip(*np.nonzero(allowed)) if i < j
        }
        if self.verbose:
            print(f"MMHC: {len(self.skeleton_)} candidate edges after {self.n_tests_} tests")
        hc = HillClimb(
            self._resolved_score(data),
            allowed_edges=allowed & constraints.allowed,
            required_edges=constraints.required if constraints.required.any() else None,
            tabu_length=self.tabu_length,
            max_indegree=self.max_indegree,
            random_state=self.random_state,
            tie_order="columns" if self.tie_order == "columns" else "stable",
        )
        hc.fit(data)
        self.score_ = hc.score_
        return to_adjacency(hc.graph_, list(names)), "dag"
