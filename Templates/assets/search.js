// The index page's search: filters the server-rendered list, keeps the search in the URL and
// puts data into the DOM only as text.
import { filterFruits, matchRange } from './fruit-filter.js';

// MARK: - URL state

/** Reads `?q=…&category=…` from a query string. @returns {{q: string, category: string}} */
export function parseQuery(search) {
  const params = new URLSearchParams(search);
  return { q: params.get('q') ?? '', category: params.get('category') ?? '' };
}

/** Builds the query string for a search, keeping other parameters of `search`; "" if none. */
export function buildQuery({ q, category }, search = '') {
  const params = new URLSearchParams(search);
  params.delete('q');
  params.delete('category');
  if (q) params.set('q', q);
  if (category) params.set('category', category);
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
  const select = $('search-category');
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

  const read = () => ({ q: input.value, category: select.value });
  const write = ({ q, category }) => {
    input.value = q;
    select.value = category;
    if (select.selectedIndex < 0) select.value = ''; // a category that no longer exists
  };

  const save = (state, push) => {
    const url = location.pathname + buildQuery(state, location.search) + location.hash;
    try {
      if (url !== location.pathname + location.search + location.hash) {
        history[push ? 'pushState' : 'replaceState'](null, '', url);
      }
    } catch {} // rate-limited: the next change catches up
  };

  const announce = ({ q, category }, count) => {
    const total = fruits.length;
    status.textContent =
      q || category ? `${count} of ${total} fruit${total === 1 ? '' : 's'}` : resting;
  };

  const render = (state) => {
    if (pageList) {
      const isSearching = Boolean(state.q || state.category);
      if (isSearching && !list) {
        pageList.removeAttribute('id');
        makeList(pageList);
      }
      pageList.hidden = isSearching;
      if (list) list.hidden = !isSearching;
      if (pager) pager.hidden = isSearching;
    }
    const hits = new Set(filterFruits(fruits, state.q, state.category));
    for (const fruit of fruits) {
      const item = items.get(fruit.slug);
      if (!item) continue;
      const hidden = !hits.has(fruit);
      if (item.li.hidden !== hidden) item.li.hidden = hidden;
      const range = !hidden && matchRange(item.name, state.q);
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
      `No fruit matches “${state.q}”` + (state.category ? ' in ' + state.category : '');
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

  write(parseQuery(location.search));
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
  select.onchange = () => update(true);
  $('search-clear').onclick = () => {
    write({ q: '', category: '' });
    update(true);
    input.focus();
  };
  addEventListener('popstate', () => {
    clearTimeout(timer);
    write(parseQuery(location.search));
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
  if (state.q || state.category) announce(state, count);
}

if (typeof document !== 'undefined') start();
