# SPDX-License-Identifier: BSD-3-Clause
"""Discrete Bayesian networks with conditional probability tables, and forward sampling."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx
import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.utils import check_random_state

from skbn.data._schema import DataSchema
from skbn.graph._array import topological_sort_array
from skbn.graph._learned import LearnedGraph
from skbn.utils._memory import check_allocation

__all__ = ["DiscreteBayesianNetwork"]


class DiscreteBayesianNetwork:
    """A discrete Bayesian network: a DAG with a conditional probability table per node.

    Parameters
    ----------
    states : mapping of str to sequence
        The states of each node, in node order (the order of the mapping).
    parents : mapping of str to sequence of str
        The parents of each node; nodes missing from the mapping have none.
    cpts : mapping of str to array-like
        ``cpts[v]`` has shape ``(r_pa1, ..., r_pak, r_v)``: one axis per parent, in the order
        of ``parents[v]``, then the node's own states. Each row (last axis) must sum to 1.
    name : str, default="network"

    Attributes
    ----------
    nodes : list of str
    graph : networkx.DiGraph
        The DAG, ``graph.graph["kind"] == "dag"``, nodes in ``nodes`` order.
    arities : dict of str to int

    Examples
    --------
    >>> bn = DiscreteBayesianNetwork(
    ...     states={"rain": ["no", "yes"], "wet": ["no", "yes"]},
    ...     parents={"wet": ["rain"]},
    ...     cpts={"rain": [0.8, 0.2], "wet": [[0.9, 0.1], [0.2, 0.8]]},
    ... )
    >>> bn
    DiscreteBayesianNetwork(name='network', n_nodes=2, n_arcs=1, n_parameters=3)
    >>> bn.sample(5, random_state=0).dtypes.iloc[0]
    CategoricalDtype(categories=['no', 'yes'], ordered=False, categories_dtype=str)
    """

    def __init__(
        self,
        states: Mapping[str, Sequence],
        parents: Mapping[str, Sequence[str]],
        cpts: Mapping[str, np.ndarray],
        name: str = "network",
    ) -> None:
        self.name = str(name)
        self.nodes = [str(v) for v in states]
        if len(set(self.nodes)) != len(self.nodes):
            raise ValueError("Node names must be unique.")
        self.states = {v: tuple(states[v]) for v in self.nodes}
        for v, st in self.states.items():
            if len(st) < 1 or len(set(st)) != len(st):
                raise ValueError(f"Node {v!r} needs at least one state and unique state names.")
        unknown = set(parents) - set(self.nodes)
        if unknown:
            raise ValueError(f"parents names unknown nodes: {sorted(unknown)[:8]}.")
        self.parents = {v: tuple(str(u) for u in parents.get(v, ())) for v in self.nodes}
        for v, pa in self.parents.items():
            bad = [u for u in pa if u not in self.states]
            if bad:
                raise ValueError(f"Node {v!r} has unknown parents {bad}.")
            if len(set(pa)) != len(pa) or v in pa:
                raise ValueError(f"Node {v!r} lists a parent twice or itself.")
        self.arities = {v: len(st) for v, st in self.states.items()}
        missing = [v for v in self.nodes if v not in cpts]
        if missing:
            raise ValueError(f"No CPT given for nodes {missing[:8]}.")
        self.cpts = {}
        for v in self.nodes:
            shape = tuple(self.arities[u] for u in self.parents[v]) + (self.arities[v],)
            table = np.asarray(cpts[v], dtype=np.float64)
            if table.shape != shape:
                raise ValueError(
                    f"The CPT of {v!r} has shape {table.shape}; expected {shape} "
                    "(one axis per parent, in order, then the node's states)."
                )
            if np.any(table < 0) or not np.allclose(table.sum(axis=-1), 1.0, atol=1e-6):
                raise ValueError(f"The CPT of {v!r} has rows that are not distributions.")
            table.setflags(write=False)
            self.cpts[v] = table
        index = {v: i for i, v in enumerate(self.nodes)}
        # sparse: a dense (p, p) matrix is 9.3 GiB at 100,000 nodes; the order is the same
        heads = [index[u] for v in self.nodes for u in self.parents[v]]
        tails = [index[v] for v in self.nodes for _ in self.parents[v]]
        p = len(self.nodes)
        A = sp.csr_array((np.ones(len(heads), dtype=np.int8), (heads, tails)), shape=(p, p))
        order = topological_sort_array(A)
        if order is None:
            raise ValueError("The parent sets form a directed cycle; a BN needs a DAG.")
        self._order = order
        self._index = index

    @property
    def graph(self) -> nx.DiGraph:
        """The network's DAG as a networkx DiGraph (a new object on each access)."""
        g = LearnedGraph(kind="dag", name=self.name)
        g.add_nodes_from(self.nodes)
        g.add_edges_from((u, v) for v in self.nodes for u in self.parents[v])
        return g

    def cpt_frame(self, node) -> pd.DataFrame:
        """The table of ``node`` with its labels: a row per parent configuration.

        Parameters
        ----------
        node : str
            A node of the network.

        Returns
        -------
        DataFrame
            Columns are the node's states; the index holds the parents' states (a
            MultiIndex over the parents, in the order of ``parents[node]``); a node without
            parents has one unnamed row. Each row sums to 1.

        Examples
        --------
        >>> from skbn.datasets import load_network
        >>> table = load_network("asia").cpt_frame("either")
        >>> table.index.names, list(table.columns)
        (FrozenList(['lung', 'tub']), ['yes', 'no'])
        """
        if node not in self.cpts:
            raise KeyError(f"{node!r} is not a node of the network.")
        table = np.asarray(self.cpts[node])
        parents = list(self.parents[node])
        columns = pd.Index(list(self.states[node]), name=node)
        if not parents:
            return pd.DataFrame(table.reshape(1, -1), columns=columns)
        index = pd.MultiIndex.from_product([list(self.states[u]) for u in parents], names=parents)
        return pd.DataFrame(table.reshape(len(index), -1), index=index, columns=columns)

    @property
    def n_arcs(self) -> int:
        """Number of arcs."""
        return sum(len(pa) for pa in self.parents.values())

    @property
    def n_parameters(self) -> int:
        """Number of free parameters: sum over nodes of (r_v - 1) * prod(r_parents)."""
        return int(sum((t.shape[-1] - 1) * (t.size // t.shape[-1]) for t in self.cpts.values()))

    def sample(self, n_samples: int, random_state=None) -> pd.DataFrame:
        """Draw rows by forward (ancestral) sampling.

        Nodes are visited in topological order; each node's parent configuration is a
        mixed-radix index into its flattened CPT, and one uniform draw per row picks the state
        through the cumulative row, all vectorised over rows.

        Parameters
        ----------
        n_samples : int
            Number of rows.
        random_state : int, RandomState instance or None, default=None
            Seed of the draw; the same seed gives the same data.

        Returns
        -------
        DataFrame of shape (n_samples, n_nodes)
            Categorical columns whose categories are the node's states, in node order.
        """
        n = _check_n_samples(n_samples)
        # the codes (4 bytes a cell) and the frame's categorical columns (1 to 2 bytes)
        check_allocation(
            6.0 * n * len(self.nodes),
            f"Sampling {n} rows of {len(self.nodes)} nodes",
            "draw fewer rows, or several smaller samples one after another",
        )
        rng = check_random_state(random_state)
        p = len(self.nodes)
        codes = np.zeros((p, n), dtype=np.int32)
        uniforms = rng.random_sample((p, n))
        for i in self._order.tolist():
            v = self.nodes[i]
            table = self.cpts[v]
            r = table.shape[-1]
            cum = np.cumsum(table.reshape(-1, r), axis=1)
            cum /= cum[:, -1:]  # exact 1 at the end: a zero-probability last state is never drawn
            pa = [self._index[u] for u in self.parents[v]]
            if pa:
                config = np.ravel_multi_index(tuple(codes[j] for j in pa), table.shape[:-1])
            else:
                config = np.zeros(n, dtype=np.intp)
            u = uniforms[i]
            rows = cum[config]
            codes[i] = (u[:, None] >= rows[:, :-1]).sum(axis=1)
        return pd.DataFrame(
            {
                v: pd.Categorical.from_codes(codes[j], categories=list(self.states[v]))
                for j, v in enumerate(self.nodes)
            }
        )

    def log_likelihood(self, X) -> np.ndarray:
        """Log-probability of each row of ``X`` under the network.

        Parameters
        ----------
        X : DataFrame of shape (n_samples, n_nodes)
            One column per node, named after it (any column order); values are state labels.

        Returns
        -------
        ndarray of shape (n_samples,)
            ``-inf`` for a row that holds a zero-probability value.

        Examples
        --------
        >>> bn = DiscreteBayesianNetwork({"a": ["x", "y"]}, {}, {"a": [0.25, 0.75]})
        >>> bn.log_likelihood(pd.DataFrame({"a": ["y", "x"]})).round(4).tolist()
        [-0.2877, -1.3863]
        """
        return self._log_probability(self._codes(X), len(X))

    @property
    def schema(self) -> DataSchema:
        """Node names and state labels: what rows are encoded against (nodes in order)."""
        return DataSchema(
            self.nodes,
            np.ones(len(self.nodes), bool),
            [self.states[v] for v in self.nodes],
            origin="network",
        )

    def _codes(self, X) -> dict[str, np.ndarray]:
        """The state code of each node's column of the DataFrame ``X`` (labels checked)."""
        frame = X.set_axis(_node_columns(X, self.nodes), axis=1)[list(self.nodes)]
        codes = self.schema.encode(frame).codes
        return {v: codes[:, k].astype(np.int64) for k, v in enumerate(self.nodes)}

    def _log_probability(self, codes: dict[str, np.ndarray], n: int) -> np.ndarray:
        total = np.zeros(n)
        with np.errstate(divide="ignore"):
            for v in self.nodes:
                table = self.cpts[v]
                config = tuple(codes[u] for u in self.parents[v]) + (codes[v],)
                total += np.log(table[config])
        return total

    def query(self, targets, evidence=None, *, soft_evidence=None, joint: bool = False):
        """Exact posterior of ``targets`` given ``evidence``: :func:`skbn.inference.query`.

        Parameters
        ----------
        targets : str or list of str
        evidence : dict, DataFrame or None, default=None
            ``{node: state}``, or one evidence row per case (missing cells unobserved).
        soft_evidence : dict of str to array-like, optional
            Likelihoods per state of a node.
        joint : bool, default=False
            The joint posterior of the targets.

        Returns
        -------
        Series, DataFrame or dict
            As :func:`skbn.inference.query` describes.

        Examples
        --------
        >>> from skbn.datasets import load_network
        >>> load_network("asia").query("either", {"xray": "yes"}).round(3).tolist()
        [0.576, 0.424]
        """
        from skbn.inference import query

        return query(self, targets, evidence, soft_evidence=soft_evidence, joint=joint)

    def evidence_probability(self, evidence, *, soft_evidence=None, log: bool = False):
        """Probability of ``evidence``: :func:`skbn.inference.evidence_probability`.

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

    def mpe(self, evidence=None, *, soft_evidence=None):
        """The most probable explanation given ``evidence``: :func:`skbn.inference.mpe`.

        Parameters
        ----------
        evidence : dict, DataFrame or None, default=None
        soft_evidence : dict of str to array-like, optional

        Returns
        -------
        explanation : dict or DataFrame
        log_probability : float or ndarray of shape (n_rows,)
        """
        from skbn.inference import mpe

        return mpe(self, evidence, soft_evidence=soft_evidence)

    def map(self, targets, evidence=None, *, soft_evidence=None):
        """The most probable joint state of ``targets``: :func:`skbn.inference.map_query`.

        Parameters
        ----------
        targets : str or list of str
        evidence : dict, DataFrame or None, default=None
        soft_evidence : dict of str to array-like, optional

        Returns
        -------
        state : dict or DataFrame
        log_probability : float or ndarray of shape (n_rows,)
        """
        from skbn.inference import map_query

        return map_query(self, targets, evidence, soft_evidence=soft_evidence)

    def do(self, interventions):
        """The network after ``do(node = value)``: :func:`skbn.inference.intervene`.

        Parameters
        ----------
        interventions : dict
            ``{node: state}``.

        Returns
        -------
        DiscreteBayesianNetwork
            The intervened network (this one is not changed).
        """
        from skbn.inference import intervene

        return intervene(self, interventions)

    def __repr__(self) -> str:
        return (
            f"DiscreteBayesianNetwork(name={self.name!r}, n_nodes={len(self.nodes)}, "
            f"n_arcs={self.n_arcs}, n_parameters={self.n_parameters})"
        )


def _node_columns(X, nodes) -> list[str]:
    """The column names of a DataFrame ``X`` that must hold a column per node."""
    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"X must be a DataFrame with one column per node, got {type(X).__name__}.")
    columns = [str(c) for c in X.columns]
    missing = [v for v in nodes if v not in columns]
    if missing:
        raise ValueError(f"X has no column for nodes {missing[:8]}.")
    return columns


def _check_n_samples(n_samples) -> int:
    if isinstance(n_samples, (bool, np.bool_)) or not isinstance(n_samples, (int, np.integer)):
        raise TypeError(f"n_samples must be an int, got {type(n_samples).__name__}.")
    if n_samples < 1:
        raise ValueError(f"n_samples must be at least 1, got {n_samples}.")
    return int(n_samples)
