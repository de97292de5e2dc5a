# SPDX-License-Identifier: BSD-3-Clause
"""Checks on the repository itself: style, layering and the command line."""

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from skbn.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is in the test extra")
def test_ruff_is_clean():
    result = subprocess.run(["ruff", "check", str(ROOT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def _outside_kernels(module: str) -> bool:
    return module.startswith("skbn") and not module.startswith("skbn._kernels")


def test_kernels_import_nothing_from_skbn_but_kernels():
    paths = list((ROOT / "skbn" / "_kernels").glob("*.py"))
    assert paths
    for path in paths:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert not _outside_kernels(node.module or ""), path
            if isinstance(node, ast.Import):
                assert not any(_outside_kernels(a.name) for a in node.names), path


def test_kernels_take_at_most_eight_arguments_and_nothing_skips_the_formatter():
    # a kernel's state travels as named tuples (docs/architecture.md): a long list of
    # positional arrays, where two of one dtype can be swapped unnoticed, fails here
    long = []
    for path in sorted((ROOT / "skbn" / "_kernels").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and len(node.args.args) > 8:
                long.append(f"{path.name}:{node.name} ({len(node.args.args)})")
    assert not long, long
    skipped = [
        str(path.relative_to(ROOT))
        for folder in ("skbn", "tests", "examples")
        for path in (ROOT / folder).rglob("*.py")
        if "# fmt: " + "skip" in path.read_text(encoding="utf-8")
    ]
    assert not skipped, skipped


def test_every_source_file_has_an_spdx_header():
    for path in list((ROOT / "skbn").rglob("*.py")) + list((ROOT / "tests").rglob("*.py")):
        text = path.read_text()
        if text.strip():
            assert text.startswith("# SPDX-License-Identifier: BSD-3-Clause"), path


def test_cli_samples_writes_data_and_picture(tmp_path, capsys):
    out, png = tmp_path / "asia.csv", tmp_path / "asia.png"
    assert (
        main(["networks", "sample", "asia", "-n", "200", "--out", str(out), "--plot", str(png)])
        == 0
    )
    text = capsys.readouterr().out
    assert "nodes       8" in text and "arcs        8" in text
    assert out.read_text().count("\n") == 201
    assert png.stat().st_size > 10_000


def test_cli_learns_from_a_bundled_network_with_report_graph_and_picture(tmp_path, capsys):
    out, png = tmp_path / "g.json", tmp_path / "g.png"
    assert (
        main(["learn", "--network", "asia", "-n", "3000", "--out", str(out), "--plot", str(png)])
        == 0
    )
    text = capsys.readouterr().out
    assert "against the true network" in text and "f1_arrowhead" in text
    from skbn.graph import read_graph

    # the default learner (BOSS with its polish) returns the equivalence class
    assert read_graph(out).graph["kind"] == "cpdag"
    assert png.stat().st_size > 10_000


@pytest.mark.parametrize(
    "learner, score",
    [
        ("fges", "bic"),
        ("tabu", "bdeu"),
        ("hc", "k2"),
        ("pc", None),
        ("mmhc", "bdeu"),
        ("grasp", "bic"),
    ],
)
def test_cli_learns_from_a_csv(tmp_path, capsys, learner, score):
    from skbn.datasets import load_network

    path = tmp_path / "d.csv"
    load_network("cancer").sample(500, random_state=0).to_csv(path, index=False)
    # pc takes a test, not a score (a --score there is refused: test_cli_workflow)
    options = ["--score", score] if score else []
    assert main(["learn", str(path), "--learner", learner, *options]) == 0
    assert "learner" in capsys.readouterr().out


def test_cli_learns_gaussian_data(tmp_path, capsys):
    assert (
        main(
            [
                "learn",
                "--network",
                "asia",
                "--kind",
                "gaussian",
                "--learner",
                "fges",
                "--score",
                "bge",
                "-n",
                "500",
            ]
        )
        == 0
    )
    assert "cpdag" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["learn", "missing.csv"], "no such file"),
        (["learn", "--network", "asia", "--score", "bge"], "'bge' is not defined for discrete"),
        (
            ["learn", "--network", "asia", "--learner", "fges", "--max-indegree", "2"],
            "--max-degree",
        ),
        (["learn", "--network", "asia", "--penalty-discount", "-1"], "penalty_discount"),
        (
            ["learn", "--network", "asia", "--learner", "pc", "--test", "fisher-z"],
            "'fisher-z' is not defined for discrete",
        ),
        (["learn", "--network", "asia", "--learner", "pc", "--alpha", "2"], "alpha"),
    ],
)
def test_cli_learn_errors(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_takes_every_registry_name(capsys):
    from skbn.scores import get_score_names

    assert main(["learn", "--network", "asia", "-n", "500", "--score", "bde"]) == 0
    assert "BDeu" in capsys.readouterr().out
    assert main(["learn", "--network", "asia", "-n", "500", "--score", "bdue"]) == 2
    err = capsys.readouterr().err
    assert "Did you mean 'bdeu'" in err and all(n in err for n in get_score_names()[:5])


def test_cli_package_has_no_import_cycle():
    # the shared module imports no subcommand, and no subcommand imports another
    package = ROOT / "skbn" / "cli"
    subcommands = {p.stem for p in package.glob("*.py")} - {"__init__", "__main__", "_common"}
    for path in package.glob("*.py"):
        if path.stem in ("__init__", "__main__"):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("skbn.cli"):
                imported = {node.module.split(".")[-1]} | {a.name for a in node.names}
                assert not imported & subcommands, f"{path.name} imports {imported & subcommands}"


def test_cli_lists_networks(capsys):
    assert main(["networks", "list"]) == 0
    assert capsys.readouterr().out.split()[:3] == ["alarm", "andes", "asia"]


def test_cli_reports_bad_input(capsys):
    assert main(["networks", "sample", "alrm"]) == 2
    assert "Did you mean 'alarm'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["networks", "sample", "asia", "-n", "zero"])
    assert info.value.code == 2
    assert "expected a whole number" in capsys.readouterr().err


@pytest.mark.slow
def test_readme_python_example_runs(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the example must leave the working directory as it was
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    namespace = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)
    assert list(tmp_path.iterdir()) == []
    from skbn.io import read_network
    from skbn.metrics import structure_report

    learned = namespace["est"]
    written = read_network(namespace["path"])
    assert set(written.graph.edges) == set(learned.network_.graph.edges)
    namespace["path"].unlink()
    # the figures the comments quote are the ones this code gives
    report = structure_report(namespace["bn"].graph, learned.graph_)
    assert report["shd"] == int(re.search(r"# here SHD (\d+)", text).group(1))
    assert structure_report(namespace["bn"].graph, namespace["hc"].graph_)["shd"] == int(
        re.search(r'\["shd"\]\)  # (\d+)', text).group(1)
    )
    assert "f1_adjacency" in capsys.readouterr().out


@pytest.mark.slow
def test_console_script_runs():
    result = subprocess.run(
        [sys.executable, "-m", "skbn.cli", "networks", "list"], capture_output=True, text=True
    )
    assert result.returncode == 0 and "alarm" in result.stdout


def test_api_reference_lists_every_public_name():
    import importlib

    pages = [ROOT / "docs" / "api.md", *sorted((ROOT / "docs" / "api").glob("*.md"))]
    text = "\n".join(page.read_text() for page in pages)
    listed = set(re.findall(r"^   (\w+)$", text, re.M))
    modules = re.findall(r"^\.\. currentmodule:: (\S+)$", text, re.M)
    seen = set()
    for name in modules:
        module = importlib.import_module(name)
        for public in module.__all__:
            obj = getattr(module, public)
            if not callable(obj):  # a constant: documented by a py:data entry
                entry = f".. py:data:: {name}.{public}"
                owners = [m for m in modules if f".. py:data:: {m}.{public}" in text]
                assert owners or entry in text, f"{name}.{public} is missing from docs/api.md"
                continue
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            assert public in listed, f"{name}.{public} is missing from docs/api.md"


RESULTS = ROOT / "examples" / "benchmarks" / "results"


def _tracked(*paths):
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout")
    out = subprocess.run(["git", "ls-files", *paths], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.split()


def test_docs_track_no_generated_data():
    # results live in examples/benchmarks/results/<study>/; the docs build copies them
    kinds = {Path(p).suffix for p in _tracked("docs")}
    assert kinds <= {".md", ".py", ".css", ".rst"}, kinds


def test_every_study_has_a_manifest_and_its_page_is_in_the_docs():
    import json

    index = (ROOT / "docs" / "index.md").read_text()
    studies = sorted(p for p in RESULTS.iterdir() if p.is_dir())
    assert studies
    for study in studies:
        manifest = json.loads((study / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["study"] == study.name and manifest["runs"], study.name
        for run in manifest["runs"]:
            assert {"command", "commit", "machine", "date"} <= set(run), (study.name, run)
            assert re.fullmatch(r"[0-9a-f]{40}( \(with local changes\))?", run["commit"])
        page = study / f"{study.name}.md"
        if page.exists():
            assert f"results/{study.name}\n" in index, f"{study.name} is not in docs/index.md"
        else:
            assert any(study.iterdir()), study.name


def test_benchmark_scripts_share_code_by_import_not_by_path():
    for path in (ROOT / "examples").rglob("*.py"):
        assert "sys.path" not in path.read_text(encoding="utf-8"), path


def test_the_license_file_is_the_one_pyproject_declares():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"]
    text = (ROOT / "LICENSE").read_text()
    assert declared == "BSD-3-Clause" and text.startswith("BSD 3-Clause License")


def test_built_results_pages_read_findings_first():
    # the opening command paragraph (and a code block it introduces) moves to the closing
    # section; a page that opens with findings is left alone
    import runpy

    script = Path(__file__).parents[1] / "docs" / "_scripts" / "findings_first.py"
    findings_first = runpy.run_path(str(script))["findings_first"]
    page = "# T\n\nCommand: `python -m x`. Means over 3 seeds.\n\n## Results\n\n| a |\n"
    moved_page, moved = findings_first(page)
    assert moved == "Command: `python -m x`. Means over 3 seeds."
    assert moved_page.startswith("# T\n\nThe setup") and "## Results" in moved_page
    assert "python -m x" not in moved_page
    block = "# T\n\nRegenerate with:\n\n```bash\npython -m y\n```\n\nFindings.\n"
    page2, moved2 = findings_first(block)
    assert moved2.endswith("```") and "python -m y" in moved2 and "Findings." in page2
    plain = "# T\n\nBOSS wins.\n\nCommand: `python -m z`.\n"
    assert findings_first(plain) == (plain, "")
    # every committed page either opens with findings or gets its command moved
    results = Path(__file__).parents[1] / "examples" / "benchmarks" / "results"
    for path in results.glob("*/*.md"):
        built, _ = findings_first(path.read_text(encoding="utf-8"))
        opening = [line for line in built.split("\n")[1:] if line.strip()][0]
        assert not opening.startswith(("Command", "Regenerate")), path


def test_no_sentence_runs_into_a_table():
    # a line right under a table row (no blank line between) renders as one more row
    root = Path(__file__).parents[1]
    pages = list((root / "examples" / "benchmarks" / "results").glob("*/*.md"))
    pages += [p for p in (root / "docs").rglob("*.md") if "results" not in p.parts]
    for path in pages:
        lines = path.read_text(encoding="utf-8").split("\n")
        fence = False
        for above, line in zip(lines, lines[1:]):
            fence ^= above.startswith("```")
            row = above.startswith("|") and above.rstrip().endswith("|")
            if not fence and row and line.strip():
                assert line.startswith("|"), (path.name, line[:60])
