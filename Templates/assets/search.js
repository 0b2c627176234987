// The index page's search: while a search is set, shows the matching fruits of the whole
// catalog, fifty at a time, in place of the page's own list; keeps the search in the URL and
// puts data into the DOM only as text. The index may be single or sharded (search-index.js).
import { matchRange } from './fruit-filter.js';
import { openIndex } from './search-index.js';

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

/**
 * The page's words, from the theme's string table (`strings`): `say(key, values)` fills in a
 * message's `{name}`s, numbers as `lang` writes them with the build's digits
 * (`strings.numberingSystem`); a counted message takes the form that CLDR's plural rules give
 * `values.count` in `lang` (Intl.PluralRules), as the build's do.
 */
export function words(strings, lang) {
  const plural = new Intl.PluralRules(lang);
  const number = new Intl.NumberFormat(lang, { numberingSystem: strings.numberingSystem });
  return (key, values = {}) => {
    const message = strings[key] ?? '';
    const text =
      typeof message === 'string' ? message : message[plural.select(values.count)] ?? message.other;
    return text.replace(/\{(\w+)\}/g, (all, name) => {
      const value = values[name];
      return value === undefined ? all : typeof value === 'number' ? number.format(value) : value;
    });
  };
}

// MARK: - Page

const $ = (id) => document.getElementById(id);
const make = (tag, className, ...children) => {
  const element = document.createElement(tag);
  if (className) element.className = className;
  element.append(...children);
  return element;
};

/** How many results a search shows first, and how many more each "Show more" adds. */
const STEP = 50;

async function start() {
  const form = $('search-form');
  const say = words(JSON.parse($('search-strings').textContent), document.documentElement.lang);
  const input = $('search-q');
  // The text, the category and each facet: a control each, named as its URL parameter.
  const controls = [input, ...form.querySelectorAll('select')];
  const names = controls.map((control) => control.name);
  const status = $('search-status');
  const empty = $('search-empty');
  const resting = status.textContent;
  const list = $('fruit-list'); // the page's own fruits, shown while nothing is searched
  const pager = $('pagination');
  // A search's results take the place of the page's fruits and of its pager.
  const results = make('ul', 'fruit-list fruit-cards');
  const more = make('button', 'search-more', say('scriptShowMore'));
  results.id = 'search-results';
  more.type = 'button';
  results.hidden = more.hidden = true;
  (list ?? status).after(results, more);
  for (const control of controls) {
    control.setAttribute('aria-controls', (list ? 'fruit-list ' : '') + results.id);
  }
  let index;
  let shown; // the state the page shows, or is about to
  let found; // the search shown: { count, records, q }
  let searches = 0; // counts renders: a slower, older one must not overwrite a newer one
  let loading = false;
  let timer;

  const read = () => Object.fromEntries(controls.map((c) => [c.name, c.value]));
  let dropped = []; // values asked for that no menu has
  const write = (state) => {
    dropped = [];
    for (const control of controls) {
      const value = state[control.name] ?? '';
      // A menu's values are NFC, as the filter compares them.
      control.value = control === input ? value : value.normalize();
      if (control.selectedIndex < 0) {
        control.value = ''; // values are exact, case included
        dropped.push(say('scriptLeftOutValue', { name: control.name, value }));
      }
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
    const { total } = index;
    status.textContent =
      (isSearching(state) ? say('scriptResults', { shown: count, count: total }) : resting) +
      (dropped.length ? say('scriptLeftOut', { values: dropped.join(say('scriptLeftOutJoin')) }) : '');
  };

  // A card's thumbnail, as partials/thumbnail.mustache makes the page's; its src set last, so
  // that the browser chooses among its sources once.
  const thumbnail = ({ src, width, height, color, sources = [] }) => {
    const at = (url) => new URL(url, index.root).href;
    const img = make('img', 'picture card-picture');
    const picture = make(
      'picture',
      '',
      ...sources.map(({ type, src }) => Object.assign(make('source'), { type, srcset: at(src) })),
      img,
    );
    Object.assign(img, { width, height, alt: '', loading: 'lazy', decoding: 'async' });
    img.style.backgroundColor = color;
    img.src = at(src);
    return picture;
  };

  // One result's card, as partials/search.mustache makes the page's, the match highlighted.
  const item = ({ slug, name, emoji, category, url, image }, q) => {
    const range = matchRange(name, q);
    const label = range
      ? [name.slice(0, range[0]), make('mark', '', name.slice(...range)), name.slice(range[1])]
      : [name];
    const icon = image ? thumbnail(image) : make('bdi', 'card-emoji emoji', emoji ?? '');
    if (!image) icon.setAttribute('aria-hidden', 'true');
    const link = make('a', '', make('bdi', 'card-name', ...label));
    link.href = new URL(url ?? `fruits/${slug}/`, index.root);
    const li = make('li', 'fruit-card', icon, link, ' ', make('bdi', 'card-meta', category));
    li.dataset.slug = slug;
    return li;
  };
  // The next results of a search, from `start` to `end`.
  const items = async ({ records, q }, start, end = start + STEP) =>
    (await records(start, end)).map((fruit) => item(fruit, q));
  const unavailable = () => (status.textContent = say('scriptUnavailable'));

  // Shows a state, its first `shown` results. Resolves to its count, or to null when a later
  // render took its place or the index failed to answer.
  const render = async (state, shown = STEP) => {
    const search = ++searches;
    let searching = isSearching(state);
    let result = null;
    let first = [];
    try {
      if (searching) {
        result = { ...(await index.search(state)), q: state.q };
        first = await items(result, 0, shown);
      }
    } catch {
      searching = result = null; // shown as no search: no earlier results stay
      first = [];
    }
    if (search !== searches) return null;
    found = result;
    const count = result?.count ?? 0;
    if (list) list.hidden = searching;
    if (pager) pager.hidden = searching;
    results.hidden = !searching;
    results.replaceChildren(...first);
    more.hidden = first.length >= count;
    empty.hidden = !searching || count > 0;
    if (searching === null) {
      unavailable();
      return null;
    }
    const { q, category, ...facets } = state;
    $('search-empty-text').textContent = say('scriptNoMatchFor', {
      query: q ? say('scriptQuery', { query: q }) : '',
      category: category ? say('scriptInCategory', { category }) : '',
      facets: Object.entries(facets)
        .map(([facet, value]) => (value ? say('scriptWithFacet', { facet, value }) : ''))
        .join(''),
    });
    // The next keystroke's gram files, while the visitor types: asked for once this frame is
    // painted, since asking takes milliseconds the results need not wait for.
    if (q) requestAnimationFrame(() => setTimeout(() => index.prefetch(q)));
    return count;
  };

  // Typing settles before the count is announced and the URL replaced (screen readers,
  // Safari's history limit). A menu's change or a clear pushes a history entry, which further
  // changes until then (arrowing through options) replace.
  let burst = false;
  const searching = () => (status.textContent = say('scriptSearching'));
  const update = (push) => {
    clearTimeout(timer);
    dropped = [];
    if (push && !burst) save(shown);
    const state = (shown = read());
    const rendered = render(state);
    if (push) {
      save(state, !burst);
      burst = true;
    }
    if (status.textContent !== say('scriptSearching')) searching();
    timer = setTimeout(() => {
      save(state);
      burst = false;
      rendered.then(
        (count) => count !== null && shown === state && announce(state, found?.count ?? count),
      );
    }, 400);
  };

  write(parseQuery(location.search, names));
  if (isSearching(read())) searching();
  input.oninput = searching; // until the index is there
  // A new build: the search shown is made again there.
  const onChange = () =>
    render(shown, Math.max(results.children.length, STEP)).then(
      (count) => count !== null && announce(shown, count),
    );
  try {
    const open = (url) => openIndex(new URL(url, location.href), { onChange });
    index = await open(form.dataset.index).catch(async (error) => {
      if (error.status !== 404) throw error;
      // An old page: the page as it is now names the index.
      const page = await (await fetch(location.href, { cache: 'no-cache' })).text();
      const now = new DOMParser().parseFromString(page, 'text/html');
      return open(now.getElementById(form.id).dataset.index);
    });
  } catch {
    if (location.protocol !== 'file:') return unavailable();
    status.textContent = say('scriptNeedsHTTP');
    return;
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
  // Adds the next results, and moves the focus to the first of them: the button may go.
  more.onclick = async () => {
    const search = found;
    const start = results.children.length;
    if (loading || !search) return;
    loading = true;
    try {
      const next = await items(search, start);
      if (search !== found) return; // another search replaced this one meanwhile
      results.append(...next);
      more.hidden = results.children.length >= search.count;
      next[0]?.querySelector('a').focus();
    } catch {
      unavailable();
    } finally {
      loading = false;
    }
  };
  addEventListener('popstate', () => {
    clearTimeout(timer);
    write(parseQuery(location.search, names));
    const state = (shown = read());
    render(state).then((count) => count !== null && announce(state, count));
  });
  $('search-hint').hidden = false;

  // What was typed or chosen while the index loaded goes to the address.
  const state = (shown = read());
  save(state);
  const count = await render(state);
  if (count !== null && (isSearching(state) || dropped.length || status.textContent !== resting)) {
    announce(state, count);
  }
}

if (typeof document !== 'undefined') start();
