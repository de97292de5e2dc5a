# SPDX-License-Identifier: BSD-3-Clause
"""Run an R script on samples of bundled networks: what the oracle-recording scripts share."""

import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from skbn.datasets import load_network


def run_on_samples(script: str, cases, args=None) -> Iterator[tuple[dict, Path, list[str]]]:
    """For each ``(network, n, seed)``, run ``script`` on the sample and yield its output.

    The sample is drawn by skbn's sampler and written to CSV with every value a string (so
    the oracles store only R's answers: the tests draw the same sample again); the script
    gets the CSV's path as its argument, then ``args(network)`` if given. Yields
    ``({"network", "n", "seed"}, csv path, stdout lines)``, the path still readable (for
    files the script wrote beside it).
    """
    with tempfile.TemporaryDirectory() as tmp:
        runner = Path(tmp) / "run.R"
        runner.write_text(script)
        for network, n, seed in cases:
            path = Path(tmp) / f"{network}.csv"
            load_network(network).sample(n, random_state=seed).astype(str).to_csv(path, index=False)
            lines = subprocess.run(
                ["Rscript", str(runner), str(path), *(args(network) if args else [])],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.splitlines()
            yield {"network": network, "n": n, "seed": seed}, path, lines
