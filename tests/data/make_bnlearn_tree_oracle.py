# SPDX-License-Identifier: BSD-3-Clause
"""Record bnlearn's tree learners: ``python -m tests.data.make_bnlearn_tree_oracle``.

Needs R with bnlearn (4.9 was used). For each case (network, sample size, seed: skbn's
sampler regenerates the data, every value a string, so only bnlearn's answers are stored):
the skeleton of ``chow.liu`` (mutual information, ``mi``) and the arcs of ``tree.bayes``
with each listed class variable. Writes ``bnlearn_tree_oracle.json``.
"""

import json
from pathlib import Path

CASES = [("asia", 2000, 1), ("sachs", 2000, 2), ("child", 2000, 7), ("insurance", 2000, 9),
         ("alarm", 3000, 8)]  # fmt: skip
CLASSES = {"asia": ["either", "dysp"], "sachs": ["Akt"], "child": ["Disease"],
           "insurance": ["Accident"], "alarm": ["BP", "HR"]}  # fmt: skip
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
    import subprocess
    import tempfile

    from skbn.datasets import load_network

    out = []
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "run.R"
        script.write_text(R)
        for network, n, seed in CASES:
            path = Path(tmp) / f"{network}.csv"
            load_network(network).sample(n, random_state=seed).astype(str).to_csv(path, index=False)
            lines = subprocess.run(
                ["Rscript", str(script), str(path), ",".join(CLASSES[network])],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.splitlines()
            case = {"network": network, "n": n, "seed": seed, "chow_liu": [], "tan": {}}
            for line in lines:
                kind, *rest = [f.strip() for f in line.split("\t")]
                if kind == "cl":
                    case["chow_liu"].append(sorted(rest[:2]))
                elif kind == "tan":
                    case["tan"].setdefault(rest[0], []).append(rest[1:3])
                elif kind == "version":
                    case["bnlearn"] = rest[0]
            out.append(case)
    Path(__file__).with_name("bnlearn_tree_oracle.json").write_text(
        json.dumps(out, indent=1) + "\n"
    )


if __name__ == "__main__":
    main()
