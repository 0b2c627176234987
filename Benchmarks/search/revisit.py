#!/usr/bin/env python3
"""What a returning visitor downloads after a deploy that changed one fruit, in headless
Chromium through nginx with Deploy/nginx.conf.

    python3 Benchmarks/search/revisit.py [--fruitsite .build/release/fruitsite] 10000 [100000]

For each size, generates a catalog (Benchmarks/generate.py), builds it with the sharded index on
tmpfs and publishes it with Deploy/publish.sh to nginx. Then, for each edit (a sentence added to
a fruit's body; its name changed, which moves it across the catalog; its name made plural, which
keeps its place), a new visitor (a fresh browser profile) opens the index and types each query
a letter at a time, waiting for the results of each keystroke; the edit is built and published;
and the visitor comes back (a new page load, the same browser cache) and types the same queries.
Prints the first visit's and each return's requests and bytes side by side, by kind of file
(`--each` lists every request of each return). Bytes are PerformanceResourceTiming's
transferSize: a body as it came over the network (gzipped), plus 300 bytes for the headers as
Chromium counts them; a 304 is those 300; a file from the cache, 0.

A benchmark, not a test. Needs what Tests/Browser/setup.sh installs (Chromium, nginx, rsync).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT / "Tests" / "Browser"), str(HERE.parent)]

import browser_support as support  # noqa: E402
from bench import Catalog  # noqa: E402  (edits as an author's editor makes them)
from web_servers import WebServer  # noqa: E402

QUERIES = ("apple", "berry", "mango")
# The edits: bench.py's (a sentence appended; a first word that moves the fruit across the
# catalog), and a name that keeps the fruit in its place.
EDITS = (("text", "a body edit"), ("name", "a name edit"), ("plural", "a name edit in place"))

# Keeps every resource timing, however many files a visit fetches.
KEEP_TIMINGS = "performance.setResourceTimingBufferSize(100000);"

# Types each query a letter at a time, about the pace of typing, each keystroke waiting for the
# page to show its results; then leaves time for the last prefetch.
TYPE_QUERIES = """
const [queries, done] = arguments;
const $ = (id) => document.getElementById(id);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const type = (value) => new Promise((resolve) => {
  const observer = new MutationObserver(() => finish(true));
  const timer = setTimeout(() => finish(false), 10000);
  const finish = (shown) => (observer.disconnect(), clearTimeout(timer), resolve(shown));
  observer.observe($('search-results'), { childList: true });
  observer.observe($('search-empty-text'), { childList: true, characterData: true, subtree: true });
  $('search-q').value = value;
  $('search-q').dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText' }));
});
(async () => {
  let missed = 0;
  for (const q of queries) {
    for (let n = 1; n <= q.length; n++) {
      if (!(await type(q.slice(0, n)))) missed++;
      await pause(100);
    }
    await pause(400);
  }
  await pause(1000);
  done(missed);
})().catch((error) => done(String(error)));
"""

REQUESTS = """
return [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
  .map((entry) => ({ url: entry.name, transfer: entry.transferSize, body: entry.encodedBodySize }));
"""


def log(message):
    print(message, file=sys.stderr, flush=True)


# MARK: - A visit


def visit(driver, server) -> list[dict]:
    """Opens the index as a new page load and types QUERIES; returns each request with its
    path below the site, its transferSize and how it was served (network, 304 or cache)."""
    driver.get("about:blank")
    driver.get(server.url())
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 120, poll_frequency=0.1).until(lambda _: driver.execute_script(
        "return document.getElementById('search-hint').hidden === false"))
    missed = driver.execute_async_script(TYPE_QUERIES, list(QUERIES))
    if missed:
        raise RuntimeError(f"the page did not show {missed} keystrokes' results")
    requests = driver.execute_script(REQUESTS)
    for request in requests:
        request["path"] = request["url"].removeprefix(server.base_url) or "index.html"
        request["served"] = ("cache" if request["transfer"] == 0
                             else "304" if request["transfer"] <= 300 else "network")
    return requests


# MARK: - A size


def changed_since(folder: Path, moment: float) -> int:
    """How many files of `folder` were written after `moment` (fruitsite writes only what
    changed)."""
    return sum(1 for path in folder.rglob("*") if path.is_file() and path.stat().st_mtime > moment)


def edit(catalog: Catalog, kind: str, slug: str) -> str:
    """Makes an edit of EDITS; returns what it did."""
    if kind != "plural":
        return catalog.edit(kind, slug)
    text = catalog.read(slug)
    name = Catalog.value(text, "name")  # quoted: "Alpine Apple"
    catalog.write(slug, Catalog.with_value(text, "name", name[:-1] + 's"'))
    return f"renamed {slug} to {name[1:-1]}s"


def pick_fruit(catalog: Catalog) -> str:
    """An entry whose name has the first query: its edits change what a search shows."""
    for slug in catalog.slugs():
        if QUERIES[0] in (Catalog.value(catalog.read(slug), "name") or "").lower():
            return slug
    return catalog.slugs()[len(catalog.slugs()) // 2]


def measure(count: int, fruitsite: str, seed: int, work: Path) -> dict:
    content, output = work / "content", work / "Output"
    subprocess.run([sys.executable, str(HERE.parent / "generate.py"), "--count", str(count),
                    "--seed", str(seed), "--out", str(content)], check=True,
                   stdout=subprocess.DEVNULL)
    config = work / "fruitsite.yml"
    config.write_text("search:\n  index: sharded\nsitemap: false\n", encoding="utf-8")

    def build():
        subprocess.run([fruitsite, "build", "--quiet", "--content", str(content), "--templates",
                        str(ROOT / "Templates"), "--config", str(config), "--output", str(output),
                        "--cache-dir", str(work / "cache")], check=True)

    start = time.perf_counter()
    build()
    log(f"[revisit {count:,}] built in {time.perf_counter() - start:.1f} s")
    catalog = Catalog(str(content), count, seed)
    slug = pick_fruit(catalog)
    original = catalog.read(slug)
    measured = {"count": count, "fruit": slug, "edits": {}}
    with WebServer("nginx", output, work / "served") as server:
        log(f"[revisit {count:,}] published, served at {server.base_url}")
        for kind, label in EDITS:
            driver = support.make_driver()
            try:
                driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                       {"source": KEEP_TIMINGS})
                driver.set_script_timeout(600)
                first = visit(driver, server)
                time.sleep(1.1)  # a new second: the servers' validators tell the files apart
                before = time.time()
                done = edit(catalog, kind, slug)
                build()
                changed = changed_since(output, before)
                server.deploy(output)
                again = visit(driver, server)
            finally:
                driver.quit()
            log(f"[revisit {count:,}] {label}: {done}; {changed} files changed")
            measured["first"] = first
            measured["edits"][label] = {"done": done, "changed": changed, "requests": again}
            catalog.write(slug, original)  # back to the first build for the next edit
            build()
            server.deploy(output)
    return measured


# MARK: - Printing

# What a request is, by its path below the site.
KINDS = (("pages", lambda path: path.endswith((".html", "/"))),
         ("the manifest", lambda path: path == "search/index.json"),
         ("gram files", lambda path: path.startswith("search/grams/")),
         ("records files", lambda path: path.startswith("search/records/")),
         ("category, facet files", lambda path: path.startswith(("search/categories/",
                                                                 "search/facets/"))),
         ("assets", lambda path: path.startswith("assets/")))


def kind_of(path: str) -> str:
    return next((kind for kind, holds in KINDS if holds(path)), "other")


def kilobytes(size: int) -> str:
    return f"{size / 1000:,.1f} KB"


def cell(requests: list[dict]) -> str:
    """`n new, KB + m 304s`: what came over the network."""
    new = [r for r in requests if r["served"] == "network"]
    revalidated = sum(r["served"] == "304" for r in requests)
    cached = sum(r["served"] == "cache" for r in requests)
    parts = [f"{len(new)} new {kilobytes(sum(r['transfer'] for r in new))}"] if new else []
    parts += [f"{revalidated} 304"] * bool(revalidated) + [f"{cached} cached"] * bool(cached)
    return ", ".join(parts) or "-"


def print_table(measured: dict, each: bool) -> None:
    columns = [("first visit", measured["first"])]
    columns += [(f"back after {label}", edit["requests"])
                for label, edit in measured["edits"].items()]
    width = 30
    print()
    print(f"Returning visitors at N = {measured['count']:,} entries: headless Chromium through"
          f" nginx with Deploy/nginx.conf, the sharded index;")
    print(f"  a visitor opens the index and types {', '.join(map(repr, QUERIES))} a letter at a"
          f" time; a deploy changes one fruit ({measured['fruit']}); the visitor")
    print("  comes back (a new page load, the same browser cache) and types them again. Bytes:"
          " transferSize, a body as sent")
    print("  (gzipped) plus 300 for its headers; a 304 counts 300, a file from the cache 0")
    print(f"  {'':<22}" + "".join(f" | {name:<{width}}" for name, _ in columns))
    for kind, _ in KINDS + (("other", None),):
        cells = [cell([r for r in requests if kind_of(r["path"]) == kind]) for _, requests in columns]
        if any(text != "-" for text in cells):
            print(f"  {kind:<22}" + "".join(f" | {text:<{width}}" for text in cells))
    print(f"  {'requests':<22}" + "".join(f" | {len(requests):<{width},}" for _, requests in columns))
    print(f"  {'bytes transferred':<22}" + "".join(
        f" | {kilobytes(sum(r['transfer'] for r in requests)):<{width}}" for _, requests in columns))
    for label, edit in measured["edits"].items():
        print(f"  {label}: {edit['done']}; the rebuild wrote {edit['changed']:,} files")
        if each:
            for request in edit["requests"]:
                print(f"    {request['served']:<8} {request['transfer']:>8,} {request['path']}")
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", type=int, nargs="*", default=[10000])
    parser.add_argument("--fruitsite", default=str(ROOT / ".build/release/fruitsite"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tmpfs", default="/dev/shm", help="where the catalog and site go")
    parser.add_argument("--each", action="store_true", help="also list each return's requests")
    args = parser.parse_args()
    for count in args.sizes:
        work = Path(tempfile.mkdtemp(prefix="fruitsite-revisit-", dir=args.tmpfs))
        os.chmod(work, 0o755)
        try:
            print_table(measure(count, args.fruitsite, args.seed, work), args.each)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
