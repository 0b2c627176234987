// What a visitor's first query downloads: for each query, a fresh openIndex (the manifest, or
// the single search-index.json), search and records(0, 50), the first screen of results, read
// from a built site through a fetch that counts each file's gzipped size (level 6, as a CDN
// serves JSON) and the round it was asked for in (the manifest, asked again beside the search,
// as a 304 of no body); then what the page prefetches once the results show (prefetch(q): the
// gram files of q one letter longer), counted apart. Then the time per keystroke of typing a
// word with every file already fetched.
//
//   node Benchmarks/search/transfer.mjs [--category NAME] [--type WORD] OUTPUT...
//
// Each OUTPUT is a site built by `fruitsite build`, with either index. Prints JSON: one object
// per OUTPUT, { kind, queries: [{ q, category, count, requests, rounds, gzip, raw,
// prefetched: { requests, gzip } }],
// typing: { word, ms: [per keystroke] } }.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openIndex } from '../../Templates/assets/search-index.js';

// Short and long, common and rare, and one that matches nothing.
const QUERIES = ['a', 'e', 'k', 'q', 'x', 'an', 'be', 'qu', 'ber', 'app', 'her', 'berry',
  'apple', 'mango', 'heritage', 'pineapple', 'golden apple', 'xyzzy'];
const SCREEN = 50;
const SITE = 'http://site.invalid/';

// MARK: - A network of rounds

/**
 * A fetch that serves `folder` as `SITE`. Each response arrives on a later macrotask, so a
 * request asked for after a response depends on it: its round is 1 + the round of the latest
 * response received before it. `log` lists every request. A request with `cache: 'no-cache'`
 * for a file this visitor already has (the manifest, asked again beside each search) is a
 * server's 304: headers only, no body counted.
 */
function network(folder, sizes) {
  const log = [];
  const had = new Set();
  let received = 0;
  const fetch = async (href, init) => {
    const path = decodeURIComponent(new URL(href).pathname).slice(1);
    const body = readFileSync(join(folder, path));
    if (!sizes.has(path)) sizes.set(path, gzipSync(body, { level: 6 }).length);
    const round = received + 1;
    const revalidated = init?.cache === 'no-cache' && had.has(path);
    had.add(path);
    log.push(revalidated ? { path, round, raw: 0, gzip: 0, revalidated }
      : { path, round, raw: body.length, gzip: sizes.get(path) });
    await new Promise((resolve) => setTimeout(resolve));
    received = Math.max(received, round);
    return { ok: true, status: 200, json: async () => JSON.parse(body) };
  };
  return { fetch, log };
}

const sum = (log, key) => log.reduce((total, entry) => total + entry[key], 0);

// MARK: - Measuring

async function firstQuery(url, folder, sizes, q, category) {
  const { fetch, log } = network(folder, sizes);
  const index = await openIndex(url, { fetch });
  const result = await index.search({ q, category });
  await result.records(0, SCREEN);
  const first = log.splice(0);
  await index.prefetch(q);
  return {
    q, category, count: result.count, requests: first.length,
    rounds: Math.max(...first.map((entry) => entry.round)),
    gzip: sum(first, 'gzip'), raw: sum(first, 'raw'),
    prefetched: { requests: log.length, gzip: sum(log, 'gzip') },
  };
}

/** Milliseconds per keystroke while typing `word`, once every file it needs is fetched. */
async function typing(url, folder, sizes, word) {
  const index = await openIndex(url, { fetch: network(folder, sizes).fetch });
  const keystroke = async (n) => {
    const start = performance.now();
    await (await index.search({ q: word.slice(0, n) })).records(0, SCREEN);
    return performance.now() - start;
  };
  for (let n = 1; n <= word.length; n++) await keystroke(n); // fetches and warms up
  const ms = [];
  for (let n = 1; n <= word.length; n++) ms.push(await keystroke(n));
  return { word, ms };
}

async function main(argv) {
  const option = (name, fallback) => {
    const at = argv.indexOf(name);
    return at < 0 ? fallback : argv.splice(at, 2)[1];
  };
  const category = option('--category', 'Berries');
  const word = option('--type', 'heritage');
  const results = [];
  for (const folder of argv) {
    // The index the page names: the manifest, or the single index, named by its bytes.
    const page = readFileSync(join(folder, 'index.html'), 'utf8');
    const named = /data-index="([^"]+)"/.exec(page)?.[1];
    if (!named) throw new Error(`${folder}/index.html names no search index (data-index)`);
    const sharded = named === 'search/index.json';
    const url = SITE + named;
    const sizes = new Map(); // gzipped size by path, computed once
    const queries = [];
    for (const q of QUERIES) {
      for (const filter of [undefined, category]) {
        queries.push(await firstQuery(url, folder, sizes, q, filter));
      }
    }
    results.push({ kind: sharded ? 'sharded' : 'single', queries,
      typing: await typing(url, folder, sizes, word) });
  }
  console.log(JSON.stringify(results));
}

await main(process.argv.slice(2));
