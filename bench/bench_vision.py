"""A vision Batch file against its text-only twin: what counting the images costs in time and memory.

    python bench/bench_vision.py              # 10,000 rows, about 200 MB of base64 images
    python bench/bench_vision.py --quick      # 500 rows, about 10 MB
    python bench/bench_vision.py --engine dask   # on 2 Dask workers (default: in-process)

The file: OpenAI Batch requests to /v1/chat/completions, each a user message of a short prose text
(bench/corpus.py) and one image as a base64 data URL (``image_url``, detail low, high or auto). The
images are PNG and JPEG files of varied sizes (256 to 4,096 px a side) with real headers: a PNG's
signature, IHDR and one IDAT chunk, a JPEG's SOI, JFIF, SOF0 and SOS segments; their data after the
header is random filler (never decoded: the count reads each size from the header), about 15 KB an
image on average. The twin: the same rows with the image parts taken out. Both are written to a
temporary directory and counted in the same run by ``count_dataset(path, ["gpt-4o", "gpt-4.1-mini"])``,
the twin first, then the vision file, then each again (the better of two runs is reported).

Reported: wall time and peak RSS (this process, plus the workers with --engine dask; sampled every
0.1 s), and the ratio vision / twin. Goal: the images add at most 2x the time, and memory stays
bounded (the same peak for the whole file as for a quarter of it; sizes come from headers, pixels
are never decoded). Each image's tokens are checked against OpenAI's rule for its size and detail.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import struct
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from bench.bench_datasets import PeakRSS, _cluster, _warm  # noqa: E402
from bench.corpus import english_prose  # noqa: E402
from tokenizer_core.catalog.images import data_url_size, image_tokens  # noqa: E402
from tokenizer_core.datasets import count_dataset  # noqa: E402
from tokenizer_core.datasets.engine import DaskEngine, InProcess  # noqa: E402

MODELS = ["gpt-4o", "gpt-4.1-mini"]
MB = 1_000_000
SIDES = (256, 512, 768, 800, 1024, 1280, 1536, 2048, 3000, 4096)
DETAILS = ("low", "high", "auto")


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int, height: int, filler: bytes) -> bytes:
    """A PNG whose header says width × height; its one IDAT chunk holds `filler`, not real pixels."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", filler) + _chunk(b"IEND", b"")


def jpeg(width: int, height: int, filler: bytes) -> bytes:
    """A baseline JPEG whose SOF0 says width × height; `filler` stands for the entropy-coded data."""
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof0 = (
        b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, height, width, 3) + b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    )
    sos = b"\xff\xda" + struct.pack(">HB", 12, 3) + b"\x01\x00\x02\x11\x03\x11\x00\x3f\x00"
    return b"\xff\xd8" + app0 + sof0 + sos + filler.replace(b"\xff", b"\x00") + b"\xff\xd9"


def generate(
    folder: Path, rows: int, image_kb: int, *, name: str = "vision"
) -> tuple[Path, Path, list[tuple[int, int, str]]]:
    """The vision file and its text-only twin, and each row's (width, height, detail)."""
    rng = random.Random(41)
    paragraphs = [p for p in english_prose(2 * MB).split("\n\n") if 40 < len(p) < 600]
    # filler blobs reused across images (generating 200 MB of random bytes is not what is measured)
    blobs = [rng.randbytes(rng.randint(image_kb * 1024 // 2, image_kb * 1024 * 3 // 2)) for _ in range(64)]
    vision, twin = folder / f"{name}_batch.jsonl", folder / f"{name}_batch_text_only.jsonl"
    sizes = []
    with open(vision, "w", encoding="utf-8") as fv, open(twin, "w", encoding="utf-8") as ft:
        for i in range(rows):
            w, h, detail = rng.choice(SIDES), rng.choice(SIDES), DETAILS[i % 3]
            sizes.append((w, h, detail))
            blob = blobs[i % len(blobs)]
            kind, data = ("png", png(w, h, blob)) if i % 2 else ("jpeg", jpeg(w, h, blob))
            url = f"data:image/{kind};base64," + base64.b64encode(data).decode("ascii")
            text = {"type": "text", "text": "Describe the image in one sentence. " + rng.choice(paragraphs)}
            image = {"type": "image_url", "image_url": {"url": url, "detail": detail}}
            for f, content in ((fv, [text, image]), (ft, [text])):
                body = {
                    "model": "gpt-4o",
                    "max_tokens": 100,
                    "messages": [{"role": "user", "content": content}],
                }
                f.write(json.dumps({"custom_id": f"img-{i}", "method": "POST", "url": "/v1/chat/completions",
                                    "body": body}) + "\n")  # fmt: skip
    return vision, twin, sizes


def _engine(kind: str, client) -> object:
    return DaskEngine(client) if kind == "dask" else InProcess()


class Peak(PeakRSS):
    """bench_datasets' sampler, every 0.02 s, with a first sample at the start (a short run is seen)."""

    def _run(self) -> None:
        while True:
            rss = []
            for p in self.procs:
                try:
                    rss.append(p.memory_info().rss)
                except psutil.Error:
                    rss.append(0)
            self.peak_here = max(self.peak_here, rss[0])
            self.peak_workers = max(self.peak_workers, sum(rss[1:]))
            if self._stop.wait(0.02):
                return


def run(path: Path, engine_kind: str, client, pids: list[int]) -> tuple[float, int, int, object]:
    with Peak(pids) as peak:
        t0 = time.perf_counter()
        result = count_dataset(path, MODELS, engine=_engine(engine_kind, client))
        dt = time.perf_counter() - t0
    return dt, peak.peak_here, peak.peak_workers, result


def json_floor(path: Path) -> tuple[float, float]:
    """Seconds to read the file and json.loads each line (what any counter of it pays first), and
    seconds to read every image's size from its data URL (`data_url_size`) after that."""
    urls = []
    t0 = time.perf_counter()
    with open(path, "rb") as f:
        for line in f:
            for part in json.loads(line)["body"]["messages"][0]["content"]:
                if part["type"] == "image_url":
                    urls.append(part["image_url"]["url"])
    t_json = time.perf_counter() - t0
    t0 = time.perf_counter()
    for url in urls:
        data_url_size(url)
    return t_json, time.perf_counter() - t0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="500 rows (about 10 MB)")
    ap.add_argument("--rows", type=int, default=10_000)
    ap.add_argument("--image-kb", type=int, default=15, help="average filler per image, KiB")
    ap.add_argument("--engine", choices=("inprocess", "dask"), default="inprocess")
    args = ap.parse_args(argv)
    rows = 500 if args.quick else args.rows
    client = cluster = None
    pids: list[int] = []
    if args.engine == "dask":
        cluster, client = _cluster(2)
        _warm(client, ["o200k_base"])
        pids = list(client.run(os.getpid).values())
    try:
        with tempfile.TemporaryDirectory(prefix="bench_vision_") as tmp:
            t0 = time.perf_counter()
            vision, twin, sizes = generate(Path(tmp), rows, args.image_kb)
            quarter_v, quarter_t, _ = generate(Path(tmp), rows // 4, args.image_kb, name="quarter")
            print(f"generated in {time.perf_counter() - t0:.1f} s: {vision.stat().st_size / MB:,.1f} MB with "
                  f"{rows:,} images, text-only twin {twin.stat().st_size / MB:,.1f} MB "
                  f"({'2 Dask workers' if client else 'in-process'}, models {', '.join(MODELS)})", flush=True)  # fmt: skip
            # the expected image tokens, one by one, by the rule (tokenizer_core.catalog.images)
            expected = {
                m: sum(image_tokens(m, (w, h), detail=d).tokens or 0 for w, h, d in sizes) for m in MODELS
            }
            count_dataset(quarter_t, MODELS, engine=_engine(args.engine, client))  # tokenizers loaded first
            best: dict[str, tuple[float, int, int]] = {}
            results = {}
            print(f"{'run':34}{'s':>8}{'MB/s':>8}{'rows/s':>9}{'peak RSS here':>15}{'workers':>10}")
            runs = [("text-only twin", twin), ("vision file", vision), ("vision file, a quarter", quarter_v)]
            for label, path in runs + runs[:2]:
                dt, here, workers, result = run(path, args.engine, client, pids)
                results[label] = result
                sz = path.stat().st_size
                print(f"{label:34}{dt:8.2f}{sz / MB / dt:8.1f}{result.rows / dt:9,.0f}{here / MB:13,.0f}MB"
                      f"{workers / MB:8,.0f}MB", flush=True)  # fmt: skip
                old = best.get(label, (dt, 0, 0))
                best[label] = (min(dt, old[0]), max(here, old[1]), max(workers, old[2]))
            (floor_t, _), (floor_v, headers) = json_floor(twin), json_floor(vision)
            ratio = vision.stat().st_size / twin.stat().st_size
            print(f"reading and json.loads of each line alone: twin {floor_t:.2f} s, vision file {floor_v:.2f} s "
                  f"(+{floor_v - floor_t:.2f} s for {ratio:.0f}x the bytes, before any image is looked at); "
                  f"every image's size from its data URL: {headers:.2f} s ({headers / rows * 1e6:.0f} µs an image)")  # fmt: skip
            for m in MODELS:
                got = results["vision file"].model(m).total - results["text-only twin"].model(m).total
                assert got == expected[m], (m, got, expected[m])
                print(f"{m}: the images add {got:,} tokens, equal to the rule applied image by image")
            tv, tt = best["vision file"][0], best["text-only twin"][0]
            print(f"time: vision {tv:.2f} s / text-only {tt:.2f} s = {tv / tt:.2f}x (goal <= 2x); without the "
                  f"JSON decoding of the extra bytes ({floor_v - floor_t:.2f} s): {(tv - floor_v + floor_t) / tt:.2f}x")  # fmt: skip
            for label in ("vision file", "vision file, a quarter", "text-only twin"):
                _, here, workers = best[label]
                print(f"peak RSS, {label}: {here / MB:,.0f} MB here" + (f", {workers / MB:,.0f} MB workers"
                                                                         if client else ""))  # fmt: skip
    finally:
        if client is not None:
            client.close()
            cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
