# SPDX-License-Identifier: BSD-3-Clause
"""Record pyAgrum's exact posteriors on bundled networks (the oracle of skbn.inference).

Run from the repository root (needs pyAgrum 3.3.1):

    python -m tests.data.make_inference_oracle

For each network and each of ``--cases`` random evidence sets (a random quarter of the
nodes, at most 8, each at a state of positive probability drawn by forward sampling, so
no evidence is impossible), pyAgrum's ``LazyPropagation`` gives ``P(e)`` and the
posteriors of three random unobserved targets, and its most probable explanation with
``log2 P(mpe | e)``. Written to ``inference_oracle.json.gz``.
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

import numpy as np
import pyagrum as gum

from skbn.datasets import load_network
from skbn.io import to_pyagrum

HERE = Path(__file__).resolve().parent
NETWORKS = ["asia", "cancer", "sachs", "child", "insurance", "alarm", "water", "hepar2"]


def record(name: str, cases: int, seed: int) -> dict:
    network = load_network(name)
    bn = to_pyagrum(network)
    rng = np.random.default_rng(seed)
    rows = network.sample(cases, random_state=seed)
    out = []
    for i in range(cases):
        k = min(8, max(1, len(network.nodes) // 4))
        observed = rng.choice(len(network.nodes), size=k, replace=False)
        evidence = {network.nodes[j]: str(rows.iloc[i, j]) for j in sorted(observed)}
        free = [v for v in network.nodes if v not in evidence]
        targets = [str(v) for v in rng.choice(free, size=min(3, len(free)), replace=False)]
        engine = gum.LazyPropagation(bn)
        engine.setEvidence(evidence)
        engine.makeInference()
        posteriors = {}
        for v in targets:
            potential = engine.posterior(v)
            labels = list(bn.variable(v).labels())
            values = potential.tolist()
            by_state = dict(zip(labels, values))
            posteriors[v] = [by_state[str(s)] for s in network.states[v]]
        explainer = gum.LazyPropagation(bn)  # a fresh engine: MPE after posteriors fails
        explainer.setEvidence(evidence)
        try:
            explanation, log2_posterior = explainer.mpeLog2Posterior()
        except gum.FatalError:  # pyAgrum 3.3.1 fails on some evidence ("Empty tensor")
            mpe, log2_posterior = None, None
        else:
            mpe = {
                bn.variable(k).name(): bn.variable(k).label(explanation.val(bn.variable(k)))
                for k in range(bn.size())
            }
        out.append(
            {
                "evidence": evidence,
                "probability": engine.evidenceProbability(),
                "posteriors": posteriors,
                "mpe": mpe,
                "mpe_log2_posterior": log2_posterior,
            }
        )
    return {"network": name, "seed": seed, "cases": out}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="+", default=NETWORKS)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=HERE / "inference_oracle.json.gz")
    args = parser.parse_args()
    payload = {
        "recorder": "tests/data/make_inference_oracle.py",
        "library": f"pyAgrum {gum.__version__} LazyPropagation",
        "networks": [record(name, args.cases, seed) for seed, name in enumerate(args.networks)],
    }
    with gzip.open(args.out, "wt") as handle:
        json.dump(payload, handle)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
