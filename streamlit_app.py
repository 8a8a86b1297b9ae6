"""Tokenizer Workbench: entry point. Page config, the shared sidebar, and navigation.

The pages live in `app_pages/`, not `pages/`: Streamlit treats a folder named `pages` as the
legacy multipage app, and a server whose first request was a deep link (e.g. /bpe) would then
run that page alone, without this file's layout, sidebar and navigation, for every session.
"""

from pathlib import Path

import streamlit as st

# A file of the app's own: a Material or emoji page icon makes the browser fetch the favicon
# from Google's font servers on every visit (and shows none offline).
ICON = Path(__file__).parent / "ui" / "favicon.svg"


def main() -> None:
    # Imported here: the server imports this file before Streamlit's runtime exists (below), and
    # these modules make components and caches, which belong to the runtime.
    from ui.failures import failures_shown
    from ui.jobs import start_housekeeping
    from ui.saved_work import restore_saved_work
    from ui.style import app_style
    from ui.widgets import add_own_tokenizer, custom_tokenizer_sidebar, saved_work_sidebar

    st.set_page_config(page_title="Tokenizer Workbench", page_icon=str(ICON), layout="wide")
    pages = [
        st.Page(
            "app_pages/workspace.py", title="Prompt workspace", icon=":material/calculate:", default=True
        ),
        st.Page("app_pages/datasets.py", title="Datasets", icon=":material/dataset:", url_path="datasets"),
        st.Page("app_pages/bpe.py", title="BPE playground", icon=":material/merge:", url_path="bpe"),
        st.Page(
            "app_pages/inside.py", title="Inside a tokenizer", icon=":material/biotech:", url_path="inside"
        ),
        st.Page(
            "app_pages/languages.py",
            title="Language costs",
            icon=":material/translate:",
            url_path="languages",
        ),
        st.Page(
            "app_pages/identifiers.py",
            title="Code identifiers",
            icon=":material/code:",
            url_path="identifiers",
        ),
        st.Page(
            "app_pages/chunks.py", title="Chunk previewer", icon=":material/view_agenda:", url_path="chunks"
        ),
    ]
    start_housekeeping()  # cancels the jobs of sessions that left; gives their memory back
    nav = st.navigation(pages)
    # A new session draws no page until the work this browser kept is back (ui/saved_work.py)
    restore_saved_work(add_own_tokenizer)
    app_style()
    st.sidebar.caption(
        "Exact counts from the tokenizers models really use. Offline, nothing leaves this server."
    )
    custom_tokenizer_sidebar()
    saved_work_sidebar()  # each page keeps its work in this browser (ui/saved_work.py)
    # A user's tokenizer that breaks on text no page checked it on: a message, not a traceback
    # (the page's fragments and callbacks use the same handler, see ui/failures.py).
    with failures_shown():
        nav.run()


if __name__ == "__main__":  # Streamlit runs this file for every page of every session
    main()
else:  # `streamlit run` imports it to serve the app, finds `app`, and serves its routes too
    from streamlit.starlette import App

    from ui.count_api import routes

    app = App(__file__, routes=routes())
