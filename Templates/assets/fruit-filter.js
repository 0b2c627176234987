// Catalog search, definition "fold-v1", as in the generator (Tests/Fixtures/search-vectors.json).

// MARK: - Folding

/** Makes lone surrogates U+FFFD, so UTF-16 containment is code point containment. */
export const wellFormed = (s) =>
  s.toWellFormed?.() ??
  s.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDFFF]/g, (c) => (c[1] ? c : '\uFFFD'));

/** Folds for matching: full lowercase, every ς to σ, then NFC. @type {(s: string) => string} */
// Mapping ς after toLowerCase undoes Final_Sigma, its only context rule.
export const fold = (s) => s.toLowerCase().replaceAll('ς', 'σ').normalize('NFC');

// Per fruit object: [folded name, folded category, NFC category, fruit], built on first use.
const keys = new WeakMap();
const keysOf = (fruit) => {
  let k = keys.get(fruit);
  if (!k) {
    const category = (fruit.category ?? '').normalize();
    keys.set(fruit, (k = [fold(fruit.name.normalize()), fold(category), category, fruit]));
  }
  return k;
};
// The same keys per fruits array, by index: reads much faster than WeakMap lookups.
const tables = new WeakMap();
// Per fruit object: each facet's values, NFC, built on first use by a facet filter.
const facetKeys = new WeakMap();
const valuesOf = (fruit, key) => {
  let k = facetKeys.get(fruit);
  if (!k) facetKeys.set(fruit, (k = {}));
  return (k[key] ??= (fruit.facets?.[key] ?? []).map((v) => v.normalize()));
};

// MARK: - Filtering

/**
 * Keeps, in order, the fruits whose folded name or category contains the folded text ("" keeps
 * all; nothing trimmed), unless `category` is null or "", whose category is exactly it, and for
 * each facet key of `facets` with a value, that have exactly that value of it.
 */
export function filterFruits(fruits, searchText = '', category = null, facets = {}) {
  const text = searchText ? fold(wellFormed(searchText)) : '';
  const cat = category ? category.normalize() : '';
  const wanted = Object.entries(facets ?? {}).flatMap(([k, v]) => (v ? [[k, v.normalize()]] : []));
  let table = tables.get(fruits);
  if (!table) tables.set(fruits, (table = [[], [], [], []]));
  const [refs, names, cats, nfc] = table;
  const hits = [];
  for (let i = 0; i < fruits.length; i++) {
    const fruit = fruits[i];
    if (refs[i] !== fruit) [names[i], cats[i], nfc[i], refs[i]] = keysOf(fruit);
    if (
      (!cat || nfc[i] === cat) &&
      (!text || names[i].includes(text) || cats[i].includes(text)) &&
      wanted.every(([k, v]) => valuesOf(fruit, k).includes(v))
    ) {
      hits.push(fruit);
    }
  }
  return hits;
}

// MARK: - Highlighting

/**
 * Finds the first match of the text in a name, as UTF-16 offsets into the name.
 * @returns {[number, number] | null} null if no match, or if folding moves offsets (as İ does)
 */
export function matchRange(name, searchText) {
  const text = searchText && fold(wellFormed(searchText));
  const folded = fold(name);
  for (const c of name) if (c.toLowerCase().length !== c.length) return null;
  const start = text && folded.length === name.length ? folded.indexOf(text) : -1;
  return start < 0 ? null : [start, start + text.length];
}
