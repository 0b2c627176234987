#!/usr/bin/env python3
"""Writes a synthetic fruit catalog: N Markdown entries with YAML front matter.

    python3 Benchmarks/generate.py --count 10000 --seed 1 --out /dev/shm/catalog

Each entry is `OUT/<slug>.md` with `name`, `emoji`, `category` and `vitamins` (a string or a
list), sometimes `origin`, `season` and `tagline`, and a body of about 200 words: headings,
emphasis, lists, links and now and then a quote or inline code. There are 12 categories; some
names have accents and a few are CJK. The slug is the name made ASCII plus the entry's number,
so slugs are unique. The same count and seed give byte-identical files.

The entries are streamed: one is built and written at a time, so a million entries take no more
memory than ten. Randomness comes from `random.Random(seed).random()` only, whose sequence for
an integer seed is the same on every Python 3 release.
"""

import argparse
import os
import random
import sys
import unicodedata

# MARK: - Vocabulary

# Category → (emoji choices, base names). Some names are non-ASCII on purpose.
CATEGORIES = [
    ("Citrus", ["🍋", "🍊"], ["Lemon", "Lime", "Orange", "Mandarin", "Grapefruit", "Yuzu",
                             "Kumquat", "Bergamot", "Pomelo", "Mikan みかん", "Cédrat"]),
    ("Berries", ["🍓", "🫐"], ["Strawberry", "Raspberry", "Blueberry", "Blackberry", "Cranberry",
                              "Gooseberry", "Açaí", "Åkerbär", "Myrtille", "Lingonberry"]),
    ("Pome Fruits", ["🍎", "🍏", "🍐"], ["Apple", "Pear", "Quince", "Medlar", "Nèfle", "Loquat",
                                         "Elma", "Nashi 梨"]),
    ("Stone Fruits", ["🍑", "🍒"], ["Peach", "Plum", "Cherry", "Apricot", "Nectarine", "Pêche",
                                   "Süßkirsche", "Kayısı", "Mirabelle", "Greengage"]),
    ("Tropical", ["🍍", "🥭", "🍌", "🥥"], ["Mango", "Pineapple", "Banana", "Papaya", "Guava",
                                          "Passion Fruit", "Maracujá", "Ananás", "Coconut"]),
    ("Melons", ["🍈", "🍉"], ["Cantaloupe", "Honeydew", "Watermelon", "Galia", "Casaba",
                            "Kiwano", "Charentais"]),
    ("Grapes & Vines", ["🍇"], ["Grape", "Muscat", "Concord", "Sultana", "Kiwi", "Raisin de Corinthe",
                               "Moscatel"]),
    ("Figs & Mulberries", ["🌳"], ["Fig", "Mulberry", "Breadfruit", "Jackfruit", "Sycamore Fig",
                                  "İncir"]),
    ("Exotic", ["🐉", "🌺"], ["Durian", "Rambutan", "Lychee", "Longan", "Mangosteen", "Salak",
                            "Pitaya", "Cherimoya", "Lúcuma", "龍眼"]),
    ("Wild & Foraged", ["🌿", "🍂"], ["Elderberry", "Rowan", "Sloe", "Rosehip", "Hawthorn",
                                     "Weißdorn", "Cloudberry", "Bilberry"]),
    ("Dried Fruits", ["🌞"], ["Date", "Prune", "Currant", "Dried Apricot", "Dried Fig", "Raisin"]),
    ("Fruits d'été", ["☀️", "🌻"], ["Groseille", "Cassis", "Framboise", "Mûre", "Brugnon",
                                   "Reine-claude"]),
]

ADJECTIVES = [
    "Golden", "Red", "Black", "White", "Wild", "Early", "Late", "Sweet", "Royal", "Crimson",
    "Snow", "Sun", "Alpine", "Honey", "Ruby", "Velvet", "Giant", "Dwarf", "Winter", "Summer",
    "Autumn", "Blush", "Amber", "Emerald", "Silver", "Morning", "Midnight", "Coral", "Ivory",
    "Belle", "Reine", "Petite", "Grande", "Doré", "Süß", "Nordic", "Mountain", "River",
]
VARIETY_SUFFIXES = ["", "", "", " Supreme", " No. 2", " Select", " Heritage", " Nova"]
VITAMINS = ["A", "B1", "B2", "B3", "B5", "B6", "B9", "C", "E", "K"]
ORIGINS = ["Central Asia", "Southeast Asia", "the Mediterranean", "South America", "West Africa",
           "the Andes", "China", "India", "Persia", "Mexico", "Brazil", "Japan", "Anatolia",
           "the Caucasus", "Madagascar", "Queensland", "Sicily", "Andalucía"]
SEASONS = ["Spring", "Summer", "Autumn", "Winter", "Late summer", "All year"]

# Body material. `{name}`, `{base}` and `{origin}` are filled in per entry.
SENTENCES = [
    "The {name} is grown mostly in {origin}, where it ripens slowly on small, well-drained plots.",
    "Growers prize the {name} for its _fragrant_ flesh and its thin, easily peeled skin.",
    "A ripe {base} gives slightly under the thumb and smells sweet at the stem end.",
    "Unlike most of its relatives, the {name} keeps well for several weeks in a cool cellar.",
    "Its flavour is often described as **bright and honeyed**, with a faint note of spice.",
    "In markets across {origin} it is sold by the basket, still warm from the afternoon sun.",
    "Botanists place the {base} close to several wild species that still grow in {origin}.",
    "The trees are *self-fertile*, but yields rise noticeably when bees are kept nearby.",
    "Cooks use the {name} in jams, sorbets and savoury sauces for roast meat.",
    "Harvest usually begins in the warmest weeks, once the fruit colours evenly.",
    "The seeds are small and soft, so the whole fruit can be eaten without fuss.",
    "Older orchards in {origin} still hold trees planted more than a century ago.",
    "It was first described in print in an 18th-century herbal, under a longer Latin name.",
    "The juice is **high in acidity**, which balances the natural sugars in desserts.",
    "Pickers work early in the morning, while the fruit is still cool and firm.",
    "Dried slices of {base} are a common snack on long winter evenings.",
    "The leaves are broad and glossy, and the blossom appears before them in spring.",
    "Some varieties of {base} are grown only for their scent, not for eating.",
    "A single mature tree can bear several hundred kilograms of fruit in a good year.",
    "The name comes from a regional word meaning \"little sun\", a nod to its colour.",
    "Frost is the main risk: a cold night at flowering time can cost a whole crop.",
    "Seedlings rarely resemble their parents, so growers graft known varieties instead.",
    "In traditional medicine the peel was steeped in hot water and drunk as a tonic.",
    "Today the {name} is exported mainly by sea, in ships kept at a steady cool temperature.",
]
HEADINGS = ["Growing", "Harvest", "Nutrition", "In the kitchen", "History", "Varieties",
            "Storage", "Flavour"]
LIST_ITEMS = [
    "Eat it fresh, sliced, with a little salt",
    "Bake it into a tart with **brown butter**",
    "Simmer it down into a thick _compote_",
    "Press it for juice and serve it chilled",
    "Dry thin slices in a low oven overnight",
    "Add it to a green salad with toasted nuts",
    "Pickle the unripe fruit with chili and sugar",
    "Freeze the pulp for sorbet later in the year",
    "Grill halves until the edges caramelize",
    "Pair it with a soft, mild cheese",
]
LINKS = [
    ("the FAO statistics", "https://www.fao.org/faostat/en/"),
    ("a growing guide", "https://www.rhs.org.uk/fruit"),
    ("the USDA nutrient database", "https://fdc.nal.usda.gov/"),
    ("its encyclopedia entry", "https://en.wikipedia.org/wiki/Fruit"),
    ("a regional cookbook", "https://example.org/recipes?fruit=1&lang=en"),
]
QUOTES = [
    "> The best fruit is the one eaten under the tree it grew on.",
    "> Plant for your grandchildren, and harvest for your neighbours.",
]


# MARK: - Slugs, YAML and randomness

def ascii_slug(text):
    """Lowercase ASCII letters and digits joined by single hyphens; accents dropped, ß → ss."""
    decomposed = unicodedata.normalize("NFKD", text.replace("ß", "ss"))
    out = []
    pending = False
    for char in decomposed.lower():
        if unicodedata.combining(char):
            continue
        if ("a" <= char <= "z") or ("0" <= char <= "9"):
            if pending and out:
                out.append("-")
            pending = False
            out.append(char)
        else:
            pending = True
    return "".join(out)


def yaml_string(text):
    """A double-quoted YAML scalar (always quoted, so `No. 2` or `d'été` stay strings)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Picker:
    """Deterministic choices built only on `random.random()`."""

    def __init__(self, seed):
        self.random = random.Random(seed).random

    def index(self, count):
        return int(self.random() * count)

    def choice(self, items):
        return items[int(self.random() * len(items))]

    def chance(self, probability):
        return self.random() < probability

    def sample(self, items, count):
        """`count` distinct items, in the order of `items`."""
        chosen = set()
        while len(chosen) < count:
            chosen.add(int(self.random() * len(items)))
        return [items[i] for i in sorted(chosen)]


# MARK: - Entries

def paragraphs(pick, names, sizes):
    """Paragraphs of distinct sentences, `sizes[i]` sentences in paragraph i."""
    sentences = [s.format(**names) for s in pick.sample(SENTENCES, sum(sizes))]
    pick_order = [sentences.pop(pick.index(len(sentences))) for _ in range(sum(sizes))]
    out, start = [], 0
    for size in sizes:
        out.append(" ".join(pick_order[start:start + size]))
        start += size
    return out


def make_entry(pick, number):
    """Returns (slug, file text) for entry `number` (1-based)."""
    category, emojis, bases = CATEGORIES[pick.index(len(CATEGORIES))]
    base = pick.choice(bases)
    name = f"{pick.choice(ADJECTIVES)} {base}{pick.choice(VARIETY_SUFFIXES)}"
    slug_base = ascii_slug(name) or "fruit"
    slug = f"{slug_base}-{number}"
    origin = pick.choice(ORIGINS)

    lines = ["---", f"name: {yaml_string(name)}"]
    if not pick.chance(0.05):  # a few entries have no emoji
        lines.append(f"emoji: {pick.choice(emojis)}")
    lines.append(f"category: {yaml_string(category)}")
    vitamins = pick.sample(VITAMINS, 1 + pick.index(3))
    if pick.chance(0.5):
        lines.append(f"vitamins: {', '.join(vitamins)}")
    else:
        lines.append(f"vitamins: [{', '.join(vitamins)}]")
    if pick.chance(0.6):
        lines.append(f"origin: {yaml_string(origin)}")
    if pick.chance(0.4):
        lines.append(f"season: {pick.choice(SEASONS)}")
    if pick.chance(0.3):
        lines.append(f"tagline: {yaml_string(f'A {base.lower()} from {origin}')}")
    lines.append("---")

    names = {"name": name, "base": base, "origin": origin}
    headings = pick.sample(HEADINGS, 2)
    label, url = pick.choice(LINKS)
    first, second, third = paragraphs(pick, names, (3, 3, 4))
    body = [
        first,
        "",
        f"## {headings[0]}",
        "",
        second + f" See [{label}]({url}) for figures by country.",
        "",
    ]
    for item in pick.sample(LIST_ITEMS, 3 + pick.index(3)):
        body.append(f"- {item}")
    body += ["", f"## {headings[1]}", "", third]
    if pick.chance(0.25):
        body += ["", pick.choice(QUOTES)]
    if pick.chance(0.15):
        body += ["", f"Store it below `{4 + pick.index(8)} °C`, away from bananas."]
    if pick.chance(0.3):
        body += ["", "1. Rinse the fruit", "2. Cut it *lengthwise*", "3. Serve within the hour"]
    return slug, "\n".join(lines + body) + "\n"


# MARK: - Main

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, required=True, help="number of entries")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--out", required=True, help="folder to write into (created)")
    args = parser.parse_args(argv)
    if args.count < 0:
        parser.error("--count must be at least 0")

    os.makedirs(args.out, exist_ok=True)
    pick = Picker(args.seed)
    for number in range(1, args.count + 1):
        slug, text = make_entry(pick, number)
        with open(os.path.join(args.out, slug + ".md"), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
