# SPDX-License-Identifier: BSD-3-Clause
"""Mutated BIF files: every one is read or refused with the reader's own error, within caps.

The mutations run in a child process whose address space is capped (a table the file
declares but cannot hold must be refused before it is allocated) and whose run time is
capped (the tokenizer must stay linear on unterminated comments and strings).
"""

import json
import subprocess
import sys
import textwrap

import pytest

MEMORY_CAP_BYTES = 2 * 2**30
TIME_CAP_SECONDS = 120
N_MUTANTS = 300

CHILD = textwrap.dedent(
    """
    import gzip, json, random, resource, sys
    from importlib import resources

    resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
    from skbn.io._bif import BIFError, parse_bif

    base = gzip.decompress(
        (resources.files("skbn.datasets") / "data" / "asia.bif.gz").read_bytes()
    ).decode()
    lines = base.splitlines(keepends=True)
    rng = random.Random(0)
    tokens = ["{{", "}}", ";", "(", ")", "|", ",", "/*", "//", '"', "table", "default",
              "probability", "variable", "discrete", "[", "]", "-1", "1e999", "nan", " "]

    def mutate(text):
        kind = rng.randrange(8)
        i = rng.randrange(len(text) + 1)
        if kind == 0:  # delete a span
            return text[:i] + text[i + rng.randrange(1, 40):]
        if kind == 1:  # insert a token
            return text[:i] + rng.choice(tokens) + text[i:]
        if kind == 2:  # truncate
            return text[:i]
        if kind == 3:  # repeat a line
            k = rng.randrange(len(lines))
            return "".join(lines[:k] + [lines[k]] * rng.randrange(2, 5) + lines[k:])
        if kind == 4:  # swap two lines
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            out = list(lines)
            out[a], out[b] = out[b], out[a]
            return "".join(out)
        if kind == 5:  # a number replaced
            digits = [k for k, ch in enumerate(text) if ch.isdigit()]
            k = rng.choice(digits)
            return text[:k] + rng.choice(["0", "9", "-", "99999999", "x"]) + text[k + 1:]
        if kind == 6:  # a huge declared table: many parents on one variable
            names = " ".join(rng.choice(["asia", "tub", "smoke", "lung"]) for _ in range(30))
            return text.replace("probability ( either | lung, tub )",
                                "probability ( either | " + names.replace(" ", ", ") + " )")
        return text + rng.choice(tokens) * rng.randrange(1, 20000)  # a flood of one token

    outcomes = {{"read": 0, "refused": 0}}
    for _ in range({n}):
        text = base
        for _ in range(rng.randrange(1, 4)):
            text = mutate(text)
        try:
            parse_bif(text)
            outcomes["read"] += 1
        except BIFError:
            outcomes["refused"] += 1
    print(json.dumps(outcomes))
    """
)


@pytest.mark.slow
def test_mutated_bif_files_are_read_or_refused_with_a_bif_error():
    code = CHILD.format(cap=MEMORY_CAP_BYTES, n=N_MUTANTS)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=TIME_CAP_SECONDS
    )
    # any other exception (or MemoryError under the cap) ends the child with a traceback
    assert done.returncode == 0, done.stderr[-3000:]
    outcomes = json.loads(done.stdout.strip().splitlines()[-1])
    assert outcomes["read"] + outcomes["refused"] == N_MUTANTS
    # the mutations are not all harmless nor all fatal, so both branches are exercised
    assert outcomes["read"] > 0 and outcomes["refused"] > 0
