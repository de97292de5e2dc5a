# SPDX-License-Identifier: BSD-3-Clause
"""Sample data from a bundled network and compare two graphs with the structure metrics.

Run with ``python examples/sample_bundled_network.py``; about 3 s on 2 cores, numba kernels
compiled.
"""

import matplotlib

matplotlib.use("Agg")

from skbn.datasets import load_network, replicate_network  # noqa: E402
from skbn.graph import dag_to_cpdag, plot_graph  # noqa: E402
from skbn.metrics import structure_report  # noqa: E402

# %% A bundled network: CPTs, the true DAG, and forward sampling.
bn = load_network("asia")
print(bn)
X = bn.sample(5000, random_state=0)
print(X.head())
print(X["either"].value_counts(normalize=True))

# %% Its equivalence class: which arcs could data ever orient?
cpdag = dag_to_cpdag(bn.graph)
undirected = [(u, v) for u, v in cpdag.edges() if cpdag.has_edge(v, u) and u < v]
print("reversible edges:", undirected)

# %% Metrics: a "learned" graph that misses one arc and reverses another.
learned = bn.graph.copy()
learned.remove_edge("smoke", "bronc")
learned.remove_edge("either", "xray")
learned.add_edge("xray", "either")
print(structure_report(bn.graph, learned))

# %% A picture of the learned graph against the truth.
ax = plot_graph(learned, truth=bn.graph, title="asia: learned vs truth")
ax.figure.savefig("asia_vs_truth.png", dpi=100, bbox_inches="tight")

# %% Bigger problems: ten copies of ALARM joined by random arcs.
big = replicate_network(load_network("alarm").graph, 370, random_state=0)
print(big.number_of_nodes(), "nodes,", big.number_of_edges(), "arcs")
