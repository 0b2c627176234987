// Opens a search index, single (format 1) or sharded (format 3, README "The sharded index"),
// behind one interface: both give exactly filterFruits' fruits (fold-v1), in catalog order.
import { filterFruits, fold, wellFormed } from './fruit-filter.js';

// MARK: - Sets of positions

// A set is its runs' bounds, [start, end, …], ascending, ends exclusive, in an Int32Array:
// union and intersection are merges linear in the runs (few even when a letter matches most
// fruits), each into an array made once.

const NONE = new Int32Array();
const decoded = new WeakMap(); // a run list of a fetched file → its bounds

/** A file's run list, [gap, length, …], as bounds; decoded once, as files are fetched once. */
const decode = (runs) => {
  if (!runs) return NONE;
  let set = decoded.get(runs);
  if (!set) {
    set = new Int32Array(runs.length);
    for (let i = 0, end = 0; i < runs.length; i++) set[i] = end += runs[i];
    decoded.set(runs, set);
  }
  return set;
};

const intersect = (a, b) => {
  const out = new Int32Array(a.length + b.length);
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const start = Math.max(a[i], b[j]);
    const end = Math.min(a[i + 1], b[j + 1]);
    if (start < end) (out[n++] = start), (out[n++] = end);
    if (a[i + 1] < b[j + 1]) i += 2;
    else j += 2;
  }
  return out.subarray(0, n);
};

const union = (a, b) => {
  const out = new Int32Array(a.length + b.length);
  let n = 0;
  for (let i = 0, j = 0; i < a.length || j < b.length; ) {
    const x = j >= b.length || a[i] < b[j] ? a : b;
    const k = x === a ? (i += 2) - 2 : (j += 2) - 2;
    // A run that overlaps or touches the last one extends it.
    if (n && x[k] <= out[n - 1]) out[n - 1] = Math.max(out[n - 1], x[k + 1]);
    else (out[n++] = x[k]), (out[n++] = x[k + 1]);
  }
  return out.subarray(0, n);
};

/** Merges sets in pairs, so that k sets of n runs take n·log k steps, not n·k. */
const unionAll = (sets) => {
  while (sets.length > 1) {
    const pairs = [];
    for (let i = 0; i < sets.length; i += 2) pairs.push(union(sets[i], sets[i + 1] ?? NONE));
    sets = pairs;
  }
  return sets[0] ?? NONE;
};

// MARK: - Opening

/**
 * Opens the index at `url` (of a sharded one, only the manifest): resolves to `{ total,
 * categories, root, search({ q, category, ...facetValues }), prefetch(q) }`;
 * records' `url`s are relative to `root`. A search resolves to `{ count, records(start, end) }`;
 * `prefetch(q)`, called once q's results show, fetches the gram files that q one code point
 * longer can need, and resolves when they have arrived or failed.
 * Rejects any format but 1 and 3.
 */
export async function openIndex(url, { fetch = globalThis.fetch } = {}) {
  const base = new URL(url, globalThis.location?.href);
  // Each file is fetched once, also for searches made while it loads; a failed one, again.
  const files = new Map();
  const load = (path) => {
    const href = new URL(path, base).href;
    if (!files.has(href)) {
      const file = fetch(href).then((response) => {
        if (!response.ok) throw new Error(`${href}: HTTP ${response.status}`);
        return response.json();
      });
      file.catch(() => files.delete(href));
      files.set(href, file);
    }
    return files.get(href);
  };

  const index = await load(base);
  if (index?.version === 1) return single(index, new URL('.', base));
  if (index?.version === 3) return sharded(index, new URL('..', base), load);
  throw new Error(`${base}: not a search index of format 1 or 3`);
}

// MARK: - Format 1: one file

function single({ categories, fruits }, root) {
  return {
    total: fruits.length,
    categories,
    root,
    async search({ q, category, ...wanted }) {
      const hits = filterFruits(fruits, q, category, wanted);
      return { count: hits.length, records: async (start, end) => hits.slice(start, end) };
    },
    async prefetch() {}, // all of it is loaded
  };
}

// MARK: - Format 3: a manifest, and files per gram, category, facet value and records

function sharded({ count, records: size, buckets, categories, facets, heavy }, root, load) {
  const set = (path) => load(path).then(decode);
  // A gram's key is its first code point, or a trigram's first two: the bucket file that holds
  // it is the FNV-1a hash (32 bits) of the key's UTF-8, modulo their number.
  const keyOf = (gram) => [...gram].slice(0, Math.max(1, [...gram].length - 1)).join('');
  const bucket = (key) => {
    let hash = 0x811c9dc5;
    for (const byte of new TextEncoder().encode(key)) hash = Math.imul(hash ^ byte, 0x1000193);
    return load(`grams/${(hash >>> 0) % buckets}.json`);
  };
  // A gram's posting: a run list, or for three code points, { offset: run list }.
  const posting = async (gram) => {
    if (Object.hasOwn(heavy, gram)) return load(`grams/h${heavy[gram]}.json`);
    const grams = await bucket(keyOf(gram));
    return Object.hasOwn(grams, gram) ? grams[gram] : null;
  };

  // The fruits whose folded name holds the text, an array of code points.
  const named = async (text) => {
    const L = text.length;
    const gram = (k) => posting(text.slice(k, k + 3).join(''));
    if (L < 3) return decode(await gram(0));
    // A name holds the text at o when it holds its trigram at k, every 3 and the last, at o + k.
    const steps = [];
    for (let k = 0; k < L - 3; k += 3) steps.push(k);
    steps.push(L - 3);
    const grams = await Promise.all(steps.map(gram));
    const at = (o) => (hits, k, i) => (i ? intersect(hits, decode(grams[i]?.[+o + k])) : hits);
    return unionAll(
      Object.entries(grams[0] ?? {}).map(([o, runs]) => steps.reduce(at(o), decode(runs))),
    );
  };

  const find = (list, name) => list.findIndex((item) => item.name.normalize() === name.normalize());
  const none = async () => NONE;

  return {
    total: count,
    categories: categories.map((c) => c.name),
    root,
    async search({ q, category, ...wanted }) {
      const text = q ? fold(wellFormed(q)) : '';
      // Every file the search needs is asked for at once.
      const sets = [];
      if (text) {
        const inCategories = categories.flatMap(({ name }, i) =>
          fold(name.normalize()).includes(text) ? [set(`categories/${i}.json`)] : [],
        );
        sets.push(Promise.all([named([...text]), ...inCategories]).then(unionAll));
      }
      if (category) {
        const i = find(categories, category);
        sets.push(i < 0 ? none() : set(`categories/${i}.json`));
      }
      for (const [key, value] of Object.entries(wanted)) {
        if (!value) continue;
        const f = facets.findIndex((facet) => facet.key === key);
        const v = f < 0 ? -1 : find(facets[f].values, value);
        sets.push(v < 0 ? none() : set(`facets/${f}/${v}.json`));
      }
      const hits = sets.length
        ? (await Promise.all(sets)).reduce(intersect)
        : Int32Array.of(0, count);
      let found = 0;
      for (let i = 0; i < hits.length; i += 2) found += hits[i + 1] - hits[i];

      return {
        count: found,
        // Fetches only the records files that hold the hits from start to end.
        async records(start, end) {
          const positions = [];
          // n counts the hits before run i.
          for (let i = 0, n = 0; i < hits.length && n < end; n += hits[i + 1] - hits[i], i += 2) {
            const last = Math.min(hits[i + 1], hits[i] + end - n);
            for (let p = Math.max(hits[i], hits[i] + start - n); p < last; p++) positions.push(p);
          }
          const file = (p) => load(`records/${Math.floor(p / size)}.json`);
          const files = await Promise.all(positions.map(file));
          return positions.map((p, i) => files[i][p % size]);
        },
      };
    },
    // Text one code point longer needs one new gram: of two code points after one, else the
    // trigram of the last two and the next. Its key is those last one or two code points.
    async prefetch(q) {
      const text = [...fold(wellFormed(q ?? ''))];
      if (!text.length) return;
      const key = text.slice(-2).join('');
      const length = Math.min(text.length + 1, 3);
      const files = [bucket(key)];
      for (const [gram, n] of Object.entries(heavy)) {
        if ([...gram].length === length && keyOf(gram) === key) files.push(load(`grams/h${n}.json`));
      }
      await Promise.allSettled(files); // a failed file is fetched again when a search needs it
    },
  };
}
