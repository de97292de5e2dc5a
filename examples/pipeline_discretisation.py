# SPDX-License-Identifier: BSD-3-Clause
"""A scikit-learn Pipeline: discretise continuous data, then learn a discrete network.

Run with ``python examples/pipeline_discretisation.py`` (about 3 s on 2 cores, numba kernels
compiled).
"""

from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import KBinsDiscretizer

from skbn.datasets import make_problem
from skbn.learners import HillClimb
from skbn.metrics import f1_adjacency
from skbn.scores import BDeu

# %% Continuous data from a linear-Gaussian model on the ASIA graph.
X, truth = make_problem("asia", n_samples=3000, random_state=0)

# %% Bin every column into quantiles, then hill-climb with BDeu on the bins.
pipeline = Pipeline(
    [
        ("discretise", KBinsDiscretizer(n_bins=3, encode="ordinal", strategy="quantile")),
        ("learn", HillClimb(BDeu(iss=10))),
    ]
)
pipeline.fit(X)
learned = pipeline[-1].graph_
print("learned arcs:", learned.number_of_edges())

# %% The binned columns are called x0, x1, ...: map them back to the variable names.
mapping = dict(zip(learned.nodes, X.columns))
import networkx as nx  # noqa: E402

learned = nx.relabel_nodes(learned, mapping)
print("F1 of adjacencies:", round(f1_adjacency(truth, learned), 3))

# %% Tune the number of bins and the BDeu sample size by held-out log-likelihood.
search = GridSearchCV(
    pipeline, {"discretise__n_bins": [2, 3, 4], "learn__criterion__iss": [1, 10]}, cv=3
).fit(X)
print("best:", search.best_params_)
