# SPDX-License-Identifier: BSD-3-Clause
"""From a learned graph to a model: fit parameters, save BIF/NET/XDSL, query it, here and elsewhere.

Run with ``python examples/graph_to_model.py``; about 3 s on 2 cores, numba kernels compiled.
The last two cells need the ``interop`` extra (``pip install "skbn[interop]"``: pgmpy and
pyAgrum); without it they say so and the script ends cleanly.
"""

import tempfile
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from skbn import HillClimb, PCStable
from skbn.datasets import load_network, make_erdos_renyi_dag, make_linear_gaussian
from skbn.inference import loopy_belief_propagation
from skbn.io import read_network, to_pgmpy, to_pyagrum, write_network
from skbn.parameters import fit_network

# %% Learn a structure; the fitted learner carries its network (structure + labelled CPTs).
X = load_network("alarm").sample(5000, random_state=0)
hc = HillClimb().fit(X)
net = hc.network_
print(net)
table = net.cpts["HR"].reshape(-1, net.arities["HR"])
index = pd.MultiIndex.from_product(
    [net.states[u] for u in net.parents["HR"]], names=list(net.parents["HR"])
)
print(pd.DataFrame(table, index=index, columns=net.states["HR"]).round(3))

# %% The same likelihood as the learner's score_samples, and another prior on demand.
assert np.allclose(net.log_likelihood(X), hc.score_samples(X))
mle = fit_network(hc.graph_, X, method="mle")
print(
    "mean log-likelihood, bayes prior:",
    round(float(net.log_likelihood(X).mean()), 4),
    " maximum likelihood:",
    round(float(mle.log_likelihood(X).mean()), 4),
)

# %% A CPDAG (PC-Stable's output) is fitted through a consistent DAG extension.
pc_net = PCStable().fit(X).network_
print("PC-Stable network:", pc_net.n_arcs, "arcs,", pc_net.n_parameters, "parameters")

# %% Save in the three formats other tools read, and read each back unchanged.
folder = Path(tempfile.mkdtemp())
for suffix in (".bif", ".net", ".xdsl"):
    path = folder / f"alarm_learned{suffix}"
    write_network(net, path)
    back = read_network(path)
    same = all(np.allclose(back.cpts[v], net.cpts[v], rtol=0, atol=1e-15) for v in net.nodes)
    print(f"{path.name:<20} {path.stat().st_size:>7} bytes, read back identical: {same}")

# %% Continuous data: a linear-Gaussian network (coefficients, intercepts, noise).
dag = make_erdos_renyi_dag(8, 10, random_state=0)
Xg = make_linear_gaussian(dag, random_state=0).sample(2000, random_state=1) + 10.0
gaussian = fit_network(dag, Xg)
print(gaussian, "means", gaussian.means.round(2)[:4], "...")

# %% Ask it a question in skbn: exactly, and by loopy belief propagation (for networks
# whose exact elimination would not fit; approximate on networks with loops, as ALARM is).
exact = net.query("LVFAILURE", {"HR": "HIGH"})
approx, converged = loopy_belief_propagation(net, "LVFAILURE", {"HR": "HIGH"})
print("P(LVFAILURE | HR = HIGH), skbn exact:", exact.round(6).to_dict())
print("                    loopy BP:", approx.round(6).to_dict(), "converged:", converged)

# %% Query in pgmpy and pyAgrum (their exact inference on our network).
try:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pgmpy announces deprecations of its own APIs
        from pgmpy.inference import VariableElimination
    import pyagrum as gum
except ImportError as error:
    print(f"skipping the queries ({error.name} is not installed): pip install 'skbn[interop]'")
    raise SystemExit(0) from None

answer = VariableElimination(to_pgmpy(net)).query(["LVFAILURE"], evidence={"HR": "HIGH"})
ie = gum.LazyPropagation(to_pyagrum(net))
ie.setEvidence({"HR": "HIGH"})
ie.makeInference()
by_pyagrum = ie.posterior("LVFAILURE")
print("P(LVFAILURE | HR = HIGH)")
for state in net.states["LVFAILURE"]:
    p1 = answer.get_value(LVFAILURE=state)
    p2 = by_pyagrum[{"LVFAILURE": state}]
    print(f"  {state:<6} skbn {exact[state]:.6f}   pgmpy {p1:.6f}   pyAgrum {p2:.6f}")
