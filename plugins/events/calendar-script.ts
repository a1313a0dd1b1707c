/**
 * calendar.js, the page's one script, served as written (plain ES2017, no build step).
 * Kept as a string so it ships inside dist/ with the plugin. It turns the server-rendered
 * page into a live one: fragments swapped in from /events/calendar, the filter modal fed
 * by /events/filters, state in the query string (back/forward work).
 */
export const CALENDAR_SCRIPT = String.raw`(function () {
  'use strict';
  var main = document.getElementById('fh-main');
  if (!main || !window.fetch || !window.URLSearchParams) return;
  var api = main.getAttribute('data-api');
  var pagePath = main.getAttribute('data-page');
  var form = document.querySelector('.fh-search');
  var list = document.getElementById('fh-list');
  var dialog = document.getElementById('fh-filters');
  var openButton = document.getElementById('fh-open-filters');
  var groups = document.getElementById('fh-filter-groups');
  var request = 0;

  function readState(search) {
    var q = new URLSearchParams(search);
    var state = { event_search: q.get('event_search') || '', date_start: q.get('date_start') || '', date_end: q.get('date_end') || '',
      past: q.get('past') === '1', paged: parseInt(q.get('paged') || '1', 10) || 1, tax: {},
      archive_taxonomy: q.get('archive_taxonomy') || '', archive_term_id: q.get('archive_term_id') || '' };
    q.forEach(function (value, key) {
      var m = /^tax_filter\[([a-z][a-z0-9_]*)\](\[\])?$/.exec(key);
      if (m && /^\d+$/.test(value)) (state.tax[m[1]] = state.tax[m[1]] || []).push(Number(value));
    });
    return state;
  }
  var state = readState(location.search);

  function taxParams(q, name, tax) {
    Object.keys(tax).forEach(function (t) { tax[t].forEach(function (id) { q.append(name + '[' + t + '][]', String(id)); }); });
  }
  function query(s, withPage) {
    var q = new URLSearchParams();
    if (s.event_search) q.set('event_search', s.event_search);
    if (s.date_start) q.set('date_start', s.date_start);
    if (s.date_end) q.set('date_end', s.date_end);
    taxParams(q, 'tax_filter', s.tax);
    if (s.archive_taxonomy && s.archive_term_id) { q.set('archive_taxonomy', s.archive_taxonomy); q.set('archive_term_id', s.archive_term_id); }
    if (s.past) q.set('past', '1');
    if (withPage && s.paged > 1) q.set('paged', String(s.paged));
    return q;
  }
  function swap(id, html) { var el = document.getElementById(id); if (el) el.innerHTML = html; }
  function showError(message) {
    list.innerHTML = '';
    var p = document.createElement('p');
    p.className = 'fh-error';
    p.setAttribute('role', 'alert');
    p.textContent = message;
    list.appendChild(p);
  }

  function load(push) {
    var mine = ++request;
    var q = query(state, true);
    list.setAttribute('aria-busy', 'true');
    return fetch(api + '/events/calendar?' + q.toString(), { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (res) { return res.json().then(function (body) { return { ok: res.ok, body: body }; }); })
      .then(function (r) {
        if (mine !== request) return;
        list.setAttribute('aria-busy', 'false');
        if (!r.ok || !r.body.success) { showError((r.body && r.body.message) || 'The calendar could not be loaded.'); return; }
        swap('fh-list', r.body.html);
        swap('fh-pagination', r.body.pagination);
        swap('fh-navigation', r.body.navigation);
        swap('fh-counter', r.body.counter);
        swap('fh-active', r.body.active);
        var text = q.toString();
        if (push) history.pushState(null, '', pagePath + (text ? '?' + text : ''));
        main.setAttribute('data-loaded', String(mine));
      })
      .catch(function () { if (mine === request) { list.setAttribute('aria-busy', 'false'); showError('The calendar could not be loaded.'); } });
  }

  function syncForm() {
    form.elements.event_search.value = state.event_search;
    form.elements.date_start.value = state.date_start;
    form.elements.date_end.value = state.date_end;
    Array.prototype.slice.call(form.querySelectorAll('input[type=hidden]')).forEach(function (el) { el.parentNode.removeChild(el); });
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    state.event_search = form.elements.event_search.value.trim();
    state.date_start = form.elements.date_start.value;
    state.date_end = form.elements.date_end.value;
    state.paged = 1;
    load(true);
  });

  main.addEventListener('click', function (event) {
    var link = event.target.closest ? event.target.closest('a[data-paged], a[data-past], a.fh-active-filter') : null;
    if (!link || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    if (link.classList.contains('fh-active-filter')) {
      // The server built the link without this filter: its query string is the new state.
      state = readState(new URL(link.href).search);
      syncForm();
      load(true);
      return;
    }
    if (link.hasAttribute('data-past')) { state.past = link.getAttribute('data-past') === '1'; state.paged = 1; }
    else state.paged = Number(link.getAttribute('data-paged')) || 1;
    load(true).then(function () {
      var heading = list.querySelector('h2');
      if (heading) { heading.setAttribute('tabindex', '-1'); heading.focus(); }
    });
  });

  window.addEventListener('popstate', function () { state = readState(location.search); syncForm(); load(false); });

  // The modal draws each taxonomy as a tree: every term inside its parent's item, whatever
  // order the terms arrive in (by name, so a child may come before its parent).
  function termTree(tax, checked) {
    var known = {};
    var children = {};
    tax.terms.forEach(function (term) { known[term.id] = true; });
    tax.terms.forEach(function (term) {
      var parent = term.parent && known[term.parent] ? term.parent : 0;
      (children[parent] = children[parent] || []).push(term);
    });
    var drawn = {};
    function branch(parent) {
      var list = document.createElement('ul');
      list.className = 'fh-term-tree';
      (children[parent] || []).forEach(function (term) {
        if (drawn[term.id]) return;
        drawn[term.id] = true;
        var item = document.createElement('li');
        var label = document.createElement('label');
        var box = document.createElement('input');
        box.type = 'checkbox';
        box.name = tax.taxonomy;
        box.value = String(term.id);
        box.checked = checked.indexOf(term.id) >= 0;
        label.appendChild(box);
        label.appendChild(document.createTextNode(' '));
        var name = document.createElement('span');
        name.className = 'fh-term-name';
        name.textContent = term.name;
        label.appendChild(name);
        label.appendChild(document.createTextNode(' '));
        var count = document.createElement('span');
        count.className = 'fh-count';
        label.appendChild(count);
        item.appendChild(label);
        if (children[term.id]) item.appendChild(branch(term.id));
        list.appendChild(item);
      });
      return list;
    }
    return branch(0);
  }

  // Counts and disabled boxes from a /events/filters answer. A ticked box stays enabled
  // even at 0, so it can be unticked.
  function showCounts(body) {
    body.taxonomies.forEach(function (tax) {
      tax.terms.forEach(function (term) {
        var box = groups.querySelector('input[name="' + tax.taxonomy + '"][value="' + term.id + '"]');
        if (!box) return;
        box.disabled = term.count === 0 && !box.checked;
        box.parentNode.querySelector('.fh-count').textContent = '(' + term.count + ')';
      });
    });
  }

  function renderFilters(body) {
    groups.innerHTML = '';
    body.taxonomies.forEach(function (tax) {
      if (!tax.terms.length) return;
      var fieldset = document.createElement('fieldset');
      fieldset.setAttribute('data-taxonomy', tax.taxonomy);
      var legend = document.createElement('legend');
      legend.textContent = tax.label;
      fieldset.appendChild(legend);
      fieldset.appendChild(termTree(tax, state.tax[tax.taxonomy] || []));
      groups.appendChild(fieldset);
    });
    showCounts(body);
    if (!groups.children.length) groups.textContent = 'No filters available.';
  }

  // The modal's counts are for the boxes ticked in it, asked again on every tick; only the
  // latest answer is shown (an earlier one may arrive last).
  var filterRequest = 0;
  function fetchFilters(tax) {
    var mine = ++filterRequest;
    var q = query(state, false);
    q.delete('event_search');
    Array.from(q.keys()).forEach(function (key) { if (key.indexOf('tax_filter[') === 0) q.delete(key); });
    taxParams(q, 'active', tax);
    return fetch(api + '/events/filters?' + q.toString(), { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (res) { return res.json(); })
      .then(function (body) { return mine === filterRequest ? body : null; });
  }
  function ticked() {
    var tax = {};
    Array.prototype.slice.call(groups.querySelectorAll('input[type=checkbox]:checked')).forEach(function (box) {
      (tax[box.name] = tax[box.name] || []).push(Number(box.value));
    });
    return tax;
  }
  function recount() {
    fetchFilters(ticked())
      .then(function (body) { if (body && body.success) showCounts(body); })
      .catch(function () { /* the counts shown stay; Apply still works */ });
  }
  groups.addEventListener('change', function (event) {
    if (event.target && event.target.type === 'checkbox') recount();
  });

  function openFilters() {
    groups.textContent = 'Loading…';
    dialog.showModal();
    fetchFilters(state.tax)
      .then(function (body) {
        if (!body) return;
        if (!body.success) { groups.textContent = body.message || 'Filters could not be loaded.'; return; }
        renderFilters(body);
        var first = groups.querySelector('input:not([disabled])') || document.getElementById('fh-apply');
        first.focus();
      })
      .catch(function () { groups.textContent = 'Filters could not be loaded.'; });
  }
  function closeFilters() { if (dialog.open) dialog.close(); }

  openButton.hidden = false;
  openButton.addEventListener('click', openFilters);
  dialog.addEventListener('close', function () { openButton.focus(); });
  document.getElementById('fh-close').addEventListener('click', closeFilters);
  document.getElementById('fh-clear').addEventListener('click', function () {
    Array.prototype.slice.call(groups.querySelectorAll('input[type=checkbox]')).forEach(function (box) { box.checked = false; });
    recount();
  });
  document.getElementById('fh-apply').addEventListener('click', function () {
    state.tax = ticked();
    state.paged = 1;
    syncForm();
    closeFilters();
    load(true);
  });
})();
`;
