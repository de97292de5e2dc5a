# SPDX-License-Identifier: BSD-3-Clause
"""Learn structures with HillClimb, TabuSearch and FGES and compare them with the truth.

Run with ``python examples/learn_structure.py``; about 5 s on 2 cores, numba kernels compiled.
"""

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
from sklearn.model_selection import GridSearchCV  # noqa: E402

from skbn.datasets import load_network, make_problem  # noqa: E402
from skbn.graph import plot_graph  # noqa: E402
from skbn.learners import FGES, HillClimb, TabuSearch  # noqa: E402
from skbn.metrics import structure_report  # noqa: E402
from skbn.scores import BIC, BDeu  # noqa: E402

# %% Discrete data from the ALARM network.
bn = load_network("alarm")
X = bn.sample(5000, random_state=0)

# %% Three learners, one table.
learners = {
    "hill climbing, BIC": HillClimb(BIC()),
    "tabu search, BDeu(10)": TabuSearch(BDeu(iss=10)),
    "FGES, BIC": FGES(),
}
rows = {}
for name, est in learners.items():
    est.fit(X)
    rows[name] = structure_report(bn.graph, est.graph_)
print(pd.DataFrame(rows).T[["shd", "f1_adjacency", "f1_arrowhead"]])

# %% Tune the BDeu imaginary sample size by held-out log-likelihood, the sklearn way.
search = GridSearchCV(HillClimb(BDeu()), {"criterion__iss": [1, 10, 50]}, cv=3).fit(X)
print("best iss:", search.best_params_["criterion__iss"])

# %% Gaussian data: FGES on a 370-variable network made of ten copies of ALARM.
Xg, truth = make_problem("alarm", n_nodes=370, n_samples=2000, random_state=0)
fges = FGES().fit(Xg)
print(structure_report(truth, fges.graph_))

# %% The learned ALARM graph against the truth.
ax = plot_graph(learners["tabu search, BDeu(10)"].graph_, truth=bn.graph, title="tabu search")
ax.figure.savefig("alarm_tabu.png", dpi=100, bbox_inches="tight")
