"""axe-core finds no violation on any generated page, in light and in dark mode."""

import importlib.util
import os
from functools import lru_cache
from pathlib import Path

import pytest

import browser_support as support
from search_page import SearchPage


@lru_cache(maxsize=None)
def axe_source() -> str:
    """axe.min.js: AXE_SCRIPT if set, else the newest copy an installed package ships."""
    candidates = []
    if os.environ.get("AXE_SCRIPT"):
        candidates.append(Path(os.environ["AXE_SCRIPT"]))
    for module, relative in (
        ("selenium_axe_python", "axe-core/axe.min.js"),  # axe-core 4.x
        ("axe_selenium_python", "node_modules/axe-core/axe.min.js"),  # axe-core 3.1
    ):
        spec = importlib.util.find_spec(module)
        if spec and spec.origin:
            candidates.append(Path(spec.origin).parent / relative)
    for path in candidates:
        if path.is_file():
            return path.read_text(encoding="utf-8")
    pytest.fail(f"no axe.min.js found (looked at {[str(p) for p in candidates]})")


RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']})
  .then(results => done({version: axe.version, violations: results.violations}))
  .catch(error => done({error: String(error)}));
"""


def report(violations: list[dict]) -> str:
    lines = []
    for violation in violations:
        lines.append(
            f"- {violation['id']} ({violation.get('impact')}): {violation['help']}"
            f" [{violation.get('helpUrl', '')}]"
        )
        for node in violation["nodes"]:
            target = " ".join(str(t) for t in node["target"])
            summary = " ".join((node.get("failureSummary") or "").split())
            lines.append(f"    {target}\n      {node.get('html', '')[:160]}\n      {summary}")
    return "\n".join(lines)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_page_has_no_axe_violations(
    driver, site, server, error_page_server, missing_address, search_index, page_path, scheme
):
    support.set_color_scheme(driver, scheme)
    if support.is_redirect(site / page_path):
        # Else the page would be gone before axe ran: checked as it shows while it stays.
        driver.get(server.url_without_refresh(page_path))
        support.wait_until_loaded(driver)
    elif page_path == "index.html":
        SearchPage(driver, search_index).open(server.url(page_path))
    elif page_path == "404.html":
        # Where a server shows it: at a missing address below the site's base path.
        driver.get(error_page_server.url(missing_address))
        support.wait_until_loaded(driver)
    else:
        driver.get(server.url(page_path))
        support.wait_until_loaded(driver)
    assert driver.execute_script(
        f"return matchMedia('(prefers-color-scheme: {scheme})').matches"
    ), f"prefers-color-scheme: {scheme} emulation did not apply"
    check_with_axe(driver, f"{page_path} ({scheme})")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_search_results_have_no_axe_violations(driver, server, search_index, scheme):
    """The filtered index, with its <mark> highlights and count, in both schemes."""
    support.set_color_scheme(driver, scheme)
    # axe skips contrast checks on one-letter text, so the query is longer.
    query = search_index["fruits"][0]["name"][:3]
    page = SearchPage(driver, search_index).open(server.base_url)
    page.box.send_keys(query)
    page.wait_for(
        lambda: any(item["marks"] for item in page.list_state()),
        f"a <mark> highlight after typing {query!r}",
    )
    page.wait_for_status_count()
    check_with_axe(driver, f"index.html after typing {query!r} ({scheme})")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_match_state_has_no_axe_violations(driver, server, search_index, scheme):
    """The index when nothing matches, with whatever empty-state message it shows."""
    support.set_color_scheme(driver, scheme)
    page = SearchPage(driver, search_index).open(server.base_url)
    page.box.send_keys("zzz")
    page.wait_for_names((), "no fruit after typing 'zzz'")
    page.wait_for_status_count()
    check_with_axe(driver, f"index.html after typing 'zzz' ({scheme})")


EDGES = """
const parts = (color) => color.match(/[\\d.]+/g).slice(0, 3).map(Number);
return Array.from(document.querySelectorAll(arguments[0]), (element) => [
  parts(getComputedStyle(element).borderTopColor),
  parts(getComputedStyle(element).backgroundColor),
  parts(getComputedStyle(document.body).backgroundColor),
]);
"""


def contrast(one: list[float], other: list[float]) -> float:
    """The WCAG contrast ratio of two sRGB colours, each [r, g, b] from 0 to 255."""
    def luminance(rgb):
        linear = [c / 255 / 12.92 if c <= 10.31 else ((c / 255 + 0.055) / 1.055) ** 2.4
                  for c in rgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_card_and_button_edges_contrast_3_to_1(driver, site, server, scheme):
    """WCAG 1.4.11: a card's edge, which shows what its link answers to, and a page link's
    stand out at 3:1 from the card and from the page around it."""
    support.set_color_scheme(driver, scheme)
    first = lambda pattern: sorted(site.glob(pattern))[0].relative_to(site).as_posix()
    problems = []
    for page, selector in [
        ("", ".fruit-card"), ("", ".category-grid a"),
        (first("categories/*/index.html"), ".fruit-card"),
        (first("fruits/*/index.html"), ".pager-link"),
    ]:
        driver.get(server.url(page))
        support.wait_until_loaded(driver)
        edges = driver.execute_script(EDGES, selector)
        assert edges, f"{page or 'index'} has no {selector}"
        edge, card, body = edges[0]
        ratios = contrast(edge, card), contrast(edge, body)
        if min(ratios) < 3:
            problems.append(f"{page or 'index'} {selector}: {ratios[0]:.2f}:1 with the card, "
                            f"{ratios[1]:.2f}:1 with the page")
    assert not problems, f"edges under 3:1 ({scheme}):\n" + "\n".join(problems)


def check_with_axe(driver, where: str) -> None:
    driver.execute_script(axe_source())
    result = driver.execute_async_script(RUN_AXE)
    assert "error" not in result, f"axe.run failed on {where}: {result['error']}"
    violations = result["violations"]
    assert not violations, (
        f"axe-core {result['version']}: {len(violations)} violation(s) on {where}:\n"
        + report(violations)
    )
