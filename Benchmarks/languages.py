#!/usr/bin/env python3
"""A catalog in one language and in three: what each additional language costs.

    python3 Benchmarks/languages.py --binary .build/release/fruitsite [--count 10000] [--runs 5]

Generates a catalog (generate.py), then a copy with every entry translated into French and
Arabic (`<slug>.fr.md`, `<slug>.ar.md`: the name and category reworded, so that each language
has its own order and category pages), and builds each clean into a tmpfs, the two alternated,
`--runs` times, with the French and the Arabic entries each built alone as a site in one
language. Prints the median wall time, CPU time (user + system) and peak memory of each, and
the ratios against the targets: three languages in at most 3.2 times the time of one, and at
most twice its peak memory; and against the three sites in one language added up, which is
what the languages' own pages cost. Then what a visitor's first query downloads on each language's
pages (search/transfer.mjs, given the language's folder alone, so a file of another language's
index could not be fetched), when Node.js is there.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402

LANGUAGES = [("fr", "Catalogue de fruits", "Le {}", "{} (fr)"),
             ("ar", "كتالوج الفواكه", "فاكهة {}", "فئة {}")]


def write_catalog(folder, count, seed, translated, only=None):
    """Writes `count` entries into `folder`, and their translations when `translated`; or,
    with `only`, that language's translations alone, as a site in that one language."""
    os.makedirs(folder)
    pick = generate.Picker(seed)
    for number in range(1, count + 1):
        slug, text = generate.make_entry(pick, number)
        if only is None:
            with open(os.path.join(folder, slug + ".md"), "w", encoding="utf-8") as file:
                file.write(text)
        if not translated and only is None:
            continue
        for code, _, name_form, category_form in LANGUAGES:
            if only is not None and code != only:
                continue
            lines = text.split("\n")
            for index, line in enumerate(lines):
                if line.startswith("name: "):
                    name = line[len("name: "):].strip('"')
                    lines[index] = "name: " + generate.yaml_string(name_form.format(name))
                elif line.startswith("category: "):
                    category = line[len("category: "):].strip('"')
                    lines[index] = "category: " + generate.yaml_string(
                        category_form.format(category))
            name = f"{slug}.md" if only else f"{slug}.{code}.md"
            with open(os.path.join(folder, name), "w", encoding="utf-8") as file:
                file.write("\n".join(lines))


def config(translated, language="en"):
    text = "baseURL: https://example.org/\n"
    if not translated:
        return text + f"language: {language}\n"
    text += "languages:\n  - code: en\n    title: Fruit Catalog\n"
    for code, title, _, _ in LANGUAGES:
        text += f"  - code: {code}\n    title: {generate.yaml_string(title)}\n"
    return text


def build(binary, project, output):
    """One clean build: wall seconds, CPU seconds and peak memory in MiB."""
    shutil.rmtree(output, ignore_errors=True)
    shutil.rmtree(os.path.join(project, ".cache"), ignore_errors=True)
    result = subprocess.run(
        ["/usr/bin/time", "-f", "%e %U %S %M", binary, "build", "--quiet",
         "--content", os.path.join(project, "Content"),
         "--templates", os.path.join(HERE, "..", "Templates"),
         "--config", os.path.join(project, "fruitsite.yml"),
         "--output", output, "--cache-dir", os.path.join(project, ".cache")],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    if result.returncode != 0:
        sys.exit(f"the build failed:\n{result.stderr}")
    wall, user, system, memory = result.stderr.strip().split("\n")[-1].split()
    return float(wall), float(user) + float(system), int(memory) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    work = tempfile.mkdtemp(prefix="fruitsite-languages-", dir="/dev/shm")
    try:
        projects = {}
        sites = [("1 language", False, None), ("3 languages", True, None)] + [
            (f"{code} alone", False, code) for code, *_ in LANGUAGES]
        for label, translated, only in sites:
            project = os.path.join(work, label.replace(" ", "-"))
            write_catalog(os.path.join(project, "Content"), args.count, args.seed, translated,
                          only)
            with open(os.path.join(project, "fruitsite.yml"), "w", encoding="utf-8") as file:
                file.write(config(translated, only or "en"))
            projects[label] = project
        figures = {label: [] for label in projects}
        build(binary, projects["1 language"], os.path.join(work, "warm-up"))
        for _ in range(args.runs):
            for label, project in projects.items():
                figures[label].append(build(binary, project, os.path.join(project, "Output")))
        print(f"\nA catalog of {args.count:,} fruits in one language and in three "
              f"(clean builds on tmpfs, median of {args.runs}):\n")
        print("| | wall | CPU | peak memory |")
        print("| --- | --- | --- | --- |")
        medians = {}
        for label, runs in figures.items():
            medians[label] = [statistics.median(run[index] for run in runs) for index in range(3)]
            wall, cpu, memory = medians[label]
            print(f"| {label} | {wall:.2f} s | {cpu:.2f} s | {memory:.1f} MiB |")
        one, three = medians["1 language"], medians["3 languages"]
        alone = [sum(medians[label][index] for label in medians if label != "3 languages")
                 for index in range(2)]
        print(f"| three sites in one language each, added up | {alone[0]:.2f} s "
              f"| {alone[1]:.2f} s | |")
        print(f"| 3 languages against 1 | {three[0] / one[0]:.2f}× (target ≤ 3.2×) "
              f"| {three[1] / one[1]:.2f}× | {three[2] / one[2]:.2f}× (target ≤ 2×) |")
        print(f"| 3 languages against the three sites added up | {three[0] / alone[0]:.2f}× "
              f"| {three[1] / alone[1]:.2f}× | |")
        if shutil.which("node"):
            output = os.path.join(projects["3 languages"], "Output")
            folders = [output] + [os.path.join(output, code) for code, *_ in LANGUAGES]
            transfer = subprocess.run(
                ["node", os.path.join(HERE, "search", "transfer.mjs")] + folders,
                stdout=subprocess.PIPE, check=True)
            print("\nA visitor's first query on each language's pages, its folder alone served "
                  "(gzipped KB, median over search/transfer.mjs's queries):\n")
            print("| language | median | largest |")
            print("| --- | --- | --- |")
            for code, site in zip(["en"] + [code for code, *_ in LANGUAGES],
                                  json.loads(transfer.stdout)):
                sizes = [query["gzip"] / 1000 for query in site["queries"]]
                print(f"| {code} | {statistics.median(sizes):.1f} KB | {max(sizes):.1f} KB |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
