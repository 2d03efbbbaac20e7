"""Run the hostile families (``tests/test_hostile.py``, ``tests/test_hostile_certify.py``)
and print how many cases they tried: checkpoints tampered with, kill -9 and resume, every
input format mutated over every command, hostile numbers on every number flag, signals
once the handlers are in, certificates forged, odd bounds against the naive solver.

    python scripts/hostile.py            # 987 cases, under a minute on a quiet machine
    python scripts/hostile.py --scale 3  # three times as many (HOSTILE_SCALE)
    python scripts/hostile.py -k signals # one family (pytest's -k)

Exit status: pytest's (0 when every case held).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from dlx.numbers import integer

ROOT = Path(__file__).resolve().parent.parent
REPORT = re.compile(r"^hostile: (.+): (\d+) cases$")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=integer, default=1, help="cases per family, times this")
    parser.add_argument("-k", default=None, help="only the families matching (pytest's -k)")
    args = parser.parse_args(argv)
    files = ["tests/test_hostile.py", "tests/test_hostile_certify.py"]
    command = [sys.executable, "-m", "pytest", *files, "-m", "slow", "-s", "-q"]
    if args.k:
        command += ["-k", args.k]
    env = {**os.environ, "HOSTILE_SCALE": str(args.scale), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    families = []
    for line in done.stdout.splitlines():
        match = REPORT.match(line.strip())
        if match:
            families.append((match.group(1), int(match.group(2))))
            print(line.strip())
        elif line.startswith("hostile:"):
            print(line)
    summary = done.stdout.strip().splitlines()[-1:] or ["(no summary)"]
    total = sum(n for _, n in families)
    print(f"hostile: {total} cases tried in {len(families)} families; pytest: {summary[0]}")
    if done.returncode != 0:
        print(done.stdout[-6000:], done.stderr[-2000:], sep="\n", file=sys.stderr)
    return done.returncode


if __name__ == "__main__":
    raise SystemExit(main())
