"""Deploy/publish.sh, the rsync lines docs/how-to/deploy.md gives: the new files named by their
bytes arrive first, with every file of the build before still there; then the other files and
the removals, leaving exactly the new build; and a manifest rebuilt within the same second, at
the same size, is still sent."""

import hashlib
import os
import shutil
import subprocess
import time
from pathlib import Path

import browser_support as support
from conftest import build_site
from test_deploy import generate

# Runs rsync, then copies the destination to a new numbered folder of $SNAPSHOTS.
RECORDING_RSYNC = """#!/bin/sh
/usr/bin/rsync "$@" || exit $?
cp -a "$DESTINATION" "$SNAPSHOTS/$(ls "$SNAPSHOTS" | wc -l)"
"""


def contents(folder: Path) -> dict[str, str]:
    """Each file's path below `folder` and the hash of its bytes."""
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in folder.rglob("*") if path.is_file()}


def publish_recorded(site: Path, destination: Path, work: Path) -> list[dict[str, str]]:
    """Publishes with Deploy/publish.sh; returns what the destination held after each rsync."""
    bin_folder, snapshots = work / "bin", work / "snapshots"
    bin_folder.mkdir()
    snapshots.mkdir()
    (bin_folder / "rsync").write_text(RECORDING_RSYNC, encoding="utf-8")
    (bin_folder / "rsync").chmod(0o755)
    environment = dict(os.environ, PATH=f"{bin_folder}:{os.environ['PATH']}",
                       DESTINATION=str(destination), SNAPSHOTS=str(snapshots))
    subprocess.run([str(support.PUBLISH), f"{site}/", f"{destination}/"], env=environment,
                   check=True, capture_output=True, timeout=300)
    return [contents(snapshots / str(n)) for n in range(len(list(snapshots.iterdir())))]


def test_stamped_files_first_then_the_rest_then_the_removals(fruitsite_bin, tmp_path):
    config = tmp_path / "fruitsite.yml"
    config.write_text("search:\n  index: sharded\n", encoding="utf-8")
    generate(tmp_path, 300)
    before = contents(build_site(fruitsite_bin, tmp_path / "Content", config, tmp_path))
    destination = tmp_path / "www"
    support.publish(tmp_path / "Output", destination)
    assert contents(destination) == before

    # A fruit renamed (gram files, records and pages change), one deleted (its page goes) and
    # one added (a new page, which must wait for the second run).
    entries = sorted((tmp_path / "Content").glob("*.md"))
    (tmp_path / "Content" / "new-fruit.md").write_text(
        "---\nname: New Fruit\ncategory: Berries\n---\n", encoding="utf-8")
    renamed = entries[0].read_text(encoding="utf-8").replace("\nname: \"", "\nname: \"Zesty ", 1)
    entries[0].write_text(renamed, encoding="utf-8")
    entries[-1].unlink()
    site = build_site(fruitsite_bin, tmp_path / "Content", config, tmp_path)
    after = contents(site)
    stamped = {path: digest for path, digest in after.items() if support.STAMPED.search(path)}
    assert set(stamped) - set(before), "the edit must make new stamped files"
    assert set(before) - set(after), "the edit must remove files"
    assert "fruits/new-fruit/index.html" in set(after) - set(before)

    first, second = publish_recorded(site, destination, tmp_path)
    assert first == before | stamped, "the first run must only add the new stamped files"
    assert second == after


def test_a_manifest_rebuilt_within_the_same_second_is_sent(tmp_path):
    site, destination = tmp_path / "Output", tmp_path / "www"
    manifest = site / "search" / "index.json"
    manifest.parent.mkdir(parents=True)
    for _ in range(5):
        time.sleep(1 - time.time() % 1 + 0.01)  # the start of a second
        manifest.write_text('{"build":"aaaaaaaa"}', encoding="utf-8")
        support.publish(site, destination)
        manifest.write_text('{"build":"bbbbbbbb"}', encoding="utf-8")
        if int(time.time()) == int((destination / "search" / "index.json").stat().st_mtime):
            break
        shutil.rmtree(destination)  # a slow machine: the second went by; again
    support.publish(site, destination)
    assert (destination / "search" / "index.json").read_text(encoding="utf-8") == \
        '{"build":"bbbbbbbb"}'
