// Opens a search index, single (format 1) or sharded (format 5, README "The sharded index"),
// behind one interface: both give exactly filterFruits' fruits (fold-v1), in catalog order.
import { filterFruits, fold, wellFormed } from './fruit-filter.js';

// MARK: - Sets of positions

// A set is its runs' bounds, [start, end, …], ascending, ends exclusive, in an Int32Array:
// union and intersection are merges linear in the runs, each into an array made once.

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
 * Opens the index at `url` (of a sharded one, the manifest): resolves to `{ total, root,
 * search({ q, category, ...facetValues }), prefetch(q) }`, records' `url`s relative to `root`.
 * A search resolves to `{ count, records(start, end) }`; `prefetch(q)`, once q's results show,
 * fetches the gram files q one code point longer can need. A search that sees a new build
 * moves to it and calls onChange() (README, "Deploying"). Rejects a format but 1 and 5, and a
 * file not fetched with its HTTP `status`.
 */
export async function openIndex(url, { fetch = globalThis.fetch, onChange = () => {} } = {}) {
  const base = new URL(url, globalThis.location?.href);
  const get = async (href, init) => {
    const response = await fetch(href, init);
    const { ok, status } = response;
    if (!ok) throw Object.assign(Error(`${href}: HTTP ${status}`), { status });
    return response.json();
  };
  // Each file is fetched once, also for searches made while it loads; a failed one, again.
  const files = new Map();
  const load = (path) => {
    const href = new URL(path, base).href;
    if (!files.has(href)) {
      const file = get(href);
      file.catch(() => files.delete(href));
      files.set(href, file);
    }
    return files.get(href);
  };

  const index = await get(base.href);
  if (index?.version === 1) return single(index, new URL('.', base));
  const latest = (reload) => get(base.href, { cache: reload ? 'reload' : 'no-cache' });
  if (index?.version === 5) return sharded(index, new URL('..', base), load, latest, onChange);
  throw new Error(`${base}: not a search index of format 1 or 5`);
}

// MARK: - Format 1: one file

function single({ categories, fruits }, root) {
  return {
    total: fruits.length,
    root,
    async search({ q, category, ...wanted }) {
      const hits = filterFruits(fruits, q, category, wanted);
      return { count: hits.length, records: async (start, end) => hits.slice(start, end) };
    },
    async prefetch() {}, // all of it is loaded
  };
}

// MARK: - Format 5: a manifest, and files per gram, category, facet value and records

function sharded(manifest, root, load, latest, onChange) {
  let m = manifest; // the build searched
  // A file's name: its path, and the ith stamp of `stamps`.
  const named = (path, stamps, i) => `${path}.${stamps.substr(8 * (i | 0), 8)}.json`;
  // Whether the server's manifest names a build not seen before (so not a cache's old one),
  // searched from then on; one request at a time.
  let checking;
  const seen = new Set([m.build]);
  const moved = (reload) =>
    (checking ??= latest(reload)
      .then(
        (next) =>
          next?.version === 5 && !seen.has(next.build) &&
          (seen.add(next.build), (m = next), onChange(), 1),
      )
      .catch(() => 0)
      .finally(() => (checking = null)));
  // A file gone (404) means a new build, searched once; past the cache if need be (servers
  // that date files to the second call a manifest replaced within it unchanged).
  const again = async (error, retry) => {
    if (error?.status === 404 && ((await moved()) || (await moved(1)))) return retry();
    throw error;
  };

  const set = (path) => load(path).then(decode);
  // A gram's key is its first code point, or a trigram's first two: the bucket file that holds
  // it is the FNV-1a hash (32 bits) of the key's UTF-8, modulo their number.
  const keyOf = (gram) => [...gram].slice(0, Math.max(1, [...gram].length - 1)).join('');
  const bucket = (key) => {
    let hash = 0x811c9dc5;
    for (const byte of new TextEncoder().encode(key)) hash = Math.imul(hash ^ byte, 0x1000193);
    const b = (hash >>> 0) % (m.buckets.length / 8);
    return load(named(`grams/${b}`, m.buckets, b));
  };
  const heavy = (n) => load(named(`grams/h${n}`, m.heavyFiles, n));
  // A gram's posting: a run list, or for three code points, { offset: run list }.
  const posting = async (gram) => {
    if (Object.hasOwn(m.heavy, gram)) return heavy(m.heavy[gram]);
    const grams = await bucket(keyOf(gram));
    return Object.hasOwn(grams, gram) ? grams[gram] : null;
  };

  // The fruits whose folded name holds the text, an array of code points.
  const holding = async (text) => {
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

  const index = {
    get total() {
      return m.count;
    },
    root,
    async search(state) {
      const { q, category, ...wanted } = state;
      // Its hits are read in this build's records files.
      const built = m;
      const { categories, facets, count, records: size } = built;
      const category_ = (i) => set(named('categories/fruits', built.categoryFiles, i));
      // Beside the search's files: no round of its own.
      moved();
      const text = q ? fold(wellFormed(q)) : '';
      // Every file the search needs is asked for at once.
      const sets = [];
      if (text) {
        const inCategories = categories.flatMap(({ name }, i) =>
          fold(name.normalize()).includes(text) ? [category_(i)] : [],
        );
        sets.push(Promise.all([holding([...text]), ...inCategories]).then(unionAll));
      }
      if (category) {
        const i = find(categories, category);
        sets.push(i < 0 ? none() : category_(i));
      }
      for (const [key, value] of Object.entries(wanted)) {
        if (!value) continue;
        const f = facets.findIndex((facet) => facet.key === key);
        const v = f < 0 ? -1 : find(facets[f].values, value);
        sets.push(v < 0 ? none() : set(named(`facets/${f}/fruits`, facets[f].files, v)));
      }
      let hits;
      try {
        hits = sets.length ? (await Promise.all(sets)).reduce(intersect) : Int32Array.of(0, count);
      } catch (error) {
        return again(error, () => index.search(state));
      }
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
          try {
            const file = (k) => named(`records/${k}`, built.recordsFiles, k / built.recordsGroup);
            const files = await Promise.all(positions.map((p) => load(file((p / size) | 0))));
            return positions.map((p, i) => files[i][p % size]);
          } catch (error) {
            return again(error, async () => (await index.search(state)).records(start, end));
          }
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
      for (const [gram, n] of Object.entries(m.heavy)) {
        if ([...gram].length === length && keyOf(gram) === key) files.push(heavy(n));
      }
      await Promise.allSettled(files); // a failed file is fetched again when a search needs it
    },
  };
  return index;
}
