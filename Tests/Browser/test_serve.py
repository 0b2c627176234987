"""`fruitsite serve` in a real browser: an open page shows an edit by itself (a page with
no script of its own in place, a page with scripts by reloading), swaps stylesheets without
reloading, follows a renamed fruit (even after missing the rename's update), and shows a bad
edit's errors until the file is fixed. The site is served under a base path, as a subpath host
would."""

import os
import re
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.support.ui import WebDriverWait

import browser_support as support

BASE_PATH = "/preview/"


class Served:
    """`fruitsite serve` on a copy of the sample in one language, on a free port."""

    def __init__(self, binary: Path, work: Path, port: int = 0):
        self.work = work
        support.copy_sample_in_one_language(work)
        self.process = subprocess.Popen(
            [str(binary), "serve", "--content", str(work / "Content"),
             "--templates", str(work / "Templates"), "--port", str(port),
             "--base-path", BASE_PATH],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=work,
        )
        line = self.process.stdout.readline()
        match = re.match(r"Serving at (http://127\.0\.0\.1:\d+/preview/)$", line.strip())
        if not match:
            self.process.kill()
            raise AssertionError(f"unexpected first line {line!r}: {self.process.stderr.read()}")
        self.url = match.group(1)
        # Keep reading standard error so the pipe never fills.
        self.log: list[str] = []
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.process.stderr:
            self.log.append(line)

    def write(self, relative: str, text: str) -> None:
        """Saves as editors do: a temporary file renamed over the old one."""
        path = self.work / relative
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)

    def read(self, relative: str) -> str:
        return (self.work / relative).read_text(encoding="utf-8")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def served(fruitsite_bin, tmp_path):
    running = Served(fruitsite_bin, tmp_path)
    yield running
    running.stop()
    assert running.process.returncode == 0, "".join(running.log)


def mark(driver) -> None:
    """Marks the loaded document: a reload makes a new one without the mark."""
    driver.execute_script("window.__unreloaded = true")


def is_marked(driver) -> bool:
    return driver.execute_script("return window.__unreloaded === true")


def wait(driver, condition, timeout: float = 15):
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(condition)


def text_of(driver, selector: str) -> str:
    """The element's text, read in one script call: a reload between finding an element and
    reading it cannot leave a stale reference."""
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.innerText : ''", selector)


def console_errors(driver) -> list[str]:
    return [
        entry["message"] for entry in driver.get_log("browser")
        if entry["level"] == "SEVERE"
    ]


def test_an_edit_shows_in_a_script_free_page_without_a_reload(served, driver):
    driver.get(served.url + "fruits/apple/")
    support.wait_until_loaded(driver)
    mark(driver)
    text = served.read("Content/apple.md")
    served.write("Content/apple.md", text.replace("\n---\n", "\n---\nA sentence typed just now.\n", 1))
    wait(driver, lambda d: "A sentence typed just now." in text_of(d, "main"))
    assert is_marked(driver), "the fruit page reloaded instead of refreshing in place"
    # A new name shows in the heading and in the head: the title and the description.
    served.write("Content/apple.md", served.read("Content/apple.md").replace(
        "name: Apple", "name: Crab Apple", 1))
    wait(driver, lambda d: text_of(d, "h1").strip().endswith("Crab Apple"))
    assert driver.title.startswith("Crab Apple")
    assert "Crab Apple" in driver.execute_script(
        "return document.querySelector('meta[name=description]').content")
    assert is_marked(driver)
    # One copy of each element of the head; the page's reload script still answers.
    assert driver.execute_script("return document.querySelectorAll('title').length") == 1
    css = served.read("Templates/assets/site.css")
    served.write("Templates/assets/site.css", css + "\nbody { outline: 5px solid rgb(1, 2, 3); }\n")
    wait(driver, lambda d: d.execute_script(
        "return getComputedStyle(document.body).outlineWidth") == "5px")
    assert console_errors(driver) == []


def test_a_language_written_right_to_left_turns_an_open_page(served, driver):
    """Every attribute of <html> follows the new page: `dir` with `lang`, and one the new
    page no longer has goes."""
    driver.get(served.url + "fruits/apple/")
    support.wait_until_loaded(driver)
    mark(driver)
    driver.execute_script("document.documentElement.setAttribute('data-stale', '')")
    served.write("fruitsite.yml", "title: Fruits\nlanguage: ar\n")
    wait(driver, lambda d: d.execute_script("return document.documentElement.lang") == "ar")
    assert is_marked(driver), "the fruit page reloaded instead of refreshing in place"
    assert driver.execute_script("return document.documentElement.dir") == "rtl"
    assert driver.execute_script(
        "return document.documentElement.hasAttribute('data-stale')") is False
    assert console_errors(driver) == []


def test_a_page_follows_a_server_started_again(fruitsite_bin, tmp_path, driver):
    """A server started again counts its versions anew: an open page still shows the next
    edit, as the events name the server that sends them."""
    first = Served(fruitsite_bin, tmp_path)
    for number in range(3):  # past the version the next server starts at
        text = first.read("Content/apple.md")
        first.write("Content/apple.md", text.replace("\n---\n", f"\n---\nEdit {number}.\n", 1))
    driver.get(first.url + "fruits/apple/")
    wait(driver, lambda d: "Edit 2." in text_of(d, "main"))
    port = int(re.search(r":(\d+)/", first.url).group(1))
    first.stop()
    second = Served(fruitsite_bin, tmp_path, port=port)
    try:
        second.write("Content/apple.md", second.read("Content/apple.md").replace(
            "Edit 2.", "Typed after the restart.", 1))
        wait(driver, lambda d: "Typed after the restart." in text_of(d, "main"))
    finally:
        second.stop()


def test_an_edit_reloads_a_page_with_scripts(served, driver):
    driver.get(served.url)
    support.wait_until_loaded(driver)
    mark(driver)
    text = served.read("Content/apple.md")
    served.write("Content/apple.md", text.replace("name: Apple", "name: Crab Apple", 1))
    wait(driver, lambda d: "Crab Apple" in text_of(d, "main"))
    assert not is_marked(driver), "the page with the search's scripts was not reloaded"
    assert console_errors(driver) == []


def test_a_deleted_fruit_shows_the_404_page(served, driver):
    driver.get(served.url + "fruits/apple/")
    support.wait_until_loaded(driver)
    os.remove(served.work / "Content/apple.md")
    wait(driver, lambda d: "not found" in d.title.lower())


def test_a_stylesheet_change_swaps_it_without_reloading(served, driver):
    driver.get(served.url + "fruits/apple/")
    support.wait_until_loaded(driver)
    mark(driver)
    css = served.read("Templates/assets/site.css")
    served.write("Templates/assets/site.css", css + "\nbody { outline: 7px solid rgb(1, 2, 3); }\n")
    wait(driver, lambda d: d.execute_script(
        "return getComputedStyle(document.body).outlineWidth") == "7px")
    assert is_marked(driver), "the page reloaded for a stylesheet change"


# Keeps the page's event source where a test can reach it.
KEEP_EVENT_SOURCE = """
const Original = window.EventSource;
window.EventSource = function (url) {
  window.__source = new Original(url);
  return window.__source;
};
"""


def test_a_page_that_missed_updates_shows_what_changed_since(served, driver):
    """A stream sends only the latest update, so a page asleep through a text edit and then a
    stylesheet edit is told of the second alone: it shows both."""
    added = driver.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument", {"source": KEEP_EVENT_SOURCE})
    try:
        driver.get(served.url + "fruits/apple/")
        support.wait_until_loaded(driver)
        mark(driver)
        driver.execute_script(
            "const s = window.__source; window.__deliver = s.onmessage; window.__held = [];"
            "s.onmessage = e => window.__held.push(e);")
        held = "return window.__held.map(e => JSON.parse(e.data))"
        text = served.read("Content/apple.md")
        served.write("Content/apple.md", text.replace("\n---\n", "\n---\nMissed words.\n", 1))
        wait(driver, lambda d: any(e["pages"] == e["version"] > 1 for e in d.execute_script(held)))
        css = served.read("Templates/assets/site.css")
        served.write("Templates/assets/site.css", css + "\nbody { outline: 9px solid red; }\n")
        wait(driver, lambda d: any(e["styles"] > e["pages"] > 1 for e in d.execute_script(held)))
        driver.execute_script("window.__deliver(window.__held.at(-1))")
        wait(driver, lambda d: "Missed words." in text_of(d, "main"))
        wait(driver, lambda d: d.execute_script(
            "return getComputedStyle(document.body).outlineWidth") == "9px")
        assert is_marked(driver), "the fruit page reloaded instead of refreshing in place"
    finally:
        driver.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})


def test_a_renamed_fruit_is_followed(served, driver):
    driver.get(served.url + "fruits/apple/")
    support.wait_until_loaded(driver)
    os.replace(served.work / "Content/apple.md", served.work / "Content/apple-tree.md")
    wait(driver, lambda d: d.current_url.endswith(BASE_PATH + "fruits/apple-tree/"))
    wait(driver, lambda d: text_of(d, "h1").strip().endswith("Apple"))


def test_a_page_that_missed_its_fruits_rename_follows_it(served, driver):
    """A page asleep through its fruit's rename, told only of a later edit, finds its fruit
    at the new address: the server redirects the old one."""
    added = driver.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument", {"source": KEEP_EVENT_SOURCE})
    try:
        driver.get(served.url + "fruits/apple/")
        support.wait_until_loaded(driver)
        driver.execute_script(
            "const s = window.__source; window.__deliver = s.onmessage; window.__held = [];"
            "s.onmessage = e => window.__held.push(e);")
        held = "return window.__held.map(e => JSON.parse(e.data))"
        os.replace(served.work / "Content/apple.md", served.work / "Content/apple-tree.md")
        wait(driver, lambda d: any("to" in e for e in d.execute_script(held)))
        text = served.read("Content/banana.md")
        served.write("Content/banana.md", text.replace("\n---\n", "\n---\nLater words.\n", 1))
        wait(driver, lambda d: "to" not in d.execute_script(held)[-1])
        driver.execute_script("window.__deliver(window.__held.at(-1))")
        wait(driver, lambda d: d.current_url.endswith(BASE_PATH + "fruits/apple-tree/"))
        wait(driver, lambda d: text_of(d, "h1").strip().endswith("Apple"))
    finally:
        driver.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})


def test_errors_show_in_the_page_until_fixed(served, driver):
    driver.get(served.url)
    support.wait_until_loaded(driver)
    good = served.read("Content/banana.md")
    served.write("Content/banana.md", "---\nname: [\n---\n")
    wait(driver, lambda d: "banana.md:3:1: error: invalid YAML" in text_of(d, "#fruitsite-errors"))
    served.write("Content/banana.md", good)
    wait(driver, lambda d: d.execute_script(
        "return document.readyState === 'complete' && !document.getElementById('fruitsite-errors')"))


def test_a_file_written_slowly_shows_no_errors(served):
    """A new file opened, then written half and the rest with pauses longer than a change's
    events take, is read empty and half written on the way: those errors wait for the file to
    keep still, and the update after its last write builds it, so none is printed or shown."""
    text = "---\nname: Zucchini\ncategory: Gourds\n---\nA summer squash.\n"
    with open(served.work / "Content/zucchini.md", "w", encoding="utf-8") as file:
        time.sleep(0.15)
        file.write(text[:20])
        file.flush()
        time.sleep(0.15)
        file.write(text[20:])

    def page() -> str:
        try:
            with urllib.request.urlopen(served.url + "fruits/zucchini/") as response:
                return response.read().decode()
        except OSError:
            return ""

    end = time.monotonic() + 15
    while "Zucchini" not in page() or sum("Built in" in line for line in served.log) < 2:
        assert time.monotonic() < end, "".join(served.log)
        time.sleep(0.05)
    assert not any("error" in line for line in served.log), "".join(served.log)
    assert "fruitsite-errors" not in page()
