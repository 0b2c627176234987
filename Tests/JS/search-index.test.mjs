// Checks Templates/assets/search-index.js on sites that fruitsite builds, with a single index
// (format 1) and a sharded one (format 5): for the shared vectors' catalogs and generated ones,
// both give the fruits `fruitsite search --json` prints, in its order, and the same records;
// in a site in several languages, each language's index gives what `--language` prints.
// Needs the fruitsite executable: FRUITSITE_BIN, by default .build/release/fruitsite.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fold } from '../../Templates/assets/fruit-filter.js';
import { openIndex } from '../../Templates/assets/search-index.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
// Absolute: the builds run in other folders.
const bin = resolve(process.env.FRUITSITE_BIN || join(repo, '.build/release/fruitsite'));
if (!existsSync(bin)) {
  throw new Error(`no fruitsite executable at ${bin}: build it or set FRUITSITE_BIN`);
}
const vectors = JSON.parse(readFileSync(join(repo, 'Tests/Fixtures/search-vectors.json'), 'utf8'));

// MARK: - Sites

const KINDS = { single: /^search-index\.[a-z2-7]{8}\.json$/, sharded: /^search\/index\.json$/ };
/** The search index a built site's index page names (`data-index`), as the page loads it. */
const entry = (site) =>
  readFileSync(join(site, 'index.html'), 'utf8').match(/data-index="([^"]*)"/)[1];
// A build writes a file per fruit: in memory (tmpfs) it takes half the time.
const scratch = process.env.TMPDIR || (existsSync('/dev/shm') ? '/dev/shm' : tmpdir());
let work;
before(() => (work = mkdtempSync(join(scratch, 'fruitsite-search-index-'))));
after(() => work && rmSync(work, { recursive: true, force: true }));

const run = (args, cwd) =>
  new Promise((resolve) => {
    const options = { cwd, maxBuffer: 1 << 28 };
    execFile(bin, args, options, (error, stdout, stderr) =>
      resolve({ status: error ? (error.code ?? 1) : 0, stdout, stderr }),
    );
  });

// At most as many fruitsite processes at a time as there are processors.
const slots = { free: availableParallelism(), waiting: [] };
const limited = async (task) => {
  if (slots.free > 0) slots.free--;
  else await new Promise((resolve) => slots.waiting.push(resolve));
  try {
    return await task();
  } finally {
    const next = slots.waiting.shift();
    if (next) next();
    else slots.free++;
  }
};

/**
 * Writes a catalog as `dir/Content/<slug>.md` (front matter only: JSON strings are YAML),
 * then builds it twice, into `dir/single` and `dir/sharded`. `fruitsite.yml`, which the
 * CLI reads too, lists the facets the catalog has values of.
 */
async function buildSites(dir, catalog) {
  mkdirSync(join(dir, 'Content'), { recursive: true });
  const keys = new Set();
  for (const { slug, name, category, facets = {} } of catalog) {
    const lines = ['---', `name: ${JSON.stringify(name)}`, `category: ${JSON.stringify(category)}`];
    for (const [key, values] of Object.entries(facets)) {
      if (!values.length) continue; // a key without values is no facet of the fruit
      lines.push(`${key}: ${JSON.stringify(values)}`);
      keys.add(key);
    }
    writeFileSync(join(dir, 'Content', `${slug}.md`), [...lines, '---', ''].join('\n'));
  }
  writeCatalogConfigs(dir, [...keys]);
  await buildBoth(dir);
}

/** The configs of the two builds: `facetKeys`, or the default facets when null. */
function writeCatalogConfigs(dir, facetKeys) {
  writeConfigs(dir, facetKeys ? `facets: ${JSON.stringify(facetKeys)}\n` : '');
}

/** The configs of the two builds, each `config` and its kind of index. */
function writeConfigs(dir, config) {
  writeFileSync(join(dir, 'fruitsite.yml'), config + 'search:\n  index: single\n');
  writeFileSync(join(dir, 'sharded.yml'), config + 'search:\n  index: sharded\n');
}

/**
 * Writes a language case's site, each language's entries as `dir/Content/<slug>.md` (the
 * default language's, the first) or `<slug>.<code>.md`, its languages in both configs, then
 * builds it twice, as `buildSites` does.
 */
async function buildLanguageSites(dir, languages, entries) {
  mkdirSync(join(dir, 'Content'), { recursive: true });
  for (const [index, { code }] of languages.entries()) {
    for (const { slug, name, category } of entries[code] ?? []) {
      const file = index === 0 ? `${slug}.md` : `${slug}.${code}.md`;
      const front = [`name: ${JSON.stringify(name)}`, `category: ${JSON.stringify(category)}`];
      writeFileSync(join(dir, 'Content', file), ['---', ...front, '---', ''].join('\n'));
    }
  }
  const listed = languages.map((language) => `  - ${JSON.stringify(language)}`);
  writeConfigs(dir, ['languages:', ...listed, ''].join('\n'));
  await buildBoth(dir);
}

async function buildBoth(dir) {
  await Promise.all(
    Object.keys(KINDS).map(async (kind) => {
      const config = join(dir, kind === 'sharded' ? 'sharded.yml' : 'fruitsite.yml');
      const { status, stderr } = await limited(() =>
        run(
          ['build', '--quiet', '--content', join(dir, 'Content'), '--templates',
            join(repo, 'Templates'), '--config', config, '--output', join(dir, kind),
            '--cache-dir', join(dir, `cache-${kind}`)],
          dir,
        ),
      );
      assert.equal(status, 0, `fruitsite build (${kind}) failed:\n${stderr}`);
    }),
  );
}

/**
 * Writes Benchmarks/generate.py's catalog of `count` fruits into `dir/Content`, anew, with
 * front matter only: the search reads nothing else, and without the bodies the CLI runs faster.
 */
async function generateCatalog(dir, count, seed) {
  rmSync(join(dir, 'Content'), { recursive: true, force: true });
  const failed = await new Promise((resolve) =>
    execFile(
      'python3',
      [join(repo, 'Benchmarks/generate.py'), '--count', `${count}`, '--seed', `${seed}`, '--out',
        join(dir, 'Content')],
      (error, _, stderr) => resolve(error && stderr),
    ),
  );
  assert.ok(!failed, `generate.py failed: ${failed}`);
  for (const entry of readdirSync(join(dir, 'Content'))) {
    const file = join(dir, 'Content', entry);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, text.indexOf('\n---\n', 4) + 5));
  }
}

// MARK: - Reading a site as a browser would

// The site is read as if served under a subpath, so file URLs must resolve against it.
const SITE = 'http://fruits.test/shop/fruits/';

/** The response to `url` from the site in `dir` served at SITE: a 404 outside of it. */
function respond(dir, url) {
  const { pathname } = new URL(url);
  const path = decodeURIComponent(pathname).slice(new URL(SITE).pathname.length);
  const file = join(dir, path);
  if (!pathname.startsWith(new URL(SITE).pathname) || !existsSync(file)) {
    return { ok: false, status: 404, json: async () => assert.fail(`json() of a 404: ${url}`) };
  }
  const text = readFileSync(file, 'utf8');
  return { ok: true, status: 200, json: async () => JSON.parse(text) };
}

/**
 * Opens a site's index with a fetch that reads its files from disk, logging each URL; a
 * request that revalidates (the manifest, asked again by each search) is logged apart.
 */
const open = (dir, kind, log = [], revalidated = []) =>
  openIndex(SITE + entry(join(dir, kind)), {
    fetch: async (url, init) => {
      (init?.cache === 'no-cache' ? revalidated : log).push(url);
      return respond(join(dir, kind), url);
    },
  });

/** Opens the index of one language of a built site, the one its pages in `folder` load. */
const openLanguage = (dir, kind, folder) =>
  openIndex(SITE + folder + entry(join(dir, kind, folder)), {
    fetch: async (url) => respond(join(dir, kind), url),
  });

/** A search's whole result: count and records. */
async function searchAll(index, state) {
  const { count, records } = await index.search(state);
  return { count, records: await records(0, count) };
}

/**
 * `fruitsite search --json` for a state, in the catalog of `language` when given; null when
 * it refuses it (a category no fruit has).
 */
async function cli(dir, { q, category, ...facets }, language) {
  const args = ['search', '--json', '--content', join(dir, 'Content')];
  if (language) args.push('--language', language);
  if (category) args.push('--category', category);
  for (const [key, value] of Object.entries(facets)) {
    if (value) args.push('--facet', `${key}=${value}`);
  }
  const { status, stdout, stderr } = await limited(() => run([...args, '--', q], dir));
  if (status !== 0 && !stdout.trim()) return null;
  assert.equal(status, 0, stderr);
  return JSON.parse(stdout);
}

/** Spells out code points, so a failure shows NFC/NFD and invisible differences. */
const codePoints = (s) => [...s].map((c) => c.codePointAt(0).toString(16)).join(' ');

const names = (records) => records.map((record) => record.name);

// MARK: - The shared vectors

describe('the vectors, on built sites', () => {
  // Cases that share a catalog share its sites.
  const catalogs = new Map();
  for (const c of vectors.filterCases) {
    const key = JSON.stringify(c.catalog);
    if (!catalogs.has(key)) catalogs.set(key, []);
    catalogs.get(key).push(c);
  }
  let number = 0;
  for (const [key, cases] of catalogs) {
    describe(`catalog ${++number} (${cases[0].name}, …)`, () => {
      let site;
      const indexes = {};
      before(async () => {
        site = mkdtempSync(join(work, 'vectors-'));
        await buildSites(site, JSON.parse(key));
        for (const kind of Object.keys(KINDS)) indexes[kind] = await open(site, kind);
      });

      test('both kinds describe the same catalog', () => {
        const { single, sharded } = indexes;
        assert.equal(sharded.total, single.total);
        assert.equal(sharded.root.href, SITE);
        assert.equal(single.root.href, SITE);
      });

      for (const { name, text, category, facets, expected } of cases) {
        test(name, async () => {
          const state = { q: text, category, ...facets };
          const all = names((await searchAll(indexes.single, {})).records);
          // The vectors list fruits in the order of their catalog, a site in catalog order.
          const inOrder = all.filter((fruit) => expected.includes(fruit));
          assert.equal(inOrder.length, expected.length, 'names the vector expects are missing');
          const printed = await cli(site, state);
          if (printed) assert.deepEqual(names(printed), inOrder, 'the CLI against the vector');
          else assert.deepEqual(expected, [], 'the CLI refused a case that finds fruits');
          const found = {};
          for (const kind of Object.keys(KINDS)) {
            found[kind] = await searchAll(indexes[kind], state);
            const shown = names(found[kind].records);
            assert.deepEqual(shown, inOrder, `${kind}: text ${codePoints(text)}`);
            assert.equal(found[kind].count, shown.length, kind);
          }
          assert.deepEqual(found.sharded.records, found.single.records);
          if (printed) assert.deepEqual(found.sharded.records, printed);
        });
      }
    });
  }
});

describe('the language vectors, on built sites', () => {
  // Cases that share a site (its languages and entries) share its builds.
  const sites = new Map();
  for (const c of vectors.languageCases) {
    const key = JSON.stringify({ languages: c.languages, entries: c.entries });
    if (!sites.has(key)) sites.set(key, []);
    sites.get(key).push(c);
  }
  for (const [key, cases] of sites) {
    const { languages, entries } = JSON.parse(key);
    describe(`a site in ${languages.map(({ code }) => code).join(', ')}`, () => {
      let site;
      // By kind, then by language: the index that language's pages load.
      const indexes = {};
      before(async () => {
        site = mkdtempSync(join(work, 'languages-'));
        await buildLanguageSites(site, languages, entries);
        for (const kind of Object.keys(KINDS)) {
          indexes[kind] = {};
          for (const [index, { code }] of languages.entries()) {
            indexes[kind][code] = await openLanguage(site, kind, index === 0 ? '' : `${code}/`);
          }
        }
      });

      for (const { name, language, text, category, expected } of cases) {
        test(name, async () => {
          const state = { q: text, category };
          const printed = await cli(site, state, language);
          assert.ok(printed, 'the CLI refused the case');
          assert.deepEqual(names(printed), expected, 'the CLI against the vector');
          for (const kind of Object.keys(KINDS)) {
            const { count, records } = await searchAll(indexes[kind][language], state);
            assert.deepEqual(names(records), expected, `${kind}: text ${codePoints(text)}`);
            assert.equal(count, records.length, kind);
            assert.deepEqual(records, printed, `${kind} against the CLI`);
          }
        });
      }
    });
  }
});

// MARK: - Generated catalogs

/** A seeded generator of numbers in [0, 1) (mulberry32): every run asks the same queries. */
const random = (seed) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
};

/** Queries of 1 to 6 code points cut from the catalog's names, some with a category or facet. */
function queries(records, count, seed) {
  const next = random(seed);
  const categories = [...new Set(records.map((record) => record.category))];
  const pick = (list) => list[Math.floor(next() * list.length)];
  // The values of the first facet the records have.
  const [key] = Object.keys(records.find((record) => record.facets)?.facets ?? {});
  const values = [...new Set(records.flatMap((record) => record.facets?.[key] ?? []))];
  const states = [{ q: '' }, { q: ' ' }, { q: 'zzz' }, { q: 'ß' }, { q: 'é' }];
  states.push({ q: '', category: pick(categories) });
  while (states.length < count) {
    const letters = [...pick(records).name];
    const start = Math.floor(next() * letters.length);
    let q = letters.slice(start, start + 1 + Math.floor(next() * 6)).join('');
    if (next() < 0.3) q = q.toUpperCase();
    const state = { q };
    if (next() < 0.3) state.category = pick(categories);
    if (key && next() < 0.2) state[key] = pick(values);
    states.push(state);
  }
  return states;
}

describe('a catalog from Benchmarks/generate.py', () => {
  let site;
  const indexes = {};
  before(async () => {
    site = join(work, 'generated');
    await generateCatalog(site, 2000, 3);
    writeCatalogConfigs(site, null);
    await buildBoth(site);
    for (const kind of Object.keys(KINDS)) indexes[kind] = await open(site, kind);
  });

  test('many queries give what `fruitsite search --json` prints', async () => {
    const { records: all } = await searchAll(indexes.single, {});
    const states = queries(all, 16, 1);
    await Promise.all(
      states.map(async (state) => {
        const printed = await cli(site, state);
        assert.ok(printed, `the CLI refused ${JSON.stringify(state)}`);
        for (const kind of Object.keys(KINDS)) {
          const { count, records } = await searchAll(indexes[kind], state);
          assert.equal(count, printed.length, `${kind}: ${JSON.stringify(state)}`);
          assert.deepEqual(records, printed, `${kind}: ${JSON.stringify(state)}`);
        }
      }),
    );
  });

  test('both kinds agree on many more queries', async () => {
    const { records: all } = await searchAll(indexes.single, {});
    for (const state of queries(all, 200, 5)) {
      const single = await searchAll(indexes.single, state);
      const sharded = await searchAll(indexes.sharded, state);
      assert.equal(sharded.count, single.count, JSON.stringify(state));
      assert.deepEqual(sharded.records, single.records, JSON.stringify(state));
    }
  });

  test('records(start, end) gives any window of the results', async () => {
    const next = random(2);
    for (const state of [{ q: 'a' }, { q: 'er' }, { q: 'ber', vitamins: 'C' }, { q: 'zzz' }]) {
      const single = await indexes.single.search(state);
      const sharded = await indexes.sharded.search(state);
      for (let n = 0; n < 20; n++) {
        const start = Math.floor(next() * (single.count + 5));
        const end = start + Math.floor(next() * 80);
        assert.deepEqual(await sharded.records(start, end), await single.records(start, end));
      }
    }
  });
});

describe('a catalog whose grams have files of their own', () => {
  // Names of a and b (and now and then é or a space): each trigram is at many offsets, each
  // with scattered fruits, so its posting is long enough to be written to grams/h<id>.json.
  let site;
  const indexes = {};
  before(async () => {
    site = join(work, 'heavy');
    const next = random(9);
    const letter = () => (next() < 0.05 ? 'é' : next() < 0.03 ? ' ' : next() < 0.5 ? 'a' : 'b');
    const catalog = Array.from({ length: 1000 }, (_, i) => ({
      slug: `fruit-${i}`,
      name: 'x' + Array.from({ length: 18 + Math.floor(next() * 8) }, letter).join(''),
      category: ['Berries', 'Citrus', 'Drupes', 'Éxotic'][Math.floor(next() * 4)],
      facets: { vitamins: ['A', 'C', 'K'].filter(() => next() < 0.4) },
    }));
    await buildSites(site, catalog);
    for (const kind of Object.keys(KINDS)) indexes[kind] = await open(site, kind);
  });

  test('the sharded index has heavy grams', () => {
    const manifest = JSON.parse(readFileSync(join(site, 'sharded/search/index.json'), 'utf8'));
    assert.ok(Object.keys(manifest.heavy).length > 0);
  });

  test('both kinds agree on many queries, a few checked against the CLI', async () => {
    const { records: all } = await searchAll(indexes.single, {});
    const states = queries(all, 300, 4);
    for (const [n, state] of states.entries()) {
      const single = await searchAll(indexes.single, state);
      const sharded = await searchAll(indexes.sharded, state);
      assert.equal(sharded.count, single.count, JSON.stringify(state));
      assert.deepEqual(sharded.records, single.records, JSON.stringify(state));
      if (n % 100 === 0) assert.deepEqual(await cli(site, state), single.records);
    }
  });

  test('after prefetch(q), q one code point longer fetches no gram file', async () => {
    const { records: all } = await searchAll(indexes.single, {});
    for (const { name } of all.filter((_, i) => i % 25 === 0)) {
      const text = [...fold(name)];
      for (let n = 1; n < Math.min(text.length, 8); n++) {
        const log = [];
        const index = await open(site, 'sharded', log);
        const q = text.slice(0, n).join('');
        await index.search({ q });
        await index.prefetch(q);
        log.length = 0;
        await index.search({ q: q + text[n] });
        const grams = log.filter((url) => url.includes('/grams/'));
        assert.deepEqual(grams, [], `${codePoints(q)} then ${codePoints(text[n])}`);
      }
    }
  });
});

// MARK: - A build while the index is open

describe('a site built again while its index is open', () => {
  let site;
  let output;
  const generate = (count, seed) => generateCatalog(site, count, seed);
  const build = async () => {
    const { status, stderr } = await run(
      ['build', '--quiet', '--content', join(site, 'Content'), '--templates',
        join(repo, 'Templates'), '--config', join(site, 'sharded.yml'), '--output', output,
        '--cache-dir', join(site, 'cache')],
      site,
    );
    assert.equal(status, 0, stderr);
  };
  // Every file of the output, by its path.
  const files = () =>
    new Map(
      readdirSync(output, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => {
          const path = join(entry.parentPath, entry.name);
          return [path.slice(output.length + 1), readFileSync(path)];
        }),
    );
  const manifest = () => JSON.parse(readFileSync(join(output, 'search/index.json'), 'utf8'));

  before(async () => {
    site = join(work, 'deploy');
    output = join(site, 'Output');
    mkdirSync(site, { recursive: true });
    writeCatalogConfigs(site, null);
  });

  /**
   * Opens the index of a build of `first` fruits, searches, builds `second` in its place (the
   * old build's files gone) and searches again with the same index: the first search after
   * is of one build throughout, and the page, told of the new build, gets the CLI's answer.
   */
  const deploy = async ({ first, second, state }) => {
    await generate(...first);
    await build();
    const was = { manifest: manifest(), files: files(), printed: await cli(site, state) };
    let told;
    const changed = new Promise((resolve) => (told = resolve));
    const index = await openIndex(SITE + 'search/index.json', {
      fetch: async (url) => respond(output, url),
      onChange: () => told(),
    });
    assert.deepEqual((await searchAll(index, state)).records, was.printed);

    await generate(...second);
    await build();
    const printed = await cli(site, state);
    const { records } = await searchAll(index, state);
    const isOld = JSON.stringify(records) === JSON.stringify(was.printed);
    assert.ok(isOld || JSON.stringify(records) === JSON.stringify(printed), 'builds mixed');
    await changed;
    assert.deepEqual((await searchAll(index, state)).records, printed);
    assert.equal(index.total, manifest().count);

    // A name, once published, means the same bytes in every build that has it.
    const now = files();
    let shared = 0;
    for (const [path, bytes] of was.files) {
      if (!/\.[a-z2-7]{8}\.[a-z]+$/.test(path) || !now.has(path)) continue;
      shared++;
      assert.ok(bytes.equals(now.get(path)), `${path} changed its bytes`);
    }
    return { was: was.manifest, now: manifest(), shared };
  };

  test('with more gram buckets', async () => {
    const { was, now } = await deploy({ first: [1500, 6], second: [3000, 6], state: { q: 'red' } });
    assert.notEqual(now.buckets.length, was.buckets.length, 'the bucket count did not change');
  });

  test('a manifest a server calls unchanged (a deploy in the same second) is asked again', async () => {
    await generate(1500, 8);
    await build();
    const stale = readFileSync(join(output, 'search/index.json'), 'utf8');
    const missing = [];
    const index = await openIndex(SITE + 'search/index.json', {
      // A revalidation answered 304 gives the manifest the browser has: the old one.
      fetch: async (url, init) => {
        if (init?.cache === 'no-cache' && url.endsWith('/search/index.json')) {
          return { ok: true, status: 200, json: async () => JSON.parse(stale) };
        }
        const response = respond(output, url);
        if (response.status === 404) missing.push(url);
        return response;
      },
    });
    await searchAll(index, { q: 'an' });
    await generate(1600, 8);
    await build();
    // Files the old build named, gone: the manifest is asked for past the cache.
    const state = { q: 'mango' };
    assert.deepEqual((await searchAll(index, state)).records, await cli(site, state));
    assert.ok(missing.length > 0, 'no file of the old build was asked for');
  });

  test('with one fruit more: records shifted, the same buckets', async () => {
    const { was, now, shared } = await deploy({
      first: [1500, 7],
      second: [1501, 7],
      state: { q: 'an', category: 'Citrus' },
    });
    assert.equal(now.buckets.length, was.buckets.length, 'the bucket count changed');
    assert.notEqual(now.recordsFiles, was.recordsFiles);
    assert.ok(shared > 0, 'no stamped file is shared by the two builds');
  });
});

// MARK: - Requests

/**
 * Runs `task(fetch)` with a fetch that answers in rounds: every request made while the
 * previous round was answered is answered together. The rounds are the requests that had
 * to wait for each other.
 */
async function inRounds(dir, task) {
  const pending = [];
  const urls = [];
  const revalidated = [];
  const fetch = (url, init) =>
    new Promise((resolve) => {
      (init?.cache === 'no-cache' ? revalidated : urls).push(url);
      pending.push(() => resolve(respond(dir, url)));
    });
  let rounds = 0;
  let settled = false;
  const result = task(fetch).finally(() => (settled = true));
  for (;;) {
    // Microtasks run before the next macrotask: by then every chain waits for a request.
    await new Promise((resolve) => setImmediate(resolve));
    if (!pending.length) break;
    rounds++;
    for (const answer of pending.splice(0)) answer();
  }
  assert.ok(settled, 'the task waits for something other than a request');
  return { result: await result, rounds, urls, revalidated };
}

describe('requests of a sharded index', () => {
  let site;
  before(async () => {
    site = join(work, 'requests');
    await buildSites(site, vectors.filterCases.find((c) => c.facets).catalog);
  });

  for (const state of [
    { q: 'e' },
    { q: 'an' },
    { q: 'ppl' },
    { q: 'blood orange' },
    { q: 'e', category: 'Citrus', vitamins: 'C' },
    { q: '', colour: 'red' },
  ]) {
    test(`${JSON.stringify(state)}: manifest, then the query's files, then records`, async () => {
      const run = await inRounds(join(site, 'sharded'), async (fetch) => {
        const index = await openIndex(SITE + 'search/index.json', { fetch });
        const { count, records } = await index.search(state);
        return { count, first: await records(0, 50) };
      });
      const { result, rounds, urls, revalidated } = run;
      assert.ok(rounds <= 3, `${rounds} rounds: ${urls.join(' ')}`);
      assert.equal(new Set(urls).size, urls.length, `a file fetched twice: ${urls.join(' ')}`);
      assert.equal(result.first.length, Math.min(result.count, 50));
      assert.ok(urls.every((url) => url.startsWith(SITE + 'search/')));
      // The manifest is asked again beside the query's files, adding no round.
      assert.deepEqual(revalidated, [SITE + 'search/index.json']);
    });
  }

  test('a file is fetched once, by searches made while it loads and after', async () => {
    const { urls } = await inRounds(join(site, 'sharded'), async (fetch) => {
      const index = await openIndex(SITE + 'search/index.json', { fetch });
      const state = { q: 'an', category: 'Citrus' };
      const [a, b] = await Promise.all([index.search(state), index.search(state)]);
      await Promise.all([a.records(0, 50), b.records(0, 50)]);
      await (await index.search(state)).records(0, 50);
    });
    assert.equal(new Set(urls).size, urls.length, urls.join(' '));
  });

  test('only the records files of the range are fetched', async () => {
    const manifest = JSON.parse(readFileSync(join(site, 'sharded/search/index.json'), 'utf8'));
    const log = [];
    const index = await open(site, 'sharded', log);
    const { count, records } = await index.search({});
    log.length = 0;
    await records(count - 1, count);
    const last = Math.floor((manifest.count - 1) / manifest.records);
    const group = Math.floor(last / manifest.recordsGroup);
    const stamp = manifest.recordsFiles.slice(8 * group, 8 * group + 8);
    assert.deepEqual(log, [`${SITE}search/records/${last}.${stamp}.json`]);
  });

  test('a failed request is made again by the next search', async () => {
    let fail = true;
    const index = await openIndex(SITE + 'search/index.json', {
      fetch: async (url) =>
        fail && url.includes('/grams/')
          ? { ok: false, status: 503 }
          : respond(join(site, 'sharded'), url),
    });
    await assert.rejects(index.search({ q: 'an' }), /503/);
    fail = false;
    assert.ok((await index.search({ q: 'an' })).count > 0);
  });
});

describe('openIndex', () => {
  const serve = (body) => ({
    fetch: async () => ({ ok: true, status: 200, json: async () => body }),
  });

  test('rejects a format other than 1 and 5', async () => {
    await assert.rejects(openIndex('http://x.test/i.json', serve({ version: 4 })), Error);
    await assert.rejects(openIndex('http://x.test/i.json', serve({ version: 6 })), Error);
    await assert.rejects(openIndex('http://x.test/i.json', serve({ fruits: [] })), Error);
  });

  test('rejects an index that does not load', async () => {
    const fetch = async () => ({ ok: false, status: 404 });
    await assert.rejects(openIndex('http://x.test/i.json', { fetch }), { status: 404 });
  });
});

describe('search: {index: auto}, the default', () => {
  // docs/reference/config.md, `search`: above 5,000 fruits the index is sharded.
  const THRESHOLD = 5000;
  let site;
  const build = async () => {
    const { status, stderr } = await run(
      ['build', '--quiet', '--content', join(site, 'Content'), '--templates',
        join(repo, 'Templates'), '--output', join(site, 'auto'), '--cache-dir',
        join(site, 'cache-auto')],
      site,
    );
    assert.equal(status, 0, stderr);
  };
  const kind = () => {
    const html = readFileSync(join(site, 'auto', 'index.html'), 'utf8');
    const url = html.match(/data-index="([^"]*)"/)?.[1];
    const files = readdirSync(join(site, 'auto'), { recursive: true });
    for (const [kind, name] of Object.entries(KINDS)) {
      const has = files.some((file) => name.test(file));
      assert.equal(has, name.test(url), `${kind} index: ${has}, page says ${url}`);
    }
    return Object.keys(KINDS).find((k) => KINDS[k].test(url));
  };
  before(async () => {
    site = join(work, 'auto');
    const generated = await new Promise((resolve) =>
      execFile(
        'python3',
        [join(repo, 'Benchmarks/generate.py'), '--count', `${THRESHOLD + 1}`, '--seed', '4',
          '--out', join(site, 'Content')],
        (error, _, stderr) => resolve(error && stderr),
      ),
    );
    assert.ok(!generated, `generate.py failed: ${generated}`);
  });

  test(`shards above ${THRESHOLD} fruits, and the browser finds what the CLI does`, async () => {
    await build();
    assert.equal(kind(), 'sharded');
    const index = await openIndex(SITE + 'search/index.json', {
      fetch: async (url) => respond(join(site, 'auto'), url),
    });
    assert.equal(index.total, THRESHOLD + 1);
    for (const state of [{ q: 'an' }, { q: 'berry', category: 'Berries' }, { q: 'x' }]) {
      const printed = await cli(site, state);
      const { count, records } = await searchAll(index, state);
      assert.equal(count, printed.length, JSON.stringify(state));
      assert.deepEqual(records, printed, JSON.stringify(state));
    }
  });

  test(`a fruit fewer, ${THRESHOLD}, and the next build writes one file again`, async () => {
    const [first] = readdirSync(join(site, 'Content')).sort();
    rmSync(join(site, 'Content', first));
    await build();
    assert.equal(kind(), 'single');
  });
});
