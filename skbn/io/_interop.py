# SPDX-License-Identifier: BSD-3-Clause
"""Converters to and from pgmpy and pyAgrum models, for their exact and approximate inference.

Both libraries are optional (``pip install "skbn[interop]"``); each converter imports its
library when called and says which extra to install when it is missing.
"""

from __future__ import annotations

import numpy as np

from skbn.network._discrete import DiscreteBayesianNetwork
from skbn.network._gaussian import LinearGaussianNetwork

__all__ = ["from_pgmpy", "from_pyagrum", "to_pgmpy", "to_pyagrum"]


#: The oldest release of each library the converters work with (pyproject's ``interop``).
_FLOORS = {"pgmpy": (1, 0), "pyagrum": (1, 14)}


def _version_tuple(text: str) -> tuple[int, ...]:
    parts = []
    for piece in text.split(".")[:3]:
        digits = "".join(ch for ch in piece if ch.isdigit()) if piece[:1].isdigit() else ""
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def _check_floor(package: str, function: str) -> None:
    from importlib import metadata

    floor = _FLOORS.get(package.lower())
    try:
        found = metadata.version(package)
    except metadata.PackageNotFoundError:
        return
    if floor and _version_tuple(found) < floor:
        wanted = ".".join(map(str, floor))
        raise ImportError(
            f"{function} needs {package} {wanted} or newer, and {found} is installed; "
            f'upgrade it with pip install -U "{package}>={wanted}".'
        )


def _need(module: str, function: str):
    import importlib
    import warnings

    _check_floor(module.split(".")[0], function)
    try:
        with warnings.catch_warnings():
            # pgmpy announces deprecations of its own APIs on import (skbn uses none of them)
            # and pyAgrum's SWIG layer warns while loading; neither concerns the caller
            warnings.simplefilter("ignore", FutureWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            return importlib.import_module(module)
    except ImportError:
        package = module.split(".")[0]
        raise ImportError(
            f"{function} needs {package}, which is not installed; install it with "
            f'pip install "skbn[interop]" (or pip install {package}).'
        ) from None


def _discrete_or_gaussian(network, function: str):
    if isinstance(network, (DiscreteBayesianNetwork, LinearGaussianNetwork)):
        return network
    raise TypeError(
        f"{function} converts a DiscreteBayesianNetwork or a LinearGaussianNetwork (a "
        f"learner's network_, or skbn.parameters.fit_network), got {type(network).__name__}."
    )


def to_pgmpy(network):
    """Convert a network to a pgmpy model.

    Parameters
    ----------
    network : DiscreteBayesianNetwork or LinearGaussianNetwork

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork or pgmpy.models.LinearGaussianBayesianNetwork
        With one ``TabularCPD`` per node (state names kept) or one ``LinearGaussianCPD``
        (intercept, coefficients and noise standard deviation).

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from pgmpy.inference import VariableElimination  # doctest: +SKIP
    >>> model = to_pgmpy(load_network("asia"))  # doctest: +SKIP
    >>> VariableElimination(model).query(["lung"], evidence={"smoke": "yes"})  # doctest: +SKIP
    """
    network = _discrete_or_gaussian(network, "to_pgmpy")
    models = _need("pgmpy.models", "to_pgmpy")
    if isinstance(network, LinearGaussianNetwork):
        LinearGaussianCPD = _need("pgmpy.factors.continuous", "to_pgmpy").LinearGaussianCPD

        model = models.LinearGaussianBayesianNetwork()
        model.add_nodes_from(network.nodes)
        W = network.weights
        cpds = []
        for j, v in enumerate(network.nodes):
            lo, hi = W.indptr[j], W.indptr[j + 1]
            pa = [network.nodes[i] for i in W.indices[lo:hi].tolist()]
            model.add_edges_from((u, v) for u in pa)
            beta = [float(network.intercepts[j]), *map(float, W.data[lo:hi])]
            cpds.append(LinearGaussianCPD(v, beta, float(network.noise_std[j]), pa))
        model.add_cpds(*cpds)
        return model
    TabularCPD = _need("pgmpy.factors.discrete", "to_pgmpy").TabularCPD
    model = models.DiscreteBayesianNetwork()
    model.add_nodes_from(network.nodes)
    model.add_edges_from((u, v) for v in network.nodes for u in network.parents[v])
    cpds = []
    for v in network.nodes:
        pa = list(network.parents[v])
        table = network.cpts[v]
        r = table.shape[-1]
        names = {u: list(network.states[u]) for u in [v, *pa]}
        cpds.append(
            TabularCPD(
                v,
                r,
                table.reshape(-1, r).T,  # pgmpy: one column per configuration, first parent slowest
                evidence=pa or None,
                evidence_card=[network.arities[u] for u in pa] or None,
                state_names=names,
            )
        )
    model.add_cpds(*cpds)
    model.name = network.name
    return model


def from_pgmpy(model) -> DiscreteBayesianNetwork | LinearGaussianNetwork:
    """Convert a pgmpy model with its CPDs to a skbn network.

    Parameters
    ----------
    model : pgmpy.models.DiscreteBayesianNetwork or LinearGaussianBayesianNetwork

    Returns
    -------
    DiscreteBayesianNetwork or LinearGaussianNetwork

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> back = from_pgmpy(to_pgmpy(load_network("asia")))  # doctest: +SKIP
    >>> back.parents["either"]  # doctest: +SKIP
    ('lung', 'tub')
    """
    models = _need("pgmpy.models", "from_pgmpy")
    nodes = [str(v) for v in model.nodes()]
    cpds = {str(c.variable): c for c in model.get_cpds()}
    missing = [v for v in nodes if v not in cpds]
    if missing:
        raise ValueError(f"The pgmpy model has no CPD for nodes {missing[:8]}; add them first.")
    if isinstance(model, models.LinearGaussianBayesianNetwork):
        from scipy import sparse

        index = {v: j for j, v in enumerate(nodes)}
        rows, cols, data = [], [], []
        intercepts, sds = np.zeros(len(nodes)), np.zeros(len(nodes))
        for v, cpd in cpds.items():
            beta = np.asarray(cpd.beta, dtype=np.float64)
            intercepts[index[v]], sds[index[v]] = beta[0], float(cpd.std)
            for u, b in zip(cpd.evidence, beta[1:]):
                rows.append(index[str(u)])
                cols.append(index[v])
                data.append(b)
        W = sparse.csc_array((data, (rows, cols)), shape=(len(nodes), len(nodes)))
        return LinearGaussianNetwork(W, sds, nodes, intercepts=intercepts)
    if not isinstance(model, models.DiscreteBayesianNetwork):
        raise TypeError(
            "from_pgmpy converts a pgmpy DiscreteBayesianNetwork or "
            f"LinearGaussianBayesianNetwork, got {type(model).__name__}."
        )
    states, parents, tables = {}, {}, {}
    for v in nodes:
        cpd = cpds[v]
        variables = [str(u) for u in cpd.variables]
        pa = variables[1:]
        shape = tuple(int(c) for c in cpd.cardinality)  # (child, parents...)
        values = np.asarray(cpd.get_values(), dtype=np.float64)  # (r, q)
        tables[v] = values.T.reshape(shape[1:] + shape[:1])
        parents[v] = pa
        states[v] = [str(s) for s in cpd.state_names.get(cpd.variable, range(shape[0]))]
    for v in nodes:  # a parent's states as its own CPD names them
        for u in parents[v]:
            names = [str(s) for s in cpds[v].state_names.get(u, range(len(states[u])))]
            if names != states[u]:
                raise ValueError(
                    f"The CPD of {v!r} names the states of its parent {u!r} {names}, its own "
                    f"CPD {states[u]}; pgmpy's check_model() reports such mismatches."
                )
    return DiscreteBayesianNetwork(
        {v: states[v] for v in nodes}, parents, tables, name=getattr(model, "name", "") or "network"
    )


def to_pyagrum(network: DiscreteBayesianNetwork):
    """Convert a discrete network to a pyAgrum ``BayesNet``.

    Parameters
    ----------
    network : DiscreteBayesianNetwork

    Returns
    -------
    pyagrum.BayesNet
        Labelled variables (the node's states) and the same tables.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> import pyagrum as gum  # doctest: +SKIP
    >>> ie = gum.LazyPropagation(to_pyagrum(load_network("asia")))  # doctest: +SKIP
    """
    if isinstance(network, LinearGaussianNetwork):
        raise TypeError(
            "to_pyagrum converts discrete networks; pyAgrum's BayesNet holds discrete "
            "variables. Use to_pgmpy for a LinearGaussianNetwork."
        )
    network = _discrete_or_gaussian(network, "to_pyagrum")
    gum = _need("pyagrum", "to_pyagrum")
    bn = gum.BayesNet(network.name)
    for v in network.nodes:
        bn.add(gum.LabelizedVariable(v, v, [str(s) for s in network.states[v]]))
    for v in network.nodes:
        for u in network.parents[v]:
            bn.addArc(u, v)
    for v in network.nodes:
        cpt = bn.cpt(v)
        axes = [*network.parents[v], v]  # the skbn table's axes
        # pyAgrum's array axes run over cpt.names reversed (its first variable fastest)
        order = [axes.index(str(name)) for name in reversed(cpt.names)]
        cpt.fillWith(np.transpose(network.cpts[v], order).ravel().tolist())
    return bn


def from_pyagrum(bn) -> DiscreteBayesianNetwork:
    """Convert a pyAgrum ``BayesNet`` to a skbn network.

    Parameters
    ----------
    bn : pyagrum.BayesNet

    Returns
    -------
    DiscreteBayesianNetwork
        Nodes in pyAgrum's node-id order; states are the variables' labels.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> bn = to_pyagrum(load_network("cancer"))
    >>> from_pyagrum(bn).parents["Cancer"]
    ('Pollution', 'Smoker')
    """
    gum = _need("pyagrum", "from_pyagrum")
    if not isinstance(bn, gum.BayesNet):
        raise TypeError(f"from_pyagrum converts a pyagrum.BayesNet, got {type(bn).__name__}.")
    ids = sorted(bn.nodes())
    nodes = [bn.variable(i).name() for i in ids]
    states, parents, tables = {}, {}, {}
    for i, v in zip(ids, nodes):
        states[v] = list(bn.variable(i).labels())
        cpt = bn.cpt(i)
        names = [str(n) for n in reversed(cpt.names)]  # the array's axes
        pa = [str(n) for n in cpt.names[1:]]  # the table's own parent order
        axes = [*pa, v]
        tables[v] = np.transpose(cpt.toarray(), [names.index(a) for a in axes])
        parents[v] = pa
    return DiscreteBayesianNetwork(states, parents, tables, name=_pyagrum_name(bn))


def _pyagrum_name(bn) -> str:
    try:
        return str(bn.property("name")) or "network"
    except Exception:  # pyAgrum raises its own NotFound when the property is absent
        return "network"
