# SPDX-License-Identifier: BSD-3-Clause
"""Tune a learner's penalty out of sample with OTSLSearchCV, and compare with in-sample BIC.

Run with ``python examples/tuning_otsl.py`` (about 6 s on 2 cores, numba kernels compiled);
writes ``tuning_otsl.png``.
"""

import matplotlib

matplotlib.use("Agg")

from skbn.datasets import load_network  # noqa: E402
from skbn.learners import HillClimb  # noqa: E402
from skbn.metrics import precision_recall_f1  # noqa: E402
from skbn.model_selection import (  # noqa: E402
    InSampleSearchCV,
    OTSLSearchCV,
    make_normalised_ebic_scorer,
)
from skbn.plotting import plot_search_curve  # noqa: E402
from skbn.scores import AIC  # noqa: E402

network = load_network("alarm")
X = network.sample(1000, random_state=0)

# %% The OTSL grid: AIC with a penalty of P per parameter, P = 1..20, scored out of sample by
# EBIC with gamma = (P - 1) / 20 on out-of-bag bootstrap rows.
grid = {"criterion__penalty_discount": [1, 3, 5, 8, 12, 16, 20]}
otsl = OTSLSearchCV(
    HillClimb(AIC()),
    grid,
    scoring=make_normalised_ebic_scorer(20),
    n_resamples=5,
    random_state=0,
    n_jobs=2,
).fit(X)
insample = InSampleSearchCV(HillClimb(AIC()), grid, scoring="bic").fit(X)

# %% Which configuration each picks, and how close it is to the truth.
for name, search in (("OTSL", otsl), ("in-sample BIC", insample)):
    f1 = precision_recall_f1(network.graph, search.graph_).f1
    print(f"{name:<14} chose {search.best_params_}  F1 {f1:.3f}")

# %% The out-of-sample score against the penalty, the choice marked.
plot_search_curve(otsl).figure.savefig("tuning_otsl.png", dpi=90, bbox_inches="tight")
