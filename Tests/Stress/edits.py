#!/usr/bin/env python3
"""Random sequences of edits, each followed by a rebuild that must equal a clean build.

    python3 Tests/Stress/edits.py --bin .build/release/fruitsite --seed 1 --steps 60

One to three edits before each rebuild, of every kind an author makes: an entry's text, name,
emoji, vitamins, category, date or other key; a file added, deleted, renamed, moved into or
out of a sub-folder, made a draft or published; a template, a partial or an asset changed;
the config's title, page size, facets, search index, feeds or base URL changed. Most rebuilds
start at once, some after the time within which fruitsite does not trust a file's time stamp.
Now and then an entry or a template is broken first: that build must fail and leave the
output as it was, and the mended file is then built.

After each rebuild the output folder must hold, byte for byte, what a clean build of the same
sources writes (the marker aside). Exits non-zero at the first difference, naming the files
and the edits before it. The same seed makes the same edits.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks"))
import bench  # noqa: E402  (the catalog and its edits, shared with the benchmarks)

CONFIG_CHOICES = {
    "title": ["Stress", "Stress B", "Stress & Co"],
    "pageSize": ["0", "5", "7", "100"],
    "facets": ["[vitamins]", "[]", "[vitamins, origin]", "[origin]"],
    "search": ["{index: single}", "{index: sharded}"],
    "feed": ["{limit: 5}", "{limit: 0}", "{limit: 2}"],
    "baseURL": ["https://example.org/f/", '""'],
}


class Site:
    """A generated catalog, a copy of the theme and a config, in a folder of its own."""

    def __init__(self, folder, binary, count, seed, search):
        self.folder, self.binary = folder, binary
        self.rng = random.Random(seed)
        content = os.path.join(folder, "content")
        subprocess.run(
            [sys.executable, os.path.join(ROOT, "Benchmarks", "generate.py"),
             "--count", str(count), "--seed", str(seed), "--out", content],
            check=True, capture_output=True)
        shutil.copytree(os.path.join(ROOT, "Templates"), os.path.join(folder, "templates"))
        self.catalog = bench.Catalog(content, count, seed)
        self.catalog.serial = seed * 1_000_000
        self.config = {"title": "Stress", "pageSize": "7", "facets": "[vitamins]",
                       "search": search, "feed": "{limit: 5}",
                       "baseURL": "https://example.org/f/"}
        self.write_config()

    def path(self, *parts):
        return os.path.join(self.folder, *parts)

    def write_config(self):
        with open(self.path("site.yml"), "w", encoding="utf-8") as file:
            file.writelines(f"{key}: {value}\n" for key, value in self.config.items())

    def build(self, output, cache, clean=False):
        command = [self.binary, "build", "--quiet", "--content", self.path("content"),
                   "--templates", self.path("templates"), "--config", self.path("site.yml"),
                   "--output", self.path(output), "--cache-dir", self.path(cache)]
        return subprocess.run(command + (["--clean"] if clean else []),
                              capture_output=True, text=True)

    def files(self, output):
        """Every file of an output folder but the marker, by path."""
        found = {}
        root = self.path(output)
        for folder, _, names in os.walk(root):
            for name in names:
                path = os.path.join(folder, name)
                with open(path, "rb") as file:
                    found[os.path.relpath(path, root)] = file.read()
        found.pop(".fruitsite-output", None)
        return found

    # MARK: - Edits

    def edit(self):
        """Makes one random edit; returns what it did."""
        catalog, rng = self.catalog, self.rng
        slug = rng.choice(catalog.slugs())
        kind = rng.choice(["text", "name", "emoji", "vitamins", "category", "add", "delete",
                           "rename", "draft", "publish", "date", "origin", "template",
                           "partial", "asset", "config", "folder"])
        if kind == "rename" and slug.endswith("-renamed"):
            kind = "text"
        if kind in ("text", "name", "emoji", "vitamins", "category", "add", "delete", "rename"):
            return catalog.edit(kind, slug)
        text = catalog.read(slug)
        if kind == "draft":
            if catalog.value(text, "draft") is not None:
                return f"left {slug} a draft"
            catalog.write(slug, catalog.with_value(text, "draft", "true"))
            return f"made {slug} a draft"
        if kind == "publish":
            drafts = [s for s in catalog.slugs() if "\ndraft: true" in catalog.read(s)]
            if not drafts:
                return "found no draft to publish"
            catalog.write(drafts[0], catalog.read(drafts[0]).replace("\ndraft: true", ""))
            return f"published {drafts[0]}"
        if kind == "date":
            date = f"20{rng.randint(10, 25)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"
            catalog.write(slug, catalog.with_value(text, "date", date))
            return f"dated {slug} {date}"
        if kind == "origin":
            origin = rng.choice(["Spain", "Peru", "Japan", '"Côte d\'Ivoire"'])
            catalog.write(slug, catalog.with_value(text, "origin", origin))
            return f"gave {slug} the origin {origin}"
        if kind in ("template", "partial", "asset"):
            folder = self.path("templates", *{"template": [], "partial": ["partials"],
                                              "asset": ["assets"]}[kind])
            suffix = ".css" if kind == "asset" else ".mustache"
            name = rng.choice(sorted(n for n in os.listdir(folder) if n.endswith(suffix)))
            catalog.serial += 1
            with open(os.path.join(folder, name), "a", encoding="utf-8") as file:
                file.write(f"/* {catalog.serial} */\n" if kind == "asset"
                           else f"<!-- {catalog.serial} -->\n")
            return f"changed the {kind} {name}"
        if kind == "config":
            key = rng.choice(sorted(CONFIG_CHOICES))
            self.config[key] = rng.choice(CONFIG_CHOICES[key])
            self.write_config()
            return f"set {key}: {self.config[key]}"
        # A sub-folder: an entry moves in, or one moves back out.
        sub = self.path("content", "sub")
        os.makedirs(sub, exist_ok=True)
        inside = sorted(os.listdir(sub))
        if inside and rng.random() < 0.5:
            name = rng.choice(inside)
            os.rename(os.path.join(sub, name), self.path("content", name))
            return f"moved {name} out of sub/"
        os.rename(catalog.path(slug), os.path.join(sub, slug + ".md"))
        return f"moved {slug}.md into sub/"

    def break_one(self):
        """Breaks an entry's YAML or a partial's tags; returns the file and its old text."""
        if self.rng.random() < 0.5:
            path = self.catalog.path(self.rng.choice(self.catalog.slugs()))
            broken = lambda text: text.replace("name:", "name: [never closed", 1)
        else:
            path = self.path("templates", "partials", "fruit-card.mustache")
            broken = lambda text: text + "{{#never-closed}}\n"
        with open(path, encoding="utf-8") as file:
            text = file.read()
        with open(path, "w", encoding="utf-8") as file:
            file.write(broken(text))
        return path, text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build/release/fruitsite"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=60, help="rebuilds (default 60)")
    parser.add_argument("--count", type=int, default=300, help="entries (default 300)")
    parser.add_argument("--search", default="{index: single}",
                        help="the config's search setting to start with")
    arguments = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="fruitsite-edits-")
    try:
        site = Site(folder, os.path.abspath(arguments.bin), arguments.count, arguments.seed,
                    arguments.search)
        log = []

        def fail(message):
            print(f"seed {arguments.seed}: {message}", file=sys.stderr)
            print("the edits before it:", *log[-8:], sep="\n  ", file=sys.stderr)
            sys.exit(1)

        def compare(step):
            shutil.rmtree(site.path("clean"), ignore_errors=True)
            shutil.rmtree(site.path("clean-cache"), ignore_errors=True)
            clean = site.build("clean", "clean-cache", clean=True)
            if clean.returncode:
                fail(f"step {step}: the clean build failed: {clean.stderr.strip()}")
            rebuilt, expected = site.files("out"), site.files("clean")
            if rebuilt != expected:
                differ = sorted(p for p in rebuilt.keys() & expected.keys()
                                if rebuilt[p] != expected[p])
                fail(f"step {step}: the rebuild differs from a clean build: "
                     f"only in the rebuild {sorted(rebuilt.keys() - expected.keys())[:5]}, "
                     f"only in the clean build {sorted(expected.keys() - rebuilt.keys())[:5]}, "
                     f"different {len(differ)} {differ[:5]}")

        first = site.build("out", "cache")
        if first.returncode:
            fail(f"the first build failed: {first.stderr.strip()}")
        compare(0)
        for step in range(1, arguments.steps + 1):
            for _ in range(site.rng.choice([1, 1, 1, 2, 3])):
                log.append(f"{step}: {site.edit()}")
            if site.rng.random() < 0.15:
                time.sleep(2.1)
            if site.rng.random() < 0.12:
                before = site.files("out")
                path, text = site.break_one()
                broken = site.build("out", "cache")
                if broken.returncode == 0 or site.files("out") != before:
                    fail(f"step {step}: a build with {path} broken succeeded or changed the "
                         f"output (exit {broken.returncode})")
                with open(path, "w", encoding="utf-8") as file:
                    file.write(text)
                log.append(f"{step}: broke and mended {os.path.relpath(path, folder)}")
            rebuilt = site.build("out", "cache")
            if rebuilt.returncode:
                fail(f"step {step}: the rebuild failed: {rebuilt.stderr.strip()}")
            compare(step)
        print(f"seed {arguments.seed}: {arguments.steps} rebuilds, each equal to a clean build")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
