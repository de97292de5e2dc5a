# SPDX-License-Identifier: BSD-3-Clause
"""numpydoc validation of every public object in the API reference, without a whitelist.

Enforced on every public class, function and method: a docstring (GL08); every parameter
documented with a type, in signature order, and no unknown ones (PR01-PR04, PR06, PR08); a
Returns or Yields section where something is returned or yielded (RT01, RT02, YD01); a summary
in the imperative (SS05); well-formed See Also entries (SA03, SA04). Public classes and
functions (not methods) also need an Examples section (EX01), which the doctest run executes.
Not enforced: a See Also section and an extended summary on every object (SA01, ES01), and a
description under every parameter or return type (PR07, RT03).
"""

import importlib
import inspect
import re
from pathlib import Path

import pytest

numpydoc_validate = pytest.importorskip("numpydoc.validate")

ROOT = Path(__file__).resolve().parents[1]
ALWAYS = {
    "GL08",
    "PR01",
    "PR02",
    "PR03",
    "PR04",
    "PR06",
    "PR08",
    "PR10",
    "RT01",
    "RT02",
    "YD01",
    "SS05",
    "SA03",
    "SA04",
}
TOP_LEVEL = ALWAYS | {"EX01"}


def _public_objects():
    pages = [ROOT / "docs" / "api.md", *sorted((ROOT / "docs" / "api").glob("*.md"))]
    text = "\n".join(page.read_text() for page in pages)
    seen = set()
    for module_name in re.findall(r"^\.\. currentmodule:: (\S+)$", text, re.M):
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if not callable(obj) or id(obj) in seen:
                continue
            seen.add(id(obj))
            yield f"{module_name}.{name}", TOP_LEVEL
            if inspect.isclass(obj):
                for attr, value in vars(obj).items():
                    if attr.startswith("_"):
                        continue
                    if inspect.isfunction(value) or isinstance(value, (classmethod, staticmethod)):
                        yield f"{module_name}.{name}.{attr}", ALWAYS


OBJECTS = list(_public_objects())


@pytest.mark.parametrize("name, rules", OBJECTS, ids=[name for name, _ in OBJECTS])
def test_docstring(name, rules):
    errors = [
        f"{code}: {message}"
        for code, message in numpydoc_validate.validate(name)["errors"]
        if code in rules
    ]
    assert not errors, "\n".join(errors)
