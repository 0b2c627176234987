"""Page object for the search UI of index.html (the DOM contract the tests rely on)."""

import re
from urllib.parse import parse_qs, urlparse

from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

import browser_support as support

WAIT_SECONDS = 10

# The list the page shows: a search's results (#search-results) while a search is set, the
# page's own fruits (#fruit-list) otherwise.
_SHOWN_LIST = """
const results = document.getElementById('search-results');
const list = results && !results.hidden ? results : document.getElementById('fruit-list');
"""

_LIST_STATE = _SHOWN_LIST + """
return Array.from(list ? list.children : []).map(li => {
  const link = li.querySelector('a[href]');
  return {
    slug: li.dataset.slug || null,
    hidden: li.hidden,
    rendered: li.getClientRects().length > 0,
    link: link ? link.textContent : null,
    marks: Array.from(li.querySelectorAll('mark')).map(m => m.textContent),
  };
});
"""

# Which of the page's own list, its pager, the results and their "Show more" are rendered.
_LISTS_RENDERED = """
const rendered = (id) => {
  const element = document.getElementById(id);
  return Boolean(element && element.getClientRects().length);
};
const more = document.querySelector('#search-results + .search-more');
return {
  own: rendered('fruit-list'),
  pager: rendered('pagination'),
  results: rendered('search-results'),
  more: Boolean(more && more.getClientRects().length),
};
"""

# How many results a search shows at first, and how many each "Show more" adds.
RESULTS_STEP = 50


# True once the data-index URL has been fetched, two frames and a task later, by
# when the script has parsed the index and attached its event handlers.
_INDEX_FETCHED = """
const done = arguments[arguments.length - 1];
const form = document.getElementById('search-form');
if (!form || !form.dataset.index) return done(false);
const url = new URL(form.dataset.index, location.href).href;
const fetched = performance.getEntriesByType('resource')
  .some(entry => entry.name === url && entry.responseEnd > 0);
if (!fetched) return done(false);
requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => done(true), 0)));
"""


class SearchPage:
    """Reads and drives #search-form, #search-status and #fruit-list."""

    def __init__(self, driver, search_index: dict):
        self.driver = driver
        fruits = search_index.get("fruits", [])
        self.name_by_slug = {f["slug"]: f["name"] for f in fruits}
        self.total = len(fruits)

    # MARK: - Loading

    def open(self, url: str) -> "SearchPage":
        self.driver.get(url)
        self.wait_until_ready()
        return self

    def wait_until_ready(self) -> None:
        """Waits until the page has loaded, the status has a text and the script has
        fetched the search index (the contract names no explicit ready signal)."""
        support.wait_until_loaded(self.driver)
        self.wait_for(lambda: self.status_text() != "", "a text in #search-status")
        self.wait_for(
            lambda: self.driver.execute_async_script(_INDEX_FETCHED),
            "the page to fetch its search index (form data-index)",
        )

    def wait_until_handling_input(self) -> None:
        """Waits until the script handles input: it shows its hint once its handlers are set."""
        self.wait_for(
            lambda: self.driver.execute_script(
                "return !document.getElementById('search-hint').hidden"
            ),
            "the search to handle input (#search-hint shown)",
        )

    # MARK: - Elements

    @property
    def box(self):
        return self.driver.find_element(By.ID, "search-q")

    @property
    def select(self) -> Select:
        return Select(self.driver.find_element(By.ID, "search-category"))

    def status_text(self) -> str:
        return self.driver.find_element(By.ID, "search-status").text.strip()

    def category_options(self) -> list[tuple[str, str]]:
        """(value, label) of each option of the category select."""
        return [
            (o.get_attribute("value"), o.text) for o in self.select.options
        ]

    def query_params(self) -> dict[str, str]:
        query = parse_qs(urlparse(self.driver.current_url).query, keep_blank_values=True)
        return {key: values[-1] for key, values in query.items()}

    # MARK: - Results

    def list_state(self) -> list[dict]:
        """The items of the list shown: the results while searching, else the page's own."""
        return self.driver.execute_script(_LIST_STATE)

    def lists_rendered(self) -> dict[str, bool]:
        """Whether the page's own list (own), its pager, the results and "Show more" (more)
        are rendered."""
        return self.driver.execute_script(_LISTS_RENDERED)

    def is_searching(self) -> bool:
        """Whether the page shows a search's results (rather than its own fruits)."""
        return self.driver.execute_script(
            "const r = document.getElementById('search-results'); return Boolean(r && !r.hidden);"
        )

    def visible_names(self) -> tuple[str, ...]:
        """Names of the list items not hidden, in page order."""
        return tuple(
            self.name_by_slug.get(item["slug"], f"<unknown slug {item['slug']!r}>")
            for item in self.list_state()
            if not item["hidden"]
        )

    def describe(self) -> str:
        try:
            return self._describe()
        except WebDriverException as error:
            return f"  url: {self.driver.current_url}\n  (page not readable: {error.msg})"

    def _describe(self) -> str:
        return (
            f"  url: {self.driver.current_url}\n"
            f"  box: {self.box.get_attribute('value')!r}, "
            f"category: {self.select.first_selected_option.get_attribute('value')!r}\n"
            f"  status: {self.status_text()!r}\n"
            f"  visible: {list(self.visible_names())}"
        )

    # MARK: - Waiting

    def wait_for(self, condition, what: str, timeout: float = WAIT_SECONDS):
        """Waits for condition() to be truthy, failing with a description of the page."""
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(
                lambda _: condition()
            )
        except TimeoutException:
            raise AssertionError(
                f"timed out after {timeout}s waiting for {what}\n{self.describe()}"
            ) from None

    def wait_for_names(self, expected, context: str, shown: int = RESULTS_STEP) -> None:
        """Waits until the visible fruits are `expected`, in order (the CLI's answer): while
        searching, its first `shown`, as many as the results list before "Show more"."""
        everything = tuple(expected)

        def wanted() -> tuple[str, ...]:
            return everything[:shown] if self.is_searching() else everything

        try:
            self.wait_for(
                lambda: self.visible_names() == wanted(),
                f"the visible fruits to match `fruitsite search` ({context})",
            )
        except AssertionError as error:
            expected, visible = wanted(), self.visible_names()
            missing = [name for name in expected if name not in visible]
            extra = [name for name in visible if name not in expected]
            order = "" if missing or extra else "\n  same fruits, different order"
            raise AssertionError(
                f"{error}\n  expected ({len(expected)}): {list(expected)}"
                f"\n  missing: {missing}\n  extra: {extra}{order}"
            ) from None

    def wait_for_status_count(self, count: int | None = None) -> None:
        """Waits until the status text states the number of fruits found: `count`, or by
        default as many as are visible."""
        self.wait_for(
            lambda: status_matches(
                self.status_text(),
                len(self.visible_names()) if count is None else count,
                self.total,
            ),
            "#search-status to state the number of fruits found "
            f"(\"N of {self.total} fruits\", or a no-match message when N is 0)",
        )

    # MARK: - Actions

    def type_letter_by_letter(self, text: str, on_each=None) -> None:
        """Types one key at a time; on_each(prefix) runs after every key."""
        box = self.box
        typed = box.get_attribute("value")
        for character in text:
            box.send_keys(character)
            typed += character
            if on_each:
                on_each(typed)

    def choose_category(self, value: str) -> None:
        self.select.select_by_value(value)


def status_matches(status: str, visible: int, total: int) -> bool:
    """Whether a status like "12 of 48 fruits" (or "52 of 2,400 fruits", numbers grouped as
    the page's language groups them) reports `visible` of `total`."""
    if not status:
        return False
    numbers = [
        int(re.sub(r"\D", "", n)) for n in re.findall(r"\d+(?:[,.\u00a0\u202f]\d{3})*", status)
    ]
    if visible == 0:
        return 0 in numbers or bool(re.search(r"\bno\b|nothing|not found", status, re.I))
    return bool(numbers) and numbers[0] == visible and total in numbers
