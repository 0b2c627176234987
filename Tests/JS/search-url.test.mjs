// Checks the URL state functions of Templates/assets/search.js; importing it in Node must not
// touch the DOM.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildQuery, parseQuery } from '../../Templates/assets/search.js';

describe('parseQuery', () => {
  test('reads q and category', () => {
    assert.deepEqual(parseQuery('?q=apple&category=Citrus'), { q: 'apple', category: 'Citrus' });
  });

  test('defaults to empty strings', () => {
    assert.deepEqual(parseQuery(''), { q: '', category: '' });
    assert.deepEqual(parseQuery('?other=1'), { q: '', category: '' });
  });

  test('decodes + and percent escapes without trimming', () => {
    assert.deepEqual(parseQuery('?q=+blood%20orange+&category=Stone+fruit'), {
      q: ' blood orange ',
      category: 'Stone fruit',
    });
    assert.equal(parseQuery('?q=%CE%A3%C3%BAko').q, 'Σúko');
  });

  test("reads the facets' parameters it is given the names of", () => {
    const names = ['q', 'category', 'vitamins', 'colour'];
    assert.deepEqual(parseQuery('?vitamins=B6&q=a&season=x', names), {
      q: 'a',
      category: '',
      vitamins: 'B6',
      colour: '',
    });
  });
});

describe('buildQuery', () => {
  test('omits empty values', () => {
    assert.equal(buildQuery({ q: '', category: '' }), '');
    assert.equal(buildQuery({ q: 'kiwi', category: '' }), '?q=kiwi');
    assert.equal(buildQuery({ q: '', category: 'Citrus' }), '?category=Citrus');
  });

  test('keeps other parameters and replaces old values', () => {
    const query = buildQuery({ q: 'fig', category: '' }, '?lang=en&q=old&category=Pome');
    assert.equal(query, '?lang=en&q=fig');
  });

  test('writes and clears facet values', () => {
    assert.equal(buildQuery({ q: '', category: '', vitamins: 'C' }), '?vitamins=C');
    assert.equal(buildQuery({ q: 'fig', vitamins: '' }, '?vitamins=C&lang=en'), '?lang=en&q=fig');
    const state = { q: 'a b', category: 'Citrus', vitamins: 'B6', colour: 'brûlé & co' };
    assert.deepEqual(parseQuery(buildQuery(state), Object.keys(state)), state);
  });

  test('round-trips awkward text', () => {
    const texts = [' ', '  a  ', 'a&b=c', '100%', '#hash', '?', '+', 'Σ ς', '👩‍🌾', '\u0301', 'İ'];
    for (const q of texts) {
      for (const category of ['', 'Stone fruit', 'Fruits à noyau', 'A&B']) {
        assert.deepEqual(parseQuery(buildQuery({ q, category })), { q, category });
      }
    }
  });
});
