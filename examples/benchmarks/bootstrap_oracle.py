# SPDX-License-Identifier: BSD-3-Clause
"""BootstrapPosetLearner step by step against the authors' R code, on identical inputs.

Caravagna & Ramazzotti's code (``src/perform.bootstrap.inference.R`` of
github.com/caravagn/Bootstrap-based-Learning) draws its resamples, random starts and
permutations inside its functions, with R's random numbers. This script runs those functions
in R, one bootstrap at a time, after recording the draws each is about to make (the same
seed is restored before the authors' function runs, so it draws the same numbers), and
then gives skbn exactly those inputs:

1. phase 1: each bootstrap resample and random-chain start, through the authors'
   ``perform.likelihood.fit`` (bnlearn ``hc``, BIC) and skbn's ``HillClimb(BIC(),
   start_graph=chain, tie_order="columns")``;
2. the confidence poset from the authors' phase-1 graphs: the authors'
   ``estimate.confidence.poset`` and skbn's ``poset_from_counts`` (both break ties between
   equal counts at random, so skbn is run with 200 seeds and the script reports whether the
   authors' poset is among its outcomes);
3. phase 2: each resample, column-permuted null and random start arc, through the authors'
   ``perform.constrained.likelihood.fit`` and skbn's ``HillClimb`` with
   ``allowed_edges=poset``;
4. the p-values and FDR q-values from the authors' phase-2 counts: the authors'
   ``get.pvalue.estimate`` and skbn's ``edge_pvalues(test="proportion",
   correction="fdr_bh")``, and the arcs kept at ``alpha``.

With ``--agony-binary`` (the authors' ``agony`` program, built from their ``agony/src``:
``g++ -O3 -o agony graph.cpp agony.cpp read.cpp``), the agony poset is compared too: the
minimum agony of both rankings, and the poset up to ties.

Needs R with bnlearn and igraph, and the authors' file (``--authors-code``); without them
the script says so and exits.

Usage (the command behind the table in docs/methods/bootstrap.md)::

    git clone https://github.com/caravagn/Bootstrap-based-Learning /tmp/bbl
    python -m examples.benchmarks.bootstrap_oracle \\
        --authors-code /tmp/bbl/src/perform.bootstrap.inference.R \\
        --out examples/benchmarks/results/bootstrap_oracle/bootstrap_oracle.csv
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from examples.benchmarks._results import write_manifest
from skbn.datasets import load_network
from skbn.ensemble import edge_pvalues, poset_from_counts
from skbn.ensemble._poset import agony, agony_ranks
from skbn.graph._array import has_path
from skbn.learners import HillClimb
from skbn.scores import BIC

R_DRIVER = r"""
suppressMessages({library(bnlearn); library(igraph)})
args <- commandArgs(trailingOnly = TRUE)
source(args[1])  # the authors' functions
data <- read.csv(args[2], colClasses = "character", check.names = FALSE)
for (j in seq_along(data)) data[[j]] <- factor(data[[j]])
out <- args[3]; B1 <- as.integer(args[4]); B2 <- as.integer(args[5])
set.seed(as.integer(args[6]))
n <- nrow(data); p <- ncol(data)
arcs <- function(A, b, what) {
  w <- which(A == 1, arr.ind = TRUE)
  if (nrow(w) == 0) return(NULL)
  data.frame(b = b, what = what, from = w[, 1] - 1, to = w[, 2] - 1)
}
rows <- list(); fits <- list(); phase1 <- list()
keep <- function(b, phase, what, v) {
  rows[[length(rows) + 1]] <<- data.frame(b = b, phase = phase, what = what,
                                          k = seq_along(v), v = v - 1)
}
for (b in 1:B1) {
  idx <- sample(1:n, size = n, replace = TRUE)
  state <- .Random.seed
  chain <- sample(1:p, size = p, replace = FALSE)  # what perform.likelihood.fit draws next
  .Random.seed <- state
  A <- perform.likelihood.fit(data[idx, ], "bic", "hc")
  phase1[[b]] <- A
  keep(b, 1, "rows", idx)
  keep(b, 1, "chain", chain)
  fits[[length(fits) + 1]] <- arcs(A, b, "phase1")
}
poset <- estimate.confidence.poset(phase1, data)
fits[[length(fits) + 1]] <- arcs(poset, 0, "poset")
if (length(args) >= 7) {  # the agony poset, with the authors' compiled agony binary
  dir <- paste0(out, "_agony")
  dir.create(dir, showWarnings = FALSE)
  get.agony.edges.list(phase1, file.path(dir, "inputs.txt"))
  system(paste(args[7], file.path(dir, "inputs.txt"), file.path(dir, "outputs.txt")),
         ignore.stdout = TRUE)
  ranks <- read.table(file.path(dir, "outputs.txt"))
  write.csv(data.frame(node = ranks[, 1] - 1, rank = ranks[, 2]),
            paste0(out, "_agony_ranks.csv"), row.names = FALSE)
  fits[[length(fits) + 1]] <- arcs(build.agony.poset(file.path(dir, "outputs.txt"), data,
                                                     phase1), 0, "agony")
}
valid <- which(poset == 1, arr.ind = TRUE)
model <- list(); null <- list()
for (b in 1:B2) {
  idx <- sample(1:n, size = n, replace = TRUE)
  resampled <- data[idx, ]
  resampled_null <- resampled
  for (col in 1:p) {
    perm <- sample(1:n, size = n, replace = FALSE)
    resampled_null[, col] <- resampled_null[perm, col]
    keep(b, 2, paste0("perm", col - 1), perm)
  }
  keep(b, 2, "rows", idx)
  for (kind in c("model", "null")) {
    state <- .Random.seed
    start <- if (nrow(valid) > 1) sample((1:nrow(valid)), size = 1) else 0
    .Random.seed <- state
    X <- if (kind == "model") resampled else resampled_null
    A <- perform.constrained.likelihood.fit(X, poset, "bic", "hc")
    if (kind == "model") model[[b]] <- A else null[[b]] <- A
    keep(b, 2, paste0("start_", kind), start)
    fits[[length(fits) + 1]] <- arcs(A, b, kind)
  }
}
pv <- get.pvalue.estimate(list(model = model, null = null), poset)
tests <- data.frame(from = valid[, 1] - 1, to = valid[, 2] - 1,
                    pvalue = pv$pvalues[valid], qvalue = pv$qvalues.fdr[valid])
write.csv(do.call(rbind, rows), paste0(out, "_draws.csv"), row.names = FALSE)
write.csv(do.call(rbind, fits), paste0(out, "_fits.csv"), row.names = FALSE)
write.csv(tests, paste0(out, "_tests.csv"), row.names = FALSE)
"""


def _matrix(arcs: pd.DataFrame, p: int) -> np.ndarray:
    A = np.zeros((p, p), dtype=bool)
    A[arcs["from"].to_numpy(int), arcs["to"].to_numpy(int)] = True
    return A


def _hc(X: pd.DataFrame, start: np.ndarray, allowed=None) -> np.ndarray:
    learner = HillClimb(BIC(), start_graph=start.astype(np.int8), tie_order="columns")
    if allowed is not None:
        learner.set_params(allowed_edges=allowed)
    graph = learner.fit(X).graph_
    index = {name: k for k, name in enumerate(X.columns)}
    A = np.zeros((X.shape[1],) * 2, dtype=bool)
    for u, v in graph.edges:
        A[index[u], index[v]] = True
    return A


def _same_rule_with_their_ties(counts: np.ndarray, theirs: np.ndarray, tries: int = 200) -> bool:
    """Whether the loop removal gives ``theirs`` under some order of the tied counts.

    The rule (both codes): observed arcs, lowest count first, each dropped if it closes a
    directed cycle; equal counts in random order. Among equal counts, the arcs that
    ``theirs`` dropped are taken before those it kept, in ``tries`` random orders; if one
    reproduces ``theirs``, the two posets differ only by how ties fell.
    """
    rows, cols = np.nonzero(counts > 0)
    rng = np.random.default_rng(0)
    for _ in range(tries):
        A = counts > 0
        order = np.lexsort((rng.permutation(len(rows)), theirs[rows, cols], counts[rows, cols]))
        for k in order.tolist():
            i, j = int(rows[k]), int(cols[k])
            if A[i, j] and has_path(A, j, i):
                A[i, j] = False
        if np.array_equal(A, theirs):
            return True
    return False


def _bic_gap(X: pd.DataFrame, ours: np.ndarray, theirs: np.ndarray) -> float:
    """BIC of skbn's graph minus BIC of the authors' on the same rows (0: a tie)."""
    bound = BIC().bind(X)
    p = X.shape[1]

    def total(A):
        return sum(bound.local_score(j, np.flatnonzero(A[:, j]).tolist()) for j in range(p))

    return float(total(ours) - total(theirs))


def compare(network, n, b1, b2, seed, authors: Path, alpha: float, agony_binary=None):
    X = load_network(network).sample(n, random_state=seed).astype(str)
    p = X.shape[1]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        X.to_csv(tmp / "data.csv", index=False)
        (tmp / "driver.R").write_text(R_DRIVER)
        command = [
            "Rscript",
            str(tmp / "driver.R"),
            str(authors),
            str(tmp / "data.csv"),
            str(tmp / "out"),
            str(b1),
            str(b2),
            str(seed),
        ]
        if agony_binary is not None:
            command.append(str(agony_binary))
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode:
            raise RuntimeError(result.stderr[-3000:])
        # keep_default_na=False: pandas would read the label "null" as a missing value
        draws = pd.read_csv(tmp / "out_draws.csv", keep_default_na=False)
        fits = pd.read_csv(tmp / "out_fits.csv", keep_default_na=False)
        tests = pd.read_csv(tmp / "out_tests.csv")
        ranks = pd.read_csv(tmp / "out_agony_ranks.csv") if agony_binary is not None else None

    def draw(b, phase, what):
        part = draws[(draws["b"] == b) & (draws["phase"] == phase) & (draws["what"] == what)]
        return part.sort_values("k")["v"].to_numpy(int)

    def fit(b, what):
        return _matrix(fits[(fits["b"] == b) & (fits["what"] == what)], p)

    row = dict(network=network, p=p, n=n, seed=seed, b1=b1, b2=b2)
    # 1. phase 1, fit by fit
    theirs1 = [fit(b, "phase1") for b in range(1, b1 + 1)]
    same, gaps = 0, []
    for b in range(1, b1 + 1):
        chain = draw(b, 1, "chain")
        start = np.zeros((p, p), dtype=bool)
        start[chain[:-1], chain[1:]] = True
        resample = X.iloc[draw(b, 1, "rows")].reset_index(drop=True)
        ours = _hc(resample, start)
        if np.array_equal(ours, theirs1[b - 1]):
            same += 1
        else:
            gaps.append(round(_bic_gap(resample, ours, theirs1[b - 1]), 6))
    row["phase1_identical_fits"] = f"{same}/{b1}"
    # 2. the confidence poset from the authors' counts
    counts = np.sum(theirs1, axis=0)
    poset = fit(0, "poset")
    outcomes = [poset_from_counts(counts, "confidence", s) for s in range(200)]
    row["poset_arcs"] = int(poset.sum())
    row["poset_among_skbn_tie_orders"] = any(np.array_equal(poset, o) for o in outcomes)
    row["distinct_skbn_posets_over_200_tie_orders"] = len({o.tobytes() for o in outcomes})
    row["poset_by_the_same_rule_up_to_ties"] = _same_rule_with_their_ties(counts, poset)
    if ranks is not None:
        # 2b. the agony poset: the minimum agony value, and the poset up to ties
        theirs_ranks = np.full(p, -1)
        theirs_ranks[ranks["node"].to_numpy(int)] = ranks["rank"].to_numpy(int)
        row["agony_authors"] = agony(counts, theirs_ranks)
        row["agony_skbn"] = agony(counts, agony_ranks(counts))
        agony_theirs = fit(0, "agony")
        ours = [poset_from_counts(counts, "agony", s) for s in range(200)]
        row["agony_poset_arcs"] = int(agony_theirs.sum())
        row["agony_poset_among_skbn_tie_orders"] = any(
            np.array_equal(agony_theirs, o) for o in ours
        )
        # minimum-agony rankings are not unique: skbn's construction on the authors' ranking
        allowed = (theirs_ranks[:, None] <= theirs_ranks[None, :]) & (theirs_ranks[:, None] >= 0)
        allowed &= theirs_ranks[None, :] >= 0
        np.fill_diagonal(allowed, False)
        restricted = np.where(allowed, counts, 0)
        row["agony_poset_from_authors_ranking_by_the_same_rule_up_to_ties"] = (
            _same_rule_with_their_ties(restricted, agony_theirs)
        )
    # 3. phase 2, fit by fit (real and null)
    arcs = np.argwhere(poset.T)[:, ::-1]  # in R's which(arr.ind = TRUE) order: by column
    same_model = same_null = 0
    real = np.zeros((p, p), dtype=int)
    null = np.zeros((p, p), dtype=int)
    for b in range(1, b2 + 1):
        rows = draw(b, 2, "rows")
        resampled = X.iloc[rows].reset_index(drop=True)
        permuted = resampled.copy()
        for j in range(p):
            permuted.iloc[:, j] = resampled.iloc[draw(b, 2, f"perm{j}"), j].to_numpy()
        for kind, data in (("model", resampled), ("null", permuted)):
            start = np.zeros((p, p), dtype=bool)
            k = draw(b, 2, f"start_{kind}")[0]
            if k >= 0:
                start[arcs[k][0], arcs[k][1]] = True
            ours = _hc(data, start, allowed=poset)
            theirs = fit(b, kind)
            if not np.array_equal(ours, theirs):
                gaps.append(round(_bic_gap(data, ours, theirs), 6))
            if kind == "model":
                same_model += bool(np.array_equal(ours, theirs))
                real += theirs
            else:
                same_null += bool(np.array_equal(ours, theirs))
                null += theirs
    row["phase2_identical_fits"] = f"{same_model}/{b2}"
    row["phase2_identical_null_fits"] = f"{same_null}/{b2}"
    # for each fit that differs: skbn's BIC minus the authors' (0 is a tie between moves)
    row["bic_gaps_of_differing_fits"] = " ".join(map(str, gaps))
    # 4. the tests on the authors' counts
    i, j = tests["from"].to_numpy(int), tests["to"].to_numpy(int)
    pvalues, qvalues = edge_pvalues(real[i, j], null[i, j], b2, test="proportion")
    # R's prop.test gives NaN for an arc in every real and every null fit, and p.adjust then
    # leaves it out of the FDR correction; skbn gives p = 1 and counts it
    finite = np.isfinite(tests["pvalue"].to_numpy())
    row["authors_nan_pvalues"] = int((~finite).sum())
    diff = np.abs(pvalues - tests["pvalue"].to_numpy())[finite]
    row["max_abs_pvalue_difference"] = float(diff.max()) if finite.any() else 0.0
    diff = np.abs(qvalues - tests["qvalue"].to_numpy())[finite]
    row["max_abs_qvalue_difference"] = float(diff.max()) if finite.any() else 0.0
    kept_theirs = tests["qvalue"].to_numpy() < alpha
    row["arcs_kept_authors"] = int(kept_theirs.sum())
    row["arcs_kept_skbn_same_counts"] = int((qvalues < alpha).sum())
    row["kept_sets_equal"] = bool(np.array_equal(kept_theirs, qvalues < alpha))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--authors-code", type=Path, required=True)
    parser.add_argument("--networks", nargs="+", default=["asia", "alarm"])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--b1", type=int, default=50)
    parser.add_argument("--b2", type=int, default=50)
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--alpha", type=float, default=0.01)
    parser.add_argument("--out", type=Path)
    parser.add_argument(
        "--agony-binary", type=Path, help="the authors' agony program, built from agony/src"
    )
    args = parser.parse_args()
    if shutil.which("Rscript") is None or not args.authors_code.is_file():
        print("skipped: needs Rscript (with bnlearn and igraph) and the authors' R file")
        sys.exit(0)
    rows = []
    for network in args.networks:
        for seed in args.seeds:
            rows.append(
                compare(
                    network,
                    args.n,
                    args.b1,
                    args.b2,
                    seed,
                    args.authors_code,
                    args.alpha,
                    args.agony_binary,
                )
            )
            print(rows[-1], flush=True)
    df = pd.DataFrame(rows)
    if args.out:
        df.to_csv(args.out, index=False)
        write_manifest(args.out)
    print(df.to_string(index=False))


if __name__ == "__main__":
    main()
