"""Every download of a page is taken without a rerun of the page (`on_click="ignore"`).

A run started by the click gives the page's downloads new files and retires the old ones, so the
file the browser is about to fetch, or a second download clicked right after, may be gone
(the server then logs MediaFileStorageError and the browser reports the download failed). The
datasets page's downloads, drawn after a count, are checked in test_datasets.py.
"""

from __future__ import annotations

import pytest

from tests.conftest import ok, open_app
from ui.workspace.file import WS_EXPANDER

SHOWN = {  # the page -> the downloads it shows as it opens
    None: ["Download counts (CSV)", "Save the workspace (JSON)"],
    "app_pages/languages.py": [
        "Download the texts (CSV, the upload format)", "Download the full table (CSV)", "Download the costs (CSV)",
    ],
    "app_pages/chunks.py": ["Download JSONL", "Download CSV"],
    "app_pages/identifiers.py": ["Download this table (CSV)"],
    "app_pages/bpe.py": ["Download the merges (JSON)"],
}  # fmt: skip


@pytest.mark.parametrize("page", list(SHOWN), ids=lambda p: p or "workspace")
def test_every_download_is_taken_without_a_rerun(page):
    buttons = [b.proto for b in open_app(page).get("download_button")]
    assert [b.label for b in buttons] == SHOWN[page]
    assert [b.label for b in buttons if not b.ignore_rerun] == []


def _workspace_file(at):
    (button,) = [b.proto for b in at.get("download_button") if b.proto.label == "Save the workspace (JSON)"]
    return button


def test_the_workspace_file_keeps_its_address_while_the_workspace_is_the_same():
    """A run that draws the same workspace (opening the file's expander reruns the page) must not
    retire the file the browser holds: a click just after it would download nothing. So the button
    holds the file (named by its content), not a function that makes it on click (whose name is new
    at every run and the old one dropped at once)."""
    at = open_app()
    first = _workspace_file(at)
    assert first.url and not first.deferred_file_id
    at.session_state[WS_EXPANDER] = True  # as opening it does, which reruns the page
    ok(at.run())
    assert _workspace_file(at).url == first.url
    at.session_state["workspace_text"] = "A different prompt."  # what the text box sends: another file
    ok(at.run())
    assert _workspace_file(at).url != first.url
