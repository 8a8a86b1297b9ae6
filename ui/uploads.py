"""Upload limits: each file box's own, never above the server's.

Streamlit's server refuses any upload over ``server.maxUploadSize`` with a bare HTTP 413, which the
browser shows as "AxiosError: Request failed with status code 413", whatever the widget's own
``max_upload_size`` says. The browser checks the widget's limit before it sends a file and says
"File must be 60.0MB or smaller." So every box's limit is its own, cut to the server's.
"""

from __future__ import annotations

import streamlit as st


def upload_limit_mb(own_mb: int) -> int:
    """A file box's limit in MB (Streamlit's MB are MiB): its own, at most the server's.

    ``upload_limit_mb(60) -> 60`` with the app's config.toml (200)."""
    return max(1, min(int(own_mb), int(st.get_option("server.maxUploadSize"))))
