# SPDX-License-Identifier: BSD-3-Clause
"""Every example script runs, with small settings where it has them, from a scratch directory."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

#: The gallery: (script, arguments, a file it must write). Each reads like notebook cells.
GALLERY = [
    ("quickstart.py", [], "quickstart.png"),
    ("pipeline_discretisation.py", [], None),
    ("tuning_otsl.py", [], "tuning_otsl.png"),
    ("compare_interval.py", [], "compare_interval.png"),
    ("bootstrap_strengths.py", [], "bootstrap_strengths.png"),
    ("pef_large.py", ["300"], "pef_clusters.png"),
    ("autosle_sqlite.py", [], "autosle_example.db"),
    ("dask_tuning.py", [], None),
    ("learn_structure.py", [], "alarm_tabu.png"),
    ("sample_bundled_network.py", [], "asia_vs_truth.png"),
    ("graph_to_model.py", [], None),
]


def _run(args, cwd):
    result = subprocess.run(
        [sys.executable, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_every_gallery_script_is_listed():
    scripts = {p.name for p in EXAMPLES.glob("*.py") if not p.name.startswith("reproduce_")}
    assert scripts == {name for name, _, _ in GALLERY}


@pytest.mark.parametrize("script, args, output", GALLERY, ids=[g[0] for g in GALLERY])
def test_gallery_script_runs(script, args, output, tmp_path):
    _run([EXAMPLES / script, *args], tmp_path)
    if output:
        assert (tmp_path / output).exists()


#: Scripts whose optional extra may be missing: (script, modules of the extra).
NEEDS_EXTRA = [("dask_tuning.py", ["dask", "dask.distributed"]), ("graph_to_model.py", ["pgmpy"])]


@pytest.mark.parametrize("script, modules", NEEDS_EXTRA, ids=[s for s, _ in NEEDS_EXTRA])
def test_a_missing_extra_is_named_and_the_script_exits_cleanly(script, modules, tmp_path):
    # a None entry in sys.modules makes "import name" fail, as if it were not installed
    blocker = f"import sys, runpy; sys.modules.update(dict.fromkeys({modules!r})); "
    blocker += f"runpy.run_path({str(EXAMPLES / script)!r}, run_name='__main__')"
    out = _run(["-c", blocker], tmp_path)
    assert "pip install" in out and "skbn[" in out


def test_autosle_reproduction_quick(tmp_path):
    out = tmp_path / "report.md"
    _run([EXAMPLES / "reproduce_autosle.py", "--quick", "--jobs", "1", "--out", out], tmp_path)
    assert "| P/SLE |" in out.read_text()
    assert out.with_suffix(".csv").exists()


def _page_rows(text):
    """(learner, tuner) -> (mean F1, change vs default in %) from the page's summary table."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[3].endswith("%") and cells[2] not in ("mean F1", "---:"):
            rows[(cells[0], cells[1])] = (float(cells[2]), float(cells[3].rstrip("%")))
    return rows


def test_otsl_reproduction_on_one_small_problem(tmp_path):
    import ast

    import pandas as pd

    from skbn.datasets import load_network
    from skbn.learners import FGES
    from skbn.metrics import precision_recall_f1, shd

    out = tmp_path / "otsl.md"
    _run(
        [
            EXAMPLES / "reproduce_otsl.py", "--quick", "--networks", "asia", "--sizes", "300",
            "--families", "OrderMCMC", "FGES", "--jobs", "1", "--out", out,
        ],
        tmp_path,
    )  # fmt: skip
    rows = pd.read_csv(out.with_suffix(".csv"))
    assert {"OTSL", "OCT", "StARS", "in-sample BIC"} <= set(rows.tuner)
    assert set(rows.family) == {"OrderMCMC", "FGES"}
    # every FGES row is what refitting its chosen configuration on the same sample gives
    bn = load_network("asia")
    X = bn.sample(300, random_state=0)
    for row in rows[rows.family == "FGES"].itertuples():
        params = ast.literal_eval(row.chosen) if isinstance(row.chosen, str) else {}
        graph = FGES("bic", **params).fit(X).graph_
        assert row.f1 == pytest.approx(precision_recall_f1(bn.graph, graph).f1, abs=1e-12)
        assert row.shd == shd(bn.graph, graph)
    # the page's summary is the CSV's: mean F1 per (learner, tuner), change against default
    page = _page_rows(out.read_text())
    for (family, tuner), part in rows.groupby(["family", "tuner"]):
        f1 = part.f1.mean()
        default = rows[(rows.family == family) & (rows.tuner == "default")].f1.mean()
        assert page[(family, tuner)][0] == pytest.approx(f1, abs=5e-4)
        assert page[(family, tuner)][1] == pytest.approx(100 * (f1 - default) / default, abs=0.05)


def test_otsl_reproduction_merges_parts(tmp_path):
    out = tmp_path / "otsl.md"
    base = [EXAMPLES / "reproduce_otsl.py", "--quick", "--networks", "asia", "--sizes", "300"]
    base += ["--tuners", "BIC", "--jobs", "1", "--out", out]
    _run([*base, "--families", "FGES"], tmp_path)
    _run([*base, "--families", "PCStable", "--merge"], tmp_path)
    _run([*base, "--families", "PCStable", "--merge"], tmp_path)  # replaces, does not add
    text = out.read_text()
    assert "| FGES | in-sample BIC |" in text and "| PCStable | in-sample BIC |" in text
    assert text.count("--families PCStable --merge") == 2  # every contributing command
    rows = out.with_suffix(".csv").read_text().splitlines()[1:]
    assert len(rows) == 6  # (default, OTSL, BIC) x (FGES, PCStable), none doubled


def test_interval_reproduction_on_sachs(tmp_path):
    out = tmp_path / "interval.md"
    _run(
        [
            EXAMPLES / "reproduce_interval.py", "--networks", "sachs", "--points", "400",
            "--subsamples", "2", "--jobs", "1", "--out", out,
        ],
        tmp_path,
    )  # fmt: skip
    assert "| sachs | 400 |" in out.read_text()


def test_pef_reproduction_small(tmp_path):
    out = tmp_path / "pef.md"
    _run(
        [
            EXAMPLES / "reproduce_pef.py", "--seeds", "1", "--large", "0", "--nodes", "100",
            "--networks", "asia", "--jobs", "1", "--out", out,
        ],
        tmp_path,
    )  # fmt: skip
    assert "| asia |" in out.read_text()
