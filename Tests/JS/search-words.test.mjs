// Checks how Templates/assets/search.js says its words: a message from the page's string
// table, a counted one in the form CLDR's plural rules give its count in the page's language.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { words } from '../../Templates/assets/search.js';

const results = {
  zero: '{shown} of no fruits',
  one: '{shown} of {count} fruit',
  two: '{shown} of two fruits',
  few: '{shown} of {count} fruits (few)',
  many: '{shown} of {count} fruits (many)',
  other: '{shown} of {count} fruits',
};
const strings = { scriptResults: results, scriptQuery: ' “{query}”', scriptShowMore: 'Show more' };

describe('words', () => {
  test('fills in a plain message, and leaves unknown names as written', () => {
    const say = words(strings, 'en');
    assert.equal(say('scriptShowMore'), 'Show more');
    assert.equal(say('scriptQuery', { query: 'kiwi' }), ' “kiwi”');
    assert.equal(say('scriptQuery'), ' “{query}”');
    assert.equal(say('missing'), '');
  });

  test('English: 1 is one, 0 and 2 are other', () => {
    const say = words(strings, 'en');
    assert.equal(say('scriptResults', { shown: 1, count: 1 }), '1 of 1 fruit');
    assert.equal(say('scriptResults', { shown: 0, count: 0 }), '0 of 0 fruits');
    assert.equal(say('scriptResults', { shown: 2, count: 2 }), '2 of 2 fruits');
  });

  test('French: 0 and 1 are one, 2 is other, a million many; numbers grouped as in French', () => {
    const say = words(strings, 'fr');
    assert.equal(say('scriptResults', { shown: 0, count: 0 }), '0 of 0 fruit');
    assert.equal(say('scriptResults', { shown: 1, count: 1 }), '1 of 1 fruit');
    assert.equal(say('scriptResults', { shown: 2, count: 2 }), '2 of 2 fruits');
    assert.equal(
      say('scriptResults', { shown: 50, count: 1_000_000 }),
      '50 of 1\u202f000\u202f000 fruits (many)',
    );
  });

  test('Arabic: all six categories, by CLDR', () => {
    const say = words(strings, 'ar');
    // Arabic's digits by the engine's CLDR version: Latin ones since CLDR 42.
    const n = (number) => new Intl.NumberFormat('ar').format(number);
    const forms = [0, 1, 2, 3, 11, 100].map((count) => say('scriptResults', { shown: 0, count }));
    assert.deepEqual(forms.map((text) => text.slice(text.indexOf(' ') + 1)), [
      'of no fruits',
      `of ${n(1)} fruit`,
      'of two fruits',
      `of ${n(3)} fruits (few)`,
      `of ${n(11)} fruits (many)`,
      `of ${n(100)} fruits`,
    ]);
  });

  test("numbers in the build's digits, not the engine's choice for the language", () => {
    const say = words({ ...strings, numberingSystem: 'arab' }, 'ar');
    assert.equal(say('scriptResults', { shown: 1, count: 1234 }), '١ of ١٬٢٣٤ fruits (many)');
    const latin = words({ ...strings, numberingSystem: 'latn' }, 'ar');
    assert.equal(latin('scriptResults', { shown: 1, count: 3 }), '1 of 3 fruits (few)');
  });

  test('a counted message without the form falls back to other', () => {
    const say = words({ n: { one: 'one', other: '{count} others' } }, 'ar');
    assert.equal(say('n', { count: 3 }), `${new Intl.NumberFormat('ar').format(3)} others`);
  });
});
