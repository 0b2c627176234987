"""A site with a sharded search index (`search: {index: sharded}`), generated with
Benchmarks/generate.py: the search shows what `fruitsite search` prints, 50 results at a time
with "Show more" for the rest, fetches only the files a query needs, and works under any
subpath."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import browser_support as support
from conftest import build_site
from search_page import RESULTS_STEP, SearchPage
from test_accessibility import check_with_axe

COUNT = 260


# MARK: - The site


@pytest.fixture(scope="module")
def sharded(fruitsite_bin, tmp_path_factory):
    """(work folder, built site): COUNT generated fruits, the sharded index."""
    work = tmp_path_factory.mktemp("sharded")
    subprocess.run(
        [sys.executable, str(support.REPO / "Benchmarks" / "generate.py"),
         "--count", str(COUNT), "--seed", "5", "--out", str(work / "Content")],
        check=True, capture_output=True, timeout=120,
    )
    config = work / "fruitsite.yml"
    config.write_text("search:\n  index: sharded\n", encoding="utf-8")
    site = build_site(fruitsite_bin, work / "Content", config, work)
    assert (site / "search" / "index.json").is_file() and not list(site.glob("search-index*"))
    return work, site


@pytest.fixture(scope="module")
def sharded_index(sharded) -> dict:
    return support.load_search_index(sharded[1])


@pytest.fixture(scope="module")
def sharded_server(sharded, tmp_path_factory):
    with support.SiteServer(sharded[1], tmp_path_factory.mktemp("served-sharded")) as running:
        yield running


def search_records(fruitsite_bin, work: Path, text: str, category: str | None = None) -> list:
    """The entries `fruitsite search --json` prints for the generated catalog."""
    command = [str(fruitsite_bin), "search", "--json", "--content", str(work / "Content")]
    if category:
        command += ["--category", category]
    result = subprocess.run(
        command + ["--", text], cwd=work, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 or not result.stdout.strip(), result.stderr
    return json.loads(result.stdout or "[]")


def search(fruitsite_bin, work: Path, text: str, category: str | None = None) -> list[str]:
    """The names `fruitsite search` prints for the generated catalog."""
    return [record["name"] for record in search_records(fruitsite_bin, work, text, category)]


def open_page(driver, server, index, query: str = "") -> SearchPage:
    return SearchPage(driver, index).open(server.base_url + query)


def most_common_category(index: dict) -> str:
    counts: dict[str, int] = {}
    for fruit in index["fruits"]:
        counts[fruit["category"]] = counts.get(fruit["category"], 0) + 1
    return max(counts, key=counts.get)


# MARK: - Results


@pytest.mark.parametrize("text", ["a", "an", "Berr", "é", "ÉTÉ", "e s", "zzz"])
def test_results_match_the_cli(driver, fruitsite_bin, sharded, sharded_index, sharded_server, text):
    expected = search(fruitsite_bin, sharded[0], text)
    page = open_page(driver, sharded_server, sharded_index)
    page.box.send_keys(text)
    page.wait_for_names(expected, f"typing {text!r}")
    page.wait_for_status_count(len(expected))
    assert page.lists_rendered()["more"] == (len(expected) > RESULTS_STEP)


def test_a_category_with_text_matches_the_cli(
    driver, fruitsite_bin, sharded, sharded_index, sharded_server
):
    category = most_common_category(sharded_index)
    page = open_page(driver, sharded_server, sharded_index)
    page.choose_category(category)
    page.wait_for_names(search(fruitsite_bin, sharded[0], "", category), f"{category} alone")
    for prefix in ["r", "re", "red"]:
        page.box.send_keys(prefix[-1])
        expected = search(fruitsite_bin, sharded[0], prefix, category)
        page.wait_for_names(expected, f"{prefix!r} in {category}")
        page.wait_for_status_count(len(expected))


def test_an_address_with_a_search_shows_it(
    driver, fruitsite_bin, sharded, sharded_index, sharded_server
):
    category = most_common_category(sharded_index)
    expected = search(fruitsite_bin, sharded[0], "an", category)
    page = open_page(driver, sharded_server, sharded_index, f"?q=an&category={category}")
    page.wait_for_names(expected, f"opening ?q=an&category={category}")
    page.wait_for_status_count(len(expected))


def test_show_more_adds_the_next_results_until_every_one_shows(
    driver, fruitsite_bin, sharded, sharded_index, sharded_server
):
    expected = search(fruitsite_bin, sharded[0], "a")
    assert len(expected) > 2 * RESULTS_STEP, "the test needs a query with three screens"
    page = open_page(driver, sharded_server, sharded_index)
    page.box.send_keys("a")
    page.wait_for_names(expected, "typing 'a'")
    more = driver.find_element(By.CSS_SELECTOR, "#search-results + .search-more")
    assert more.tag_name == "button" and more.text == "Show more"
    shown = RESULTS_STEP
    while shown < len(expected):
        # From the keyboard: the button takes the focus and Enter presses it.
        more.send_keys(Keys.ENTER)
        first_new = expected[shown]
        shown = min(shown + RESULTS_STEP, len(expected))
        page.wait_for_names(expected, f"Show more, up to {shown}", shown=shown)
        focused = driver.execute_script(
            "const el = document.activeElement;"
            "return [el.tagName, el.closest('#search-results > li')?.dataset.slug];"
        )
        names = {f["slug"]: f["name"] for f in sharded_index["fruits"]}
        assert focused[0] == "A" and names.get(focused[1]) == first_new, (
            f"the focus should move to the first new result, {first_new!r}: {focused}"
        )
        page.wait_for_status_count(len(expected))
    assert not page.lists_rendered()["more"], "Show more is still shown with every result"

    # A new search starts again from the first screen.
    page.box.send_keys("n")
    page.wait_for_names(search(fruitsite_bin, sharded[0], "an"), "typing 'an'")


def test_escape_brings_back_the_page_and_its_pager(driver, sharded_index, sharded_server):
    page = open_page(driver, sharded_server, sharded_index)
    assert page.lists_rendered() == {"own": True, "pager": True, "results": False, "more": False}
    page.box.send_keys("a")
    page.wait_for(
        lambda: page.lists_rendered() == {"own": False, "pager": False, "results": True,
                                          "more": True},
        "the results, with Show more, in place of the page's list and pager",
    )
    page.box.send_keys(Keys.ESCAPE)
    page.wait_for(
        lambda: page.lists_rendered() == {"own": True, "pager": True, "results": False,
                                          "more": False},
        "Escape to bring back the page's list and pager",
    )


def test_a_search_the_index_cannot_answer_leaves_no_results_of_another(
    driver, fruitsite_bin, sharded, sharded_index, tmp_path
):
    """The first records file is gone, though the manifest names no other build: a search
    that needs it says the search is unavailable, and the results of the search before,
    which answer another text, are not left shown."""
    slugs = [fruit["slug"] for fruit in sharded_index["fruits"]]
    last = sharded_index["fruits"][-1]["name"]
    positions = [slugs.index(r["slug"]) for r in search_records(fruitsite_bin, sharded[0], last)]
    assert positions and min(positions) >= 32, "the first search must not need records/0.json"
    with support.SiteServer(sharded[1], tmp_path) as server:
        (first,) = (server.site_copy / "search" / "records").glob("0.*.json")
        first.unlink()
        page = open_page(driver, server, sharded_index, "?q=" + last.replace(" ", "+"))
        page.wait_for(lambda: page.is_searching(), "the results of the first search")
        page.box.send_keys(Keys.CONTROL, "a")
        page.box.send_keys("a")
        page.wait_for(
            lambda: "unavailable" in page.status_text()
            and page.lists_rendered() == {"own": True, "pager": True, "results": False,
                                          "more": False},
            "the search to be unavailable, with the page's own list in place of the results",
        )


# MARK: - Requests


RESOURCES = """
return performance.getEntriesByType('resource').map(entry => entry.name)
  .filter(name => name.endsWith('.json'));
"""


def test_a_search_fetches_the_manifest_and_the_files_it_needs(
    driver, fruitsite_bin, sharded, sharded_index, sharded_server
):
    manifest = json.loads((sharded[1] / "search" / "index.json").read_text(encoding="utf-8"))
    expected = search_records(fruitsite_bin, sharded[0], "ber")
    page = open_page(driver, sharded_server, sharded_index, "?q=ber")
    page.wait_for_names([record["name"] for record in expected], "opening ?q=ber")
    fetched = driver.execute_script(RESOURCES)
    base = sharded_server.url("search/")
    assert all(url.startswith(base) for url in fetched), fetched
    # Opened once, and asked again beside the search's files (docs/how-to/deploy.md).
    assert fetched.count(base + "index.json") == 2, fetched

    def named(path: str, stamps: str, i: int) -> str:
        """A file's address: its path, and the ith stamp of the manifest's `stamps`."""
        return f"{base}{path}.{stamps[8 * i:8 * i + 8]}.json"

    # The records files that hold the first screen of results, and no other.
    position = {fruit["slug"]: n for n, fruit in enumerate(sharded_index["fruits"])}
    needed = {position[r["slug"]] // manifest["records"] for r in expected[:RESULTS_STEP]}
    records = [url for url in fetched if url.startswith(base + "records/")]
    group = manifest["recordsGroup"]
    assert sorted(records) == sorted(
        named(f"records/{n}", manifest["recordsFiles"], n // group) for n in needed
    )
    # The file of the trigram "ber"; then, fetched once the results show, those that "ber"
    # and one more letter can need: the bucket keyed "er" and the common trigrams of that key.
    heavy = manifest["heavy"]

    def bucket(key: str) -> str:
        hash = 0x811C9DC5  # FNV-1a, 32 bits, of the key's UTF-8
        for byte in key.encode():
            hash = ((hash ^ byte) * 0x01000193) & 0xFFFFFFFF
        number = hash % (len(manifest["buckets"]) // 8)
        return named(f"grams/{number}", manifest["buckets"], number)

    def trigram(gram: str) -> str:
        if gram in heavy:
            return named(f"grams/h{heavy[gram]}", manifest["heavyFiles"], heavy[gram])
        return bucket(gram[:2])

    prefetched = {bucket("er")} | {
        trigram(gram) for gram in heavy if len(gram) == 3 and gram.startswith("er")
    }
    wanted = {trigram("ber")} | prefetched
    page.wait_for(
        lambda: {url for url in driver.execute_script(RESOURCES) if "/grams/" in url} == wanted,
        f"the gram files of 'ber' and those 'ber' and one more letter can need: {wanted}",
    )


# MARK: - Under another subpath


def test_search_and_its_links_work_under_another_subpath(
    driver, fruitsite_bin, sharded, sharded_index, tmp_path_factory
):
    work = tmp_path_factory.mktemp("served-sharded-deep")
    with support.SiteServer(sharded[1], work, subpath="deep/er/than/before/") as server:
        expected = search(fruitsite_bin, sharded[0], "an")
        page = open_page(driver, server, sharded_index, "?q=an")
        page.wait_for_names(expected, "?q=an under deep/er/than/before/")
        link = driver.find_element(By.CSS_SELECTOR, "#search-results > li a[href]")
        link.click()
        page.wait_for(lambda: "/fruits/" in driver.current_url, "the result's page to open")
        support.wait_until_loaded(driver)
        assert driver.current_url.startswith(server.base_url), driver.current_url
        assert expected[0] in driver.find_element(By.TAG_NAME, "h1").text


# MARK: - Accessibility


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_results_with_show_more_have_no_axe_violations(
    driver, sharded_index, sharded_server, scheme
):
    support.set_color_scheme(driver, scheme)
    page = open_page(driver, sharded_server, sharded_index)
    page.box.send_keys("ber")
    page.wait_for(lambda: page.lists_rendered()["results"], "the results of 'ber'")
    page.box.send_keys(Keys.BACKSPACE, Keys.BACKSPACE)
    page.wait_for(lambda: page.lists_rendered()["more"], "Show more for 'b'")
    check_with_axe(driver, f"the sharded index after typing 'b' ({scheme})")
