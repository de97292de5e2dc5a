# SPDX-License-Identifier: BSD-3-Clause
"""Background knowledge: the edge constraints every structure learner shares.

Four kinds of knowledge, one parameter each on every learner:

``allowed_edges``
    The only arcs the search may use (e.g. the poset of a bootstrap learner, a cluster block).
``forbidden_edges``
    Arcs the search may not use; forbid both directions to keep a pair non-adjacent.
``required_edges``
    Arcs the result must contain.
``tiers``
    An order of groups of variables (e.g. time points, or "demographics before exposures
    before outcomes"): an arc may never point from a later tier to an earlier one, and
    optionally not within a tier. Variables in no tier are not constrained by the tiers.

Arcs are ``(parent, child)`` pairs of column names, a networkx DiGraph over (some of) the
columns, or a ``(p, p)`` 0/1 array in column order. :class:`EdgeConstraints` merges the four
into one matrix of allowed arcs and one of required arcs, checks them against each other and
the data's columns before any work, and is the only thing the learners read. A learner that
cannot honour a kind refuses it with an error that names the parameter.

Examples
--------
>>> from skbn.constraints import EdgeConstraints, Tiers
>>> c = EdgeConstraints.from_parameters(
...     ["age", "smoke", "cancer"],
...     tiers=Tiers([["age"], ["smoke"], ["cancer"]]),
...     required_edges=[("smoke", "cancer")],
... )
>>> c.arcs(c.forbidden)
[('smoke', 'age'), ('cancer', 'age'), ('cancer', 'smoke')]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import networkx as nx
import numpy as np

from skbn.graph._array import topological_sort_array
from skbn.utils._param_validation import HasMethods

__all__ = ["CONSTRAINT_KINDS", "CONSTRAINT_PARAMETERS", "EdgeConstraints", "Tiers"]

#: The constraint kinds and the learner parameter of each.
CONSTRAINT_KINDS = {
    "allowed": "allowed_edges",
    "forbidden": "forbidden_edges",
    "required": "required_edges",
    "tiers": "tiers",
}

_EDGES = ["array-like", HasMethods(["edges"]), None]

#: ``_parameter_constraints`` entries of the four constraint parameters.
CONSTRAINT_PARAMETERS = {
    "allowed_edges": _EDGES,
    "forbidden_edges": _EDGES,
    "required_edges": _EDGES,
    "tiers": ["array-like", dict, HasMethods(["tier_of"]), None],
}


class Tiers:
    """A background-knowledge order of variables: no arc points from a later tier back.

    Parameters
    ----------
    tiers : sequence of sequence of str
        Groups of column names, earliest first. A variable may appear in one tier at most;
        variables in none are unconstrained.
    forbid_within : bool or collection of int, default=False
        Also forbid arcs between two variables of the same tier: in every tier (True) or in
        the tiers with these (0-based) indices.

    Examples
    --------
    >>> t = Tiers([["sex", "age"], ["smoking"], ["cancer"]], forbid_within=[0])
    >>> t.tier_of("smoking"), t.arc_allowed("cancer", "smoking"), t.arc_allowed("age", "sex")
    (1, False, False)
    """

    def __init__(
        self, tiers: Sequence[Sequence[str]], *, forbid_within: bool | Collection[int] = False
    ) -> None:
        self.tiers = [list(t) for t in tiers]
        self.forbid_within = forbid_within
        seen: dict[str, int] = {}
        for k, group in enumerate(self.tiers):
            if isinstance(group, str) or not isinstance(group, list):
                raise ValueError(f"tiers must be a list of lists of names; tier {k} is {group!r}.")
            for name in group:
                if name in seen:
                    raise ValueError(
                        f"{name!r} is in tier {seen[name]} and in tier {k}; a variable belongs "
                        "to one tier at most."
                    )
                seen[name] = k
        self._tier = seen
        n = len(self.tiers)
        if isinstance(forbid_within, bool):
            self._within = set(range(n)) if forbid_within else set()
        else:
            self._within = {int(k) for k in forbid_within}
            bad = sorted(k for k in self._within if not 0 <= k < n)
            if bad:
                raise ValueError(f"forbid_within names tiers {bad}, but there are {n} tiers.")

    @classmethod
    def coerce(cls, value) -> Tiers:
        """Make a Tiers from a Tiers, a list of groups or a ``{name: tier index}`` dict.

        Parameters
        ----------
        value : Tiers, list of lists of str or dict
            The tiers.

        Returns
        -------
        Tiers
        """
        if isinstance(value, Tiers):
            return value
        if isinstance(value, Mapping):
            n = max(int(k) for k in value.values()) + 1 if value else 0
            groups: list[list] = [[] for _ in range(n)]
            for name, k in value.items():
                if int(k) < 0:
                    raise ValueError(f"Tier indices start at 0; {name!r} has {k}.")
                groups[int(k)].append(name)
            return cls(groups)
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise ValueError(
                "tiers must be a list of lists of column names (earliest tier first), a "
                f"{{name: tier index}} dict or a skbn.constraints.Tiers; got {value!r}."
            )
        return cls(value)

    def tier_of(self, name) -> int | None:
        """Return the tier index of ``name``, or None if it is in no tier.

        Parameters
        ----------
        name : str
            A variable.

        Returns
        -------
        int or None
        """
        return self._tier.get(name)

    def arc_allowed(self, parent, child) -> bool:
        """Tell whether the tiers allow the arc ``parent -> child``.

        Parameters
        ----------
        parent, child : str
            Variables.

        Returns
        -------
        bool
        """
        a, b = self.tier_of(parent), self.tier_of(child)
        if a is None or b is None:
            return True
        return a < b or (a == b and a not in self._within)

    def __repr__(self) -> str:
        extra = "" if self.forbid_within is False else f", forbid_within={self.forbid_within!r}"
        return f"Tiers({self.tiers!r}{extra})"

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Tiers) and self.tiers == other.tiers and self._within == other._within
        )

    __hash__ = None  # mutable lists inside


def _arc_matrix(edges, names, what: str) -> np.ndarray | None:
    """Boolean ``(p, p)`` matrix of the arcs named by ``edges`` (None stays None)."""
    if edges is None:
        return None
    p = len(names)
    index = {name: j for j, name in enumerate(names)}
    if isinstance(edges, np.ndarray):
        M = np.asarray(edges) != 0
        if M.shape != (p, p):
            raise ValueError(
                f"{what} as an array must have shape ({p}, {p}) (one row and column per "
                f"variable, in column order), got {M.shape}."
            )
        np.fill_diagonal(M, False)
        return M
    pairs = list(edges.edges()) if isinstance(edges, nx.Graph) else list(edges)
    M = np.zeros((p, p), dtype=bool)
    unknown = []
    for pair in pairs:
        try:
            u, v = pair
        except (TypeError, ValueError):
            raise ValueError(
                f"{what} must hold (parent, child) pairs of column names, got {pair!r}."
            ) from None
        if u not in index or v not in index:
            unknown.append((u, v))
            continue
        if u == v:
            raise ValueError(f"{what} contains the self-loop ({u!r}, {v!r}).")
        M[index[u], index[v]] = True
    if unknown:
        raise ValueError(
            f"{what} names variables that are not columns of X: {unknown[:5]}. "
            "Use the column names of the data (x0, x1, ... for arrays)."
        )
    return M


def _is_arc_list(value) -> bool:
    """Whether ``value`` is a list of (parent, child) pairs of names (not an array's rows)."""
    if not isinstance(value, (list, tuple)) or not value:
        return False
    numbers = (int, float, np.number, bool)
    # an adjacency array's rows hold numbers; unknown names are reported by _arc_matrix
    return all(
        isinstance(pair, (list, tuple))
        and len(pair) == 2
        and not any(isinstance(x, numbers) for x in pair)
        for pair in value
    )


def start_graph_matrix(
    start_graph, names, required: np.ndarray | None = None, positions: np.ndarray | None = None
) -> np.ndarray:
    """Boolean ``(p, p)`` arc matrix of a learner's ``start_graph``, with the required arcs.

    ``start_graph`` is a networkx graph over the columns, an adjacency array in the data's
    column order or a list of (parent, child) name pairs; it must be a DAG once the required
    arcs are added. ``positions`` gives, for each of ``names``, its column in the data
    (a search run in name order): an adjacency array is taken in that order.
    """
    names = list(names)
    if _is_arc_list(start_graph):
        A = _arc_matrix(start_graph, names, "start_graph")
    else:
        from skbn.graph._convert import as_adjacency

        A, _ = as_adjacency(start_graph, names if hasattr(start_graph, "nodes") else None)
        if A.shape[0] == len(names) and positions is not None and not hasattr(start_graph, "nodes"):
            A = A[np.ix_(positions, positions)]
    if A.shape[0] != len(names):
        raise ValueError(f"start_graph has {A.shape[0]} nodes; X has {len(names)} columns.")
    A = A.astype(bool)
    if required is not None:
        A = A | required
    if topological_sort_array(A.astype(np.int8)) is None:
        raise ValueError("start_graph (with required_edges) is not a DAG.")
    return A


class EdgeConstraints:
    """The background knowledge of one fit, checked and merged into two arc matrices.

    Build it with :meth:`from_parameters`. ``allowed[i, j]`` says the search may use the arc
    ``i -> j`` (allowed_edges, minus forbidden_edges, minus what the tiers rule out);
    ``required[i, j]`` that the result must contain it. ``given`` holds the kinds the user
    set.

    Parameters
    ----------
    names : tuple of str
        The columns, in order.
    allowed : ndarray of bool, shape (p, p), or None
        Arcs the search may use; None for every arc.
    required : ndarray of bool, shape (p, p), or None
        Arcs the result must contain; None for none.
    given : frozenset of str
        The kinds of knowledge the user set ("allowed", "forbidden", "required", "tiers").

    Examples
    --------
    >>> c = EdgeConstraints.from_parameters(["a", "b"], forbidden_edges=[("b", "a")])
    >>> c.arcs(c.allowed), c.given
    ([('a', 'b')], frozenset({'forbidden'}))
    """

    def __init__(
        self,
        names: tuple,
        allowed: np.ndarray | None,
        required: np.ndarray | None,
        given: frozenset,
    ) -> None:
        self.names = tuple(names)
        self.given = frozenset(given)
        # None stands for "no knowledge of this kind": the matrices are only formed when a
        # learner asks, so a fit over 100,000 variables without knowledge holds none.
        self._allowed = allowed
        self._required = required

    def _full(self, value: bool) -> np.ndarray:
        p = len(self.names)
        M = np.full((p, p), value, dtype=bool)
        np.fill_diagonal(M, False)
        M.setflags(write=False)
        return M

    @property
    def allowed(self) -> np.ndarray:
        """Arcs the search may use, ``(p, p)`` bool (formed on first use when unconstrained)."""
        if self._allowed is None:
            self._allowed = self._full(True)
        return self._allowed

    @property
    def required(self) -> np.ndarray:
        """Arcs the result must contain, ``(p, p)`` bool."""
        if self._required is None:
            self._required = self._full(False)
        return self._required

    def take(self, positions: np.ndarray) -> EdgeConstraints:
        """Return the same knowledge on the columns ``positions`` (a permutation), in order.

        Parameters
        ----------
        positions : ndarray of int
            For each column of the result, its column here.

        Returns
        -------
        EdgeConstraints
        """
        cut = lambda M: None if M is None else M[np.ix_(positions, positions)]  # noqa: E731
        names = tuple(self.names[j] for j in positions)
        return EdgeConstraints(names, cut(self._allowed), cut(self._required), self.given)

    def __eq__(self, other) -> bool:
        if not isinstance(other, EdgeConstraints):
            return NotImplemented
        return (
            self.names == other.names
            and self.given == other.given
            and np.array_equal(self.allowed, other.allowed)
            and np.array_equal(self.required, other.required)
        )

    __hash__ = None

    def __repr__(self) -> str:
        return f"EdgeConstraints(p={len(self.names)}, given={sorted(self.given)})"

    @classmethod
    def from_parameters(
        cls,
        names: Sequence[str],
        *,
        allowed_edges=None,
        forbidden_edges=None,
        required_edges=None,
        tiers=None,
        discrete=None,
    ) -> EdgeConstraints:
        """Check the four kinds of knowledge against the columns and each other.

        Parameters
        ----------
        names : sequence of str
            The columns of the data, in order.
        allowed_edges, forbidden_edges, required_edges : iterable of (u, v), DiGraph or array
            Arcs the search may use (all if None), may not use, and must keep.
        tiers : list of lists of str, dict or Tiers, optional
            A background-knowledge order (see :class:`Tiers`).
        discrete : array-like of bool, optional
            Which columns are discrete, for data that mixes both kinds: a conditional-Gaussian
            network has no arc from a continuous column into a discrete one, so those arcs
            are ruled out (a required one is an error naming it).

        Returns
        -------
        EdgeConstraints

        Raises
        ------
        ValueError
            For names that are not columns, self-loops, arrays of the wrong shape, a
            variable in two tiers, required arcs that another kind rules out (the message
            says which) or that form a cycle.
        """
        names = tuple(names)
        p = len(names)
        if discrete is not None:
            discrete = np.asarray(discrete, dtype=bool)
        # only data with both kinds of columns rules arcs out by itself
        mixed = discrete is not None and bool(discrete.any()) and not bool(discrete.all())
        knowledge = (allowed_edges, forbidden_edges, required_edges, tiers)
        if not mixed and all(value is None for value in knowledge):
            return cls(names, None, None, frozenset())  # no (p, p) matrix: p may be 10**6
        if mixed:
            by_model = ~discrete[:, None] & discrete[None, :]
        else:
            by_model = np.zeros((p, p), dtype=bool)
        given = frozenset(
            kind
            for kind, value in (
                ("allowed", allowed_edges),
                ("forbidden", forbidden_edges),
                ("required", required_edges),
                ("tiers", tiers),
            )
            if value is not None
        )
        allowed = _arc_matrix(allowed_edges, names, "allowed_edges")
        forbidden = _arc_matrix(forbidden_edges, names, "forbidden_edges")
        required = _arc_matrix(required_edges, names, "required_edges")
        by_allowed = np.ones((p, p), dtype=bool) if allowed is None else allowed.copy()
        np.fill_diagonal(by_allowed, False)
        by_forbidden = np.zeros((p, p), dtype=bool) if forbidden is None else forbidden
        by_tiers = np.zeros((p, p), dtype=bool)
        if tiers is not None:
            tiers = Tiers.coerce(tiers)
            unknown = [n for group in tiers.tiers for n in group if n not in names]
            if unknown:
                raise ValueError(
                    f"tiers name variables that are not columns of X: {unknown[:5]}. Use the "
                    "column names of the data (x0, x1, ... for arrays)."
                )
            rank = np.array([-1 if tiers.tier_of(n) is None else tiers.tier_of(n) for n in names])
            placed = rank >= 0
            both = placed[:, None] & placed[None, :]
            by_tiers = both & (rank[:, None] > rank[None, :])
            within = np.array([k in tiers._within for k in rank]) & placed
            by_tiers |= both & (rank[:, None] == rank[None, :]) & within[:, None]
            np.fill_diagonal(by_tiers, False)
        merged = by_allowed & ~by_forbidden & ~by_tiers & ~by_model
        required = np.zeros((p, p), dtype=bool) if required is None else required
        clash = required & ~merged
        if clash.any():
            lines = []
            for i, j in zip(*np.nonzero(clash)):
                why = []
                if not by_allowed[i, j]:
                    why.append("not in allowed_edges")
                if by_forbidden[i, j]:
                    why.append("in forbidden_edges")
                if by_tiers[i, j]:
                    why.append("ruled out by tiers")
                if by_model[i, j]:
                    why.append(
                        "an arc from a continuous into a discrete column, which a "
                        "conditional-Gaussian network cannot hold"
                    )
                lines.append(f"({names[i]!r}, {names[j]!r}) is {' and '.join(why)}")
            raise ValueError(
                "required_edges conflict with the other constraints: "
                + "; ".join(lines[:5])
                + ". Drop the arc from required_edges or relax the other constraint."
            )
        if topological_sort_array(required.astype(np.int8)) is None:
            raise ValueError(
                "required_edges contain a directed cycle; no DAG can include them all."
            )
        merged.setflags(write=False)
        required.setflags(write=False)
        return cls(names, merged, required, given)

    @property
    def forbidden(self) -> np.ndarray:
        """Arcs the search may not use (off the diagonal)."""
        out = ~self.allowed
        np.fill_diagonal(out, False)
        return out

    @property
    def allowed_pairs(self) -> np.ndarray:
        """Pairs that may be adjacent: one of their two arcs is allowed (symmetric)."""
        return self.allowed | self.allowed.T

    @property
    def is_empty(self) -> bool:
        """True when no arc is ruled out and none is required."""
        if self._allowed is None and self._required is None:
            return True
        return not self.forbidden.any() and not self.required.any()

    def arcs(self, matrix: np.ndarray) -> list[tuple[str, str]]:
        """List the arcs of a boolean matrix as (parent, child) name pairs, row-major.

        Parameters
        ----------
        matrix : ndarray of bool, shape (p, p)
            For example ``allowed``, ``required`` or ``forbidden``.

        Returns
        -------
        list of tuple
        """
        return [(self.names[i], self.names[j]) for i, j in zip(*np.nonzero(matrix))]
