# SPDX-License-Identifier: BSD-3-Clause
"""Markov-blanket learners: Grow-Shrink, IAMB (and its variants), HITON-PC and HITON-MB.

Each learns the Markov blanket of every variable with conditional-independence tests, keeps
the blankets that agree (``y`` in the blanket of ``x`` and ``x`` in that of ``y``), finds the
neighbours inside each blanket (``y`` is not a neighbour of ``x`` when some subset of the
smaller of the two blankets separates them), and orients the skeleton from the separating
sets and Meek's rules, as PC does. The blanket phase follows bnlearn 4.9's ``gs``, ``iamb``,
``inter.iamb``, ``fast.iamb`` and ``iamb.fdr`` step for step (candidates in column order;
the first smallest p-value wins; IAMB's shrinking phase tests the blanket's members in turn,
each given those not yet removed, and keeps the last one added), so on the same data, test
and ``alpha`` the blankets equal bnlearn's ``learn.mb``, and so do the skeleton and the
colliders. Where colliders
conflict (a PDAG with no consistent extension), Meek's rules here and bnlearn's ``cpdag``
resolve the conflict in different orders and may orient an edge differently.

References
----------
D. Margaritis and S. Thrun, "Bayesian network induction via local neighborhoods", NIPS 1999
(Grow-Shrink). I. Tsamardinos, C. Aliferis and A. Statnikov, "Algorithms for large scale
Markov blanket discovery", FLAIRS 2003 (IAMB, inter-IAMB). J. M. Pena, "Learning Gaussian
graphical models of gene networks with false discovery rate control", EvoBIO 2008 (IAMB-FDR).
C. F. Aliferis et al., JMLR 11, 2010 (HITON-PC, HITON-MB).
"""

from __future__ import annotations

import itertools
import math
import warnings
from numbers import Integral, Real

import numpy as np

from skbn.base import BaseStructureLearner
from skbn.ci_tests import CITest
from skbn.graph._array import meek_orient_array, reaches
from skbn.utils._param_validation import Interval, StrOptions
from skbn.utils._warnings import stack_level

__all__ = ["HITONMB", "HITONPC", "IAMB", "GrowShrink"]


class _Tester:
    """p-values of one bound test, as doubles (small ones underflow to 0, as in R)."""

    def __init__(self, bound) -> None:
        self.bound = bound

    def __call__(self, x: int, y: int, cond) -> float:
        return math.exp(self.bound.log_pvalue(x, y, np.asarray(cond, dtype=np.int64)))

    def rows_per_cell(self, x: int, y: int, cond) -> float:
        """Rows per cell of the table of a discrete test (infinite for the others)."""
        return self.bound.rows_per_cell(x, y, cond)

    def many(self, xs, y: int, cond) -> list[float]:
        """The p-values of each ``x`` in ``xs`` against ``y`` given ``cond`` (one batch)."""
        return np.exp(self.bound.log_pvalues(xs, y, cond)).tolist()


def grow_shrink_blanket(test, x: int, p: int, alpha: float, max_sx: int) -> list[int]:
    """The Grow-Shrink blanket of ``x``: add the first dependent candidate, then prune."""
    nodes = [v for v in range(p) if v != x]
    mb: list[int] = []
    while True:
        size = len(mb)
        for y in nodes:
            if size > max_sx:
                continue
            if test(x, y, mb) <= alpha:
                mb.append(y)
                nodes.remove(y)
                break
        if len(mb) == size:
            break
    candidates = list(mb)
    while True:
        size = len(mb)
        for y in candidates:
            if test(x, y, [m for m in mb if m != y]) > alpha:
                mb.remove(y)
                candidates.remove(y)
                break
        if len(mb) == size:
            break
    return mb


def _round_robin(test, x: int, z: list[int], fixed: set, alpha: float) -> set:
    """The members of ``z`` kept: each tested given the others not yet dropped.

    Testing stops when fewer than two members remain undropped; a member not tested (or
    fixed) is kept.
    """
    dropped = [False] * len(z)
    valid = len(z)
    kept = set(z)
    for i, zi in enumerate(z):
        if valid < 2:
            break
        if zi in fixed:
            continue
        cond = [z[k] for k in range(len(z)) if k != i and not dropped[k]]
        if test(x, zi, cond) > alpha:
            dropped[i] = True
            valid -= 1
            kept.discard(zi)
    return kept


def iamb_blanket(test, x: int, p: int, alpha: float, max_sx: int) -> list[int]:
    """The IAMB blanket of ``x``: add the strongest dependent candidate, then prune once."""
    nodes = [v for v in range(p) if v != x]
    mb: list[int] = []
    last = None
    while nodes and len(mb) <= max_sx:
        association = test.many(nodes, x, mb)
        if all(a > alpha for a in association):
            break
        best = int(np.argmin(association))
        last = nodes[best]
        if association[best] <= alpha:
            mb.append(last)
            nodes.remove(last)
    fixed = set() if last is None else {last}
    kept = _round_robin(test, x, mb, fixed, alpha) | fixed
    return [m for m in mb if m in kept]


def inter_iamb_blanket(test, x: int, p: int, alpha: float, max_sx: int) -> list[int]:
    """The inter-IAMB blanket of ``x``: a pruning pass after every addition."""
    nodes = [v for v in range(p) if v != x]
    mb: list[int] = []
    culprits: list[int] = []
    states: list[set] = []
    while True:
        candidates = [v for v in nodes if v not in mb and v not in culprits]
        if not candidates or len(mb) > max_sx:
            break
        snapshot = list(mb)
        association = test.many(candidates, x, mb)
        if all(a > alpha for a in association):
            break
        best = int(np.argmin(association))
        added = candidates[best]
        if association[best] <= alpha:
            mb.append(added)
        kept = _round_robin(test, x, mb, {added}, alpha) | {added}
        mb = [m for m in mb if m in kept]
        if mb == snapshot:
            break
        if any(set(mb) == state for state in states):
            # a blanket met before: the search would cycle; drop the last member for good
            culprits.append(mb[-1])
            mb = mb[:-1]
            continue
        states.append(set(mb))
    return mb


#: Fewest rows per cell of a discrete test's table for fast-IAMB to add a member.
MIN_ROWS_PER_CELL = 5


def fast_iamb_blanket(test, x: int, p: int, alpha: float, max_sx: int) -> list[int]:
    """The fast-IAMB blanket of ``x``: add every dependent candidate at once, then prune.

    All candidates dependent on ``x`` given the blanket so far are added, strongest first,
    while the discrete test's table keeps at least ``MIN_ROWS_PER_CELL`` rows per cell (a
    candidate that would thin it stops the additions); a pruning pass follows each round.
    """
    nodes = [v for v in range(p) if v != x]
    mb: list[int] = []
    while True:
        candidates = [v for v in nodes if v not in mb]
        if not candidates or len(mb) > max_sx:
            break
        snapshot = list(mb)
        association = test.many(candidates, x, mb)
        if all(a > alpha for a in association):
            break
        dependent = sorted(
            (i for i, a in enumerate(association) if a <= alpha), key=lambda i: association[i]
        )
        thin = False
        for i in dependent:
            if len(mb) > max_sx:
                continue
            if test.rows_per_cell(x, candidates[i], mb) >= MIN_ROWS_PER_CELL:
                mb.append(candidates[i])
            else:
                thin = True
                break
        grown = len(mb)
        kept = _round_robin(test, x, mb, set(), alpha)
        mb = [m for m in mb if m in kept]
        if mb == snapshot or (thin and grown == len(mb)):
            break
        nodes = [v for v in nodes if v not in mb]
    return mb


def iamb_fdr_blanket(test, x: int, p: int, alpha: float, max_sx: int) -> list[int]:
    """The IAMB-FDR blanket of ``x``: IAMB with p-values ranked against an FDR threshold.

    Every round tests each variable against ``x`` given the blanket (without itself) and
    ranks the p-values; the ``i``-th smallest of ``m`` passes when ``p * m / i * H(m) <=
    alpha`` (Benjamini and Yekutieli's step-up threshold, ``H`` the harmonic number). The
    weakest failing member (not the one just added) is removed, else the strongest passing
    non-member (not the one just removed) is added, one change a round, until nothing
    changes. A blanket met again marks the last change's variable a culprit, ignored from
    then on. As bnlearn 4.9's ``iamb.fdr`` step for step.
    """
    nodes = [v for v in range(p) if v != x]
    m = len(nodes)
    if m == 0:
        return []
    ranks = np.arange(1, m + 1, dtype=float)
    threshold = m / ranks * float(np.sum(1.0 / ranks))
    mb: list[int] = []
    culprits: list[int] = []
    states: list[list[int]] = []
    last_added = last_removed = None
    while len(mb) <= max_sx:
        if any(set(mb) == set(state) for state in states):
            if last_removed is not None:
                mb.append(last_removed)
                culprits.append(last_removed)
            elif last_added is not None:
                mb.remove(last_added)
                culprits.append(last_added)
            states.pop()
        states.append(list(mb))
        before = list(mb)
        outside = [v for v in nodes if v not in mb]
        pvalue = dict(zip(outside, test.many(outside, x, mb))) if outside else {}
        for v in mb:
            pvalue[v] = test(x, v, [u for u in mb if u != v])
        ranked = sorted(nodes, key=lambda v: pvalue[v])  # stable: ties in column order
        passes = {v: pvalue[v] * threshold[i] <= alpha for i, v in enumerate(ranked)}
        removable = [v for v in ranked if v in mb and v != last_added and v not in culprits]
        for v in reversed(removable):
            if not passes[v]:
                mb.remove(v)
                last_added, last_removed = None, v
                break
        if mb != before:
            continue
        for v in ranked:
            if v in mb or v == last_removed or v in culprits:
                continue
            if passes[v]:
                mb.append(v)
                last_added, last_removed = v, None
                break
        if mb == before:
            break
    return mb


_BLANKETS = {
    "gs": grow_shrink_blanket,
    "iamb": iamb_blanket,
    "inter": inter_iamb_blanket,
    "fast": fast_iamb_blanket,
    "fdr": iamb_fdr_blanket,
}


def _smaller(a: list, b: list) -> list:
    return a if len(a) < len(b) else b


#: A set this large, searched with no bound on the conditioning sets' size, gets a warning:
#: every subset of it may be tested for one pair.
LARGE_SUBSET_POOL = 16


def _separation(test, x, y, fixed, pool, alpha, max_size, min_size=0):
    """Largest p-value of ``x`` vs ``y`` given ``fixed`` plus each subset of ``pool``.

    Subsets go by size (``min_size`` to ``max_size``), then in ``itertools.combinations``
    order; the search stops at the first p-value above ``alpha`` (independence found).
    Returns that p-value and the separating subset, or the largest p-value and None.
    """
    largest = 0.0
    if min(len(pool), max_size) >= LARGE_SUBSET_POOL:
        # one text, so the warnings filter shows it once
        warnings.warn(
            f"A conditioning set is searched over every subset of {LARGE_SUBSET_POOL} or "
            "more variables (a blanket or neighbour set of dense data): "
            f"2**{LARGE_SUBSET_POOL} tests and more for one pair. Bound the sets with "
            "max_sx (e.g. 3), or use BOSS or FGES, whose cost grows with the edges.",
            UserWarning,
            stacklevel=stack_level(),
        )
    for size in range(min_size, min(len(pool), max_size) + 1):
        for subset in itertools.combinations(pool, size):
            pvalue = test(x, y, [*fixed, *subset])
            if pvalue > alpha:
                return pvalue, subset
            largest = max(largest, pvalue)
    return largest, None


def _neighbours_of(
    test, x, sets, alpha, max_sx, markov=True, min_size=0, sepsets=None
) -> list[int]:
    """The neighbours of ``x`` inside its set ``sets[x]`` (a blanket, or a PC set).

    ``y`` in the set stops being a neighbour when some subset (of size ``min_size`` to
    ``max_sx``) of the other members gives a p-value above ``alpha``: of the smaller of the
    two sets (without ``x`` and ``y``) when they are blankets (``markov``), of ``x``'s own
    otherwise. A set of one member is its neighbour set untested. ``sepsets`` (a dict), if
    given, records the separating subset of each member removed.
    """
    candidates = list(sets[x])
    if len(candidates) <= 1:
        return candidates
    keep = list(candidates)
    for y in candidates:
        own = [v for v in sets[x] if v != y]
        pool = _smaller(own, [v for v in sets[y] if v != x]) if markov else own
        _, subset = _separation(test, x, y, (), pool, alpha, max_sx, min_size)
        if subset is not None:
            keep.remove(y)
            if sepsets is not None:
                sepsets[y] = subset
    return keep


def _neighbours(test, blankets, alpha: float, max_sx: int) -> list[list[int]]:
    """Neighbour sets inside the blankets; neighbours that only one end kept are dropped."""
    p = len(blankets)
    neighbours = [_neighbours_of(test, x, blankets, alpha, max_sx) for x in range(p)]
    return [[y for y in neighbours[x] if x in neighbours[y]] for x in range(p)]


def hiton_pc(test, x: int, p: int, alpha: float, max_sx: int, sepsets=None) -> list[int]:
    """Semi-interleaved HITON-PC: candidate parents and children of ``x``.

    The variables dependent on ``x`` on their own are taken in increasing order of that
    p-value; each joins unless some non-empty subset of those already in separates it from
    ``x``. ``sepsets`` (a dict), if given, records the separating set of each variable kept
    out (empty for those independent on their own).
    """
    nodes = [v for v in range(p) if v != x]
    if not nodes:
        return []
    association = test.many(nodes, x, [])
    order = sorted(range(len(nodes)), key=lambda i: association[i])  # stable: ties by column
    pc: list[int] = []
    for i in order:
        if association[i] > alpha or len(pc) > max_sx:
            break
        y = nodes[i]
        subset = _separation(test, x, y, (), pc, alpha, len(pc), 1)[1] if pc else None
        if subset is None:
            pc.append(y)
        elif sepsets is not None:
            sepsets[y] = subset
    if sepsets is not None:
        for i in order:
            if association[i] > alpha:
                sepsets[nodes[i]] = ()
    return pc


def hiton_sets(test, x: int, p: int, alpha: float, max_sx: int) -> tuple[list[int], dict]:
    """HITON-PC's parents and children of ``x`` after its pruning pass, with separating sets."""
    sepsets: dict = {}
    pcs = {x: hiton_pc(test, x, p, alpha, max_sx, sepsets)}
    found = _neighbours_of(test, x, pcs, alpha, max_sx, markov=False, sepsets=sepsets)
    return found, sepsets


def hiton_spouses(test, x: int, pcs, sepsets: dict, alpha: float, max_sx: int) -> list[int]:
    """The spouses of ``x`` (HITON-MB): other parents of its children, from the PC sets.

    ``z`` in the parents and children of a member ``y`` of ``x``'s own (and not in them) is
    a spouse when it is dependent on ``x`` given its separating set together with ``y``:
    ``x -> y <- z`` is then a collider. ``pcs`` maps ``x`` and each of its members to their
    sets; ``sepsets`` holds ``x``'s separating sets (a variable with none, left untested by
    ``max_sx``, is given one by a search over ``x``'s own set).
    """
    own = pcs[x]
    spouses: list[int] = []
    for y in own:
        for z in pcs[y]:
            if z == x or z in own or z in spouses:
                continue
            sep = sepsets.get(z)
            if sep is None:
                sep = _separation(test, x, z, (), own, alpha, max_sx)[1]
            if sep is None or (y not in sep and test(x, z, [*sep, y]) <= alpha):
                spouses.append(z)
    return spouses


def _orient(test, blankets, neighbours, alpha: float, max_sx: int, constraints=None) -> np.ndarray:
    """Colliders by bnlearn's rule, applied strongest first without cycles, then Meek.

    ``y - x - z`` with ``y``, ``z`` not adjacent is a collider when ``y`` and ``z`` are
    dependent given ``x`` together with every subset of the smaller of their blankets
    (without ``x`` and each other). Colliders are applied in increasing order of their
    largest p-value; one whose arcs are already oriented the other way, or that would close
    a directed cycle, is skipped. Arcs the data's model rules out (``constraints``: on mixed
    data, from a continuous into a discrete column) are never made: a collider that needs
    one is skipped, an edge with one direction ruled out takes the other, and Meek's rules
    respect them, as :class:`~skbn.learners.PCStable` does.
    """
    forbidden = None
    if constraints is not None and not constraints.is_empty:
        forbidden = constraints.forbidden
    p = len(blankets)
    A = np.zeros((p, p), dtype=np.int8)
    for x in range(p):
        A[x, neighbours[x]] = 1
    colliders = []
    for x in range(p):
        around = sorted(neighbours[x])
        for y, z in itertools.combinations(around, 2):
            if A[y, z] or A[z, y]:
                continue
            pool = _smaller(
                [v for v in blankets[y] if v not in (x, z)],
                [v for v in blankets[z] if v not in (x, y)],
            )
            largest = _separation(test, y, z, (x,), pool, alpha, max_sx)[0]
            if largest <= alpha:
                colliders.append((largest, y, x, z))
    colliders.sort(key=lambda c: c[0])  # stable: ties keep the order they were found in
    for _, y, x, z in colliders:
        if not (A[y, x] and A[z, x]):
            continue  # an arc already points away from x
        if forbidden is not None and (forbidden[y, x] or forbidden[z, x]):
            continue  # the model holds no such arc
        # the arcs applied so far are acyclic: y -> x <- z closes a cycle iff x reaches y or z
        directed = (A == 1) & (A.T == 0)
        if reaches(directed, x, y) or reaches(directed, x, z):
            continue
        A[x, y] = A[x, z] = 0
    if forbidden is None:
        return meek_orient_array(A, acyclic=True)
    # an undirected edge with one direction ruled out takes the other
    both = (A == 1) & (A.T == 1)
    for a, b in zip(*np.nonzero(both & forbidden & ~forbidden.T)):
        A[a, b], A[b, a] = 0, 1
    return meek_orient_array(A, forbidden, acyclic=True)


class _LocalLearner(BaseStructureLearner):
    """Shared by the learners built from local CI tests: the bound test and the set bound."""

    _family_parameters = ("ci_test",)
    _handles_missing = True  # the tests delete rows test by test

    def _setup(self, data) -> tuple[_Tester, int]:
        """The bound test (p-values as R gives them) and the largest conditioning set."""
        test = _Tester(self._resolve_family("ci_test", data).bind(data))
        return test, data.n_features if self.max_sx is None else int(self.max_sx)


class _BlanketLearner(_LocalLearner):
    """Shared by the Markov-blanket learners: blankets, neighbours, orientation."""

    _variant = "gs"

    def _learn(self, data, prepared):
        p = data.n_features
        test, max_sx = self._setup(data)
        learn = _BLANKETS[self._variant]
        raw = [learn(test, x, p, self.alpha, max_sx) for x in range(p)]
        # keep the blanket members both ends agree on (bnlearn's AND filter), in the order
        # they were added
        blankets = [[y for y in raw[x] if x in raw[y]] for x in range(p)]
        neighbours = _neighbours(test, blankets, self.alpha, max_sx)
        A = _orient(test, blankets, neighbours, self.alpha, max_sx, prepared)
        self.markov_blankets_ = {
            data.names[x]: [data.names[y] for y in sorted(blankets[x])] for x in range(p)
        }
        return A, "cpdag"

    def markov_blanket(self, target) -> list[str]:
        """Return the learned Markov blanket of ``target`` (a column name), in column order.

        Parameters
        ----------
        target : str
            A column of the data ``fit`` saw.

        Returns
        -------
        list of str
        """
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "markov_blankets_")
        if str(target) not in self.markov_blankets_:
            raise ValueError(f"{target!r} is not a column of the data the learner was fitted on.")
        return list(self.markov_blankets_[str(target)])

    def blanket_of(self, data, target: int) -> list[int]:
        """Learn the blanket of one column of checked ``data`` (positions), nothing else.

        What :class:`~skbn.feature_selection.MarkovBlanketSelector` asks: the blanket
        phase for ``target`` alone, without the symmetry check against the others.

        Parameters
        ----------
        data : DiscreteData, GaussianData or MixedData
            Data checked by :func:`skbn.data.check_data`.
        target : int
            The column's position.

        Returns
        -------
        list of int
            The positions of the blanket's columns, increasing.
        """
        test, max_sx = self._setup(data)
        return sorted(_BLANKETS[self._variant](test, target, data.n_features, self.alpha, max_sx))


_COMMON_DOC = """    ci_test : str, CITest or None, default=None
        The test, by family name or as an object; None means ``"g_sq"`` on discrete data and
        ``"fisher_z"`` on continuous data (as :class:`~skbn.learners.PCStable`). ``"mi"`` is
        bnlearn's test of that name (G-squared, unadjusted degrees of freedom).
    alpha : float, default=0.05
        Significance level: a p-value above it is independence.
    max_sx : int, default=None
        Largest conditioning set; None for no limit."""


class GrowShrink(_BlanketLearner):
    __doc__ = f"""Grow-Shrink: Markov blankets by adding, then pruning, dependent variables.

    For each variable, the grow phase adds the first candidate (in column order) that is
    dependent on it given the blanket so far, and starts over, until none is; the shrink
    phase removes, one at a time, members independent of it given the rest. The blankets
    then give the skeleton and the CPDAG (module docstring).

    Parameters
    ----------
{_COMMON_DOC}

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The CPDAG.
    markov_blankets_ : dict of str to list of str
        Each variable's blanket (after the symmetry check).
    network_, parameters_, feature_names_in_, n_features_in_, data_kind_
        As for every skbn learner.

    See Also
    --------
    IAMB : Adds the most strongly dependent candidate instead of the first.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import GrowShrink
    >>> X = load_network("asia").sample(5000, random_state=0)
    >>> gs = GrowShrink(alpha=0.01).fit(X)
    >>> gs.markov_blanket("bronc")
    ['smoke', 'dysp']
    """

    _variant = "gs"
    _parameter_constraints = {
        "ci_test": [CITest, str, None],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "max_sx": [Interval(Integral, 0, None, closed="left"), None],
    }

    def __init__(self, ci_test=None, alpha=0.05, max_sx=None):
        self.ci_test = ci_test
        self.alpha = alpha
        self.max_sx = max_sx


class IAMB(_BlanketLearner):
    __doc__ = f"""IAMB: Markov blankets by adding the most dependent variable first.

    For each variable, the forward phase adds the candidate with the smallest p-value given
    the blanket so far while that p-value is at most ``alpha``; the backward phase then
    removes members independent of it given the others. ``variant="inter"`` (inter-IAMB)
    prunes after every addition, which keeps the conditioning sets small. The blankets then
    give the skeleton and the CPDAG (module docstring).

    Parameters
    ----------
{_COMMON_DOC}
    variant : {{"iamb", "inter", "fast", "fdr"}}, default="iamb"
        IAMB, inter-IAMB, fast-IAMB (adds every dependent candidate in one round, while
        the discrete test's table keeps at least 5 rows per cell), or IAMB-FDR (one
        addition or removal a round, each p-value ranked among all variables' and held to
        a Benjamini-Yekutieli false-discovery threshold at level ``alpha``; Pena 2008).

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The CPDAG.
    markov_blankets_ : dict of str to list of str
        Each variable's blanket (after the symmetry check).
    network_, parameters_, feature_names_in_, n_features_in_, data_kind_
        As for every skbn learner.

    See Also
    --------
    GrowShrink : Adds the first dependent candidate instead of the strongest.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import IAMB
    >>> X = load_network("asia").sample(5000, random_state=0)
    >>> IAMB(alpha=0.01).fit(X).markov_blanket("bronc")
    ['smoke', 'dysp']
    """

    _parameter_constraints = {
        **GrowShrink._parameter_constraints,
        "variant": [StrOptions({"iamb", "inter", "fast", "fdr"})],
    }

    def __init__(self, ci_test=None, alpha=0.05, max_sx=None, variant="iamb"):
        self.ci_test = ci_test
        self.alpha = alpha
        self.max_sx = max_sx
        self.variant = variant

    @property
    def _variant(self) -> str:
        return self.variant


_HITON_DOC = """    ci_test : str, CITest or None, default=None
        The test, by family name or as an object; None means ``"g_sq"`` on discrete data and
        ``"fisher_z"`` on continuous data. ``"mi"`` is bnlearn's test of that name.
    alpha : float, default=0.05
        Significance level: a p-value above it is independence.
    max_sx : int, default=None
        Largest conditioning set; None for no limit."""


class HITONPC(_LocalLearner):
    __doc__ = f"""HITON-PC (semi-interleaved): each variable's parents and children, then a CPDAG.

    For each variable, the variables dependent on it on their own join its candidate set in
    increasing order of that p-value, each unless some non-empty subset of those already in
    separates it; a member that some non-empty subset of the other members separates is then
    removed. The sets that both ends agree on form the skeleton, oriented as by
    :class:`GrowShrink` and :class:`IAMB` (with the neighbours of the neighbours standing for
    the blankets). It follows bnlearn 4.9's ``si.hiton.pc`` step for step.

    Parameters
    ----------
{_HITON_DOC}

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The CPDAG.
    parents_and_children_ : dict of str to list of str
        Each variable's neighbours (after the symmetry check).
    network_, parameters_, feature_names_in_, n_features_in_, data_kind_
        As for every skbn learner.

    References
    ----------
    C. F. Aliferis, A. Statnikov, I. Tsamardinos, S. Mani and X. D. Koutsoukos, "Local causal
    and Markov blanket induction for causal discovery and feature selection for
    classification", JMLR 11, 2010.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import HITONPC
    >>> X = load_network("asia").sample(5000, random_state=0)
    >>> HITONPC(alpha=0.01).fit(X).parents_and_children_["bronc"]
    ['smoke', 'dysp']
    """

    _parameter_constraints = dict(GrowShrink._parameter_constraints)

    def __init__(self, ci_test=None, alpha=0.05, max_sx=None):
        self.ci_test = ci_test
        self.alpha = alpha
        self.max_sx = max_sx

    def _learn(self, data, prepared):
        return self._fit_sets(data, prepared)[0], "cpdag"

    def _fit_sets(self, data, constraints=None):
        """The CPDAG, and what it came from: the test, the PC sets, the separating sets."""
        test, max_sx = self._setup(data)
        p = data.n_features
        found, sepsets = zip(*(hiton_sets(test, x, p, self.alpha, max_sx) for x in range(p)))
        # the neighbours' neighbours stand for the blankets in the collider tests
        blankets = []
        for x in range(p):
            around = [v for y in found[x] for v in found[y]] + list(found[x])
            blankets.append([v for v in dict.fromkeys(around) if v != x])
        neighbours = [[y for y in found[x] if x in found[y]] for x in range(p)]
        A = _orient(test, blankets, neighbours, self.alpha, max_sx, constraints)
        self.parents_and_children_ = {
            data.names[x]: [data.names[y] for y in sorted(neighbours[x])] for x in range(p)
        }
        return A, (test, found, sepsets, max_sx)

    def _parents_and_children_of(self, data, target: int) -> list[int]:
        """One variable's set alone, as bnlearn's ``learn.nbr(method="si.hiton.pc")``."""
        test, max_sx = self._setup(data)
        return sorted(hiton_sets(test, target, data.n_features, self.alpha, max_sx)[0])


class HITONMB(HITONPC):
    __doc__ = f"""HITON-MB: each variable's Markov blanket from HITON-PC's parents and children.

    The blanket of ``x`` is its parents and children (as :class:`HITONPC` finds them,
    before the symmetry check) and its spouses: a variable ``z`` among the parents and
    children of a member ``y`` is a spouse when ``x`` and ``z`` are dependent given the set
    that separated them together with ``y`` (``x -> y <- z``). The graph is
    :class:`HITONPC`'s. :class:`~skbn.feature_selection.MarkovBlanketSelector` with this
    learner runs HITON-PC only for the target and its parents and children.

    Parameters
    ----------
{_HITON_DOC}

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The CPDAG (:class:`HITONPC`'s).
    parents_and_children_ : dict of str to list of str
        Each variable's neighbours (after the symmetry check).
    markov_blankets_ : dict of str to list of str
        Each variable's blanket, in column order.
    network_, parameters_, feature_names_in_, n_features_in_, data_kind_
        As for every skbn learner.

    References
    ----------
    C. F. Aliferis, A. Statnikov, I. Tsamardinos, S. Mani and X. D. Koutsoukos, "Local causal
    and Markov blanket induction for causal discovery and feature selection for
    classification. Part I", JMLR 11, 2010.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import HITONMB
    >>> X = load_network("asia").sample(5000, random_state=0)
    >>> HITONMB(alpha=0.01).fit(X).markov_blanket("bronc")  # smoke -> bronc -> dysp <- either
    ['smoke', 'either', 'dysp']
    """

    def _learn(self, data, prepared):
        A, (test, found, sepsets, max_sx) = self._fit_sets(data, prepared)
        pcs = dict(enumerate(found))
        self.markov_blankets_ = {}
        for x in range(data.n_features):
            spouses = hiton_spouses(test, x, pcs, sepsets[x], self.alpha, max_sx)
            members = sorted({*found[x], *spouses})
            self.markov_blankets_[data.names[x]] = [data.names[v] for v in members]
        return A, "cpdag"

    markov_blanket = _BlanketLearner.markov_blanket

    def blanket_of(self, data, target: int) -> list[int]:
        """Learn the blanket of one column of checked ``data`` (positions), nothing else.

        HITON-PC runs for the target and for each of its parents and children only.

        Parameters
        ----------
        data : DiscreteData, GaussianData or MixedData
            Data checked by :func:`skbn.data.check_data`.
        target : int
            The column's position.

        Returns
        -------
        list of int
            The positions of the blanket's columns, increasing.
        """
        test, max_sx = self._setup(data)
        p = data.n_features
        own, sepsets = hiton_sets(test, target, p, self.alpha, max_sx)
        pcs = {target: own}
        for y in own:
            pcs[y] = hiton_sets(test, y, p, self.alpha, max_sx)[0]
        spouses = hiton_spouses(test, target, pcs, sepsets, self.alpha, max_sx)
        return sorted({*own, *spouses})
