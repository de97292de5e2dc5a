# SPDX-License-Identifier: BSD-3-Clause
"""Every example script runs, with small settings where it has them, from a scratch directory."""

import importlib
import json
import os
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
    ("classification_pipeline.py", [], "classification_blanket.png"),
]


def _command(args):
    """The command line for ``args``: a script of the examples package runs as a module.

    The experiment scripts share code through the ``examples`` package, so they run as
    ``python -m examples.<name>`` with the repository on ``PYTHONPATH`` (the tests run them
    from a scratch directory); a gallery script also runs as a plain file.
    """
    args = list(args)
    first = Path(args[0]) if args and isinstance(args[0], Path) else None
    shared = first is not None and first.parent.name == "benchmarks"
    if shared or (first is not None and first.name.startswith("reproduce_")):
        module = ".".join(first.relative_to(ROOT).with_suffix("").parts)
        args = ["-m", module, *args[1:]]
    return [sys.executable, *map(str, args)]


def _env():
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": str(ROOT) + (os.pathsep + path if path else "")}


def _run(args, cwd):
    result = subprocess.run(
        _command(args), cwd=cwd, env=_env(), capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_every_gallery_script_is_listed():
    scripts = {p.name for p in EXAMPLES.glob("*.py") if not p.name.startswith(("reproduce_", "__"))}
    assert scripts == {name for name, _, _ in GALLERY}


@pytest.mark.slow
@pytest.mark.parametrize("script, args, output", GALLERY, ids=[g[0] for g in GALLERY])
def test_gallery_script_runs(script, args, output, tmp_path):
    _run([EXAMPLES / script, *args], tmp_path)
    if output:
        assert (tmp_path / output).exists()


#: Scripts whose optional extra may be missing: (script, modules of the extra).
NEEDS_EXTRA = [("dask_tuning.py", ["dask", "dask.distributed"]), ("graph_to_model.py", ["pgmpy"])]


@pytest.mark.slow
@pytest.mark.parametrize("script, modules", NEEDS_EXTRA, ids=[s for s, _ in NEEDS_EXTRA])
def test_a_missing_extra_is_named_and_the_script_exits_cleanly(script, modules, tmp_path):
    # a None entry in sys.modules makes "import name" fail, as if it were not installed
    blocker = f"import sys, runpy; sys.modules.update(dict.fromkeys({modules!r})); "
    blocker += f"runpy.run_path({str(EXAMPLES / script)!r}, run_name='__main__')"
    out = _run(["-c", blocker], tmp_path)
    assert "pip install" in out and "skbn[" in out


def _table_rows(text, n_cells):
    """The page's table rows of ``n_cells`` cells (header and rule lines left out)."""
    out = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == n_cells and not cells[-1].startswith("-"):
            out.append(cells)
    return out


def _check_against_refit(rows, method, estimator, problem):
    """The CSV's row of ``method`` is what fitting ``estimator`` on the same problem gives."""
    from skbn.metrics import structure_report

    X, truth = problem
    report = structure_report(truth, estimator.fit(X).graph_)
    row = rows[rows.method == method].iloc[0]
    assert row.f1_adjacency == pytest.approx(report["f1_adjacency"], abs=1e-12)
    assert row.f1_arrowhead == pytest.approx(report["f1_arrowhead"], abs=1e-12)
    assert row.shd == report["shd"]


@pytest.mark.slow
def test_autosle_reproduction_quick(tmp_path):
    import pandas as pd

    from skbn.datasets import make_problem
    from skbn.ensemble import PEFLearner, StructureLearningEnsemble

    out = tmp_path / "report.md"
    _run([EXAMPLES / "reproduce_autosle.py", "--quick", "--jobs", "1", "--out", out], tmp_path)
    rows = pd.read_csv(out.with_suffix(".csv"))
    assert set(rows.network) == {"asia", "cancer"}
    # the paper's ensemble inside PEF, refitted by hand on the first test problem
    problem = make_problem("asia", n_nodes=120, n_samples=1000, random_state=100)
    estimator = PEFLearner(StructureLearningEnsemble.from_paper(), n_jobs=1)
    _check_against_refit(rows[rows.network == "asia"], "P/SLE(paper)", estimator, problem)
    # the page's per-network rows and its means over networks are the CSV's
    text = out.read_text()
    per_network = [c for c in _table_rows(text, 8) if c[0] in set(rows.network)]
    assert len(per_network) == len(rows)
    for network, p, method, adj, arrow, d, *_ in per_network:
        row = rows[(rows.network == network) & (rows.method == method)].iloc[0]
        assert (int(p), float(adj), float(arrow), int(d)) == (
            row.p,
            round(row.f1_adjacency, 3),
            round(row.f1_arrowhead, 3),
            row.shd,
        )
    means = rows.groupby("method")[["f1_adjacency", "f1_arrowhead"]].mean()
    summary = {c[0]: c for c in _table_rows(text, 4) if c[0] in set(means.index)}
    assert set(summary) == set(means.index)
    for method, (_, adj, arrow, _) in summary.items():
        assert float(adj) == pytest.approx(means.loc[method, "f1_adjacency"], abs=5e-4)
        assert float(arrow) == pytest.approx(means.loc[method, "f1_arrowhead"], abs=5e-4)


def _page_rows(text):
    """(setting, learner, tuner) -> (mean F1, change vs default in %, sd over seeds) from the
    page's summary table."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 9 and cells[4].endswith("%") and cells[3] != "mean F1":
            sd = float(cells[5]) if cells[5] else float("nan")
            rows[tuple(cells[:3])] = (float(cells[3]), float(cells[4].rstrip("%")), sd)
    return rows


def _refit_fges(setting, tuner, chosen):
    """The FGES configuration a reproduction row names, built by hand."""
    import ast

    from skbn.learners import FGES
    from skbn.scores import BIC, EBIC

    params = ast.literal_eval(chosen) if isinstance(chosen, str) else {}
    if setting == "authors":
        return FGES("bic", **params)
    if tuner == "default":
        return FGES(BIC())
    return FGES(EBIC(gamma=0.0)).set_params(**params)


@pytest.mark.slow
def test_otsl_reproduction_on_one_small_problem(tmp_path):
    import numpy as np
    import pandas as pd

    from skbn.datasets import load_network
    from skbn.metrics import precision_recall_f1, shd

    out = tmp_path / "otsl.md"
    _run(
        [
            EXAMPLES / "reproduce_otsl.py",
            "--quick",
            "--networks",
            "asia",
            "--sizes",
            "300",
            "--seeds",
            "0",
            "1",
            "--families",
            "OrderMCMC",
            "FGES",
            "--jobs",
            "1",
            "--out",
            out,
        ],
        tmp_path,
    )
    rows = pd.read_csv(out.with_suffix(".csv"))
    assert {"OCT", "StARS", "in-sample BIC", "OTSL (common BIC)", "OTSL (authors' scorer)"} <= set(
        rows.tuner
    )
    assert set(rows.family) == {"OrderMCMC", "FGES"} and set(rows.seed) == {0, 1}
    # every FGES row is what refitting its chosen configuration on the same sample gives
    bn = load_network("asia")
    for row in rows[rows.family == "FGES"].itertuples():
        X = bn.sample(300, random_state=row.seed)
        graph = _refit_fges(row.setting, row.tuner, row.chosen).fit(X).graph_
        assert row.f1 == pytest.approx(precision_recall_f1(bn.graph, graph).f1, abs=1e-12)
        assert row.shd == shd(bn.graph, graph)
    # the page's summary is the CSV's: mean F1, change against the default on the same
    # problems, and the spread of that change over the two seeds
    page = _page_rows(out.read_text())
    titles = {"paper": "paper as stated", "authors": "authors' code"}
    for (setting, family, tuner), part in rows.groupby(["setting", "family", "tuner"]):
        default = rows[(rows.setting == setting) & (rows.family == family)]
        default = default[default.tuner == "default"].set_index("seed").f1
        f1, base = part.f1.mean(), default.loc[part.seed].mean()
        got = page[(titles[setting], family, tuner)]
        assert got[0] == pytest.approx(f1, abs=5e-4)
        assert got[1] == pytest.approx(100 * (f1 - base) / base, abs=0.05)
        if tuner != "default":
            by_seed = 100 * (part.set_index("seed").f1 - default) / default
            assert got[2] == pytest.approx(np.std(by_seed, ddof=1), abs=0.05)


@pytest.mark.slow
def test_otsl_reproduction_merges_parts(tmp_path):
    import pandas as pd

    out = tmp_path / "otsl.md"
    head = [EXAMPLES / "reproduce_otsl.py", "--quick", "--networks", "asia", "--sizes", "300"]
    head += ["--settings", "paper", "--jobs", "1", "--out", out]
    base = [*head, "--tuners", "OTSL", "BIC"]
    _run([*base, "--families", "FGES"], tmp_path)
    _run([*base, "--families", "PCStable", "--merge"], tmp_path)
    first = pd.read_csv(out.with_suffix(".csv"))
    _run([*base, "--families", "PCStable", "--merge"], tmp_path)  # replaces, does not add
    again = pd.read_csv(out.with_suffix(".csv"))
    # (default, three OTSL scorers, BIC) for FGES, (default, two OTSL scorers, BIC) for PC
    assert sorted(again.groupby("family").size().items()) == [("FGES", 5), ("PCStable", 4)]
    pd.testing.assert_frame_equal(
        first.drop(columns="seconds"), again.drop(columns="seconds"), check_like=True
    )
    # a run of one tuner replaces that tuner's rows and keeps the others
    _run([*head, "--tuners", "AIC", "--families", "FGES", "--merge"], tmp_path)
    merged = pd.read_csv(out.with_suffix(".csv"))
    # every run that wrote to the folder is in its manifest, in order, with its command
    runs = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))["runs"]
    assert [r["command"].split("--families ")[1].split()[0] for r in runs] == [
        "FGES",
        "PCStable",
        "PCStable",
        "FGES",
    ]
    assert all(r["command"].startswith("python -m examples.reproduce_otsl") for r in runs)
    assert runs[0]["machine"]["cpus"] >= 1 and runs[0]["date"] <= runs[-1]["date"]
    assert sorted(merged.groupby("family").size().items()) == [("FGES", 6), ("PCStable", 4)]
    runs = (out.with_suffix(".runs.json")).read_text()
    assert runs.count("--families PCStable --merge") == 2  # every contributing command


def test_otsl_findings_rank_tuners_on_shared_problems_only():
    import re

    import pandas as pd

    script = _load_script("reproduce_otsl")
    # three problems; StARS on all of them, OCT (run later) on the first only
    problems = [("asia", 1000, 0), ("asia", 1000, 1), ("alarm", 1000, 0)]
    f1 = {"default": [0.5, 0.4, 0.6], "StARS": [0.6, 0.4, 0.3], "OCT": [0.25]}
    rows = [
        dict(
            setting="paper",
            family="HillClimb",
            network=net,
            n=n,
            seed=seed,
            tuner=tuner,
            f1=value,
            shd=0,
            seconds=0.0,
        )
        for tuner, values in f1.items()
        for (net, n, seed), value in zip(problems, values)
    ]
    (text,) = script.findings(pd.DataFrame(rows))
    main, _, partial = text.partition(" On the ")

    def change(tuner, sentence):
        return float(re.search(rf"{tuner} \(?([-+][0-9.]+)%", sentence).group(1))

    # on all three problems StARS loses (1.3 against 1.5): OCT's one problem is not mixed in
    assert "no tuner improves" in main and "OCT" not in main
    # on OCT's problem: OCT 0.25 and StARS 0.6 against the default's 0.5
    assert partial.startswith("1 problems OCT was run on (1 seed)")
    assert change("by", partial) == pytest.approx(100 * (0.25 - 0.5) / 0.5, abs=0.05)
    assert change("StARS", partial) == pytest.approx(100 * (0.6 - 0.5) / 0.5, abs=0.05)
    assert change("reports", partial) == script.PAPER_F1_CHANGE["HillClimb"]["OCT"]


def test_otsl_tuner_run_beyond_the_others_is_compared_on_shared_problems_in_the_table():
    import pandas as pd

    script = _load_script("reproduce_otsl")
    # StARS and in-sample BIC on two problems; OCT on those and on a third network
    problems = [("asia", 1000, 0), ("asia", 1000, 1), ("hepar2", 1000, 0)]
    f1 = {
        "default": [0.5, 0.4, 0.2],
        "StARS": [0.6, 0.4],
        "in-sample BIC": [0.5, 0.4],
        "OCT": [0.5, 0.5, 0.1],
    }
    rows = [
        dict(
            setting="paper",
            family="MMHC",
            network=net,
            n=n,
            seed=seed,
            tuner=tuner,
            f1=value,
            shd=0,
            seconds=0.0,
            chosen="",
            finite="",
        )
        for tuner, values in f1.items()
        for (net, n, seed), value in zip(problems, values)
    ]
    results = pd.DataFrame(rows)
    table = script.summarise(script.comparable(results)).set_index("tuner")
    # on the two shared problems: default 0.45, OCT 0.5, StARS 0.5
    assert table.loc["default", "f1"] == pytest.approx(0.45)
    assert table.loc["OCT", "change"] == pytest.approx(100 * (0.5 - 0.45) / 0.45)
    (text,) = script.findings(results)
    # on all three of OCT's problems: 1.1 / 3 against the default's 1.1 / 3 -> no change
    assert "On the 3 problems OCT was run on (2 seeds), OCT changes F1 by +0.0%" in text
    page = script.markdown(results, types_namespace(), None, [])
    assert "without hepar2" in page and "(OCT also on hepar2 (n = 1,000, seed 0))" in page


def test_otsl_page_names_the_networks_of_a_size_a_tuner_reached_on_some_only():
    import pandas as pd

    script = _load_script("reproduce_otsl")
    # the default and StARS on two networks at two sizes; OCT at n = 10,000 on asia only
    # (a run stopped after its first network)
    problems = [(net, n, 0) for n in (1000, 10000) for net in ("alarm", "asia")]
    covered = {"default": problems, "StARS": problems, "OCT": problems[:2] + [problems[3]]}
    rows = [
        dict(
            setting="paper",
            family="FGES",
            network=net,
            n=n,
            seed=seed,
            tuner=tuner,
            f1=0.5,
            shd=0,
            seconds=0.0,
            chosen="",
            finite="",
        )
        for tuner, cover in covered.items()
        for (net, n, seed) in cover
    ]
    page = script.markdown(pd.DataFrame(rows), types_namespace(), None, [])
    coverage = page.split("Problems:")[1].split("\n")[0]
    assert "(OCT only at n = 1,000 and 10,000 (on asia), seed 0)" in coverage
    # a tuner with every network at each of its sizes names no networks
    rows = [r for r in rows if not (r["tuner"] == "OCT" and r["n"] == 10000)]
    page = script.markdown(pd.DataFrame(rows), types_namespace(), None, [])
    assert "(OCT only at n = 1,000, seed 0)" in page


def types_namespace():
    import types

    return types.SimpleNamespace(quick=False, resamples=10, oct_folds=10, oct_predictor=None)


def test_otsl_figure_curve_keeps_marks_of_earlier_runs_on_its_seed():
    script = _load_script("reproduce_otsl")

    def curve(seed, marks, f1=(0.5, 0.4)):
        return dict(setting="paper", n=1000, seed=seed, values=[0.0, 1.0], f1=list(f1), marks=marks)

    curves = {}
    script.keep_curve(curves, curve(0, {"OTSL (common AIC)": 1.0, "StARS": 0.0}))
    script.keep_curve(curves, curve(0, {"OCT": 0.0}))  # a later run of OCT alone, same seed
    script.keep_curve(curves, curve(1, {"OCT": 1.0}, f1=(0.1, 0.2)))  # another seed
    assert list(curves) == [("paper", 1000)]
    kept = curves[("paper", 1000)]
    assert kept["seed"] == 0 and kept["f1"] == [0.5, 0.4]
    assert kept["marks"] == {"OTSL (common AIC)": 1.0, "StARS": 0.0, "OCT": 0.0}


def test_otsl_problem_without_a_single_fit_is_left_out_and_named_on_the_page():
    import types

    import numpy as np
    import pandas as pd

    from skbn.learners import OrderMCMC
    from skbn.scores import BDeu

    script = _load_script("reproduce_otsl")
    # 18 binary columns and no search space: every variable has 17 possible parents, more
    # than OrderMCMC enumerates, so every fit on every resample fails
    X = pd.DataFrame(np.random.default_rng(0).integers(0, 2, (40, 18)))
    X.columns = [f"V{i}" for i in range(18)]
    mcmc = OrderMCMC(BDeu(iss=1.0), search_space=None, n_iter=10)
    family = script.Family(
        "OrderMCMC",
        "paper",
        mcmc,
        mcmc,
        {"criterion__iss": [1.0, 2.0]},
        {"OTSL (common BIC)": script.COMMON["OTSL (common BIC)"]},
    )
    args = types.SimpleNamespace(resamples=3, jobs=1)
    with pytest.raises(script.ProblemLeftOut) as err:
        script._run_otsl(family, X, 0, ["OTSL (common BIC)"], None, args)
    reason = str(err.value)
    assert reason.startswith("all 6 OTSL fits failed; the first error: Variable 'V")
    assert "17 possible parents" in reason

    failed = dict(
        setting="paper", family="OrderMCMC", network="asia", n=1000, seed=0, reason=reason
    )
    runs = [{"command": "c", "minutes": 1.0, "complete": True, "failed": [failed]}]
    keys = dict(
        setting="paper",
        family="OrderMCMC",
        network="asia",
        n=1000,
        tuner="default",
        f1=0.5,
        shd=1,
        seconds=0.0,
    )
    other_seed = pd.DataFrame([{**keys, "seed": 1}])
    (paragraph, _) = script._left_out(other_seed, runs)
    assert "OrderMCMC (paper as stated) on asia, n = 1,000, seed 0 (" + reason in paragraph
    # a later run that fitted the problem supersedes the failure
    assert script._left_out(pd.DataFrame([{**keys, "seed": 0}]), runs) == []


@pytest.mark.slow
def test_interval_reproduction_on_sachs(tmp_path):
    import numpy as np
    import pandas as pd

    out = tmp_path / "interval.md"
    _run(
        [
            EXAMPLES / "reproduce_interval.py",
            "--networks",
            "sachs",
            "--points",
            "800",
            "--replicates",
            "2",
            "--subsamples",
            "2",
            "--jobs",
            "1",
            "--out",
            out,
        ],
        tmp_path,
    )
    raw = pd.read_csv(out.with_suffix(".csv"))
    assert set(raw.replicate) == {0, 1} and set(raw.sample_size) == {100, 200, 400}
    assert len(raw) == 2 * 3 * 2 * 6  # replicates x sizes x subsamples x learners
    # the page's per-size correlations and winners are those of the learners' means
    means = raw.groupby(["estimator", "sample_size"])[["phd", "shd"]].mean()
    page = {}
    for line in out.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0] == "sachs" and cells[2].isdigit():
            page[int(cells[2])] = cells[3:]
    assert sorted(page) == [100, 200, 400]
    # a size where one measure is constant over the learners has no correlation
    with np.errstate(invalid="ignore", divide="ignore"):
        for size, (corr, without, best_phd, best_shd) in page.items():
            part = means.xs(size, level="sample_size")
            expected = np.corrcoef(part.phd, part.shd)[0, 1]
            assert (corr == "" and np.isnan(expected)) or float(corr) == pytest.approx(
                expected, abs=5e-3
            )
            rest = part.drop(index="BDeu(10)")
            expected = np.corrcoef(rest.phd, rest.shd)[0, 1]
            assert (without == "" and np.isnan(expected)) or float(without) == pytest.approx(
                expected, abs=5e-3
            )
            assert best_phd == part.phd.idxmin() and best_shd == part.shd.idxmin()
    # the conclusion counts the sizes where the correlation without BDeu(10) is below 0.5
    withouts = [float(w) for _, w, _, _ in page.values() if w != ""]
    low = sum(w < 0.5 for w in withouts)
    assert f"below 0.5 at {'only ' if 4 * low < len(withouts) else ''}{low} of {len(withouts)}" in (
        out.read_text()
    )


@pytest.mark.slow
def test_pef_reproduction_small(tmp_path):
    import pandas as pd

    from skbn.datasets import make_problem
    from skbn.ensemble import PEFLearner
    from skbn.learners import FGES

    out = tmp_path / "pef.md"
    _run(
        [
            EXAMPLES / "reproduce_pef.py",
            "--seeds",
            "1",
            "--large",
            "0",
            "--nodes",
            "100",
            "--networks",
            "asia",
            "--jobs",
            "1",
            "--out",
            out,
        ],
        tmp_path,
    )
    rows = pd.read_csv(out.with_suffix(".csv"))
    assert sorted(rows.method) == ["FGES", "P/FGES", "P/PCStable", "PCStable"]
    problem = make_problem("asia", n_nodes=100, n_samples=1000, random_state=0)
    _check_against_refit(rows, "P/FGES", PEFLearner(FGES("bic"), n_jobs=1), problem)
    _check_against_refit(rows, "FGES", FGES("bic"), problem)
    page = [c for c in _table_rows(out.read_text(), 7) if c[0] == "asia"]
    assert len(page) == len(rows)
    for _, p, method, adj, arrow, d, _ in page:
        row = rows[rows.method == method].iloc[0]
        assert (int(p), float(adj), float(arrow), int(d)) == (
            row.p,
            round(row.f1_adjacency, 3),
            round(row.f1_arrowhead, 3),
            row.shd,
        )


def _load_script_at(path):
    return importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))


def _load_script(name):
    return _load_script_at(EXAMPLES / f"{name}.py")


def test_bootstrap_simulation_draws_noisy_or_tables_and_noise():
    import numpy as np

    script = _load_script("reproduce_bootstrap")
    bn = script.random_network(15, 0.8, seed=3)
    two_parents = [v for v, pa in bn.parents.items() if len(pa) == 2]
    assert two_parents
    for v in two_parents:
        p1 = bn.cpts[v][..., 1]
        # no leak: a child needs a parent that is 1; causes combine as a noisy-OR
        assert p1[0, 0] == 0.0
        assert 1 - p1[1, 1] == pytest.approx((1 - p1[1, 0]) * (1 - p1[0, 1]), abs=1e-12)
    X = bn.sample(4000, random_state=0)
    noisy = script.add_noise(X, 0.2, seed=1)
    flipped = (noisy.to_numpy(int) != X.to_numpy(int)).mean()
    # a value is replaced by a fair coin at rate 0.2, so it changes with probability 0.1
    assert flipped == pytest.approx(0.1, abs=0.005)
    assert np.array_equal(script.add_noise(X, 0.0, seed=1).to_numpy(int), X.to_numpy(int))


@pytest.mark.slow
def test_bootstrap_reproduction_small(tmp_path):
    import pandas as pd

    from skbn.ensemble import BootstrapPosetLearner
    from skbn.learners import HillClimb
    from skbn.scores import BIC

    out = tmp_path / "bootstrap.md"
    _run(
        [
            EXAMPLES / "reproduce_bootstrap.py",
            "--networks",
            "2",
            "--densities",
            "0.6",
            "--samples",
            "150",
            "--noise",
            "0.2",
            "--alarm-seeds",
            "--resamples",
            "10",
            "--readings",
            "arcs_per_node",
            "--jobs",
            "1",
            "--out",
            out,
        ],
        tmp_path,
    )
    rows = pd.read_csv(out.with_suffix(".csv"))
    assert len(rows) == 2 * 10
    script = _load_script("reproduce_bootstrap")

    def counted(truth, arcs):
        true_arcs = set(truth.edges())
        hits = sum(a in true_arcs for a in arcs)
        return hits / len(arcs), hits / len(true_arcs)

    for k in (0, 1):
        bn, X = script.random_problem(0.6, 150, 0.2, k)
        mine = rows[rows.network == k].set_index(["method", "start"])
        g = HillClimb(BIC()).fit(X).graph_
        ppv, tpr = counted(bn.graph, list(g.edges()))
        assert mine.loc[("HC, no restart", "-"), "ppv"] == pytest.approx(ppv, abs=1e-12)
        assert mine.loc[("HC, no restart", "-"), "tpr"] == pytest.approx(tpr, abs=1e-12)
        est = BootstrapPosetLearner(
            n_poset_resamples=10, n_test_resamples=10, start="empty", random_state=k
        ).fit(X)
        ppv, tpr = counted(bn.graph, list(est.graph_.edges()))
        row = mine.loc[("confidence poset, FDR", "empty")]
        assert (row.ppv, row.tpr) == (pytest.approx(ppv, abs=1e-12), pytest.approx(tpr))
    # the page's differences against HC are the CSV's, paired by data set
    part = "random, arcs per node"
    page = {(c[0], c[1], c[2]): c for c in _table_rows(out.read_text(), 8) if c[0] == part}
    for start in ("empty", "random_chain"):
        boot = rows[rows.start == start]
        hc = rows[rows.method == "HC, no restart"].set_index("network")
        dtpr = (boot.tpr.to_numpy() - hc.loc[boot.network, "tpr"].to_numpy()).mean()
        cells = page[(part, "0.2", start.replace("_", " "))]
        assert float(cells[6]) == pytest.approx(dtpr, abs=5e-4)
        assert int(cells[3]) == len(boot)


@pytest.mark.slow
def test_autosle_training_rebuilds_the_saved_members_and_refuses_test_networks(tmp_path):
    import json

    script = _load_script_at(EXAMPLES / "benchmarks" / "autosle_training.py")
    members = EXAMPLES / "benchmarks" / "results" / "autosle" / "autosle.json"
    saved = json.loads(members.read_text(encoding="utf-8"))["members"]
    for name, params in saved:
        rebuilt = script.member(name, params).get_params()
        for key in (
            "criterion",
            "penalty_discount",
            "max_degree",
            "faithfulness",
            "alpha",
            "max_cond_size",
        ):
            if key in params:
                assert str(rebuilt[key]) == params[key]
    # the EBIC columns: FGES members on the default score, everything else as it was
    paper = script.StructureLearningEnsemble.from_paper()
    swapped = script.with_default_score(paper)
    for before, after in zip(paper.estimators, swapped.estimators):
        assert before.criterion == "bic" and after.criterion is None
        assert after.penalty_discount == before.penalty_discount
        assert after.max_degree == before.max_degree
    assert repr(swapped.selection_score) == repr(paper.selection_score)  # still BIC
    assert not set(script.DISJOINT) & set(script.TRAINING_NETWORKS)
    result = subprocess.run(
        _command(
            [
                EXAMPLES / "benchmarks" / "autosle_training.py",
                "--train-networks",
                "sachs",
                "alarm",
                "--out",
                tmp_path / "x.md",
            ]
        ),
        cwd=tmp_path,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode != 0 and "['alarm']" in result.stderr
    assert not (tmp_path / "x.csv").exists()


@pytest.mark.slow
def test_autosle_budget_counts_the_least_penalised_members_clusters(tmp_path):
    script = _load_script_at(EXAMPLES / "benchmarks" / "autosle_budget.py")
    members = [
        ("fges-0", {"penalty_discount": 2.5}),
        ("pc_stable-1", {"alpha": 0.01}),
        ("fges-2", {"penalty_discount": "1.25"}),  # as read back from the JSON
        ("fges-3", {"penalty_discount": 4.0}),
    ]
    assert script.least_penalised(members) == "fges-2"
    assert script.least_penalised([("pc_stable-0", {"alpha": 0.05})]) is None
    # 7 clusters, 3 of them kept fges-2; an empty or NaN cell (a problem without clusters) adds none
    kept = script.pd.Series(
        ["fges-2;fges-0;fges-2", "pc_stable-1", "", float("nan"), "fges-2;fges-3;fges-0"]
    )
    assert script.kept_share(kept, "fges-2") == 3 / 7
    assert script.kept_share(kept, "fges-9") == 0.0
    # the studies of different budgets and seeds never share a name (they would resume)
    names = {
        script.study_name(p, 1000, s, c)
        for p in (5, 10, 20)
        for s in (0, 1)
        for c in ("best", "selected")
    }
    assert len(names) == 12
    # the paper's credit keeps the names and keys of the runs saved before credits existed
    assert script.study_name(20, 1000, 0) == "autosle-disjoint-p20-n1000-s0"
    for credit in ("best", "selected"):
        key = script.run_key(1000, 20, 1, credit)
        assert script._run_key(key) == (1000, 20, 1) and script._credit(key) == credit
    assert script.run_key(1000, 20, 1) == "1000/20/1"
    result = subprocess.run(
        _command(
            [
                EXAMPLES / "benchmarks" / "autosle_budget.py",
                "--train-networks",
                "water",
                "child",
                "--out",
                tmp_path / "x.md",
            ]
        ),
        cwd=tmp_path,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode != 0 and "['child']" in result.stderr
    assert not (tmp_path / "x.csv").exists()


def test_autosle_budget_rebuilds_a_runs_members_from_its_json():
    """The EBIC column of earlier runs rests on members rebuilt from the saved text."""
    from skbn.learners import FGES, PCStable

    script = _load_script_at(EXAMPLES / "benchmarks" / "autosle_budget.py")
    learned = [
        ("fges-0", FGES("bic", penalty_discount=2.643521716712856, max_degree=975)),
        ("pc_stable-1", PCStable(alpha=0.07608924236298537, max_cond_size=2)),
        ("fges-2", FGES("bic", penalty_discount=1.19, max_degree=12, faithfulness=True)),
    ]
    saved = json.loads(
        json.dumps(script.saved_members([(n, est.get_params()) for n, est in learned]))
    )
    rebuilt = script.rebuild(saved)
    assert [n for n, _ in rebuilt.estimators] == [n for n, _ in learned]
    for (_, got), (_, want) in zip(rebuilt.estimators, learned):
        assert type(got) is type(want) and got.get_params() == want.get_params()
    # on skbn's default score only the FGES criterion changes; the discount stays
    ebic = script.with_default_score(rebuilt)
    for (_, got), (_, want) in zip(ebic.estimators, learned):
        expected = want.get_params()
        if isinstance(want, FGES):
            expected["criterion"] = None
        assert got.get_params() == expected


@pytest.mark.slow
def test_bootstrap_poset_recall_counts_admitted_arcs(tmp_path):
    import networkx as nx

    script = _load_script_at(EXAMPLES / "benchmarks" / "bootstrap_poset_recall.py")
    truth = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "d")])
    # a -> b held, b -> c reversed, c -> d absent; a -> d is not a true arc
    poset = nx.DiGraph([("a", "b"), ("c", "b"), ("a", "d")])
    assert script.admitted(poset, truth) == (1, 2)
    result = subprocess.run(
        _command(
            [
                EXAMPLES / "benchmarks" / "bootstrap_poset_recall.py",
                "--network",
                "asia",
                "--samples",
                "300",
                "--seeds",
                "0",
                "1",
                "--resamples",
                "4",
                "--jobs",
                "1",
            ]
        ),
        cwd=tmp_path,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    table = [line for line in result.stdout.splitlines() if line.startswith("| 300 |")]
    # one row per start and loop removal; an arc admitted in its direction is also admitted
    # in either direction, and neither count exceeds asia's 8 arcs
    assert len(table) == 4
    for line in table:
        same, either = (float(line.split("|")[k].split("±")[0]) for k in (5, 6))
        assert 0 <= same <= either <= 8


def test_threading_page_takes_each_ratio_over_its_own_reference(tmp_path):
    # quiet is the reference of the burner rows, GridSearchCV(n_jobs=1) that of n_jobs=2,
    # each within its own size; a size other than 10,000 rows gets a table of its own
    script = _load_script_at(EXAMPLES / "benchmarks" / "threading_layers.py")

    def row(condition, seconds, rows=10_000):
        return dict(
            config="skbn default",
            condition=condition,
            learner="HillClimb",
            seconds=seconds,
            layer="omp",
            rows=rows,
        )

    rows = [
        row("quiet", 0.02),
        row("burner", 0.05),
        row("GridSearchCV(n_jobs=1)", 0.04),
        row("GridSearchCV(n_jobs=2)", 0.06),
        row("GridSearchCV(n_jobs=1)", 0.1, rows=50_000),
        row("GridSearchCV(n_jobs=2)", 0.13, rows=50_000),
    ]
    out = tmp_path / "threading.md"
    script._report(rows, ["HillClimb"], out)
    text = out.read_text()
    assert "| skbn default | omp | burner | 0.050 (2.5x) |" in text
    assert "| skbn default | omp | GridSearchCV(n_jobs=2) | 0.060 (1.5x) |" in text
    assert "## GridSearchCV at 50,000 rows" in text
    assert "| skbn default | omp | GridSearchCV(n_jobs=2) | 0.130 (1.3x) |" in text
