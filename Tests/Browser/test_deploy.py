"""A page open while its site is built again and deployed: its next search gives exactly what
`fruitsite search` gives for the new content, whether the new build has another number of gram
files or the same files with the records shifted (docs/how-to/deploy.md)."""

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import browser_support as support
from conftest import build_site
from search_page import SearchPage
from test_sharded import search


def generate(work: Path, count: int) -> None:
    shutil.rmtree(work / "Content", ignore_errors=True)
    subprocess.run(
        [sys.executable, str(support.REPO / "Benchmarks" / "generate.py"),
         "--count", str(count), "--seed", "11", "--out", str(work / "Content")],
        check=True, capture_output=True, timeout=120,
    )


def manifest(site: Path) -> dict:
    return json.loads((site / "search" / "index.json").read_text(encoding="utf-8"))


def more_fruits(work: Path) -> None:
    generate(work, 2400)


def one_fruit_first(work: Path) -> None:
    # First in catalog order: every records file after it holds other fruits.
    (work / "Content" / "aaa-red-apple.md").write_text(
        "---\nname: Aaa Red Apple\ncategory: Pome Fruits\n---\n", encoding="utf-8"
    )


@pytest.mark.parametrize(
    "change, same_buckets", [(more_fruits, False), (one_fruit_first, True)],
    ids=["more gram buckets", "records shifted"],
)
def test_a_search_after_a_deploy_answers_for_the_new_build(
    driver, fruitsite_bin, tmp_path_factory, change, same_buckets
):
    work = tmp_path_factory.mktemp("deploy")
    config = work / "fruitsite.yml"
    config.write_text("search:\n  index: sharded\n", encoding="utf-8")
    generate(work, 1200)
    site = build_site(fruitsite_bin, work / "Content", config, work)
    was = manifest(site)
    with support.SiteServer(site, work) as server:
        page = SearchPage(driver, support.load_search_index(site)).open(server.base_url + "?q=red")
        page.wait_for_names(search(fruitsite_bin, work, "red"), "before the deploy")
        driver.execute_script("window.sameTab = true")

        # Servers tell a changed file by its time to the second (Last-Modified, nginx's ETag).
        time.sleep(1.1)
        change(work)
        site = build_site(fruitsite_bin, work / "Content", config, work)
        now = manifest(site)
        assert (len(now["buckets"]) == len(was["buckets"])) == same_buckets
        assert now["recordsFiles"] != was["recordsFiles"]
        server.deploy(site)

        page = SearchPage(driver, support.load_search_index(site))
        for text in ["red", "an"]:
            page.box.clear()
            page.box.send_keys(text)
            expected = search(fruitsite_bin, work, text)
            page.wait_for_names(expected, f"{text!r} after the deploy")
            page.wait_for_status_count(len(expected))
        assert driver.execute_script("return window.sameTab === true"), "the page was reloaded"
