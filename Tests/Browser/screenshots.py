#!/usr/bin/env python3
"""Takes PNG screenshots of the built site: the index, a fruit page and a category
page, at phone (375x800) and desktop (1280x900) size, in light and dark mode.

Usage: python3 Tests/Browser/screenshots.py [OUTPUT_DIR] [--site OUTPUT] [--full-page]

The site is FRUITSITE_SITE or <repo>/Output, served from a local subfolder like
in the tests. Screenshots go to OUTPUT_DIR (default /tmp/fruitsite-shots).
"""

import argparse
import base64
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import browser_support as support  # noqa: E402

SIZES = {"phone": (375, 800, True), "desktop": (1280, 900, False)}
SCHEMES = ("light", "dark")


def pick_pages(site: Path) -> dict[str, str]:
    """Index, the first fruit page and the first category page, relative to the site."""
    pages = {"index": "index.html"}
    patterns = {"fruit": "fruits/*/index.html", "category": "categories/*/index.html"}
    for name, pattern in patterns.items():
        found = sorted(site.glob(pattern))
        if found:
            pages[name] = found[0].relative_to(site).as_posix()
    return pages


def settle(driver, page: str) -> None:
    """Waits for the page, and on the index for the search script's status text."""
    from selenium.webdriver.support.ui import WebDriverWait

    support.wait_until_loaded(driver)
    if page == "index":
        WebDriverWait(driver, 10).until(
            lambda d: d.execute_script(
                "const s = document.getElementById('search-status');"
                "return !s || s.textContent.trim() !== '';"
            )
        )


def capture(driver, path: Path, full_page: bool) -> None:
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": full_page}
    )
    path.write_bytes(base64.b64decode(shot["data"]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", default="/tmp/fruitsite-shots")
    parser.add_argument("--site", type=Path, default=support.site_dir())
    parser.add_argument("--full-page", action="store_true", help="capture the whole page")
    args = parser.parse_args()

    site = args.site.resolve()
    if not (site / "index.html").is_file():
        print(f"screenshots.py: no built site at {site}", file=sys.stderr)
        return 1
    output = Path(args.output)
    output.mkdir(parents=True, exist_ok=True)
    pages = pick_pages(site)

    written = []
    with tempfile.TemporaryDirectory() as work, support.SiteServer(site, Path(work)) as server:
        driver = support.make_driver()
        try:
            for size, (width, height, mobile) in SIZES.items():
                driver.execute_cdp_cmd(
                    "Emulation.setDeviceMetricsOverride",
                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
                )
                for scheme in SCHEMES:
                    support.set_color_scheme(driver, scheme)
                    for name, relative in pages.items():
                        driver.get(server.url(relative))
                        settle(driver, name)
                        path = output / f"{name}-{size}-{scheme}.png"
                        capture(driver, path, args.full_page)
                        written.append(path)
        finally:
            driver.quit()
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
