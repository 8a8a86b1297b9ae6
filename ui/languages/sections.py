"""App layer of the language cost page: cached counts, this session's texts and prices (editors
and their callbacks), the workload inputs, the monthly cost section and the notes on the sample."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import InputError, Language, Segment, Tokenizer, language_table
from tokenizer_core.languages import (
    EDITOR_COLUMNS,
    PREMIUM_CITATION,
    PREMIUM_DEFINITION,
    LanguageRow,
    languages_from_records,
    languages_to_records,
    load_parallel_sample,
    merge_translations,
    parallel_sample_info,
    parse_translations_csv,
    published_comparison,
    translations_csv,
)
from tokenizer_core.languages.charts import cost_chart
from tokenizer_core.pricing import COST_DEFINITION, Workload, cost_rows_csv, cost_table
from tokenizer_core.tokenizers import escape_markdown
from tokenizer_core.workspace.models import MODELS, ModelEntry

from ..model_picker import model_picker
from ..models import PICKER_NOTES, picker_entries
from ..prices import price_editor, prices_for, rate_control, show_price_notes
from ..state import get_tokenizers, named, unnamed
from ..widgets import show_unavailable, working_tokenizers

TABLE = "languages_table"  # rows behind the text editor (this session's texts)
TABLE_PREV = "languages_table_previous"
EDITOR = "languages_editor"
PRICES_EDITOR = "languages_prices_editor"
SELECTED = "languages_selected"
SEEN = "languages_seen_codes"
DEFAULT_COST_MODELS = ("gpt-5-mini", "gpt-4o-mini", "gpt-3.5-turbo", "open-mistral-nemo-2407")
COST_MODELS = "languages_cost_models"


@st.cache_data(show_spinner=False)
def sample() -> list[Language]:
    return load_parallel_sample()


@st.cache_data(max_entries=64, ttl=3600, show_spinner="Counting tokens in every language...")
def cached_table(
    languages: tuple[Language, ...], ids: tuple[str, ...], base: str, _toks: list[Tokenizer]
) -> list[LanguageRow]:
    return unnamed(language_table(list(languages), _toks, base=base))


@st.cache_data(max_entries=48, ttl=600, show_spinner=False)
def cached_segments(tokenizer_id: str, text: str, _tok: Tokenizer) -> list[Segment]:
    return _tok.segments(text)


def _replace_table(records: list[dict]) -> None:
    """New rows behind the editor; the old ones can be restored. Clears the editor's edits."""
    st.session_state[TABLE_PREV] = st.session_state.get("languages_current") or st.session_state[TABLE]
    st.session_state[TABLE] = records
    st.session_state.pop(EDITOR, None)


def _on_csv() -> None:
    for k in ("languages_csv_error", "languages_csv_notice", "languages_csv_problems"):
        st.session_state.pop(k, None)
    file = st.session_state.get("languages_csv")
    if file is None:
        return
    try:
        parsed = parse_translations_csv(file.getvalue(), filename=file.name, known=sample())
    except InputError as exc:
        st.session_state["languages_csv_error"] = str(exc)
        return
    current = st.session_state.get("languages_current") or st.session_state[TABLE]
    merged, replaced, added = merge_translations(current, parsed.languages, known=sample())
    _replace_table(merged)
    parts = []
    if replaced:
        parts.append(
            f"replaced the text of {len(replaced)} ({', '.join(replaced[:8])}{'...' if len(replaced) > 8 else ''})"
        )
    if added:
        parts.append(f"added {len(added)} ({', '.join(added[:8])}{'...' if len(added) > 8 else ''})")
    st.session_state["languages_csv_notice"] = f"{file.name}: " + " and ".join(parts) + "."
    st.session_state["languages_csv_problems"] = parsed.problems


def _on_reset_texts() -> None:
    _replace_table(languages_to_records(sample()))


def _on_restore_texts() -> None:
    prev = st.session_state.pop(TABLE_PREV, None)
    if prev is not None:
        _replace_table(prev)


def texts_section() -> tuple[list[Language], list[str]]:
    """The editable table of texts, CSV upload and reset. Returns usable languages + problems."""
    st.session_state.setdefault(TABLE, languages_to_records(sample()))
    with st.expander(
        "Texts: edit any language, add your own, or upload your translations", icon=":material/edit_note:"
    ):
        st.caption(
            "Every text must say the same thing as the others: the premium compares the same content. "
            "Edit a cell to change a text; add a row (at the bottom) for another language. Code and "
            "script are optional for a new language: the script, reading direction and whether "
            "words are separated by spaces are detected from its text."
        )
        c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
        c1.file_uploader(
            "Upload translations (CSV with columns language, text)", type=["csv", "tsv", "txt"],
            key="languages_csv", on_change=_on_csv,
            help="UTF-8 CSV; optional columns: code, script, whitespace_words (yes/no). A language "
            "already in the table gets the new text; others are added. Download the texts below "
            "for a file in the right format.",
        )  # fmt: skip
        with c2:
            st.button(
                "Reset to the bundled sample", key="languages_reset", on_click=_on_reset_texts,
                icon=":material/restart_alt:", width="stretch",
            )  # fmt: skip
            if TABLE_PREV in st.session_state:
                st.button(
                    "Restore the table you had before", key="languages_restore",
                    on_click=_on_restore_texts, icon=":material/undo:", width="stretch",
                )  # fmt: skip
        if msg := st.session_state.get("languages_csv_error"):
            st.error(escape_markdown(msg) + " The table below is unchanged.", icon=":material/block:")
        if msg := st.session_state.get("languages_csv_notice"):
            st.success(escape_markdown(msg), icon=":material/check:")
        for problem in st.session_state.get("languages_csv_problems", []):
            st.warning(escape_markdown(problem), icon=":material/warning:")
        df = pd.DataFrame(st.session_state[TABLE], columns=list(EDITOR_COLUMNS))
        df["whitespace_words"] = df["whitespace_words"].astype(object)  # new rows start empty (None)
        edited = st.data_editor(
            df, key=EDITOR, num_rows="dynamic", hide_index=True, width="stretch", height=420,
            column_config={
                "code": st.column_config.TextColumn("Code", help="ISO 639 code, e.g. hi. Optional for a new language.", width="small"),
                "language": st.column_config.TextColumn("Language", required=True, width="medium"),
                "script": st.column_config.TextColumn("Script", help="Detected from the text when empty.", width="small"),
                "whitespace_words": st.column_config.CheckboxColumn(
                    "Spaces between words", help="Off for scripts written without spaces between words "
                    "(Chinese, Japanese, Thai, Burmese): they get no word count. Detected when empty.",
                    width="small",
                ),
                "text": st.column_config.TextColumn("Text", width="large", help="The same content in this language."),
            },
        )  # fmt: skip
        records = edited.to_dict("records")
        st.session_state["languages_current"] = records
        languages, problems = languages_from_records(records, known=sample())
        st.download_button(
            "Download the texts (CSV, the upload format)", translations_csv(languages),
            file_name="translations.csv", mime="text/csv", icon=":material/download:",
            key="languages_texts_csv", disabled=not languages,
        )  # fmt: skip
    return languages, problems


def keep_valid(key: str, options: list[str], *, default: list[str], add_new: bool = False) -> None:
    """Session value of a multiselect limited to `options`; new options appear selected."""
    if key not in st.session_state:
        st.session_state[key] = default
        return
    current = [c for c in st.session_state[key] if c in options]
    if add_new:
        seen = set(st.session_state.get(SEEN, options))
        current += [c for c in options if c not in seen and c not in current]
    st.session_state[key] = current


def workload_inputs() -> Workload:
    c1, c2, c3, c4 = st.columns(4)
    requests = c1.number_input(
        "Requests per month",
        min_value=0,
        max_value=10**12,
        value=100_000,
        step=10_000,
        key="languages_requests",
    )
    tin = c2.number_input("Input tokens per request", min_value=0, max_value=10**8, value=1_500, step=100, key="languages_in_tokens",
                          help="Counted in the base language, with each model's tokenizer.")  # fmt: skip
    tout = c3.number_input("Output tokens per request", min_value=0, max_value=10**8, value=300, step=50, key="languages_out_tokens",
                           help="Counted in the base language, with each model's tokenizer.")  # fmt: skip
    share = c4.slider(
        "Input in the user's language", min_value=0, max_value=100, value=100, step=5, format="%d%%",
        key="languages_share", help="The rest of the input (e.g. a fixed English system prompt) does not change with the language.",
    )  # fmt: skip
    return Workload(float(requests), float(tin), float(tout), translated_share=share / 100)


def cost_models() -> list[ModelEntry]:
    """The models the page prices, picked with the app's model picker (catalog models only: a
    premium needs the model's own tokenizer)."""
    if COST_MODELS not in st.session_state:
        st.session_state[COST_MODELS] = list(DEFAULT_COST_MODELS)
    options = [o for o in picker_entries() if o.kind in ("model", "uncounted")]
    ids = model_picker(
        COST_MODELS, options, label="Models to price", notes=PICKER_NOTES,
        placeholder="Type a model",
    )  # fmt: skip
    return [MODELS[i] for i in ids if i in MODELS]


def cost_section(chosen: list[Language], base: str, base_name: str) -> None:
    st.subheader("What it costs per month")
    models = cost_models()
    if not models:
        st.info("Choose at least one model above to see what the workload costs.", icon=":material/sell:")
        return
    rate_control("languages_price_rate", models)
    table = prices_for(models)
    with st.expander(
        "Prices: the source's, and yours (edit any price here; one table for every page)",
        icon=":material/sell:",
        expanded=True,
    ):
        price_editor(table, key=PRICES_EDITOR)
    show_price_notes(table)
    workload = workload_inputs()
    with st.popover("How the cost is computed", icon=":material/functions:"):
        st.markdown(escape_markdown(COST_DEFINITION))
    ids = list(dict.fromkeys(p.tokenizer_id for p in table.prices if p.priced and p.tokenizer_id))
    if not ids:
        st.info(
            "None of the chosen models has both a price and a tokenizer: type a price in the table above, "
            "or choose another model.",
            icon=":material/sell:",
        )
        return
    toks, errors = get_tokenizers(ids)
    show_unavailable(errors)
    toks = working_tokenizers(toks, [l.text for l in chosen])
    if not toks:
        return
    rows = named(cached_table(tuple(chosen), tuple(t.id for t in toks), base, toks), toks)
    costs, skipped = cost_table(rows, list(table.prices), workload)
    for s in skipped:
        st.caption(escape_markdown(s))
    names = list(dict.fromkeys(c.model for c in costs))
    label = (
        f"{workload.requests_per_month:,.0f} requests × ({workload.input_tokens:,.0f} input + "
        f"{workload.output_tokens:,.0f} output tokens in {base_name})"
    )
    if costs:
        st.altair_chart(cost_chart(costs, workload_label=label), width="stretch")
    pivot = pd.DataFrame([{"language": c.language, "model": c.model, "cost": c.monthly_cost} for c in costs])
    if len(pivot):
        wide = pivot.pivot(index="language", columns="model", values="cost")
        wide = wide.reindex([l.name for l in chosen])[names]
        st.dataframe(
            wide, width="stretch", key="languages_cost_table",
            column_config={m: st.column_config.NumberColumn(m, format="dollar") for m in names},
        )  # fmt: skip
        st.download_button(
            "Download the costs (CSV)", cost_rows_csv(costs), file_name="language_costs.csv",
            mime="text/csv", icon=":material/download:", key="languages_cost_csv",
        )  # fmt: skip


def about_section() -> None:
    info = parallel_sample_info()
    with st.expander("How the premium is defined, and what the bundled sample is", icon=":material/info:"):
        st.markdown(f"**Premium.** {escape_markdown(PREMIUM_DEFINITION)}")
        st.caption(f"After {escape_markdown(PREMIUM_CITATION)}")
        st.markdown(
            f"**The bundled sample** ({info.n_languages} languages, {escape_markdown(info.written)}): "
            f"{escape_markdown(info.title.lower())}. {escape_markdown(info.provenance)}"
        )
        st.markdown(
            "**Words** are counted only where spaces separate words. Chinese, Japanese, Thai and "
            "Burmese are written without them, so they have no word count and no tokens per word; "
            "see the Note column for other caveats (Vietnamese spaces separate syllables)."
        )
        toks, _ = get_tokenizers(["cl100k_base", "r50k_base"])
        if len(toks) == 2:
            rows = named(cached_table(tuple(sample()), ("cl100k_base", "r50k_base"), "en", toks), toks)
            st.markdown(
                "**Published premiums** (Petrov et al. 2023, FLORES-200, English base) next to this sample's:"
            )
            st.dataframe(
                pd.DataFrame(published_comparison(rows)), hide_index=True,
                column_config={
                    "published (FLORES-200)": st.column_config.NumberColumn(format="%.2f"),
                    "this sample": st.column_config.NumberColumn(format="%.2f"),
                },
            )  # fmt: skip
            st.caption(
                "One short passage is not FLORES-200: expect the same order of magnitude, not the same "
                "figures. Their cl100k_base median over 203 languages is 2.26."
            )
