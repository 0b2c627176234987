"""Bidirectional text: a right-to-left name in a left-to-right catalog, a left-to-right name in
a right-to-left one (`language: he`), and a name or category that ends in U+202E RIGHT-TO-LEFT
OVERRIDE. The text that follows a name, in a listing, a search result or a heading, keeps its
place and its order, as the browser lays it out.

Listings and result cards are measured with the page's stylesheets off: the default theme's
flex layout happens to give the name and what follows it boxes of their own, and the markup
must isolate them under any theme's CSS. Each check is also made once with the isolation
taken out of the page (a <bdi> made a <span>, an FSI and PDI removed), where it must fail,
so that it cannot pass whatever the page does."""

import pytest

import browser_support as support
from conftest import build_site
from search_page import SearchPage
from test_accessibility import check_with_axe
from test_html_validity import describe, is_error, run_nu_checker

RLO = "\u202e"

# An LTR catalog (English) with Arabic names and categories, and hostile ones.
LTR_ENTRIES = {
    "lime": 'name: Lime\ncategory: حمضيات\nvitamins: [C]',
    "mishmish": 'name: مشمش\ncategory: Stone\nvitamins: [A]',
    "trick": 'name: "Trick\\u202E"\nemoji: "🍋\\u202E"\ncategory: "Pome\\u202E"\nvitamins: [C]',
    "pear": 'name: Pear\ncategory: "Pome\\u202E"\nvitamins: [B6]',
}

# An RTL catalog (Hebrew, for which the theme has no string table: its words stay English, so
# left-to-right text follows each name) with English and Arabic names and categories.
RTL_ENTRIES = {
    "lime": "name: Lime\ncategory: Citrus\nvitamins: [C]",
    "mishmish": "name: مشمش\ncategory: نواة\nvitamins: [A]",
}


def build(fruitsite_bin, tmp_path_factory, name: str, config: str, entries: dict):
    work = tmp_path_factory.mktemp(name)
    content = work / "Content"
    content.mkdir()
    for slug, front in entries.items():
        (content / f"{slug}.md").write_text(f"---\n{front}\n---\nText.\n", encoding="utf-8")
    (work / "fruitsite.yml").write_text(config, encoding="utf-8")
    return build_site(fruitsite_bin, content, work / "fruitsite.yml", work)


@pytest.fixture(scope="module")
def ltr_site(fruitsite_bin, tmp_path_factory):
    # One fruit a page: a category's second page has a title of the form "Pome, page 2".
    return build(fruitsite_bin, tmp_path_factory, "bidi-ltr", "pageSize: 1\n", LTR_ENTRIES)


@pytest.fixture(scope="module")
def rtl_site(fruitsite_bin, tmp_path_factory):
    return build(fruitsite_bin, tmp_path_factory, "bidi-rtl", "language: he\n", RTL_ENTRIES)


@pytest.fixture(scope="module")
def ltr_server(ltr_site, tmp_path_factory):
    with support.SiteServer(ltr_site, tmp_path_factory.mktemp("served-bidi-ltr")) as running:
        yield running


@pytest.fixture(scope="module")
def rtl_server(rtl_site, tmp_path_factory):
    with support.SiteServer(rtl_site, tmp_path_factory.mktemp("served-bidi-rtl")) as running:
        yield running


# MARK: - Measuring

# The boxes of an element's characters as laid out, blanks and zero-width controls left out:
# [left, right, character] in the text's logical order.
_CHARACTER_BOXES = """
const boxes = (element) => {
  const found = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode()); ) {
    for (let i = 0; i < node.data.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      if (box.width > 0 && node.data[i].trim()) found.push([box.left, box.right, node.data[i]]);
    }
  }
  return found;
};
"""

# Whether `second` comes wholly after `first` in the reading direction, and, if `inOrder`,
# its characters read in order (it is left-to-right text).
_FOLLOWS = _CHARACTER_BOXES + """
const [first, second, direction, inOrder] = arguments;
const [a, b] = [boxes(first), boxes(second)];
if (!a.length || !b.length) return null;
const after = direction === 'rtl'
  ? Math.min(...a.map((c) => c[0])) >= Math.max(...b.map((c) => c[1])) - 0.5
  : Math.max(...a.map((c) => c[1])) <= Math.min(...b.map((c) => c[0])) + 0.5;
return after && (!inOrder || b.every((c, i) => i === 0 || b[i - 1][0] < c[0]));
"""

# An element's characters sorted from left to right.
_VISUAL = _CHARACTER_BOXES + """
return boxes(arguments[0]).sort((x, y) => x[0] - y[0]).map((c) => c[2]).join('');
"""

_STYLESHEETS_OFF = "for (const sheet of document.styleSheets) sheet.disabled = true;"

# A <bdi> made a <span> with its class and children: the markup without its isolation.
_UNISOLATE = """
for (const bdi of arguments[0].querySelectorAll('bdi')) {
  const span = document.createElement('span');
  span.className = bdi.className;
  span.append(...bdi.childNodes);
  bdi.replaceWith(span);
}
"""


def follows(driver, container, first: str, second: str, direction: str, in_order=True):
    """Whether, in `container`, the element `second` (a selector) follows `first` in
    `direction` and, if `in_order`, reads in order: with the isolation as built, then
    without it."""
    def check():
        elements = [container.find_element("css selector", s) for s in (first, second)]
        return driver.execute_script(_FOLLOWS, *elements, direction, in_order)

    isolated = check()
    driver.execute_script(_UNISOLATE, container)
    return isolated, check()


def open_page(driver, url: str):
    driver.get(url)
    support.wait_until_loaded(driver)


def grid_link(driver, category: str):
    """The index's link to a category in its grid, by name."""
    return driver.execute_script(
        "return [...document.querySelectorAll('.category-grid a')]"
        ".find((a) => a.querySelector('.category-name').textContent === arguments[0])",
        category,
    )


# MARK: - A right-to-left name in a left-to-right catalog, and an override


def test_a_listings_count_stays_after_a_right_to_left_category(driver, ltr_server):
    # "حمضيات 1 fruit": unisolated, the number joins the Arabic run and shows before it.
    open_page(driver, ltr_server.base_url)
    driver.execute_script(_STYLESHEETS_OFF)
    link = grid_link(driver, "حمضيات")
    assert follows(driver, link, ".category-name", ".count", "ltr") == (True, False)


def test_a_result_cards_category_keeps_its_order_after_an_override(driver, ltr_server, ltr_site):
    # The client shows the emoji and the name from the index as written, each ending in
    # U+202E. Unisolated, the override reverses the category after it ("emoP").
    page = SearchPage(driver, support.load_search_index(ltr_site)).open(ltr_server.base_url)
    driver.execute_script(_STYLESHEETS_OFF)
    page.box.send_keys("trick")
    page.wait_for_names(("Trick" + RLO,), "typing 'trick'")
    card = driver.find_element("css selector", '#search-results li[data-slug="trick"]')
    assert follows(driver, card, ".card-name", ".card-meta", "ltr") == (True, False)


def test_a_title_keeps_its_order_after_a_category_with_an_override(driver, ltr_server):
    # "Pome" and U+202E, then ", page 2", in a plain-text heading that no element isolates:
    # the page title's FSI and PDI do.
    open_page(driver, ltr_server.url("categories/pome/page/2/"))
    heading = driver.find_element("css selector", "h1")
    shown = driver.execute_script(_VISUAL, heading)
    driver.execute_script(
        "arguments[0].textContent = arguments[0].textContent.replace(/[\\u2068\\u2069]/g, '')",
        heading,
    )
    unisolated = driver.execute_script(_VISUAL, heading)
    assert (shown, unisolated) == ("Pome,page2", "Pome2egap,")


# MARK: - A left-to-right name in a right-to-left catalog


def test_a_listings_count_stays_after_a_left_to_right_category(driver, rtl_server):
    # In a right-to-left page "Citrus 1 fruit" unisolated is one left-to-right run, the name
    # at its left, where a right-to-left reader ends. (The theme's English "1 fruit" itself
    # reads "fruit 1" there, isolated or not: only the name's place is checked.)
    open_page(driver, rtl_server.base_url)
    assert driver.execute_script("return document.documentElement.dir") == "rtl"
    driver.execute_script(_STYLESHEETS_OFF)
    link = grid_link(driver, "Citrus")
    assert follows(driver, link, ".category-name", ".count", "rtl", in_order=False) == (
        True, False)


@pytest.mark.parametrize("listing", ["page", "search"])
def test_a_cards_category_stays_after_a_left_to_right_name(driver, rtl_server, rtl_site, listing):
    # The index page's own list, and a search's result card.
    page = SearchPage(driver, support.load_search_index(rtl_site)).open(rtl_server.base_url)
    driver.execute_script(_STYLESHEETS_OFF)
    if listing == "search":
        page.box.send_keys("lime")
        page.wait_for_names(("Lime",), "typing 'lime'")
    card = driver.find_element(
        "css selector", f'#{"search-results" if listing == "search" else "fruit-list"} li'
        '[data-slug="lime"]')
    assert follows(driver, card, ".card-name", ".card-meta", "rtl") == (True, False)


# MARK: - Checkers


@pytest.mark.parametrize("which", ["ltr", "rtl"])
def test_bidi_pages_have_no_validation_errors(which, ltr_site, rtl_site):
    site = ltr_site if which == "ltr" else rtl_site
    errors = [describe(m, site) for m in run_nu_checker(site) if is_error(m)]
    assert not errors, f"{len(errors)} Nu checker error(s):\n" + "\n".join(errors)


@pytest.mark.parametrize(
    "which, path",
    [("ltr", ""), ("ltr", "fruits/trick/"), ("ltr", "categories/pome/page/2/"),
     ("rtl", ""), ("rtl", "fruits/lime/")],
)
def test_bidi_pages_have_no_axe_violations(driver, ltr_server, rtl_server, which, path):
    server = ltr_server if which == "ltr" else rtl_server
    open_page(driver, server.url(path))
    check_with_axe(driver, f"{which} {path or 'index.html'}")
