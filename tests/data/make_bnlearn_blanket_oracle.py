# SPDX-License-Identifier: BSD-3-Clause
"""Record bnlearn's Markov-blanket learners: ``python -m tests.data.make_bnlearn_blanket_oracle``.

Needs R with bnlearn (4.9 was used). For each case (network, sample size, seed: skbn's
sampler regenerates the data, written with every value as a string, so only bnlearn's answers
are stored) and each method (``gs``, ``iamb``, ``inter.iamb``, ``fast.iamb``, ``iamb.fdr``,
``si.hiton.pc``), with ``test="mi"`` and ``alpha=0.05``: ``learn.mb`` for every variable
(``learn.nbr`` for ``si.hiton.pc``, whose sets are parents and children), and the arcs of the
whole learner's graph (an undirected edge as both arcs; ``si.hiton.pc`` with
``undirected = FALSE``, so that it orients). Writes ``bnlearn_blanket_oracle.json``.
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
METHODS = ["gs", "iamb", "inter.iamb", "fast.iamb", "iamb.fdr", "si.hiton.pc"]
R = r"""
suppressMessages(library(bnlearn))
args <- commandArgs(trailingOnly = TRUE)
data <- read.csv(args[1], colClasses = "character", check.names = FALSE, na.strings = character(0))
data[] <- lapply(data, factor)
for (m in c("gs", "iamb", "inter.iamb", "fast.iamb", "iamb.fdr", "si.hiton.pc")) {
  for (v in names(data)) {
    mb <- if (m == "si.hiton.pc") learn.nbr(data, node = v, method = m, test = "mi", alpha = 0.05)
          else learn.mb(data, node = v, method = m, test = "mi", alpha = 0.05)
    cat("mb", m, v, paste(mb, collapse = "|"), "\n", sep = "\t")
  }
  # local discovery (si.hiton.pc) returns a skeleton unless told to orient it
  g <- if (m == "si.hiton.pc") si.hiton.pc(data, test = "mi", alpha = 0.05, undirected = FALSE)
       else get(m)(data, test = "mi", alpha = 0.05)
  a <- arcs(g)
  for (i in seq_len(nrow(a))) cat("arc", m, a[i, 1], a[i, 2], "\n", sep = "\t")
}
cat("version", as.character(packageVersion("bnlearn")), "\n", sep = "\t")
"""


def main() -> None:
    out = []
    for case, _, lines in run_on_samples(R, CASES):
        case.update({m: {"blankets": {}, "arcs": []} for m in METHODS})
        for line in lines:
            kind, *rest = [f.strip() for f in line.split("\t")]
            if kind == "mb":
                method, node, members = rest[:3]
                case[method]["blankets"][node] = sorted(filter(None, members.split("|")))
            elif kind == "arc":
                method, u, v = rest[:3]
                case[method]["arcs"].append([u, v])
            elif kind == "version":
                case["bnlearn"] = rest[0]
        out.append(case)
    save_oracle("bnlearn_blanket_oracle", out)


if __name__ == "__main__":
    main()
