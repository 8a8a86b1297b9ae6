"""AppTest helpers for the model picker (a components v2 combobox: AppTest runs no JavaScript).

The picker keeps its choice in ``st.session_state[key]``; a test chooses by setting it, as the
browser's add/remove events do, and reads what the picker offers from the data it is drawn with.
"""

from __future__ import annotations

import json


def choose(at, key: str, ids: list[str]):
    """Choose `ids` in the picker (or multiselect) with this key, then run: returns the AppTest."""
    widgets = [w for w in at.multiselect if w.key == key]
    if widgets:
        return widgets[0].set_value(ids).run()
    at.session_state[key] = list(ids)
    return at.run()


def picker_data(at, key: str) -> dict:
    """The data the picker with this key was last drawn with (options, chosen ids, notes)."""
    for el in at.get("bidi_component"):
        if el.proto.component_name == "tw_model_picker" and el.proto.id.endswith(f"-{key}_picker"):
            data = json.loads(el.proto.json)
            fields = ("id", "name", "detail", "terms", "kind")
            data["options"] = [dict(zip(fields, o)) for o in data["options"]]
            return data
    raise LookupError(f"no model picker with key {key!r} on the page")


def picker_names(at, key: str) -> list[str]:
    """The names the picker offers, in its order."""
    return [o["name"] for o in picker_data(at, key)["options"]]
