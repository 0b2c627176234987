"""Runs the search benchmark (bench.html) in headless Chromium and prints its JSON result.

Serves the repository root on 127.0.0.1 for the length of the run. Needs what
Tests/Browser/setup.sh installs (chromium, chromium-driver, selenium).
Usage: python3 Benchmarks/search/chromium.py [COUNT]
"""

import contextlib
import functools
import http.server
import sys
import threading
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory, handler=QuietHandler):
    """An HTTP server of `directory` on 127.0.0.1, on a free port, in a thread of its own."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def headless_chromium():
    """The Chromium that Tests/Browser/setup.sh installs, headless, under WebDriver."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


@contextlib.contextmanager
def browsing(directory, handler=QuietHandler):
    """`serve(directory, handler)` and `headless_chromium()`, both closed when done."""
    server = serve(directory, handler)
    driver = headless_chromium()
    try:
        yield server, driver
    finally:
        driver.quit()
        server.shutdown()


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with browsing(ROOT) as (server, driver):
        port = server.server_address[1]
        driver.get(f"http://127.0.0.1:{port}/Benchmarks/search/bench.html?count={count}")
        result = driver.find_element(By.ID, "result")
        WebDriverWait(driver, 300).until(
            lambda _: result.get_attribute("data-state") in ("done", "error"))
        print(result.text)
        return 0 if result.get_attribute("data-state") == "done" else 1


if __name__ == "__main__":
    sys.exit(main())
