// The index page's search: filters the server-rendered list, keeps the search in the URL and
// puts data into the DOM only as text.
import { filterFruits, matchRange } from './fruit-filter.js';

// MARK: - URL state

/**
 * Reads the search's parameters (`?q=…&category=…`, and a facet's, `&vitamins=C`) from a query
 * string, each "" when absent. @returns {Record<string, string>}
 */
export function parseQuery(search, names = ['q', 'category']) {
  const params = new URLSearchParams(search);
  return Object.fromEntries(names.map((name) => [name, params.get(name) ?? '']));
}

/** Builds the query string for a search, keeping other parameters of `search`; "" if none. */
export function buildQuery(state, search = '') {
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(state)) {
    params.delete(name);
    if (value) params.set(name, value);
  }
  const query = `${params}`;
  return query && '?' + query;
}

// MARK: - Page

const $ = (id) => document.getElementById(id);
const make = (tag, className, ...children) => {
  const element = document.createElement(tag);
  if (className) element.className = className;
  element.append(...children);
  return element;
};

async function start() {
  const form = $('search-form');
  const input = $('search-q');
  // The text, the category and each facet: a control each, named as its URL parameter.
  const controls = [input, ...form.querySelectorAll('select')];
  const names = controls.map((control) => control.name);
  const status = $('search-status');
  const empty = $('search-empty');
  const resting = status.textContent;
  const items = new Map(); // slug → { li, element, name, mark }
  let list = $('fruit-list');
  let pageList = null; // the page's own fruits, when it lists only some
  const pager = $('pagination');
  let fruits;
  let shown;
  let timer;

  const read = () => Object.fromEntries(controls.map((c) => [c.name, c.value]));
  const write = (state) => {
    for (const control of controls) {
      const value = state[control.name] ?? '';
      // A menu's values are NFC, as the filter compares them.
      control.value = control === input ? value : value.normalize();
      if (control.selectedIndex < 0) control.value = ''; // a value that no longer exists
    }
  };
  const isSearching = (state) => names.some((name) => state[name]);

  const save = (state, push) => {
    const url = location.pathname + buildQuery(state, location.search) + location.hash;
    try {
      if (url !== location.pathname + location.search + location.hash) {
        history[push ? 'pushState' : 'replaceState'](null, '', url);
      }
    } catch {} // rate-limited: the next change catches up
  };

  const announce = (state, count) => {
    const total = fruits.length;
    status.textContent = isSearching(state)
      ? `${count} of ${total} fruit${total === 1 ? '' : 's'}`
      : resting;
  };

  const render = (state) => {
    const searching = isSearching(state);
    if (pageList) {
      if (searching && !list) {
        pageList.removeAttribute('id');
        makeList(pageList);
      }
      pageList.hidden = searching;
      if (list) list.hidden = !searching;
      if (pager) pager.hidden = searching;
    }
    const { q, category, ...facets } = state;
    const hits = new Set(filterFruits(fruits, q, category, facets));
    for (const fruit of fruits) {
      const item = items.get(fruit.slug);
      if (!item) continue;
      const hidden = !hits.has(fruit);
      if (item.li.hidden !== hidden) item.li.hidden = hidden;
      const range = !hidden && matchRange(item.name, q);
      const mark = `${range}`;
      if (hidden || mark === item.mark) continue;
      const { name } = item;
      item.mark = mark;
      item.element.replaceChildren(
        ...(range
          ? [name.slice(0, range[0]), make('mark', '', name.slice(...range)), name.slice(range[1])]
          : [name]),
      );
    }
    empty.hidden = hits.size > 0;
    $('search-empty-text').textContent =
      `No fruit matches “${q}”` +
      (category ? ' in ' + category : '') +
      Object.entries(facets).map(([k, v]) => (v ? ` with ${k} ${v}` : '')).join('');
    shown = state;
    return hits.size;
  };

  // Typing settles before the count is announced and the URL replaced (screen readers, Safari's
  // history limit); a category change or clear pushes a history entry.
  const update = (push) => {
    clearTimeout(timer);
    if (push) save(shown);
    const state = read();
    const count = render(state);
    const settle = () => {
      announce(state, count);
      save(state, push);
    };
    if (push) settle();
    else timer = setTimeout(settle, 400);
  };

  write(parseQuery(location.search, names));
  const indexURL = new URL(form.dataset.index, location.href);
  try {
    const response = await fetch(indexURL);
    const index = response.ok && (await response.json());
    if (index?.version !== 1) throw new Error('no index in format 1');
    fruits = index.fruits;
  } catch {
    status.textContent =
      location.protocol === 'file:'
        ? 'Search needs the site to be served over HTTP (e.g. python3 -m http.server -d Output)'
        : 'Search is unavailable: the index did not load.';
    return;
  }

  // Lists every fruit of the index in a new list after `place`, the list the search filters.
  const makeList = (place) => {
    list = make('ul', 'fruit-list');
    place.after(list);
    list.id = 'fruit-list';
    for (const { slug, name, emoji, category, url } of fruits) {
      const link = make('a', '', make('span', 'result-name', name));
      link.href = new URL(url ?? `fruits/${slug}/`, indexURL);
      if (emoji) {
        link.prepend(make('span', 'result-emoji', emoji));
        link.firstChild.setAttribute('aria-hidden', 'true');
      }
      const li = make('li', '', link, ' ', make('span', 'result-category', category));
      li.dataset.slug = slug;
      list.append(li);
    }
    for (const li of list.querySelectorAll('li[data-slug]')) {
      const element = li.querySelector('.result-name');
      if (element) items.set(li.dataset.slug, { li, element, name: element.textContent });
    }
  };
  // A page of a paginated index lists only some fruits. A search shows, in place of them and
  // of the pager, every fruit of the index, in a list made the first time one is needed.
  if (list && list.querySelectorAll('li[data-slug]').length < fruits.length) {
    pageList = list;
    list = null;
  } else if (list) {
    for (const li of list.querySelectorAll('li[data-slug]')) {
      const element = li.querySelector('.result-name');
      if (element) items.set(li.dataset.slug, { li, element, name: element.textContent });
    }
  } else {
    makeList(status);
  }

  // MARK: Events

  form.onsubmit = (event) => {
    event.preventDefault();
    update();
  };
  input.oninput = () => update();
  input.onkeydown = (event) => {
    if (event.key === 'Escape' && input.value) {
      event.preventDefault();
      input.value = '';
      update();
    }
  };
  for (const select of controls.slice(1)) select.onchange = () => update(true);
  $('search-clear').onclick = () => {
    write({});
    update(true);
    input.focus();
  };
  addEventListener('popstate', () => {
    clearTimeout(timer);
    write(parseQuery(location.search, names));
    const state = read();
    announce(state, render(state));
  });
  addEventListener('keydown', (event) => {
    const { tagName, isContentEditable } = event.target;
    if (
      event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey &&
      !isContentEditable && !/^(INPUT|TEXTAREA|SELECT)$/.test(tagName)
    ) {
      event.preventDefault();
      input.select();
      input.focus();
    }
  });
  $('search-hint').hidden = false;

  // The controls hold any keys typed while the index loaded.
  const state = read();
  const count = render(state);
  if (isSearching(state)) announce(state, count);
}

if (typeof document !== 'undefined') start();
