# SPDX-License-Identifier: BSD-3-Clause
"""Quickstart: learn a network from data, look at it, score it against the truth.

Run with ``python examples/quickstart.py`` (about 5 s on 2 cores, numba kernels compiled);
writes ``quickstart.png``.
"""

import matplotlib

matplotlib.use("Agg")

from skbn.datasets import load_network  # noqa: E402
from skbn.learners import HillClimb  # noqa: E402
from skbn.metrics import structure_report  # noqa: E402
from skbn.plotting import plot_graph  # noqa: E402

# %% Data: 5,000 rows sampled from the bundled ALARM network (37 categorical variables).
network = load_network("alarm")
X = network.sample(5000, random_state=0)
print(X.iloc[:3, :6])

# %% Learn: a scikit-learn estimator whose fit sets graph_ (a networkx DiGraph).
learner = HillClimb(random_state=0).fit(X)
print(learner.graph_.number_of_edges(), "arcs learned")

# %% Held-out fit, the scikit-learn way: mean log-likelihood of new rows.
X_new = network.sample(1000, random_state=1)
print("held-out log-likelihood per row:", round(learner.score(X_new), 3))

# %% Against the truth: SHD, precision/recall/F1 of edges, adjacencies and arrowheads.
print(structure_report(network.graph, learner.graph_).to_frame())

# %% Edges coloured by correctness against the true network.
ax = plot_graph(learner.graph_, truth=network.graph, title="hill climbing on ALARM")
ax.figure.savefig("quickstart.png", dpi=90, bbox_inches="tight")
