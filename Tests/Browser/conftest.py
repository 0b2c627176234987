"""Fixtures for the browser suite.

The site under test is FRUITSITE_SITE (default <repo>/Output) and the reference
search is FRUITSITE_BIN (default <repo>/.build/release/fruitsite). The site is
copied under a subfolder of a local server, so every test also proves that the
site works when published below a path, and one headless Chromium serves the
whole session.
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import browser_support as support
from search_page import SearchPage

# MARK: - Before anything runs


def pytest_sessionstart(session):
    site = support.site_dir()
    if not (site / "index.html").is_file():
        pytest.exit(
            f"no built site at {site} (no index.html): run `make site`, "
            "or point FRUITSITE_SITE at an Output folder",
            returncode=1,
        )
    programs = (support.CHROMIUM, support.CHROMEDRIVER)
    missing = [program for program in programs if not Path(program).is_file()]
    if missing:
        pytest.exit(f"missing {', '.join(missing)}: run Tests/Browser/setup.sh", returncode=1)


# MARK: - Test parameters that depend on the built site


def _site_or_none() -> Path | None:
    site = support.site_dir()
    return site if (site / "index.html").is_file() else None


def _search_texts(site: Path | None) -> list[str]:
    """Texts typed into the search box, compared with `fruitsite search`."""
    texts = ["a", "an", "Berr", "CITRUS", "zzz", " "]
    if site and support.search_index_path(site):
        names = [f["name"] for f in support.load_search_index(site).get("fruits", [])]
        accented = [c for name in names for c in name if c.isalpha() and not c.isascii()]
        if accented:
            texts.insert(4, accented[0].lower())
    return texts


def _text_id(text: str) -> str:
    return {" ": "space", "": "empty"}.get(text, text)


def pytest_generate_tests(metafunc):
    site = _site_or_none()
    if "search_text" in metafunc.fixturenames:
        texts = _search_texts(site)
        metafunc.parametrize("search_text", texts, ids=[_text_id(t) for t in texts])
    if "page_path" in metafunc.fixturenames:
        # Without a site, one case still runs and fails with the reason.
        pages = support.html_pages(site) if site else ["index.html"]
        metafunc.parametrize("page_path", pages)


# MARK: - Site, reference binary and server


@pytest.fixture(scope="session")
def site() -> Path:
    path = support.site_dir()
    if not (path / "index.html").is_file():
        pytest.fail(
            f"no built site at {path} (no index.html): run `make site`, "
            "or point FRUITSITE_SITE at an Output folder",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def search_index(site) -> dict:
    if not support.search_index_path(site):
        pytest.fail(f"{site} has no search index (search-index.json or search/index.json)",
                    pytrace=False)
    return support.load_search_index(site)


@pytest.fixture(scope="session")
def fruitsite_bin() -> Path:
    path = support.fruitsite_bin()
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(
            f"no fruitsite executable at {path}: build it or set FRUITSITE_BIN",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def reference(fruitsite_bin):
    """`reference(text, category=None)` runs `fruitsite search` and returns the names."""
    return support.reference_search


@pytest.fixture(scope="session")
def server(site, tmp_path_factory):
    with support.SiteServer(site, tmp_path_factory.mktemp("served")) as running:
        yield running


@pytest.fixture(scope="session")
def error_page_server(site, server, tmp_path_factory):
    """Where 404.html is checked: the subpath server when the site has no base URL
    (its links are relative), else a server at the base URL's path."""
    base = support.configured_base_path(site)
    if base is None or base == "/" + support.SUBPATH:
        yield server
        return
    work = tmp_path_factory.mktemp("served-at-base-path")
    with support.SiteServer(site, work, subpath=base) as running:
        yield running


@pytest.fixture(scope="session")
def missing_address(site) -> str:
    """An address the server answers with 404.html: a few folders deep when the site
    has a base URL, at the top level of the site otherwise (see configured_base_path)."""
    return "no-such-fruit" if support.configured_base_path(site) is None else "no/such/fruit/"


# MARK: - Browser


@pytest.fixture(scope="session")
def _session_driver():
    driver = support.make_driver()
    yield driver
    driver.quit()


@pytest.fixture
def driver(_session_driver):
    """The shared browser, reset to a light color scheme, a desktop size and an empty log."""
    d = _session_driver
    d.set_window_size(1280, 900)
    support.set_color_scheme(d, "light")
    d.get("about:blank")
    d.get_log("browser")  # drop what earlier tests logged
    yield d


@pytest.fixture
def search_page(driver, server, search_index) -> SearchPage:
    """The index page, loaded over HTTP with its search script ready."""
    page = SearchPage(driver, search_index)
    page.open(server.base_url)
    return page


# MARK: - A paginated build


PAGE_SIZE = 5


def config_with(work: Path, *settings: str) -> Path:
    """Writes `work/fruitsite.yml`: the config of the site under test, if it has one (the
    sample's lists its languages, which its content needs), with `settings`, such as
    `pageSize: 5`, in place of its own lines for those keys (each set on one line)."""
    own = support.content_dir().parent / "fruitsite.yml"
    keys = tuple(setting.split(":", 1)[0] + ":" for setting in settings)
    lines = own.read_text(encoding="utf-8").splitlines() if own.is_file() else []
    lines = [line for line in lines if not line.startswith(keys)]
    config = work / "fruitsite.yml"
    config.write_text("\n".join(lines + list(settings) + [""]), encoding="utf-8")
    return config


@pytest.fixture(scope="session")
def paged_site(fruitsite_bin, tmp_path_factory) -> Path:
    """The same content built with `pageSize: 5`: the index has pages, and so have the
    larger categories. The config is the site's own, if it has one, plus the page size."""
    work = tmp_path_factory.mktemp("paged")
    config = config_with(work, f"pageSize: {PAGE_SIZE}")
    return build_site(fruitsite_bin, support.content_dir(), config, work)


def build_site(fruitsite_bin, content: Path, config: Path, work: Path) -> Path:
    """Builds `content` with `config` and the repository's theme into `work/Output`."""
    output = work / "Output"
    command = [
        str(fruitsite_bin), "build", "--quiet",
        "--content", str(content),
        "--templates", str(support.templates_dir()),
        "--config", str(config),
        "--output", str(output),
        "--cache-dir", str(work / "cache"),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        pytest.fail(f"{' '.join(command)} exited {result.returncode}:\n{result.stderr}")
    return output


@pytest.fixture(scope="session")
def paged_server(paged_site, tmp_path_factory):
    with support.SiteServer(paged_site, tmp_path_factory.mktemp("served-paged")) as running:
        yield running


# MARK: - A build with dates and a base URL


@pytest.fixture(scope="session")
def dated_site(fruitsite_bin, tmp_path_factory) -> Path:
    """The same content with a `date` on every third fruit and its translations, built with a
    base URL and the site's own config: the site has feeds, its pages link them, and fruit
    pages show their dates."""
    work = tmp_path_factory.mktemp("dated")
    content = work / "Content"
    shutil.copytree(support.content_dir(), content)
    entries = sorted(p for p in content.rglob("*.md") if not support.is_translation(p.name))
    for number, entry in enumerate(entries):
        if number % 3 == 0:
            day = f"2024-{number % 12 + 1:02d}-{number % 28 + 1:02d}"
            for file in [entry, *entry.parent.glob(entry.stem + ".*.md")]:
                text = file.read_text(encoding="utf-8")
                file.write_text(text.replace("\ncategory:", f"\ndate: {day}\ncategory:", 1),
                                encoding="utf-8")
    config = config_with(work, "baseURL: https://example.org/fruits/")
    return build_site(fruitsite_bin, content, config, work)


@pytest.fixture(scope="session")
def dated_server(dated_site, tmp_path_factory):
    with support.SiteServer(dated_site, tmp_path_factory.mktemp("served-dated")) as running:
        yield running
