"""The theme's words in the site's language: a French and an Arabic catalog show the words of
their string tables (Templates/i18n/fr.yml, ar.yml) on the page and in what the search client
writes, plural forms chosen by CLDR's rules in the browser as in the build, and are listed in
their language's alphabetical order."""

import pytest

import browser_support as support
from search_page import SearchPage
from test_bidi import build

FRENCH_ENTRIES = {
    "citron": "name: Citron\ncategory: Agrumes\nvitamins: [C]",
    "eglantier": "name: Églantier\ncategory: Baies\nvitamins: [C]",
    "abricot": "name: Abricot\ncategory: Noyaux\nvitamins: [A]",
    "zeste": "name: Zeste\ncategory: Agrumes\nvitamins: [C]",
}

ARABIC_ENTRIES = {
    "tuffah": "name: تفاح\ncategory: تفاحيات\nvitamins: [C]",
    "mawz": "name: موز\ncategory: استوائية\nvitamins: [B6]",
    "burtuqal": "name: برتقال\ncategory: حمضيات\nvitamins: [C]",
}


@pytest.fixture(scope="module")
def french_server(fruitsite_bin, tmp_path_factory):
    site = build(fruitsite_bin, tmp_path_factory, "french", "language: fr\n", FRENCH_ENTRIES)
    with support.SiteServer(site, tmp_path_factory.mktemp("served-french")) as running:
        yield running, support.load_search_index(site)


@pytest.fixture(scope="module")
def arabic_server(fruitsite_bin, tmp_path_factory):
    site = build(fruitsite_bin, tmp_path_factory, "arabic", "language: ar\n", ARABIC_ENTRIES)
    with support.SiteServer(site, tmp_path_factory.mktemp("served-arabic")) as running:
        yield running, support.load_search_index(site)


def text_of(driver, element_id: str) -> str:
    return driver.execute_script(
        "return document.getElementById(arguments[0]).textContent.trim()", element_id
    )


def test_a_french_catalog_speaks_french(driver, french_server):
    server, index = french_server
    page = SearchPage(driver, index).open(server.url(""))
    assert driver.find_element("css selector", "html").get_attribute("lang") == "fr"
    assert page.status_text() == "4 fruits dans 3 catégories"
    assert driver.find_element("css selector", "label[for=search-q]").text == "Chercher un fruit"
    # French order: É with E, so Églantier comes before Zeste, not after it.
    assert page.visible_names() == ("Abricot", "Citron", "Églantier", "Zeste")
    page.wait_until_handling_input()
    # One of four: French takes "one" for 1 and "other" for 4 (the count is the catalog's).
    page.type_letter_by_letter("zes")
    page.wait_for_names(("Zeste",), "the search for zes")
    page.wait_for(lambda: page.status_text() == "1 sur 4 fruits", "the French result count")
    page.box.clear()
    page.type_letter_by_letter("xyz")
    page.wait_for(
        lambda: text_of(driver, "search-empty-text") == "Aucun fruit ne correspond à «\u202fxyz\u202f»",
        "the French no-match text",
    )


def test_an_arabic_catalog_speaks_arabic(driver, arabic_server):
    server, index = arabic_server
    page = SearchPage(driver, index).open(server.url(""))
    html = driver.find_element("css selector", "html")
    assert (html.get_attribute("lang"), html.get_attribute("dir")) == ("ar", "rtl")
    assert page.visible_names() == ("برتقال", "تفاح", "موز")
    page.wait_until_handling_input()
    page.type_letter_by_letter("موز")
    page.wait_for_names(("موز",), "the search for موز")
    # What the script should write, by the browser's plural rules and the build's digits.
    three, expected = driver.execute_script(
        """
        const strings = JSON.parse(document.getElementById('search-strings').textContent);
        const forms = strings.scriptResults;
        const form = forms[new Intl.PluralRules('ar').select(3)] ?? forms.other;
        const number = new Intl.NumberFormat('ar', { numberingSystem: strings.numberingSystem });
        return [
          number.format(3),
          form.replace('{shown}', number.format(1)).replace('{count}', number.format(3)),
        ];
        """
    )
    page.wait_for(lambda: page.status_text() == expected, f"the Arabic result count {expected!r}")
    # The build wrote the page's own count ("3 fruits in 3 categories") with the same digits.
    page.box.clear()
    page.wait_for(lambda: three in page.status_text(), f"the page's count written with {three!r}")
