# SPDX-License-Identifier: BSD-3-Clause
"""Record bnlearn's tree learners: ``python -m tests.data.make_bnlearn_tree_oracle``.

Needs R with bnlearn (4.9 was used). For each case (network, sample size, seed: skbn's
sampler regenerates the data, every value a string, so only bnlearn's answers are stored):
the skeleton of ``chow.liu`` (mutual information, ``mi``) and the arcs of ``tree.bayes``
with each listed class variable. Writes ``bnlearn_tree_oracle.json``.
"""

from tests.data import save_oracle
from tests.data._rscript import run_on_samples

CASES = [
    ("asia", 2000, 1),
    ("sachs", 2000, 2),
    ("child", 2000, 7),
    ("insurance", 2000, 9),
    ("alarm", 3000, 8),
]
CLASSES = {
    "asia": ["either", "dysp"],
    "sachs": ["Akt"],
    "child": ["Disease"],
    "insurance": ["Accident"],
    "alarm": ["BP", "HR"],
}
R = r"""
suppressMessages(library(bnlearn))
args <- commandArgs(trailingOnly = TRUE)
data <- read.csv(args[1], colClasses = "character", check.names = FALSE, na.strings = character(0))
data[] <- lapply(data, factor)
a <- arcs(chow.liu(data, mi = "mi"))
for (i in seq_len(nrow(a))) cat("cl", a[i, 1], a[i, 2], "\n", sep = "\t")
for (target in strsplit(args[2], ",")[[1]]) {
  a <- arcs(tree.bayes(data, training = target, mi = "mi"))
  for (i in seq_len(nrow(a))) cat("tan", target, a[i, 1], a[i, 2], "\n", sep = "\t")
}
cat("version", as.character(packageVersion("bnlearn")), "\n", sep = "\t")
"""


def main() -> None:
    out = []
    classes = lambda network: [",".join(CLASSES[network])]  # noqa: E731
    for case, _, lines in run_on_samples(R, CASES, classes):
        case.update({"chow_liu": [], "tan": {}})
        for line in lines:
            kind, *rest = [f.strip() for f in line.split("\t")]
            if kind == "cl":
                case["chow_liu"].append(sorted(rest[:2]))
            elif kind == "tan":
                case["tan"].setdefault(rest[0], []).append(rest[1:3])
            elif kind == "version":
                case["bnlearn"] = rest[0]
        out.append(case)
    save_oracle("bnlearn_tree_oracle", out)


if __name__ == "__main__":
    main()
