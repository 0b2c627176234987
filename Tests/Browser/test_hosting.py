"""The site served by nginx and by Caddy with the configurations in Deploy/
(docs/how-to/deploy.md), below a subpath: every file's Cache-Control and Content-Type, missing
addresses, revalidation; Deploy/_headers's rules against built sites; then, in Chromium
through nginx, a page open across deploys made with Deploy/publish.sh: reloaded, it reads no
file of the old build and shows only the new build's results; searching in the same tab, exactly `fruitsite
search`'s answer; and a visitor who comes back downloads no file named by its bytes again."""

import os
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import browser_support as support
from conftest import build_site, config_with
from search_page import RESULTS_STEP, SearchPage
from test_deploy import generate, more_fruits, one_fruit_first
from test_sharded import search, search_records
from web_servers import WebServer

SERVERS = ["nginx", "caddy"]

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"

# The types a file's name gets, as docs/how-to/deploy.md lists them; either of two where the
# servers' own tables differ and both are right.
TYPES = {
    ".html": {"text/html; charset=utf-8"},
    ".json": {"application/json"},
    ".xml": {"text/xml; charset=utf-8"},
    ".txt": {"text/plain; charset=utf-8"},
    ".css": {"text/css; charset=utf-8"},
    ".js": {"application/javascript; charset=utf-8", "text/javascript; charset=utf-8"},
    ".svg": {"image/svg+xml; charset=utf-8", "image/svg+xml"},
    ".avif": {"image/avif"},
    ".webp": {"image/webp"},
    ".jpg": {"image/jpeg"},
    ".png": {"image/png"},
    ".gif": {"image/gif"},
}
ATOM = {"application/atom+xml; charset=utf-8"}


def expected_type(relative: str) -> set[str]:
    return ATOM if relative.endswith("feed.xml") else TYPES[Path(relative).suffix]


# MARK: - The site and its servers


@pytest.fixture(scope="module")
def hosted_site(fruitsite_bin, dated_site, tmp_path_factory) -> Path:
    """The dated content (feeds, a sitemap) with a sharded search index."""
    work = tmp_path_factory.mktemp("hosted")
    config = config_with(work, "baseURL: https://example.org/fruits/", "search: {index: sharded}")
    site = build_site(fruitsite_bin, dated_site.parent / "Content", config, work)
    for needed in ["feed.xml", "feed.json", "sitemap.xml", "robots.txt", "search/index.json"]:
        assert (site / needed).is_file(), f"the site has no {needed}"
    return site


@pytest.fixture(scope="module", params=SERVERS)
def host(request, hosted_site, tmp_path_factory):
    """nginx or Caddy serving the site at its base URL's path, /fruits/."""
    work = tmp_path_factory.mktemp(f"served-{request.param}")
    base = support.configured_base_path(hosted_site)
    with WebServer(request.param, hosted_site, work, subpath=base) as running:
        yield running


def fetch(url: str, **headers) -> tuple[int, dict, bytes]:
    """(status, headers, body) of a GET."""
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


# MARK: - Headers


def test_every_file_has_the_cache_control_and_type_readme_gives(hosted_site, host):
    """Named by its bytes: kept for good; any other file (the pages, the manifest, feeds,
    sitemap, robots.txt, unstamped assets): revalidated."""
    wrong = []
    files = sorted(path.relative_to(hosted_site).as_posix() for path in hosted_site.rglob("*")
                   if path.is_file() and not path.name.startswith("."))
    stamped = [relative for relative in files if support.STAMPED.search(relative)]
    assert any(relative.startswith("search/grams/") for relative in stamped)
    addresses = [(relative, relative) for relative in files]
    # A folder's address serves its index.html.
    addresses += [(relative.removesuffix("index.html"), relative) for relative in files
                  if relative.endswith("index.html")]
    for address, relative in addresses:
        status, headers, _ = fetch(host.url(address))
        cache = IMMUTABLE if relative in stamped else REVALIDATE
        got = (status, headers["Cache-Control"], headers["Content-Type"])
        if got[:2] != (200, cache) or got[2] not in expected_type(relative):
            wrong.append(f"{address or '(the index)'}: {got}, expected {cache!r}, "
                         f"{sorted(expected_type(relative))}")
    assert not wrong, f"{len(wrong)} of {len(addresses)} addresses:\n" + "\n".join(wrong)


@pytest.mark.parametrize("address", ["no/such/fruit/", "search/grams/0.aaaaaaaa.json"])
def test_a_missing_address_is_the_404_page_and_not_kept(hosted_site, host, address):
    status, headers, body = fetch(host.url(address))
    assert status == 404
    assert body == (hosted_site / "404.html").read_bytes()
    assert headers["Cache-Control"] == REVALIDATE
    assert headers["Content-Type"] == "text/html; charset=utf-8"


def test_the_manifest_is_revalidated_with_headers_only_and_compressed(host):
    status, headers, body = fetch(host.url("search/index.json"), **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in headers["Vary"]
    status, _, body = fetch(host.url("search/index.json"), **{"If-None-Match": headers["ETag"]})
    assert (status, body) == (304, b"")


# MARK: - Netlify's and Cloudflare Pages' _headers


def headers_rules() -> list[tuple[re.Pattern, dict[str, str]]]:
    """Deploy/_headers: each path pattern (its * matching any characters, as Cloudflare's
    splat does, and a :placeholder one folder's name) and the headers it sets."""
    rules = []
    for line in (support.REPO / "Deploy" / "_headers").read_text(encoding="utf-8").splitlines():
        if line.startswith("/"):
            pattern = "".join(
                ".*" if part == "*" else "[^/]+" if part.startswith(":") else re.escape(part)
                for part in re.split(r"(\*|:[A-Za-z]+)", line.strip()))
            rules.append((re.compile(pattern), {}))
        elif line.strip() and not line.startswith("#"):
            name, _, value = line.partition(":")
            rules[-1][1][name.strip()] = value.strip()
    return rules


@pytest.mark.parametrize("which", ["sharded", "single"])
def test_the_headers_file_keeps_for_good_only_stamped_files(site, hosted_site, which):
    """Its rules keep only stamped files, each by one rule, and every stamped file of the
    search; the others keep the hosts' default, revalidated."""
    built = hosted_site if which == "sharded" else site
    rules = headers_rules()
    assert all(headers["Cache-Control"] == IMMUTABLE for _, headers in rules)
    # Beside that, only an SVG's rules set a header, at the root and in a language's folder:
    # no script of it runs where it is opened.
    others = [(p, headers) for p, headers in rules if set(headers) != {"Cache-Control"}]
    assert [bool(p.fullmatch(path)) for (p, _), path in zip(others, [
        "/images/logo-240.k3x9q2mz.svg", "/fr/images/logo-240.k3x9q2mz.svg"])] == [True, True]
    assert len(others) == 2 and all(
        headers["Content-Security-Policy"].startswith("default-src 'none';")
        for _, headers in others)
    paths = ["/" + path.relative_to(built).as_posix() for path in built.rglob("*")
             if path.is_file()]
    matched = {path: [p.pattern for p, _ in rules if p.fullmatch(path)] for path in paths}
    wrong = [f"{path}: {patterns}" for path, patterns in matched.items()
             if len(patterns) > 1 or (patterns and not support.STAMPED.search(path))]
    assert not wrong, "matched by more than one rule, or not stamped:\n" + "\n".join(wrong)
    # The search's and the assets' stamped files, at the root and in each language's folder.
    kept = [path for path in paths if support.STAMPED.search(path)
              and re.match(r"(/[^/]+)?/(search|assets/)", path)]
    assert any(path.startswith("/fr/") for path in kept), "the sample's French files"
    assert kept and all(matched[path] for path in kept), [p for p in kept if not matched[p]]


# MARK: - In Chromium, through nginx

# Every list of results the page shows, from the start of each document: a reloaded page must
# show no result of the build before.
RECORD_RESULTS = """
window.shownResults = [];
new MutationObserver(() => {
  const results = document.getElementById('search-results');
  if (!results || results.hidden || !results.children.length) return;
  const slugs = Array.from(results.children, (li) => li.dataset.slug).join(' ');
  if (window.shownResults.at(-1) !== slugs) window.shownResults.push(slugs);
}).observe(document, { childList: true, subtree: true, attributes: true });
"""

TRANSFERS = """
return performance.getEntriesByType('resource').map((entry) => ({
  url: entry.name, transferSize: entry.transferSize, bodySize: entry.encodedBodySize,
}));
"""

DAY = 24 * 3600


def published_long_ago(site: Path) -> None:
    """Dates every file of the build a day back: without a Cache-Control, browsers keep such
    a file for hours (a tenth of its age) without asking, the old manifest among them."""
    then = time.time() - DAY
    for path in site.rglob("*"):
        os.utime(path, (then, then))


def first_screen(fruitsite_bin, work: Path, text: str) -> str:
    records = search_records(fruitsite_bin, work, text)[:RESULTS_STEP]
    return " ".join(record["slug"] for record in records)


def files_read(driver, server, site: Path) -> list[dict]:
    """What the page has fetched, from the network or the browser's cache, with the path of
    each below the site (`path`) and whether the build `site` has it (`current`)."""
    transfers = driver.execute_script(TRANSFERS)
    for transfer in transfers:
        transfer["path"] = transfer["url"].removeprefix(server.base_url)
        transfer["current"] = (site / transfer["path"]).is_file()
    return transfers


def test_deploys_through_nginx_reloaded_searched_and_revisited(
    driver, fruitsite_bin, tmp_path_factory
):
    work = tmp_path_factory.mktemp("nginx-deploys")
    config = work / "fruitsite.yml"
    config.write_text("search:\n  index: sharded\n", encoding="utf-8")
    generate(work, 1200)
    site = build_site(fruitsite_bin, work / "Content", config, work)
    published_long_ago(site)
    with WebServer("nginx", site, work / "served") as server:
        page = SearchPage(driver, support.load_search_index(site)).open(server.url("?q=red"))
        page.wait_for_names(search(fruitsite_bin, work, "red"), "the first build")

        # A deploy, then a reload: only the new build's files are read, and only its results
        # shown. (nginx's defaults let Chromium read the old manifest and gram files from its
        # cache: the results were then right only because the client asks for the manifest
        # again beside each search.)
        was = first_screen(fruitsite_bin, work, "red")
        one_fruit_first(work)
        site = build_site(fruitsite_bin, work / "Content", config, work)
        server.deploy(site)
        now = first_screen(fruitsite_bin, work, "red")
        assert now != was, "the deploy must change what 'red' shows"
        script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                        {"source": RECORD_RESULTS})
        try:
            driver.refresh()
            page = SearchPage(driver, support.load_search_index(site))
            page.wait_until_ready()
            page.wait_for_names(search(fruitsite_bin, work, "red"), "reloaded after a deploy")
            shown = driver.execute_script("return window.shownResults")
        finally:
            driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                                   {"identifier": script["identifier"]})
        old = [read["path"] for read in files_read(driver, server, site) if not read["current"]]
        assert not old, f"the reloaded page read files of the build before: {old}"
        assert shown == [now], f"the reloaded page showed other results: {shown}"

        # Another deploy, with more gram files: the same tab searches the new build.
        driver.execute_script("window.sameTab = true")
        more_fruits(work)
        site = build_site(fruitsite_bin, work / "Content", config, work)
        server.deploy(site)
        page = SearchPage(driver, support.load_search_index(site))
        for text in ["an", "red"]:
            page.box.clear()
            page.box.send_keys(text)
            expected = search(fruitsite_bin, work, text)
            page.wait_for_names(expected, f"{text!r} in the same tab after a deploy")
            page.wait_for_status_count(len(expected))
        assert driver.execute_script("return window.sameTab === true"), "the page was reloaded"

        # The visitor comes back: what is named by its bytes comes from the browser's cache,
        # and the manifest is revalidated (a 304: Chromium counts its headers as 300 bytes).
        driver.get("about:blank")
        page.open(server.url("?q=red"))
        page.wait_for_names(search(fruitsite_bin, work, "red"), "coming back")
        read = files_read(driver, server, site)
        stamped = [r for r in read if support.STAMPED.search(r["path"])]
        assert stamped, f"the page fetched no file named by its bytes: {read}"
        downloaded = [r for r in stamped if r["transferSize"] > 0]
        assert not downloaded, f"downloaded again: {downloaded}"
        manifests = [r for r in read if r["path"] == "search/index.json"]
        revalidated = all(0 < r["transferSize"] < 1000 and r["bodySize"] for r in manifests)
        assert manifests and revalidated, f"the manifest is not revalidated: {manifests}"
