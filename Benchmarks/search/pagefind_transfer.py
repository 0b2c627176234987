#!/usr/bin/env python3
"""Pagefind on a site fruitsite built: what a visitor's first query downloads, per query.

    python3 Benchmarks/search/pagefind_transfer.py OUTPUT --category Berries -- QUERY...

Indexes the site's fruit pages (`fruits/*/index.html`, as built, with `data-pagefind-filter=
"category"` added to the category's `<dd>`, copies in a scratch folder) with `python3 -m
pagefind` into OUTPUT/pagefind, timed by /usr/bin/time. Then, for each query, with and without
the category filter, headless Chromium opens a blank page of a local server that holds every
response 50 ms, imports pagefind.js, calls `pagefind.search(query)` and the `data()` of the
first 10 results (`noWorker`: the same requests, made by the page), and lists the requests
from the page's resource timings. Pagefind's index files are compressed already: they count
as they are; its JSON as gzipped (level 6). The import of pagefind.js itself is not counted
(the page's own JavaScript, like fruitsite's search-index.js), but is reported. A request's
round is 1 + the round of the latest response that ended before it started. Needs what
`pip install pagefind[extended]` and Tests/Browser/setup.sh install. Prints JSON:
{index: {...}, queries: [...]}.
"""

import argparse
import gzip
import http.server
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

DELAY = 0.05  # seconds each response is held: longer than the page's work between two rounds
RESULTS = 10  # the results whose data() a first screen shows
CATEGORY_VALUE = re.compile(r"(<dt>Category</dt><dd)(>)")


def index(output, scratch):
    """Indexes the fruit pages; returns the time, peak MiB, pages, the bundle's files and bytes."""
    site = os.path.join(scratch, "site")
    fruits = os.path.join(output, "fruits")
    for slug in os.listdir(fruits):
        with open(os.path.join(fruits, slug, "index.html"), encoding="utf-8") as file:
            page = CATEGORY_VALUE.sub(r'\1 data-pagefind-filter="category"\2', file.read(), 1)
        os.makedirs(os.path.join(site, "fruits", slug))
        with open(os.path.join(site, "fruits", slug, "index.html"), "w", encoding="utf-8") as file:
            file.write(page)
    bundle = os.path.join(output, "pagefind")
    timing = os.path.join(scratch, "time.txt")
    start = time.perf_counter()
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", timing, sys.executable, "-m", "pagefind",
                    "--site", site, "--output-path", bundle, "--quiet"], check=True)
    seconds = time.perf_counter() - start
    with open(timing, encoding="utf-8") as file:
        peak = int(file.read().split()[-1]) / 1024
    shutil.rmtree(site)
    sizes = [os.path.getsize(os.path.join(folder, name))
             for folder, _, names in os.walk(bundle) for name in names]
    return {"version": importlib.metadata.version("pagefind"), "seconds": seconds, "peak": peak,
            "pages": len(os.listdir(fruits)), "files": len(sizes), "bytes": sum(sizes)}


def served_size(path, cache={}):
    """Bytes on the wire: Pagefind's index files as they are, other files gzipped (level 6)."""
    if path not in cache:
        with open(path, "rb") as file:
            body = file.read()
        compressed = path.endswith(".pagefind") or ".pf_" in os.path.basename(path)
        cache[path] = len(body) if compressed else len(gzip.compress(body, 6))
    return cache[path]


class SlowHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site, each response held DELAY seconds, and a blank page at /blank.html."""

    def do_GET(self):
        time.sleep(DELAY)
        if self.path == "/blank.html":
            body = b'<!DOCTYPE html><html lang="en"><title>blank</title>'
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            super().do_GET()

    def log_message(self, *args):
        pass


# Runs in the page: one first query; `window.measured` is then its requests, from the resource
# timings. (Polled for: a search at 100,000 pages can outlast WebDriver's script timeout.)
FIRST_QUERY = """
const [query, filters, results] = arguments;
performance.setResourceTimingBufferSize(10000);
(async () => {
  const pagefind = await import('/pagefind/pagefind.js');
  await pagefind.options({ noWorker: true }); // the same requests, but in this page's timings
  const search = await pagefind.search(query, { filters });
  await Promise.all(search.results.slice(0, results).map((result) => result.data()));
  window.measured = {
    count: search.results.length,
    requests: performance.getEntriesByType('resource')
      .map((entry) => ({
        path: new URL(entry.name).pathname, start: entry.startTime, end: entry.responseEnd }))
      .filter((request) => request.path.startsWith('/pagefind/')),
  };
})().catch((error) => { window.measured = { error: String(error) }; });
"""


def rounds(requests):
    """Each request's round; pagefind.js, the page's own script, is round 0."""
    for request in sorted(requests, key=lambda r: r["start"]):
        before = [r["round"] for r in requests if "round" in r and r["end"] <= request["start"]]
        script = request["path"].endswith("/pagefind.js")
        request["round"] = 0 if script else 1 + max(before, default=0)
    return requests


def measure(output, queries, category):
    from selenium.webdriver.support.ui import WebDriverWait

    from chromium import browsing

    with browsing(output, SlowHandler) as (server, driver):
        # The page is busy while Pagefind searches (at 100,000 pages, minutes for a
        # one-letter query).
        driver.command_executor.client_config.timeout = 3600
        measured = []
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        for query in queries:
            for filters in ({}, {"category": category}):
                driver.get(f"http://127.0.0.1:{server.server_address[1]}/blank.html")
                start = time.perf_counter()
                driver.execute_script(FIRST_QUERY, query, filters, RESULTS)
                found = WebDriverWait(driver, 3600, poll_frequency=0.2).until(
                    lambda _: driver.execute_script("return window.measured"))
                if "error" in found:
                    raise RuntimeError(f"Pagefind, {query!r} {filters}: {found['error']}")
                seconds = time.perf_counter() - start
                print(f"Pagefind: {query!r} {filters or ''} in {seconds:.1f} s", file=sys.stderr)
                requests = rounds(found["requests"])
                counted = [r for r in requests if r["round"] > 0]
                measured.append({
                    "q": query, "category": filters.get("category"), "count": found["count"],
                    "seconds": seconds,
                    "requests": len(counted),
                    "rounds": max((r["round"] for r in counted), default=0),
                    "gzip": sum(served_size(os.path.join(output, r["path"].lstrip("/")))
                                for r in counted),
                    "script": sum(served_size(os.path.join(output, r["path"].lstrip("/")))
                                  for r in requests if r["round"] == 0),
                })
    return measured


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", help="a site built by fruitsite (OUTPUT/pagefind is written)")
    parser.add_argument("--category", default="Berries")
    parser.add_argument("--indexed", action="store_true",
                        help="OUTPUT/pagefind is there already: only measure")
    parser.add_argument("queries", nargs="+")
    args = parser.parse_args()
    output = os.path.abspath(args.output)
    scratch = tempfile.mkdtemp(prefix="pagefind-", dir=os.path.dirname(output))
    try:
        indexed = None if args.indexed else index(output, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(json.dumps({"index": indexed, "queries": measure(output, args.queries, args.category)}))


if __name__ == "__main__":
    main()
