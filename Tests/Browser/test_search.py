"""The search UI of index.html filters exactly like `fruitsite search`, keeps its
state in the URL, and can be used from the keyboard alone."""

import re
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import browser_support as support
from search_page import SearchPage, status_matches

NO_MATCH = "zzz"


def category_with_most_fruits(page: SearchPage, search_index: dict) -> tuple[str, str]:
    """(option value, category name) of the category holding the most fruits."""
    counts = {}
    for fruit in search_index["fruits"]:
        counts[fruit["category"]] = counts.get(fruit["category"], 0) + 1
    choices = []
    for value, label in page.category_options()[1:]:
        name = support.category_name_for_option(search_index, value, label)
        choices.append((counts.get(name, 0), value, name))
    assert choices, "the category select has no option besides the first (all categories)"
    _, value, name = max(choices, key=lambda c: c[0])
    return value, name


def check_highlight(page: SearchPage, text: str) -> None:
    """Visible fruits whose name contains the text show it inside a <mark>."""
    query = support.fold(text.strip())
    if not query:
        return

    def highlighted() -> bool:
        for item in page.list_state():
            name = page.name_by_slug.get(item["slug"], "")
            if not item["hidden"] and query in support.fold(name):
                if not any(support.fold(mark) == query for mark in item["marks"]):
                    return False
        return True

    page.wait_for(highlighted, f"every visible name containing {text!r} to show it in a <mark>")


# MARK: - Filtering


def test_index_lists_every_fruit_before_searching(search_page, search_index):
    state = search_page.list_state()
    assert [item["slug"] for item in state] == [f["slug"] for f in search_index["fruits"]], (
        "#fruit-list items (data-slug) differ from search-index.json fruits (same order)"
    )
    assert all(not item["hidden"] and item["rendered"] for item in state), (
        f"some fruits are hidden before any search:\n{search_page.describe()}"
    )
    for item in state:
        name = search_page.name_by_slug[item["slug"]]
        assert item["link"] is not None and name in item["link"], (
            f"the link of {item['slug']!r} should include {name!r}, is {item['link']!r}"
        )
    search_page.wait_for_status_count()


def test_typing_narrows_like_the_cli(search_page, reference, search_text):
    def compare(prefix):
        search_page.wait_for_names(reference(prefix), f"after typing {prefix!r}")

    search_page.type_letter_by_letter(search_text, on_each=compare)
    search_page.wait_for_status_count()
    check_highlight(search_page, search_text)

    # The page's own list must really disappear, whatever the stylesheet says.
    rendered = search_page.lists_rendered()
    assert not rendered["own"] and rendered["results"], (
        f"while searching, the results should show in place of the page's list "
        f"(CSS overrides [hidden]?): {rendered}"
    )


def test_each_category_alone_matches_the_cli(search_page, reference, search_index):
    options = search_page.category_options()
    assert options and options[0][0] == "", (
        f"the first category option should have value \"\" (all), got {options[:1]}"
    )
    for value, label in options[1:]:
        name = support.category_name_for_option(search_index, value, label)
        search_page.choose_category(value)
        search_page.wait_for_names(reference("", name), f"category {name!r} alone")
        search_page.wait_for_status_count()
    search_page.choose_category("")
    search_page.wait_for_names(reference(""), "back to all categories")


def test_text_with_category_matches_the_cli(search_page, reference, search_index, search_text):
    text = search_text
    value, name = category_with_most_fruits(search_page, search_index)
    search_page.choose_category(value)
    search_page.wait_for_names(reference("", name), f"category {name!r} alone")

    def compare(prefix):
        search_page.wait_for_names(
            reference(prefix, name), f"after typing {prefix!r} in category {name!r}"
        )

    search_page.type_letter_by_letter(text, on_each=compare)
    search_page.wait_for_status_count()


def test_no_match_shows_an_empty_state(search_page, reference):
    assert reference(NO_MATCH) == (), f"`fruitsite search {NO_MATCH}` should find nothing"
    search_page.box.send_keys(NO_MATCH)
    search_page.wait_for_names((), f"typing {NO_MATCH!r}")
    search_page.wait_for_status_count()
    status = search_page.driver.find_element("id", "search-status")
    assert status.is_displayed(), "the no-match status is not visible"
    assert status.get_attribute("role") == "status"
    assert status.get_attribute("aria-live") == "polite"


def test_live_count_follows_the_visible_items(search_page, reference):
    for text in ["", "a", "an", NO_MATCH]:
        search_page.box.clear()
        search_page.box.send_keys(Keys.SPACE, Keys.BACKSPACE)  # fire input events
        if text:
            search_page.box.send_keys(text)
        search_page.wait_for_names(reference(text), f"after typing {text!r}")
        visible = len(search_page.visible_names())
        search_page.wait_for(
            lambda: status_matches(search_page.status_text(), visible, search_page.total),
            f"the status to say {visible} of {search_page.total} for {text!r}",
        )


def test_the_status_says_searching_until_typing_settles(search_page, reference):
    """Until the count is announced, the status names no count that belongs to another text."""
    search_page.wait_until_handling_input()
    search_page.box.send_keys("an")
    assert search_page.status_text() == "Searching…"
    search_page.wait_for_names(reference("an"), "typing 'an'")
    search_page.wait_for_status_count()


# MARK: - URL state


def test_url_keeps_the_search_and_reload_restores_it(search_page, reference, search_index):
    value, name = category_with_most_fruits(search_page, search_index)

    search_page.box.send_keys("an")
    search_page.wait_for(
        lambda: search_page.query_params().get("q") == "an", "the URL to contain q=an"
    )
    search_page.choose_category(value)
    search_page.wait_for(
        lambda: search_page.query_params().get("category") == value
        and search_page.query_params().get("q") == "an",
        f"the URL to contain q=an and category={value}",
    )
    expected = reference("an", name)
    search_page.wait_for_names(expected, f"'an' in category {name!r}")

    search_page.driver.refresh()
    search_page.wait_until_ready()
    search_page.wait_for(
        lambda: search_page.box.get_attribute("value") == "an",
        "reload to put 'an' back in the search box",
    )
    assert search_page.select.first_selected_option.get_attribute("value") == value, (
        f"reload did not restore the category select\n{search_page.describe()}"
    )
    search_page.wait_for_names(expected, "after reload")
    search_page.wait_for_status_count()


def test_url_opened_directly_shows_its_search(driver, server, search_index, reference):
    page = SearchPage(driver, search_index)
    page.open(server.base_url + "?q=Berr")
    assert page.box.get_attribute("value") == "Berr"
    page.wait_for_names(reference("Berr"), "opening ?q=Berr")
    page.wait_for_status_count()


def test_an_opened_search_says_searching_while_the_index_loads(
    driver, server, search_index, reference
):
    """A shared address's search shows no count of the page's own fruits while the index is
    on its way (held back here by 1.5 s of latency on every request)."""
    slow = {"offline": False, "latency": 1500, "downloadThroughput": -1, "uploadThroughput": -1}
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})  # no earlier copy
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", slow)
    try:
        driver.get(server.base_url + "?q=Berr")
        status = driver.find_element(By.ID, "search-status").text.strip()
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {**slow, "latency": 0})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
        driver.execute_cdp_cmd("Network.disable", {})
    assert status == "Searching…", f"the status said {status!r} before the index loaded"
    page = SearchPage(driver, search_index)
    page.wait_until_ready()
    page.wait_for_names(reference("Berr"), "opening ?q=Berr")
    page.wait_for_status_count()


def test_an_address_with_a_value_the_site_lacks_says_so(driver, server, search_index, reference):
    """Values are exact: a shared address whose category the site does not have (here in the
    wrong case) shows the wider search, and the status says what was left out."""
    page = SearchPage(driver, search_index)
    category = search_index["categories"][0]
    page.open(server.base_url + "?q=Berr&category=" + category.lower().replace(" ", "+"))
    page.wait_for_names(reference("Berr"), "the search without the category")
    page.wait_for(
        lambda: f"the site has no category “{category.lower()}”" in page.status_text(),
        "the status to say the category was left out",
    )
    assert "category" not in page.query_params(), "the address still names the category"


def test_back_restores_the_previous_search(driver, server, search_index, reference):
    page = SearchPage(driver, search_index)
    driver.get(server.url("404.html"))  # a known page before the search page in history
    support.wait_until_loaded(driver)
    page_before = driver.current_url
    page.open(server.base_url)
    value, name = category_with_most_fruits(page, search_index)

    page.box.send_keys("an")
    page.wait_for(lambda: page.query_params().get("q") == "an", "the URL to contain q=an")
    page.choose_category(value)
    page.wait_for(
        lambda: page.query_params().get("category") == value,
        f"the URL to contain category={value}",
    )

    driver.back()
    page.wait_for(
        lambda: page.query_params().get("category", "") != value,
        f"Back to leave the state category={value}",
    )
    assert driver.current_url != page_before, (
        "Back left the search page: typing and choosing a category added no history entry"
    )
    page.wait_until_ready()
    # The page must show the state its URL describes.
    params = page.query_params()
    q, category = params.get("q", ""), params.get("category", "")
    page.wait_for(
        lambda: page.box.get_attribute("value") == q,
        f"Back to restore the search box to {q!r}",
    )
    page.wait_for(
        lambda: page.select.first_selected_option.get_attribute("value") == category,
        f"Back to restore the category select to {category!r}",
    )
    category_name = None
    if category:
        label = page.select.first_selected_option.text
        category_name = support.category_name_for_option(search_index, category, label)
    page.wait_for_names(reference(q, category_name), f"Back to ?q={q}&category={category}")
    page.wait_for_status_count()


# MARK: - Keyboard


# A card's link rings the whole card, which answers to it.
FOCUS_STYLE = """
const el = document.activeElement;
const ringed = el.closest('.fruit-card') ?? el;
const style = getComputedStyle(ringed);
return {
  element: ringed.tagName.toLowerCase() + (ringed.id ? '#' + ringed.id : ''),
  focusVisible: el.matches(':focus-visible'),
  outline: style.outlineStyle + ' ' + style.outlineWidth,
  outlineVisible: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
  boxShadow: style.boxShadow,
};
"""


def assert_focus_visible(driver) -> None:
    style = driver.execute_script(FOCUS_STYLE)
    assert style["focusVisible"], f"{style['element']} does not match :focus-visible"
    assert style["outlineVisible"] or style["boxShadow"] != "none", (
        f"focus on {style['element']} is invisible: outline {style['outline']}, "
        f"box-shadow {style['boxShadow']}"
    )


def active_element(driver) -> dict:
    return driver.execute_script(
        "const el = document.activeElement;"
        "return {tag: el.tagName.toLowerCase(), id: el.id,"
        " inList: !!el.closest('.fruit-list'), href: el.getAttribute('href')};"
    )


def test_arrowing_through_a_menu_adds_one_history_entry(search_page):
    """Each arrow key on a closed select changes it; the options passed share one history
    entry, so one Back leaves the menu's choice, and the count is announced for it alone."""
    driver = search_page.driver
    search_page.wait_until_handling_input()
    driver.execute_script("document.getElementById('search-category').focus()")
    for _ in range(3):
        ActionChains(driver).send_keys(Keys.ARROW_DOWN).perform()
    chosen = search_page.select.first_selected_option.get_attribute("value")
    assert chosen == search_page.category_options()[3][0], "three arrows did not move three options"
    search_page.wait_for(
        lambda: search_page.query_params().get("category") == chosen,
        f"the URL to name category={chosen}",
    )
    search_page.wait_for_status_count()
    driver.back()
    search_page.wait_for(
        lambda: "category" not in search_page.query_params(), "one Back to leave the category"
    )


def test_escape_clears_the_search(search_page, reference):
    driver = search_page.driver
    search_page.box.click()
    ActionChains(driver).send_keys("Berr").perform()
    search_page.wait_for_names(reference("Berr"), "typing 'Berr'")

    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    search_page.wait_for(
        lambda: search_page.box.get_attribute("value") == "", "Escape to empty the box"
    )
    search_page.wait_for(
        lambda: {**search_page.lists_rendered(), "pager": None}
        == {"own": True, "pager": None, "results": False, "more": False},
        "Escape to show the page's own list again, in place of the results",
    )
    search_page.wait_for_names(reference(""), "Escape to show every fruit again")
    assert all(not item["marks"] for item in search_page.list_state()), (
        "the page's own list has <mark> highlights after Escape"
    )
    search_page.wait_for_status_count()


def test_the_escape_hint_shows_while_the_box_has_text(search_page):
    shown = lambda: search_page.driver.execute_script(
        "return document.getElementById('search-hint').getClientRects().length > 0"
    )
    assert not shown(), "the hint shows with an empty box"
    search_page.box.send_keys("Be")
    search_page.wait_for(shown, "the hint to show once the box has text")
    search_page.box.send_keys(Keys.ESCAPE)
    search_page.wait_for(lambda: not shown(), "the hint to go once Escape clears the box")


def test_tab_reaches_the_select_and_the_results(search_page):
    driver = search_page.driver
    search_page.box.click()
    assert_focus_visible(driver)
    seen = []
    reached_select = reached_result = False
    for _ in range(60):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        element = active_element(driver)
        seen.append(element["tag"] + ("#" + element["id"] if element["id"] else ""))
        if element["id"] == "search-category":
            reached_select = True
            assert_focus_visible(driver)
        elif element["inList"] and element["tag"] == "a":
            reached_result = True
            assert reached_select, "Tab reached the results before the category select"
            assert_focus_visible(driver)
            break
    assert reached_select and reached_result, (
        f"Tab from the search box should reach #search-category, then a result link; "
        f"focus went through: {seen}"
    )


# MARK: - Opened as a file


def test_search_from_a_file_url_works_or_says_why(driver, server, search_index, reference):
    page = SearchPage(driver, search_index)
    driver.get((Path(server.site_copy) / "index.html").as_uri())
    support.wait_until_loaded(driver)
    page.wait_for(lambda: page.status_text() != "", "a status text on the file:// page")
    page.box.send_keys("an")
    expected = reference("an")
    everything = tuple(page.name_by_slug[i["slug"]] for i in page.list_state())
    plain_count = re.compile(r"^\s*\d+\s+of\s+\d+\b[^.]*\.?\s*$", re.I)

    def works() -> bool:
        return page.visible_names() == expected and status_matches(
            page.status_text(), len(expected), page.total
        )

    def explains() -> bool:
        status = page.status_text()
        return (
            bool(status)
            and not re.match(r"^\s*0 of", status)
            and not plain_count.match(status)
            and page.visible_names() == everything
        )

    page.wait_for(
        lambda: works() or explains(),
        "file:// search to either filter like the CLI or explain in #search-status "
        "why it cannot (keeping every fruit listed)",
    )
