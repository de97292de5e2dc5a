# SPDX-License-Identifier: BSD-3-Clause
"""Conditional-Gaussian networks: discrete nodes with CPTs, continuous nodes below them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.utils import check_random_state

from skbn.data._schema import DataSchema
from skbn.graph._array import topological_sort_array
from skbn.graph._learned import LearnedGraph
from skbn.network._discrete import DiscreteBayesianNetwork, _check_n_samples, _node_columns

__all__ = ["ConditionalGaussianNetwork"]


class ConditionalGaussianNetwork:
    """A conditional-Gaussian network: discrete nodes with CPTs, continuous nodes below them.

    Lauritzen and Wermuth's mixed model, as bnlearn's ``conditional Gaussian`` networks: no
    discrete node has a continuous parent; a continuous node ``v`` with discrete parents
    ``d`` and continuous parents ``c`` is normal given them, with one linear regression per
    configuration of ``d``::

        v | d, c  ~  N(intercept[d] + coefficients[d] @ c, variance[d])

    Parameters
    ----------
    discrete_part : DiscreteBayesianNetwork
        The discrete nodes with their CPTs (over discrete parents only).
    parents : mapping of str to sequence of str
        The parents of each continuous node (discrete and continuous, in any mix). The
        mapping's keys are the continuous nodes, in a topological order or not.
    intercepts : mapping of str to array-like
        ``intercepts[v]`` has one axis per discrete parent of ``v`` (in the order they appear
        in ``parents[v]``), of the parent's arity: shape ``(r_d1, ..., r_dk)``, a scalar
        without discrete parents.
    coefficients : mapping of str to array-like
        ``coefficients[v]`` has shape ``(r_d1, ..., r_dk, m)``: per configuration, the weights
        of the ``m`` continuous parents of ``v``, in the order of ``parents[v]``.
    variances : mapping of str to array-like
        ``variances[v]`` has shape ``(r_d1, ..., r_dk)``; every entry positive.
    nodes : sequence of str, optional
        The node order (of ``sample``'s columns); by default the discrete nodes, then the
        continuous ones in the order of ``parents``.
    name : str, optional
        By default the discrete part's name.
    held : mapping of str to float, optional
        Continuous nodes held at a value by an intervention (``do(v = x)``): no parents, no
        children (their value is part of their children's intercepts) and no noise. They
        are not keys of ``parents``; :func:`skbn.inference.intervene` builds them.

    Attributes
    ----------
    nodes : list of str
    continuous : list of str
        The continuous nodes, in a topological order (held nodes included).
    held : dict of str to float
        The held nodes and their values (empty unless the network is intervened on).
    graph : networkx.DiGraph
        The DAG (``graph.graph["kind"] == "dag"``), nodes in ``nodes`` order.

    See Also
    --------
    skbn.datasets.make_conditional_gaussian : A network of this kind from a discrete one.
    skbn.learners.HillClimb : Any structure learner fitted on mixed data has such a
        ``network_``.

    Examples
    --------
    >>> bn = DiscreteBayesianNetwork({"smoker": ["no", "yes"]}, {}, {"smoker": [0.7, 0.3]})
    >>> cg = ConditionalGaussianNetwork(
    ...     bn,
    ...     parents={"tar": ["smoker"], "fev": ["smoker", "tar"]},
    ...     intercepts={"tar": [0.0, 2.0], "fev": [4.0, 3.5]},
    ...     coefficients={"tar": [[], []], "fev": [[-0.2], [-0.4]]},
    ...     variances={"tar": [0.5, 1.0], "fev": [0.3, 0.3]},
    ... )
    >>> cg
    ConditionalGaussianNetwork(n_nodes=3, n_continuous=2, n_arcs=3)
    >>> cg.sample(4, random_state=0).dtypes.map(str).tolist()
    ['category', 'float64', 'float64']
    """

    def __init__(
        self,
        discrete_part: DiscreteBayesianNetwork,
        parents: Mapping[str, Sequence[str]],
        intercepts: Mapping[str, np.ndarray],
        coefficients: Mapping[str, np.ndarray],
        variances: Mapping[str, np.ndarray],
        nodes: Sequence[str] | None = None,
        name: str | None = None,
        held: Mapping[str, float] | None = None,
    ) -> None:
        if not isinstance(discrete_part, DiscreteBayesianNetwork):
            raise TypeError(
                "discrete_part must be a DiscreteBayesianNetwork, got "
                f"{type(discrete_part).__name__}."
            )
        self.discrete_part = discrete_part
        self.name = discrete_part.name if name is None else str(name)
        self.held = _held_values(held, parents, discrete_part)
        given = [str(v) for v in parents]
        clash = [v for v in given if v in discrete_part.states]
        if clash:
            raise ValueError(f"Nodes {clash[:8]} are both discrete and continuous.")
        if len(set(given)) != len(given):
            raise ValueError("The continuous nodes must be unique.")
        default = list(discrete_part.nodes) + given + list(self.held)
        self.nodes = default if nodes is None else [str(v) for v in nodes]
        if sorted(self.nodes) != sorted(default):
            raise ValueError(
                "nodes must list every discrete and continuous node once; expected "
                f"{sorted(default)[:8]}, got {sorted(self.nodes)[:8]}."
            )
        self._discrete_parents: dict[str, tuple[str, ...]] = {}
        self._continuous_parents: dict[str, tuple[str, ...]] = {}
        self._tables: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        for v in given:
            pa = [str(u) for u in parents[v]]
            unknown = [u for u in pa if u not in discrete_part.states and u not in parents]
            held_parents = [u for u in unknown if u in self.held]
            if held_parents:
                raise ValueError(
                    f"Node {v!r} has the held nodes {held_parents[:8]} as parents; a held "
                    "node has no children (add its value times the weight to the child's "
                    "intercepts, as skbn.inference.intervene does)."
                )
            if unknown:
                raise ValueError(f"Node {v!r} has unknown parents {unknown[:8]}.")
            if len(set(pa)) != len(pa) or v in pa:
                raise ValueError(f"Node {v!r} lists a parent twice or itself.")
            disc = tuple(u for u in pa if u in discrete_part.states)
            cont = tuple(u for u in pa if u not in discrete_part.states)
            shape = tuple(discrete_part.arities[u] for u in disc)
            for what, source in (
                ("intercepts", intercepts),
                ("coefficients", coefficients),
                ("variances", variances),
            ):
                if v not in source:
                    raise ValueError(f"No {what} given for the continuous node {v!r}.")
            b0 = np.asarray(intercepts[v], dtype=np.float64)
            beta = np.asarray(coefficients[v], dtype=np.float64).reshape(shape + (len(cont),))
            var = np.asarray(variances[v], dtype=np.float64)
            if b0.shape != shape or var.shape != shape:
                raise ValueError(
                    f"The intercepts and variances of {v!r} have shapes {b0.shape} and "
                    f"{var.shape}; expected {shape} (one axis per discrete parent, in order)."
                )
            if not (np.all(np.isfinite(b0)) and np.all(np.isfinite(beta))):
                raise ValueError(f"The regression of {v!r} has non-finite values.")
            if not np.all(np.isfinite(var)) or np.any(var <= 0):
                raise ValueError(f"The variances of {v!r} must be finite and positive.")
            for table in (b0, beta, var):
                table.setflags(write=False)
            self._discrete_parents[v] = disc
            self._continuous_parents[v] = cont
            self._tables[v] = (b0, beta, var)
        for v, value in self.held.items():
            tables = (np.array(value), np.zeros((0,)), np.array(0.0))
            for table in tables:
                table.setflags(write=False)
            self._discrete_parents[v] = ()
            self._continuous_parents[v] = ()
            self._tables[v] = tables
        self.continuous = _topological(given, self._continuous_parents) + list(self.held)

    # -- structure ------------------------------------------------------------------------

    @property
    def parents(self) -> dict:
        """The parents of each node (discrete ones first for a continuous node)."""
        out = {v: tuple(self.discrete_part.parents[v]) for v in self.discrete_part.nodes}
        for v in self._tables:
            out[v] = self._discrete_parents[v] + self._continuous_parents[v]
        return {v: out[v] for v in self.nodes}

    @property
    def graph(self) -> LearnedGraph:
        """The network's DAG as a networkx DiGraph (a new object on each access)."""
        g = LearnedGraph(kind="dag", name=self.name)
        g.add_nodes_from(self.nodes)
        g.add_edges_from((u, v) for v, pa in self.parents.items() for u in pa)
        return g

    @property
    def n_arcs(self) -> int:
        """Number of arcs."""
        return sum(len(pa) for pa in self.parents.values())

    @property
    def n_parameters(self) -> int:
        """Free parameters: the CPTs', and per configuration an intercept, weights, a variance."""
        total = self.discrete_part.n_parameters
        for v, (b0, beta, _) in self._tables.items():
            if v not in self.held:  # a held value is set, not estimated
                total += b0.size * (beta.shape[-1] + 2)
        return int(total)

    def regression(self, node: str) -> dict:
        """The regressions of a continuous node, one per configuration of its discrete parents.

        Parameters
        ----------
        node : str
            A continuous node.

        Returns
        -------
        dict
            ``discrete_parents`` and ``continuous_parents`` (tuples of names), and the
            read-only arrays ``intercepts`` ``(r_d1, ..., r_dk)``, ``coefficients``
            ``(r_d1, ..., r_dk, m)`` and ``variances`` ``(r_d1, ..., r_dk)``.
        """
        if node not in self._tables:
            raise KeyError(f"{node!r} is not a continuous node of the network.")
        b0, beta, var = self._tables[node]
        return {
            "discrete_parents": self._discrete_parents[node],
            "continuous_parents": self._continuous_parents[node],
            "intercepts": b0,
            "coefficients": beta,
            "variances": var,
        }

    # -- rows ------------------------------------------------------------------------------

    def _configuration(self, v: str, codes: Mapping[str, np.ndarray], n: int) -> np.ndarray:
        disc = self._discrete_parents[v]
        if not disc:
            return np.zeros(n, dtype=np.intp)
        shape = self._tables[v][0].shape
        return np.ravel_multi_index(tuple(codes[u] for u in disc), shape)

    def _moments(self, v, codes, values, n) -> tuple[np.ndarray, np.ndarray]:
        """Conditional mean and variance of ``v`` at each row."""
        b0, beta, var = self._tables[v]
        config = self._configuration(v, codes, n)
        flat_beta = beta.reshape(b0.size, beta.shape[-1])
        mean = b0.reshape(-1)[config].copy()
        for k, u in enumerate(self._continuous_parents[v]):
            mean += flat_beta[config, k] * values[u]
        return mean, var.reshape(-1)[config]

    def sample(self, n_samples: int, random_state=None) -> pd.DataFrame:
        """Draw rows by forward sampling: categorical and float columns, in node order.

        The discrete part is drawn first, then each continuous node in a topological order,
        one standard-normal draw per row and node.

        Parameters
        ----------
        n_samples : int
        random_state : int, RandomState instance or None, default=None

        Returns
        -------
        DataFrame of shape (n_samples, n_nodes)
        """
        n = _check_n_samples(n_samples)
        rng = check_random_state(random_state)
        frame = self.discrete_part.sample(n, random_state=rng)
        codes = {v: frame[v].cat.codes.to_numpy() for v in frame.columns}
        values: dict[str, np.ndarray] = {}
        for v in self.continuous:
            mean, var = self._moments(v, codes, values, n)
            values[v] = mean + np.sqrt(var) * rng.standard_normal(n)
        return pd.DataFrame({v: frame[v] if v in codes else values[v] for v in self.nodes})

    @property
    def schema(self) -> DataSchema:
        """Node names, kinds and state labels: what rows are encoded against (nodes in order)."""
        states = self.discrete_part.states
        return DataSchema(
            self.nodes,
            [v in states for v in self.nodes],
            [states.get(v, ()) for v in self.nodes],
            origin="network",
        )

    def log_likelihood(self, X) -> np.ndarray:
        """Log-density of each row of ``X``.

        The discrete part's log-probability plus the continuous nodes' normal log-densities.

        Parameters
        ----------
        X : DataFrame of shape (n_samples, n_nodes)
            One column per node, named after it (any column order): state labels for the
            discrete nodes, numbers for the continuous ones.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        frame = X.set_axis(_node_columns(X, self.nodes), axis=1)[list(self.nodes)]
        rows = self.schema.encode(frame)
        position = {v: k for k, v in enumerate(self.nodes)}
        part = self.discrete_part
        codes = {v: rows.codes[:, position[v]].astype(np.int64) for v in part.nodes}
        total = part._log_probability(codes, len(frame))
        values = {v: rows.values[:, position[v]] for v in self.continuous}
        n = len(frame)
        for v in self.continuous:
            if v in self.held:
                # a point mass: the rows at its value lose nothing, the others are impossible
                total = np.where(values[v] == self.held[v], total, -np.inf)
                continue
            mean, var = self._moments(v, codes, values, n)
            total = total - 0.5 * (np.log(2 * np.pi * var) + (values[v] - mean) ** 2 / var)
        return total

    # -- questions ---------------------------------------------------------------------

    def query(self, targets, evidence=None, *, soft_evidence=None, joint: bool = False):
        """Exact posterior of discrete ``targets``: :func:`skbn.inference.query`.

        Parameters
        ----------
        targets : str or list of str
            Discrete nodes.
        evidence : dict, DataFrame or None, default=None
            ``{node: value}`` (a state for a discrete node, a number for a continuous
            one), or one evidence row per case (missing cells unobserved).
        soft_evidence : dict of str to array-like, optional
            Likelihoods per state of a discrete node.
        joint : bool, default=False
            The joint posterior of the targets.

        Returns
        -------
        Series, DataFrame or dict
            As :func:`skbn.inference.query` describes.

        Examples
        --------
        >>> bn = DiscreteBayesianNetwork({"smoker": ["no", "yes"]}, {}, {"smoker": [0.7, 0.3]})
        >>> cg = ConditionalGaussianNetwork(
        ...     bn, parents={"tar": ["smoker"]}, intercepts={"tar": [0.0, 2.0]},
        ...     coefficients={"tar": [[], []]}, variances={"tar": [0.5, 1.0]})
        >>> cg.query("smoker", {"tar": 2.0}).round(3).tolist()
        [0.057, 0.943]
        """
        from skbn.inference import query

        return query(self, targets, evidence, soft_evidence=soft_evidence, joint=joint)

    def evidence_probability(self, evidence, *, soft_evidence=None, log: bool = False):
        """Probability (a density where continuous values are observed) of ``evidence``.

        See :func:`skbn.inference.evidence_probability`.

        Parameters
        ----------
        evidence : dict, DataFrame or None
        soft_evidence : dict of str to array-like, optional
        log : bool, default=False

        Returns
        -------
        float or ndarray of shape (n_rows,)
        """
        from skbn.inference import evidence_probability

        return evidence_probability(self, evidence, soft_evidence=soft_evidence, log=log)

    def do(self, interventions):
        """The network after ``do(node = value)``: see :func:`skbn.inference.intervene`.

        A discrete node is set to a state; a continuous node is held at a number (it
        becomes a held node, its value in its children's intercepts).

        Parameters
        ----------
        interventions : dict
            ``{node: state}`` for discrete nodes, ``{node: number}`` for continuous ones.

        Returns
        -------
        ConditionalGaussianNetwork
            The intervened network (this one is not changed).
        """
        from skbn.inference import intervene

        return intervene(self, interventions)

    def mpe(self, evidence=None, *, soft_evidence=None):
        """The most probable explanation of every node: :func:`skbn.inference.mpe`.

        Parameters
        ----------
        evidence : dict, DataFrame or None, default=None
        soft_evidence : dict of str to array-like, optional

        Returns
        -------
        explanation : dict or DataFrame
            A state per discrete node and a value per continuous one.
        log_density : float or ndarray of shape (n_rows,)
        """
        from skbn.inference import mpe

        return mpe(self, evidence, soft_evidence=soft_evidence)

    def map(self, targets, evidence=None, *, soft_evidence=None):
        """The most probable joint state of discrete ``targets``: :func:`skbn.inference.map_query`.

        Parameters
        ----------
        targets : str or list of str
            Discrete nodes.
        evidence : dict, DataFrame or None, default=None
        soft_evidence : dict of str to array-like, optional

        Returns
        -------
        state : dict or DataFrame
        log_probability : float or ndarray of shape (n_rows,)
        """
        from skbn.inference import map_query

        return map_query(self, targets, evidence, soft_evidence=soft_evidence)

    def __repr__(self) -> str:
        return (
            f"ConditionalGaussianNetwork(n_nodes={len(self.nodes)}, "
            f"n_continuous={len(self.continuous)}, n_arcs={self.n_arcs})"
        )


def _held_values(held, parents, discrete_part) -> dict:
    """The held nodes as ``{name: float}``, checked against the other nodes."""
    if held is None:
        return {}
    if not isinstance(held, Mapping):
        raise TypeError(f"held must be a dict {{node: value}}, got {type(held).__name__}.")
    out = {}
    for v, value in held.items():
        v = str(v)
        if v in discrete_part.states or v in {str(u) for u in parents}:
            raise ValueError(
                f"The held node {v!r} is also a discrete node or a key of parents; a held "
                "node is listed in held only."
            )
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"The held node {v!r} needs a number, got {value!r}.") from None
        if not np.isfinite(value):
            raise ValueError(f"The held node {v!r} needs a finite number, got {value!r}.")
        out[v] = value
    return out


def _topological(nodes: list[str], continuous_parents: Mapping[str, Sequence[str]]) -> list:
    """The continuous nodes in a topological order: the given order when it is one."""
    index = {v: i for i, v in enumerate(nodes)}
    heads = [index[u] for v in nodes for u in continuous_parents[v]]
    tails = [index[v] for v in nodes for _ in continuous_parents[v]]
    p = len(nodes)
    A = sp.csr_array((np.ones(len(heads), dtype=np.int8), (heads, tails)), shape=(p, p))
    order = topological_sort_array(A)
    if order is None:
        raise ValueError(
            "The continuous nodes' parent sets form a directed cycle; a network needs a DAG."
        )
    return [nodes[i] for i in order.tolist()]
