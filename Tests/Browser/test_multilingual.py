"""A catalog in two languages, served under a subpath: each language's pages search their own
catalog alone, fetching nothing from another language's folder; the language switcher leads
to the same fruit in the other language, at its own slug there; a fruit with no French translation is listed in
French from its English entry, marked and kept out of search engines' indexes."""

import pytest

import browser_support as support
from conftest import build_site
from search_page import SearchPage

CONFIG = """baseURL: https://example.org/shop/
languages:
  - code: en
    title: Fruit Catalog
  - code: fr
    title: Catalogue de fruits
    fallback: default
"""

ENTRIES = {
    "apple.md": "name: Apple\ncategory: Pome\nvitamins: [C]",
    "pomme.fr.md": "name: Pomme\ncategory: Pépins\nvitamins: [C]\ntranslationKey: apple",
    "cherry.md": "name: Cherry\ncategory: Stone\nvitamins: [A]",
    "cherry.fr.md": "name: Cerise\ncategory: Noyaux\nvitamins: [A]",
    "quince.md": "name: Quince\ncategory: Pome\nvitamins: [C]",
    "kiwi.md": "name: Kiwi\ncategory: Berries\nvitamins: [K]",
}


@pytest.fixture(scope="module")
def server(fruitsite_bin, tmp_path_factory):
    work = tmp_path_factory.mktemp("multilingual")
    content = work / "Content"
    content.mkdir()
    for name, front in ENTRIES.items():
        (content / name).write_text(f"---\n{front}\n---\nText.\n", encoding="utf-8")
    (work / "fruitsite.yml").write_text(CONFIG, encoding="utf-8")
    site = build_site(fruitsite_bin, content, work / "fruitsite.yml", work)
    with support.SiteServer(site, tmp_path_factory.mktemp("served-multilingual")) as running:
        yield running, site


def test_the_french_pages_search_the_french_catalog_alone(driver, server):
    running, site = server
    index = support.load_search_index(site / "fr")
    running.requests.clear()
    page = SearchPage(driver, index).open(running.url("fr/"))
    html = driver.find_element("css selector", "html")
    assert html.get_attribute("lang") == "fr"
    # French order, the English entries without a translation listed in their place.
    assert page.visible_names() == ("Cerise", "Kiwi", "Pomme", "Quince")
    page.wait_until_handling_input()
    # Names and categories in French: "pom" would find Quince by its category, Pome.
    page.type_letter_by_letter("cer")
    page.wait_for_names(("Cerise",), "the search for cer")
    page.box.clear()
    page.type_letter_by_letter("apple")
    page.wait_for_names((), "the search for apple, an English name")
    prefix = running.url("").removeprefix(f"http://127.0.0.1:{running.port}")
    fetched = [path for path in running.requests if path.startswith(prefix)]
    assert fetched, "the French page fetched nothing"
    outside = [path for path in fetched if not path.startswith(prefix + "fr/")]
    assert outside == [], "the French page fetched files outside its language's folder"


def test_the_switcher_leads_to_the_same_fruit(driver, server):
    running, _ = server
    driver.get(running.url("fruits/apple/"))
    switch = driver.find_element("css selector", ".language-switch a[hreflang=fr]")
    assert switch.text == "français"
    switch.click()
    assert driver.current_url == running.url("fr/fruits/pomme/")
    assert driver.find_element("css selector", "h1").text.endswith("Pomme")
    current = driver.find_element("css selector", ".language-switch a[aria-current=page]")
    assert current.get_attribute("hreflang") == "fr"
    alternates = {
        link.get_attribute("hreflang"): link.get_attribute("href")
        for link in driver.find_elements("css selector", "link[rel=alternate][hreflang]")
    }
    assert alternates == {
        "en": "https://example.org/shop/fruits/apple/",
        "fr": "https://example.org/shop/fr/fruits/pomme/",
        "x-default": "https://example.org/shop/fruits/apple/",
    }
    driver.find_element("css selector", ".language-switch a[hreflang=en]").click()
    assert driver.current_url == running.url("fruits/apple/")


def test_an_untranslated_fruit_is_marked_and_not_indexed(driver, server):
    running, _ = server
    driver.get(running.url("fr/fruits/kiwi/"))
    robots = driver.find_element("css selector", "meta[name=robots]")
    assert robots.get_attribute("content") == "noindex"
    canonical = driver.find_element("css selector", "link[rel=canonical]")
    assert canonical.get_attribute("href") == "https://example.org/shop/fruits/kiwi/"
    assert driver.find_elements("css selector", "link[rel=alternate][hreflang]") == []
    current = driver.find_element("css selector", ".language-switch a[aria-current=page]")
    assert "(non traduit)" in current.text
