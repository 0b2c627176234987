"""The search's facet selects (the default facet, vitamins): each value alone and combined with
the text and the category shows what `fruitsite search --facet` prints, the URL keeps the
choice, and a page of a paginated index searches the whole catalog."""

from selenium.webdriver.support.ui import Select

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
    assert FACET not in search_page.query_params()


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
