#!/usr/bin/env python3
"""fruitsite's build with pictures against Hugo's, on N camera photos: time, memory, bytes.

    python3 Benchmarks/pictures/sites.py --count 200 [--runs 3] [--fruitsite BIN]

`Benchmarks/run.sh` calls this when BENCH_PICTURES=1. It makes (or finds in its cache) N
12-megapixel photos with a camera's EXIF (camera.py), writes a catalog of N entries,
`fruit-<i>.md` with `image: {src: fruit-<i>.jpg, alt: …}` and the photo beside it, and builds
that one folder with each generator, output on tmpfs:

- Hugo (Benchmarks/hugo, its fruit page with partials/picture.html): each photo resized to
  the four widths as WebP at quality 75 and as JPEG at quality 80, with no cache of processed
  images (`resourceDir` removed), then again with that cache kept;
- fruitsite with `images: {formats: [webp]}`: WebP, and the JPEG fallback it always writes, at
  the same widths and qualities (its defaults), with no cache, then again with nothing changed;
- fruitsite with its default formats, AVIF (effort 3) and WebP and the JPEG fallback, the same.

Each run is timed with `time.perf_counter()` around the process, its CPU time and peak RSS
from `/usr/bin/time`. Prints one table: medians, peak memory, the pictures each wrote and
their bytes per photo, and time and memory against Hugo's cold build.
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
BENCHMARKS = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCHMARKS)
sys.path.insert(0, HERE)
sys.path.insert(0, BENCHMARKS)
import camera  # noqa: E402
import generate  # noqa: E402
from bench import describe_machine, log  # noqa: E402

WIDTHS = [320, 640, 960, 1280]
# fruitsite's defaults (Sources/FruitsiteCore/Pictures/PictureSettings.swift), which Hugo gets.
WEBP_QUALITY, JPEG_QUALITY = 75, 80
PICTURE_TYPES = {".webp": "WebP", ".avif": "AVIF", ".jpg": "JPEG", ".jpeg": "JPEG",
                 ".png": "PNG"}


class BuildFailed(Exception):
    pass


# MARK: - The sites


def write_catalog(folder, photos, count, seed):
    """`fruit-<i>.md` entries as generate.py makes them, each with `image:` naming its photo,
    which is linked beside it (copied where a link cannot be made)."""
    os.makedirs(folder)
    pick = generate.Picker(seed)
    for number in range(1, count + 1):
        _, text = generate.make_entry(pick, number)
        name = next(line for line in text.split("\n") if line.startswith("name: "))[6:]
        alt = generate.yaml_string("A photo of the " + name[1:-1].replace('\\"', '"'))
        photo = camera.name_of(number)
        closing = text.index("\n---\n", 3)
        text = text[:closing] + f"\nimage: {{src: {photo}, alt: {alt}}}" + text[closing:]
        with open(os.path.join(folder, f"fruit-{number}.md"), "w", encoding="utf-8") as file:
            file.write(text)
        source, target = os.path.join(photos, photo), os.path.join(folder, photo)
        try:
            os.link(source, target)
        except OSError:
            shutil.copyfile(source, target)


def read_through(folder):
    """Reads every file of `folder` once, so that each generator finds the photos in the page
    cache; returns the bytes read."""
    total = 0
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), "rb") as file:
            while chunk := file.read(1 << 20):
                total += len(chunk)
    return total


def hugo_site(work, catalog, templates):
    """A copy of Benchmarks/hugo with a second config file: the catalog's entries as content,
    its photos as assets, the theme's assets, a resource folder in `work` and the pictures'
    settings. Returns (site folder, config argument, resource folder)."""
    site = os.path.join(work, "hugo-site")
    shutil.copytree(os.path.join(BENCHMARKS, "hugo"), site)
    resources = os.path.join(work, "hugo-resources")
    formats = [("webp", "image/webp", WEBP_QUALITY), ("jpg", "image/jpeg", JPEG_QUALITY)]
    overlay = os.path.join(work, "hugo-pictures.yaml")
    with open(overlay, "w", encoding="utf-8") as file:
        file.write(
            "module:\n  mounts:\n"
            f"    - {{source: {catalog}, target: content/fruits, excludeFiles: '*.jpg'}}\n"
            f"    - {{source: {catalog}, target: assets/photos, includeFiles: '*.jpg'}}\n"
            "    - {source: layouts, target: layouts}\n"
            f"    - {{source: {os.path.join(templates, 'assets')}, target: static/assets}}\n"
            f"resourceDir: {resources}\n"
            f"imaging: {{quality: {WEBP_QUALITY}}}\n"
            f"params:\n  pictures:\n    widths: {WIDTHS}\n    formats:\n"
            + "".join(f"      - {{name: {name}, type: {kind}, quality: {quality}}}\n"
                      for name, kind, quality in formats))
    return site, f"{site}/hugo.yaml,{overlay}", resources


def fruitsite_config(work, name, images):
    """A config file with Hugo's base URL and `images` as given (None: the defaults)."""
    path = os.path.join(work, f"fruitsite-{name}.yml")
    with open(path, "w", encoding="utf-8") as file:
        file.write("baseURL: https://example.org/\n" + (f"images: {images}\n" if images else ""))
    return path


# MARK: - Running builds


def timed(command, cwd):
    """Runs `command`; returns (wall s, CPU s, peak RSS MiB, standard error)."""
    with tempfile.NamedTemporaryFile("r", prefix="time-", suffix=".txt") as timing:
        start = time.perf_counter()
        result = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", timing.name, *command],
                                cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        report = timing.read().split()
    errors = result.stderr.decode(errors="replace")
    if result.returncode != 0:
        raise BuildFailed(f"exit status {result.returncode}: {' '.join(command)}\n"
                          + result.stdout.decode(errors="replace")[-3000:] + errors[-3000:])
    rss_kib, user, system = report[-3:]
    return wall, float(user) + float(system), int(rss_kib) / 1024, errors


def pictures_in(folder):
    """{format: (files, bytes)} of the pictures under `folder`."""
    found = {}
    for parent, _, files in os.walk(folder):
        for name in files:
            kind = PICTURE_TYPES.get(os.path.splitext(name)[1].lower())
            if kind:
                count, size = found.get(kind, (0, 0))
                found[kind] = (count + 1, size + os.path.getsize(os.path.join(parent, name)))
    return found


class Row:
    """One line of the table: a build's runs, and what its output held."""

    def __init__(self, label):
        self.label = label
        self.walls, self.cpus, self.memories = [], [], []
        self.pictures = None  # {format: (files, bytes)}, from the first run's output
        self.notes = []  # what fruitsite --verbose said, first run

    def add(self, wall, cpu, memory):
        self.walls.append(wall)
        self.cpus.append(cpu)
        self.memories.append(memory)


def clear(*paths):
    for path in paths:
        shutil.rmtree(path, ignore_errors=True)


# MARK: - The table


def print_table(rows, count, runs, baseline):
    print()
    print(f"Pictures: N = {count:,} photos of 4000 x 3000, median of {runs} run(s), catalog on"
          " the disk (read once before), output and caches on tmpfs; load average"
          f" {os.getloadavg()[1]:.2f} over the last 5 minutes")
    print(f"  {'build':<50} {'wall s':>8} {'min-max s':>13} {'CPU s':>8} {'peak MiB':>9}"
          f" {'files/photo':>11} {'KiB/photo':>10} {'time/Hugo':>10} {'CPU/Hugo':>9}"
          f" {'mem/Hugo':>9}")
    hugo = rows.get(baseline)
    for row in rows.values():
        wall, memory = statistics.median(row.walls), statistics.median(row.memories)
        files = sum(n for n, _ in row.pictures.values()) / count if row.pictures else 0
        size = sum(b for _, b in row.pictures.values()) / count / 1024 if row.pictures else 0
        cpu = statistics.median(row.cpus)
        ratios = (f"{wall / statistics.median(hugo.walls):>9.3f}x"
                  f" {cpu / statistics.median(hugo.cpus):>8.3f}x"
                  f" {memory / statistics.median(hugo.memories):>8.3f}x" if hugo else "")
        span = f"{min(row.walls):.2f}-{max(row.walls):.2f}"
        print(f"  {row.label:<50} {wall:>8.2f} {span:>13} {cpu:>8.2f}"
              f" {memory:>9.0f} {files:>11.2f} {size:>10.1f} {ratios}")
    print("  Per format, files and KiB per photo:")
    for row in rows.values():
        if row.pictures and row.label.endswith("cold"):
            formats = ", ".join(f"{kind} {files / count:g} files {size / count / 1024:.1f} KiB"
                                for kind, (files, size) in sorted(row.pictures.items()))
            print(f"    {row.label}: {formats}")
    for row in rows.values():
        if row.notes:
            print(f"  {row.label}, --verbose: {'; '.join(row.notes)}")
    widths = ", ".join(map(str, WIDTHS))
    for line in [
        "Hugo (`.Resize` in Benchmarks/hugo/layouts/partials/picture.html) decodes each photo",
        f"once a variant with Go's decoder and writes {len(WIDTHS)} widths ({widths}) as WebP",
        f"q{WEBP_QUALITY} and as JPEG q{JPEG_QUALITY}, with its default box filter, and no"
        " placeholder.",
        "fruitsite (libvips: shrink-on-load, then Lanczos) writes the same widths and qualities",
        "with formats: [webp], as its JPEG fallback is always written, plus a placeholder inlined",
        "in the page; with its defaults, AVIF (q50, effort 3) too. Both drop the EXIF; neither",
        "rotates (the photos say Orientation 1).",
        "Cold: Hugo without resources/_gen, fruitsite without its cache folder. 'kept' and",
        "'nothing changed': the same catalog again into the same output, those kept. Ratios are",
        "against Hugo's cold build.",
    ]:
        print("  " + line)
    sys.stdout.flush()


# MARK: - Main


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200, help="photos and entries")
    parser.add_argument("--runs", type=int, help="runs of each build (default 3, 1 from 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fruitsite", default=os.path.join(ROOT, ".build/release/fruitsite"))
    parser.add_argument("--templates", default=os.path.join(ROOT, "Templates"))
    parser.add_argument("--cache", default=camera.default_cache(),
                        help="where the photos are kept between runs (and the catalog built)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                        help="photos made at a time")
    parser.add_argument("--only", choices=["hugo", "fruitsite"],
                        help="build with one generator alone")
    parser.add_argument("--tmpfs", default="/dev/shm", help="where outputs and caches go")
    args = parser.parse_args(argv)
    runs = args.runs or (1 if args.count >= 100 else 3)
    templates = os.path.abspath(args.templates)

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    # A cache of variants shared between builds would make fruitsite's cold builds warm.
    os.environ.pop("FRUITSITE_PICTURE_CACHE", None)
    photos = camera.ensure_photos(args.count, args.seed, args.cache, args.jobs, log=log)
    # The catalog beside the photos, on their file system, so that its photos are links.
    catalog_parent = tempfile.mkdtemp(prefix="catalog-", dir=args.cache)
    work = tempfile.mkdtemp(prefix="fruitsite-pictures-", dir=args.tmpfs)
    try:
        describe_machine(args.fruitsite)
        catalog = os.path.join(catalog_parent, "Content")
        write_catalog(catalog, photos, args.count, args.seed)
        start = time.perf_counter()
        size = read_through(catalog)
        log(f"catalog {catalog}: {args.count} entries and {size / 2**20:,.0f} MiB of photos,"
            f" read in {time.perf_counter() - start:.1f} s")

        builds = []  # (cold row, rebuild row, command, output, caches)
        if args.only != "fruitsite":
            site, config, resources = hugo_site(work, catalog, templates)
            output, cache = os.path.join(work, "hugo-out"), os.path.join(work, "hugo-cache")
            command = ["hugo", "--source", site, "--config", config, "--destination", output,
                       "--cacheDir", cache, "--noBuildLock", "--quiet"]
            builds.append((Row("Hugo WebP+JPEG, cold"), Row("Hugo WebP+JPEG, resources/_gen kept"),
                           command, output, [resources, cache]))
        if args.only != "hugo":
            binary = os.path.join(work, "fruitsite")
            shutil.copy2(args.fruitsite, binary)  # a rebuild meanwhile cannot change it
            for name, images, label in [
                    ("webp", f"{{widths: {WIDTHS}, formats: [webp]}}", "WebP+JPEG"),
                    ("default", None, "defaults AVIF+WebP+JPEG")]:
                output = os.path.join(work, f"fruitsite-{name}-out")
                cache = os.path.join(work, f"fruitsite-{name}-cache")
                command = [binary, "build", "--content", catalog, "--templates", templates,
                           "--config", fruitsite_config(work, name, images), "--output", output,
                           "--cache-dir", cache, "--verbose"]
                builds.append((Row(f"fruitsite {label}, cold"),
                               Row(f"fruitsite {label}, nothing changed"), command, output,
                               [cache]))

        for run in range(1, runs + 1):
            for cold, again, command, output, caches in builds:
                clear(output, *caches)
                for row in (cold, again):
                    wall, cpu, memory, said = timed(command, work)
                    row.add(wall, cpu, memory)
                    if row.pictures is None:
                        row.pictures = pictures_in(output)
                        # What it parsed, rendered and wrote, and any word of its pictures.
                        row.notes = [line.strip().removeprefix("note: ")
                                     for line in said.splitlines() if "--verbose" in command
                                     and ("note:" in line or "picture" in line.lower())][:4]
                    log(f"[{run}/{runs}] {row.label}: {wall:.2f} s, {cpu:.2f} s CPU,"
                        f" {memory:.0f} MiB")
                clear(output, *caches)
        rows = {row.label: row for cold, again, *_ in builds for row in (cold, again)}
        print_table(rows, args.count, runs, "Hugo WebP+JPEG, cold")
    except BuildFailed as failure:
        print(f"\nerror: {failure}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(catalog_parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
