#!/usr/bin/env python3
"""The time per keystroke of the index page's search, in headless Chromium.

    python3 Benchmarks/search/keystrokes.py OUTPUT [--first h] [--word heritage] [--visits 3]

Serves OUTPUT, a site built by fruitsite (either index), and opens its index.html, the
browser's cache off, as a new visitor: once the search is ready (`#search-hint` shown), types
the first query and waits for its results, then the rest of the word a letter at a time, 100 ms
apart; then types it all again, every file it needs fetched. A script in the page sets the
field and dispatches its `input` event itself; a keystroke's time runs from that event to the
page's update of the results (a MutationObserver on `#search-results` and on the "no match"
text, which every search rewrites), and to the list laid out (the style and layout that the
next frame needs; not the paint). It counts the files each keystroke fetched (resource
timings), from a local server. Prints JSON (typing, below). Needs what Tests/Browser/setup.sh
installs.
"""

import argparse
import json
import sys

TYPE = r"""
const [first, typed, done] = arguments;
const $ = (id) => document.getElementById(id);
const input = $('search-q');
const results = $('search-results');
const text = $('search-empty-text');
performance.setResourceTimingBufferSize(100000);
const files = () => performance.getEntriesByType('resource').length;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// Sets the field to `value` as a keystroke would; resolves when the page has shown its search:
// the milliseconds to the list updated, then to it laid out, and the files fetched meanwhile.
const type = (value) => new Promise((resolve) => {
  const before = files();
  let start;
  const observer = new MutationObserver(() => {
    const ms = performance.now() - start;
    results.getBoundingClientRect(); // the style and layout that a frame would need
    const layout = performance.now() - start;
    observer.disconnect();
    resolve({ ms, layout, fetched: files() - before });
  });
  observer.observe(results, { childList: true });
  observer.observe(text, { childList: true, characterData: true, subtree: true });
  input.value = value;
  start = performance.now();
  input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText' }));
});
// The first query, then the rest of the word a letter at a time: each keystroke after it.
const word = async () => {
  await type(first);
  const keystrokes = { ms: [], layout: [], fetched: [] };
  for (let n = first.length + 1; n <= typed.length; n++) {
    await pause(100); // about the pace of typing
    const keystroke = await type(typed.slice(0, n));
    for (const key in keystrokes) keystrokes[key].push(keystroke[key]);
  }
  return keystrokes;
};
(async () => {
  const visitor = await word();
  await pause(100);
  done({ visitor, again: await word() }); // typed again: every file fetched
})().catch((error) => done({ error: String(error) }));
"""


def typing(output, first="h", word="heritage", visits=3):
    """Types `word` after its `first` letters on OUTPUT's index page, `visits` times, a new
    visitor each time, each typing it twice. Returns {word, first, visits, visitor, again}:
    for the first typing and the second, lists of each keystroke's milliseconds to the list
    updated (ms) and laid out (layout), and the first's files fetched (fetched)."""
    from selenium.webdriver.support.ui import WebDriverWait

    from chromium import browsing

    with browsing(output) as (server, driver):
        driver.set_script_timeout(600)
        measured = {"word": word, "first": first, "visits": visits,
                    "visitor": {"ms": [], "layout": [], "fetched": []},
                    "again": {"ms": [], "layout": [], "fetched": []}}
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        for _ in range(visits):
            driver.get(f"http://127.0.0.1:{server.server_address[1]}/index.html")
            # The hint shows once the index has loaded and the search listens.
            WebDriverWait(driver, 600, poll_frequency=0.1).until(lambda _: driver.execute_script(
                "return document.getElementById('search-hint').hidden === false"))
            result = driver.execute_async_script(TYPE, first, word)
            if "error" in result:
                raise RuntimeError(f"typing {word!r} in {output}: {result['error']}")
            for typed in ("visitor", "again"):
                for key, values in result[typed].items():
                    measured[typed][key] += values
    return measured


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", help="a site built by fruitsite")
    parser.add_argument("--first", default="h", help="the first query")
    parser.add_argument("--word", default="heritage", help="what the visitor goes on to type")
    parser.add_argument("--visits", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps(typing(args.output, args.first, args.word, args.visits)))


if __name__ == "__main__":
    sys.exit(main())
