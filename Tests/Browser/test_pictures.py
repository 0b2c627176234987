"""Pictures in a real browser, at a phone's width: the fruit page's photo is its largest
paint, each format's best variant is the one loaded, nothing shifts as pictures arrive,
and cards load theirs lazily. Screenshots go to FRUITSITE_SCREENSHOTS when it is set."""

import os
import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import browser_support as support

PHONE = (390, 844)

# Buffered entries of what the page painted and shifted, and what it downloaded.
MEASURE = """
const done = arguments[arguments.length - 1];
const entries = type => new Promise(resolve => {
  const observer = new PerformanceObserver(list => resolve(list.getEntries()));
  observer.observe({type, buffered: true});
  setTimeout(() => resolve([]), 1000);
});
Promise.all([entries('largest-contentful-paint'), entries('layout-shift')]).then(([lcp, shifts]) => {
  const last = lcp[lcp.length - 1];
  const resources = performance.getEntriesByType('resource');
  const navigation = performance.getEntriesByType('navigation')[0];
  done({
    lcpTag: last && last.element ? last.element.tagName : null,
    lcpURL: last ? last.url : null,
    lcpTime: last ? last.startTime : null,
    cls: shifts.filter(s => !s.hadRecentInput).reduce((sum, s) => sum + s.value, 0),
    bytes: resources.reduce((sum, r) => sum + r.transferSize, navigation.transferSize),
    pictures: resources.filter(r => r.name.includes('/images/')).map(r => r.name),
  });
});
"""

# Whether an img shows its photo, not a flat colour: the spread of its pixels' brightness.
SPREAD = """
const img = arguments[0];
const canvas = document.createElement('canvas');
canvas.width = 64; canvas.height = 48;
const context = canvas.getContext('2d');
context.drawImage(img, 0, 0, 64, 48);
const data = context.getImageData(0, 0, 64, 48).data;
let low = 255, high = 0;
for (let i = 0; i < data.length; i += 4) {
  const light = (data[i] + data[i + 1] + data[i + 2]) / 3;
  low = Math.min(low, light); high = Math.max(high, light);
}
return high - low;
"""


def pictured_pages(site: Path) -> tuple[list[str], list[str]]:
    """The fruit pages with a photo, and the category pages with a card that has one."""
    fruits = sorted(
        str(page.parent.relative_to(site)) + "/"
        for page in (site / "fruits").glob("*/index.html")
        if "<picture" in page.read_text(encoding="utf-8")
    )
    categories = sorted(
        str(page.parent.relative_to(site)) + "/"
        for page in (site / "categories").glob("*/index.html")
        if "<picture" in page.read_text(encoding="utf-8")
    )
    return fruits, categories


@pytest.fixture(scope="module")
def pictured(site):
    fruits, categories = pictured_pages(site)
    if not fruits:
        pytest.skip("the site has no fruit with a picture")
    return fruits, categories


def load(driver, url: str, size=PHONE) -> dict:
    driver.set_window_size(*size)
    driver.get(url)
    support.wait_until_loaded(driver)
    WebDriverWait(driver, 15).until(
        lambda d: d.execute_script(
            "return [...document.images].filter(i => i.loading !== 'lazy')"
            ".every(i => i.complete && i.naturalWidth > 0)"
        )
    )
    return driver.execute_async_script(MEASURE)


def screenshot(driver, name: str) -> None:
    folder = os.environ.get("FRUITSITE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / f"{name}.png"))


def test_a_fruit_pages_photo_is_its_largest_paint_and_nothing_shifts(driver, server, pictured):
    fruits, _ = pictured
    for page in fruits[:3]:
        figures = load(driver, server.url(page))
        hero = driver.find_element(By.CSS_SELECTOR, "img.hero")
        assert hero.get_attribute("fetchpriority") == "high"
        assert hero.get_attribute("loading") != "lazy"
        assert hero.get_attribute("width") and hero.get_attribute("height")
        # Chromium shows AVIF: the first source's variant is the one it loads, once.
        current = driver.execute_script("return arguments[0].currentSrc", hero)
        assert current.endswith(".avif"), current
        assert [url for url in figures["pictures"] if url == current] == [current]
        assert figures["lcpTag"] == "IMG" and figures["lcpURL"] == current, figures
        assert figures["cls"] == 0, f"{page}: layout shift {figures['cls']}"
        # A 390-pixel screen at 1x takes the 640-pixel variant at most.
        assert int(re.search(r"-(\d+)\.[a-z0-9]+\.avif$", current).group(1)) <= 640
        assert driver.execute_script(SPREAD, hero) > 40, f"{page}: the photo is not shown"
        print(
            f"{page}: {figures['bytes']} bytes, largest paint {figures['lcpTime']:.0f} ms, "
            f"layout shift {figures['cls']}"
        )
    screenshot(driver, "fruit-page-390")
    assert not [
        entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
    ]


def test_cards_load_their_thumbnails_lazily_and_nothing_shifts(driver, server, pictured):
    _, categories = pictured
    if not categories:
        pytest.skip("no category page shows a picture")
    figures = load(driver, server.url(categories[0]))
    cards = driver.find_elements(By.CSS_SELECTOR, ".fruit-card img")
    assert cards
    for card in cards:
        assert card.get_attribute("loading") == "lazy"
        assert card.get_attribute("decoding") == "async"
        assert card.get_attribute("width") and card.get_attribute("height")
        # The link says the fruit's name: its thumbnail says nothing more.
        assert card.get_attribute("alt") == ""
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    WebDriverWait(driver, 15).until(
        lambda d: d.execute_script(
            "return [...document.querySelectorAll('.fruit-card img')]"
            ".every(i => i.complete && i.naturalWidth > 0)"
        )
    )
    figures = driver.execute_async_script(MEASURE)
    assert figures["cls"] == 0, f"layout shift {figures['cls']}"
    # A thumbnail a few rem wide takes its narrowest variant wide enough, in the first format.
    for url in figures["pictures"]:
        assert re.search(r"-320\.[a-z0-9]+\.avif$", url), url
    print(f"{categories[0]}: {figures['bytes']} bytes with its pictures")
    screenshot(driver, "category-page-390")


# Each card's thumbnail in a list, by slug: every attribute it is shown by, its addresses
# resolved, or null for a card without one.
THUMBNAILS = """
const resolve = (url) => url && new URL(url, document.baseURI).href;
return Object.fromEntries([...document.querySelectorAll(`#${arguments[0]} .fruit-card`)].map((card) => {
  const img = card.querySelector('picture > img');
  return [card.dataset.slug, img && {
    sources: [...img.parentElement.querySelectorAll('source')].map((s) => [s.type, resolve(s.getAttribute('srcset'))]),
    src: img.src, width: img.getAttribute('width'), height: img.getAttribute('height'),
    alt: img.getAttribute('alt'), loading: img.loading, decoding: img.decoding,
    className: img.className, color: img.style.backgroundColor,
  }];
}));
"""


def test_search_results_show_the_thumbnails_the_index_page_shows(driver, server, pictured):
    """A search's result cards, made by search.js from the search index, show each fruit's
    thumbnail exactly as the index page's own cards do, and the emoji when it has none."""
    driver.set_window_size(*PHONE)
    driver.get(server.url(""))
    support.wait_until_loaded(driver)
    page = driver.execute_script(THUMBNAILS, "fruit-list")
    assert any(page.values()), "the index page shows no thumbnail"
    driver.get(server.url("?q=e"))
    WebDriverWait(driver, 15).until(
        lambda d: d.execute_script(
            "const r = document.getElementById('search-results'); "
            "return Boolean(r && !r.hidden && r.children.length);"
        )
    )
    results = driver.execute_script(THUMBNAILS, "search-results")
    shared = [slug for slug in results if slug in page]
    assert any(results[slug] for slug in shared), "no result on the first page has a picture"
    for slug in shared:
        assert results[slug] == page[slug], slug
    without = driver.find_elements(By.CSS_SELECTOR, "#search-results .fruit-card > .card-emoji")
    assert all(card.get_attribute("aria-hidden") == "true" for card in without)
    WebDriverWait(driver, 15).until(
        lambda d: d.execute_script(
            "const shown = [...document.querySelectorAll('#search-results img')]"
            ".filter(i => i.getBoundingClientRect().top < innerHeight);"
            "return shown.length > 0 && shown.every(i => i.complete && i.naturalWidth > 0);"
        )
    )
    screenshot(driver, "search-results-390")
