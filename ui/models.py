"""Picking models by name (and encodings by their own names), and what a pick resolves to."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from tokenizer_core.catalog.choices import (
    Choice,
    TokenizerGroup,
    group_by_tokenizer,
    picker_options,
    resolve_choices,
)
from tokenizer_core.catalog.entries import (
    CATALOG,
    DEFAULT_CHOICES,
    NOT_COUNTED,
    ModelEntry,
    builtin_names,
    canonical_id,
)
from tokenizer_core.catalog.prices import model_price, uncatalogued_models
from tokenizer_core.catalog.rates import money_text

from .model_picker import PickerOption, model_picker
from .prices import pricing_day
from .state import session_tokenizers, tokenizer_infos

USERS_TOKENIZERS = "models_users_tokenizers"  # "src:..." id -> the tokenizer the user chose for it


def _names() -> dict[str, str]:
    return {i.id: i.name for i in tokenizer_infos()}


@st.cache_resource(show_spinner=False, max_entries=4)
def _source_models(day: str) -> dict[str, ModelEntry]:
    from datetime import date

    return uncatalogued_models(on=date.fromisoformat(day))


def source_models() -> dict[str, ModelEntry]:
    """Models the price source has and the catalog does not (picked with a tokenizer of the user's choice)."""
    return _source_models(pricing_day().isoformat())


def _price_text(model: ModelEntry) -> str:
    p = model_price(model, on=pricing_day())
    if p.rates is None or p.rates.input is None:
        return "no price in the source"
    out = f" / {money_text(p.rates.output.base)} out" if p.rates.output else ""
    return f"{money_text(p.rates.input.base)} in{out} per 1M ({p.provider})"


@st.cache_resource(show_spinner=False, max_entries=4)
def _catalog_options(day: str) -> list[PickerOption]:
    """The catalog's options (they name built-in tokenizers only: shared by every session)."""
    names = builtin_names()
    out = []
    for mid in picker_options(list(names)):
        m = next((e for e in CATALOG if e.id == mid), None)
        if m is None:
            continue
        if m.tokenizer_id is None:
            detail = f"{m.maker} · no public tokenizer: enter its API's count · {_price_text(m)}"
            kind = "uncounted"
        else:
            detail = f"{names.get(m.tokenizer_id, m.tokenizer_id)} · {_price_text(m)}"
            kind = "model"
        out.append(PickerOption(m.id, m.name, detail, f"{m.maker} {' '.join(m.aliases)}", kind))
    return out


def picker_entries() -> list[PickerOption]:
    """Every option of the picker: catalog models, encodings (and the user's own tokenizers), then
    the models only the price source has."""
    names = _names()
    own = set(session_tokenizers())
    infos = {i.id: i for i in tokenizer_infos()}
    out = list(_catalog_options(pricing_day().isoformat()))
    for tid, name in names.items():
        info = infos[tid]
        used = ", ".join(info.models)
        if tid in own:
            out.append(
                PickerOption(tid, f"{name} (yours)", "your own tokenizer · this session only", used, "own")
            )
        else:
            detail = f"encoding · {info.family}" + (f" · used by {used}" if used else "")
            out.append(PickerOption(tid, name, detail, f"{tid} {used}", "encoding"))
    for sid, entry in source_models().items():
        out.append(
            PickerOption(sid, entry.name, f"{entry.maker} · you choose the tokenizer", entry.maker, "source")
        )  # fmt: skip
    return out


PICKER_NOTES = {"claude": NOT_COUNTED["claude"], "anthropic": NOT_COUNTED["claude"], **NOT_COUNTED}


def model_select(key: str, *, label: str = "Models and tokenizers") -> list[Choice]:
    """Pick models by name or tokenizers; returns the choices, resolved, in the order picked."""
    if key not in st.session_state:
        st.session_state[key] = list(DEFAULT_CHOICES)
    st.session_state[key] = [canonical_id(i) for i in st.session_state[key]]
    ids = model_picker(
        key, picker_entries(), label=label, notes=PICKER_NOTES,
        placeholder="Type a model or an encoding",
    )  # fmt: skip
    choices = resolve_choices(
        ids, tokenizer_names=_names(), users_tokenizers=st.session_state.get(USERS_TOKENIZERS, {}),
        source_models=source_models(),
    )  # fmt: skip
    users_tokenizer_inputs(key, choices)
    return choices


def _on_users_tokenizer(choice_id: str, widget: str) -> None:
    chosen = dict(st.session_state.get(USERS_TOKENIZERS, {}))
    value = st.session_state.get(widget)
    if value:
        chosen[choice_id] = value
    else:
        chosen.pop(choice_id, None)
    st.session_state[USERS_TOKENIZERS] = chosen


def users_tokenizer_inputs(key: str, choices: Sequence[Choice]) -> None:
    """For each picked model that only the price source has: which tokenizer counts it (the user's choice)."""
    picked = [c for c in choices if c.users_tokenizer]
    if not picked:
        return
    names = _names()
    chosen = st.session_state.get(USERS_TOKENIZERS, {})
    for c in picked:
        widget = f"{key}_users_tok_{c.id}"
        options = list(names)
        st.selectbox(
            f"Count {c.name} with (your choice)", options, format_func=names.get, key=widget, persist_state="session",
            index=options.index(chosen[c.id]) if chosen.get(c.id) in options else None, placeholder="Choose a tokenizer", on_change=_on_users_tokenizer, args=(c.id, widget),
            help="The app has no mapping from this model to its tokenizer: the counts are those of the "
            "tokenizer you choose, labelled as your choice, not necessarily the model's own.",
        )  # fmt: skip


def groups_for(choices: list[Choice]) -> list[TokenizerGroup]:
    return group_by_tokenizer(choices)


def known_choice_ids() -> list[str]:
    """Every id a share link or workspace file may name (built-in models and tokenizers, older
    ids of the catalog, and models of the price source)."""
    from tokenizer_core import BUILTINS
    from tokenizer_core.catalog.entries import LEGACY_IDS

    return [*picker_options(list(BUILTINS)), *LEGACY_IDS, *source_models()]
