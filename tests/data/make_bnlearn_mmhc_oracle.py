# SPDX-License-Identifier: BSD-3-Clause
"""Record bnlearn's MMPC and MMHC: ``python -m tests.data.make_bnlearn_mmhc_oracle``.

Needs R with bnlearn (4.9 was used). For each case (network, sample size, seed: skbn's
sampler regenerates the data, every value a string, so only bnlearn's answers are stored):
the skeleton of ``mmpc(test = "mi", alpha = 0.05)`` and the arcs of ``mmhc`` with the same
test (BIC hill climbing). Writes ``bnlearn_mmhc_oracle.json``.
"""

from tests.data import save_oracle
from tests.data._rscript import run_on_samples

CASES = [
    ("asia", 2000, 1),
    ("sachs", 2000, 2),
    ("child", 2000, 7),
    ("insurance", 2000, 9),
    ("alarm", 3000, 8),
    ("hailfinder", 2000, 3),
]
R = r"""
suppressMessages(library(bnlearn))
args <- commandArgs(trailingOnly = TRUE)
data <- read.csv(args[1], colClasses = "character", check.names = FALSE, na.strings = character(0))
data[] <- lapply(data, factor)
a <- arcs(mmpc(data, test = "mi", alpha = 0.05))
for (i in seq_len(nrow(a))) cat("pc", a[i, 1], a[i, 2], "\n", sep = "\t")
a <- arcs(mmhc(data, restrict.args = list(test = "mi", alpha = 0.05)))
for (i in seq_len(nrow(a))) cat("hc", a[i, 1], a[i, 2], "\n", sep = "\t")
cat("version", as.character(packageVersion("bnlearn")), "\n", sep = "\t")
"""


def main() -> None:
    out = []
    for case, _, lines in run_on_samples(R, CASES):
        case.update({"mmpc": [], "mmhc": []})
        for line in lines:
            kind, *rest = [f.strip() for f in line.split("\t")]
            if kind == "pc":
                pair = sorted(rest[:2])
                if pair not in case["mmpc"]:
                    case["mmpc"].append(pair)
            elif kind == "hc":
                case["mmhc"].append(rest[:2])
            elif kind == "version":
                case["bnlearn"] = rest[0]
        out.append(case)
    save_oracle("bnlearn_mmhc_oracle", out)


if __name__ == "__main__":
    main()
