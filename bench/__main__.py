"""Run every benchmark, one after the other, each in its own process.

    python -m bench            # full runs (about 30 minutes on a 2-core machine)
    python -m bench --quick    # smoke run of each (about 2 minutes)

Each benchmark measures against its own reference in the same run; see its docstring.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHES = [
    "counting",
    "bpe",
    "identifiers",
    "languages",
    "chunking",
    "loading",
    "jobs",
    "serving",
    "live",
    "views",
    "memory",
    "open",
    "datasets",
    "vision",
    "upload",
    "charts",
    "diff",
    "reruns",
]


def main(argv: list[str]) -> int:
    failed = []
    for name in BENCHES:
        print(f"\n=== bench_{name} ===", flush=True)
        if subprocess.run([sys.executable, str(HERE / f"bench_{name}.py"), *argv]).returncode:
            failed.append(name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
