#!/usr/bin/env python3
"""`fruitsite serve` against `hugo server`, nginx and Python's http.server.

    python3 Benchmarks/serve/bench.py --fruitsite .build/release/fruitsite [--count 10000]

Edit to screen: on a generated catalog of COUNT entries in tmpfs, each server serves the site
while headless Chromium shows a fruit page. Each edit (a sentence added to the body, or a new
name) is saved as editors save, a temporary file renamed over the entry, and timed from that
rename to the first animation frame showing it, whether the page was refreshed in place or
reloaded, on the page's clock (the Performance API's time origin, which is the system clock). Medians and 95th percentiles of
EDITS edits of each kind.

Serving: `wrk` at 64 connections for 10 s on the index and a fruit page of the sample site,
against `fruitsite serve`, `python3 -m http.server` and nginx serving what `fruitsite build`
wrote: requests a second, 99th-percentile latency and errors.

A benchmark, not a test: it exits non-zero only when a server cannot start.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Browser"))
sys.path.insert(0, os.path.dirname(HERE))
import bench  # noqa: E402  (Hugo's site, servers and ports, as the build benchmark has them)
import browser_support  # noqa: E402
import generate  # noqa: E402
from bench import free_port  # noqa: E402


def wait_for(url, timeout=300):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer within {timeout} s")


class Server(bench.LiveServer):
    """A server process, its output read so its pipes never fill, and its address."""

    def __init__(self, command, url, cwd=None):
        super().__init__(command, cwd)
        self.url = url


def save(path, text):
    """As an editor saves: a temporary file renamed over the entry. Returns the rename's time."""
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as file:
        file.write(text)
    now = time.time()
    os.replace(temporary, path)
    return now


# Runs in every document the browser opens, and in the open one before each edit: on each frame
# until the awaited text shows, then records when (the frame's time on the page's clock, which
# is the system's). A page refreshed in place is seen by the open document's watch, a reloaded
# one by the new document's.
SHOWN_HOOK = """
(() => {
  const marker = sessionStorage.getItem('awaited');
  if (!marker) return;
  const check = () => {
    if (document.body && document.body.innerText.includes(marker)) {
      sessionStorage.setItem('shown', String(performance.timeOrigin + performance.now()));
    } else {
      requestAnimationFrame(check);
    }
  };
  requestAnimationFrame(check);
})();
"""


def edit_to_screen(driver, page_url, entry, edits):
    """Milliseconds from each edit's rename to the first frame of the page showing it."""
    timings = {"body": [], "name": []}
    original = open(entry, encoding="utf-8").read()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SHOWN_HOOK})
    driver.get(page_url)
    browser_support.wait_until_loaded(driver, timeout=120)
    for serial in range(edits):
        for kind in ("body", "name"):
            marker = f"Edited{serial}{kind}"
            if kind == "body":
                text = original.replace("\n---\n", f"\n---\n{marker} words.\n\n", 1)
            else:
                text = re.sub(r'^name: "?([^"\n]*)"?$', f'name: "\\1 {marker}"', original,
                              count=1, flags=re.M)
            driver.execute_script(
                "sessionStorage.setItem('awaited', arguments[0]);"
                "sessionStorage.removeItem('shown');" + SHOWN_HOOK, marker)
            started = save(entry, text)
            deadline = time.time() + 30
            shown = None
            while time.time() < deadline and shown is None:
                time.sleep(0.01)
                shown = driver.execute_script("return sessionStorage.getItem('shown')")
            if shown is None:
                print(f"  warning: the {kind} edit {serial} never showed", file=sys.stderr)
                continue
            timings[kind].append(float(shown) - started * 1000)
            time.sleep(0.3)  # let the server settle between edits
    with open(entry, "w", encoding="utf-8") as file:
        file.write(original)
    return timings


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def hugo_server(work, catalog, templates, port):
    # Full rebuilds, not fast render mode's: the open page is then always rendered anew.
    command = bench.hugo_generator(work, templates).make_serve_command(catalog, port)
    command += ["--baseURL", f"http://127.0.0.1:{port}/", "--disableFastRender"]
    return Server(command, f"http://127.0.0.1:{port}/")


# MARK: - Throughput


def wrk(url, seconds):
    result = subprocess.run(["wrk", "-t2", "-c64", f"-d{seconds}s", "--latency", url],
                            capture_output=True, text=True)
    text = result.stdout
    rate = re.search(r"Requests/sec:\s+([\d.]+)", text)
    p99 = re.search(r"\s99%\s+([\d.]+)(us|ms|s)", text)
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", text))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    errors += int(non2xx.group(1)) if non2xx else 0
    latency = None
    if p99:
        latency = float(p99.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
    return (float(rate.group(1)) if rate else 0.0), latency, errors


def nginx_server(work, site, port):
    prefix = os.path.join(work, "nginx")
    os.makedirs(os.path.join(prefix, "logs"), exist_ok=True)
    config = os.path.join(prefix, "nginx.conf")
    with open(config, "w", encoding="utf-8") as file:
        file.write(f"""daemon off; worker_processes 2; error_log {prefix}/logs/error.log;
pid {prefix}/nginx.pid;
events {{ worker_connections 1024; }}
http {{ include /etc/nginx/mime.types; access_log off; sendfile on;
  client_body_temp_path {prefix}/body; proxy_temp_path {prefix}/proxy;
  fastcgi_temp_path {prefix}/fastcgi; uwsgi_temp_path {prefix}/uwsgi; scgi_temp_path {prefix}/scgi;
  server {{ listen 127.0.0.1:{port}; root {site}; }} }}
""")
    return Server(["nginx", "-p", prefix, "-c", config], f"http://127.0.0.1:{port}/")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fruitsite", required=True)
    parser.add_argument("--templates", default=os.path.join(ROOT, "Templates"))
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--seconds", type=int, default=10)
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.fruitsite)
    work = tempfile.mkdtemp(prefix="fruitsite-serve-bench-", dir="/dev/shm")
    os.chmod(work, 0o755)  # nginx workers run as another user
    driver = None
    try:
        catalog = os.path.join(work, "catalog")
        generate.main(["--count", str(arguments.count), "--seed", "1", "--out", catalog])
        slug = sorted(name[:-3] for name in os.listdir(catalog) if name.endswith(".md"))[
            arguments.count // 2]
        entry = os.path.join(catalog, slug + ".md")
        driver = browser_support.make_driver()
        rows = []
        port = free_port()
        ours = Server([binary, "serve", "--content", catalog, "--templates", arguments.templates,
                       "--port", str(port)], f"http://127.0.0.1:{port}/", cwd=work)
        wait_for(ours.url, timeout=600)
        rows.append(("fruitsite serve", edit_to_screen(
            driver, f"{ours.url}fruits/{slug}/", entry, arguments.edits)))
        ours.stop()
        port = free_port()
        theirs = hugo_server(work, catalog, arguments.templates, port)
        try:
            wait_for(theirs.url, timeout=900)
            rows.append(("hugo server", edit_to_screen(
                driver, f"{theirs.url}fruits/{slug}/", entry, arguments.edits)))
        except RuntimeError as error:
            print(f"  warning: hugo server: {error}", file=sys.stderr)
        theirs.stop()

        print(f"\nEdit to screen, {arguments.count:,} entries, a fruit page open in headless"
              f" Chromium ({arguments.edits} edits of each kind; ms from the rename to the first"
              " frame showing it):")
        print(f"  {'server':<16} {'body p50':>9} {'body p95':>9} {'name p50':>9} {'name p95':>9}")
        for name, timings in rows:
            cells = []
            for kind in ("body", "name"):
                values = timings[kind]
                cells += ([f"{statistics.median(values):.0f}", f"{percentile(values, 0.95):.0f}"]
                          if values else ["-", "-"])
            print(f"  {name:<16} " + " ".join(f"{cell:>9}" for cell in cells))
        driver.quit()
        driver = None

        # Serving the sample site.
        output = os.path.join(work, "sample-output")
        subprocess.run([binary, "build", "--content", os.path.join(ROOT, "Content"), "--templates",
                        arguments.templates, "--output", output, "--cache-dir",
                        os.path.join(work, "sample-cache"), "--quiet"], check=True, cwd=work)
        servers = []
        port = free_port()
        servers.append(("fruitsite serve", Server(
            [binary, "serve", "--content", os.path.join(ROOT, "Content"), "--templates",
             arguments.templates, "--port", str(port)], f"http://127.0.0.1:{port}/", cwd=work)))
        port = free_port()
        servers.append(("python http.server", Server(
            [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
             "--directory", output], f"http://127.0.0.1:{port}/")))
        if shutil.which("nginx"):
            port = free_port()
            servers.append(("nginx", nginx_server(work, output, port)))
        print(f"\nServing the sample site: wrk, 2 threads, 64 connections, {arguments.seconds} s"
              " per page:")
        print(f"  {'server':<20} {'page':<14} {'requests/s':>11} {'p99 ms':>8} {'errors':>7}")
        for name, server in servers:
            try:
                wait_for(server.url)
            except RuntimeError as error:
                print(f"  warning: {name}: {error}", file=sys.stderr)
                continue
            for label, path in (("index", ""), ("a fruit page", "fruits/apple/")):
                rate, p99, errors = wrk(server.url + path, arguments.seconds)
                p99_text = f"{p99:.2f}" if p99 is not None else "-"
                print(f"  {name:<20} {label:<14} {rate:>11,.0f} {p99_text:>8} {errors:>7}")
            server.stop()
    finally:
        if driver:
            driver.quit()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
