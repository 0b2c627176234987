"""Every folder in a page's address answers with a page: a visitor who trims an address
(fruits/apple/ to fruits/, categories/berries/ to categories/, vitamins/c/ to vitamins/,
page/2/ to page/) lands on a page with a working link, under the subpath. The test server,
like Python's http.server, would list a folder without index.html, so the checks look for
the pages' own content."""

import html
import urllib.request
from pathlib import Path
from urllib.parse import urljoin

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import browser_support as support


def first_page(site: Path, pattern: str) -> str:
    """The address of the first page matching `pattern` (a glob of index.html files) that
    is not a folder page leading elsewhere: `categories/berries/`."""
    for page in sorted(site.glob(pattern)):
        if not support.is_redirect(page):
            return page.parent.relative_to(site).as_posix() + "/"
    pytest.fail(f"{site} has no page matching {pattern}")


def trimmed(address: str) -> str:
    """The address without its last folder: `fruits/apple/` is `fruits/`."""
    return address.rstrip("/").rsplit("/", 1)[0] + "/"


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200, f"{url} answered {response.status}"
        return response.read().decode("utf-8")


def heading(driver) -> str:
    return driver.find_element(By.TAG_NAME, "h1").text


def land(driver, url: str, landing: str) -> None:
    """Opens `url` and waits until the browser shows `landing`, where it leads."""
    driver.get(url)
    WebDriverWait(driver, 10).until(lambda d: d.current_url == landing)
    support.wait_until_loaded(driver)


def follow(driver, selector: str) -> str:
    """Clicks the first link `selector` finds and returns the page's heading once the
    browser is at the link's address."""
    link = driver.find_element(By.CSS_SELECTOR, selector)
    target = link.get_attribute("href")
    link.click()
    WebDriverWait(driver, 10).until(lambda d: d.current_url == target)
    support.wait_until_loaded(driver)
    return heading(driver)


# MARK: - Folders that list


def test_a_trimmed_category_address_lists_the_categories(driver, site, server):
    category = first_page(site, "categories/*/index.html")
    folder = trimmed(category)
    assert folder == "categories/"
    page = fetch(server.url(folder))
    assert "<h1>Categories</h1>" in page and f'href="../{category}"' in page
    land(driver, server.url(folder), server.url(folder))
    assert heading(driver) == "Categories"
    assert driver.find_element(
        By.CSS_SELECTOR, '.site-header a[aria-current="page"]'
    ).get_attribute("href") == server.url(folder)
    name = driver.find_element(By.CSS_SELECTOR, "main .category-grid .category-name").text
    assert follow(driver, "main .category-grid a") == name


def test_a_trimmed_facet_value_address_lists_the_values(driver, site, server):
    value = first_page(site, "vitamins/*/index.html")
    folder = trimmed(value)
    assert folder == "vitamins/"
    page = fetch(server.url(folder))
    assert "<h1>Vitamins</h1>" in page and f'href="../{value}"' in page
    land(driver, server.url(folder), server.url(folder))
    assert heading(driver) == "Vitamins"
    name = driver.find_element(By.CSS_SELECTOR, "main .category-grid .category-name").text
    assert follow(driver, "main .category-grid a") == f"Vitamins: {name}"


# MARK: - Folders that lead on


def check_leads_on(driver, server, folder: str, landing: str, title: str) -> None:
    """`folder` is a page leading at once to `landing`, titled `title`, with a link there
    for a browser that does not follow the refresh."""
    page = fetch(server.url(folder))
    assert f"<h1>{html.escape(title, quote=False)}</h1>" in page
    assert '<meta http-equiv="refresh" content="0; url=../">' in page
    # Not listed where it leads from, and its link leads there too.
    driver.get(server.url_without_refresh(folder + "index.html"))
    support.wait_until_loaded(driver)
    assert heading(driver) == title
    link = driver.find_element(By.CSS_SELECTOR, "main a.button")
    assert urljoin(server.url(folder), link.get_attribute("href")) == server.url(landing)
    land(driver, server.url(folder), server.url(landing))


def test_a_trimmed_fruit_address_leads_to_the_index(driver, site, server):
    fruit = first_page(site, "fruits/*/index.html")
    folder = trimmed(fruit)
    assert folder == "fruits/"
    check_leads_on(driver, server, folder, "", "All fruits")
    # The index lists the fruits, and its links work.
    assert follow(driver, f'#fruit-list a[href="{fruit}"]')


def test_a_trimmed_page_address_leads_to_the_listings_first_page(driver, paged_site, paged_server):
    assert (paged_site / "page/2/index.html").is_file(), "the paged site has an index page 2"
    check_leads_on(driver, paged_server, trimmed("page/2/"), "", "All fruits")
    assert driver.find_elements(By.CSS_SELECTOR, "#fruit-list a")
    category = next(
        page.parent.parent.parent.relative_to(paged_site).as_posix() + "/"
        for page in sorted(paged_site.glob("categories/*/page/2/index.html"))
    )
    name = html.unescape(
        fetch(paged_server.url(category)).split("<h1>", 1)[1].split("</h1>", 1)[0]
    )
    check_leads_on(driver, paged_server, trimmed(category + "page/2/"), category, name)
    assert heading(driver) == name
    assert follow(driver, 'nav[aria-label="Pages"] a[rel="next"]') == f"{name}, page 2"
