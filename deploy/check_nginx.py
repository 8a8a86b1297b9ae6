"""Check deploy/nginx.conf for real: nginx (Debian package) in front of two app replicas on loopback.

    python deploy/check_nginx.py      # installs Debian's nginx first if it is missing (as root)

No Docker engine is needed: the two replicas are `streamlit run` processes on 127.0.0.1, and
nginx runs deploy/nginx.conf with only the addresses changed (app1:8501 / app2:8501 -> the
replicas' loopback ports, listen 8080 -> a free loopback port, logs to a temporary folder).
It then checks, through nginx:
- /_stcore/health answers "ok";
- several browsers (each its own cookie jar) load the page, get a route cookie, open the
  websocket at /_stcore/stream, ask the count route (POST /api/counts) as the text box does,
  and see their own token counts from both;
- every request of one browser went to one replica (nginx's access log records the upstream
  of every request), and the browsers were spread over both replicas;
- the longest share link the app makes (tokenizer_core.workspace.share.longest_link) opens
  through nginx: the page (the link in the request line), a script it loads (the link again in
  the Referer header, as a browser sends it), and the session, which shows the link's text
  counted and no warning about the link.

Installing nginx with apt-get does not start it where /usr/sbin/policy-rc.d forbids starting
services (as in Debian's container images); the check runs its own nginx on a loopback port.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_serving import Session, alerts, exceptions, free_port, metric_values, start_server  # noqa: E402

BROWSERS = 8


def nginx_conf(text: str, ports: tuple[int, int], listen: int, tmp: Path) -> str:
    out = text.replace("server app1:8501", f"server 127.0.0.1:{ports[0]}")
    out = out.replace("server app2:8501", f"server 127.0.0.1:{ports[1]}")
    out = out.replace("listen 8080;", f"listen 127.0.0.1:{listen};")
    out = out.replace("pid /tmp/tw-nginx.pid;", f"pid {tmp}/nginx.pid;")
    out = out.replace("access_log /dev/stdout sticky;", f"access_log {tmp}/access.log sticky;")
    out = out.replace("error_log /dev/stderr warn;", f"error_log {tmp}/error.log warn;")
    for d in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        out = out.replace("http {", f"http {{\n    {d}_temp_path {tmp}/{d};", 1)
    assert out.count("127.0.0.1") == 3, "deploy/nginx.conf changed shape: update check_nginx.py"
    return out


def get(url: str, cookie: str | None = None, *, referer: str | None = None) -> tuple[int, str, str | None]:
    headers = {"Cookie": cookie} if cookie else {}
    if referer:
        headers["Referer"] = referer
    req = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        set_cookie = r.headers.get("Set-Cookie")
        return r.status, r.read().decode("utf-8", "replace"), set_cookie


def ensure_nginx() -> str | None:
    """The nginx binary; Debian's package is installed first if it is missing (as root)."""
    found = shutil.which("nginx") or "/usr/sbin/nginx"
    if Path(found).exists():
        return found
    if not shutil.which("apt-get") or os.geteuid() != 0:
        return None
    print("nginx is not installed: installing Debian's package (apt-get install nginx)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-q"], env=env, check=False)
    subprocess.run(
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", "nginx"], env=env, check=True
    )
    return found if Path(found).exists() else shutil.which("nginx")


async def longest_link(port: int, enc) -> bool:
    """The longest link the app makes, through nginx: the page, a script it loads, the session."""
    from urllib.parse import urlencode

    from tokenizer_core.workspace import unpack_text
    from tokenizer_core.workspace.share import MAX_LINK_CHARS, longest_link
    from ui.models import known_choice_ids

    params = longest_link(known_choice_ids())
    query = urlencode(params)
    url = f"http://127.0.0.1:{port}/?{query}"
    print(f"longest link: {len(query):,} characters of query (the app's limit: {MAX_LINK_CHARS:,}); "
          f"request line {len(f'GET /?{query} HTTP/1.1'):,} bytes, Referer header {len(f'Referer: {url}'):,}")  # fmt: skip
    status, html, set_cookie = get(url, referer=url)
    route = re.match(r"tw_route=([^;]+)", set_cookie or "")
    cookie = f"tw_route={route.group(1)}" if route else None
    script = re.search(r'src="\.?/?(static/[^"]+\.js)"', html)
    assert status == 200 and script, f"the page did not come through nginx ({status})"
    status, _, _ = get(f"http://127.0.0.1:{port}/{script.group(1)}", cookie, referer=url)
    assert status == 200, (
        f"a script the page loads did not come through nginx with the link as Referer ({status})"
    )
    s = Session(port, headers={"Cookie": cookie or ""}, query=query)
    try:
        rerun = await s.open()
    finally:
        await s.close()
    text = unpack_text(params["z"])
    counted = metric_values(rerun).get("o200k_base") == f"{len(enc.encode_ordinary(text)):,}"
    problems = [a for a in alerts(rerun) if "Shared link" in a] + exceptions(rerun)
    print(f"the session read the link: its text counted {counted}; problems: {problems or 'none'}")
    return counted and not problems


async def browser(port: int, i: int, enc) -> tuple[str, bool]:
    status, html, set_cookie = get(f"http://127.0.0.1:{port}/")
    assert status == 200 and "<html" in html.lower(), "the page did not come through nginx"
    route = re.match(r"tw_route=([^;]+)", set_cookie or "")
    assert route, f"no route cookie in {set_cookie!r}"
    cookie = f"tw_route={route.group(1)}"
    get(f"http://127.0.0.1:{port}/_stcore/health", cookie)
    s = Session(port, headers={"Cookie": cookie})
    try:
        await s.open()
        text = f"Browser {i} says: " + "tokens and more tokens, " * (10 + i)
        _, asked = await s.ask_counts("workspace_text", text)  # as the box does, then the rerun
        r = await s.set(workspace_text=text)
        want = len(enc.encode_ordinary(text))
        ok = metric_values(r).get("o200k_base") == f"{want:,}" and asked.get("o200k_base") == want
    finally:
        await s.close()
    return route.group(1), ok


async def browsers(port: int, enc) -> list[tuple[str, bool]]:
    return await asyncio.gather(*(browser(port, i, enc) for i in range(BROWSERS)))


def main() -> int:
    nginx = ensure_nginx()
    if nginx is None:
        print("nginx is not installed and cannot be installed here: apt-get install nginx (as root)")
        return 2
    from tokenizer_core import load_builtin

    enc = load_builtin("o200k_base").encoding
    tmp = Path(tempfile.mkdtemp(prefix="tw-nginx-"))
    ports = (free_port(), free_port())
    listen = free_port()
    env = {"STREAMLIT_SERVER_COOKIE_SECRET": "check-nginx-shared-secret", "TW_WORKERS": "1"}
    replicas = [start_server(p, env) for p in ports]
    conf = tmp / "nginx.conf"
    conf.write_text(nginx_conf((ROOT / "deploy" / "nginx.conf").read_text(), ports, listen, tmp))
    proxy = subprocess.Popen([nginx, "-c", str(conf), "-p", str(tmp), "-e", f"{tmp}/error.log",
                              "-g", "daemon off;"])  # fmt: skip
    try:
        for _ in range(50):
            try:
                status, body, _ = get(f"http://127.0.0.1:{listen}/_stcore/health")
                break
            except OSError:
                time.sleep(0.2)
        else:
            raise SystemExit(f"nginx did not start: {(tmp / 'error.log').read_text()}")
        assert (status, body) == (200, "ok"), (status, body)
        print(f"health through nginx: {status} {body}")
        results = asyncio.run(browsers(listen, enc))
        time.sleep(0.5)
        upstreams: dict[str, set[str]] = defaultdict(set)
        for line in (tmp / "access.log").read_text().splitlines():
            m = re.search(r"route=(\S+) upstream=(\S+)", line)
            if m and m.group(2) != "-":
                upstreams[m.group(1)].add(m.group(2))
        routes = [r for r, _ in results]
        own = all(ok for _, ok in results)
        sticky = all(len(upstreams[r]) == 1 for r in routes)
        used = {u for r in routes for u in upstreams[r]}
        print(
            f"{len(results)} browsers through nginx; each saw its own count (the count route's and the rerun's): {own}"
        )
        print(f"every request of a browser went to one replica: {sticky}")
        for r in routes:
            print(f"  route {r[:8]}...: {sorted(upstreams[r])}")
        print(f"replicas used: {sorted(used)}")
        link_ok = asyncio.run(longest_link(listen, enc))
        ok = own and sticky and len(used) == 2 and link_ok
        print("OK" if ok else "FAILED")
        return 0 if ok else 1
    finally:
        proxy.terminate()
        proxy.wait(timeout=10)
        for r in replicas:
            r.terminate()
        for r in replicas:
            try:
                r.wait(timeout=20)
            except subprocess.TimeoutExpired:
                r.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
