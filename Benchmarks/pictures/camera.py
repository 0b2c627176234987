#!/usr/bin/env python3
"""Writes N camera-like photos: 12-megapixel JPEGs (4000 × 3000) with a camera's EXIF.

    python3 Benchmarks/pictures/camera.py --count 1000 --seed 1 [--cache DIR] [--jobs 2]

Prints the folder that holds `fruit-1.jpg` … `fruit-N.jpg`: `<cache>/n<N>-seed<S>`, by default
under ~/.cache/fruitsite-bench (or $XDG_CACHE_HOME). A photo already there is kept, so a second
run with the same N and seed writes nothing; one in another folder of the same seed is linked,
as photo i depends on the seed and i alone.

The pixels come from the `vips` command (libvips-tools), as photos.sh makes them: Perlin noise
at three scales (light and colour over large areas, shapes, texture) plus sensor grain, each
photo with its own seeds, one of photos.sh's four looks (orchard, apple, leaves, studio) and a
base colour of its own, saved at quality 92 with 4:2:0 chroma as cameras save. The grain is a
1000 × 750 tile repeated, which costs a sixth of full-size noise and looks the same to an
encoder. Then exif.py adds Make, Model, DateTimeOriginal, Orientation 1 and GPS coordinates.
Each photo is written under a temporary name and renamed, so an interrupted run leaves no
half photo.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exif import Camera, with_exif  # noqa: E402

WIDTH, HEIGHT = 4000, 3000
GRAIN_TILE = (1000, 750)  # repeated 4 × 4
# photos.sh's looks: base colour, then the gain of the large, middle and fine octaves (R G B),
# then the grain's deviation.
LOOKS = [
    ("orchard", (120, 140, 110), (60, 50, 90), (35, 45, 20), (12, 14, 8), 3),
    ("apple", (170, 70, 50), (110, 60, 30), (25, 15, 10), (4, 3, 2), 2),
    ("leaves", (70, 120, 60), (40, 60, 30), (50, 70, 35), (30, 40, 20), 4),
    ("studio", (200, 190, 180), (50, 50, 50), (10, 10, 10), (2, 2, 2), 1.5),
]
CAMERAS = [
    ("FUJIFILM", "X-T30"), ("Canon", "Canon EOS 90D"), ("NIKON CORPORATION", "NIKON Z 5"),
    ("SONY", "ILCE-6400"), ("OLYMPUS CORPORATION", "E-M10MarkIII"), ("Panasonic", "DC-G9"),
]
# Where the orchards are: (latitude, longitude, altitude in metres).
PLACES = [(44.05, 4.97, 120), (-33.92, 18.86, 210), (36.60, -121.90, 30), (35.40, 138.73, 850),
          (38.43, 27.14, 25), (-37.81, 144.96, 40), (46.50, 11.35, 260), (19.43, -99.13, 2240)]


def photo_random(seed, number):
    """The choices of photo `number`: the same on every run and Python 3 release."""
    return random.Random(f"photo {seed} {number}")


def camera_of(seed, number):
    """What photo `number`'s EXIF says."""
    pick = photo_random(seed, number)
    make, model = pick.choice(CAMERAS)
    latitude, longitude, altitude = pick.choice(PLACES)
    taken = (f"{pick.randint(2015, 2025)}:{pick.randint(1, 12):02}:{pick.randint(1, 28):02}"
             f" {pick.randint(6, 19):02}:{pick.randint(0, 59):02}:{pick.randint(0, 59):02}")
    return Camera(
        make=make, model=model, taken=taken, latitude=latitude + pick.uniform(-0.05, 0.05),
        longitude=longitude + pick.uniform(-0.05, 0.05), altitude=altitude + pick.uniform(0, 50),
        width=WIDTH, height=HEIGHT, exposure=(1, pick.choice([60, 125, 250, 500, 1000])),
        f_number=(pick.choice([28, 40, 56, 80, 110]), 10), iso=pick.choice([100, 200, 400, 800]),
        focal_length=(pick.choice([23, 35, 50, 85]), 1))


# One thread per `vips`: the photos run side by side, one per CPU.
ONE_THREAD = dict(os.environ, VIPS_CONCURRENCY="1")


def vips(*arguments):
    subprocess.run(["vips", *map(str, arguments)], check=True, stdout=subprocess.DEVNULL,
                   env=ONE_THREAD)


def make_photo(seed, number, path, scratch):
    """Writes photo `number` to `path`, using the empty folder `scratch` for the steps."""
    pick = photo_random(seed, number)
    _, base, large, middle, fine, grain = pick.choice(LOOKS)
    base = [min(235, max(20, channel + pick.randint(-20, 20))) for channel in base]
    first = pick.randrange(1 << 30)
    seeds = iter(range(first, first + 8))
    step = lambda name: os.path.join(scratch, name + ".v")  # noqa: E731
    octaves = []
    for name, cell in (("large", WIDTH // 4), ("middle", WIDTH // 24), ("fine", 6)):
        vips("perlin", step(name), WIDTH, HEIGHT, "--cell-size", cell, "--seed", next(seeds))
        octaves.append(step(name))
    vips("gaussnoise", step("tile"), *GRAIN_TILE, "--mean", 0, "--sigma", grain, "--seed",
         next(seeds))
    vips("replicate", step("tile"), step("grain"), WIDTH // GRAIN_TILE[0],
         HEIGHT // GRAIN_TILE[1])
    vips("bandjoin", " ".join(octaves + [step("grain")]), step("bands"))
    # Each output channel: the octaves at their gains for that channel, plus the grain.
    with open(os.path.join(scratch, "mix.mat"), "w", encoding="ascii") as matrix:
        matrix.write("4 3\n" + "".join(
            f"{large[c]} {middle[c]} {fine[c]} 1\n" for c in range(3)))
    vips("recomb", step("bands"), step("mixed"), os.path.join(scratch, "mix.mat"))
    vips("linear", step("mixed"), step("photo"), "1 1 1", " ".join(map(str, base)), "--uchar")
    pixels = os.path.join(scratch, "photo.jpg")
    vips("jpegsave", step("photo"), pixels, "--Q", 92, "--subsample-mode", "on", "--strip")
    with open(pixels, "rb") as file:
        jpeg = with_exif(file.read(), camera_of(seed, number))
    partial = path + ".partial"
    with open(partial, "wb") as file:
        file.write(jpeg)
    os.replace(partial, path)
    for name in os.listdir(scratch):
        os.remove(os.path.join(scratch, name))


def default_cache():
    root = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(root, "fruitsite-bench")


def photo_folder(cache, count, seed):
    return os.path.join(cache, f"n{count}-seed{seed}")


def name_of(number):
    return f"fruit-{number}.jpg"


def link_from_siblings(cache, seed, folder, number):
    """Links photo `number` from another folder of the same seed; True when one was there."""
    suffix = f"-seed{seed}"
    for sibling in sorted(os.listdir(cache)):
        source = os.path.join(cache, sibling, name_of(number))
        if sibling.endswith(suffix) and source != os.path.join(folder, name_of(number)) \
                and os.path.exists(source):
            os.link(source, os.path.join(folder, name_of(number)))
            return True
    return False


def ensure_photos(count, seed, cache=None, jobs=2, log=print):
    """The folder of photos 1 … `count` of `seed`, making those that are missing, `jobs` at a
    time (each `vips` on one thread)."""
    cache = cache or default_cache()
    folder = photo_folder(cache, count, seed)
    os.makedirs(folder, exist_ok=True)
    missing = [number for number in range(1, count + 1)
               if not os.path.exists(os.path.join(folder, name_of(number)))
               and not link_from_siblings(cache, seed, folder, number)]
    if not missing:
        return folder
    log(f"making {len(missing)} of {count} photos into {folder}, {jobs} at a time")
    scratch_root = tempfile.mkdtemp(prefix="fruitsite-photos-",
                                    dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    start, done = time.perf_counter(), 0

    def one(number):
        scratch = tempfile.mkdtemp(dir=scratch_root)
        try:
            make_photo(seed, number, os.path.join(folder, name_of(number)), scratch)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for _ in pool.map(one, missing):
                done += 1
                if done % 50 == 0 or done == len(missing):
                    elapsed = time.perf_counter() - start
                    log(f"  {done}/{len(missing)} photos in {elapsed:.0f} s"
                        f" ({elapsed / done:.2f} s a photo)")
    finally:
        shutil.rmtree(scratch_root, ignore_errors=True)
    return folder


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, required=True, help="how many photos")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", default=default_cache(), help="where the folders of photos go")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                        help="photos made at a time (default: one per CPU)")
    args = parser.parse_args(argv)
    if shutil.which("vips") is None:
        parser.error("needs the vips command: apt-get install libvips-tools (brew install vips)")
    print(ensure_photos(args.count, args.seed, args.cache, args.jobs,
                        log=lambda line: print(line, file=sys.stderr, flush=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
