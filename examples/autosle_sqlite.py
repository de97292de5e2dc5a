# SPDX-License-Identifier: BSD-3-Clause
"""Learn a structure-learning ensemble with Auto-SLE, in a SQLite study you can resume.

Run with ``python examples/autosle_sqlite.py`` (about 11 s on 2 cores, numba kernels compiled).
Interrupt it and run it again: completed trials are read back from ``autosle_example.db``
instead of recomputed.
"""

from skbn.datasets import make_problem, make_training_problems
from skbn.ensemble import AutoSLEEnsemble, PEFLearner
from skbn.metrics import structure_report

# %% Training problems with known truth: pieces of replicated bnlearn networks.
problems = make_training_problems(10, n_nodes=(5, 40), n_samples=500, random_state=0)

# %% Greedy ensemble construction; each step is a TPE search over PC-Stable and FGES settings.
auto = AutoSLEEnsemble(
    ensemble_size=3,
    n_trials=8,
    problems=problems,
    storage="sqlite:///autosle_example.db",
    random_state=0,
    n_jobs=2,
).learn_members()
for (name, member), gain in zip(auto.members_, auto.gains_):
    print(f"{name:<14} gain {gain:.3f}  {member}")
print(auto.study_.trials_dataframe()[["number", "value", "params_learner"]].tail())

# %% The learned ensemble inside PEF on a 300-variable problem (P/SLE).
X, truth = make_problem("alarm", n_nodes=300, n_samples=1000, random_state=1)
psle = PEFLearner(auto.to_ensemble(), n_jobs=2).fit(X)
print(structure_report(truth, psle.graph_).to_frame()[["f1_adjacency", "f1_arrowhead"]])
