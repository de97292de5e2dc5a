# SPDX-License-Identifier: BSD-3-Clause
"""A 2,000-variable Gaussian network with PEF (partition, estimation, fusion).

Run with ``python examples/pef_large.py`` (about 1 minute on 2 cores, numba kernels compiled);
writes ``pef_clusters.png``. Pass a smaller size as the first argument for a quicker run.
"""

import sys
import time

import matplotlib

matplotlib.use("Agg")

from skbn.datasets import make_problem  # noqa: E402
from skbn.ensemble import PEFLearner, StructureLearningEnsemble  # noqa: E402
from skbn.learners import FGES  # noqa: E402
from skbn.metrics import structure_report  # noqa: E402
from skbn.plotting import plot_cluster_sizes  # noqa: E402

n_nodes = int(sys.argv[1]) if len(sys.argv) > 1 else 2000

# %% Copies of CHILD joined by random arcs, linear-Gaussian data, 1,000 rows.
X, truth = make_problem("child", n_nodes=n_nodes, n_samples=1000, random_state=0)
print(X.shape)

# %% PEF around FGES, clusters learned in parallel.
start = time.perf_counter()
pef = PEFLearner(FGES(), n_jobs=2, verbose=1).fit(X)  # progress of the three stages
print(
    f"{len(pef.clusters_)} clusters, {pef.n_cross_arcs_} fused arcs, "
    f"{time.perf_counter() - start:.1f} s"
)
print(structure_report(truth, pef.graph_).to_frame()[["f1_adjacency", "f1_arrowhead", "shd"]])
plot_cluster_sizes(pef).figure.savefig("pef_clusters.png", dpi=90, bbox_inches="tight")

# %% P/SLE: the same with the Auto-SLE paper's learned ensemble of four FGES configurations.
psle = PEFLearner(StructureLearningEnsemble.from_paper(), n_jobs=2).fit(X)
print(structure_report(truth, psle.graph_).to_frame()[["f1_adjacency", "f1_arrowhead", "shd"]])
