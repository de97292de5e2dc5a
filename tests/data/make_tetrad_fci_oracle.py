# SPDX-License-Identifier: BSD-3-Clause
"""Record Tetrad's ``Fci`` and ``Rfci`` on sampled data: ``python -m
tests.data.make_tetrad_fci_oracle``.

Needs Tetrad 7.6.8 (see ``examples/benchmarks/_tetrad.py``). Each case is a problem from
:func:`skbn.datasets.make_latent_problem`, its measured columns renamed (below), run through
Tetrad's ``Fci`` (stable FAS, Possible-D-Sep, complete rules, no bound on discriminating
paths) and ``Rfci`` with the test, alpha and depth the case names, each 10 times: Tetrad's
stable FAS runs the nodes of a level on parallel threads, so a pair separated from both of
its ends keeps either set, and the PAG can change from run to run. The distinct PAGs are
stored (``fci_pags``, ``rfci_pags``). The cases:

- 50 Gaussian cases: Erdos-Renyi DAGs of 9 to 17 nodes with twice as many arcs, 10% of
  the nodes hidden, 1,000 standardised rows, Fisher-z;
- 20 discrete cases: bundled networks (asia, sachs, survey, cancer, replicated up to 16 or
  so nodes) with 10% hidden, 2,000 rows, G-square.

Alpha alternates 0.01 / 0.05 and the depth runs -1, -1, 2 over the cases. Stored per case:
the generator's arguments, a fingerprint of the data (the correlation matrix for Gaussian
data, a hash of the codes for discrete data, so that a changed generator fails loudly
rather than silently comparing other data), Tetrad's FAS skeleton and its PAGs.

Tetrad's G-square is not skbn's (it drops rows and columns of a stratum with fewer than one
count per cell, and strata with fewer counts than cells), so on discrete data the two
disagree on some tests. For the discrete cases the script therefore also stores Tetrad's
p-value of every test that ``FCI(variant="tetrad")`` and ``RFCI(variant="tetrad")`` ask
when Tetrad answers them
(``tetrad_pvalues``; 1.0 where Tetrad calls a test with no degree of freedom left
independent); replayed through ``tests.data._fci_cases.TableTest``, they let the tests
compare the two FCIs given the same test decisions. Writes ``tetrad_fci_oracle.json``.

Why the names: Tetrad keeps adjacencies and edges in Java hash sets, so the order in which
it tries separating sets follows the names' hash codes. A name ``"p" + chr(48 + i)`` has
hash code ``3520 + i`` (a multiple of 64 plus ``i``), so for up to 16 measured variables
every hash set Tetrad's ``Fci`` iterates over nodes in runs in column order, the order skbn
uses. The order of its edge and discriminating-path sets still follows the hash codes; the
tests find the cases where that order decides.
"""

import io
from contextlib import redirect_stdout

from examples.benchmarks._tetrad import (
    TETRAD_VERSION,
    edge_strings,
    start_tetrad,
    tetrad_continuous_data,
    tetrad_discrete_data,
)
from skbn.learners import FCI, RFCI
from tests.data import save_oracle
from tests.data._fci_cases import TableTest, case_problem, cases, fingerprint

#: runs of each Tetrad search per case: its results can differ from run to run
RUNS = 10


def _tetrad_pags(build, runs: int) -> list[list[str]]:
    """Tetrad's distinct PAGs over ``runs`` runs (its stable FAS runs the nodes of a level
    on parallel threads, so a pair separated from both ends keeps either set)."""
    found = set()
    for _ in range(runs):
        with redirect_stdout(io.StringIO()):
            found.add(tuple(edge_strings(build().search())))
    return [list(pag) for pag in sorted(found)]


def main() -> None:
    start_tetrad()
    from edu.cmu.tetrad.search import Fas, Fci, Rfci
    from edu.cmu.tetrad.search.test import IndTestFisherZ, IndTestGSquare

    out = []
    for case in cases():
        X = case_problem(case)
        if case["kind"] == "gaussian":
            test = IndTestFisherZ(tetrad_continuous_data(X), case["alpha"])
        else:
            test = IndTestGSquare(tetrad_discrete_data(X), case["alpha"])
        fas = Fas(test)
        fas.setStable(True)
        fas.setDepth(case["depth"])
        with redirect_stdout(io.StringIO()):
            skeleton = fas.search()

        def fci(test=test, depth=case["depth"]):
            search = Fci(test)
            search.setStable(True)
            search.setDepth(depth)
            search.setDoPossibleDsep(True)
            search.setCompleteRuleSetUsed(True)
            search.setMaxDiscriminatingPathLength(-1)
            return search

        def rfci(test=test, depth=case["depth"]):
            search = Rfci(test)
            search.setDepth(depth)
            search.setMaxDiscriminatingPathLength(-1)
            return search

        extra = {}
        if case["kind"] == "discrete":
            variables = test.getVariables()

            def ask(x, y, cond, test=test, variables=variables, alpha=case["alpha"]):
                from java.util import HashSet

                given = HashSet()
                for c in cond:
                    given.add(variables.get(int(c)))
                result = test.checkIndependence(variables.get(int(x)), variables.get(int(y)), given)
                pvalue, independent = float(result.getPValue()), bool(result.isIndependent())
                # Tetrad calls a test with no degree of freedom left independent (p-value
                # NaN): stored as 1.0, so that the replayed test decides as Tetrad did
                if (pvalue > alpha) != independent:
                    pvalue = 1.0 if independent else 0.0
                return pvalue

            table: dict = {}
            depth = None if case["depth"] < 0 else case["depth"]
            for learner in (FCI, RFCI):
                replayed = TableTest(table, ask)
                learner(replayed, alpha=case["alpha"], max_cond_size=depth, variant="tetrad").fit(X)
            extra["tetrad_pvalues"] = dict(sorted(table.items()))
        out.append(
            {
                **case,
                **extra,
                "columns": list(X.columns),
                "data": fingerprint(X),
                "skeleton": sorted(sorted(str(e).split(" ")[0::2]) for e in skeleton.getEdges()),
                "runs": RUNS,
                "fci_pags": _tetrad_pags(fci, RUNS),
                "rfci_pags": _tetrad_pags(rfci, RUNS),
                "tetrad": TETRAD_VERSION,
            }
        )
        print(
            case["kind"],
            case["seed"],
            X.shape,
            len(out[-1]["fci_pags"]),
            len(out[-1]["rfci_pags"]),
            "distinct PAGs",
            flush=True,
        )
    save_oracle("tetrad_fci_oracle", out)


if __name__ == "__main__":
    main()
