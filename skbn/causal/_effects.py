# SPDX-License-Identifier: BSD-3-Clause
"""Effects estimated from data and a graph: adjustment, the front-door formula, IDA."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from skbn.causal._adjustment import (
    _check,
    _is_mpdag,
    _not_amenable,
    adjustment_set,
    forbidden_nodes,
    is_adjustment_set,
)
from skbn.causal._frontdoor import _KINDS as _FRONTDOOR_KINDS
from skbn.causal._frontdoor import frontdoor_set, is_frontdoor_set
from skbn.graph._array import dag_to_cpdag_array, pdag_to_dag_array
from skbn.graph._convert import as_adjacency
from skbn.graph._cpdag import is_cpdag

__all__ = ["AdjustedEffect", "adjusted_effect", "frontdoor_effect", "ida", "joint_ida"]


def _numeric_columns(X, columns: list, what: str) -> np.ndarray:
    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"{what} takes the data as a DataFrame whose columns are the nodes.")
    missing = [c for c in columns if c not in X.columns]
    if missing:
        raise ValueError(f"{what}: the data have no column {missing}.")
    frame = X[columns]
    bad = [c for c in columns if not pd.api.types.is_numeric_dtype(frame[c])]
    if bad:
        raise ValueError(
            f"{what} needs continuous columns; {bad} are not numeric (for discrete data, "
            "adjusted_effect gives the interventional distribution by the adjustment formula)."
        )
    values = frame.to_numpy(dtype=float)
    if np.isnan(values).any():
        raise ValueError(
            f"{what}: the columns {frame.columns[np.isnan(values).any(axis=0)].tolist()} have "
            "missing values; drop or impute those rows first."
        )
    return values


def _coefficient(cov: np.ndarray, regressors: list, target: int) -> float:
    """The coefficient of ``regressors[0]`` in the population regression of ``target``."""
    S = cov[np.ix_(regressors, regressors)]
    s = cov[regressors, target]
    return float(np.linalg.solve(S, s)[0])


def ida(X, cpdag, treatment: str, outcome: str) -> np.ndarray:
    """The possible linear effects of ``treatment`` on ``outcome`` given a CPDAG (local IDA).

    A CPDAG leaves some edges at the treatment unoriented, so the data cannot say which of
    its neighbours are its parents; each choice consistent with the CPDAG (the chosen
    neighbours pairwise adjacent and adjacent to every parent, so that no new collider
    appears at the treatment) gives one effect, the coefficient of the treatment when the
    outcome is regressed on it and its parents. The distinct values are those of every DAG
    of the class (Maathuis, Kalisch and Buhlmann 2009); their multiplicities are not. On
    an MPDAG (a CPDAG oriented further by background knowledge and closed under Meek's
    rules) a locally valid set is kept only when some DAG the MPDAG stands for gives the
    treatment those parents (a consistent extension with them, the semi-local variant of
    Perkovic, Kalisch and Maathuis 2017), so the values are those of its DAGs.

    Parameters
    ----------
    X : DataFrame
        Continuous data with a column per node of the graph.
    cpdag : networkx.DiGraph or array-like of shape (p, p)
        A CPDAG or MPDAG (an undirected edge is a pair of opposite arcs), e.g. a
        learner's ``graph_``; a DAG gives its one effect.
    treatment, outcome : str
        Two nodes.

    Returns
    -------
    ndarray of float
        One effect per locally valid parent set, sorted; 0 where the outcome is among the
        chosen parents.

    References
    ----------
    M. H. Maathuis, M. Kalisch and P. Buhlmann, "Estimating high-dimensional intervention
    effects from observational data", Annals of Statistics 37, 2009.

    Examples
    --------
    Data from ``a -> x -> y``, whose CPDAG is ``a - x - y``: ``x`` may have ``a`` or ``y``
    as its parent (not both: that would be a collider the data would show), or neither.

    >>> import networkx as nx
    >>> import numpy as np
    >>> from skbn.network import LinearGaussianNetwork
    >>> W = np.array([[0, 0.8, 0], [0, 0, 1.5], [0, 0, 0]])
    >>> data = LinearGaussianNetwork(W, [1, 1, 1], ["a", "x", "y"]).sample(
    ...     20000, random_state=0)
    >>> cpdag = nx.DiGraph([("a", "x"), ("x", "a"), ("x", "y"), ("y", "x")])
    >>> np.round(ida(data, cpdag, "x", "y"), 1)  # y a parent of x: no effect
    array([0. , 1.5, 1.5])
    """
    if isinstance(cpdag, pd.DataFrame):
        raise TypeError("ida(X, cpdag, treatment, outcome): the data come first.")
    A, nodes = as_adjacency(cpdag)
    for name, node in (("treatment", treatment), ("outcome", outcome)):
        if node not in nodes:
            raise ValueError(f"{name}: {node!r} is not a node of the graph.")
    if treatment == outcome:
        raise ValueError("treatment and outcome are the same node.")
    x, y = nodes.index(treatment), nodes.index(outcome)
    values = _numeric_columns(X, list(nodes), "ida")
    cov = np.cov(values, rowvar=False)
    A = (A != 0).astype(np.int8)
    parent_sets = _local_parent_sets(A, x)
    if np.any(A & A.T) and not is_cpdag(A) and _is_mpdag(A):
        # knowledge may rule out a locally valid set: keep those some DAG it stands for has
        C = dag_to_cpdag_array(pdag_to_dag_array(A))
        parent_sets = [S for S in parent_sets if _joint_extension(A, [x], [S], C)]
    effects = [
        0.0 if y in parents else _coefficient(cov, [x, *parents], y) for parents in parent_sets
    ]
    return np.sort(np.array(effects))


def _local_parent_sets(A: np.ndarray, x: int) -> list[list[int]]:
    """The parent sets of ``x`` that its CPDAG allows locally, as :func:`ida` lists them."""
    adjacent = (A != 0) | (A.T != 0)
    parents = np.flatnonzero((A[:, x] != 0) & (A[x, :] == 0)).tolist()
    siblings = np.flatnonzero((A[:, x] != 0) & (A[x, :] != 0)).tolist()
    sets = []
    for size in range(len(siblings) + 1):
        for chosen in itertools.combinations(siblings, size):
            if any(not adjacent[a, b] for a, b in itertools.combinations(chosen, 2)):
                continue  # two non-adjacent new parents: a new collider at x
            if any(not adjacent[a, b] for a in chosen for b in parents):
                continue  # a new parent not adjacent to an old one: the same
            sets.append(sorted(parents + list(chosen)))
    return sets


def _joint_extension(A: np.ndarray, treatments: list[int], parent_sets, C=None) -> bool:
    """Whether some DAG that ``A`` stands for gives each treatment those parents.

    ``A`` is a CPDAG, or an MPDAG whose class has the CPDAG ``C``; a DAG it stands for
    has its arcs and that CPDAG.
    """
    P = A.copy()
    for x, chosen in zip(treatments, parent_sets):
        for s in np.flatnonzero((A[:, x] != 0) & (A[x, :] != 0)):
            want = (1, 0) if s in chosen else (0, 1)  # s -> x, or x -> s
            if P[s, x] != P[x, s] and (P[s, x], P[x, s]) != want:
                return False  # another treatment's choice oriented it the other way
            P[s, x], P[x, s] = want
    for x, chosen in zip(treatments, parent_sets):
        if sorted(np.flatnonzero((P[:, x] != 0) & (P[x, :] == 0)).tolist()) != chosen:
            return False
    D = pdag_to_dag_array(P)
    return D is not None and np.array_equal(dag_to_cpdag_array(D), A if C is None else C)


def _recursive_effects(cov: np.ndarray, treatments: list[int], parent_sets, y: int):
    """Joint effects of the treatments on ``y`` by recursive regressions (RRC).

    ``single[i][j]`` is the total effect of treatment ``i`` on node ``j`` (regression on the
    treatment and its parents; 0 when ``j`` is a parent). The effect of ``x_i`` with the set
    ``S`` held by intervention is ``t(i, S) = t(i, S - j) - t_ij(S - j) t(j, S - i)`` for any
    other ``j`` in ``S`` (Nandy, Maathuis and Richardson 2017), from the single effects up.
    """
    k = len(treatments)

    def single(i: int, target: int) -> float:
        pa = parent_sets[i]
        if target in pa:
            return 0.0
        return _coefficient(cov, [treatments[i], *pa], target)

    memo: dict = {}

    def effect(i: int, held: frozenset, target: int) -> float:
        # the effect of treatment i on target with the treatments in held (i among them) set
        key = (i, held, target)
        if key not in memo:
            if held == frozenset([i]):
                memo[key] = single(i, target)
            else:
                j = min(held - {i})
                memo[key] = effect(i, held - {j}, target) - effect(
                    i, held - {j}, treatments[j]
                ) * effect(j, held - {i}, target)
        return memo[key]

    everything = frozenset(range(k))
    return [effect(i, everything, y) for i in range(k)]


def joint_ida(X, cpdag, treatments, outcome: str) -> np.ndarray:
    """The possible effects of a joint intervention on ``treatments`` given a CPDAG.

    Each treatment's parents are open where the CPDAG leaves edges unoriented; every
    combination of parent sets that some DAG of the class has (jointly valid: checked by
    orienting the chosen edges and extending the result to a DAG of the same class) gives
    one vector of joint effects, the change in the outcome per unit of each treatment while
    the others are held by the same intervention. The effects are computed by Nandy,
    Maathuis and Richardson's recursive regressions (RRC) from the data's covariance.

    Parameters
    ----------
    X : DataFrame
        Continuous data with a column per node of the graph.
    cpdag : networkx.DiGraph or array-like of shape (p, p)
        A CPDAG or MPDAG (an undirected edge is a pair of opposite arcs); a DAG gives one
        row. On an MPDAG only the parent sets some DAG it stands for has are combined.
    treatments : list of str
        The nodes intervened on together (one or more).
    outcome : str

    Returns
    -------
    ndarray of shape (n_combinations, len(treatments))
        One row per jointly valid combination of parent sets, sorted; column ``i`` is the
        effect of ``treatments[i]``.

    References
    ----------
    P. Nandy, M. H. Maathuis and T. S. Richardson, "Estimating the effect of joint
    interventions from observational data in sparse high-dimensional settings", Annals of
    Statistics 45, 2017.

    Examples
    --------
    ``a -> x1 -> y <- x2``: the CPDAG leaves ``a - x1`` open; ``x1``'s effect with ``x2``
    held is 1.5 whether ``a`` is its parent or its child.

    >>> import networkx as nx
    >>> import numpy as np
    >>> from skbn.network import LinearGaussianNetwork
    >>> from skbn.graph import dag_to_cpdag
    >>> W = np.zeros((4, 4)); W[0, 1], W[1, 2], W[3, 2] = 0.8, 1.5, -1.0
    >>> net = LinearGaussianNetwork(W, [1, 1, 1, 1], ["a", "x1", "y", "x2"])
    >>> data = net.sample(20000, random_state=0)
    >>> cpdag = dag_to_cpdag(nx.DiGraph([("a", "x1"), ("x1", "y"), ("x2", "y")]))
    >>> np.round(joint_ida(data, cpdag, ["x1", "x2"], "y"), 1)
    array([[ 1.5, -1. ],
           [ 1.5, -1. ]])
    """
    if isinstance(cpdag, pd.DataFrame):
        raise TypeError("joint_ida(X, cpdag, treatments, outcome): the data come first.")
    if isinstance(treatments, str):
        treatments = [treatments]
    A, nodes = as_adjacency(cpdag)
    A = (A != 0).astype(np.int8)
    names = list(treatments)
    for name, node in [("treatments", v) for v in names] + [("outcome", outcome)]:
        if node not in nodes:
            raise ValueError(f"{name}: {node!r} is not a node of the graph.")
    if not names or len(set(names)) != len(names):
        raise ValueError(f"treatments must be distinct nodes, at least one; got {names}.")
    if outcome in names:
        raise ValueError(f"the outcome {outcome!r} is among the treatments.")
    C = None
    if np.any(A & A.T) and not is_cpdag(A):
        if not _is_mpdag(A):
            raise ValueError(
                "joint_ida needs a CPDAG or an MPDAG; the graph has undirected edges but is "
                "neither a DAG's CPDAG nor closed under Meek's rules (skbn.graph.to_cpdag "
                "gives the CPDAG of its extension, skbn.graph.meek_orient closes it)."
            )
        C = dag_to_cpdag_array(pdag_to_dag_array(A))
    xs = [nodes.index(v) for v in names]
    y = nodes.index(outcome)
    cov = np.cov(_numeric_columns(X, list(nodes), "joint_ida"), rowvar=False)
    options = [_local_parent_sets(A, x) for x in xs]
    rows = []
    for combination in itertools.product(*options):
        if (len(xs) > 1 or C is not None) and not _joint_extension(A, xs, combination, C):
            continue
        rows.append(_recursive_effects(cov, xs, list(combination), y))
    return np.array(sorted(rows), dtype=np.float64).reshape(len(rows), len(xs))


@dataclass(frozen=True)
class AdjustedEffect:
    """An effect estimated by adjustment, with its bootstrap interval.

    Parameters
    ----------
    estimate : float or DataFrame
        The linear effect (continuous data), or ``P(outcome | do(treatment))`` with a row
        per treatment state and a column per outcome state (discrete data).
    low, high : float, DataFrame or None
        The percentile bootstrap interval, of the same form; None without a bootstrap.
    adjustment : list of str
        The set adjusted for.

    Examples
    --------
    >>> AdjustedEffect(1.5, 1.4, 1.6, ["a"]).adjustment
    ['a']
    """

    estimate: object
    low: object
    high: object
    adjustment: list


def _linear_effect(values: np.ndarray) -> float:
    # columns: outcome, treatment, adjustment...; least squares with an intercept
    design = np.column_stack([np.ones(len(values)), values[:, 1:]])
    coef, *_ = np.linalg.lstsq(design, values[:, 0], rcond=None)
    return float(coef[1])


def _adjustment_formula(frame: pd.DataFrame, x: str, y: str, Z: list, x_states, y_states):
    """``sum_z P(y | x, z) P(z)`` from counts; refuses a stratum without some treatment."""
    n = len(frame)
    joint = frame.groupby([*Z, x, y], observed=True).size() if Z else None
    out = np.zeros((len(x_states), len(y_states)))
    if not Z:
        table = pd.crosstab(frame[x], frame[y]).reindex(
            index=x_states, columns=y_states, fill_value=0
        )
        totals = table.sum(axis=1)
        if (totals == 0).any():
            raise ValueError(f"No row has {x} = {totals.index[totals == 0][0]!r}.")
        return table.div(totals, axis=0)
    strata = frame.groupby(Z, observed=True).size()
    for z, n_z in strata.items():
        key = z if isinstance(z, tuple) else (z,)
        cell = joint.loc[key] if len(Z) > 1 else joint.loc[key[0]]
        counts = cell.unstack(fill_value=0).reindex(index=x_states, columns=y_states, fill_value=0)
        totals = counts.sum(axis=1).to_numpy()
        if (totals == 0).any():
            missing = x_states[int(np.argmax(totals == 0))]
            raise ValueError(
                f"No row has {x} = {missing!r} where {dict(zip(Z, key))} ({n_z} rows there): "
                "the adjustment formula needs every treatment state in every stratum "
                "(positivity). Adjust for a smaller set (kind='minimal') or merge states."
            )
        out += (n_z / n) * counts.to_numpy() / totals[:, None]
    return pd.DataFrame(out, index=x_states, columns=y_states)


def adjusted_effect(
    X,
    graph,
    treatment: str,
    outcome: str,
    adjustment="optimal",
    *,
    n_bootstrap: int = 0,
    confidence: float = 0.95,
    random_state=None,
) -> AdjustedEffect:
    """The effect of ``treatment`` on ``outcome`` from data, by adjustment on a DAG or CPDAG.

    Continuous data: the coefficient of the treatment in the least-squares regression of
    the outcome on the treatment and the adjustment set (the total effect in a linear
    model). Discrete data: ``P(outcome | do(treatment))`` by the adjustment formula
    ``sum_z P(outcome | treatment, z) P(z)`` with the data's frequencies.

    Parameters
    ----------
    X : DataFrame
        The data, a column per node (at least the treatment, the outcome and the set).
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG, or a CPDAG, MPDAG, MAG or PAG in which the effect is amenable to adjustment
        (:func:`~skbn.causal.is_amenable`), e.g. a learner's ``graph_``; for a CPDAG that
        is not, :func:`ida` gives the possible effects. On a MAG or PAG name the kind of
        set (``"canonical"`` or ``"minimal"``): the O-set is defined for DAGs and CPDAGs.
    treatment, outcome : str
    adjustment : {"optimal", "minimal", "parents", "canonical"} or list of str, default="optimal"
        A kind of :func:`adjustment_set`, or the set itself (checked).
    n_bootstrap : int, default=0
        Resamples of the rows for a percentile interval; 0 for none.
    confidence : float, default=0.95
        The interval's coverage.
    random_state : int, RandomState or None, default=None
        Seed of the resamples.

    Returns
    -------
    AdjustedEffect

    Examples
    --------
    >>> import networkx as nx
    >>> import numpy as np
    >>> from skbn.network import LinearGaussianNetwork
    >>> W = np.array([[0, 0.8, 0.5], [0, 0, 1.5], [0, 0, 0]])  # a -> x, a -> y, x -> y
    >>> net = LinearGaussianNetwork(W, [1, 1, 1], ["a", "x", "y"])
    >>> data = net.sample(20000, random_state=0)
    >>> dag = nx.DiGraph([("a", "x"), ("a", "y"), ("x", "y")])
    >>> fit = adjusted_effect(data, dag, "x", "y")
    >>> fit.adjustment, round(fit.estimate, 1)
    (['a'], 1.5)
    """
    G, X_set, Y_set = _check(graph, treatment, outcome, "adjusted_effect")
    blocking = _not_amenable(G, X_set, Y_set)
    if blocking is not None and G.kind in ("pag", "mag"):
        x, v = blocking
        raise ValueError(
            f"In the {G.kind.upper()} the edge between {x} and {v} starts a possibly causal "
            f"path to {outcome} and is not a visible arc out of {x}, so a hidden confounder "
            f"of {x} and {v} cannot be ruled out: no set adjusts for the effect in every "
            "model of the class (the graph is not amenable)."
        )
    if blocking is not None:
        x, v = blocking
        raise ValueError(
            f"The {G.kind.upper()} leaves the edge {x} - {v} undirected, and {v} may lie on "
            f"a causal path to {outcome}: the DAGs of the class disagree on the effect, so "
            "no set adjusts for it in all of them (the graph is not amenable). "
            + ("skbn.causal.ida gives the possible effects; " if G.kind == "cpdag" else "")
            + "background knowledge that orients the edge would make it identifiable."
        )
    if isinstance(adjustment, str):
        Z = adjustment_set(graph, treatment, outcome, kind=adjustment)
        if Z is None:
            path = treatment in G.reach({outcome}, forward=False)
            raise ValueError(
                f"No {adjustment} adjustment set exists for the effect of {treatment} on "
                f"{outcome} in this graph"
                + (
                    f" (it has no directed path from {treatment} to {outcome}, so by it the "
                    f"effect is zero, but {outcome} -> {treatment} leaves nothing to adjust "
                    "for)."
                    if not path
                    else "."
                )
            )
    else:
        Z = sorted(adjustment)
        if not is_adjustment_set(graph, treatment, outcome, Z):
            forbidden = sorted(set(Z) & forbidden_nodes(graph, treatment, outcome))
            why = (
                f"it holds {forbidden}, on or below a causal path"
                if forbidden
                else "it leaves a non-causal path open"
            )
            best = adjustment_set(graph, treatment, outcome)
            raise ValueError(
                f"{Z} is not an adjustment set for the effect of {treatment} on {outcome}: "
                f"{why}." + (f" The optimal set is {best}." if best is not None else "")
            )
    _check_interval(n_bootstrap, confidence)
    unmeasured = [v for v in Z if isinstance(X, pd.DataFrame) and v not in X.columns]
    if unmeasured:
        raise ValueError(
            f"adjusted_effect: the adjustment set {Z} holds {unmeasured}, which the data have "
            "no column for. Name a set of measured nodes (is_adjustment_set checks it), or, "
            "if they are hidden confounders, use the front-door formula where mediators "
            "carry the effect (skbn.causal.frontdoor_effect, skbn effect --frontdoor)."
        )
    estimate = _estimator(
        X,
        [outcome, treatment, *Z],
        "adjusted_effect",
        _linear_effect,
        lambda frame, xs, ys: _adjustment_formula(frame, treatment, outcome, Z, xs, ys),
    )
    point, low, high = _with_interval(estimate, len(X), n_bootstrap, confidence, random_state)
    return AdjustedEffect(point, low, high, list(Z))


def _estimator(X, columns: list, what: str, linear, formula):
    """The estimate as a function of row positions, over ``columns``.

    The columns are the outcome, the treatment, then the rest: ``linear(values)`` on
    continuous data, ``formula(frame, x_states, y_states)`` on discrete data.
    """
    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"{what} takes the data as a DataFrame.")
    missing = [c for c in columns if c not in X.columns]
    if missing:
        raise ValueError(f"{what}: the data have no column {missing}.")
    if all(pd.api.types.is_float_dtype(X[c]) for c in columns):
        values = _numeric_columns(X, columns, what)
        return lambda rows: linear(values[rows])
    frame = X[columns].dropna()
    if len(frame) < len(X):
        raise ValueError(
            f"{what}: {len(X) - len(frame)} rows miss a value in {columns}; drop or impute "
            "them first."
        )
    x_states = sorted(frame[columns[1]].unique().tolist(), key=str)
    y_states = sorted(frame[columns[0]].unique().tolist(), key=str)
    return lambda rows: formula(frame.iloc[rows], x_states, y_states)


def _check_interval(n_bootstrap, confidence) -> None:
    if not isinstance(n_bootstrap, int | np.integer) or n_bootstrap < 0:
        raise ValueError(f"n_bootstrap must be a non-negative integer; got {n_bootstrap!r}.")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1); got {confidence!r}.")


def _with_interval(estimate, n: int, n_bootstrap: int, confidence: float, random_state):
    """The estimate on all ``n`` rows and its percentile interval over resampled rows.

    ``estimate`` maps row positions to a float or a DataFrame (an interval of the same
    form, cell by cell).
    """
    point = estimate(np.arange(n))
    if not n_bootstrap:
        return point, None, None
    rng = check_random_state(random_state)
    draws = [estimate(rng.randint(0, n, size=n)) for _ in range(n_bootstrap)]
    tail = (1 - confidence) / 2 * 100
    if not isinstance(point, pd.DataFrame):
        low, high = (float(v) for v in np.percentile(draws, [tail, 100 - tail]))
        return point, low, high
    stacked = np.stack([d.to_numpy() for d in draws])
    low, high = (
        pd.DataFrame(np.percentile(stacked, q, axis=0), index=point.index, columns=point.columns)
        for q in (tail, 100 - tail)
    )
    return point, low, high


def _frontdoor_linear(values: np.ndarray) -> float:
    # columns: outcome, treatment, mediators...: the mediators' regressions on the
    # treatment, times their coefficients in the outcome's regression on both
    if values.shape[1] == 2:
        return 0.0  # no mediator: no directed path, no effect
    ones = np.ones(len(values))
    on_x, *_ = np.linalg.lstsq(np.column_stack([ones, values[:, 1]]), values[:, 2:], rcond=None)
    on_xz, *_ = np.linalg.lstsq(np.column_stack([ones, values[:, 1:]]), values[:, 0], rcond=None)
    return float(on_x[1] @ on_xz[2:])


def _frontdoor_formula(frame: pd.DataFrame, x: str, y: str, Z: list, x_states, y_states):
    """``sum_z P(z | x) sum_x' P(y | x', z) P(x')`` from counts (``P(y)`` without Z)."""
    n = len(frame)
    p_x = frame[x].value_counts().reindex(x_states, fill_value=0).to_numpy() / n
    if (p_x == 0).any():
        raise ValueError(f"No row has {x} = {x_states[int(np.argmax(p_x == 0))]!r}.")
    if not Z:
        p_y = frame[y].value_counts().reindex(y_states, fill_value=0).to_numpy() / n
        return pd.DataFrame(np.tile(p_y, (len(x_states), 1)), index=x_states, columns=y_states)
    out = np.zeros((len(x_states), len(y_states)))
    for z, rows in frame.groupby(Z, observed=True):
        key = z if isinstance(z, tuple) else (z,)
        counts = pd.crosstab(rows[x], rows[y]).reindex(
            index=x_states, columns=y_states, fill_value=0
        )
        totals = counts.sum(axis=1).to_numpy()
        if (totals == 0).any():
            missing = x_states[int(np.argmax(totals == 0))]
            raise ValueError(
                f"No row has {x} = {missing!r} where {dict(zip(Z, key))} ({len(rows)} rows "
                "there): the front-door formula needs every treatment state with every "
                "mediator state (positivity). Use fewer mediators or merge states."
            )
        p_y_given_z = p_x @ (counts.to_numpy() / totals[:, None])  # sum_x' P(y|x',z) P(x')
        p_z_given_x = totals / (p_x * n)  # P(z | x) for each x
        out += p_z_given_x[:, None] * p_y_given_z[None, :]
    return pd.DataFrame(out, index=x_states, columns=y_states)


def frontdoor_effect(
    X,
    graph,
    treatment: str,
    outcome: str,
    mediators="minimal",
    *,
    n_bootstrap: int = 0,
    confidence: float = 0.95,
    random_state=None,
) -> AdjustedEffect:
    """The effect of ``treatment`` on ``outcome`` by the front-door formula.

    For an effect whose confounders are not measured but whose mediators are
    (:func:`~skbn.causal.is_frontdoor_set`): ``P(y | do(x)) = sum_z P(z | x) sum_x'
    P(y | x', z) P(x')``. Continuous data: the product of the mediators' coefficients on
    the treatment and their coefficients in the outcome's regression on treatment and
    mediators (the total effect in a linear model). Discrete data: the formula with the
    data's frequencies.

    Parameters
    ----------
    X : DataFrame
        The data: the treatment, the outcome and the mediators at least (the hidden
        variables of the graph need no column).
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG, hidden variables included as nodes.
    treatment, outcome : str
    mediators : {"minimal", "maximal"} or list of str, default="minimal"
        A kind of :func:`~skbn.causal.frontdoor_set` among the nodes with a column in
        ``X``, or the set itself (checked).
    n_bootstrap : int, default=0
        Resamples of the rows for a percentile interval; 0 for none.
    confidence : float, default=0.95
        The interval's coverage.
    random_state : int, RandomState or None, default=None
        Seed of the resamples.

    Returns
    -------
    AdjustedEffect
        Its ``adjustment`` is the mediator set.

    Examples
    --------
    ``u`` confounds ``x`` and ``y`` and is not measured; ``m`` carries the effect:

    >>> import networkx as nx
    >>> import numpy as np
    >>> from skbn.network import LinearGaussianNetwork
    >>> W = np.zeros((4, 4))
    >>> W[0, 1], W[0, 3], W[1, 2], W[2, 3] = 1.0, 1.0, 0.8, 1.5  # u -> x, u -> y, x -> m -> y
    >>> net = LinearGaussianNetwork(W, [1, 1, 1, 1], ["u", "x", "m", "y"])
    >>> data = net.sample(20000, random_state=0).drop(columns="u")
    >>> dag = nx.DiGraph([("u", "x"), ("u", "y"), ("x", "m"), ("m", "y")])
    >>> fit = frontdoor_effect(data, dag, "x", "y")
    >>> fit.adjustment, round(fit.estimate, 1)  # 0.8 * 1.5
    (['m'], 1.2)
    """
    if isinstance(mediators, str) and mediators in _FRONTDOOR_KINDS:
        if not isinstance(X, pd.DataFrame):
            raise TypeError("frontdoor_effect takes the data as a DataFrame.")
        dag_nodes = list(as_adjacency(graph)[1])
        # the graph's nodes without a column are the unmeasured ones: never mediators
        unmeasured = [v for v in dag_nodes if v not in X.columns and v not in (treatment, outcome)]
        Z = frontdoor_set(graph, treatment, outcome, kind=mediators, latents=unmeasured)
        if Z is None:
            raise ValueError(
                f"No set satisfies the front-door criterion for the effect of {treatment} "
                f"on {outcome} in this graph: every candidate mediator shares an open path "
                f"with {treatment} or {outcome}, or some directed path avoids them all."
            )
    else:
        Z = sorted([mediators] if isinstance(mediators, str) else mediators)
        if not is_frontdoor_set(graph, treatment, outcome, Z):
            raise ValueError(
                f"{Z} does not satisfy the front-door criterion for the effect of "
                f"{treatment} on {outcome}."
            )
    _check_interval(n_bootstrap, confidence)
    estimate = _estimator(
        X,
        [outcome, treatment, *Z],
        "frontdoor_effect",
        _frontdoor_linear,
        lambda frame, xs, ys: _frontdoor_formula(frame, treatment, outcome, Z, xs, ys),
    )
    point, low, high = _with_interval(estimate, len(X), n_bootstrap, confidence, random_state)
    return AdjustedEffect(point, low, high, list(Z))
