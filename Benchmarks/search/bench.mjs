// Search benchmark: a deterministic 100,000-fruit index, its size, JSON parse time and the
// time filterFruits takes per keystroke. `node Benchmarks/search/bench.mjs [count]` prints
// JSON; bench.html runs the same code in a browser.
import { filterFruits, fold } from '../../Templates/assets/fruit-filter.js';

// MARK: - Index

// Base fruits by category; some names are non-ASCII on purpose (NFC, as the generator writes).
const CATALOG = {
  Citrus: ['Lemon', 'Lime', 'Orange', 'Mandarin', 'Grapefruit', 'Yuzu', 'Kumquat', 'Bergamot',
    'Pomelo', 'Mikan みかん'],
  Berry: ['Strawberry', 'Raspberry', 'Blueberry', 'Blackberry', 'Cranberry', 'Gooseberry', 'Açaí',
    'Åkerbär', 'Myrtille'],
  Pome: ['Apple', 'Pear', 'Quince', 'Medlar', 'Nèfle', 'Loquat', '사과', 'Elma'],
  'Stone fruit': ['Peach', 'Plum', 'Cherry', 'Apricot', 'Nectarine', 'Pêche', 'Süßkirsche',
    'Kayısı', 'Mirabelle'],
  Tropical: ['Mango', 'Pineapple', 'Banana', 'Papaya', 'Guava', 'Passion fruit', 'Ανανάς',
    'Maracujá', 'Ananas'],
  Melon: ['Cantaloupe', 'Honeydew', 'Watermelon', 'Galia melon', 'Casaba', 'Kiwano'],
  Grape: ['Grape', 'Muscat', 'Concord grape', 'Sultana', 'Raisin de Corinthe'],
  'Fig & mulberry': ['Fig', 'Mulberry', 'Σύκο', 'İncir', 'Breadfruit', 'Jackfruit'],
  Exotic: ['Durian', 'Rambutan', 'Lychee', 'Longan', 'Mangosteen', 'Salak', 'Pitaya', 'Cherimoya'],
  Wild: ['Elderberry', 'Rowan', 'Sloe', 'Rosehip', 'Hawthorn', 'Weißdorn', 'Cloudberry'],
  Dried: ['Date', 'Prune', 'Sultana raisin', 'Dried apricot', 'Dried fig'],
  Squash: ['Pumpkin', 'Zucchini', 'Courgette', 'Calabaza', 'Chayote'],
};
const EMOJI = {
  Citrus: '🍋', Berry: '🍓', Pome: '🍎', 'Stone fruit': '🍑', Tropical: '🍍', Melon: '🍈', Grape: '🍇',
};
const ADJECTIVES = ['Golden', 'Red', 'Black', 'White', 'Wild', 'Early', 'Late', 'Sweet', 'Royal',
  'Crimson', 'Snow', 'Sun', 'Alpine', 'Honey', 'Ruby', 'Velvet', 'Giant', 'Dwarf', 'Winter',
  'Summer', 'Autumn', 'Blush', 'Amber', 'Emerald', 'Silver', 'Morning', 'Midnight', 'Coral', 'Ivory',
  'Belle', 'Reine', 'Petite', 'Grande'];
const SYLLABLES = ['ka', 'ri', 'lo', 'ben', 'mar', 'del', 'sa', 'to', 'vin', 'el', 'la', 'mi', 'ro',
  'na', 'cris', 'py', 'ho', 'nu', 've', 'ta', 'zo', 'li', 'an', 'or', 'é', 'ü'];

/** A small deterministic PRNG (mulberry32), so every run measures the same index. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const slugify = (s) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');

// Catalog order, as the generator sorts the index: folded name, then slug, in UTF-8 byte order.
// TextEncoder, not Buffer, so that bench.html runs the same code in a browser.
const encoder = new TextEncoder();

function compareBytes(a, b) {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function inCatalogOrder(fruits) {
  const keyed = fruits.map((fruit) => [
    encoder.encode(fold(fruit.name.normalize())),
    encoder.encode(fruit.slug),
    fruit,
  ]);
  keyed.sort(([nameA, slugA], [nameB, slugB]) =>
    compareBytes(nameA, nameB) || compareBytes(slugA, slugB));
  return keyed.map(([, , fruit]) => fruit);
}

/**
 * Makes a search index in the generator's format 1: `{version, categories, fruits}`, each fruit
 * `{slug, name, emoji, category, vitamins, url}`, in catalog order.
 */
export function makeIndex(count = 100_000, seed = 42) {
  const next = random(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const categories = Object.keys(CATALOG);
  const slugs = new Set();
  const fruits = [];
  for (let i = 0; i < count; i++) {
    const category = pick(categories);
    let cultivar = '';
    for (let n = 2 + Math.floor(next() * 3); n > 0; n--) cultivar += pick(SYLLABLES);
    cultivar = cultivar[0].toUpperCase() + cultivar.slice(1);
    const adjective = next() < 0.6 ? pick(ADJECTIVES) + ' ' : '';
    const name = `${adjective}${cultivar} ${pick(CATALOG[category])}`;
    let slug = slugify(name);
    for (let n = 2; slugs.has(slug); n++) slug = `${slugify(name)}-${n}`;
    slugs.add(slug);
    const vitamins = pick(['', 'C', 'A, C', 'C, K', 'B6, C', 'A, C, E']);
    const emoji = EMOJI[category] ?? '';
    fruits.push({ slug, name, emoji, category, vitamins, url: `fruits/${slug}/` });
  }
  return { version: 1, categories: categories.sort(), fruits: inCatalogOrder(fruits) };
}

// MARK: - Measurements

const now = () => performance.now();
const round = (ms) => Math.round(ms * 1000) / 1000;
const percentile = (samples, p) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

// Typed letter by letter: a common prefix, a long word, a category, non-ASCII, no match.
const WORDS = ['apple', 'straw', 'honeycrisp', 'golden', 'citrus', 'pêche', 'σύκο', 'ş', 'zzqx', 'e'];

/**
 * Runs the benchmark; `gzip(bytes)` returns the compressed size, since Node and browsers
 * compress differently.
 */
export async function run({ count = 100_000, gzip, rounds = 5 } = {}) {
  let started = now();
  const index = makeIndex(count);
  const generateMs = now() - started;
  const json = JSON.stringify(index);
  const raw = new TextEncoder().encode(json).length;
  const leanFruits = index.fruits.map(({ slug, name, category }) => ({ slug, name, category }));
  const lean = new TextEncoder().encode(JSON.stringify({ version: 1, fruits: leanFruits })).length;
  const gzipped = await gzip(json);

  const parseSamples = [];
  let fruits;
  for (let i = 0; i < 5; i++) {
    started = now();
    fruits = JSON.parse(json).fruits;
    parseSamples.push(now() - started);
  }

  // The first search folds every name once and caches the keys.
  started = now();
  filterFruits(fruits, 'a');
  const firstSearchMs = now() - started;

  const keystrokes = [];
  let matches = 0;
  for (let r = 0; r < rounds; r++) {
    for (const word of WORDS) {
      for (let length = 1; length <= word.length; length++) {
        started = now();
        matches = filterFruits(fruits, word.slice(0, length)).length;
        keystrokes.push(now() - started);
      }
    }
  }
  started = now();
  filterFruits(fruits, '', 'Citrus');
  const categoryOnlyMs = now() - started;

  return {
    fruits: count,
    generateMs: round(generateMs),
    index: {
      rawBytes: raw,
      gzipBytes: gzipped,
      rawBytesPerFruit: round(raw / count),
      gzipBytesPerFruit: round(gzipped / count),
      leanRawBytes: lean,
      note: 'lean = slug, name and category only',
    },
    parseMs: { median: round(percentile(parseSamples, 50)), min: round(Math.min(...parseSamples)) },
    firstSearchMs: round(firstSearchMs),
    keystrokeMs: {
      samples: keystrokes.length,
      median: round(percentile(keystrokes, 50)),
      p95: round(percentile(keystrokes, 95)),
      max: round(Math.max(...keystrokes)),
    },
    categoryOnlyMs: round(categoryOnlyMs),
    lastWordMatches: matches,
  };
}

// MARK: - Node

const isMain =
  typeof process !== 'undefined' &&
  import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1]).href;
if (isMain) {
  const { gzipSync } = await import('node:zlib');
  const { readFileSync } = await import('node:fs');
  const gzip = (data) => gzipSync(data, { level: 9 }).length;
  const result = await run({ count: Number(process.argv[2] ?? 100_000), gzip });
  const assets = new URL('../../Templates/assets/', import.meta.url);
  const files = Object.fromEntries(
    ['fruit-filter.js', 'search-index.js', 'search.js'].map((file) => [
      file,
      gzip(readFileSync(new URL(file, assets))),
    ]),
  );
  result.clientJsGzipBytes = { ...files, total: Object.values(files).reduce((a, b) => a + b) };
  result.runtime = `node ${process.version}`;
  console.log(JSON.stringify(result, null, 2));
}
