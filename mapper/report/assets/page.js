// The report page's script: reads the data island (#testmap-data, written by
// mapper/report/page_data.cc) and draws the heatmap, admission, plan and
// runs. No network, no libraries. Big indexes stay usable because counts
// are precomputed, test lists stay encoded until a cell is opened, and only
// the heatmap rows in view exist in the DOM.
(function () {
  'use strict';

  // ---- codes (mapper/report/compact_codes.h) ------------------------------
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const DIGIT = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;

  // Calls fn(value) for each varint of `code`.
  function forEachVarint(code, fn) {
    let value = 0, scale = 1;
    for (let i = 0; i < code.length; i++) {
      const d = DIGIT[code.charCodeAt(i)];
      if (d < 0) throw new Error('bad code character at ' + i);
      value += (d & 31) * scale;
      if (d & 32) { scale *= 32; continue; }
      fn(value);
      value = 0; scale = 1;
    }
    if (scale !== 1) throw new Error('code cut short');
  }
  function decodeVarints(code) {
    const out = [];
    forEachVarint(code, (v) => out.push(v));
    return out;
  }
  function decodeFrontCoded(code) {
    const out = [];
    let pos = 0, prev = '';
    while (pos < code.length) {
      let common = 0, scale = 1;
      for (;;) {
        const d = DIGIT[code.charCodeAt(pos++)];
        if (d < 0 || d === undefined) throw new Error('bad front code at ' + (pos - 1));
        common += (d & 31) * scale;
        if (!(d & 32)) break;
        scale *= 32;
      }
      const end = code.indexOf('\n', pos);
      if (end < 0) throw new Error('front code cut short');
      prev = prev.slice(0, common) + code.slice(pos, end);
      out.push(prev);
      pos = end + 1;
    }
    return out;
  }

  // ---- helpers -------------------------------------------------------------
  const $ = (id) => document.getElementById(id);
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    if (attrs) for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('data-')) e.setAttribute(k, v);
      else e.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }
  const SVG = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function seconds(s) {
    if (s === null || s === undefined) return '–';
    if (s === 0) return '0';
    if (s < 1) return (s * 1000).toFixed(s < 0.01 ? 1 : 0) + ' ms';
    if (s < 120) return s.toFixed(1) + ' s';
    if (s < 7200) return (s / 60).toFixed(1) + ' min';
    return (s / 3600).toFixed(2) + ' h';
  }
  const signedPercent = (f) => {
    const p = Math.round(f * 100);
    return (p > 0 ? '+' : '') + (p === 0 ? '0' : String(p)) + '%';
  };
  const plural = (n, word) => n.toLocaleString('en-US') + ' ' + word +
    (n === 1 ? '' : word.endsWith('s') ? 'es' : 's');
  const get = (o, ...path) => {
    for (const p of path) { if (o === null || typeof o !== 'object') return undefined; o = o[p]; }
    return o;
  };

  const data = JSON.parse($('testmap-data').textContent);
  if (data.format !== 'testmap-report' || data.version !== 1)
    throw new Error('this page holds data of an unknown format');

  // ---- tests (decoded on first use) ---------------------------------------
  let testIds = null, testOutcome = null, testMs = null;
  function tests() {
    if (!testIds) {
      testIds = decodeFrontCoded(data.tests.ids);
      testOutcome = decodeVarints(data.tests.outcome);
      testMs = decodeVarints(data.tests.ms);
    }
    return testIds;
  }

  // ---- coverage: state, filters, counts ------------------------------------
  const cov = data.coverage;
  const D = cov.dtypes.length;
  const COLS = D + 1;  // column 0 is "any dtype"
  const rows = cov.rows.map((r, i) => {
    const cells = new Array(COLS).fill(null);
    for (const [col, count, code] of r.cells) cells[col + 1] = { count, code };
    return { index: i, op: r.op, cells, counts: cells.map((c) => (c ? c.count : 0)) };
  });
  const evidences = [...new Set(cov.facets.map((f) => f[0]))].sort();
  const roles = [...new Set(cov.facets.map((f) => f[1]))].filter((r) => r !== '').sort();
  const state = {
    evidence: new Set(evidences), roles: new Set(roles), search: '', sort: 'tests',
    view: rows, selected: null, shown: 0, list: [],
  };

  function filtered() {
    return state.evidence.size !== evidences.length || state.roles.size !== roles.length;
  }
  // Which facet sets pass the filters: one observation must pass all of them.
  function passingSets() {
    const mask = cov.facets.reduce((m, [ev, role], i) =>
      state.evidence.has(ev) && (role === '' || !roles.length || state.roles.has(role))
        ? m | (1 << i) : m, 0);
    return cov.facet_sets.map((set) => (set & mask) !== 0);
  }
  function cellTests(cell, pass, fn) {
    let test = -1, odd = false, delta = 0;
    forEachVarint(cell.code, (v) => {
      if (!odd) { delta = v; odd = true; return; }
      odd = false;
      test += delta + 1;
      if (pass[v]) fn(test);
    });
  }
  function recount() {
    if (!filtered()) {
      for (const r of rows) r.counts = r.cells.map((c) => (c ? c.count : 0));
      return;
    }
    const pass = passingSets();
    for (const r of rows) {
      r.counts = r.cells.map((c) => {
        if (!c) return 0;
        let n = 0;
        cellTests(c, pass, () => n++);
        return n;
      });
    }
  }
  function refreshView() {
    const q = state.search.trim().toLowerCase();
    let view = rows.filter((r) => r.counts[0] > 0 && (!q || r.op.toLowerCase().includes(q)));
    if (state.sort === 'tests')
      view.sort((a, b) => b.counts[0] - a.counts[0] || (a.op < b.op ? -1 : a.op > b.op ? 1 : 0));
    else view.sort((a, b) => (a.op < b.op ? -1 : a.op > b.op ? 1 : 0));
    state.view = view;
    let cells = 0, max = 0;
    for (const r of view) for (let c = 1; c < COLS; c++) {
      if (r.counts[c]) cells++;
      if (r.counts[c] > max) max = r.counts[c];
    }
    state.max = Math.max(max, 1);
    state.maxAny = Math.max(1, ...view.map((r) => r.counts[0]));
    $('heatmap-status').textContent = plural(view.length, 'operator') + ' × ' +
      plural(D, 'dtype') + ', ' + plural(cells, 'non-empty cell') +
      (filtered() ? ' (filtered)' : '') + '.';
    $('heatmap-body').style.height = view.length * ROW + 'px';
    renderWindow(true);
  }

  // ---- heatmap rendering (virtual rows) -----------------------------------
  const ROW = 22, OVERSCAN = 12;
  let lastWindow = '';
  function color(n, max) {
    if (!n) return null;
    const t = Math.log1p(n) / Math.log1p(max);
    // From a pale to a deep blue, perceptually even enough for counts.
    const l = 95 - t * 62, s = 55 + t * 25;
    return { bg: `hsl(214, ${s}%, ${l}%)`, fg: l < 55 ? '#fff' : '#1d2330' };
  }
  function renderHead() {
    const head = $('heatmap-head');
    head.style.setProperty('--cols', COLS);
    $('heatmap-body').style.setProperty('--cols', COLS);
    head.append(el('div', { class: 'op', text: 'operator' }),
                el('div', { class: 'dt any', text: 'any dtype', title: 'tests running the operator' }));
    for (const d of cov.dtypes) head.append(el('div', { class: 'dt', text: d, 'data-dtype': d }));
  }
  // Rows stay in the DOM while in the window; scrolling adds the rows that
  // come into it and drops those that leave, so a step costs a few rows.
  const rendered = new Map();  // index in state.view -> row element
  function renderWindow(force) {
    const box = $('heatmap'), body = $('heatmap-body');
    if (force === true) {
      body.replaceChildren();
      rendered.clear();
      lastWindow = '';
    }
    const top = box.scrollTop - body.offsetTop;
    const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
    const last = Math.min(state.view.length, Math.ceil((top + box.clientHeight) / ROW) + OVERSCAN);
    const key = first + ':' + last;
    if (key === lastWindow) return;
    lastWindow = key;
    for (const [i, row] of rendered) {
      if (i < first || i >= last) {
        row.remove();
        rendered.delete(i);
      }
    }
    const frag = document.createDocumentFragment();
    for (let i = first; i < last; i++) {
      if (rendered.has(i)) continue;
      const row = renderRow(state.view[i], i);
      rendered.set(i, row);
      frag.append(row);
    }
    body.append(frag);
  }
  const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ESC[c]);
  function renderRow(r, i) {
    const row = document.createElement('div');
    row.className = 'hm-row';
    row.setAttribute('role', 'row');
    row.dataset.op = r.op;
    row.style.top = i * ROW + 'px';
    const op = esc(r.op);
    let html = `<div class="op" role="rowheader" title="${op}">${op}</div>`;
    const sel = state.selected && state.selected.row === r ? state.selected.col : -1;
    for (let c = 0; c < COLS; c++) {
      const n = r.counts[c];
      const dtype = c === 0 ? '*' : cov.dtypes[c - 1];
      const title = r.op + (c === 0 ? ', any dtype: ' : ' × ' + dtype + ': ') + plural(n, 'test');
      let cls = 'cell' + (c === 0 ? ' any' : '') + (n ? '' : ' empty') + (c === sel ? ' selected' : '');
      let extra = '';
      if (n) {
        const k = color(n, c === 0 ? state.maxAny : state.max);
        extra = ` tabindex="-1" style="background:${k.bg};color:${k.fg}"`;
      }
      html += `<div class="${cls}" role="gridcell" data-dtype="${esc(dtype)}" data-count="${n}" ` +
        `title="${esc(title)}"${extra}>${n ? n : ''}</div>`;
    }
    row.innerHTML = html;
    return row;
  }

  // ---- the cell panel -----------------------------------------------------
  const PAGE = 200;
  function openCell(r, col) {
    state.selected = { row: r, col };
    const cell = r.cells[col];
    const list = [];
    if (cell) {
      const pass = filtered() ? passingSets() : cov.facet_sets.map(() => true);
      cellTests(cell, pass, (t) => list.push(t));
    }
    state.list = list;
    state.shown = 0;
    const dtype = col === 0 ? 'any dtype' : cov.dtypes[col - 1];
    $('cell-panel').hidden = false;
    $('cell-panel').dataset.op = r.op;
    $('cell-panel').dataset.dtype = col === 0 ? '*' : cov.dtypes[col - 1];
    $('cell-title').textContent = r.op + ' × ' + dtype;
    const ev = [...state.evidence].join(', ');
    $('cell-meta').textContent = plural(list.length, 'test') + (filtered() ? ' (evidence: ' + ev +
      (roles.length ? '; role: ' + [...state.roles].join(', ') : '') + ')' : '');
    $('cell-tests').replaceChildren();
    $('cell-nodeids').value = '';
    showMore();
    renderWindow(true);
  }
  function showMore() {
    const ids = tests();
    const frag = document.createDocumentFragment();
    const end = Math.min(state.list.length, state.shown + PAGE);
    for (let i = state.shown; i < end; i++) {
      const t = state.list[i];
      const outcome = testOutcome[t] ? data.tests.outcomes[testOutcome[t] - 1] : '';
      const ms = testMs[t] ? testMs[t] - 1 : null;
      frag.append(el('li', { 'data-nodeid': ids[t] }, ids[t],
        outcome ? el('span', { class: 'o ' + outcome,
                               text: outcome + (ms !== null ? ', ' + seconds(ms / 1000) : '') }) : null));
    }
    $('cell-tests').append(frag);
    state.shown = end;
    const more = $('cell-more');
    more.hidden = end >= state.list.length;
    more.textContent = 'Show ' + Math.min(PAGE, state.list.length - end) + ' more of ' +
      (state.list.length - end);
  }

  function setupCoverage() {
    renderHead();
    const evBox = $('evidence-filter');
    for (const ev of evidences) {
      const box = el('input', { type: 'checkbox', value: ev, name: 'evidence' });
      box.checked = true;
      evBox.append(el('label', null, box, ' ' + ev));
    }
    if (roles.length) {
      const roleBox = $('role-filter');
      roleBox.hidden = false;
      for (const role of roles) {
        const box = el('input', { type: 'checkbox', value: role, name: 'role' });
        box.checked = true;
        roleBox.append(el('label', null, box, ' ' + role));
      }
    }
    $('filters').addEventListener('change', (e) => {
      const t = e.target;
      if (t.name === 'evidence') t.checked ? state.evidence.add(t.value) : state.evidence.delete(t.value);
      else if (t.name === 'role') t.checked ? state.roles.add(t.value) : state.roles.delete(t.value);
      else if (t.id === 'sort') state.sort = t.value;
      else return;
      recount();
      refreshView();
      if (state.selected) openCell(state.selected.row, state.selected.col);
    });
    $('filters').addEventListener('submit', (e) => e.preventDefault());
    $('op-search').addEventListener('input', (e) => { state.search = e.target.value; refreshView(); });
    $('heatmap').addEventListener('scroll', () => requestAnimationFrame(renderWindow), { passive: true });
    window.addEventListener('resize', () => renderWindow(true));
    $('heatmap-body').addEventListener('click', (e) => {
      const cell = e.target.closest('.cell');
      if (!cell || cell.classList.contains('empty')) return;
      const op = cell.parentElement.dataset.op;
      const r = state.view.find((x) => x.op === op);
      const col = cell.dataset.dtype === '*' ? 0 : cov.dtypes.indexOf(cell.dataset.dtype) + 1;
      if (r) openCell(r, col);
    });
    $('heatmap-body').addEventListener('keydown', (e) => {
      if ((e.key === 'Enter' || e.key === ' ') && e.target.classList.contains('cell')) {
        e.preventDefault();
        e.target.click();
      }
    });
    $('cell-more').addEventListener('click', showMore);
    const close = () => {
      $('cell-panel').hidden = true;
      state.selected = null;
      renderWindow(true);
    };
    $('cell-close').addEventListener('click', close);
    document.addEventListener('keydown', (e) => { if (e.key === 'Escape') close(); });
    $('cell-panel').querySelector('details').addEventListener('toggle', () => {
      const ids = tests();
      $('cell-nodeids').value = state.list.map((t) => ids[t]).join('\n');
    });
    refreshView();
  }

  // ---- admission ----------------------------------------------------------
  // What `testmap admit` says of the backend (mapper/report/admission_view.h):
  // every operator the evidence dispatched, runnable or not, and how many
  // blocked tests each one it cannot run holds back.
  function setupAdmission() {
    const body = $('admission-body');
    const adm = data.admission;
    if (!adm || adm.unavailable) {
      body.append(el('p', { class: 'none', id: 'admission-unavailable', text:
        adm ? adm.unavailable : 'Not shown: this page has no admission data.' }));
      return;
    }
    const counts = adm.counts || {};
    const missing = adm.ops.filter((o) => o.route === 'missing');
    body.append(el('p', { class: 'summary', id: 'admission-summary', text:
      'Backend ' + (adm.backend || '(unnamed)') + ' (' + adm.dispatch_key + '; ' + adm.origin + ')' +
      (adm.device ? ', its own tests on ' + adm.device : '') + ': ' +
      plural(counts.tests || 0, 'test') + ', ' +
      ['admitted', 'blocked', 'unknown'].map((s) => (counts[s] || 0).toLocaleString('en-US') + ' ' + s)
        .join(', ') + '; ' + plural(adm.ops.length - missing.length, 'operator') + ' runnable, ' +
      plural(missing.length, 'missing operator') + '.' }));
    for (const n of adm.notes || []) body.append(el('p', { class: 'hint', text: 'Note: ' + n }));
    const table = el('table', { class: 'data', id: 'admission-table' });
    table.append(el('thead', null, el('tr', null, ...['operator', 'runnable', 'how',
      'blocked tests it holds back', 'tests that ran it'].map((h) => el('th', { text: h })))));
    const tbody = el('tbody');
    for (const op of adm.ops) {
      const runnable = op.route !== 'missing';
      const how = runnable ? op.route + (op.source ? ': ' + op.source : '')
        : (op.composite_explicit ? 'torch has a CompositeExplicitAutograd kernel' : 'needs a kernel');
      tbody.append(el('tr', { 'data-op': op.op, 'data-route': op.route, 'data-blocks': String(op.blocks) },
        el('td', null, el('code', { text: op.op })),
        el('td', { class: runnable ? 'state-admitted' : 'state-blocked', text: runnable ? 'yes' : 'no' }),
        el('td', { text: how }),
        el('td', { class: 'num', text: op.blocks ? op.blocks.toLocaleString('en-US') : '' }),
        el('td', { class: 'num', text: (op.tests || 0).toLocaleString('en-US') })));
    }
    table.append(tbody);
    // Hundreds of operators on a big index: the table scrolls on its own.
    body.append(el('div', { class: 'scroll' }, table));
  }

  // ---- plan (a Gantt of splits) --------------------------------------------
  function setupPlan() {
    const body = $('plan-body');
    const plan = data.plan;
    if (!plan) {
      body.append(el('p', { class: 'none', text:
        'No plan given: `testmap report --plan PLAN.json` draws `testmap plan --format json` ' +
        'output (with --plan-report, what `plan --report --format json` measured).' }));
      return;
    }
    body.append(el('p', { class: 'summary', id: 'plan-summary', text:
      plural(plan.split_count, 'split') + ', ' + plural(plan.tests, 'test') + ' in ' +
      plural(plan.items, 'item') + ' (' + plan.granularity + '), ' + plan.procs +
      ' process' + (plan.procs === 1 ? '' : 'es') + ' per split; longest ' +
      seconds(plan.makespan_seconds) + ', lower bound ' + seconds(plan.lower_bound_seconds) +
      (plan.estimated_tests ? '; ' + plural(plan.estimated_tests, 'test') + ' estimated (' +
        seconds(plan.estimated_seconds) + ')' : '') + '. From ' + plan.source +
      (plan.report_source ? ', measured in ' + plan.report_source : '') + '.' +
      (plan.report_startup_seconds ? ' The plan adds ' + seconds(plan.report_startup_seconds) +
        ' per process outside its pytest session (start-up and exit); the report compares ' +
        'session with session, so the measured bars are drawn against the predicted session.' : '') }));
    for (const n of plan.notes) body.append(el('p', { class: 'status', text: n }));

    const left = 120, right = plan.report_source ? 300 : 150, barH = 16, gap = plan.report_source ? 14 : 8, top = 24;
    const width = Math.max(480, Math.min(1100, body.clientWidth || 900) - left - right);
    const splits = plan.splits;
    const maxS = Math.max(1e-9, plan.makespan_seconds, plan.lower_bound_seconds, plan.limit_seconds,
      ...splits.map((s) => Math.max(s.measured_seconds || 0, s.measured_wall_seconds || 0)));
    const x = (s) => left + (s / maxS) * width;
    const rowH = barH + gap + (plan.report_source ? 6 : 0);
    const height = top + splits.length * rowH + 10;
    const g = svg('svg', { class: 'gantt', id: 'plan-gantt', width: left + width + right, height,
                           role: 'img', 'aria-label': 'split plan' });
    const defs = svg('defs');
    const pat = svg('pattern', { id: 'gantt-est', width: 6, height: 6, patternUnits: 'userSpaceOnUse',
                                 patternTransform: 'rotate(45)' });
    pat.append(svg('rect', { width: 6, height: 6, fill: '#a5c3ee' }),
               svg('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#4c7fd0', 'stroke-width': 2 }));
    defs.append(pat);
    g.append(defs);
    // Axis: about 8 ticks at a round step.
    const axis = svg('g', { class: 'axis' });
    const raw = maxS / 8, mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
    for (let t = 0; t <= maxS + 1e-9; t += step) {
      axis.append(svg('line', { x1: x(t), x2: x(t), y1: top - 6, y2: height - 6 }));
      axis.append(svg('text', { x: x(t), y: top - 10, 'text-anchor': 'middle' }, seconds(t)));
    }
    g.append(axis);
    splits.forEach((s, i) => {
      const y = top + i * rowH;
      const row = svg('g', { class: 'split', 'data-split': s.split });
      row.append(svg('text', { x: left - 8, y: y + barH - 4, 'text-anchor': 'end' },
        (s.group ? s.group + ' ' : '') + 'split ' + s.split));
      // Items in plan order, scaled to the split's duration (overhead and,
      // with several processes, their maximum included); slivers merged.
      // With a report, that is its predicted session time, which compares
      // with the measured session wall time below, and the plan's time
      // outside the session follows it up to the whole process.
      const session = s.session_predicted_seconds;
      const inSession = session !== undefined ? session : s.predicted_seconds;
      const f = s.item_seconds > 0 ? inSession / s.item_seconds : 0;
      let at = 0, pending = null, alt = false;
      const flush = () => {
        if (!pending) return;
        const w = Math.max(0.5, (pending.seconds * f / maxS) * width);
        const cls = 'bar' + (pending.est >= pending.seconds * 0.5 && pending.est > 0 ? ' est' : alt ? ' alt' : '');
        const r = svg('rect', { class: cls, x: x(pending.start), y, width: w, height: barH });
        r.append(svg('title', {}, pending.label + ': ' + seconds(pending.seconds) +
          (pending.est ? ' (' + seconds(pending.est) + ' estimated)' : '')));
        row.append(r);
        alt = !alt;
        pending = null;
      };
      const add = (label, sec, est) => {
        if (pending && (pending.seconds * f / maxS) * width < 2) {
          pending.seconds += sec; pending.est += est; pending.n++;
          pending.label = plural(pending.n, 'item');
          return;
        }
        flush();
        pending = { start: at, seconds: sec, est, label, n: 1 };
      };
      for (const it of s.items) {
        add(it.label + (it.labels > 1 ? ' (+' + (it.labels - 1) + ')' : ''), it.seconds, it.estimated_seconds);
        at += it.seconds * f;
        if ((pending.seconds * f / maxS) * width >= 2) flush();
      }
      if (s.rest_items) {
        flush();
        add(plural(s.rest_items, 'more item'), s.rest_seconds, s.rest_estimated_seconds);
        at += s.rest_seconds * f;
      }
      flush();
      if (session !== undefined && s.predicted_seconds > session) {
        const o = svg('rect', { class: 'outside', x: x(session), y,
          width: ((s.predicted_seconds - session) / maxS) * width, height: barH });
        o.append(svg('title', {}, 'outside the pytest session (start-up and exit), as the plan ' +
          'predicts the whole process: ' + seconds(s.predicted_seconds) + ' in all, ' +
          seconds(session) + ' in the session'));
        row.append(o);
      }
      // Measured: the session wall time of the processes that ran the
      // split, which compares with the predicted session; else the sum of
      // its test durations.
      let label = session !== undefined
        ? seconds(session) + ' session · ' + seconds(s.predicted_seconds) + ' process'
        : seconds(s.predicted_seconds);
      const wall = s.measured_wall_seconds !== undefined;
      const measured = wall ? s.measured_wall_seconds : s.measured_seconds;
      if (measured !== undefined) {
        const m = svg('rect', { class: 'measured', x: left, y: y + barH + 2,
          width: Math.max(0.5, (measured / maxS) * width), height: 5 });
        m.append(svg('title', {}, (wall ? 'measured session wall time ' + seconds(measured) + ' of ' +
          plural(s.processes, 'process') + (session !== undefined ? ', ' + seconds(session) +
          ' predicted' : '') : 'measured ' + seconds(measured) + ' of test time') +
          '; tests: ' + seconds(s.measured_seconds) + ' measured over ' +
          plural(s.measured_tests, 'test') + ', ' + seconds(s.planned_test_seconds) + ' planned'));
        row.append(m);
        label += ' · measured ' + seconds(measured) + (wall ? ' wall' : '');
      }
      row.append(svg('text', { x: x(Math.max(s.predicted_seconds, measured || 0)) + 6,
                               y: y + barH - 4 }, label));
      g.append(row);
    });
    const line = (cls, s, title) => {
      const l = svg('line', { class: cls, x1: x(s), x2: x(s), y1: top - 4, y2: height - 6 });
      l.append(svg('title', {}, title));
      g.append(l);
    };
    line('bound', plan.lower_bound_seconds, 'lower bound ' + seconds(plan.lower_bound_seconds));
    if (plan.limit_seconds > 0) line('limit', plan.limit_seconds, 'limit ' + seconds(plan.limit_seconds));
    body.append(g);
    body.append(el('p', { class: 'legend' },
      el('span', null, el('i', { style: 'background:#4c7fd0' }),
        plan.report_source ? 'predicted (session: items and fixed costs)' : 'predicted (items)'),
      el('span', null, el('i', { style: 'background:#a5c3ee' }), 'estimated'),
      plan.report_source ? el('span', null, el('i', { style: 'background:#d3d9e3' }),
        'predicted outside the session (start-up, exit)') : null,
      plan.report_source ? el('span', null, el('i', { style: 'background:#e8590c' }), 'measured') : null,
      el('span', null, el('i', { style: 'border-top:2px dashed #2b8a3e;height:0' }), 'lower bound')));

    const table = el('table', { class: 'data', id: 'plan-table' });
    const heads = ['split', 'group', 'predicted (process)', 'estimated', 'tests', 'estimated tests'];
    const walls = splits.some((s) => s.measured_wall_seconds !== undefined);
    if (plan.report_source) {
      heads.push('planned (tests)', 'measured', 'measured tests', 'off by', 'predicted (session)');
    }
    if (walls) heads.push('measured wall', 'processes');
    table.append(el('thead', null, el('tr', null, ...heads.map((h) => el('th', { text: h })))));
    const tb = el('tbody');
    for (const s of splits) {
      const cells = [s.split, s.group || '', seconds(s.predicted_seconds), seconds(s.estimated_seconds),
                     s.tests, s.estimated_tests];
      if (plan.report_source) {
        const off = s.planned_test_seconds > 0 && s.measured_seconds !== undefined
          ? signedPercent(s.measured_seconds / s.planned_test_seconds - 1) : '';
        cells.push(seconds(s.planned_test_seconds), seconds(s.measured_seconds), s.measured_tests, off,
                   seconds(s.session_predicted_seconds));
      }
      if (walls) cells.push(seconds(s.measured_wall_seconds), s.processes === undefined ? '' : s.processes);
      tb.append(el('tr', { 'data-split': s.split, 'data-predicted-process': s.predicted_seconds,
                           'data-predicted-session': s.session_predicted_seconds,
                           'data-measured': s.measured_seconds,
                           'data-measured-wall': s.measured_wall_seconds },
        ...cells.map((c) => el('td', { class: typeof c === 'number' ? 'num' : null, text: String(c) }))));
    }
    table.append(tb);
    body.append(table);
  }

  // ---- runs -------------------------------------------------------------
  function setupRuns() {
    const body = $('runs-body');
    if (!data.runs.length) {
      body.append(el('p', { class: 'none', text: 'No trace runs in the index (static evidence only).' }));
      return;
    }
    const table = el('table', { class: 'data', id: 'runs-table' });
    const heads = ['run', 'started', 'worker', 'recorder', 'torch', 'torch git', 'tests git', 'python',
                   'OS', 'CPU', 'host', 'tests', 'test time', 'command'];
    table.append(el('thead', null, el('tr', null, ...heads.map((h) => el('th', { text: h })))));
    const tb = el('tbody');
    const sha = (s) => s ? el('span', { class: 'sha', title: s, text: String(s).slice(0, 12) }) : '–';
    for (const run of data.runs) {
      const m = get(run, 'record', 'metadata') || {};
      const outcomes = Object.entries(run.outcomes).map(([k, v]) => v + ' ' + k).join(', ');
      const torch = get(m, 'torch', 'version') || '–';
      const cells = [
        el('code', { text: run.id }), m.start_time || '–', get(run, 'record', 'worker') || '–',
        m.recorder || '–', torch, sha(get(m, 'torch', 'git_version')), sha(m.tests_git_sha),
        [get(m, 'python', 'implementation'), get(m, 'python', 'version')].filter(Boolean).join(' ') || '–',
        get(m, 'os', 'platform') || [get(m, 'os', 'system'), get(m, 'os', 'release')].filter(Boolean).join(' ') || '–',
        [get(m, 'cpu', 'model'), get(m, 'cpu', 'machine'),
         get(m, 'cpu', 'count') ? get(m, 'cpu', 'count') + ' cores' : null].filter(Boolean).join(', ') || '–',
        m.hostname || '–', outcomes || '–', seconds(run.seconds),
        el('code', { class: 'command', text: m.command || '', title: get(run, 'record', 'source') || '' }),
      ];
      tb.append(el('tr', { 'data-run': run.id, 'data-torch': torch },
        ...cells.map((c) => el('td', null, c))));
    }
    table.append(tb);
    body.append(table);
  }

  function setupSummary() {
    const ix = data.index;
    const torches = [...new Set(data.runs.map((r) => get(r, 'record', 'metadata', 'torch', 'version'))
      .filter(Boolean))];
    $('summary').textContent = plural(cov.tests, 'test') + ' with evidence of ' +
      plural(ix.tests, 'test') + ' in the index · ' + plural(cov.rows.length, 'operator') + ' · ' +
      plural(D, 'dtype') + ' · ' + plural(data.runs.length, 'run') +
      (torches.length ? ' · torch ' + torches.join(', ') : '') + ' · index ' + ix.dir;
  }

  try {
    setupSummary();
    setupCoverage();
    setupAdmission();
    setupPlan();
    setupRuns();
    document.body.dataset.ready = '1';
  } catch (e) {
    $('summary').textContent = 'This page could not be drawn: ' + e.message;
    document.body.dataset.error = e.message;
    throw e;
  }
  // For tests and the curious: the decoders, so that a browser test can
  // check them against the C++ encoder's output.
  window.testmapReport = { decodeVarints, decodeFrontCoded };
})();
