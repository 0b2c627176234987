// Keeps the client's JavaScript within its size budget: the three files, gzipped, under 9.5 KB.
// It was 4.5 KB for two; search-index.js, which reads the sharded index that catalogs too
// large for one index file need, added about 3 KB; a page that stays right across a deploy
// (files named by their bytes, the manifest asked again with each search, a search run again
// on the new build) about 1 KB more; a result's thumbnail, as the page's cards show, 0.3 KB;
// its words from the page's string table, counted ones by Intl.PluralRules, 0.3 KB.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

const BUDGET = 10048;
const files = ['fruit-filter.js', 'search-index.js', 'search.js'];

test(`client JavaScript gzips to under ${BUDGET} bytes`, () => {
  const sizes = files.map((file) => {
    const source = readFileSync(new URL(`../../Templates/assets/${file}`, import.meta.url));
    return gzipSync(source, { level: 9 }).length;
  });
  const total = sizes.reduce((sum, size) => sum + size, 0);
  assert.ok(total < BUDGET, `${files.map((f, i) => `${f} ${sizes[i]} B`).join(', ')}: ${total} B`);
});
