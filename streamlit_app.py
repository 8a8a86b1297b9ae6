"""Tokenizer Workbench: entry point. Page config, the shared sidebar, and navigation."""

import streamlit as st

from ui.widgets import custom_tokenizer_sidebar


def main() -> None:
    st.set_page_config(page_title="Tokenizer Workbench", page_icon=":material/token:", layout="wide")
    pages = [
        st.Page("pages/counter.py", title="Token counter", icon=":material/calculate:", url_path="counter", default=True),
        st.Page("pages/bpe.py", title="BPE playground", icon=":material/merge:", url_path="bpe"),
        st.Page("pages/languages.py", title="Language costs", icon=":material/translate:", url_path="languages"),
        st.Page("pages/identifiers.py", title="Code identifiers", icon=":material/code:", url_path="identifiers"),
        st.Page("pages/chunks.py", title="Chunk previewer", icon=":material/view_agenda:", url_path="chunks"),
    ]
    nav = st.navigation(pages)
    st.sidebar.caption("Exact counts from the tokenizers models really use. Offline, nothing leaves this server.")
    custom_tokenizer_sidebar()
    nav.run()


main()
