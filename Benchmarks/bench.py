#!/usr/bin/env python3
"""fruitsite against Hugo on generated catalogs: wall time, CPU time and peak memory.

    python3 Benchmarks/bench.py --fruitsite .build/release/fruitsite [--sizes 1000 10000]

`Benchmarks/run.sh` installs what is missing and calls this. For each size N it generates one
catalog (Benchmarks/generate.py) into tmpfs, builds it with both generators into fresh output
folders on tmpfs, one warm-up each and then alternating runs, then one run each with the output
on the real disk, and prints a table. At the incremental size it also rebuilds into the same
output after changing one entry. Every folder it makes is removed at the end.

Each run is timed twice: wall time with `time.perf_counter()` around the process (GNU time
prints only hundredths), CPU time and peak RSS by `/usr/bin/time`. A benchmark, not a test: it
exits non-zero only when a build fails.
"""

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TARGET_TIME = 0.2  # fruitsite's time as a fraction of Hugo's: "five times faster"
TARGET_MEMORY = 0.5
TARGET_REBUILD = 0.05  # a rebuild after one edit, as a fraction of a clean build, at N = 10,000


class BuildFailed(Exception):
    pass


# MARK: - Output


def log(message):
    """Progress, on standard error so the tables on standard output stay clean."""
    print(message, file=sys.stderr, flush=True)


def grouped(number):
    return f"{number:,}"


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

    def __init__(self, name, make_command, cwd):
        self.name = name
        self.make_command = make_command
        self.cwd = cwd

    def run(self, catalog, output):
        """Builds `catalog` into `output`; returns wall seconds, CPU seconds, peak RSS in MiB."""
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
        # GNU time: elapsed, max RSS (KiB), user, system.
        _, max_rss_kib, user, system = report[-4:]
        return wall, float(user) + float(system), int(max_rss_kib) / 1024


def count_html(folder):
    return sum(1 for _, _, files in os.walk(folder) for name in files if name.endswith(".html"))


def fresh_output(parent, label):
    """A path that does not exist yet, for an output folder: `<new folder>/site`. fruitsite keeps
    its cache beside it, in `<new folder>/cache` (see `cache_of`)."""
    return tempfile.mkdtemp(prefix=f"{label}-", dir=parent) + "/site"


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


def measure_size(count, runs, generators, work, disk_parent, seed, incremental):
    """Benchmarks one catalog size; returns a dict of results for the summary."""
    catalog = os.path.join(work, f"content-{count}")
    log(f"\n[{grouped(count)}] generating the catalog (seed {seed}) into {catalog}")
    start = time.perf_counter()
    subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--count", str(count),
                    "--seed", str(seed), "--out", catalog], check=True)
    log(f"[{grouped(count)}] generated in {time.perf_counter() - start:.1f} s")

    results = {name: Stats() for name in generators}
    pages = {}
    disk = {}

    def one(name, parent):
        output = fresh_output(parent, f"out-{name}")
        try:
            measured = generators[name].run(catalog, output)
            if name not in pages:
                pages[name] = count_html(output)
            return measured
        finally:
            remove(output)

    for name in generators:
        wall, cpu, memory = one(name, work)
        log(f"[{grouped(count)}] {name} warm-up: {wall:.2f} s, {cpu:.2f} s CPU, {memory:.0f} MiB,"
            f" {grouped(pages[name])} HTML pages")
    for run in range(1, runs + 1):
        for name in generators:
            wall, cpu, memory = one(name, work)
            results[name].add(wall, cpu, memory)
            log(f"[{grouped(count)}] {name} run {run}/{runs}: {wall:.2f} s, {cpu:.2f} s CPU,"
                f" {memory:.0f} MiB")
    for name in generators:
        disk[name] = one(name, disk_parent)
        log(f"[{grouped(count)}] {name} on disk: {disk[name][0]:.2f} s")

    incremental_results = None
    if incremental:
        incremental_results = measure_incremental(count, generators, work, catalog)

    print_table(count, runs, results, pages, disk, disk_parent, incremental_results)
    return {"results": results, "pages": pages, "disk": disk, "runs": runs}


def measure_incremental(count, generators, work, catalog, repeats=3):
    """Builds, then edits one entry and builds again into the same output, twice: first its
    text (fruitsite re-renders one page), then its name (the fruit may move in the catalog, so
    the index, its category, its neighbours, the search index and the sitemap change too).
    `repeats` times, on entries spread over the catalog.

    Returns {name: {"clean", "text", "name": (median wall seconds, median CPU seconds)}}.
    """
    entries = sorted(name for name in os.listdir(catalog) if name.endswith(".md"))
    chosen = [entries[0], entries[len(entries) // 2], entries[-1]][:repeats]
    measured = {}
    for name, generator in generators.items():
        runs = {"clean": [], "text": [], "name": []}
        for index, entry in enumerate(chosen, start=1):
            output = fresh_output(work, f"incremental-{name}")
            path = os.path.join(catalog, entry)
            try:
                wall, cpu, _ = generator.run(catalog, output)
                runs["clean"].append((wall, cpu))
                with open(path, "a", encoding="utf-8") as file:
                    file.write(f"\nRevised for the incremental benchmark ({name}, {index}).\n")
                wall, cpu, _ = generator.run(catalog, output)
                runs["text"].append((wall, cpu))
                with open(path, encoding="utf-8") as file:
                    text = file.read()
                with open(path, "w", encoding="utf-8") as file:
                    file.write(text.replace("\nname: ", "\nname: Revised ", 1))
                wall, cpu, _ = generator.run(catalog, output)
                runs["name"].append((wall, cpu))
            finally:
                remove(output)
            log(f"[{grouped(count)}] {name} incremental {index}/{len(chosen)}: clean"
                f" {runs['clean'][-1][0]:.3f} s, after editing {entry}'s text"
                f" {runs['text'][-1][0]:.3f} s, its name {runs['name'][-1][0]:.3f} s")
        measured[name] = {
            kind: (statistics.median(w for w, _ in values), statistics.median(c for _, c in values))
            for kind, values in runs.items()
        }
    return measured


# MARK: - Tables


def verdict(ratio, target):
    return "met" if ratio <= target else "not met"


def print_table(count, runs, results, pages, disk, disk_parent, incremental):
    names = list(results)
    print()
    print(f"N = {grouped(count)} entries: median of {runs} runs after one warm-up, catalog and output"
          f" on tmpfs")
    header = (f"  {'':<10} {'wall s':>8} {'min-max s':>13} {'CPU s':>7} {'peak MiB':>9}"
              f" {'HTML pages':>11} {'pages/s':>9} {'disk wall s':>12}")
    print(header)
    for name in names:
        stats = results[name]
        span = f"{min(stats.walls):.2f}-{max(stats.walls):.2f}"
        rate = pages[name] / stats.wall if stats.wall else 0
        print(f"  {name:<10} {stats.wall:>8.2f} {span:>13} {stats.cpu:>7.2f} {stats.memory:>9.0f}"
              f" {grouped(pages[name]):>11} {grouped(round(rate)):>9} {disk[name][0]:>12.2f}")
    if "fruitsite" in results and "Hugo" in results:
        ours, theirs = results["fruitsite"], results["Hugo"]
        time_ratio = ours.wall / theirs.wall
        cpu_ratio = ours.cpu / theirs.cpu if theirs.cpu else float("nan")
        memory_ratio = ours.memory / theirs.memory
        disk_ratio = disk["fruitsite"][0] / disk["Hugo"][0]
        print(f"  fruitsite/Hugo: time {time_ratio:.3f}x (target <= {TARGET_TIME}x:"
              f" {verdict(time_ratio, TARGET_TIME)}), memory {memory_ratio:.3f}x (target <="
              f" {TARGET_MEMORY}x: {verdict(memory_ratio, TARGET_MEMORY)}); CPU time"
              f" {cpu_ratio:.3f}x; on disk ({filesystem_of(disk_parent)} under {disk_parent})"
              f" {disk_ratio:.3f}x")
    if incremental:
        print("  Rebuild into the same output after editing one entry (median of 3; target for"
              f" fruitsite: under {100 * TARGET_REBUILD:.0f}% of a clean build):")
        for name, runs in incremental.items():
            clean = runs["clean"]
            for kind, label in (("text", "its text"), ("name", "its name")):
                wall, cpu = runs[kind]
                print(f"    {name:<10} {label:<9} {1000 * wall:>8.1f} ms ="
                      f" {100 * wall / clean[0]:5.1f}% of a clean build ({1000 * clean[0]:.0f} ms);"
                      f" CPU {100 * cpu / clean[1]:5.1f}%")
    sys.stdout.flush()


def print_summary(measured):
    if len(measured) < 2:
        return
    print("\nSummary (median wall time, peak memory; ratio fruitsite/Hugo, targets <= 0.2x time,"
          " <= 0.5x memory)")
    print(f"  {'N':>9} {'fruitsite s':>12} {'Hugo s':>8} {'time':>7} {'fruitsite MiB':>14}"
          f" {'Hugo MiB':>9} {'memory':>7}  targets")
    for count, entry in measured.items():
        ours, theirs = entry["results"]["fruitsite"], entry["results"]["Hugo"]
        time_ratio, memory_ratio = ours.wall / theirs.wall, ours.memory / theirs.memory
        met = [verdict(time_ratio, TARGET_TIME), verdict(memory_ratio, TARGET_MEMORY)]
        print(f"  {grouped(count):>9} {ours.wall:>12.2f} {theirs.wall:>8.2f} {time_ratio:>6.3f}x"
              f" {ours.memory:>14.0f} {theirs.memory:>9.0f} {memory_ratio:>6.3f}x  time {met[0]},"
              f" memory {met[1]}")


# MARK: - Main


def hugo_generator(work, templates):
    """Hugo, run from a copy of Benchmarks/hugo so nothing is written into the repository."""
    site = os.path.join(work, "hugo-site")
    shutil.copytree(os.path.join(HERE, "hugo"), site)
    cache = os.path.join(work, "hugo-cache")
    assets = os.path.join(os.path.abspath(templates), "assets")

    def command(catalog, output):
        # A later config file wins: mount this catalog and the theme's assets by absolute path.
        overlay = os.path.join(work, f"hugo-mounts-{os.path.basename(catalog)}.yaml")
        if not os.path.exists(overlay):
            with open(overlay, "w", encoding="utf-8") as file:
                file.write("module:\n  mounts:\n"
                           f"    - source: {catalog}\n      target: content/fruits\n"
                           "    - source: layouts\n      target: layouts\n"
                           f"    - source: {assets}\n      target: static/assets\n")
        return ["hugo", "--source", site, "--config", f"{site}/hugo.yaml,{overlay}",
                "--destination", output, "--cacheDir", cache, "--noBuildLock", "--quiet"]

    return Generator("Hugo", command, work)


def fruitsite_generator(binary, templates, work):
    # A copy, so a rebuild during the benchmark cannot mix two versions (its libraries are
    # found by absolute RUNPATH, so the copy runs anywhere).
    copy = os.path.join(work, "fruitsite")
    shutil.copy2(binary, copy)
    binary, templates = copy, os.path.abspath(templates)

    def command(catalog, output):
        return [binary, "build", "--content", catalog, "--templates", templates,
                "--output", output, "--cache-dir", cache_of(output), "--quiet"]

    # Run from the work folder, where there is no fruitsite.yml: the defaults apply.
    return Generator("fruitsite", command, work)


def describe_machine(fruitsite):
    load = os.getloadavg()
    hugo = subprocess.run(["hugo", "version"], capture_output=True, text=True).stdout.strip()
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
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--runs", type=int, help="runs per size (default 5, or 3 from 100,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--incremental-size", type=int, default=10000,
                        help="the size at which to measure a rebuild after one change")
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
        measured = {}
        for count in args.sizes:
            runs = args.runs or (3 if count >= 100000 else 5)
            measured[count] = measure_size(count, runs, generators, work, disk, args.seed,
                                           incremental=count == args.incremental_size)
            shutil.rmtree(os.path.join(work, f"content-{count}"), ignore_errors=True)
        if args.incremental_size not in args.sizes:
            log(f"(no incremental measurement: {args.incremental_size} is not among the sizes)")
        print_summary(measured)
    except BuildFailed as failure:
        print(f"\nerror: {failure}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(disk, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
