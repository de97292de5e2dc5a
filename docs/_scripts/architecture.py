# SPDX-License-Identifier: BSD-3-Clause
"""Draw skbn's layers from ``skbn._layers.LAYERS``, the table ``tests/test_layers.py`` checks.

The documentation build calls :func:`main` (``docs/conf.py``); by hand:
``python docs/_scripts/architecture.py out.png``.
"""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

from skbn._layers import LAYERS  # noqa: E402

COLOURS = ["#e6fcf5", "#f1f3f5", "#f3f0ff", "#ffe8cc", "#d3f9d8", "#fff3bf", "#d0ebff", "#e7f5ff"]


def _modules(modules: dict) -> list[str]:
    """Short module names, wrapped three to a line."""
    names = [m.removeprefix("skbn.") if m != "skbn" else "skbn/__init__" for m in modules]
    return [", ".join(names[i : i + 3]) for i in range(0, len(names), 3)]


def main(path: Path) -> None:
    """Draw the layers, highest on top, to ``path``."""
    rows = [(n, name, what, _modules(modules)) for n, name, what, modules in LAYERS][::-1]
    heights = [0.42 + 0.22 * max(len(lines), 1) for *_, lines in rows]
    gap = 0.14
    total = sum(heights) + gap * (len(rows) - 1)
    fig, ax = plt.subplots(figsize=(9, 0.62 * total + 0.6))
    y = total
    for k, ((number, name, what, lines), height) in enumerate(zip(rows, heights)):
        y -= height
        ax.add_patch(
            FancyBboxPatch(
                (0, y),
                10,
                height,
                boxstyle="round,pad=0.02,rounding_size=0.06",
                facecolor=COLOURS[number % len(COLOURS)],
                edgecolor="#495057",
                linewidth=0.8,
            )
        )
        middle = y + height / 2
        ax.text(0.12, middle + 0.1, f"{number}  {name}", va="center", fontsize=10, weight="bold")
        ax.text(0.12, middle - 0.13, what, va="center", fontsize=7.5, color="#495057")
        for m, text in enumerate(lines):
            offset = (len(lines) - 1) / 2 - m
            ax.text(3.6, middle + 0.22 * offset, text, va="center", fontsize=8, family="monospace")
        if k:
            ax.annotate(
                "",
                xy=(9.7, y + height),
                xytext=(9.7, y + height + gap),
                arrowprops=dict(arrowstyle="->", color="#495057", lw=0.8),
            )
        y -= gap
    ax.set_xlim(-0.1, 10.1)
    ax.set_ylim(-0.1, total + 0.1)
    ax.axis("off")
    ax.set_title("skbn's layers: each module imports only its layer and those below", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
