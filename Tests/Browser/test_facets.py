"""The search's facet selects (the default facet, vitamins): each value alone and combined with
the text and the category shows what `fruitsite search --facet` prints, the URL keeps the
choice, and a page of a paginated index searches the whole catalog; and the shared vectors'
facet cases, built into a site, give the same fruits in the browser and the CLI."""

import json
import subprocess
import unicodedata
from pathlib import Path
from urllib.parse import urlencode

import pytest
from selenium.webdriver.support.ui import Select

import browser_support as support
from search_page import SearchPage

FACET = "vitamins"


def facet_select(page: SearchPage) -> Select:
    return Select(page.driver.find_element("id", f"search-facet-{FACET}"))


def facet_values(page: SearchPage) -> list[str]:
    options = [o.get_attribute("value") for o in facet_select(page).options]
    assert options and options[0] == "", f"the first {FACET} option should be \"\" (any)"
    assert len(options) > 3, f"the sample's fruits have several {FACET}: {options}"
    return options[1:]


def test_each_value_alone_matches_the_cli(search_page, reference):
    for value in facet_values(search_page):
        facet_select(search_page).select_by_value(value)
        search_page.wait_for_names(
            reference("", None, ((FACET, value),)), f"{FACET} {value!r} alone"
        )
        search_page.wait_for_status_count()
        search_page.wait_for(
            lambda: search_page.query_params().get(FACET) == value,
            f"the URL to contain {FACET}={value}",
        )
    facet_select(search_page).select_by_value("")
    search_page.wait_for_names(reference(""), f"back to any {FACET}")
    search_page.wait_for(
        lambda: FACET not in search_page.query_params(), f"the URL to lose {FACET} once it settles"
    )


def test_a_value_with_text_and_category_matches_the_cli(search_page, reference, search_index):
    counts = {}
    for fruit in search_index["fruits"]:
        if "C" in fruit.get("facets", {}).get(FACET, []):
            counts[fruit["category"]] = counts.get(fruit["category"], 0) + 1
    category = max(sorted(counts), key=counts.get)
    search_page.choose_category(category)
    facet_select(search_page).select_by_value("C")
    facets = ((FACET, "C"),)
    search_page.wait_for_names(reference("", category, facets), f"C in {category!r}")

    def compare(prefix):
        search_page.wait_for_names(
            reference(prefix, category, facets), f"{prefix!r}, C, in {category!r}"
        )

    search_page.type_letter_by_letter("er", on_each=compare)
    search_page.wait_for_status_count()
    # Nothing matches: the empty state names the facet too.
    search_page.box.send_keys("zzz")
    search_page.wait_for_names((), "no match")
    text = search_page.driver.find_element("id", "search-empty-text").text
    assert f"with {FACET} C" in text, text
    search_page.driver.find_element("id", "search-clear").click()
    search_page.wait_for_names(reference(""), "after clearing")
    assert facet_select(search_page).first_selected_option.get_attribute("value") == ""


def test_a_value_in_the_url_is_shown_and_restored(driver, server, search_index, reference):
    page = SearchPage(driver, search_index)
    page.open(server.base_url + f"?{FACET}=K&q=b")
    assert facet_select(page).first_selected_option.get_attribute("value") == "K"
    page.wait_for_names(reference("b", None, ((FACET, "K"),)), f"opening ?{FACET}=K&q=b")
    page.wait_for_status_count()
    facet_select(page).select_by_value("C")
    page.wait_for_names(reference("b", None, ((FACET, "C"),)), "C chosen")
    driver.back()
    page.wait_for(
        lambda: facet_select(page).first_selected_option.get_attribute("value") == "K",
        "back to restore K",
    )
    page.wait_for_names(reference("b", None, ((FACET, "K"),)), "after back")


def test_a_later_page_of_the_index_searches_every_fruit(driver, paged_server, search_index, reference):
    page = SearchPage(driver, search_index)
    page.open(paged_server.url("page/2/") + f"?{FACET}=A")
    page.wait_for_names(reference("", None, ((FACET, "A"),)), f"page 2 with {FACET}=A")
    page.wait_for_status_count()


# MARK: - The shared vectors

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "Fixtures" / "search-vectors.json").read_text(
        encoding="utf-8"
    )
)
FACET_CASES = [case for case in VECTORS["filterCases"] if case.get("facets")]
VECTOR_FACETS = ["vitamins", "colour"]


def runnable(case) -> bool:
    """Whether the page can be set to the case: each value must be one a menu offers (a key
    the site has no facet of, or a value no fruit has, has no menu or option to choose)."""
    nfc = lambda text: unicodedata.normalize("NFC", text)  # noqa: E731
    offered = {
        (key, nfc(value))
        for entry in case["catalog"]
        for key, values in entry.get("facets", {}).items()
        for value in values
    }
    return all(
        not value or (key in VECTOR_FACETS and (key, nfc(value)) in offered)
        for key, value in case["facets"].items()
    )


@pytest.fixture(scope="module")
def vector_site(fruitsite_bin, tmp_path_factory):
    """The facet cases' catalog (they share one) as a site with both facets, served."""
    catalogs = {json.dumps(case["catalog"]) for case in FACET_CASES}
    assert len(catalogs) == 1, "the facet cases share one catalog"
    work = tmp_path_factory.mktemp("vectors")
    for entry in FACET_CASES[0]["catalog"]:
        lines = ["---", f"name: {json.dumps(entry['name'])}", f"category: {json.dumps(entry['category'])}"]
        for key, values in entry.get("facets", {}).items():
            lines.append(f"{key}: {json.dumps(values)}")
        (work / "Content").mkdir(exist_ok=True)
        (work / "Content" / f"{entry['slug']}.md").write_text(
            "\n".join(lines + ["---", "A fruit.", ""]), encoding="utf-8"
        )
    (work / "fruitsite.yml").write_text(f"facets: {json.dumps(VECTOR_FACETS)}\n", encoding="utf-8")
    result = subprocess.run(
        [str(fruitsite_bin), "build", "--quiet", "--templates", str(support.templates_dir()),
         "--cache-dir", str(work / "cache")],
        cwd=work, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    with support.SiteServer(work / "Output", work / "served") as server:
        yield work, server


@pytest.mark.parametrize("case", FACET_CASES, ids=[case["name"] for case in FACET_CASES])
def test_vector_cases_give_the_same_fruits_in_the_browser_and_the_cli(
    driver, fruitsite_bin, vector_site, case
):
    if not runnable(case):
        pytest.skip("no menu offers this value; the CLI refuses it with a hint")
    work, server = vector_site
    command = [str(fruitsite_bin), "search"]
    if case["category"]:
        command += ["--category", case["category"]]
    for key, value in case["facets"].items():
        command += ["--facet", f"{key}={value}"]
    result = subprocess.run(
        command + ["--", case["text"]], cwd=work, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    printed = tuple(result.stdout.splitlines())
    assert printed == tuple(case["expected"]), "the CLI against the vector"
    index = support.load_search_index(work / "Output")
    page = SearchPage(driver, index)
    params = {"q": case["text"], "category": case["category"] or "", **case["facets"]}
    page.open(server.url("") + "?" + urlencode(params))
    page.wait_for_names(printed, case["name"])
