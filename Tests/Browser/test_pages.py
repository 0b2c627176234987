"""Every page loads cleanly under a subpath: no console errors, working links,
fruit pages titled with the fruit's name."""

import html.parser
import re
import urllib.error
import urllib.request
from functools import lru_cache
from urllib.parse import urldefrag, urljoin, urlparse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import browser_support as support
from search_page import SearchPage

# MARK: - Reading pages over HTTP


class LinkCollector(html.parser.HTMLParser):
    """Collects every URL a page refers to, the ids it defines and its h1 text."""

    URL_ATTRIBUTES = {"href", "src", "action", "poster", "data-index"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls: list[tuple[str, str]] = []  # (tag and attribute, url)
        self.ids: set[str] = set()
        self.h1_parts: list[str] = []
        self._h1_depth = 0

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name == "id":
                self.ids.add(value)
            elif name in self.URL_ATTRIBUTES:
                self.urls.append((f"<{tag} {name}>", value))
            elif name in {"srcset", "imagesrcset"}:
                for candidate in value.split(","):
                    if candidate.strip():
                        self.urls.append((f"<{tag} {name}>", candidate.split()[0]))
        if tag == "h1" or self._h1_depth:
            self._h1_depth += 1

    def handle_endtag(self, tag):
        if self._h1_depth:
            self._h1_depth -= 1

    def handle_data(self, data):
        if self._h1_depth:
            self.h1_parts.append(data)

    @property
    def h1(self) -> str:
        return " ".join("".join(self.h1_parts).split())


@lru_cache(maxsize=None)
def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@lru_cache(maxsize=None)
def parsed(url: str, expected_status: int = 200) -> LinkCollector:
    status, body = fetch(url)
    assert status == expected_status, f"{url} answered {status}, not {expected_status}"
    collector = LinkCollector()
    collector.feed(body.decode("utf-8"))
    return collector


def is_checked_link(url: str, server) -> bool:
    scheme = urlparse(url).scheme
    if scheme in {"mailto", "tel", "javascript", "data"}:
        return False
    if scheme in {"http", "https"} and urlparse(url).netloc != f"127.0.0.1:{server.port}":
        return False  # another host: not fetched
    return True


# MARK: - Links


def test_every_link_and_asset_resolves_under_the_subpath(
    site, server, error_page_server, missing_address
):
    """Pages are read from the subpath; 404.html as shown at a missing address a few
    folders deep, below the path the site was built for."""
    problems = []
    for page in support.html_pages(site):
        if page == "404.html":
            host, page_url = error_page_server, error_page_server.url(missing_address)
            document = parsed(page_url, expected_status=404)
        else:
            host, page_url = server, server.url(page)
            document = parsed(page_url)
        for where, raw in document.urls:
            if not raw.strip():
                problems.append(f"{page}: {where} is empty")
                continue
            target = urljoin(page_url, raw.strip())
            if not is_checked_link(target, host):
                continue
            address, fragment = urldefrag(target)
            if not address.startswith(host.base_url):
                problems.append(
                    f"{page}: {where}={raw!r} leaves the site folder ({address}); "
                    "links must be relative"
                )
                continue
            if address == urldefrag(page_url)[0]:  # a link within the page
                if fragment and fragment not in document.ids:
                    problems.append(f"{page}: {where}={raw!r}: no id={fragment!r} on the page")
                continue
            status, _ = fetch(address)
            if status != 200:
                problems.append(f"{page}: {where}={raw!r} -> {address} answered {status}")
            elif fragment and address.endswith((".html", "/")):
                if fragment not in parsed(address).ids:
                    problems.append(f"{page}: {where}={raw!r}: no id={fragment!r} on the target")
    assert not problems, "broken links:\n" + "\n".join(problems)


def test_search_index_urls_resolve(search_index, server):
    problems = []
    for fruit in search_index["fruits"]:
        target = urljoin(server.base_url, fruit["url"])
        status, _ = fetch(target)
        if not target.startswith(server.base_url) or status != 200:
            problems.append(f"{fruit['slug']}: url {fruit['url']!r} -> {target} answered {status}")
    assert not problems, "search-index.json urls that do not resolve:\n" + "\n".join(problems)


def test_every_fruit_page_has_the_fruit_name_in_its_h1(search_index, server):
    problems = []
    for fruit in search_index["fruits"]:
        page = parsed(urljoin(server.base_url, fruit["url"]))
        if fruit["name"] not in page.h1:
            problems.append(f"{fruit['url']}: h1 {page.h1!r} lacks {fruit['name']!r}")
    assert not problems, "\n".join(problems)


def test_fruit_links_on_the_index_open_the_fruit(driver, server, search_index):
    fruits = search_index["fruits"]
    samples = {0, len(fruits) // 2, len(fruits) - 1}
    samples |= {i for i, f in enumerate(fruits) if not f["name"].isascii()}
    page = SearchPage(driver, search_index)
    for position in sorted(samples)[:6]:
        fruit = fruits[position]
        page.open(server.base_url)
        link = driver.find_element(
            By.CSS_SELECTOR, f'#fruit-list > li[data-slug="{fruit["slug"]}"] a[href]'
        )
        link.click()
        WebDriverWait(driver, 10).until(lambda d: "/fruits/" in d.current_url)
        support.wait_until_loaded(driver)
        assert driver.current_url.startswith(server.base_url), driver.current_url
        heading = driver.find_element(By.TAG_NAME, "h1").text
        assert fruit["name"] in heading, (
            f"{driver.current_url}: h1 {heading!r} does not contain {fruit['name']!r}"
        )


# MARK: - Console


def sample_pages(site) -> dict[str, str]:
    first = lambda pattern: next(
        (p.relative_to(site).as_posix() for p in sorted(site.glob(pattern))), None
    )
    return {
        "index": "",
        "fruit": first("fruits/*/index.html"),
        "category": first("categories/*/index.html"),
        "404": "404.html",
    }


IDLE = """
const done = arguments[arguments.length - 1];
const idle = window.requestIdleCallback || (f => setTimeout(f, 50));
requestAnimationFrame(() => idle(() => done(true), {timeout: 1000}));
"""


@pytest.mark.parametrize("kind", ["index", "fruit", "category", "404"])
def test_no_console_errors(
    driver, server, error_page_server, missing_address, site, search_index, kind
):
    relative = sample_pages(site)[kind]
    assert relative is not None, f"the site has no {kind} page"
    if kind == "index":
        url = server.base_url
        SearchPage(driver, search_index).open(url)
    else:
        # The 404 page is checked where a server shows it: at a missing address.
        url = error_page_server.url(missing_address) if kind == "404" else server.url(relative)
        driver.get(url)
        support.wait_until_loaded(driver)
    driver.execute_async_script(IDLE)
    errors = [
        entry
        for entry in driver.get_log("browser")
        if entry["level"] == "SEVERE"
        # The missing address itself answers 404, as it should.
        and not (kind == "404" and entry["message"].startswith(url + " "))
    ]
    if kind == "404":
        assert driver.find_elements(By.TAG_NAME, "h1"), f"{url} does not show the 404 page"
    assert not errors, f"console errors on {url}:\n" + "\n".join(
        f"  {e['level']} {e['source'] if 'source' in e else ''}: {e['message']}" for e in errors
    )


# MARK: - Stamped assets


STAMPED = re.compile(r"\.[a-z2-7]{8}\.[A-Za-z0-9]+$")


@pytest.mark.parametrize("kind", ["index", "fruit", "category", "404"])
def test_pages_load_assets_by_their_stamped_names_only(
    driver, site, search_index, missing_address, tmp_path, kind
):
    """Every asset a page loads, the search's modules that search.js imports too, is asked
    for by its stamped name: a host may cache it for good, and a page open across a deploy
    never mixes two builds. Served from an origin this browser has not cached."""
    base = support.configured_base_path(site)
    subpath = base if kind == "404" and base is not None else support.SUBPATH
    with support.SiteServer(site, tmp_path, subpath=subpath) as fresh:
        if kind == "index":
            SearchPage(driver, search_index).open(fresh.base_url)
        else:
            relative = missing_address if kind == "404" else sample_pages(site)[kind]
            driver.get(fresh.url(relative))
            support.wait_until_loaded(driver)
        driver.execute_async_script(IDLE)
        assets = [urlparse(path).path for path in fresh.requests if "/assets/" in path]
    assert assets, f"the {kind} page loaded no asset"
    unstamped = [path for path in assets if not STAMPED.search(path)]
    assert not unstamped, f"the {kind} page asked for unstamped names: {unstamped}"
    if kind == "index":
        names = {path.rsplit("/", 1)[-1].split(".")[0] for path in assets}
        assert {"search", "search-index", "fruit-filter", "site"} <= names, assets


# MARK: - Reflow


LONG_WORD = "Supercalifragilisticexpialidociousberry" * 3


@pytest.fixture(scope="module")
def long_word_server(fruitsite_bin, tmp_path_factory):
    """A site whose fruit and category names are each one word longer than a phone is wide."""
    from conftest import build_site

    work = tmp_path_factory.mktemp("long-words")
    content = work / "Content"
    content.mkdir()
    for slug, name, category in [
        ("long", LONG_WORD, "Berries"),
        ("plum", "Plum", "Stone" + LONG_WORD),
        ("kiwi", "Kiwi", "Berries"),
    ]:
        (content / f"{slug}.md").write_text(
            f"---\nname: {name}\ncategory: {category}\nvitamins: {LONG_WORD}\n---\n"
            f"{LONG_WORD}\n",
            encoding="utf-8",
        )
    config = work / "fruitsite.yml"
    config.write_text("title: Fruits\n", encoding="utf-8")
    site = build_site(fruitsite_bin, content, config, work)
    with support.SiteServer(site, work / "served") as running:
        yield running


def test_a_name_of_one_long_word_reflows_at_320_css_pixels(driver, long_word_server):
    """WCAG 1.4.10: at 320 CSS px nothing scrolls sideways, whatever a name's length."""
    pages = [
        "", "fruits/long/", "fruits/kiwi/", "fruits/plum/", "categories/berries/",
        f"categories/stone{LONG_WORD.lower()}/", f"vitamins/{LONG_WORD.lower()}/", "404.html",
    ]
    driver.set_window_size(320, 800)
    for page in pages:
        driver.get(long_word_server.url(page))
        support.wait_until_loaded(driver)
        widths = driver.execute_script(
            "const root = document.documentElement;"
            "return [root.scrollWidth, root.clientWidth];"
        )
        assert widths[0] <= widths[1], f"{page or 'index'}: {widths[0]} px wide in {widths[1]}"


# MARK: - Layout


FRUIT_LAYOUT = """
const box = (selector) => document.querySelector(selector).getBoundingClientRect();
const prose = document.querySelector('.fruit .prose');
const [text, aside, heading] = [box('.fruit .prose'), box('.fruit-aside'), box('.fruit h1')];
return {
  text: [text.left, text.right, text.top], aside: [aside.left, aside.top, aside.bottom],
  heading: heading.top, em: parseFloat(getComputedStyle(prose).fontSize),
};
"""


def test_a_fruit_page_sets_its_picture_and_facts_beside_the_text_on_a_wide_screen(
    driver, server, site
):
    """Beside the text, from the heading down, on a wide screen, the text a readable measure
    (about 45 em, some 75 characters, at most); below the heading on a phone."""
    driver.get(server.url(sample_pages(site)["fruit"]))
    support.wait_until_loaded(driver)
    wide = driver.execute_script(FRUIT_LAYOUT)
    assert wide["aside"][0] >= wide["text"][1], f"the aside is not beside the text: {wide}"
    assert wide["aside"][1] <= wide["text"][2], f"the aside starts below the text: {wide}"
    assert wide["text"][1] - wide["text"][0] <= 45 * wide["em"], f"the text is too wide: {wide}"
    driver.set_window_size(390, 844)
    narrow = driver.execute_script(FRUIT_LAYOUT)
    assert narrow["heading"] < narrow["aside"][1], f"the aside is above the heading: {narrow}"
    assert narrow["aside"][2] <= narrow["text"][2], f"the aside is not above the text: {narrow}"

