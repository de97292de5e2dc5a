# SPDX-License-Identifier: BSD-3-Clause
"""The example notebook runs in a Jupyter kernel and each object shows itself there."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "first_hour.ipynb"


def _outputs(cell) -> dict:
    data = {}
    for output in cell.get("outputs", []):
        data.update(output.get("data", {}))
    return data


@pytest.mark.slow
def test_the_first_hour_notebook_shows_a_graph_a_report_and_a_labelled_table():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3").execute()
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert not any(o.get("output_type") == "error" for c in code for o in c.get("outputs", []))
    graph, report, table = (_outputs(c) for c in code[1:4])
    # the graph as a picture, not "<networkx.classes.digraph.DiGraph at 0x...>"
    assert "<svg" in graph["image/svg+xml"]
    assert "networkx.classes" not in graph["text/plain"]
    # the report as an HTML table with its figures rounded
    assert "<table" in report["text/html"] and "f1_adjacency" in report["text/html"]
    # the table with its states and parents named
    html = table["text/html"]
    assert "<table" in html and "either" in html
    assert "yes" in html and "no" in html and "lung" in html and "tub" in html
