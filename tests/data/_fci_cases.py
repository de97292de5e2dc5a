# SPDX-License-Identifier: BSD-3-Clause
"""The cases of ``tetrad_fci_oracle.json``: their data, and a test that answers from a table.

Shared by the recording script (:mod:`tests.data.make_tetrad_fci_oracle`, whose docstring
says what the cases are) and the tests that read the oracle.
"""

import hashlib

import numpy as np

from skbn.ci_tests import CIResult, CITest
from skbn.ci_tests._base import BoundCITest
from skbn.datasets import make_erdos_renyi_dag, make_latent_problem

N_GAUSSIAN, N_DISCRETE = 50, 20
NETWORKS = [("asia", 16), ("sachs", None), ("survey", 12), ("cancer", 15)]


def column_names(p: int) -> list[str]:
    """Names whose Java hash codes run in column order (see the module's docstring)."""
    if p > 16:
        raise ValueError("the hash order matches column order for up to 16 variables")
    return ["p" + chr(48 + i) for i in range(p)]


def case_problem(case: dict):
    """The measured data of a case, columns renamed, from its stored arguments."""
    if case["kind"] == "gaussian":
        n_nodes, seed = case["n_nodes"], case["seed"]
        dag = make_erdos_renyi_dag(n_nodes, 2 * n_nodes, random_state=seed)
        problem = make_latent_problem(dag, n_samples=case["n_samples"], random_state=seed)
    else:
        problem = make_latent_problem(
            case["network"],
            n_nodes=case["n_nodes"],
            kind="discrete",
            n_samples=case["n_samples"],
            random_state=case["seed"],
        )
    X = problem.X.copy()
    X.columns = column_names(X.shape[1])
    return X


def fingerprint(X) -> dict:
    """What identifies the data: correlations (Gaussian), a hash of the codes (discrete)."""
    if all(X[c].dtype.kind == "f" for c in X.columns):
        return {"corr": np.round(np.corrcoef(X.to_numpy(), rowvar=False), 6).tolist()}
    codes = np.column_stack([X[c].astype("category").cat.codes.to_numpy() for c in X.columns])
    return {"codes_sha256": hashlib.sha256(codes.astype(np.int64).tobytes()).hexdigest()}


def test_key(x: int, y: int, cond) -> str:
    """How a test is stored: ``"x,y|c1,c2"`` with ``x < y`` and the set sorted."""
    return f"{min(x, y)},{max(x, y)}|" + ",".join(map(str, sorted(int(c) for c in cond)))


class TableTest(CITest):
    """A CI test that answers from a table of p-values (``test_key`` -> p-value).

    ``ask(x, y, cond)`` answers a test the table lacks and adds it (recording); without it
    such a test raises a ``KeyError`` that says to record the oracle again.
    """

    data_kind = "discrete"

    def __init__(self, table: dict, ask=None) -> None:
        self.table = table
        self.ask = ask

    def _bind(self, data):
        return _BoundTable(self, data)


class _BoundTable(BoundCITest):
    def _test(self, x, y, cond):
        key = test_key(x, y, cond)
        if key not in self.ci_test.table:
            if self.ci_test.ask is None:
                raise KeyError(
                    f"test {key} is not in the stored oracle: FCI asks other tests than when "
                    "it was recorded; run python -m tests.data.make_tetrad_fci_oracle"
                )
            self.ci_test.table[key] = float(self.ci_test.ask(x, y, cond))
        return CIResult(float("nan"), float("nan"), self.ci_test.table[key])


def cases() -> list[dict]:
    out = []
    for i in range(N_GAUSSIAN + N_DISCRETE):
        case = {"alpha": [0.01, 0.05][i % 2], "depth": [-1, -1, 2][i % 3]}
        if i < N_GAUSSIAN:
            case.update(kind="gaussian", seed=i, n_nodes=9 + i % 9, n_samples=1000)
        else:
            network, n_nodes = NETWORKS[i % len(NETWORKS)]
            case.update(kind="discrete", seed=i, network=network, n_nodes=n_nodes, n_samples=2000)
        out.append(case)
    return out
