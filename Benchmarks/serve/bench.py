#!/usr/bin/env python3
"""`fruitsite serve` against `hugo server`, nginx and Python's http.server.

    python3 Benchmarks/serve/bench.py --fruitsite .build/release/fruitsite [--count 10000 100000]

Edit to screen: on a generated catalog of each COUNT of entries in tmpfs, `fruitsite serve`
serves the site while headless Chromium shows the page an edit changes, for each of the nine
edits of the rebuild benchmark (body text, name, emoji, vitamins, category, a file added,
deleted or renamed, the draft flag). Each edit is made as an author makes it (a file saved as
editors save, a temporary file renamed over the entry; a file deleted or renamed), and timed
from then to the first animation frame showing it, whether the page was refreshed in place or
reloaded, on the page's clock (the Performance API's time origin, which is the system clock).
Medians and 95th percentiles of EDITS edits of each kind, each on another entry. `hugo server`
is timed at HUGO_COUNT on body and name edits (its rebuilds take seconds).

Serving: `wrk` at 64 connections for 10 s on the index and a fruit page of the sample site,
against `fruitsite serve`, `python3 -m http.server` and nginx serving what `fruitsite build`
wrote: requests a second, 99th-percentile latency and errors.

A benchmark, not a test: it exits non-zero only when a server cannot start.
"""

import argparse
import json
import os
import random
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
# until the page shows what the edit awaits, then records when (the frame's time on the page's
# clock, which is the system's). A page refreshed in place is seen by the open document's watch,
# a reloaded one by the new document's. What is awaited: `text` within the element `selector`
# (the body when none), and the address ending with `path` when one is given.
SHOWN_HOOK = """
(() => {
  const awaited = JSON.parse(sessionStorage.getItem('awaited') || 'null');
  if (!awaited) return;
  const shows = () => {
    const element = document.querySelector(awaited.selector || 'body');
    return element && element.innerText.includes(awaited.text || '') &&
      location.pathname.endsWith(awaited.path || '');
  };
  const check = () => {
    if (shows()) {
      sessionStorage.setItem('shown', String(performance.timeOrigin + performance.now()));
    } else {
      requestAnimationFrame(check);
    }
  };
  requestAnimationFrame(check);
})();
"""

# The edits of the rebuild benchmark (`bench.EDITS`), each saved as editors save. Each kind's
# open page and what it awaits: a fruit's own page for an edit of the fruit; the address a new
# fruit will have for a file added (the server's 404 page until then); the page of a fruit
# deleted, renamed or made a draft, which then shows the 404 page or follows the fruit.
KINDS = [kind for kind, _ in bench.EDITS]
NOT_FOUND = "Page not found"


def edit_to_screen(driver, server, catalog, kinds, edits, seed=7):
    """{kind: [milliseconds from each edit's save to the first frame of the page showing it]};
    each edit on another entry of `catalog` (a `bench.Catalog`), none of them put back, made
    once `server` has finished the update before (it prints nothing for half a second): an
    edit that moves a fruit keeps the server busy after its open page has shown it."""
    timings = {kind: [] for kind in kinds}
    slugs = [slug for slug in catalog.slugs() if catalog.value(catalog.read(slug), "draft") is None]
    picker = random.Random(seed)
    picker.shuffle(slugs)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SHOWN_HOOK})
    for serial in range(edits):
        for kind in kinds:
            slug = slugs.pop()
            marker = f"Edited{serial}{kind}"
            text = catalog.read(slug)
            page = f"fruits/{slug}/"
            awaited = {}
            if kind == "text":
                new = text + f"\n{marker} words.\n"
                awaited = {"selector": ".prose", "text": marker}
            elif kind == "name":
                name = catalog.value(text, "name").strip('"')
                prefix = "Zesty" if name[:1].upper() < "N" else "Ancient"
                new = catalog.with_value(text, "name", f'"{prefix} {name} {marker}"')
                awaited = {"selector": "h1", "text": marker}
            elif kind == "emoji":
                emoji = "🥝" if catalog.value(text, "emoji") != "🥝" else "🍒"
                new = catalog.with_value(text, "emoji", emoji)
                awaited = {"selector": ".fruit-emoji", "text": emoji}
            elif kind == "vitamins":
                new = catalog.with_value(text, "vitamins", "B12, K2")
                awaited = {"selector": ".facts", "text": "K2"}
            elif kind == "category":
                names = [category for category, _, _ in generate.CATEGORIES]
                current = catalog.value(text, "category")
                index = next(i for i, name in enumerate(names)
                             if generate.yaml_string(name) == current)
                category = names[(index + 1) % len(names)]
                new = catalog.with_value(text, "category", generate.yaml_string(category))
                awaited = {"selector": ".facts", "text": category}
            elif kind == "add":
                entry = generate.Picker(seed * 1_000_003 + serial)
                slug, new = generate.make_entry(entry, catalog.count + 1 + serial)
                page = f"fruits/{slug}/"
                name = catalog.value(new, "name").strip('"')
                awaited = {"selector": "h1", "text": name}
            elif kind in ("delete", "draft"):
                new = None if kind == "delete" else catalog.with_value(text, "draft", "true")
                awaited = {"selector": "h1", "text": NOT_FOUND}
            elif kind == "rename":
                new = None
                awaited = {"path": f"/fruits/{slug}-renamed/"}
            driver.get(server.url + page)
            browser_support.wait_until_loaded(driver, timeout=120)
            server.settle(0.5)  # the page's event stream open, and the last update done
            driver.execute_script(
                "sessionStorage.setItem('awaited', arguments[0]);"
                "sessionStorage.removeItem('shown');" + SHOWN_HOOK, json.dumps(awaited))
            path = catalog.path(slug)
            if kind == "delete":
                started = time.time()
                os.remove(path)
            elif kind == "rename":
                started = time.time()
                os.rename(path, catalog.path(slug + "-renamed"))
            else:
                started = save(path, new)
            deadline = time.time() + 60
            shown = None
            while time.time() < deadline and shown is None:
                time.sleep(0.005)
                shown = driver.execute_script("return sessionStorage.getItem('shown')")
            if shown is None:
                print(f"  warning: the {kind} edit {serial} never showed", file=sys.stderr)
                continue
            timings[kind].append(float(shown) - started * 1000)
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
    parser.add_argument("--count", type=int, nargs="+", default=[10000],
                        help="catalog sizes for edit to screen (fruitsite: every kind of edit)")
    parser.add_argument("--hugo-count", type=int, default=10000,
                        help="the size at which `hugo server` is timed too (body and name)")
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--seconds", type=int, default=10,
                        help="wrk's time per page; 0 skips the serving table")
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.fruitsite)
    work = tempfile.mkdtemp(prefix="fruitsite-serve-bench-", dir="/dev/shm")
    os.chmod(work, 0o755)  # nginx workers run as another user
    driver = None
    try:
        driver = browser_support.make_driver()
        for count in arguments.count:
            folder = os.path.join(work, f"catalog-{count}")
            generate.main(["--count", str(count), "--seed", "1", "--out", folder])
            catalog = bench.Catalog(folder, count, 1)
            rows = []
            port = free_port()
            ours = Server([binary, "serve", "--content", folder, "--templates",
                           arguments.templates, "--port", str(port)],
                          f"http://127.0.0.1:{port}/", cwd=work)
            wait_for(ours.url, timeout=1800)
            rows.append(("fruitsite serve",
                         edit_to_screen(driver, ours, catalog, KINDS, arguments.edits)))
            ours.stop()
            if count == arguments.hugo_count:
                port = free_port()
                theirs = hugo_server(work, folder, arguments.templates, port)
                try:
                    wait_for(theirs.url, timeout=900)
                    rows.append(("hugo server", edit_to_screen(
                        driver, theirs, catalog, ["text", "name"], arguments.edits)))
                except RuntimeError as error:
                    print(f"  warning: hugo server: {error}", file=sys.stderr)
                theirs.stop()
            shutil.rmtree(folder, ignore_errors=True)

            print(f"\nEdit to screen, {count:,} entries, the page an edit changes open in"
                  f" headless Chromium ({arguments.edits} edits of each kind, each on another"
                  " entry; ms from the save to the first frame showing it; target at 100,000:"
                  " p50 <= 50, p95 <= 100):")
            header = "".join(f" {name + ' p50':>21} {'p95':>5}" for name, _ in rows)
            print(f"  {'edit':<14}{header}")
            for kind, label in bench.EDITS:
                cells = []
                for _, timings in rows:
                    values = timings.get(kind, [])
                    cells += ([f"{statistics.median(values):.0f}",
                               f"{percentile(values, 0.95):.0f}"] if values else ["-", "-"])
                print(f"  {label:<14}" + "".join(
                    f" {cells[i]:>21} {cells[i + 1]:>5}" for i in range(0, len(cells), 2)))
        driver.quit()
        driver = None

        if arguments.seconds == 0:
            return
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
