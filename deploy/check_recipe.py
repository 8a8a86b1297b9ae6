"""Check the Dockerfile's recipe without a Docker engine (this machine has only the docker client).

    python deploy/check_recipe.py            # fresh venv, the Dockerfile's install, the server offline
    python deploy/check_recipe.py --keep     # keep the temporary folder to look at it

What it does, following the Dockerfile (read from it, not repeated here):
1. the build context: the repository's files minus .dockerignore, copied to a temporary /app;
2. a fresh virtual environment (the image's Python 3.11) and the Dockerfile's `RUN pip install`
   lines, run in that folder with the Dockerfile's ENV;
3. the Dockerfile's CMD started with an empty HOME, in a new network namespace that has only a
   loopback interface (`unshare -n`, as root): the app gets no network at run time at all;
4. the Dockerfile's HEALTHCHECK command, run as written, must succeed; then one websocket session
   loads the counter page and checks the o200k_base count of its text; no file may have been
   written into the app folder.
Not checked here: the non-root user (this machine's Python lives in /root, unreadable by others).
"""

from __future__ import annotations

import argparse
import asyncio
import fnmatch
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def dockerfile() -> dict:
    """ENV, RUN pip lines, CMD and HEALTHCHECK of the Dockerfile (continuation lines joined)."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    out: dict = {"env": {}, "run": [], "cmd": None, "health": None}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("ENV "):
            for item in shlex.split(line[4:]):
                k, _, v = item.partition("=")
                out["env"][k] = v
        elif line.startswith("RUN pip "):
            out["run"].append(line[4:])
        elif line.startswith("CMD "):
            out["cmd"] = json.loads(line[4:])
        elif line.startswith("HEALTHCHECK "):
            out["health"] = json.loads(line[line.index("CMD ") + 4 :])
    assert out["run"] and out["cmd"] and out["health"], "Dockerfile changed shape: update check_recipe.py"
    return out


def context_files() -> list[str]:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()  # fmt: skip
    patterns = [p.strip() for p in (ROOT / ".dockerignore").read_text().splitlines()]
    patterns = [p for p in patterns if p and not p.startswith("#")]

    def ignored(path: str) -> bool:
        parts = path.split("/")
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        return any(
            fnmatch.fnmatch(pre, pat) or fnmatch.fnmatch(pre, pat.removeprefix("**/")) or
            fnmatch.fnmatch(parts[i], pat.removeprefix("**/"))
            for pat in patterns for i, pre in enumerate(prefixes)
        )  # fmt: skip

    return [f for f in files if (ROOT / f).is_file() and not ignored(f)]


def inside(app: Path, venv: Path, home: Path, env: dict[str, str], cmd: list[str], health: list[str]) -> int:
    """Runs in the network namespace: start the server, health check, one session."""
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    before = {p: p.stat().st_mtime for p in app.rglob("*")}
    run_env = {**env, "HOME": str(home), "PATH": f"{venv}/bin:/usr/bin:/bin"}
    server = subprocess.Popen(cmd, cwd=app, env=run_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for _ in range(150):
            if subprocess.run(health, cwd=app, env=run_env, capture_output=True).returncode == 0:
                break
            time.sleep(0.4)
        else:
            print("HEALTHCHECK never passed")
            return 1
        print("HEALTHCHECK (as written in the Dockerfile): passed")
        sys.path.insert(0, str(ROOT))
        from bench.bench_serving import Session, metric_values
        from tokenizer_core import load_builtin

        enc = load_builtin("o200k_base").encoding
        port = int(next(a.split("=")[1] for a in cmd if a.startswith("--server.port=")))

        async def one() -> bool:
            s = Session(port)
            await s.open()
            text = "Offline, in a fresh environment: does the count match? " * 20
            r = await s.set(workspace_text=text)
            await s.close()
            got = metric_values(r).get("o200k_base")
            print(f"counter page: o200k_base shows {got}")
            return got == f"{len(enc.encode_ordinary(text)):,}"

        ok = asyncio.run(one())
        after = {p: p.stat().st_mtime for p in app.rglob("*")}
        written = sorted(str(p.relative_to(app)) for p in after if before.get(p) != after[p])
        print(f"files written into the app folder: {written or 'none'}")
        return 0 if ok and not written else 1
    finally:
        server.terminate()
        try:
            out, _ = server.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            out, _ = server.communicate()
        log = out.decode("utf-8", "replace")
        if "Traceback" in log:
            print("server log has a traceback:\n" + log[-3000:])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--inside", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    df = dockerfile()
    if args.inside:
        app, venv, home, _ = map(Path, args.inside)
        return inside(app, venv, home, {**os.environ, **df["env"]}, df["cmd"], df["health"])

    tmp = Path(tempfile.mkdtemp(prefix="tw-recipe-"))
    app, venv, home = tmp / "app", tmp / "venv", tmp / "home"
    home.mkdir()
    try:
        files = context_files()
        for f in files:
            (app / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, app / f)
        print(
            f"build context: {len(files)} files (tests, docs, deploy, bench output left out by .dockerignore)"
        )
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        env = {**os.environ, **df["env"], "PATH": f"{venv}/bin:{os.environ['PATH']}"}
        env.pop("PYTHONPATH", None)
        env.pop("PIP_NO_CACHE_DIR", None)  # reuse this machine's download cache; the image has none
        for line in df["run"]:
            t0 = time.perf_counter()
            subprocess.run(shlex.split(line), cwd=app, env=env, check=True, stdout=subprocess.DEVNULL)
            print(f"RUN {line}: ok ({time.perf_counter() - t0:.0f} s)")
        me = [sys.executable, str(Path(__file__).resolve()), "--inside", str(app), str(venv), str(home), "-"]
        if os.geteuid() == 0 and shutil.which("unshare"):
            print("starting the CMD in a network namespace with only loopback (no network)")
            code = subprocess.run(["unshare", "-n", *me]).returncode
        else:
            print("not root: starting the CMD with the network available (unshare needs root)")
            code = subprocess.run(me).returncode
        print("OK" if code == 0 else "FAILED")
        return code
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
