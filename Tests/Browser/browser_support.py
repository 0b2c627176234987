"""Shared pieces of the browser suite: locating the site, serving it, driving Chromium.

Used by conftest.py (the pytest fixtures) and by screenshots.py.
"""

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import threading
import unicodedata
from pathlib import Path
from urllib.parse import urlparse

REPO = Path(__file__).resolve().parents[2]

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

# The site is copied below this path of the local server, so every page is
# checked the way it works when published in a subfolder of a domain.
SUBPATH = "shop/fruits/"

# Selenium Manager must never try to download a browser or a driver: both are
# named explicitly below, and offline mode is a second guard.
os.environ.setdefault("SE_OFFLINE", "true")


# MARK: - Locations


def site_dir() -> Path:
    """The built site (Output folder) under test."""
    return Path(os.environ.get("FRUITSITE_SITE") or REPO / "Output").resolve()


def process_status(pid: int) -> dict[str, int]:
    """A process's thread count and resident memory in KiB (`Threads`, `VmRSS`), from /proc."""
    fields = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as file:
        for line in file:
            name, _, value = line.partition(":")
            if name in ("Threads", "VmRSS"):
                fields[name] = int(value.split()[0])
    return fields


def fruitsite_bin() -> Path:
    """The fruitsite executable whose `search` command is the reference filter."""
    if os.environ.get("FRUITSITE_BIN"):
        return Path(os.environ["FRUITSITE_BIN"]).resolve()
    release = REPO / ".build" / "release" / "fruitsite"
    debug = REPO / ".build" / "debug" / "fruitsite"
    return release if release.exists() or not debug.exists() else debug


def content_dir() -> Path:
    """The Content folder the site was built from."""
    return Path(os.environ.get("FRUITSITE_CONTENT") or REPO / "Content").resolve()


def templates_dir() -> Path:
    """The theme the site was built with."""
    return Path(os.environ.get("FRUITSITE_TEMPLATES") or REPO / "Templates").resolve()


def is_translation(name: str) -> bool:
    """Whether an entry's file name has a language's code before `.md`, as `apple.fr.md`
    has: no English entry of the sample has a dot in its slug."""
    return name.endswith(".md") and "." in name[:-3]


def copy_sample_in_one_language(work: Path) -> None:
    """Copies the sample's theme, and its English entries and their pictures without the
    French translations, into `work`, each folder that is not there yet: a site in one
    language, which builds with no config."""
    for name in ("Content", "Templates"):
        if not (work / name).exists():
            shutil.copytree(
                REPO / name, work / name,
                ignore=lambda _, names: [n for n in names if is_translation(n)],
            )


def html_pages(site: Path) -> list[str]:
    """Every generated HTML page, as paths relative to the site root, sorted."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


REFRESH = re.compile(r'<meta http-equiv="refresh" content="[^"]*">\n?')


def is_redirect(page: Path) -> bool:
    """Whether a built page leads at once to another (a folder page such as fruits/)."""
    return REFRESH.search(page.read_text(encoding="utf-8")) is not None


# MARK: - The reference search


@functools.lru_cache(maxsize=None)
def reference_search(
    text: str, category: str | None = None, facets: tuple[tuple[str, str], ...] = ()
) -> tuple[str, ...]:
    """Fruit names printed by `fruitsite search` for a text (and category, and facet values
    as (key, value) pairs), in order."""
    command = [str(fruitsite_bin()), "search", "--content", str(content_dir())]
    if category:
        command += ["--category", category]
    for key, value in facets:
        command += ["--facet", f"{key}={value}"]
    command += ["--", text]
    # From the site's root, so a fruitsite.yml beside Content/ applies as in `build`.
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=60, cwd=content_dir().parent
    )
    # A search with no match may exit 1 like grep, as long as it prints nothing.
    no_match = result.returncode == 1 and not result.stdout.strip()
    if result.returncode != 0 and not no_match:
        raise AssertionError(
            f"{' '.join(command)!r} exited {result.returncode}:\n{result.stderr}"
        )
    return tuple(line for line in result.stdout.splitlines() if line.strip())


def fold(text: str) -> str:
    """Case- and accent-insensitive form of a text, to compare highlighted words."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


# MARK: - Search index


def search_index_path(site: Path) -> Path | None:
    """The site's search index as its index page names it (`data-index`): the single
    search-index.<stamp>.json, or the sharded index's manifest, search/index.json."""
    page = site / "index.html"
    found = page.is_file() and re.search(r'data-index="([^"]+)"', page.read_text("utf-8"))
    path = site / found.group(1) if found else None
    return path if path and path.is_file() else None


def load_search_index(site: Path) -> dict:
    """The site's search index as the single index holds it: a sharded index's categories'
    names and its records files joined, in catalog order."""
    path = search_index_path(site)
    if path is None:
        raise FileNotFoundError(f"{site}'s index page names no search index that it has")
    index = json.loads(path.read_text(encoding="utf-8"))
    if index.get("version") != 5:
        return index
    fruits = []
    for number in range(-(-index["count"] // index["records"])):
        group = number // index["recordsGroup"]
        stamp = index["recordsFiles"][8 * group:8 * group + 8]
        records = path.parent / "records" / f"{number}.{stamp}.json"
        fruits += json.loads(records.read_text(encoding="utf-8"))
    return {"version": 5, "categories": [c["name"] for c in index["categories"]], "fruits": fruits}


def category_name_for_option(index: dict, value: str, label: str) -> str:
    """The category name `fruitsite search --category` expects for a <select> option."""
    for category in index.get("categories", []):
        if isinstance(category, str):
            if value == category:
                return category
        elif value in {category.get("slug"), category.get("name"), category.get("title")}:
            return category.get("name") or category.get("title") or category["slug"]
    return label.strip()


# MARK: - Local server


def configured_base_path(site: Path) -> str | None:
    """The URL path the site was built for: FRUITSITE_BASE_PATH, else the path of
    index.html's canonical link (present when the config sets baseURL), else None.

    Only 404.html depends on it. A server shows that page at any missing address, so
    with a base URL its links start from the base path and work at any depth; without
    one they are relative, right for missing addresses at the top level of the site.
    """
    if os.environ.get("FRUITSITE_BASE_PATH"):
        path = os.environ["FRUITSITE_BASE_PATH"]
    else:
        index = (site / "index.html").read_text(encoding="utf-8")
        canonical = re.search(
            r"<link\b(?=[^>]*\brel=[\"']?canonical\b)[^>]*\bhref=[\"']?([^\"' >]+)", index
        )
        if not canonical:
            return None
        path = urlparse(canonical.group(1)).path
    return "/" + path.strip("/") + "/" if path.strip("/") else "/"


class _SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files, and the site's 404.html for missing addresses below the site."""

    # A stalled connection must not keep a handler thread alive forever.
    timeout = 15
    site_prefix = "/"
    error_page: Path | None = None
    # The path of every request answered, in order (`SiteServer.requests`).
    requests: list[str] = []

    def log_message(self, format, *args):
        pass

    def log_request(self, code="-", size="-"):
        self.requests.append(self.path)

    def send_error(self, code, message=None, explain=None):
        page = self.error_page
        if code != 404 or page is None or not self.path.startswith(self.site_prefix):
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


# A file name stamped with its bytes' hash, as fruitsite names assets and search files.
STAMPED = re.compile(r"\.[a-z2-7]{8}(\.[^./]+)?$")

PUBLISH = REPO / "Deploy" / "publish.sh"


def publish(site: Path, destination: Path, *options: str) -> None:
    """Publishes a build over the one in `destination` with Deploy/publish.sh, in the order
    docs/how-to/deploy.md gives: the new files named by their bytes, then the others (the
    pages and the search's manifest), then the removal of what the site no longer has."""
    destination.mkdir(parents=True, exist_ok=True)
    command = [str(PUBLISH), *options, f"{site}/", f"{destination}/"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} exited {result.returncode}:\n{result.stderr}")


class SiteServer:
    """Serves a copy of a built site at http://127.0.0.1:<port>/<subpath> from a thread.

    Missing addresses below the subpath get the site's 404.html with status 404, as
    static hosts do. `requests` lists the path of every request answered.
    """

    def __init__(self, site: Path, work: Path, subpath: str = SUBPATH):
        subpath = subpath.strip("/") + "/" if subpath.strip("/") else ""
        self.root = work / "www"
        self.site_copy = self.root / subpath
        if self.site_copy.exists():
            shutil.rmtree(self.site_copy)
        shutil.copytree(site, self.site_copy)
        self.requests: list[str] = []
        handler_class = type(
            "SiteHandler",
            (_SiteHandler,),
            {
                "requests": self.requests,
                "site_prefix": "/" + subpath,
                "error_page": (self.site_copy / "404.html")
                if (self.site_copy / "404.html").is_file()
                else None,
            },
        )
        handler = functools.partial(handler_class, directory=str(self.root))
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/{subpath}"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True
        )

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=10)

    def url(self, relative: str = "") -> str:
        """Absolute URL of a path relative to the site root."""
        return self.base_url + relative

    def deploy(self, site: Path) -> None:
        """Publishes a new build of the site over the one served (see `publish`)."""
        publish(site, self.site_copy)

    def url_without_refresh(self, relative: str) -> str:
        """The URL of a copy of a page that leads elsewhere (`relative` ends in index.html),
        without its refresh, beside it so that its links resolve the same: what a browser
        that does not follow the refresh shows, for checks that need the page to stay."""
        page = self.site_copy / relative
        copy = page.with_name("without-refresh.html")
        copy.write_text(REFRESH.sub("", page.read_text(encoding="utf-8")), encoding="utf-8")
        return self.url(copy.relative_to(self.site_copy).as_posix())


# MARK: - Browser


def make_driver(width: int = 1280, height: int = 900):
    """A headless Chromium session that keeps the browser console log."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        "--lang=en-US",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-sync",
        "--hide-scrollbars",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(60)
    return driver


def set_color_scheme(driver, scheme: str) -> None:
    """Emulates prefers-color-scheme (light or dark) for the current tab."""
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}]},
    )


def wait_until_loaded(driver, timeout: float = 15) -> None:
    """Waits for the document to finish loading and for web fonts to settle."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout).until(
        lambda d: d.execute_script("return document.readyState") == "complete"
    )
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "(document.fonts ? document.fonts.ready : Promise.resolve()).then(() => done(true));"
    )
