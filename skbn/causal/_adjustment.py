# SPDX-License-Identifier: BSD-3-Clause
"""Adjustment sets of a DAG, CPDAG, MPDAG, MAG or PAG, by the generalised adjustment criterion.

A set ``Z`` is an *adjustment set* for the effect of ``X`` on ``Y`` when
``P(y | do(x)) = sum_z P(y | x, z) P(z)``, so that regressing ``Y`` on ``X`` and ``Z`` (linear
data) or the adjustment formula (discrete data) estimates the causal effect. In a DAG that
holds exactly when (Shpitser, VanderWeele and Robins 2010; Perkovic et al. 2018):

1. no node of ``Z`` is *forbidden*: a treatment, or a descendant of a node (other than a
   treatment) on a proper causal path from ``X`` to ``Y``;
2. ``Z`` d-separates ``X`` from ``Y`` in the *proper back-door graph*, the DAG without the
   first edge of each proper causal path from ``X`` to ``Y``.

In a CPDAG a set is an adjustment set when it is one in every DAG of the class. Perkovic
et al.'s generalised adjustment criterion decides that from the CPDAG itself: the graph
must be *amenable* (every proper possibly causal path starts with an arc out of ``X``),
the forbidden nodes are the possible descendants of the possibly causal nodes, and the
paths to block are the definite-status ones. The same holds for a MAG or PAG (hidden
variables allowed), where the first arc of each possibly causal path must also be visible
(Zhang 2008). In an MPDAG (a CPDAG oriented further by background knowledge and closed
under Meek's rules) a possibly causal path must have no arc pointing back between any two
of its nodes, not only between neighbours (Perkovic, Kalisch and Maathuis 2017); its
reachability follows unshielded walks. Condition 2 is decided by one search over (node,
the mark the walk arrived by, the node before) triples, linear in the edges, for every
kind; the minimal separator
of a DAG comes from networkx (``find_minimal_d_separator``, van der Zander, Liskiewicz and
Textor's algorithm).
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx
import numpy as np

from skbn.graph._array import meek_orient_array, pdag_to_dag_array
from skbn.graph._convert import as_adjacency
from skbn.graph._cpdag import is_cpdag
from skbn.graph._pag import ARROW, CIRCLE, TAIL, endpoint_matrix, is_marked

__all__ = [
    "adjustment_set",
    "forbidden_nodes",
    "is_adjustment_set",
    "is_amenable",
    "proper_causal_nodes",
]

_KINDS = ("optimal", "minimal", "parents", "canonical")


_NONE, _CIRCLE, _ARROW, _TAIL = 0, CIRCLE, ARROW, TAIL


class _Graph:
    """A DAG, CPDAG, MPDAG, MAG or PAG as edge marks.

    ``mark[v][w]`` is the mark at ``w`` on the edge between ``v`` and ``w``: an arc
    ``v -> w`` has an arrow at ``w`` and a tail at ``v``; a CPDAG's undirected edge is held
    as ``v o-o w``, which the walks below treat alike.
    """

    def __init__(self, M: np.ndarray, nodes: list, kind: str):
        self.nodes, self.kind = list(nodes), kind
        self.mark = {v: {} for v in nodes}
        for i, j in zip(*np.nonzero(M)):
            self.mark[nodes[i]][nodes[j]] = int(M[i, j])
        self.parents = {
            v: {w for w, m in self.mark[v].items() if m == _TAIL and self.mark[w][v] == _ARROW}
            for v in nodes
        }
        # the steps of possibly directed paths: v to w when the edge has no arrow at v
        self.forward = {v: {w for w in self.mark[v] if self.mark[w][v] != _ARROW} for v in nodes}
        self.backward = {v: {w for w in self.mark[v] if self.mark[v][w] != _ARROW} for v in nodes}

    def __contains__(self, v) -> bool:
        return v in self.mark

    def __iter__(self):
        return iter(self.nodes)

    def adjacent(self, v, w) -> bool:
        return w in self.mark[v]

    def directed(self, v, w) -> bool:
        """Whether the edge is the arc ``v -> w``."""
        return self.mark[v].get(w) == _ARROW and self.mark[w][v] == _TAIL

    def dag(self) -> nx.DiGraph:
        dag = nx.DiGraph()
        dag.add_nodes_from(self.nodes)
        dag.add_edges_from((u, v) for v in self.nodes for u in self.parents[v])
        return dag

    def reach(self, start: set, *, forward: bool, avoid: set = frozenset()) -> set:
        """The nodes reached from ``start`` along possibly directed paths.

        Forwards (backwards when ``forward`` is false) along edges with no arrowhead
        pointing back, never entering ``avoid``; ``start`` is included.
        """
        step = self.forward if forward else self.backward
        if self.kind == "mpdag":
            return self._reach_unshielded(start, step, avoid)
        seen = set(start)
        stack = list(start)
        while stack:
            v = stack.pop()
            for w in step[v]:
                if w not in seen and w not in avoid:
                    seen.add(w)
                    stack.append(w)
        return seen

    def _reach_unshielded(self, start: set, step: dict, avoid) -> set:
        """:meth:`reach` in an MPDAG: along unshielded walks only.

        In an MPDAG a possibly causal path must have no arc pointing back between any two
        of its nodes (Perkovic, Kalisch and Maathuis 2017), not only between neighbours;
        dropping the middle of a shielded triple keeps that, so the nodes such paths reach
        are those that unshielded walks reach, a search over (node, node before) pairs.
        """
        reached = set(start)
        seen = {(v, None) for v in start}
        stack = list(seen)
        while stack:
            v, prev = stack.pop()
            for w in step[v]:
                if w in avoid or w == prev or (prev is not None and self.adjacent(prev, w)):
                    continue
                if (w, v) not in seen:
                    seen.add((w, v))
                    reached.add(w)
                    stack.append((w, v))
        return reached

    def visible(self, a, b) -> bool:
        """Whether the arc ``a -> b`` is visible (Zhang 2008).

        It is when some ``c`` not adjacent to ``b`` has an edge into ``a``, or a collider
        path into ``a`` whose inner nodes are all parents of ``b``. Every arc of a DAG or
        CPDAG is.
        """
        if self.kind in ("dag", "cpdag", "mpdag"):
            return True

        def into(v):  # the nodes with an edge into v
            return {c for c in self.mark[v] if self.mark[c][v] == _ARROW}

        seen, stack = {a}, [a]
        while stack:
            v = stack.pop()
            for c in into(v):
                if c == b or c in seen:
                    continue
                if not self.adjacent(c, b):
                    return True
                # c <-> v with c a parent of b: the collider path goes on through c
                if self.mark[c][v] == _ARROW and self.mark[v][c] == _ARROW and self.directed(c, b):
                    seen.add(c)
                    stack.append(c)
        return False


def _is_mpdag(A: np.ndarray) -> bool:
    """Whether the PDAG ``A`` is maximally oriented (an MPDAG).

    It is when it has a consistent DAG extension and Meek's rules orient nothing more: a
    CPDAG with background knowledge, closed under the rules.
    """
    if pdag_to_dag_array(A) is None:
        return False
    return np.array_equal(meek_orient_array(A) != 0, A != 0)


def _as_graph(graph, what: str) -> _Graph:
    """The graph as a :class:`_Graph`.

    A cyclic graph, a PDAG that is neither a CPDAG nor maximally oriented, and a PAG with
    selection edges are refused.
    """
    if is_marked(graph):
        kind = graph.graph["kind"]
        M, nodes = endpoint_matrix(graph)
        tails = (M == _TAIL) & (M.T != _ARROW)
        if tails.any():
            i, j = np.argwhere(tails)[0]
            raise ValueError(
                f"{what}: the {kind.upper()} has an edge with a tail at {nodes[j]} and no "
                f"arrowhead at {nodes[i]} (a selection edge); adjustment under selection "
                "bias is not built."
            )
        return _Graph(M, nodes, kind)
    A, nodes = as_adjacency(graph)
    A = (A != 0).astype(np.int8)
    both = (A != 0) & (A.T != 0)
    kind = "dag"
    if both.any():
        if not is_cpdag(A) and _is_mpdag(A):
            kind = "mpdag"
        elif not is_cpdag(A):
            i, j = np.argwhere(both)[0]
            raise ValueError(
                f"{what} needs a DAG, a CPDAG, an MPDAG or a PAG; the graph has undirected "
                f"edges ({nodes[i]} - {nodes[j]} and {int(both.sum() // 2) - 1} more) but is "
                "neither the CPDAG of a DAG nor maximally oriented (Meek's rules orient more "
                "of it, or it has no consistent DAG extension). skbn.graph.meek_orient "
                "closes a PDAG under the rules; skbn.graph.to_cpdag gives the CPDAG of its "
                "extension."
            )
        else:
            kind = "cpdag"
    M = np.where(both, _CIRCLE, np.where(A != 0, _ARROW, np.where(A.T != 0, _TAIL, _NONE)))
    G = _Graph(M.astype(np.int8), nodes, kind)
    if kind == "dag" and not nx.is_directed_acyclic_graph(G.dag()):
        cycle = " -> ".join(str(u) for u, _ in nx.find_cycle(G.dag()))
        raise ValueError(f"{what} needs a DAG; the graph has a directed cycle ({cycle}).")
    return G


def _node_set(G: _Graph, nodes, name: str) -> set:
    """``nodes`` (a name or an iterable of names) as a set, each checked against the graph."""
    if isinstance(nodes, str) or not isinstance(nodes, Iterable):
        nodes = [nodes]
    found = set(nodes)
    missing = sorted(map(str, found - set(G.nodes)))
    if missing:
        raise ValueError(f"{name}: {missing} not in the graph's nodes.")
    return found


def _check(graph, treatment, outcome, what: str):
    G = _as_graph(graph, what)
    X = _node_set(G, treatment, "treatment")
    Y = _node_set(G, outcome, "outcome")
    if not X or not Y:
        raise ValueError("treatment and outcome need at least one node each.")
    if X & Y:
        raise ValueError(f"treatment and outcome share {sorted(map(str, X & Y))}.")
    return G, X, Y


def _proper_causal_nodes(G: _Graph, X: set, Y: set) -> set:
    # the nodes reached from X along possibly directed paths that never come back to X,
    # which reach Y along possibly directed paths that avoid X: each lies on a proper
    # possibly causal path (or is a possible descendant of a node that does, which leaves
    # the forbidden set and the first edges of those paths unchanged)
    if G.kind == "mpdag":
        # per treatment, the paths from its first steps (see _first_steps) that hold no
        # parent of it
        found = set()
        for x in X:
            avoid = X | G.parents[x]
            firsts = _first_steps(G, X, Y, x)
            found |= G.reach(firsts, forward=True, avoid=avoid) & G.reach(
                Y - avoid, forward=False, avoid=avoid
            )
        return found
    below = G.reach(X, forward=True, avoid=X) - X
    above = G.reach(Y, forward=False, avoid=X)
    return below & above


def _first_steps(G: _Graph, X: set, Y: set, x) -> set:
    """The nodes ``v`` whose edge from ``x`` starts a proper possibly causal path to Y.

    The rest of such a path reaches Y without entering X and, in an MPDAG, without a
    parent of ``x`` (an arc from a later node back into ``x`` would make the path
    non-causal there).
    """
    avoid = X | G.parents[x] if G.kind == "mpdag" else X
    above = G.reach(Y - avoid, forward=False, avoid=avoid)
    return (G.forward[x] - X) & above


def _not_amenable(G: _Graph, X: set, Y: set):
    """An edge ``(x, v)`` that starts a proper possibly causal path and is no visible arc.

    None when there is none (Perkovic et al.'s amenability: a DAG always is, a CPDAG when
    no such path starts with an undirected edge).
    """
    for x in sorted(X, key=str):
        for v in sorted(_first_steps(G, X, Y, x), key=str):
            if not (G.directed(x, v) and G.visible(x, v)):
                return x, v
    return None


def _forbidden(G: _Graph, X: set, causal: set) -> set:
    return set(X) | G.reach(causal, forward=True)


def _open(G: _Graph, came, v, w, prev, Z: set) -> bool:
    """Whether a walk at ``v`` may go on to ``w`` through ``v`` of definite status, open.

    The walk reached ``v`` from ``prev`` with the mark ``came`` at ``v`` (None at its
    start).
    """
    leave = G.mark[w][v]
    if came is None:
        return True
    if came == _ARROW and leave == _ARROW:  # a collider, open when conditioned on
        return v in Z
    if v in Z:
        return False
    if came == _TAIL or leave == _TAIL:  # a definite non-collider
        return True
    if came == _CIRCLE and leave == _CIRCLE:  # *-o v o-*: definite if not shielded
        return w != prev and not G.adjacent(prev, w)
    return False  # an arrowhead and a circle at v: not of definite status


def _connected(G: _Graph, X: set, Y: set, Z: set, causal: set) -> bool:
    """Whether a walk from X to Y is open given Z in the proper back-door graph.

    A search over (node, the mark at it where the walk arrived, the node before) that
    follows Perkovic et al.'s definite-status paths (on a DAG, d-connection; on a MAG,
    m-connection): a collider must be in Z (a walk reaches a conditioned descendant and
    comes back), a definite non-collider outside it, a node with an arrowhead and a circle
    stops the walk, and the first arcs of the proper causal paths (``x -> c`` with ``c`` a
    causal node) are left out.
    """
    seen = {(x, None, None) for x in X}
    stack = list(seen)
    while stack:
        v, came, prev = stack.pop()
        if v in Y:
            return True
        for w in G.mark[v]:
            if v in X and w in causal and G.directed(v, w):
                continue
            if _open(G, came, v, w, prev, Z):
                state = (w, G.mark[v][w], v)
                if state not in seen:
                    seen.add(state)
                    stack.append(state)
    return False


def _valid(G: _Graph, X: set, Y: set, Z: set, causal: set, forbidden: set) -> bool:
    return not (Z & forbidden) and not (Z & Y) and not _connected(G, X, Y, Z, causal)


def _back_door_graph(G: _Graph, X: set, causal: set) -> nx.DiGraph:
    pbd = G.dag()
    pbd.remove_edges_from([(x, w) for x in X for w in causal if G.directed(x, w)])
    return pbd


def proper_causal_nodes(graph, treatment, outcome) -> set:
    """The nodes other than the treatments on proper causal paths from them to the outcomes.

    A causal path is directed from a treatment to an outcome; it is proper when only its
    first node is a treatment. In a CPDAG, MPDAG, MAG or PAG the paths are the *possibly*
    causal ones, those with no arrowhead pointing back towards the treatment (an undirected
    edge or a circle may point either way; in an MPDAG, none between any two of its nodes).
    In a CPDAG or MPDAG the set may also hold possible descendants of those nodes that
    reach the outcomes only through them (which changes neither the forbidden nodes nor
    the adjustment sets).

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG, a CPDAG or MPDAG (an undirected edge is a pair of opposite arcs), or a
        MAG or PAG (``graph["kind"]`` ``"mag"`` or ``"pag"``).
    treatment, outcome : str or iterable of str
        Disjoint sets of nodes (a single name is a set of one).

    Returns
    -------
    set

    Examples
    --------
    >>> import networkx as nx
    >>> dag = nx.DiGraph([("z", "x"), ("z", "y"), ("x", "m"), ("m", "y")])
    >>> sorted(proper_causal_nodes(dag, "x", "y"))
    ['m', 'y']
    """
    G, X, Y = _check(graph, treatment, outcome, "proper_causal_nodes")
    return _proper_causal_nodes(G, X, Y)


def forbidden_nodes(graph, treatment, outcome) -> set:
    """The nodes no adjustment set may hold (Perkovic et al.'s ``forb``).

    The treatments, and every descendant of a node on a proper causal path from them to the
    outcomes (that node included): conditioning on one would block part of the effect or
    open a path that carries none of it. In a CPDAG, MPDAG, MAG or PAG: every possible
    descendant of a node on a proper possibly causal path.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG, CPDAG, MPDAG, MAG or PAG.
    treatment, outcome : str or iterable of str

    Returns
    -------
    set

    Examples
    --------
    >>> import networkx as nx
    >>> dag = nx.DiGraph([("z", "x"), ("z", "y"), ("x", "m"), ("m", "y"), ("y", "w")])
    >>> sorted(forbidden_nodes(dag, "x", "y"))
    ['m', 'w', 'x', 'y']
    """
    G, X, Y = _check(graph, treatment, outcome, "forbidden_nodes")
    return _forbidden(G, X, _proper_causal_nodes(G, X, Y))


def is_amenable(graph, treatment, outcome) -> bool:
    """Whether the effect of ``treatment`` on ``outcome`` can be had by adjustment at all.

    A CPDAG is *amenable* (Perkovic et al. 2018) when every proper possibly causal path
    from the treatments to the outcomes starts with an arc out of a treatment. When one
    starts with an undirected edge ``x - v``, the DAGs of the class disagree on whether
    ``v`` is a cause or an effect of ``x``, the effect differs between them, and no set
    adjusts for it in all of them (:func:`skbn.causal.ida` lists the possible effects).
    In a MAG or PAG the first arc must also be *visible* (Zhang 2008): some node not
    adjacent to ``v`` has an edge into ``x``, or a collider path into ``x`` through
    parents of ``v``; otherwise a hidden common cause of ``x`` and ``v`` cannot be ruled
    out. A DAG is always amenable. An MPDAG (a CPDAG oriented further by background
    knowledge, such as tiers or required edges, and closed under Meek's rules) is amenable
    under the same condition, its possibly causal paths having no arc back between any
    two of their nodes; knowledge can make amenable what its CPDAG is not.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG, CPDAG, MPDAG, MAG or PAG.
    treatment, outcome : str or iterable of str

    Returns
    -------
    bool

    Examples
    --------
    In ``a - x -> y`` the edge at ``x`` does not lead to ``y``; in ``x - y`` it does:

    >>> import networkx as nx
    >>> is_amenable(nx.DiGraph([("a", "x"), ("x", "a"), ("x", "y"), ("b", "y")]), "x", "y")
    True
    >>> is_amenable(nx.DiGraph([("x", "y"), ("y", "x")]), "x", "y")
    False
    """
    G, X, Y = _check(graph, treatment, outcome, "is_amenable")
    return _not_amenable(G, X, Y) is None


def is_adjustment_set(graph, treatment, outcome, adjustment) -> bool:
    """Whether ``adjustment`` is an adjustment set for the effect of treatment on outcome.

    On a DAG, the adjustment criterion; on a CPDAG, MPDAG, MAG or PAG, Perkovic et al.'s
    generalised adjustment criterion (the graph amenable, no forbidden node in the set, and
    every proper definite-status non-causal path blocked). Both are complete: a set passes
    exactly when the adjustment formula gives the causal effect in every model of the DAG,
    or of every DAG of the class (with hidden variables, for a MAG or PAG).

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG, a CPDAG or MPDAG (an undirected edge is a pair of opposite arcs), or a
        MAG or PAG, e.g. a learner's ``graph_``. A PAG with selection edges is refused.
    treatment, outcome : str or iterable of str
        Disjoint sets of nodes.
    adjustment : iterable of str
        The candidate set, disjoint from both.

    Returns
    -------
    bool
        False for every set when the CPDAG is not amenable (:func:`is_amenable`).

    References
    ----------
    I. Shpitser, T. VanderWeele and J. M. Robins, "On the validity of covariate adjustment
    for estimating causal effects", UAI 2010. E. Perkovic, J. Textor, M. Kalisch and
    M. H. Maathuis, "Complete graphical characterization and construction of adjustment sets
    in Markov equivalence classes of ancestral graphs", JMLR 18, 2018.

    Examples
    --------
    A confounder ``z`` and a mediator ``m``:

    >>> import networkx as nx
    >>> dag = nx.DiGraph([("z", "x"), ("z", "y"), ("x", "m"), ("m", "y")])
    >>> is_adjustment_set(dag, "x", "y", ["z"])
    True
    >>> is_adjustment_set(dag, "x", "y", [])  # the back-door path x <- z -> y stays open
    False
    >>> is_adjustment_set(dag, "x", "y", ["z", "m"])  # m carries the effect
    False

    Its CPDAG leaves ``z - x`` undirected, and ``z -> y`` shows that ``z`` may be a cause
    of ``x`` or an effect of it: no set adjusts in every DAG of the class.

    >>> from skbn.graph import dag_to_cpdag
    >>> is_adjustment_set(dag_to_cpdag(dag), "x", "y", ["z"])
    False
    """
    G, X, Y = _check(graph, treatment, outcome, "is_adjustment_set")
    Z = _node_set(G, adjustment if adjustment is not None else (), "adjustment")
    if Z & (X | Y):
        raise ValueError(
            f"adjustment holds {sorted(map(str, Z & (X | Y)))}, a treatment or an outcome."
        )
    if _not_amenable(G, X, Y) is not None:
        return False
    causal = _proper_causal_nodes(G, X, Y)
    return _valid(G, X, Y, Z, causal, _forbidden(G, X, causal))


def _minimal_subset(valid, found: set) -> set:
    """Drop nodes of a valid set, one at a time in name order, while it stays valid."""
    found = set(found)
    changed = True
    while changed:
        changed = False
        for v in sorted(found, key=str):
            if valid(found - {v}):
                found.discard(v)
                changed = True
    return found


def adjustment_set(graph, treatment, outcome, kind: str = "optimal") -> list | None:
    """An adjustment set for the effect of ``treatment`` on ``outcome`` in a DAG, CPDAG or PAG.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG, a CPDAG or MPDAG (an undirected edge is a pair of opposite arcs), or a
        MAG or PAG, e.g. a learner's ``graph_``. A PAG with selection edges is refused.
    treatment, outcome : str or iterable of str
        Disjoint sets of nodes.
    kind : {"optimal", "minimal", "parents", "canonical"}, default="optimal"
        Which set:

        - ``"optimal"``: Henckel, Perkovic and Maathuis's O-set, the parents of the proper
          causal nodes that are not forbidden. Among all adjustment sets it gives the
          regression estimator of a linear effect the smallest asymptotic variance (on a
          DAG and on an amenable CPDAG; refused on a MAG or PAG, which may have no such
          set). When no outcome is a (possible) descendant of a treatment (the effect is
          zero) the minimal set is returned instead.
        - ``"minimal"``: a set none of whose proper subsets is an adjustment set (on a DAG,
          van der Zander et al.'s minimal separator in the proper back-door graph; on the
          other kinds, the canonical set less every node it can do without, in name order).
        - ``"parents"``: the treatments' parents (by arcs), the classic choice; None when
          they are not an adjustment set (an outcome among them, several treatments, or an
          undirected edge at a treatment that matters).
        - ``"canonical"``: the (possible) ancestors of the treatments and outcomes that are
          not forbidden, an adjustment set whenever one exists.

    Returns
    -------
    list of str or None
        The set, sorted; None when no adjustment set (of that kind) exists, which includes
        every CPDAG that is not amenable (:func:`is_amenable`).

    References
    ----------
    L. Henckel, E. Perkovic and M. H. Maathuis, "Graphical criteria for efficient total
    effect estimation via adjustment in causal linear models", JRSS B 84, 2022.
    E. Perkovic, J. Textor, M. Kalisch and M. H. Maathuis, "Complete graphical
    characterization and construction of adjustment sets in Markov equivalence classes of
    ancestral graphs", JMLR 18, 2018.
    B. van der Zander, M. Liskiewicz and J. Textor, "Separators and adjustment sets in
    causal graphs: complete criteria and an algorithmic framework", Artificial Intelligence
    270, 2019.

    Examples
    --------
    ``a`` confounds ``x`` and ``y``; ``b`` only causes ``y``:

    >>> import networkx as nx
    >>> dag = nx.DiGraph([("a", "x"), ("a", "y"), ("x", "y"), ("b", "y")])
    >>> adjustment_set(dag, "x", "y")  # b sharpens the estimate
    ['a', 'b']
    >>> adjustment_set(dag, "x", "y", kind="minimal")
    ['a']

    The collider ``x -> y <- b`` fixes both arcs into ``y`` in the CPDAG, and ``a - x``
    stays undirected; adjusting for ``a`` is right whichever way it points:

    >>> from skbn.graph import dag_to_cpdag
    >>> cpdag = dag_to_cpdag(nx.DiGraph([("a", "x"), ("x", "y"), ("b", "y")]))
    >>> adjustment_set(cpdag, "x", "y", kind="canonical")
    ['a', 'b']
    >>> adjustment_set(cpdag, "x", "y", kind="minimal")
    []

    The CPDAG of ``a -> b -> x -> y <- a`` leaves ``a - b - x`` undirected: ``b`` may be an
    effect of ``x``, and no set adjusts in every DAG of the class. Knowing ``b -> x`` (the
    MPDAG) settles it:

    >>> cpdag = dag_to_cpdag(nx.DiGraph([("a", "b"), ("b", "x"), ("x", "y"), ("a", "y")]))
    >>> adjustment_set(cpdag, "x", "y") is None
    True
    >>> mpdag = cpdag.copy()
    >>> mpdag.remove_edge("x", "b")
    >>> adjustment_set(mpdag, "x", "y")
    ['a']
    """
    if kind not in _KINDS:
        raise ValueError(f"kind must be one of {list(_KINDS)}; got {kind!r}.")
    G, X, Y = _check(graph, treatment, outcome, "adjustment_set")
    if kind == "optimal" and G.kind in ("pag", "mag"):
        raise ValueError(
            f"kind='optimal' (the O-set) is defined for DAGs and CPDAGs; a "
            f"{G.kind.upper()} may have no adjustment set of smallest variance (Witte et al. "
            "2020). Ask for kind='canonical' or kind='minimal'."
        )
    if _not_amenable(G, X, Y) is not None:
        return None
    causal = _proper_causal_nodes(G, X, Y)
    forbidden = _forbidden(G, X, causal)
    allowed = set(G) - forbidden - X - Y

    def valid(Z: set) -> bool:
        return _valid(G, X, Y, Z, causal, forbidden)

    ancestors = G.reach(X | Y, forward=False) & allowed
    if kind == "optimal" and causal:
        found = set().union(*(G.parents[w] for w in causal)) - forbidden
    elif kind in ("optimal", "minimal") and G.kind == "dag":
        pbd = _back_door_graph(G, X, causal)
        found = nx.find_minimal_d_separator(pbd, X, Y, restricted=allowed)
    elif kind in ("optimal", "minimal"):
        found = _minimal_subset(valid, ancestors) if valid(ancestors) else None
    elif kind == "parents":
        found = set().union(*(G.parents[x] for x in X)) - X
    else:
        found = ancestors
    if found is not None and not valid(found):
        found = None
    return None if found is None else sorted(found)
