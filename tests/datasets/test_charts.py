"""The pure chart builders: data in, an Altair chart out."""

from __future__ import annotations

from tests.datasets.samples import batch_lines, jsonl
from tokenizer_core.datasets import count_dataset
from tokenizer_core.datasets.charts import histogram_chart, histogram_frame, icicle_chart, icicle_nodes


def test_the_histogram_holds_every_row_and_each_models_limit():
    r = count_dataset(
        jsonl(batch_lines(30)), ["gpt-4o", "llama-3.1-8b"], name="b.jsonl", engine="local", budget=90
    )
    frame = histogram_frame(r.models)
    assert frame.groupby("model")["rows"].sum().to_dict() == {"GPT-4o": 30, "Llama 3.1 8B": 30}
    assert set(frame["limit"]) == {90}
    spec = histogram_chart(r.models).to_dict()
    assert spec["facet"]["row"]["field"] == "model"
    assert [layer["mark"]["type"] for layer in spec["spec"]["layer"]] == ["bar", "rule"]


def test_the_icicle_lays_folders_out_by_tokens():
    paths = ["src/a.py", "src/b.py", "docs/guide.md", "README.md", "src/deep/c.py"]
    tokens = [300, 100, 500, 50, 50]
    nodes = {(n.path, n.depth): n for n in icicle_nodes(paths, tokens)}
    assert nodes[("docs", 0)].tokens == 500 and nodes[("src", 0)].tokens == 450
    assert nodes[("src", 0)].x0 == 500 and nodes[("README.md", 0)].x0 == 950  # largest first
    assert nodes[("src/a.py", 1)].x0 == nodes[("src", 0)].x0
    assert nodes[("src/deep/c.py", 2)].tokens == 50
    data = icicle_chart(paths, tokens).to_dict()["datasets"]
    (rows,) = data.values()
    assert {r["path"] for r in rows} >= {"src", "docs", "README.md", "src/a.py"}


def test_icicle_labels_fit_their_boxes_so_they_never_overlap():
    from tokenizer_core.datasets.charts import CHAR_PX, LABEL_PAD_PX, NARROWEST_CHART_PX, box_label

    paths = [f"package_with_a_long_name_{i}/module_{j}.py" for i in range(6) for j in range(5)]
    tokens = [1000 * (i + 1) + j for i in range(6) for j in range(5)]
    data = icicle_chart(paths, tokens).to_dict()["datasets"]
    (rows,) = data.values()
    total = sum(tokens)
    for r in rows:
        if r["label"]:
            width = (r["x1"] - r["x0"]) / total * NARROWEST_CHART_PX
            assert len(r["label"]) * CHAR_PX + LABEL_PAD_PX <= width, r
    assert box_label("tokenizer_core", 0.5) == "tokenizer_core"
    assert box_label("tokenizer_core", 0.1) == "tok…" and box_label("x", 0.01) == ""
