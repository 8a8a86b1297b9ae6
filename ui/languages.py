"""App layer of the language cost page: cached counts, this session's texts and prices (editors
and their callbacks), the workload inputs, the monthly cost section and the notes on the sample."""

from __future__ import annotations

from datetime import date

import pandas as pd
import streamlit as st

from tokenizer_core import (
    COST_DEFINITION,
    EDITOR_COLUMNS,
    PREMIUM_CITATION,
    PREMIUM_DEFINITION,
    PRICE_FIELDS,
    InputError,
    Language,
    LanguageRow,
    ModelPrice,
    Segment,
    Tokenizer,
    Workload,
    cost_rows_csv,
    cost_table,
    default_prices,
    escape_markdown,
    language_table,
    languages_from_records,
    languages_to_records,
    load_parallel_sample,
    merge_translations,
    parallel_sample_info,
    parse_translations_csv,
    price_age_days,
    prices_from_records,
    prices_to_records,
    published_comparison,
    translations_csv,
)
from tokenizer_core.languages.charts import cost_chart

from .prices import price_records, remember_edited
from .state import get_tokenizers, named, tokenizer_infos, unnamed
from .widgets import show_unavailable, working_tokenizers

STALE_DAYS = 90
TABLE = "languages_table"  # rows behind the text editor (this session's texts)
TABLE_PREV = "languages_table_previous"
EDITOR = "languages_editor"
PRICES = "languages_prices"
PRICES_EDITOR = "languages_prices_editor"
SELECTED = "languages_selected"
SEEN = "languages_seen_codes"
DEFAULT_COST_MODELS = ("GPT-5 mini", "GPT-4o mini", "GPT-3.5 Turbo", "Mistral NeMo")


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


def _on_reset_prices() -> None:
    st.session_state[PRICES] = prices_to_records(default_prices().models)
    remember_edited(st.session_state[PRICES])
    st.session_state.pop(PRICES_EDITOR, None)


def price_editor() -> tuple[list[ModelPrice], list[str]]:
    table = default_prices()
    if PRICES_EDITOR not in st.session_state:  # back on this page: start from the table as last edited
        st.session_state[PRICES] = price_records()
    known = [i.id for i in tokenizer_infos()]
    with st.expander(
        f"Prices: list prices as of {table.as_of}, check the provider's page (editable)",
        icon=":material/sell:",
    ):
        st.caption(escape_markdown(table.note))
        edited = st.data_editor(
            pd.DataFrame(st.session_state[PRICES], columns=list(PRICE_FIELDS)),
            key=PRICES_EDITOR, num_rows="dynamic", hide_index=True, width="stretch",
            column_config={
                "model": st.column_config.TextColumn("Model", required=True),
                "provider": st.column_config.TextColumn("Provider"),
                "tokenizer_id": st.column_config.SelectboxColumn(
                    "Tokenizer", options=known, required=True,
                    help="The tokenizer this model counts with. Only tokenizers the app has can be priced.",
                ),
                "input_per_million": st.column_config.NumberColumn("Input $ / 1M tokens", min_value=0.0, format="$%.3f"),
                "output_per_million": st.column_config.NumberColumn("Output $ / 1M tokens", min_value=0.0, format="$%.3f"),
                "as_of": st.column_config.TextColumn("As of", help="The date the price was read, e.g. 2025-08-07."),
                "source": st.column_config.LinkColumn("Source", help="The provider's pricing page."),
            },
        )  # fmt: skip
        st.button(
            "Reset to the shipped prices",
            key="languages_prices_reset",
            on_click=_on_reset_prices,
            icon=":material/restart_alt:",
        )
    remember_edited(edited.to_dict("records"))  # one table for the whole app (ui/prices.py)
    prices, problems = prices_from_records(edited.to_dict("records"), known_tokenizers=known)
    return prices, problems


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


def cost_section(chosen: list[Language], base: str, base_name: str) -> None:
    st.subheader("What it costs per month")
    prices, problems = price_editor()
    table = default_prices()
    age = price_age_days(table.as_of, today=date.today())
    if age is not None and age > STALE_DAYS:
        st.warning(
            f"The shipped prices are list prices as of {table.as_of} ({age} days ago): check the "
            "providers' pages and edit the table above before using these figures.",
            icon=":material/schedule:",
        )
    for p in problems:
        st.warning(escape_markdown(p), icon=":material/warning:")
    workload = workload_inputs()
    with st.popover("How the cost is computed", icon=":material/functions:"):
        st.markdown(escape_markdown(COST_DEFINITION))
    if not prices:
        st.info(
            "No usable price: add a model with its tokenizer and prices in the table above.",
            icon=":material/sell:",
        )
        return
    ids = list(dict.fromkeys(p.tokenizer_id for p in prices))
    toks, errors = get_tokenizers(ids)
    show_unavailable(errors)
    toks = working_tokenizers(toks, [l.text for l in chosen])
    if not toks:
        return
    rows = named(cached_table(tuple(chosen), tuple(t.id for t in toks), base, toks), toks)
    costs, skipped = cost_table(rows, prices, workload)
    for s in skipped:
        st.warning(escape_markdown(s), icon=":material/warning:")
    models = list(dict.fromkeys(c.model for c in costs))
    keep_valid(
        "languages_cost_models", models, default=[m for m in DEFAULT_COST_MODELS if m in models] or models[:3]
    )
    shown = st.multiselect("Models in the chart", models, key="languages_cost_models")
    label = (
        f"{workload.requests_per_month:,.0f} requests × ({workload.input_tokens:,.0f} input + "
        f"{workload.output_tokens:,.0f} output tokens in {base_name})"
    )
    if shown:
        st.altair_chart(
            cost_chart([c for c in costs if c.model in shown], workload_label=label), width="stretch"
        )
    pivot = pd.DataFrame([{"language": c.language, "model": c.model, "cost": c.monthly_cost} for c in costs])
    if len(pivot):
        wide = pivot.pivot(index="language", columns="model", values="cost")
        wide = wide.reindex([l.name for l in chosen])[models]
        st.dataframe(
            wide, width="stretch",
            column_config={m: st.column_config.NumberColumn(m, format="dollar") for m in models},
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
