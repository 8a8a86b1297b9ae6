"""Datasets: a whole set (a Batch file, a fine-tuning set, a table, a repository) counted per model."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.tokenizers import escape_markdown
from ui.datasets.job import current_job, lost_to_a_reload, progress_panel, start_count
from ui.datasets.options import figures_section, models_section
from ui.datasets.results import results_section
from ui.datasets.source import shape_section, source_section
from ui.saved_work import keep_work

st.title("Datasets")
st.caption(
    "Count a whole set for each model: the JSONL of a Batch job, a fine-tuning file, an evaluation table "
    "or a repository. Every row is counted exactly (chat rows as the whole request in each model's "
    "format), with what it costs, what fits and how long it takes under your rate limit."
)

loaded = source_section()
keep_work("datasets")  # the settings, for a reload (ui/saved_work.py); before any st.stop
if (lost := lost_to_a_reload(loaded is not None)) is not None:
    st.warning(lost, icon=":material/refresh:")
if loaded is None:
    st.info("Drop a file or a folder, paste a list, or try a sample.", icon=":material/upload_file:")
    st.stop()
detected, options = shape_section(loaded)
if detected is None:
    st.stop()
models = models_section(detected)
options |= figures_section(detected)

fingerprint = (loaded.digest, tuple(models), tuple(sorted((k, repr(v)) for k, v in options.items())))
job = current_job()
running = job is not None and not job.done()
c1, c2 = st.columns([1, 3], vertical_alignment="center")
clicked = c1.button(
    "Count the set", key="datasets_count", type="primary", icon=":material/play_arrow:", width="stretch",
    disabled=running or not models,
)  # fmt: skip
c2.caption(
    "Small sets are counted on this server; larger ones in its counting worker processes (or your team's "
    "cluster when the server is set up with one), so the page stays usable while they run."
)
if not models:
    st.info("Choose at least one model above.", icon=":material/arrow_upward:")
if clicked and models:
    start_count(fingerprint, loaded.name, loaded.data, models, options)
    st.rerun()  # a run from the top keeps the count's token in the browser (the saved work)

if running:
    progress_panel()
elif job is not None:
    if job.cancelled:
        st.info("Cancelled. Count the set again to start over.", icon=":material/cancel:")
    elif job.error is not None:
        st.error(escape_markdown(job.error), icon=":material/error:")
    elif job.result is not None:
        if job.fingerprint != fingerprint:
            st.info("The set or the settings changed since this count: count the set again to update it.",
                    icon=":material/update:")  # fmt: skip
        results_section(job.result, job.seconds)
