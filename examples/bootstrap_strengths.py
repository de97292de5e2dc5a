# SPDX-License-Identifier: BSD-3-Clause
"""Bootstrap arc strengths, an averaged network, and the poset-based bootstrap learner.

Run with ``python examples/bootstrap_strengths.py`` (about 6 s on 2 cores, numba kernels
compiled); writes ``bootstrap_strengths.png``.
"""

import matplotlib

matplotlib.use("Agg")

from skbn.datasets import load_network  # noqa: E402
from skbn.ensemble import BootstrapPosetLearner, bootstrap_edge_frequencies  # noqa: E402
from skbn.learners import HillClimb  # noqa: E402
from skbn.metrics import structure_report  # noqa: E402
from skbn.plotting import plot_edge_strengths  # noqa: E402

network = load_network("asia")
X = network.sample(2000, random_state=0)

# %% How often each arc appears over 50 bootstrap fits (bnlearn's boot.strength).
freqs = bootstrap_edge_frequencies(HillClimb(), X, n_resamples=50, random_state=0, n_jobs=2)
print(freqs.table.sort_values("strength", ascending=False).head(10))

# %% The averaged network: arcs in at least half of the fits, kept acyclic.
averaged = freqs.averaged_graph(threshold=0.5)
print(structure_report(network.graph, averaged).to_frame()[["shd", "f1"]])
plot_edge_strengths(freqs, threshold=0.5).figure.savefig(
    "bootstrap_strengths.png", dpi=90, bbox_inches="tight"
)

# %% Caravagna & Ramazzotti's learner: a partial order from bootstrap fits, then arcs that beat
# a permutation null.
poset = BootstrapPosetLearner(
    HillClimb(), n_poset_resamples=20, n_test_resamples=20, random_state=0
).fit(X)
print(poset.edge_pvalues_.head())
