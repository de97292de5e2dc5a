# SPDX-License-Identifier: BSD-3-Clause
"""Draw docs/architecture_layers.png: skbn's layers and the modules that own each decision.

Run from the repository root: ``python docs/_scripts/architecture.py``.
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

LAYERS = [
    ("command line", ["skbn/cli/: one module per subcommand, names from the registries"]),
    (
        "meta-estimators",
        [
            "model_selection: OTSL, StARS, OCT, InterVal searches",
            "ensemble: bootstrap + poset, PEF, SLE, Auto-SLE",
        ],
    ),
    (
        "resampling engine",
        ["model_selection/_resampling.py: jobs, seeds, failed fits, progress; one policy"],
    ),
    (
        "learners",
        [
            "learners: HillClimb, Tabu, FGES, PC-Stable, MMHC, Exact, OrderMCMC",
            "base.py: data kind, constraints, parameters, score_samples",
        ],
    ),
    (
        "services",
        [
            "scores/_registry.py, ci_tests/_registry.py: family by data kind",
            "constraints.py: allowed, forbidden, required, tiers",
            "utils/_parallel.py: n_jobs, joblib, numba threads",
        ],
    ),
    (
        "scores, tests, graphs",
        ["scores/, ci_tests/ (bound objects, caches)", "graph/ (PDAG arrays, Meek, I/O)"],
    ),
    ("data", ["data.py: check_data -> DiscreteData | GaussianData (encoded once)"]),
    ("kernels", ["_kernels/: numba only; imports nothing from skbn"]),
]
COLOURS = ["#e7f5ff", "#d0ebff", "#fff3bf", "#d3f9d8", "#ffe8cc", "#f3f0ff", "#f1f3f5", "#e6fcf5"]


def main(path: Path) -> None:
    """Draw the layers to ``path``."""
    fig, ax = plt.subplots(figsize=(8, 6.4))
    height, gap = 0.8, 0.18
    for k, (layer, modules) in enumerate(LAYERS):
        y = (len(LAYERS) - 1 - k) * (height + gap)
        ax.add_patch(
            FancyBboxPatch(
                (0, y),
                10,
                height,
                boxstyle="round,pad=0.02,rounding_size=0.08",
                facecolor=COLOURS[k],
                edgecolor="#495057",
                linewidth=0.8,
            )
        )
        ax.text(0.15, y + height / 2, layer, va="center", ha="left", fontsize=10.5, weight="bold")
        for m, text in enumerate(modules):
            offset = (len(modules) - 1) / 2 - m
            ax.text(3.1, y + height / 2 + 0.24 * offset, text, va="center", ha="left", fontsize=8.5)
        if k:
            ax.annotate(
                "",
                xy=(9.6, y + height),
                xytext=(9.6, y + height + gap),
                arrowprops=dict(arrowstyle="->", color="#495057", lw=0.8),
            )
    ax.set_xlim(-0.1, 10.1)
    ax.set_ylim(-0.1, len(LAYERS) * (height + gap))
    ax.axis("off")
    ax.set_title("skbn's layers: each imports only the layers below it", fontsize=12)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    main(Path(__file__).resolve().parents[1] / "architecture_layers.png")
