"""A site whose fruits have dates, built with a base URL (conftest.dated_site): the pages that
link its feeds and show dates pass the Nu checker and axe and log no console error, and every
feed a page links is served, parses and lists the newest dated fruits first."""

import json
import re
import urllib.request
import xml.etree.ElementTree as ElementTree
from urllib.parse import urljoin

import pytest
from selenium.webdriver.common.by import By

import browser_support as support
from test_accessibility import check_with_axe
from test_html_validity import describe, is_error, run_nu_checker
from test_pages import IDLE

ATOM = "{http://www.w3.org/2005/Atom}"


def dated_fruits(site) -> list[tuple[str, str]]:
    """(date, slug) of every fruit page that shows a date, newest first."""
    found = []
    for page in (site / "fruits").glob("*/index.html"):
        match = re.search(r'<time datetime="([^"]+)">', page.read_text(encoding="utf-8"))
        if match:
            found.append((match.group(1), page.parent.name))
    return sorted(found, key=lambda pair: pair[0], reverse=True)


def test_dated_pages_have_no_validation_errors(dated_site):
    messages = run_nu_checker(dated_site)
    errors = [describe(m, dated_site) for m in messages if is_error(m)]
    assert not errors, f"{len(errors)} Nu checker error(s):\n" + "\n".join(errors)


@pytest.mark.parametrize("kind", ["fruit", "category", "index"])
def test_dated_pages_have_no_axe_violations_or_console_errors(
    driver, dated_site, dated_server, kind
):
    newest = dated_fruits(dated_site)[0][1]
    relative = {
        "fruit": f"fruits/{newest}/",
        "category": "categories/berries/",
        "index": "",
    }[kind]
    driver.get(dated_server.url(relative))
    support.wait_until_loaded(driver)
    driver.execute_async_script(IDLE)
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, f"console errors on {relative or 'the index'}: {errors}"
    check_with_axe(driver, f"{relative or 'index'} of the dated site")


def test_every_linked_feed_is_served_and_lists_the_newest_fruits(driver, dated_site, dated_server):
    dated = dated_fruits(dated_site)
    assert len(dated) >= 10, "the fixture dates every third fruit"
    page_url = dated_server.url("categories/berries/")
    driver.get(page_url)
    support.wait_until_loaded(driver)
    # The feeds' links, by their type: the hreflang alternates of a site in several languages
    # have none.
    links = driver.find_elements(By.CSS_SELECTOR, 'link[rel="alternate"][type]')
    # The category's two feeds, then the site's: the last of each type is the site's.
    assert [link.get_attribute("type") for link in links] == [
        "application/atom+xml", "application/feed+json",
    ] * 2
    site_atom = urljoin(page_url, links[2].get_attribute("href"))
    with urllib.request.urlopen(site_atom) as response:
        atom = ElementTree.fromstring(response.read())
    entries = atom.findall(f"{ATOM}entry")
    ids = [entry.findtext(f"{ATOM}id") for entry in entries]
    assert ids == [
        f"https://example.org/fruits/fruits/{slug}/" for _, slug in dated[: len(ids)]
    ], "newest first"
    assert len(ids) == min(20, len(dated))
    with urllib.request.urlopen(urljoin(page_url, links[3].get_attribute("href"))) as response:
        feed = json.loads(response.read())
    assert [item["id"] for item in feed["items"]] == ids
