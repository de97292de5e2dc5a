# SPDX-License-Identifier: BSD-3-Clause
"""Stored answers of other libraries (the oracles the tests read) and the scripts that record
them."""

import json
from pathlib import Path

HERE = Path(__file__).parent


def load_oracle(name: str):
    """The stored answers ``tests/data/<name>.json``."""
    return json.loads((HERE / f"{name}.json").read_text())


def save_oracle(name: str, answers) -> None:
    """Write ``tests/data/<name>.json`` (what the recording scripts produce)."""
    (HERE / f"{name}.json").write_text(json.dumps(answers, indent=1) + "\n")
