// boardd's club hall: a grid of every board, live from one event stream
// (GET /api/hall/events). A board waiting for a choice is highlighted; a
// click opens the board in the console's page (/?board=ID), where the
// arbiter rules. docs/hall.md describes the API.
//
// An Olympiad's hall follows two thousand boards: the page keeps every
// board's summary but draws one page of cards at a time (PAGE boards, in
// order; ?page=N), lists the boards waiting for a choice wherever they are,
// and applies the stream's changes once a frame rather than once a message.
'use strict';
(() => {
  const GLYPH = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
  const TEXT = '\uFE0E';
  const PAGE = 120; // cards drawn at once
  const WAITING_LISTED = 40; // boards named in the waiting list at most
  const el = (id) => document.getElementById(id);
  const cards = new Map(); // board id -> {root, squares, fields}, the page's boards only
  const summaries = new Map(); // every board
  let order = [];
  let page = Math.max(0, (parseInt(new URLSearchParams(location.search).get('page'), 10) || 1) - 1);
  const dirty = new Set(); // boards changed since the last frame
  let reorder = false; // the boards or the page changed: draw the page anew
  let frame = 0;
  let listed = ''; // the waiting boards listed, as drawn
  const collator = new Intl.Collator(undefined, { numeric: true });

  function make(tag, cls, parent, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  // placement returns the 64 FEN letters of a FEN's first field, a8 first.
  function placement(fen) {
    const out = [];
    for (const ch of (fen || '').split(' ')[0]) {
      if (ch === '/') continue;
      if (ch >= '1' && ch <= '8') { for (let i = 0; i < +ch; i++) out.push(''); } else out.push(ch);
    }
    while (out.length < 64) out.push('');
    return out.slice(0, 64);
  }

  function build(id) {
    const root = make('a', 'card');
    root.href = '/?board=' + encodeURIComponent(id);
    root.dataset.board = id;
    root.setAttribute('role', 'listitem');
    const head = make('div', 'head', root);
    make('strong', 'id', head, id);
    const players = make('span', 'players', head);
    const mini = make('div', 'mini', root);
    const squares = [];
    for (let i = 0; i < 64; i++) {
      const rank = 7 - Math.floor(i / 8), file = i % 8;
      const sq = make('span', (rank + file) % 2 === 0 ? 'd' : 'l', mini);
      sq.dataset.square = 'abcdefgh'[file] + (rank + 1);
      squares.push(sq);
    }
    const clock = make('div', 'clock', root);
    const last = make('div', 'last', root);
    const status = make('div', 'status', root);
    return { root, squares, fields: { players, clock, last, status } };
  }

  function moveText(m) {
    if (!m) return 'no move yet';
    const n = Math.floor((m.ply + 1) / 2);
    return m.side === 'white' ? `${n}. ${m.san}` : `${n}\u2026 ${m.san}`;
  }

  function statusText(s) {
    if (!s.heard) return 'not heard from';
    if (s.result) return `${s.result.result} ${s.result.reason}`;
    if (s.pending) return s.pending.chooser === 'arbiter' ? `waiting for the arbiter: ${s.pending.kind}` : `${s.pending.chooser} to choose: ${s.pending.kind}`;
    if (s.syncing) return 'setting up the board';
    return s.turn ? `${s.turn} to move` : '';
  }

  // draw shows a board's summary on its card.
  function draw(c, s) {
    const letters = placement(s.fen);
    letters.forEach((l, i) => {
      const sq = c.squares[i];
      const glyph = l ? GLYPH[l.toLowerCase()] + TEXT : '';
      if (sq.textContent !== glyph) sq.textContent = glyph;
      sq.classList.toggle('w', !!l && l === l.toUpperCase());
      sq.dataset.man = l;
    });
    for (const sq of c.squares) sq.classList.remove('lm');
    if (s.last && s.last.uci) {
      for (const name of [s.last.uci.slice(0, 2), s.last.uci.slice(2, 4)]) {
        const sq = c.squares.find((q) => q.dataset.square === name);
        if (sq) sq.classList.add('lm');
      }
    }
    const f = c.fields;
    f.players.textContent = (s.white || s.black) ? `${s.white || '?'} \u2013 ${s.black || '?'}` : '';
    f.clock.textContent = s.clock ? `\u25CB ${s.clock.white}  \u25CF ${s.clock.black}` : '';
    f.last.textContent = moveText(s.last);
    f.last.dataset.san = s.last ? s.last.san : '';
    f.status.textContent = statusText(s);
    const r = c.root;
    r.dataset.moves = s.moves;
    r.dataset.seq = s.seq;
    r.dataset.pending = s.pending ? s.pending.chooser : '';
    r.dataset.result = s.result ? s.result.result : '';
    r.classList.toggle('pending', !!s.pending);
    r.classList.toggle('arbiter', !!s.pending && s.pending.chooser === 'arbiter');
    r.classList.toggle('offline', s.heard && !s.online);
    r.classList.toggle('fault', (s.faults || []).length > 0);
    r.classList.toggle('over', !!s.result);
    r.title = (s.faults || []).length ? 'faults: ' + s.faults.join(', ') : '';
  }

  function pages() { return Math.max(1, Math.ceil(order.length / PAGE)); }

  // place draws the page's cards in order, building those it lacks.
  function place() {
    page = Math.min(page, pages() - 1);
    const ids = order.slice(page * PAGE, (page + 1) * PAGE);
    const want = new Set(ids);
    for (const id of cards.keys()) if (!want.has(id)) cards.delete(id);
    for (const id of ids) {
      if (!cards.has(id)) {
        const c = build(id);
        cards.set(id, c);
        draw(c, summaries.get(id));
      }
    }
    const grid = el('grid');
    const roots = ids.map((id) => cards.get(id).root);
    if (roots.length !== grid.children.length || roots.some((e, i) => grid.children[i] !== e)) grid.replaceChildren(...roots);
    el('empty').hidden = order.length > 0;
    const pager = el('pager');
    pager.hidden = pages() < 2;
    if (!pager.hidden) {
      el('page-of').textContent = `page ${page + 1} of ${pages()}: boards ${ids[0]} to ${ids[ids.length - 1]}`;
      el('page-of').dataset.page = page + 1;
      el('prev').disabled = page === 0;
      el('next').disabled = page >= pages() - 1;
      const select = el('page-select');
      if (select.options.length !== pages()) {
        select.replaceChildren(...Array.from({ length: pages() }, (_, i) => {
          const o = make('option');
          o.value = i;
          o.textContent = `${order[i * PAGE]} \u2013 ${order[Math.min((i + 1) * PAGE, order.length) - 1]}`;
          return o;
        }));
      }
      select.value = page;
    }
  }

  // counts sums up every board and lists those waiting for a choice.
  function counts() {
    let online = 0;
    const waiting = [];
    for (const id of order) {
      const s = summaries.get(id);
      if (s.online) online++;
      if (s.pending) waiting.push(s);
    }
    el('counts').textContent = `${order.length} boards, ${online} online, ${waiting.length} waiting for a choice`;
    el('counts').dataset.waiting = waiting.length;
    const list = el('waiting');
    list.hidden = waiting.length === 0 || order.length <= PAGE;
    const key = list.hidden ? '' : waiting.map((s) => s.id + '\u0000' + s.pending.chooser).join('\u0001');
    if (key === listed) return;
    listed = key;
    if (list.hidden) return;
    const links = waiting.slice(0, WAITING_LISTED).map((s) => {
      const a = make('a', s.pending.chooser === 'arbiter' ? 'arbiter' : '', null, s.id);
      a.href = '/?board=' + encodeURIComponent(s.id);
      a.dataset.board = s.id;
      a.title = statusText(s);
      return a;
    });
    const more = waiting.length > WAITING_LISTED ? [document.createTextNode(` and ${waiting.length - WAITING_LISTED} more`)] : [];
    el('waiting-boards').replaceChildren(...links.flatMap((a, i) => (i ? [document.createTextNode(' '), a] : [a])), ...more);
  }

  // flush applies what changed since the last frame.
  function flush() {
    frame = 0;
    if (reorder) {
      reorder = false;
      place();
    }
    for (const id of dirty) {
      const c = cards.get(id);
      if (c) draw(c, summaries.get(id));
    }
    dirty.clear();
    counts();
  }

  function schedule() {
    if (!frame) frame = requestAnimationFrame(flush);
  }

  function go(p) {
    page = Math.max(0, Math.min(p, pages() - 1));
    const url = new URL(location.href);
    if (page) url.searchParams.set('page', page + 1); else url.searchParams.delete('page');
    history.replaceState(null, '', url);
    reorder = true;
    schedule();
  }

  function onHall(h) {
    el('event').textContent = [h.event, h.round ? 'round ' + h.round : ''].filter(Boolean).join(', ');
    el('broker').textContent = h.connected ? 'broker up' : 'broker down';
    el('broker').className = h.connected ? 'up' : 'down';
    order = h.boards.map((s) => s.id);
    summaries.clear();
    for (const s of h.boards) {
      summaries.set(s.id, s);
      dirty.add(s.id);
    }
    reorder = true;
    schedule();
  }

  function onBoard(s) {
    if (!summaries.has(s.id)) {
      let lo = 0, hi = order.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (collator.compare(order[mid], s.id) < 0) lo = mid + 1; else hi = mid;
      }
      order.splice(lo, 0, s.id);
      reorder = true;
    }
    summaries.set(s.id, s);
    dirty.add(s.id);
    schedule();
  }

  // connect follows the grid. A browser gives up on a stream the hall
  // refused (too many open: 503); the page opens it again after a pause, as
  // the hall's Retry-After asks.
  function connect() {
    const es = new EventSource('/api/hall/events');
    const conn = el('conn');
    es.addEventListener('open', () => { conn.textContent = 'live'; conn.className = 'up'; });
    es.addEventListener('error', () => {
      conn.textContent = 'reconnecting…'; conn.className = 'down';
      if (es.readyState === EventSource.CLOSED) setTimeout(connect, 10000);
    });
    es.addEventListener('hall', (e) => onHall(JSON.parse(e.data)));
    es.addEventListener('board', (e) => onBoard(JSON.parse(e.data)));
  }

  el('prev').addEventListener('click', () => go(page - 1));
  el('next').addEventListener('click', () => go(page + 1));
  el('page-select').addEventListener('change', (e) => go(+e.target.value));
  connect();
})();
