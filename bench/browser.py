"""The Chromium the browser benchmarks and the browser tests drive: Debian's, never `playwright install`.

Debian's headless shell (`apt-get install chromium-headless-shell`, what `.ci/run` installs) is
taken first: the same Blink as the full browser without its windowing, so a page load costs
about a quarter less CPU. Its full Chromium (`apt-get install chromium`) does as well. The
variable CHROMIUM names another binary.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
MISSING = (
    f"Chromium not found at {CHROMIUM} nor on the PATH. Install Debian's package: "
    "`sudo apt-get install chromium-headless-shell` (never `playwright install`)."
)


def chromium_path() -> str | None:
    """`CHROMIUM` if it exists, else Debian's headless shell or full Chromium on the PATH."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    return shutil.which("chromium-headless-shell") or shutil.which("chromium")


def launch(playwright):
    """A headless Chromium from `playwright` (a started `sync_playwright()`); SystemExit with
    how to install it when there is none."""
    path = chromium_path()
    if path is None:
        raise SystemExit(MISSING)
    return playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
