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

  test('round-trips awkward text', () => {
    const texts = [' ', '  a  ', 'a&b=c', '100%', '#hash', '?', '+', 'Σ ς', '👩‍🌾', '\u0301', 'İ'];
    for (const q of texts) {
      for (const category of ['', 'Stone fruit', 'Fruits à noyau', 'A&B']) {
        assert.deepEqual(parseQuery(buildQuery({ q, category })), { q, category });
      }
    }
  });
});
