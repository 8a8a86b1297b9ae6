"""A reload, or a browser restart, keeps each page's work (ui/saved_work.py), in Chromium.

Each test makes some work the way a user does, reloads the page (a new Streamlit session: only
the browser's local storage links the two) and finds the work there again. The five tests of a
page's own work share one session (`reloaded`).
"""

from __future__ import annotations

import base64
import os
import random
import re
import signal
import time

import pytest
from playwright.sync_api import expect

from tests.e2e import settings_driver as d
from tests.e2e.conftest import AppPage, page_of_its_own

pytestmark = pytest.mark.e2e


def reload(app: AppPage) -> None:
    app.run(lambda: app.page.reload())


def comes_back(app: AppPage, expected: dict) -> None:
    """The page shows `expected` (as `d.settings` reads it). A new session draws its page only once
    its saved work is back (`app.settle` waits for that), so one reading tells."""
    app.settle()
    assert d.settings(app) == expected


def until(app: AppPage, condition, what: str, timeout_s: float = 60.0, every_ms: int = 20) -> None:
    """Wait until `condition()` holds, for what the page cannot show (a socket's messages, the
    server's processes, the browser's stores): the one polling wait of this file."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        app.page.wait_for_timeout(every_ms)


def kept_in_storage(app: AppPage, page: str, text: str, timeout_s: float = 60.0) -> None:
    """Wait until the browser keeps `text` in `page`'s saved work."""
    app.page.wait_for_function(
        "([k, t]) => (localStorage.getItem(k) || '').includes(t)", arg=[f"tokenizer-workbench/{page}", text],
        timeout=timeout_s * 1000,
    )  # fmt: skip


def metrics(app: AppPage) -> list[str]:
    """The page's metrics, but for a time measured (a restored model was not trained again)."""
    return [
        m for m in app.main.get_by_test_id("stMetric").all_inner_texts() if not m.startswith("Training time")
    ]


def make_workspace(app: AppPage, _tmp) -> dict:
    """The issue's case: a 6.5 KB prompt (over the share link's 4,000 bytes), models, settings and
    a version."""
    d.unpick(app, "workspace_tokenizers", "GPT-4")
    d.pick(app, "workspace_tokenizers", "Qwen3", typed="Qwen3")
    prompt = "You are a careful assistant. Answer in three short sentences.\n" * 105
    assert 6_400 < len(prompt.encode()) < 6_700
    d.live_text(app, "workspace_text", prompt)
    d.number(app, "workspace_out_tokens", 777)
    d.flip(app, "workspace_ws")
    d.text(app, "workspace_version_name", "first draft")
    app.run(lambda: app.main.get_by_role("button", name="Save the prompt as a version").click())
    assert d.settings(app)["workspace_text_live_box"] == prompt
    return {}


def make_bpe(app: AppPage, _tmp) -> dict:
    d.text(app, "bpe_corpus_text", "low lower lowest newest widest " * 40)
    d.number(app, "bpe_merges", 7)
    app.run(lambda: app.main.get_by_role("button", name="Train").click())
    expect(app.main.get_by_text("press **Train**")).to_have_count(0)
    for _ in range(3):  # the step shown: kept in a small entry of its own (ui/saved_work.py LIGHT)
        app.run(lambda: app.main.get_by_role("button", name="Next").click())
    assert d.settings(app)["bpe_step"] == ["4"]
    kept_in_storage(app, "bpe#light", '"bpe_step": 4')
    return {"metrics": metrics(app)}


def make_languages(app: AppPage, tmp) -> dict:
    csv = tmp / "mine.csv"
    csv.write_text(
        "code,language,script,text\nen,English,Latin,Your order has shipped.\n"
        "xx,Klingon (mine),Latin,tlhIngan Hol Dajatlh'a'\n",
        encoding="utf-8",
    )
    upload = app.main.get_by_test_id("stFileUploader").locator("input[type=file]").first
    app.run(lambda: upload.set_input_files(str(csv)))
    expect(d.widget(app, "languages_selected")).to_contain_text(
        "Klingon (mine)"
    )  # the upload's rerun, then the list's
    app.settle()
    d.unpick(app, "languages_tokenizers", "Mistral Tekken")
    d.number(app, "languages_requests", 5_000)
    assert "Klingon (mine)" in d.settings(app)["languages_selected"]
    return {}


def make_identifiers(app: AppPage, _tmp) -> dict:
    d.choose(app, "identifiers_sample", "TypeScript: orders API client")
    app.run(lambda: app.main.get_by_role("button", name="Load sample").click())
    d.text(app, "identifiers_text", d.settings(app)["identifiers_text"] + "\n// kept across a reload\n")
    d.choose(app, "identifiers_language", "TypeScript")
    d.flip(app, "identifiers_comments")
    return {}


def make_chunks(app: AppPage, _tmp) -> dict:
    d.text(app, "chunks_text", "My own document, kept across a reload. " * 30)
    d.choose(app, "chunks_strategy", "Token windows")
    d.number(app, "chunks_size", 16)
    return {}


# Each page's work, as a user makes it, by the page's title.
MAKE = {
    "Prompt workspace": make_workspace,
    "BPE playground": make_bpe,
    "Language costs": make_languages,
    "Code identifiers": make_identifiers,
    "Chunk previewer": make_chunks,
}


@pytest.fixture(scope="module")
def reloaded(browser, server_url, tmp_path_factory) -> dict:
    """One browser session makes each page's work, one page after another (the app's navigation),
    then reloads each page in turn (F5: a new Streamlit session, which only the browser's storage
    links to the old one) and reads it. Each test below checks one page; a failure on the way is
    every later page's."""
    app = page_of_its_own(browser, server_url)
    found: dict[str, dict] = {}
    step = "loading"
    try:
        app.goto("")
        for title, make in MAKE.items():
            step = f"making the work on {title}"
            if title != "Prompt workspace":
                d.go(app, title)
            found[title] = make(app, tmp_path_factory.mktemp("work")) | {"now": d.settings(app)}
        for title in MAKE:
            step = f"reloading {title}"
            d.go(app, title)
            reload(app)
            app.settle()  # a new session draws its page only once its saved work is back
            found[title] |= {"back": d.settings(app), "exceptions": app.exceptions()}
            if title == "BPE playground":
                found[title] |= {"metrics after": metrics(app), "warned": app.main.get_by_text(
                    "changed since this model was trained").count()}  # fmt: skip
            if title == "Prompt workspace":
                found[title]["version shown"] = app.main.get_by_text("first draft").first.is_visible()
    except Exception as e:  # noqa: BLE001 (each test of a page not read reports it)
        found["failed"] = {"at": f"{step}: {type(e).__name__}: {e}"}
    finally:
        app.page.context.close()
    assert app.offsite == [], f"the page asked another host for {app.offsite[:5]}"
    return found


def came_back(reloaded: dict, title: str) -> dict:
    """The page's work, as made and as read after its reload, which must be the same."""
    page = reloaded.get(title, {})
    if "back" not in page:
        pytest.fail(reloaded.get("failed", {}).get("at", f"{title} was not read"), pytrace=False)
    assert page["back"] == page["now"]
    assert page["exceptions"] == []
    return page


def test_the_workspace_keeps_a_long_prompt_models_settings_and_versions(reloaded):
    assert came_back(reloaded, "Prompt workspace")["version shown"]


def test_the_bpe_playground_keeps_its_corpus_options_and_trained_model(reloaded):
    page = came_back(reloaded, "BPE playground")
    assert (
        page["metrics after"] == page["metrics"]
    )  # the model trained on this corpus, not the default preset's
    assert page["warned"] == 0


def test_the_language_costs_keep_own_translations_and_settings(reloaded):
    came_back(reloaded, "Language costs")


def test_the_code_identifiers_keep_the_code_and_settings(reloaded):
    came_back(reloaded, "Code identifiers")


def test_the_chunk_previewer_keeps_the_document_and_settings(reloaded):
    came_back(reloaded, "Chunk previewer")


def test_a_browser_restart_keeps_the_work_and_clear_removes_it(browser, server_url):
    """A new browser context with the first one's storage (what a restart keeps) finds the work;
    after "Clear my saved work", a reload shows the page's defaults."""
    first = browser.new_context(viewport={"width": 1400, "height": 1000})
    app = AppPage(first.new_page(), server_url)
    app.goto("chunks")
    default = d.settings(app)["chunks_text"]
    d.text(app, "chunks_text", "Kept after the browser closed. " * 20)
    now = d.settings(app)
    kept_in_storage(app, "chunks", "Kept after")
    storage = first.storage_state()
    first.close()

    second = browser.new_context(viewport={"width": 1400, "height": 1000}, storage_state=storage)
    try:
        app = AppPage(second.new_page(), server_url)
        app.goto("chunks")
        comes_back(app, now)
        app.page.get_by_test_id("stSidebar").get_by_text("Your work in this browser").click()
        clear = app.page.get_by_role("button", name="Clear my saved work")
        expect(clear).to_be_visible()
        # By the keyboard: a press does not depend on where the button is while the sidebar moves
        # (under load, a click's press and release can land apart, and then no run comes)
        app.run(lambda: clear.press("Enter"))
        expect(app.page.get_by_text("Cleared. What you change from now on is kept again.")).to_be_visible()
        app.page.wait_for_function("() => localStorage.getItem('tokenizer-workbench/chunks') === null")
        reload(app)  # the page is drawn once the browser has answered: nothing was kept
        app.settle()
        assert d.settings(app)["chunks_text"] == default
    finally:
        second.close()


def test_two_browsers_do_not_see_each_others_work(browser, server_url):
    """Local storage is per browser profile: another context (another user) gets the defaults."""
    one = browser.new_context(viewport={"width": 1400, "height": 1000})
    two = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        app = AppPage(one.new_page(), server_url)
        app.goto("chunks")
        default = d.settings(app)["chunks_text"]
        d.text(app, "chunks_text", "Private to the first browser. " * 10)
        other = AppPage(two.new_page(), server_url)
        other.goto("chunks")  # drawn once its browser has answered
        assert d.settings(other)["chunks_text"] == default
    finally:
        one.close()
        two.close()


def _kept_tokenizers(app: AppPage, names: list[str], timeout_s: float = 120.0) -> None:
    """Wait until the own tokenizers this browser keeps (IndexedDB) are `names` (15 MB compressed,
    sent and written: slow under load). Read by `evaluate`, which awaits the read's promise
    (`wait_for_function` would take the promise itself as true)."""
    kept = lambda: app.page.evaluate(KEPT_NAMES) == sorted(names)  # noqa: E731
    until(app, kept, f"the browser to keep {names}", timeout_s, every_ms=250)  # each read loads the files


KEPT_NAMES = """() => new Promise((resolve) => {
  const r = indexedDB.open("tokenizer-workbench", 1);
  r.onupgradeneeded = () => r.result.createObjectStore("own-tokenizers", { keyPath: "id" });
  r.onsuccess = () => {
    const get = r.result.transaction("own-tokenizers").objectStore("own-tokenizers").getAll();
    get.onsuccess = () => { resolve(get.result.map((e) => e.name).sort()); r.result.close(); };
  };
})"""


def _own_metric(app: AppPage, name: str) -> str:
    from tests.e2e.conftest import COUNT, COUNT_VALUE

    return app.main.locator(COUNT).filter(has_text=name).first.locator(COUNT_VALUE).inner_text()


def _add_own(app: AppPage, path, name: str, pattern: str | None = None) -> None:
    sidebar = app.page.get_by_test_id("stSidebar")
    if not sidebar.get_by_role("button", name="Add tokenizer").is_visible():
        sidebar.get_by_text("Your own tokenizers").click()  # expanding does not rerun
    uploader = sidebar.get_by_test_id("stFileUploaderDropzoneInput")
    app.run(lambda: uploader.set_input_files(str(path)))
    if pattern:
        d.choose(app, "custom_tok_pattern", pattern)
    box = sidebar.get_by_test_id("stTextInput").locator("input")
    box.fill(name)
    app.run(lambda: box.press("Enter"))
    app.run(lambda: sidebar.get_by_role("button", name="Add tokenizer").click())
    expect(sidebar.get_by_text(re.compile("Added " + re.escape(name)))).to_be_visible(timeout=60_000)


def test_own_tokenizers_come_back_after_a_reload_chosen_and_counting_the_same(app_page, tmp_path):
    """GPT-2's file and a 15 MB vocabulary (9.4 MB compressed: a 12.5 MB message back), added in
    the sidebar and chosen on the workspace; after F5 both are in the list again, still chosen,
    with the same counts. Removing one removes it from the browser too."""
    from tokenizer_core.tokenizers import registry

    app = app_page
    app.goto("")
    small = registry.DATA_DIR / "r50k_base.tiktoken"
    big = tmp_path / "big.tiktoken"  # GPT-2's ranks and 450,000 more tokens of 16 random bytes
    rng = random.Random(31)
    lines = small.read_bytes().splitlines()
    extra = [base64.b64encode(rng.randbytes(16)) + b" %d" % (len(lines) + i) for i in range(450_000)]
    big.write_bytes(b"\n".join(lines + extra) + b"\n")
    assert big.stat().st_size > 15_000_000
    _add_own(app, small, "my gpt2")
    _add_own(app, big, "big vocab")  # GPT-2's ranks first: GPT-2's pattern is preselected
    for name in ("my gpt2", "big vocab"):
        d.pick(app, "workspace_tokenizers", f"{name} (yours)", typed=name)
    counts = {name: _own_metric(app, name) for name in ("my gpt2", "big vocab")}
    _kept_tokenizers(app, ["big vocab", "my gpt2"])
    now = d.settings(app)

    reload(app)
    comes_back(app, now)  # chosen again
    for name in ("my gpt2", "big vocab"):  # both back in the list
        assert _own_listed(app, name)
    assert {name: _own_metric(app, name) for name in counts} == counts  # the same counts
    sidebar = app.page.get_by_test_id("stSidebar")
    app.run(lambda: sidebar.get_by_role("button", name="Remove my gpt2").click())
    _kept_tokenizers(app, ["big vocab"])
    assert app.exceptions() == []


def test_an_own_tokenizer_removed_or_cleared_and_added_again_is_kept_again(app_page):
    """The same file added again in the same tab (the same id: its content's hash; the box still
    holds the file) is written to the browser again, after a Remove and after "Clear my saved
    work"."""
    from tokenizer_core.tokenizers import registry

    app = app_page
    app.goto("")
    sidebar = app.page.get_by_test_id("stSidebar")
    _add_own(app, registry.DATA_DIR / "r50k_base.tiktoken", "my gpt2")
    _kept_tokenizers(app, ["my gpt2"])
    for undo in ("Remove", "Clear"):
        if undo == "Remove":
            app.run(lambda: sidebar.get_by_role("button", name="Remove my gpt2").click())
        else:
            sidebar.get_by_text("Your work in this browser").click()
            # By the keyboard: below the sidebar's fold, a click's press and release can land apart
            # when the sidebar scrolls back in between (the release on the caption: no click, no run)
            app.run(lambda: sidebar.get_by_role("button", name="Clear my saved work").press("Enter"))
            app.run(lambda: sidebar.get_by_role("button", name="Remove my gpt2").click())
        _kept_tokenizers(app, [])
        app.run(lambda: sidebar.get_by_role("button", name="Add tokenizer").click())
        expect(sidebar.get_by_text("Added my gpt2")).to_be_visible()
        _kept_tokenizers(app, ["my gpt2"], timeout_s=30)
    assert app.exceptions() == []


def _route(app: AppPage, *, to_page=None, to_server=None) -> None:
    """Put the test on the app's websocket: each message from the server goes through
    `to_page(message, server)` and each from the page through `to_server(message, server)`
    (`server`: the route's socket to the server); each returns what to pass on, None to drop it."""

    def route(ws) -> None:
        server = ws.connect_to_server()

        def from_server(message) -> None:
            if to_page is not None:
                message = to_page(message, server)
            if message is not None:
                ws.send(message)
                app._on_frame(message)  # a routed socket's frames do not reach the page's listener

        def from_page(message) -> None:
            if to_server is not None:
                message = to_server(message, server)
            if message is not None:
                server.send(message)

        server.on_message(from_server)
        ws.on_message(from_page)

    app.page.route_web_socket(re.compile(r"/_stcore/stream$"), route)


def _chunks_document_kept(app: AppPage) -> str:
    """Type a document into the chunk previewer and wait until the browser keeps it; returns it."""
    app.goto("chunks")
    saved_text = "My saved document, kept across a reload. " * 10
    d.text(app, "chunks_text", saved_text)
    kept_in_storage(app, "chunks", "My saved document")
    return saved_text


def _hold(app: AppPage, event: bytes, *, drop: bool = False) -> dict:
    """Route the app's socket (for the next page load): the page's messages to the server that carry
    the component's `event` are held back (`drop`: the first is lost, the rest go)."""
    state: dict = {"held": [], "server": None, "dropped": 0}

    def to_server(message, server):
        state["server"] = server
        if isinstance(message, bytes) and b'"event":"' + event + b'"' in message:
            if drop and state["dropped"] == 0:
                state["dropped"] += 1
                return None
            if not drop:
                state["held"].append(message)
                return None
        return message

    _route(app, to_server=to_server)
    return state


def test_no_text_box_exists_before_the_saved_work_is_back_so_typing_cannot_meet_a_late_restore(app_page):
    """The browser's answer held back on the wire (a slow connection): the page draws no text box
    to type in meanwhile, only that it is restoring. Once the answer arrives the saved text is
    there, and what the user then types stays and is kept."""
    app = app_page
    saved_text = _chunks_document_kept(app)
    state = _hold(app, b"answer")
    app.page.reload()
    until(app, lambda: state["held"], "the browser's answer")
    expect(app.page.locator(".st-key-saved_work_restoring")).to_be_visible()
    expect(app.main.locator("textarea")).to_have_count(0)
    app.run(lambda: state["server"].send(state["held"][-1]))  # the answer arrives, late
    app.settle()
    assert d.settings(app)["chunks_text"] == saved_text
    d.text(app, "chunks_text", "Typed once the saved work came back.")
    kept_in_storage(app, "chunks", "Typed once the saved work came back.")
    assert d.settings(app)["chunks_text"] == "Typed once the saved work came back."
    assert app.exceptions() == []


def _own_listed(app: AppPage, name: str) -> bool:
    """Whether the sidebar's "Your own tokenizers" lists `name` (opened first if it is closed:
    the run that restores a page's work draws no sidebar, and the next draws it closed)."""
    app.settle()
    sidebar = app.page.get_by_test_id("stSidebar")
    if sidebar.locator("details").filter(has_text="Your own tokenizers").get_attribute("open") is None:
        sidebar.get_by_text("Your own tokenizers").click()
    return sidebar.get_by_text(re.compile(f"^{re.escape(name)} · ")).is_visible()


def test_the_saved_work_comes_back_when_the_browsers_answer_is_lost(app_page):
    """The browser sends its answer again while the session still asks for it."""
    app = app_page
    saved_text = _chunks_document_kept(app)
    state = _hold(app, b"answer", drop=True)
    reload(app)
    app.settle()
    assert state["dropped"] == 1, "the browser's answer was not seen"
    assert d.settings(app)["chunks_text"] == saved_text
    assert app.exceptions() == []


def _gpt2_kept(app: AppPage) -> None:
    """Add GPT-2's file as "my gpt2" on the workspace and wait until the browser keeps it."""
    from tokenizer_core.tokenizers import registry

    app.goto("")
    _add_own(app, registry.DATA_DIR / "r50k_base.tiktoken", "my gpt2")
    _kept_tokenizers(app, ["my gpt2"])


def test_own_tokenizers_come_back_when_the_browsers_answer_is_lost(app_page):
    app = app_page
    _gpt2_kept(app)
    state = _hold(app, b"answer", drop=True)
    reload(app)
    assert state["dropped"] == 1, "the browser's answer was not seen"
    assert _own_listed(app, "my gpt2")
    assert app.exceptions() == []


def test_the_page_comes_when_the_browsers_go_is_lost(app_page):
    """The last message of a restore (the browser asks for the run that draws the page) is sent
    again while the session still waits for it."""
    app = app_page
    saved_text = _chunks_document_kept(app)
    state = _hold(app, b"go", drop=True)
    reload(app)
    app.settle()
    assert state["dropped"] == 1, "the browser's go was not seen"
    assert d.settings(app)["chunks_text"] == saved_text
    assert app.exceptions() == []


def _descendants(pid: int) -> set[int]:
    from tests.e2e.conftest import _children

    children, out, todo = _children(), set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def _route_reads(app: AppPage) -> dict:
    """Route the app's websocket (for the next page load), noting the page's last run message
    (`"last"`) until a message that `state["armed"]` matches goes to the server (`"seen"`: the socket
    to the server and the server's processes then)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    from tests.e2e.conftest import SERVER_PIDS

    server = SERVER_PIDS[app.base_url]
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    state: dict = {"armed": None, "last": None, "seen": None, "started": 0}

    def to_page(message, _socket):
        if isinstance(message, bytes) and ForwardMsg.FromString(message).WhichOneof("type") == "new_session":
            state["started"] += 1  # a run of the script has started
        return message

    def to_server(message, socket):
        if isinstance(message, bytes) and state["seen"] is None:
            if state["armed"] is not None and state["armed"](message):
                state["seen"] = (socket, _descendants(server))
            elif BackMsg.FromString(message).WhichOneof("type") == "rerun_script":
                state["last"] = message
        return message

    _route(app, to_page=to_page, to_server=to_server)
    return state


def _click_on(key: str):
    """Whether a message to the server is the click on the button whose key is `key`."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    def is_it(message: bytes) -> bool:
        msg = BackMsg.FromString(message)
        return msg.WhichOneof("type") == "rerun_script" and any(
            key in w.id and w.WhichOneof("value") == "trigger_value" and w.trigger_value
            for w in msg.rerun_script.widget_states.widgets
        )

    return is_it


def _click_while_it_is_read(app: AppPage, state: dict) -> None:
    """Once the message that makes the server read a tokenizer's file (in a process of its own) has
    gone (`_route_reads`), hold that process (SIGSTOP) as soon as it starts, send the page's last
    run message again (to the server, a click that changes nothing) and wait until the server has
    started that run, then let the process go on. Streamlit starts the click's run at once, in a
    thread of its own, and stops the reading run at its next use of the session's state: this
    makes that happen every time, not only on a busy server."""
    from tests.e2e.conftest import SERVER_PIDS

    until(app, lambda: state["seen"] is not None, "the message that reads the file")
    socket, before = state["seen"]
    held: list[int] = []
    until(app, lambda: held.extend(sorted(_descendants(SERVER_PIDS[app.base_url]) - before)) or held,
          "a process that reads the file")  # fmt: skip
    for pid in held:
        os.kill(pid, signal.SIGSTOP)  # the add waits for it...
    try:
        started = state["started"]
        socket.send(state["last"])  # ...while the click's run starts
        until(app, lambda: state["started"] > started, "the click's run")
    finally:
        for pid in held:
            os.kill(pid, signal.SIGCONT)
    app.settle()


def test_an_own_tokenizer_being_added_again_when_a_click_comes_is_not_lost(app_page):
    """A click (any rerun) while a kept tokenizer is being added again after a reload: the
    tokenizer is listed and chosen again with no further click."""
    app = app_page
    _gpt2_kept(app)
    d.pick(app, "workspace_tokenizers", "my gpt2 (yours)", typed="my gpt2")
    kept_in_storage(app, "workspace", "custom-")
    chosen = d.settings(app)["workspace_tokenizers_picker"]
    assert "my gpt2 (yours)" in chosen
    state = _route_reads(app)
    state["armed"] = lambda message: b'"event":"answer"' in message
    app.page.reload()
    _click_while_it_is_read(app, state)
    assert _own_listed(app, "my gpt2")
    assert d.settings(app)["workspace_tokenizers_picker"] == chosen
    assert app.exceptions() == []


def test_an_upload_being_read_when_a_click_comes_is_added_and_kept(app_page):
    """ "Add tokenizer", then a click elsewhere while the file is read: the tokenizer is added,
    said so, listed and kept in the browser, with no further click."""
    from tokenizer_core.tokenizers import registry

    app = app_page
    app.goto("")
    state = _route_reads(app)
    reload(app)
    sidebar = app.page.get_by_test_id("stSidebar")
    _own_listed(app, "my gpt2")  # opens "Your own tokenizers" once the page has settled
    uploader = sidebar.get_by_test_id("stFileUploaderDropzoneInput")
    app.run(lambda: uploader.set_input_files(str(registry.DATA_DIR / "r50k_base.tiktoken")))
    box = sidebar.get_by_test_id("stTextInput").locator("input")
    box.fill("my gpt2")
    app.run(lambda: box.press("Enter"))
    state["armed"] = _click_on("custom_tok_add")
    sidebar.get_by_role("button", name="Add tokenizer").click()
    _click_while_it_is_read(app, state)
    expect(sidebar.get_by_text(re.compile("Added my gpt2"))).to_be_visible(timeout=30_000)
    assert _own_listed(app, "my gpt2")
    _kept_tokenizers(app, ["my gpt2"])
    assert app.exceptions() == []


def test_the_browsers_answer_coming_again_after_the_restore_does_not_undo_it(app_page):
    """A message of the page from before the restore (here its answer, sent again once the page is
    drawn) changes nothing: the page shows the saved text and keeps it."""
    app = app_page
    saved_text = _chunks_document_kept(app)
    state = _hold(app, b"answer")
    app.page.reload()
    until(app, lambda: state["held"], "the browser's answer")
    app.run(lambda: state["server"].send(state["held"][0]))
    app.settle()
    app.run(lambda: state["server"].send(state["held"][0]))  # again, from the page before
    assert d.settings(app)["chunks_text"] == saved_text
    kept_in_storage(app, "chunks", "My saved document")
    assert app.exceptions() == []
