#!/usr/bin/env python3
"""fruitsite against Hugo on generated catalogs: wall time, CPU time and peak memory.

    python3 Benchmarks/bench.py --fruitsite .build/release/fruitsite [--sizes 1000 10000]

`Benchmarks/run.sh` installs what is missing and calls this. For each size N it generates one
catalog (Benchmarks/generate.py) into tmpfs, builds it with fruitsite and with two Hugo sites
that make the same pages, the twin of the default theme (Benchmarks/hugo) and the plain twin
(Benchmarks/hugo-plain, the plainest templates that do; --no-hugo-plain leaves it out), into
fresh output folders on tmpfs, one warm-up each and then alternating runs, then one run each
with the output on the real disk, and prints a table with fruitsite's ratio to each. At the
rebuild sizes it also edits entries in nine ways (text, name, emoji, vitamins, category, a file
added, deleted or renamed, the draft flag) and times the rebuild into the same output (Hugo:
the twin alone), each against a budget: a rebuild with nothing changed,
plus the clean build's time per output file for each file whose bytes changed (the folder
compared by content before and after, output_changes.py); then it checks that output against a
clean build; then it makes the nine edits again while each generator's live server runs
(`fruitsite serve`, `hugo server`), times each to the server's line that it rebuilt, against
the same budget, and checks what fruitsite's serves against a clean build. Last, at each search size, it builds the catalog with each kind of search
index and prints what a visitor's first query downloads, against Pagefind's on the same pages
(search/transfer.mjs, search/pagefind_transfer.py), and the time per keystroke in headless
Chromium (search/keystrokes.py). Every folder it makes is removed at the end.

Each run is timed twice: wall time with `time.perf_counter()` around the process (GNU time
prints only hundredths), CPU time and peak RSS by `/usr/bin/time`. A benchmark, not a test: it
exits non-zero only when a build fails.
"""

import argparse
import filecmp
import gzip
import http.client
import json
import os
import queue
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TARGET_TIME = 0.2  # fruitsite's time as a fraction of Hugo's: "five times faster"
TARGET_MEMORY = 0.5
# fruitsite's time as a fraction of the plain twin's (Benchmarks/hugo-plain: the same pages from
# the plainest templates that make them); no memory target against it.
TARGET_TIME_PLAIN = 0.25
# A rebuild after one edit, as a fraction of a clean build, by catalog size (no target at others).
TARGET_REBUILD = {10000: 0.05, 100000: 0.02}
# A rebuild with nothing changed, as a fraction of a clean build, by catalog size; and the
# output-sensitive budget of a rebuild after an edit: the no-op rebuild's time plus, for each
# output file whose bytes changed, the clean build's time per output file.
TARGET_NOOP = {10000: 0.02, 100000: 0.01}
NOOP_RUNS = 5
# Time per page at 1,000,000 entries against 10,000, and peak memory in MiB, by size: 250 MB
# and 1.5 GB, read as decimal units, the stricter reading.
TARGET_PER_PAGE = 1.2
TARGET_PEAK = {100000: 250e6 / 2**20, 1000000: 1.5e9 / 2**20}
TARGET_LARGEST_PAGE = 1 << 20  # bytes: no HTML page over 1 MB at any N, default pageSize
# The longest a file's time stamp goes untrusted after a build looked at it: 2 s on file systems
# that keep whole seconds (100 ms on those that keep finer times, such as tmpfs).
TRUST_WINDOW = 2.0

sys.path.insert(0, HERE)
import generate  # noqa: E402  (the catalog's vocabulary and entry format)
from output_changes import OutputFiles  # noqa: E402  (what a rebuild changed and wrote)


class BuildFailed(Exception):
    pass


# MARK: - Output


def log(message):
    """Progress, on standard error so the tables on standard output stay clean."""
    print(message, file=sys.stderr, flush=True)


def grouped(number):
    return f"{number:,}"


def duration(seconds):
    """Milliseconds under a second, seconds from one."""
    return f"{1000 * seconds:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def filesystem_of(path):
    """The file system type holding `path`, from /proc/mounts (longest matching mount point)."""
    path = os.path.realpath(path)
    best, kind = "", "?"
    try:
        with open("/proc/mounts", encoding="utf-8") as mounts:
            for line in mounts:
                fields = line.split()
                point = fields[1]
                if (path == point or path.startswith(point.rstrip("/") + "/")) and len(point) > len(best):
                    best, kind = point, fields[2]
    except OSError:
        pass
    return kind


# MARK: - Running builds


class Generator:
    """One static site generator: how to build a catalog into an output folder."""

    def __init__(self, name, make_command, cwd, make_serve_command=None):
        self.name = name
        self.make_command = make_command
        self.cwd = cwd
        self.last_output = ""
        # (catalog, port) -> the command of its live server, which rebuilds on every change.
        self.make_serve_command = make_serve_command

    def run(self, catalog, output):
        """Builds `catalog` into `output`; returns wall seconds, CPU seconds, peak RSS in MiB.
        What the build printed is kept in `last_output`."""
        with tempfile.NamedTemporaryFile("r", prefix="time-", suffix=".txt") as timing:
            command = ["/usr/bin/time", "-f", "%e %M %U %S", "-o", timing.name]
            command += self.make_command(catalog, output)
            start = time.perf_counter()
            result = subprocess.run(command, cwd=self.cwd, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE)
            wall = time.perf_counter() - start
            report = timing.read().split()
        if result.returncode != 0:
            raise BuildFailed(
                f"{self.name} failed (exit status {result.returncode}): {' '.join(command[5:])}\n"
                + result.stdout.decode(errors="replace")[-4000:]
                + result.stderr.decode(errors="replace")[-4000:])
        self.last_output = result.stdout.decode(errors="replace").strip()
        # GNU time: elapsed, max RSS (KiB), user, system.
        _, max_rss_kib, user, system = report[-4:]
        return wall, float(user) + float(system), int(max_rss_kib) / 1024


def html_pages(folder):
    """How many HTML pages `folder` holds, and the largest: (count, bytes, path below folder)."""
    count, largest = 0, (0, "")
    for parent, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".html"):
                count += 1
                path = os.path.join(parent, name)
                largest = max(largest, (os.path.getsize(path), os.path.relpath(path, folder)))
    return count, *largest


def file_count(folder):
    """How many files `folder` holds, at any depth (folders not counted)."""
    return sum(len(files) for _, _, files in os.walk(folder))


def file_paths(folder):
    """The paths of the files `folder` holds, at any depth, below it."""
    return {os.path.relpath(os.path.join(parent, name), folder)
            for parent, _, files in os.walk(folder) for name in files}


def fresh_output(parent, label):
    """A path that does not exist yet, for an output folder: `<new folder>/site`. fruitsite keeps
    its cache beside it, in `<new folder>/cache` (see `cache_of`)."""
    return tempfile.mkdtemp(prefix=f"{label.replace(' ', '-')}-", dir=parent) + "/site"


def cache_of(output):
    """fruitsite's cache folder for an output folder made by `fresh_output`."""
    return os.path.join(os.path.dirname(output), "cache")


def remove(path):
    shutil.rmtree(os.path.dirname(path) if path.endswith("/site") else path, ignore_errors=True)


# MARK: - Measurements


class Stats:
    def __init__(self):
        self.walls, self.cpus, self.memories = [], [], []

    def add(self, wall, cpu, memory):
        self.walls.append(wall)
        self.cpus.append(cpu)
        self.memories.append(memory)

    @property
    def wall(self):
        return statistics.median(self.walls)

    @property
    def cpu(self):
        return statistics.median(self.cpus)

    @property
    def memory(self):
        return statistics.median(self.memories)


def measure_size(count, runs, generators, work, disk_parent, seed, rebuild=None, outputs=None):
    """Benchmarks one catalog size; returns a dict of results for the summary. `rebuild`, when
    given, is {"pause": seconds, "hugo_budget": seconds}: also measure rebuilds after edits.
    `disk_parent` None skips the extra run on disk; `outputs` is where the timed runs write
    (default `work`, on tmpfs)."""
    outputs = outputs or work
    catalog = os.path.join(work, f"content-{count}")
    log(f"\n[{grouped(count)}] generating the catalog (seed {seed}) into {catalog}")
    start = time.perf_counter()
    subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--count", str(count),
                    "--seed", str(seed), "--out", catalog], check=True)
    log(f"[{grouped(count)}] generated in {time.perf_counter() - start:.1f} s")

    results = {name: Stats() for name in generators}
    pages = {}
    files = {}  # name: how many files its output holds, folders not counted
    largest = {}  # name: (bytes, path) of its largest HTML page
    paths = {}  # Hugo's and Hugo plain's: the paths of the files its output holds
    disk = {}

    def one(name, parent):
        output = fresh_output(parent, f"out-{name}")
        try:
            measured = generators[name].run(catalog, output)
            if name not in pages:
                pages[name], *largest[name] = html_pages(output)
                files[name] = file_count(output)
                if name in ("Hugo", "Hugo plain"):
                    paths[name] = file_paths(output)
            return measured
        finally:
            remove(output)

    for name in generators:
        wall, cpu, memory = one(name, outputs)
        log(f"[{grouped(count)}] {name} warm-up: {wall:.2f} s, {cpu:.2f} s CPU, {memory:.0f} MiB,"
            f" {grouped(pages[name])} HTML pages")
    for run in range(1, runs + 1):
        for name in generators:
            wall, cpu, memory = one(name, outputs)
            results[name].add(wall, cpu, memory)
            log(f"[{grouped(count)}] {name} run {run}/{runs}: {wall:.2f} s, {cpu:.2f} s CPU,"
                f" {memory:.0f} MiB")
    for name in generators if disk_parent else []:
        disk[name] = one(name, disk_parent)
        log(f"[{grouped(count)}] {name} on disk: {disk[name][0]:.2f} s")

    print_table(count, runs, results, pages, disk, disk_parent,
                "tmpfs" if outputs == work else filesystem_of(outputs) + " under " + outputs)
    print_largest_pages(largest)
    print_same_paths(paths)
    if rebuild:
        rebuilds = measure_rebuilds(count, generators, work, catalog, seed, rebuild["pause"],
                                    rebuild["hugo_budget"])
        print_rebuild_table(count, runs, results, rebuilds, rebuild["pause"])
        budget = Budget(count, results["fruitsite"].wall, files["fruitsite"])
        print_budget_table(budget, rebuilds, rebuild["pause"])
        live = measure_live(count, generators, work, catalog, seed, rebuild["hugo_budget"])
        print_live_table(count, results, live, budget)
    return {"results": results, "pages": pages, "disk": disk, "runs": runs}


# MARK: - Rebuilds: one edit, then a build into the same output

# (kind, label) in table order.
EDITS = [
    ("text", "body text"),
    ("name", "name"),
    ("emoji", "emoji"),
    ("vitamins", "vitamins"),
    ("category", "category"),
    ("add", "add a file"),
    ("delete", "delete a file"),
    ("rename", "rename a file"),
    ("draft", "draft flag"),
]
MODES = ("immediate", "paused")
ENTRIES_PER_EDIT = 3  # fruitsite's runs per edit kind and mode, each on another entry


class Catalog:
    """The generated catalog folder, edited with real file operations the way an author would:
    Python writes the file, os.rename renames it, os.remove deletes it."""

    def __init__(self, folder, count, seed):
        self.folder = folder
        self.count = count
        self.seed = seed
        self.serial = 0  # numbers the edits, so every edit writes something new
        self.last_change = 0.0  # time.time() of the last edit

    def path(self, slug):
        return os.path.join(self.folder, slug + ".md")

    def slugs(self):
        return sorted(name[:-3] for name in os.listdir(self.folder) if name.endswith(".md"))

    def read(self, slug):
        with open(self.path(slug), encoding="utf-8", newline="") as file:
            return file.read()

    def write(self, slug, text):
        with open(self.path(slug), "w", encoding="utf-8", newline="\n") as file:
            file.write(text)

    @staticmethod
    def value(text, key):
        """The raw value of a front-matter key (generate.py writes one `key: value` a line), or
        None when the entry has no such key."""
        for line in Catalog.front_matter(text)[0]:
            if line.startswith(key + ":"):
                return line[len(key) + 1:].strip()
        return None

    @staticmethod
    def front_matter(text):
        """(front-matter lines, every line, index of the closing `---`)."""
        lines = text.split("\n")
        if lines[0] != "---" or "---" not in lines[1:]:
            raise ValueError("an entry without front matter")
        closing = lines.index("---", 1)
        return lines[1:closing], lines, closing

    @staticmethod
    def with_value(text, key, value):
        """The entry with `key: value`, replacing the key's line or adding one at the end."""
        _, lines, closing = Catalog.front_matter(text)
        for index in range(1, closing):
            if lines[index].startswith(key + ":"):
                lines[index] = f"{key}: {value}"
                return "\n".join(lines)
        lines.insert(closing, f"{key}: {value}")
        return "\n".join(lines)

    def edit(self, kind, slug):
        """Makes one edit of `kind` to entry `slug` ("add" writes a new entry instead); returns
        what it did, for the log."""
        self.serial += 1
        text = self.read(slug) if kind not in ("add", "delete", "rename") else None
        if kind == "text":
            self.write(slug, text + f"\nRevised for the rebuild benchmark, edit {self.serial}.\n")
            done = f"appended a sentence to {slug}"
        elif kind == "name":
            # generate.py quotes names: `name: "Golden Mango"`. A far-away first word moves the
            # fruit across the catalog.
            name = self.value(text, "name")
            prefix = "Zesty " if name[1:2].upper() < "N" else "Ancient "
            self.write(slug, self.with_value(text, "name", '"' + prefix + name[1:]))
            done = f"renamed {slug} to {prefix}{name[1:-1]}"
        elif kind == "emoji":
            emoji = "🥝" if self.value(text, "emoji") != "🥝" else "🍒"
            self.write(slug, self.with_value(text, "emoji", emoji))
            done = f"gave {slug} the emoji {emoji}"
        elif kind == "vitamins":
            vitamins = "B12, D" if self.value(text, "vitamins") != "B12, D" else "[A, E]"
            self.write(slug, self.with_value(text, "vitamins", vitamins))
            done = f"gave {slug} the vitamins {vitamins}"
        elif kind == "category":
            names = [category for category, _, _ in generate.CATEGORIES]
            current = self.value(text, "category")
            index = next(i for i, name in enumerate(names) if generate.yaml_string(name) == current)
            category = names[(index + 1) % len(names)]
            self.write(slug, self.with_value(text, "category", generate.yaml_string(category)))
            done = f"moved {slug} to {category}"
        elif kind == "draft":
            if self.value(text, "draft") is not None:
                raise ValueError(f"{slug} already has a draft key")
            self.write(slug, self.with_value(text, "draft", "true"))
            done = f"made {slug} a draft"
        elif kind == "add":
            # A number past the catalog's makes a slug no entry has.
            picker = generate.Picker(self.seed * 1_000_003 + self.serial)
            new_slug, new_text = generate.make_entry(picker, self.count + self.serial)
            if os.path.exists(self.path(new_slug)):
                raise ValueError(f"{new_slug} exists already")
            self.write(new_slug, new_text)
            done = f"added {new_slug}"
        elif kind == "delete":
            os.remove(self.path(slug))
            done = f"deleted {slug}"
        elif kind == "rename":
            os.rename(self.path(slug), self.path(slug + "-renamed"))
            done = f"renamed {slug}.md to {slug}-renamed.md"
        else:
            raise ValueError(f"unknown edit {kind}")
        self.last_change = time.time()
        return done

    def settle(self, seconds):
        """Waits until the last edit is `seconds` old."""
        wait = self.last_change + seconds - time.time()
        if wait > 0:
            time.sleep(wait)


def spread_entries(slugs, groups, per_group):
    """`groups` lists of `per_group` distinct slugs; each list spread over the catalog (one in
    each of its `per_group` parts), and no slug in two lists."""
    count = len(slugs)
    return [[slugs[int((part + (group + 0.5) / groups) * count / per_group)]
             for part in range(per_group)] for group in range(groups)]


def compare_trees(rebuilt, clean):
    """Every path that differs between two folders, folders ending in `/`: in one only, or
    files whose bytes differ. Returns (differences, number of paths in `rebuilt`)."""

    def paths(root):
        found = {}
        for folder, folders, files in os.walk(root):
            relative = os.path.relpath(folder, root)
            prefix = "" if relative == "." else relative + "/"
            for name in folders:
                found[prefix + name + "/"] = None
            for name in files:
                found[prefix + name] = os.path.join(folder, name)
        return found

    ours, theirs = paths(rebuilt), paths(clean)
    differences = []
    for path in sorted(set(ours) | set(theirs)):
        if path not in theirs:
            differences.append(f"{path} (only in the rebuilt output)")
        elif path not in ours:
            differences.append(f"{path} (only in the clean build)")
        elif ours[path] is not None and not filecmp.cmp(ours[path], theirs[path], shallow=False):
            differences.append(f"{path} (different bytes)")
    return differences, len(ours)


def measure_rebuilds(count, generators, work, catalog_folder, seed, pause, hugo_budget):
    """Edits entries in each of the EDITS ways and times the build into the same output.

    fruitsite: for each edit and each mode, ENTRIES_PER_EDIT entries spread over the catalog.
    Each run starts from a steady state: once the previous edit is `pause` seconds old (so that
    no file's time stamp is too recent to trust), an untimed build; then the edit, then the
    timed build, either at once ("immediate") or `pause` seconds later ("paused"). After the
    last run, the output is compared with a clean build of the final catalog.

    Hugo: `hugo` keeps no state between builds, so one run per edit, immediate only, after one
    untimed build. It stops starting runs once its rebuilds at this size took `hugo_budget`
    seconds.

    Before the edits, NOOP_RUNS builds with nothing changed, from a steady state, are timed.
    Around every timed build the output folder is compared by content (`OutputFiles`): the
    files it changed, and those it wrote with the bytes they had.

    Returns {"fruitsite": {kind: {mode: [wall seconds]}}, "Hugo": {kind: [wall seconds]},
    "files": {kind: {mode: [(changed, rewritten, renamed)]}}, "noop": [(wall seconds, changed,
    rewritten, renamed)], "gaps": {mode: [seconds from edit to build]}, "check": (differences,
    paths), "hugo_budget": seconds}.
    """
    started = time.perf_counter()
    catalog = Catalog(catalog_folder, count, seed)
    entries = spread_entries(catalog.slugs(), len(EDITS) * (len(MODES) + 1), ENTRIES_PER_EDIT)
    label = f"[{grouped(count)}]"
    measured = {"fruitsite": {}, "Hugo": {}, "files": {}, "noop": [],
                "gaps": {mode: [] for mode in MODES}, "hugo_budget": hugo_budget}

    # Hugo first: its edits are part of the catalog fruitsite then starts from.
    hugo = generators.get("Hugo")
    if hugo and hugo_budget > 0:
        output = fresh_output(work, "rebuild-Hugo")
        spent = 0.0
        try:
            spent += hugo.run(catalog.folder, output)[0]
            log(f"{label} Hugo rebuilds: first build {spent:.2f} s")
            for number, (kind, _) in enumerate(EDITS):
                if spent >= hugo_budget:
                    log(f"{label} Hugo rebuild: {kind} not run, {spent:.0f} s spent of the"
                        f" {hugo_budget:.0f} s budget")
                    continue
                slug = entries[len(EDITS) * len(MODES) + number][ENTRIES_PER_EDIT // 2]
                done = catalog.edit(kind, slug)
                wall = hugo.run(catalog.folder, output)[0]
                spent += wall
                measured["Hugo"][kind] = [wall]
                log(f"{label} Hugo rebuild after it {done}: {wall:.2f} s")
        finally:
            remove(output)

    fruitsite = generators["fruitsite"]
    output = fresh_output(work, "rebuild-fruitsite")
    try:
        wall = fruitsite.run(catalog.folder, output)[0]
        log(f"{label} fruitsite rebuilds: first build {wall:.2f} s")
        files = OutputFiles(output)

        def timed(before):
            """A build into `output`, whose files were `before`: (wall seconds, files changed,
            rewritten, renamed; see `OutputFiles`). Looking at the files is left out of the
            time, and done before the edit, so as not to delay the build after it."""
            nonlocal files
            wall = fruitsite.run(catalog.folder, output)[0]
            files = before.again()
            same = files.rewritten_since(before) + files.renamed_since(before)
            if same:
                log(f"{label} written with bytes the folder had: {', '.join(same[:8])}"
                    + (f" and {len(same) - 8} more" if len(same) > 8 else ""))
            return (wall, *files.changes_since(before))

        catalog.settle(pause)
        fruitsite.run(catalog.folder, output)  # the steady state: every file's status trusted
        for _ in range(NOOP_RUNS):
            measured["noop"].append(timed(files.again()))
            wall, changed, rewritten, renamed = measured["noop"][-1]
            log(f"{label} fruitsite rebuild with nothing changed: {duration(wall)}, {changed}"
                f" files changed, {rewritten} rewritten, {renamed} renamed")
        for number, (kind, _) in enumerate(EDITS):
            runs = measured["fruitsite"][kind] = {mode: [] for mode in MODES}
            counts = measured["files"][kind] = {mode: [] for mode in MODES}
            for part in range(ENTRIES_PER_EDIT):
                for index, mode in enumerate(MODES):
                    slug = entries[number * len(MODES) + index][part]
                    catalog.settle(pause)
                    fruitsite.run(catalog.folder, output)  # the steady state
                    before = files.again()
                    done = catalog.edit(kind, slug)
                    if mode == "paused":
                        catalog.settle(pause)
                    measured["gaps"][mode].append(time.time() - catalog.last_change)
                    wall, *counted = timed(before)
                    runs[mode].append(wall)
                    counts[mode].append(tuple(counted))
                    said = fruitsite.last_output.replace(output, "the output")
                    log(f"{label} fruitsite {mode} rebuild after it {done}: {duration(wall)}"
                        f" ({said}; by content {counted[0]} changed, {counted[1]} rewritten,"
                        f" {counted[2]} renamed)")
        # The check: the output the last timed rebuild left against a clean build.
        clean = fresh_output(work, "rebuild-check")
        try:
            fruitsite.run(catalog.folder, clean)
            measured["check"] = compare_trees(output, clean)
        finally:
            remove(clean)
    finally:
        remove(output)
    log(f"{label} the rebuild measurements took {time.perf_counter() - started:.0f} s")
    return measured


# MARK: - Live rebuilds: one edit, then the running server's rebuild


class LiveServer:
    """A generator's live server (`fruitsite serve`, `hugo server`) run in the background, its
    output read line by line as it comes, each line with the time it arrived. When `ready` is
    given, it returns once a line matches it."""

    def __init__(self, command, cwd, ready=None):
        self.lines = queue.Queue()
        self.process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for stream in (self.process.stdout, self.process.stderr):
            threading.Thread(target=self._read, args=(stream,), daemon=True).start()
        if ready:
            self.wait_for(ready, timeout=3600)

    def _read(self, stream):
        for line in stream:
            self.lines.put((time.perf_counter(), line.decode(errors="replace").rstrip("\n")))
        self.lines.put((time.perf_counter(), None))

    def settle(self, quiet):
        """Waits until the server has printed nothing for `quiet` seconds, forgetting what it
        printed: a rebuild still running would otherwise be taken for the next edit's."""
        while True:
            try:
                _, line = self.lines.get(timeout=quiet)
            except queue.Empty:
                return
            if line is None:
                raise BuildFailed(f"the server stopped (exit status {self.process.wait()})")

    def wait_for(self, pattern, timeout=600):
        """The time and match of the first line from now on that matches `pattern`."""
        deadline = time.perf_counter() + timeout
        while True:
            try:
                at, line = self.lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            except queue.Empty:
                raise BuildFailed(f"no line matching {pattern!r} within {timeout:g} s") from None
            if line is None:
                raise BuildFailed(f"the server stopped (exit status {self.process.wait()})")
            match = re.search(pattern, line)
            if match:
                return at, match

    def peak_memory(self):
        """The most memory the server has held (VmHWM), in MiB."""
        with open(f"/proc/{self.process.pid}/status", encoding="utf-8") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# What each server prints when it is up, and when a rebuild is done (with its own time in ms).
LIVE_READY = {"fruitsite": r"^Serving at http://[^:]+:(\d+)/", "Hugo": r"Web Server is available"}
LIVE_BUILT = {"fruitsite": r"^Built in (\d+) ms(?:: (\d+) files? changed)?",
              "Hugo": r"^Total in (\d+) ms"}
LIVE_QUIET = 0.5  # seconds the server must have printed nothing before each timed edit


def measure_live(count, generators, work, catalog_folder, seed, hugo_budget):
    """Edits entries in each of the EDITS ways while each generator's live server runs, and
    times each edit to the line that says the server rebuilt (the server's own figure kept
    beside it). fruitsite: ENTRIES_PER_EDIT runs per edit, each on another entry; Hugo: one,
    and none once its server and its rebuilds at this size took `hugo_budget` seconds. Then
    every file of a clean build of the final catalog is fetched from fruitsite's server and
    compared, HTML pages without the reload script the server adds, and the pages of the
    fruits deleted, renamed or made drafts must be gone. Before fruitsite's edits, NOOP_RUNS
    entries are saved with the bytes they have, which changes nothing: its no-op rebuild.

    Returns {name: {"edits": {kind: [(seconds, own ms, files changed or None)]}, "noop":
    [the same], "start": seconds, "peak": MiB}, "check": (differences, files)}."""
    started = time.perf_counter()
    catalog = Catalog(catalog_folder, count, seed)
    catalog.serial = 1000  # past the rebuild table's edits, so no edit writes what one did
    slugs = [slug for slug in catalog.slugs() if catalog.value(catalog.read(slug), "draft") is None]
    # A list of entries per edit for fruitsite, then one per edit for Hugo (its first entry).
    entries = spread_entries(sorted(slugs), 2 * len(EDITS), ENTRIES_PER_EDIT)
    label = f"[{grouped(count)}]"
    measured = {}
    gone = []  # the pages of fruitsite's fruits that a deletion, rename or draft flag removed
    for name in ("Hugo", "fruitsite"):
        generator = generators.get(name)
        if not generator or (name == "Hugo" and hugo_budget <= 0):
            continue
        port = free_port()
        begun = time.perf_counter()
        server = LiveServer(generator.make_serve_command(catalog.folder, port), work,
                            LIVE_READY[name])
        try:
            spent = time.perf_counter() - begun
            log(f"{label} {name} live server: up in {spent:.2f} s")
            result = measured[name] = {"edits": {}, "noop": [], "start": spent}
            if name == "fruitsite":
                result["noop"] = measure_live_noop(server, catalog, slugs, label)
            for number, (kind, _) in enumerate(EDITS):
                runs = ENTRIES_PER_EDIT if name == "fruitsite" else 1
                for part in range(runs):
                    if name == "Hugo" and spent >= hugo_budget:
                        log(f"{label} Hugo live rebuild: {kind} not run, {spent:.0f} s spent of"
                            f" the {hugo_budget:.0f} s budget")
                        break
                    slug = entries[number if name == "fruitsite" else len(EDITS) + number][part]
                    server.settle(LIVE_QUIET)
                    edited = time.perf_counter()
                    done = catalog.edit(kind, slug)
                    if name == "fruitsite" and kind in ("delete", "rename", "draft"):
                        gone.append(f"fruits/{slug}/index.html")
                    at, match = server.wait_for(LIVE_BUILT[name])
                    spent += at - edited + LIVE_QUIET
                    files = int(match[2]) if name == "fruitsite" and match[2] else None
                    result["edits"].setdefault(kind, []).append((at - edited, int(match[1]), files))
                    log(f"{label} {name} live rebuild after it {done}: {duration(at - edited)}"
                        f" ({match[0]})")
            result["peak"] = server.peak_memory()
            if name == "fruitsite":
                measured["check"] = compare_served(port, catalog.folder, generator, work, gone)
        finally:
            server.stop()
    log(f"{label} the live measurements took {time.perf_counter() - started:.0f} s")
    return measured


def measure_live_noop(server, catalog, slugs, label):
    """fruitsite's server after NOOP_RUNS entries, spread over the catalog, are each saved
    with the bytes they have: [(seconds, own ms, files changed)], empty when the server says
    nothing of it (polling, without inotify, says nothing when nothing changed)."""
    measured = []
    for number in range(NOOP_RUNS):
        slug = slugs[number * len(slugs) // NOOP_RUNS]
        text = catalog.read(slug)
        server.settle(LIVE_QUIET)
        edited = time.perf_counter()
        catalog.write(slug, text)
        try:
            at, match = server.wait_for(LIVE_BUILT["fruitsite"], timeout=30)
        except BuildFailed as failure:
            log(f"{label} fruitsite live rebuild with nothing changed: {failure}")
            return []
        measured.append((at - edited, int(match[1]), int(match[2] or 0)))
        log(f"{label} fruitsite live rebuild after {slug} was saved unchanged:"
            f" {duration(at - edited)} ({match[0]})")
    return measured


def compare_served(port, catalog_folder, fruitsite, work, gone):
    """Every file of a clean build of the catalog against what the server at `port` serves
    for its path, and the paths `gone`, which must answer 404, or for a fruit whose file was
    renamed, redirect (302) to its page at its new address: returns (differences, number of
    paths asked for)."""
    clean = fresh_output(work, "live-check")
    try:
        fruitsite.run(catalog_folder, clean)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        differences, files = [], 0
        for folder, _, names in os.walk(clean):
            for name in names:
                path = os.path.relpath(os.path.join(folder, name), clean)
                if path == ".fruitsite-output":
                    continue
                files += 1
                connection.request("GET", "/" + urllib.parse.quote(path))
                response = connection.getresponse()
                served = response.read()
                if name.endswith(".html"):
                    served = re.sub(rb"<script data-fruitsite>.*?</script>", b"", served,
                                    flags=re.S)
                with open(os.path.join(folder, name), "rb") as file:
                    if response.status != 200 or served != file.read():
                        differences.append(f"{path} ({response.status}, different bytes)")
        for path in gone:
            files += 1
            connection.request("GET", "/" + urllib.parse.quote(path))
            response = connection.getresponse()
            response.read()
            target = urllib.parse.urljoin("/" + path, response.getheader("Location") or "")
            target = urllib.parse.unquote(target.lstrip("/"))
            if target.endswith("/"):
                target += "index.html"
            moved = (response.status == 302 and target != path
                     and os.path.isfile(os.path.join(clean, target)))
            if not (response.status == 404 or moved) or os.path.exists(os.path.join(clean, path)):
                differences.append(f"{path} ({response.status}, should be gone)")
        connection.close()
        return differences, files
    finally:
        remove(clean)


# MARK: - Tables


def print_some(lines, limit):
    """The first `limit` lines, indented, then how many more there were."""
    for line in lines[:limit]:
        print(f"    {line}")
    if len(lines) > limit:
        print(f"    and {len(lines) - limit} more")


def verdict(ratio, target):
    return "met" if ratio <= target else "not met"


def ratios(results, disk, peer):
    """fruitsite's wall time, CPU time, peak memory and time on disk against `peer`'s."""
    ours, theirs = results["fruitsite"], results[peer]
    return (ours.wall / theirs.wall, ours.cpu / theirs.cpu if theirs.cpu else float("nan"),
            ours.memory / theirs.memory, disk["fruitsite"][0] / disk[peer][0])


def print_table(count, runs, results, pages, disk, disk_parent, outputs="tmpfs"):
    names = list(results)
    print()
    print(f"N = {grouped(count)} entries: median of {runs} runs after one warm-up, catalog on"
          f" tmpfs, output on {outputs}")
    header = (f"  {'':<10} {'wall s':>8} {'min-max s':>13} {'CPU s':>7} {'peak MiB':>9}"
              f" {'HTML pages':>11} {'pages/s':>9} {'µs/page':>8} {'disk wall s':>12}")
    print(header)
    for name in names:
        stats = results[name]
        span = f"{min(stats.walls):.2f}-{max(stats.walls):.2f}"
        rate = pages[name] / stats.wall if stats.wall else 0
        on_disk = f"{disk[name][0]:.2f}" if name in disk else "not run"
        print(f"  {name:<10} {stats.wall:>8.2f} {span:>13} {stats.cpu:>7.2f} {stats.memory:>9.0f}"
              f" {grouped(pages[name]):>11} {grouped(round(rate)):>9} {1e6 / rate:>8.1f}"
              f" {on_disk:>12}")
    if "fruitsite" in results and "Hugo" in results:
        time_ratio, cpu_ratio, memory_ratio, disk_ratio = ratios(results, disk, "Hugo")
        print(f"  fruitsite/Hugo: time {time_ratio:.3f}x (target <= {TARGET_TIME}x:"
              f" {verdict(time_ratio, TARGET_TIME)}), memory {memory_ratio:.3f}x (target <="
              f" {TARGET_MEMORY}x: {verdict(memory_ratio, TARGET_MEMORY)}); CPU time"
              f" {cpu_ratio:.3f}x; on disk ({filesystem_of(disk_parent)} under {disk_parent})"
              f" {disk_ratio:.3f}x")
    if "fruitsite" in results and "Hugo plain" in results:
        time_ratio, cpu_ratio, memory_ratio, disk_ratio = ratios(results, disk, "Hugo plain")
        print(f"  fruitsite/Hugo plain: time {time_ratio:.3f}x (target <= {TARGET_TIME_PLAIN}x:"
              f" {verdict(time_ratio, TARGET_TIME_PLAIN)}), CPU time {cpu_ratio:.3f}x, memory"
              f" {memory_ratio:.3f}x; on disk {disk_ratio:.3f}x")
    sys.stdout.flush()


def print_largest_pages(largest):
    """Each tool's largest HTML page, and whether fruitsite's is within the target."""
    for name, (size, path) in largest.items():
        met = (f" (target <= {TARGET_LARGEST_PAGE // 1024:,} KiB:"
               f" {verdict(size, TARGET_LARGEST_PAGE)})" if name == "fruitsite" else "")
        print(f"  {name}'s largest HTML page: {size / 1024:,.1f} KiB, {path}{met}")
    sys.stdout.flush()


def print_same_paths(paths):
    """Whether the plain twin wrote the files the twin did, by path: it should write the same
    pages, so any path in one output only is listed."""
    if "Hugo" not in paths or "Hugo plain" not in paths:
        return
    ours, theirs = paths["Hugo plain"], paths["Hugo"]
    if ours == theirs:
        print(f"  Hugo plain's output: the same {grouped(len(ours))} files as Hugo's, by path")
    else:
        differences = ([f"{path} (only Hugo's)" for path in sorted(theirs - ours)]
                       + [f"{path} (only Hugo plain's)" for path in sorted(ours - theirs)])
        print(f"  Hugo plain's output: {len(differences)} paths differ from Hugo's:")
        print_some(differences, 20)
    sys.stdout.flush()


def print_rebuild_table(count, runs, results, rebuilds, pause):
    """The rebuild table of one size: a row per edit, fruitsite in both modes, then Hugo."""
    target = TARGET_REBUILD.get(count)
    clean = {name: stats.wall for name, stats in results.items()}
    gaps = rebuilds["gaps"]
    window = "outside" if pause > TRUST_WINDOW else "inside"
    print()
    print(f"Rebuild at N = {grouped(count)} after one edit, into the same output folder (tmpfs)")
    print(f"  fruitsite: median of {ENTRIES_PER_EDIT} runs per cell, each on another entry and"
          " from a steady state (an untimed build")
    print(f"  first). immediate: fruitsite is started {1000 * max(gaps['immediate']):.2f} ms or"
          f" less after the edit; after {pause:g} s: {window} the {TRUST_WINDOW:g} s (at most) in which")
    print("  fruitsite does not trust a file's time stamp.")
    if "Hugo" in clean:
        print(f"  Hugo (`hugo`, not incremental): 1 run per edit, immediate; {len(rebuilds['Hugo'])}"
              f" of {len(EDITS)} edits run within its {rebuilds['hugo_budget']:g} s budget.")
    print(f"  share: of the clean build above (median of {runs}: fruitsite"
          f" {duration(clean['fruitsite'])}"
          + (f", Hugo {clean['Hugo']:.2f} s" if "Hugo" in clean else "") + ")")
    print(f"  {'edit':<14} {'immediate':>10} {'share':>7} {'':<7}  {f'after {pause:g} s':>11}"
          f" {'share':>7} {'':<7}  {'Hugo':>8} {'share':>7}")
    met = {mode: 0 for mode in MODES}
    for kind, label in EDITS:
        cells = []
        for mode in MODES:
            wall = statistics.median(rebuilds["fruitsite"][kind][mode])
            share = wall / clean["fruitsite"]
            if target is not None and share <= target:
                met[mode] += 1
            judged = verdict(share, target) if target is not None else ""
            width = 10 if mode == "immediate" else 11
            cells.append(f"{duration(wall):>{width}} {100 * share:>6.1f}% {judged:<7}")
        hugo = rebuilds["Hugo"].get(kind)
        if hugo:
            wall = statistics.median(hugo)
            cells.append(f"{wall:>6.2f} s {100 * wall / clean['Hugo']:>6.1f}%")
        elif "Hugo" in clean:
            cells.append(f"{'not run':>8}")
        print(f"  {label:<14} " + "  ".join(cells).rstrip())
    if target is None:
        print(f"  no target at {grouped(count)} entries (the targets: share <= "
              + " and ".join(f"{100 * t:g}% at {grouped(n)}" for n, t in TARGET_REBUILD.items())
              + ")")
    else:
        print(f"  target, share <= {100 * target:g}%: met by {met['immediate']} of {len(EDITS)}"
              f" edits immediate, {met['paused']} of {len(EDITS)} after {pause:g} s")
    differences, paths = rebuilds["check"]
    check = "the output of the last rebuild against a clean build of the final catalog:"
    if not differences:
        print(f"  {check} identical ({grouped(paths)} files and folders, .fruitsite-output"
              " included)")
    else:
        print(f"  {check} {len(differences)} paths differ")
        print_some(differences, 40)
    sys.stdout.flush()


class Budget:
    """The output-sensitive budget of a rebuild at one size: what a rebuild with nothing
    changed took, plus, for each output file whose bytes changed, the clean build's time per
    output file."""

    def __init__(self, count, clean, files):
        self.count = count
        self.clean = clean  # the clean build's median wall time, in seconds
        self.files = files  # how many files the clean build wrote

    @property
    def per_file(self):
        return self.clean / self.files

    def of(self, noop, changed):
        return noop + changed * self.per_file

    def describe(self):
        return (f"{1e6 * self.per_file:.1f} µs, the clean build's time per output file"
                f" ({duration(self.clean)} for {grouped(self.files)} files)")

    def noop_verdict(self, share):
        target = TARGET_NOOP.get(self.count)
        if target is None:
            return ("no target at this size (" + ", ".join(
                f"<= {100 * t:g}% at {grouped(n)}" for n, t in TARGET_NOOP.items()) + ")")
        return f"target <= {100 * target:g}%: {verdict(share, target)}"


def print_budget_table(budget, rebuilds, pause):
    """The rebuild table's runs against the output-sensitive budget: a row per edit, each
    mode's time, the files it changed, the budget, their ratio, and the files it wrote with
    the bytes they had."""
    noop = rebuilds["noop"]
    noop_wall = statistics.median(run[0] for run in noop)
    share = noop_wall / budget.clean
    print()
    print(f"Rebuild at N = {grouped(budget.count)} against the output-sensitive budget (the runs"
          " above)")
    print(f"  no-op: a rebuild with nothing changed, in a new process: {duration(noop_wall)}"
          f" (median of {len(noop)}), {100 * share:.1f}% of the clean build"
          f" ({budget.noop_verdict(share)}); it changed {max(run[1] for run in noop)} files")
    print(f"  budget: the no-op's time + {budget.describe()} × each file changed")
    print("  changed: files added, removed or with other bytes (by content, median of the"
          " runs); ratio: time / budget;")
    print("  rewritten: files written with the bytes they had (a new inode or modification"
          " time); renamed: files added")
    print("  with the bytes of a file removed, written again under another name (most of"
          " either in one run)")
    columns = (f"{'time':>9} {'changed':>7} {'budget':>9} {'ratio':>6} {'':<7} {'rewritten':>9}"
               f" {'renamed':>7}")
    print(f"  {'':<14} | {'immediate':^{len(columns)}} | {f'after {pause:g} s':^{len(columns)}}")
    print(f"  {'edit':<14} | {columns} | {columns}")
    met = {mode: 0 for mode in MODES}
    same = {"rewritten": [], "renamed": []}  # the edits after which a run wrote such files
    for kind, label in EDITS:
        cells = []
        for mode in MODES:
            wall = statistics.median(rebuilds["fruitsite"][kind][mode])
            counts = rebuilds["files"][kind][mode]
            changed = statistics.median(c for c, _, _ in counts)
            rewritten = max(r for _, r, _ in counts)
            renamed = max(r for _, _, r in counts)
            allowed = budget.of(noop_wall, changed)
            met[mode] += wall <= allowed
            for name, number in (("rewritten", rewritten), ("renamed", renamed)):
                if number and label not in same[name]:
                    same[name].append(label)
            cells.append(f"{duration(wall):>9} {changed:>7g} {duration(allowed):>9}"
                         f" {wall / allowed:>5.2f}x {verdict(wall, allowed):<7} {rewritten:>9}"
                         f" {renamed:>7}")
        print(f"  {label:<14} | " + " | ".join(cells))
    print(f"  time <= budget: met by {met['immediate']} of {len(EDITS)} edits immediate,"
          f" {met['paused']} of {len(EDITS)} after {pause:g} s; files written with bytes the"
          " folder had: "
          + "; ".join(f"{name} after {', '.join(labels) or 'none'}"
                      for name, labels in same.items()))
    sys.stdout.flush()


def print_live_table(count, results, live, budget):
    """The live table of one size: a row per edit, fruitsite's server, then Hugo's."""
    target = TARGET_REBUILD.get(count)
    clean = {name: stats.wall for name, stats in results.items()}
    print()
    print(f"Live rebuild at N = {grouped(count)} after one edit, the site kept in memory by the"
          " server (`fruitsite serve`, `hugo server`)")
    print("  time: from the edit (a file written, renamed or deleted) to the server's line that it"
          " rebuilt, so the")
    print("  watcher's wait for the folder to fall quiet is included; own: the rebuild time that"
          " line gives.")
    print(f"  fruitsite: median of {ENTRIES_PER_EDIT} runs per cell, each on another entry; Hugo:"
          " 1 run per edit (fast render mode,")
    print("  its default); share: of the clean build in the table above.")
    for name in ("fruitsite", "Hugo"):
        if name in live:
            print(f"  {name} server: up in {live[name]['start']:.2f} s, peak memory"
                  f" {live[name]['peak']:.0f} MiB")
    noop = live["fruitsite"]["noop"]
    noop_wall = statistics.median(wall for wall, _, _ in noop) if noop else None
    if noop:
        share = noop_wall / budget.clean
        print(f"  fruitsite's no-op, an entry saved with the bytes it had: {duration(noop_wall)}"
              f" (median of {len(noop)}; own {statistics.median(o for _, o, _ in noop):.0f} ms),"
              f" {100 * share:.1f}% of the clean build ({budget.noop_verdict(share)})")
        print(f"  changed: the files the server says changed (median); budget: the no-op's time"
              f" + {budget.describe()}")
        print("  × each file changed; ratio: time / budget")
    else:
        print("  (the server said nothing of an entry saved with the bytes it had: no no-op, no"
              " budget)")
    hugo_columns = f"  {'Hugo':>8} {'share':>7} {'own':>8}" if "Hugo" in live else ""
    budget_columns = f" {'changed':>7} {'budget':>9} {'ratio':>6} {'':<7}" if noop else ""
    print(f"  {'edit':<14} {'fruitsite':>10} {'share':>7} {'':<7} {'own':>8}{budget_columns}"
          f"{hugo_columns}")
    met = within = 0
    for kind, label in EDITS:
        runs = live["fruitsite"]["edits"][kind]
        wall = statistics.median(wall for wall, _, _ in runs)
        own = statistics.median(own for _, own, _ in runs)
        share = wall / clean["fruitsite"]
        met += target is not None and share <= target
        judged = verdict(share, target) if target is not None else ""
        cell = f"{duration(wall):>10} {100 * share:>6.1f}% {judged:<7} {own:>5.0f} ms"
        if noop:
            changed = statistics.median(files or 0 for _, _, files in runs)
            allowed = budget.of(noop_wall, changed)
            within += wall <= allowed
            cell += (f" {changed:>7g} {duration(allowed):>9} {wall / allowed:>5.2f}x"
                     f" {verdict(wall, allowed):<7}")
        cells = [cell]
        hugo = live.get("Hugo", {}).get("edits", {}).get(kind)
        if hugo:
            wall, own, _ = hugo[0]
            cells.append(f"{wall:>6.2f} s {100 * wall / clean['Hugo']:>6.1f}% {own:>5.0f} ms")
        elif "Hugo" in live:
            cells.append(f"{'not run':>8}")
        print(f"  {label:<14} " + "  ".join(cells).rstrip())
    if target is not None:
        print(f"  share <= {100 * target:g}% (the rebuild target, here for the live server): met"
              f" by {met} of {len(EDITS)} edits")
    if noop:
        print(f"  time <= budget: met by {within} of {len(EDITS)} edits")
    differences, files = live["check"]
    check = ("every file of a clean build of the final catalog against what the server serves,"
             " and the pages of removed fruits:")
    if not differences:
        print(f"  {check} identical, and gone ({grouped(files)} paths)")
    else:
        print(f"  {check} {len(differences)} of {grouped(files)} differ")
        for difference in differences[:40]:
            print(f"    {difference}")
    sys.stdout.flush()


def print_per_page(measured):
    """fruitsite's time per page at each size against that at 10,000 entries (or the smallest)."""
    per_page = {count: entry["results"]["fruitsite"].wall / entry["pages"]["fruitsite"]
                for count, entry in measured.items()}
    if len(per_page) < 2:
        return
    base = 10000 if 10000 in per_page else min(per_page)
    print(f"\nfruitsite's time per HTML page against N = {grouped(base)} (target at 1,000,000:"
          f" <= {TARGET_PER_PAGE}x), and its peak memory (targets: "
          + ", ".join(f"<= {peak:,.0f} MiB at {grouped(count)}"
                      for count, peak in TARGET_PEAK.items()) + ")")
    for count, seconds in per_page.items():
        ratio = seconds / per_page[base]
        peak = measured[count]["results"]["fruitsite"].memory
        time_met = f" ({verdict(ratio, TARGET_PER_PAGE)})" if count == 1000000 else ""
        peak_met = (f" ({verdict(peak, TARGET_PEAK[count])})" if count in TARGET_PEAK else "")
        print(f"  {grouped(count):>9}: {1e6 * seconds:6.1f} µs a page, {ratio:5.2f}x{time_met};"
              f" {peak:,.0f} MiB{peak_met}")


def print_summary(measured):
    measured = {count: entry for count, entry in measured.items()
                if "Hugo" in entry["results"]}
    if len(measured) < 2:
        return
    plain = all("Hugo plain" in entry["results"] for entry in measured.values())
    print("\nSummary (median wall time, peak memory; ratio fruitsite/Hugo, targets <= 0.2x time,"
          " <= 0.5x memory" + (f"; fruitsite/Hugo plain, target <= {TARGET_TIME_PLAIN}x time)"
                               if plain else ")"))
    print(f"  {'N':>9} {'fruitsite s':>12} {'Hugo s':>8} {'time':>7} {'fruitsite MiB':>14}"
          f" {'Hugo MiB':>9} {'memory':>7}  targets"
          + (f"{'':<21} {'Hugo plain s':>13} {'time':>7}  target" if plain else ""))
    for count, entry in measured.items():
        ours, theirs = entry["results"]["fruitsite"], entry["results"]["Hugo"]
        time_ratio, memory_ratio = ours.wall / theirs.wall, ours.memory / theirs.memory
        met = [verdict(time_ratio, TARGET_TIME), verdict(memory_ratio, TARGET_MEMORY)]
        line = (f"  {grouped(count):>9} {ours.wall:>12.2f} {theirs.wall:>8.2f} {time_ratio:>6.3f}x"
                f" {ours.memory:>14.0f} {theirs.memory:>9.0f} {memory_ratio:>6.3f}x  time {met[0]},"
                f" memory {met[1]}")
        if plain:
            theirs = entry["results"]["Hugo plain"]
            time_ratio = ours.wall / theirs.wall
            line = (f"{line:<104} {theirs.wall:>13.2f} {time_ratio:>6.3f}x  time"
                    f" {verdict(time_ratio, TARGET_TIME_PLAIN)}")
        print(line)


# MARK: - Search: what a visitor's first query downloads

INDEX_KINDS = ("sharded", "single")
SEARCH_CATEGORY = "Berries"  # the category filter of every second query
SEARCH_ENGINE = ("search-index.js", "fruit-filter.js")  # fruitsite's search, in assets/


def gzipped_size(path):
    with open(path, "rb") as file:
        return len(gzip.compress(file.read(), 6))


def measure_search(count, fruitsite, work, disk, seed, pagefind):
    """Builds a catalog of `count` entries with each kind of search index, then measures the
    first query of every query of Benchmarks/search/transfer.mjs, with and without a category
    filter; with `pagefind`, also Pagefind's on the same fruit pages. Prints the table. The
    outputs go to `disk`: with Pagefind's bundle and its copy of the pages, they would take
    700,000 inodes of the tmpfs at 100,000 entries, and nothing timed here depends on it."""
    label = f"[search {grouped(count)}]"
    if not shutil.which("node"):
        log(f"{label} no node: skipping the first-query table")
        return
    catalog = os.path.join(work, f"content-{count}")
    subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--count", str(count),
                    "--seed", str(seed), "--out", catalog], check=True)
    outputs = {}
    try:
        for kind in INDEX_KINDS:
            config = os.path.join(work, f"search-{kind}.yml")
            with open(config, "w", encoding="utf-8") as file:
                file.write(f"search:\n  index: {kind}\n")
            build = Generator(f"fruitsite ({kind})", lambda content, output, config=config:
                              fruitsite.make_command(content, output) + ["--config", config], work)
            outputs[kind] = fresh_output(disk, f"search-{kind}")
            wall, _, memory = build.run(catalog, outputs[kind])
            log(f"{label} built with the {kind} index: {wall:.2f} s, {memory:.0f} MiB")
        shutil.rmtree(catalog)
        start = time.perf_counter()
        transfer = subprocess.run(["node", os.path.join(HERE, "search", "transfer.mjs"),
                                   "--category", SEARCH_CATEGORY]
                                  + [outputs[kind] for kind in INDEX_KINDS],
                                  stdout=subprocess.PIPE, check=True)
        measured = {entry["kind"]: entry for entry in json.loads(transfer.stdout)}
        log(f"{label} transfer.mjs took {time.perf_counter() - start:.0f} s")
        chromium = measure_keystrokes(label, outputs)
        found = None
        if pagefind:
            start = time.perf_counter()
            queries = list(dict.fromkeys(q["q"] for q in measured["sharded"]["queries"]))
            result = subprocess.run([sys.executable, os.path.join(HERE, "search",
                                                                  "pagefind_transfer.py"),
                                     outputs["sharded"], "--category", SEARCH_CATEGORY, "--"]
                                    + queries, stdout=subprocess.PIPE)
            if result.returncode == 0:
                found = json.loads(result.stdout)
            else:
                log(f"{label} warning: Pagefind failed (exit status {result.returncode})")
            log(f"{label} Pagefind took {time.perf_counter() - start:.0f} s")
        engine = sum(gzipped_size(os.path.join(outputs["sharded"], "assets", name))
                     for name in SEARCH_ENGINE)
        print_search_table(count, measured, found, engine, chromium)
    except subprocess.CalledProcessError as failure:
        log(f"{label} warning: the search measurement failed: {failure}")
    finally:
        for output in outputs.values():
            remove(output)
        shutil.rmtree(catalog, ignore_errors=True)


def measure_keystrokes(label, outputs):
    """Each index kind's time per keystroke in headless Chromium (search/keystrokes.py), or
    None without Chromium."""
    if not os.path.exists("/usr/bin/chromium"):
        log(f"{label} no Chromium: skipping the keystrokes in Chromium")
        return None
    start = time.perf_counter()
    measured = {}
    for kind in INDEX_KINDS:
        result = subprocess.run([sys.executable, os.path.join(HERE, "search", "keystrokes.py"),
                                 outputs[kind]], stdout=subprocess.PIPE)
        if result.returncode != 0:
            log(f"{label} warning: keystrokes.py failed (exit status {result.returncode})")
            return None
        measured[kind] = json.loads(result.stdout)
    log(f"{label} keystrokes.py took {time.perf_counter() - start:.0f} s")
    return measured


def print_search_table(count, measured, pagefind, engine, chromium=None):
    """A row per query and filter: bytes, requests and rounds of each index kind and Pagefind,
    then the median and the worst of each column."""
    columns = [measured[kind]["queries"] for kind in INDEX_KINDS]
    names = [f"fruitsite {kind}" for kind in INDEX_KINDS]
    if pagefind:
        columns.append(pagefind["queries"])
        names.append("Pagefind")
    print()
    print(f"First query at N = {grouped(count)} entries: a new visitor opens the index, searches"
          " and shows the first screen of results")
    print("  (fruitsite: openIndex, search, records(0, 50), in Node.js; KB: thousands of bytes"
          " over the wire, each file")
    print("  gzipped at level 6 as a CDN serves JSON; req: requests; rounds: the longest chain of"
          " requests each waiting")
    print("  for a response to the one before, 1 when all go at once)")
    if pagefind:
        index = pagefind["index"]
        print(f"  Pagefind {index['version']}: {grouped(index['pages'])} fruit pages indexed in"
              f" {index['seconds']:.1f} s, peak {index['peak']:,.0f} MiB: {grouped(index['files'])}"
              f" files, {index['bytes'] / 1e6:.1f} MB;")
        print("  search() and data() of the first 10 results, in headless Chromium; its index"
              " files count as served")
        print("  (compressed already), its JSON gzipped")
    print(f"  {'':<32}" + "".join(f" | {name:^20}" for name in names)
          + " | Pagefind" * bool(pagefind))
    print(f"  {'query':<14} {'filter':<8} {'matches':>8}" + f" | {'KB':>8} {'req':>4} {'rounds':>6}"
          * len(names) + " |  matches" * bool(pagefind))
    for row in zip(*columns):
        first = row[0]
        line = (f"  {repr(first['q']):<14} {first.get('category') or '-':<8}"
                f" {grouped(first['count']):>8}")
        for cell in row:
            line += f" | {cell['gzip'] / 1000:>8,.1f} {cell['requests']:>4} {cell['rounds']:>6}"
        if pagefind:
            line += f" | {grouped(row[-1]['count']):>8}"
        if row[1]["count"] != first["count"]:
            line += f"  (the single index found {grouped(row[1]['count'])})"
        print(line)
    for label, pick in (("median", statistics.median), ("worst", max)):
        line = f"  {label:<32}"
        for column in columns:
            kb, requests, rounds = (pick([cell[key] for cell in column])
                                    for key in ("gzip", "requests", "rounds"))
            line += f" | {kb / 1000:>8,.1f} {requests:>4g} {rounds:>6g}"
        print(line)
    prefetched = [cell["prefetched"] for cell in measured["sharded"]["queries"]]
    print(f"  then, once the results show, fruitsite sharded prefetches the gram files of the"
          f" query one letter longer: {statistics.median(p['gzip'] for p in prefetched) / 1000:.1f}"
          f" KB, {statistics.median(p['requests'] for p in prefetched):g} req (median); at most"
          f" {max(p['gzip'] for p in prefetched) / 1000:.1f} KB, at most"
          f" {max(p['requests'] for p in prefetched)} req")
    for kind in INDEX_KINDS:
        typing = measured[kind]["typing"]
        print(f"  fruitsite {kind}, typing {typing['word']!r} a letter at a time, its files"
              f" fetched: {statistics.median(typing['ms']):.2f} ms a keystroke (median),"
              f" {max(typing['ms']):.2f} ms at most (search and records(0, 50), Node.js)")
    if chromium:
        any_kind = chromium[INDEX_KINDS[0]]
        print(f"  In headless Chromium, {any_kind['visits']} new visitors each type"
              f" {any_kind['word']!r} after a first query {any_kind['first']!r}, then again"
              " (its files fetched),")
        print("  from the input event to the results list updated (and laid out), files"
              " fetched from a local server:")
        for kind in INDEX_KINDS:
            visitor, again = chromium[kind]["visitor"], chromium[kind]["again"]
            fetching = sum(files > 0 for files in visitor["fetched"])
            print(f"  fruitsite {kind}, in Chromium: {statistics.median(visitor['ms']):.1f} ms"
                  f" a keystroke (median), {max(visitor['ms']):.1f} at most (laid out"
                  f" {statistics.median(visitor['layout']):.1f}, {max(visitor['layout']):.1f});"
                  f" {fetching} of {len(visitor['fetched'])} fetched files"
                  + (f" ({sum(visitor['fetched'])})" if fetching else "")
                  + f"; again: {statistics.median(again['ms']):.1f}, {max(again['ms']):.1f}"
                  f" (laid out {statistics.median(again['layout']):.1f},"
                  f" {max(again['layout']):.1f})")
    if pagefind:
        slowest = max(pagefind["queries"], key=lambda cell: cell["seconds"])
        print(f"  Pagefind in Chromium, each response held 50 ms: the first screen after"
              f" {statistics.median(cell['seconds'] for cell in pagefind['queries']):.1f} s"
              f" (median), {slowest['seconds']:.1f} s at most ({slowest['q']!r}"
              + (f", {slowest['category']}" if slowest["category"] else "") + ")")
    print(f"  Not counted: the search's own JavaScript, loaded with the page: fruitsite's"
          f" {' and '.join(SEARCH_ENGINE)}, {engine / 1000:.1f} KB"
          + (f"; Pagefind's pagefind.js, {pagefind['queries'][0]['script'] / 1000:.1f} KB"
             if pagefind else ""))
    sys.stdout.flush()


# MARK: - Main


def hugo_generator(work, templates, folder="hugo", name="Hugo"):
    """Hugo, run from a copy of Benchmarks/<folder> (the twin `hugo`, or the plain twin
    `hugo-plain`) so nothing is written into the repository."""
    site = os.path.join(work, f"{folder}-site")
    shutil.copytree(os.path.join(HERE, folder), site)
    cache = os.path.join(work, f"{folder}-cache")
    assets = os.path.join(os.path.abspath(templates), "assets")

    def command(catalog, output):
        # A later config file wins: mount this catalog and the theme's assets by absolute path.
        overlay = os.path.join(work, f"{folder}-mounts-{os.path.basename(catalog)}.yaml")
        if not os.path.exists(overlay):
            with open(overlay, "w", encoding="utf-8") as file:
                file.write("module:\n  mounts:\n"
                           f"    - source: {catalog}\n      target: content/fruits\n"
                           "    - source: layouts\n      target: layouts\n"
                           f"    - source: {assets}\n      target: static/assets\n")
        return ["hugo", "--source", site, "--config", f"{site}/hugo.yaml,{overlay}",
                "--destination", output, "--cacheDir", cache, "--noBuildLock", "--quiet"]

    def serve_command(catalog, port):
        # The build's options but the output: `hugo server` keeps the site in memory.
        build = command(catalog, None)
        return (["hugo", "server"] + build[1:5] + ["--cacheDir", cache, "--noBuildLock",
                "--port", str(port), "--bind", "127.0.0.1"])

    return Generator(name, command, work, serve_command)


def fruitsite_generator(binary, templates, work):
    # A copy, so a rebuild during the benchmark cannot mix two versions (its libraries are
    # found by absolute RUNPATH, so the copy runs anywhere).
    copy = os.path.join(work, "fruitsite")
    shutil.copy2(binary, copy)
    binary, templates = copy, os.path.abspath(templates)

    def command(catalog, output):
        # Not --quiet: the one line it prints says how many files a rebuild changed.
        return [binary, "build", "--content", catalog, "--templates", templates,
                "--output", output, "--cache-dir", cache_of(output)]

    def serve_command(catalog, port):
        return [binary, "serve", "--content", catalog, "--templates", templates,
                "--port", str(port)]

    # Run from the work folder, whose fruitsite.yml sets the base URL Hugo's config has: both
    # then write sitemap.xml, which only a site with a base URL gets. The rest is the defaults.
    with open(os.path.join(work, "fruitsite.yml"), "w", encoding="utf-8") as file:
        file.write("baseURL: https://example.org/\n")
    return Generator("fruitsite", command, work, serve_command)


def describe_machine(fruitsite):
    load = os.getloadavg()
    hugo = (subprocess.run(["hugo", "version"], capture_output=True, text=True).stdout.strip()
            if shutil.which("hugo") else "no Hugo")
    commit = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                            capture_output=True, text=True).stdout.strip() or "?"
    print(f"fruitsite {commit} ({fruitsite}); {hugo.split(' BuildDate')[0]}")
    print(f"{os.cpu_count()} CPUs, load average {load[0]:.2f} at start; Python"
          f" {sys.version.split()[0]}")
    if load[0] > 0.5:
        print("note: other processes are using the CPUs; wall times will be noisy (CPU times less"
              " so)")
    sys.stdout.flush()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fruitsite", default=os.path.join(ROOT, ".build/release/fruitsite"))
    parser.add_argument("--templates", default=os.path.join(ROOT, "Templates"))
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000, 100000],
                        help="catalog sizes of the build tables (none: no build tables)")
    parser.add_argument("--runs", type=int, help="runs per size (default 5, or 3 from 100,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rebuild-sizes", type=int, nargs="*", default=[10000, 100000],
                        help="the sizes, among --sizes, at which to also time rebuilds after one"
                        " edit (none: skip them)")
    parser.add_argument("--rebuild-pause", type=float, default=2.5,
                        help="seconds between an edit and the build in the table's second mode"
                        f" (more than fruitsite's {TRUST_WINDOW:g} s time-stamp window)")
    parser.add_argument("--no-hugo-plain", action="store_true",
                        help="leave out the plain twin (Benchmarks/hugo-plain) from the build"
                        " tables")
    parser.add_argument("--hugo-rebuild-budget", type=float, default=300,
                        help="seconds of Hugo rebuilds per size, after which it starts no more"
                        " (0: no Hugo rebuilds)")
    parser.add_argument("--alone-sizes", type=int, nargs="*", default=[],
                        help="sizes at which fruitsite runs alone, once after a warm-up, output"
                        " on --disk (Hugo would need some 80 GB of memory at 1,000,000, and the"
                        " output's 2,000,000 files and folders exhaust a tmpfs's inodes)")
    parser.add_argument("--search-sizes", type=int, nargs="*", default=[10000, 100000],
                        help="sizes at which to measure a visitor's first query, with each kind"
                        " of search index and Pagefind (none: skip it)")
    parser.add_argument("--million", action="store_true",
                        help="also measure the first query at 1,000,000 entries (fruitsite's two"
                        " indexes, no Pagefind: two builds of 2 GB and some 10 minutes each)")
    parser.add_argument("--pagefind-max", type=int, default=100000,
                        help="the largest search size at which Pagefind is measured too (0:"
                        " never)")
    parser.add_argument("--tmpfs", default="/dev/shm", help="where catalogs and outputs go")
    parser.add_argument("--disk", default="/tmp", help="a folder on a real disk for one run")
    args = parser.parse_args(argv)

    # A SIGTERM (or Ctrl-C) still runs the `finally` below, which removes every folder.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = tempfile.mkdtemp(prefix="fruitsite-bench-", dir=args.tmpfs)
    disk = tempfile.mkdtemp(prefix="fruitsite-bench-disk-", dir=args.disk)
    try:
        describe_machine(args.fruitsite)
        generators = {
            "fruitsite": fruitsite_generator(args.fruitsite, args.templates, work),
            "Hugo": hugo_generator(work, args.templates),
        }
        if not args.no_hugo_plain:
            generators["Hugo plain"] = hugo_generator(work, args.templates, "hugo-plain",
                                                      "Hugo plain")
        measured = {}
        for count in args.sizes:
            runs = args.runs or (3 if count >= 100000 else 5)
            rebuild = None
            if count in args.rebuild_sizes and count < 100:
                log(f"(no rebuild table at {count} entries: it edits 81 different entries)")
            elif count in args.rebuild_sizes:
                rebuild = {"pause": args.rebuild_pause, "hugo_budget": args.hugo_rebuild_budget}
            measured[count] = measure_size(count, runs, generators, work, disk, args.seed,
                                           rebuild)
            shutil.rmtree(os.path.join(work, f"content-{count}"), ignore_errors=True)
        for count in args.alone_sizes:
            alone = {"fruitsite": generators["fruitsite"]}
            measured[count] = measure_size(count, 1, alone, work, None, args.seed, outputs=disk)
            shutil.rmtree(os.path.join(work, f"content-{count}"), ignore_errors=True)
        skipped = [size for size in args.rebuild_sizes if size not in args.sizes] * bool(args.sizes)
        if skipped:
            log(f"(no rebuild table at {', '.join(grouped(size) for size in skipped)}: not among"
                " the sizes)")
        print_summary(measured)
        print_per_page(measured)
        for count in args.search_sizes + [1000000] * args.million:
            measure_search(count, generators["fruitsite"], work, disk, args.seed,
                           pagefind=count <= args.pagefind_max)
    except BuildFailed as failure:
        print(f"\nerror: {failure}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(disk, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
