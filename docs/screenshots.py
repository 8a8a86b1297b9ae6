"""Refresh the README's screenshots: every page at a phone's and a desktop's width.

    python docs/screenshots.py [--out docs] [--pages "" bpe ...]

Starts the app on a free local port, opens each page in Debian's Chromium (never
`playwright install`) and saves `<out>/<page>-<width>px.png` at the page's full height.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.browser import CHROMIUM_ARGS, chromium_path  # noqa: E402
from tests.e2e.conftest import AppPage, streamlit_server  # noqa: E402

PAGES = ["", "datasets", "bpe", "inside", "languages", "identifiers", "chunks"]
WIDTHS = [400, 1400]
MAX_HEIGHT = 12_000  # px; a longer page is cut here


def prepare(app: AppPage, page: str) -> None:
    """A page that starts empty is shown at work: the Datasets page judges its sample Batch file
    with images."""
    if page == "datasets":
        app.run(lambda: app.main.get_by_text("A sample", exact=True).click())
        app.main.get_by_test_id("stSelectbox").first.click()  # opens the list: no run
        app.run(
            lambda: app.page.get_by_role(
                "option", name="OpenAI Batch requests with images (24 captions)"
            ).click()
        )
        app.run(lambda: app.main.get_by_role("button", name="Count the set").click())
        app.page.get_by_role("heading", name="24 rows counted").first.wait_for(timeout=120_000)
        app.settle()


def shoot(app: AppPage, path: Path, width: int) -> None:
    app.page.wait_for_timeout(600)  # charts sized to their container draw once more
    height = app.page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    app.page.set_viewport_size({"width": width, "height": min(max(900, height), MAX_HEIGHT)})
    app.page.wait_for_timeout(600)
    app.page.screenshot(path=str(path))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs")
    ap.add_argument("--pages", nargs="*", default=PAGES)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with streamlit_server() as url, sync_playwright() as pw:
        # the full Chromium where there is one: its text is drawn as a desktop browser draws it
        exe = shutil.which("chromium") or chromium_path()
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
        for width in WIDTHS:
            for page in args.pages:
                context = browser.new_context(viewport={"width": width, "height": 900})
                app = AppPage(context.new_page(), url)
                app.goto(page)
                prepare(app, page)
                out = args.out / f"{page or 'workspace'}-{width}px.png"
                shoot(app, out, width)
                print(out, "offsite requests:", len(app.offsite))
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
