"""The Streamlit layer shared by the pages: cached tokenizers, session state, widget groups.

Only this package and `app_pages/` import Streamlit; the logic lives in `tokenizer_core`.
"""
