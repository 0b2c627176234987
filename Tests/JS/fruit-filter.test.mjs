// Checks Templates/assets/fruit-filter.js against the shared "fold-v1" vectors, which the
// Swift tests read too. Run with `node --test Tests/JS/`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { filterFruits, fold, matchRange } from '../../Templates/assets/fruit-filter.js';

const vectors = JSON.parse(
  readFileSync(new URL('../Fixtures/search-vectors.json', import.meta.url), 'utf8'),
);

// MARK: - Loading and printing

/** NFC-normalizes every catalog string, as the site loader does. */
const load = (catalog) =>
  catalog.map(({ slug, name, category, facets }) => ({
    slug: slug.normalize('NFC'),
    name: name.normalize('NFC'),
    category: category.normalize('NFC'),
    ...(facets && {
      facets: Object.fromEntries(
        Object.entries(facets).map(([key, values]) => [key, values.map((v) => v.normalize('NFC'))]),
      ),
    }),
  }));

/** Spells out code points, so a failure shows NFC/NFD and invisible differences. */
const codePoints = (s) =>
  [...s].map((c) => 'U+' + c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')).join(' ');

const utf8Compare = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * Catalog order as the generator defines it: the name in the language's collation at
 * secondary strength (`sensitivity: 'accent'`), then the slug in UTF-8 byte order. The client
 * never sorts (the search index is already in this order): the order cases check the
 * generator's ICU against the one in this JavaScript engine.
 */
const catalogOrder = (language) => {
  const collator = new Intl.Collator(language === 'und' ? [] : language, { sensitivity: 'accent' });
  return (a, b) => collator.compare(a.name, b.name) || utf8Compare(a.slug, b.slug);
};

/**
 * The catalog of `language` in a site in `languages` (the default first) as the vectors'
 * notes define it: its own entries and, with `fallback: "default"`, the default language's
 * for the slugs it has none of, in its collation.
 */
const languageCatalog = (languages, entries, language) => {
  const own = load(entries[language] ?? []);
  const { fallback } = languages.find(({ code }) => code === language);
  const slugs = new Set(own.map(({ slug }) => slug));
  const shown =
    fallback === 'default'
      ? load(entries[languages[0].code] ?? []).filter(({ slug }) => !slugs.has(slug))
      : [];
  return [...own, ...shown].sort(catalogOrder(language));
};

// MARK: - Shared vectors

describe('search-vectors.json', () => {
  test('is fold-v1', () => assert.equal(vectors.definition, 'fold-v1'));

  test('expected names are NFC', () => {
    const cases = [...vectors.filterCases, ...vectors.orderCases, ...vectors.languageCases];
    for (const { expected } of cases) {
      for (const name of expected) assert.equal(name, name.normalize('NFC'), codePoints(name));
    }
  });

  describe('foldCases', () => {
    for (const { input, expected } of vectors.foldCases) {
      test(`fold ${codePoints(input) || '(empty)'}`, () => {
        assert.equal(codePoints(fold(input)), codePoints(expected));
      });
    }
  });

  describe('filterCases', () => {
    for (const { name, catalog, text, category, facets, expected } of vectors.filterCases) {
      test(name, () => {
        const names = filterFruits(load(catalog), text, category, facets).map((f) => f.name);
        assert.deepEqual(names, expected, `text ${codePoints(text)}, category ${category}`);
      });
    }
  });

  describe('orderCases', () => {
    for (const { name, language, catalog, expected } of vectors.orderCases) {
      test(`${language}: ${name}`, () => {
        const names = load(catalog).sort(catalogOrder(language)).map((fruit) => fruit.name);
        assert.deepEqual(names, expected);
      });
    }
  });

  describe('languageCases', () => {
    for (const { name, languages, entries, language, ...query } of vectors.languageCases) {
      test(name, () => {
        const catalog = languageCatalog(languages, entries, language);
        const names = filterFruits(catalog, query.text, query.category).map((f) => f.name);
        assert.deepEqual(names, query.expected, `text ${codePoints(query.text)}`);
      });
    }
  });
});

// MARK: - Filtering

describe('filterFruits', () => {
  const fruits = load([
    { slug: 'apple', name: 'Apple', category: 'Pome' },
    { slug: 'lemon', name: 'Lemon', category: 'Citrus' },
  ]);

  test('treats undefined, null and "" as no category', () => {
    for (const category of [undefined, null, '']) {
      assert.deepEqual(filterFruits(fruits, '', category), fruits);
    }
    assert.deepEqual(filterFruits(fruits), fruits);
  });

  test('returns the same fruit objects, in order', () => {
    const hits = filterFruits(fruits, 'e');
    assert.equal(hits[0], fruits[0]);
    assert.equal(hits[1], fruits[1]);
  });

  test('notices fruits replaced in the same array', () => {
    const list = load([
      { slug: 'apple', name: 'Apple', category: 'Pome' },
      { slug: 'lemon', name: 'Lemon', category: 'Citrus' },
    ]);
    assert.deepEqual(filterFruits(list, 'app').map((f) => f.slug), ['apple']);
    list[0] = { slug: 'lime', name: 'Lime', category: 'Citrus' };
    list.push({ slug: 'pineapple', name: 'Pineapple', category: 'Tropical' });
    assert.deepEqual(filterFruits(list, 'app').map((f) => f.slug), ['pineapple']);
    assert.deepEqual(filterFruits(list, '', 'Citrus').map((f) => f.slug), ['lime', 'lemon']);
  });

  test('NFC-normalizes the category argument', () => {
    const pips = load([{ slug: 'nefle', name: 'Nèfle', category: 'Fruits à pépins' }]);
    assert.equal(filterFruits(pips, '', 'Fruits a\u0300 pe\u0301pins').length, 1);
  });

  test('turns lone surrogates in the text into U+FFFD', () => {
    const odd = [{ slug: 'odd', name: 'Odd \uFFFD fruit', category: 'Test' }, ...fruits];
    assert.deepEqual(filterFruits(odd, '\uD83C').map((f) => f.slug), ['odd']);
    assert.deepEqual(filterFruits(odd, '\uDF49').map((f) => f.slug), ['odd']);
    // A lone high surrogate must not match the first half of an emoji.
    const melon = [{ slug: 'melon', name: '🍉 Melon', category: 'Test' }];
    assert.deepEqual(filterFruits(melon, '\uD83C'), []);
  });

  test('keeps working without String.prototype.toWellFormed', () => {
    const original = String.prototype.toWellFormed;
    delete String.prototype.toWellFormed;
    try {
      const melon = [{ slug: 'melon', name: '🍉 Melon \uFFFD', category: 'Test' }];
      assert.equal(filterFruits(melon, '\uD83C').length, 1);
      assert.equal(filterFruits(melon, '🍉').length, 1);
      assert.equal(filterFruits(melon, 'x\uDF49').length, 0);
    } finally {
      String.prototype.toWellFormed = original;
    }
  });
});

// MARK: - Highlighting

describe('matchRange', () => {
  test('maps the match back to the original name', () => {
    assert.deepEqual(matchRange('Blood Orange', 'ORANGE'), [6, 12]);
    assert.deepEqual(matchRange('ΑΝΑΝΆΣ', 'νάς'), [3, 6]);
    assert.deepEqual(matchRange('Pomme 🇫🇷', '🇷'), [8, 10]);
    assert.deepEqual(matchRange('Nèfle', 'ne\u0300f'), [0, 3]);
  });

  test('returns null for no text or no match', () => {
    assert.equal(matchRange('Apple', ''), null);
    assert.equal(matchRange('Apple', 'pear'), null);
  });

  test('skips names whose fold changes length', () => {
    assert.equal(matchRange('İncir', 'ncir'), null);
  });
});
