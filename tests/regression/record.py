# SPDX-License-Identifier: BSD-3-Clause
"""Re-record the frozen outputs: ``python -m tests.regression.record [GROUP ...]``.

Run only to accept a deliberate change of behaviour, and say in the commit why it changed.
"""

import json
import sys
from pathlib import Path

from tests.regression.cases import GROUPS

PATH = Path(__file__).with_name("frozen.json")


def main(groups) -> None:
    frozen = json.loads(PATH.read_text()) if PATH.exists() else {}
    for name in groups or GROUPS:
        frozen[name] = GROUPS[name]()
        print(f"recorded {name}")
    PATH.write_text(json.dumps(frozen, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
