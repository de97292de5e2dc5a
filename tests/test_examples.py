# SPDX-License-Identifier: BSD-3-Clause
"""Every example script runs, with its small settings, from a scratch directory."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(args, cwd):
    result = subprocess.run(
        [sys.executable, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


@pytest.mark.parametrize("script", ["reproduce_autosle.py"])
def test_reproduction_scripts_run_quick(script, tmp_path):
    out = tmp_path / "report.md"
    _run([ROOT / "examples" / script, "--quick", "--jobs", "1", "--out", out], tmp_path)
    text = out.read_text()
    assert "| P/SLE |" in text
    assert out.with_suffix(".csv").exists()


def test_otsl_reproduction_runs_on_one_small_problem(tmp_path):
    out = tmp_path / "otsl.md"
    _run(
        [
            ROOT / "examples" / "reproduce_otsl.py",
            "--quick",
            "--networks",
            "asia",
            "--sizes",
            "300",
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
    text = out.read_text()
    for tuner in ("| OTSL |", "| OCT |", "| StARS |"):
        assert tuner in text
    assert "| OrderMCMC |" in text
