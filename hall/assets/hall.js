// boardd's club hall: a grid of every board, live from one event stream
// (GET /api/hall/events). A board waiting for a choice is highlighted; a
// click opens the board in the console's page (/?board=ID), where the
// arbiter rules. docs/hall.md describes the API.
'use strict';
(() => {
  const GLYPH = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
  const TEXT = '\uFE0E';
  const el = (id) => document.getElementById(id);
  const cards = new Map(); // board id -> {root, squares, fields}
  const summaries = new Map();
  let order = [];

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

  function update(s) {
    summaries.set(s.id, s);
    let c = cards.get(s.id);
    if (!c) {
      c = build(s.id);
      cards.set(s.id, c);
    }
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

  function place() {
    const grid = el('grid');
    const want = order.map((id) => cards.get(id).root);
    if (want.length !== grid.children.length || want.some((e, i) => grid.children[i] !== e)) grid.replaceChildren(...want);
    el('empty').hidden = order.length > 0;
    let online = 0, waiting = 0;
    for (const s of summaries.values()) {
      if (s.online) online++;
      if (s.pending) waiting++;
    }
    el('counts').textContent = `${order.length} boards, ${online} online, ${waiting} waiting for a choice`;
    el('counts').dataset.waiting = waiting;
  }

  function onHall(h) {
    el('event').textContent = [h.event, h.round ? 'round ' + h.round : ''].filter(Boolean).join(', ');
    el('broker').textContent = h.connected ? 'broker up' : 'broker down';
    el('broker').className = h.connected ? 'up' : 'down';
    order = h.boards.map((s) => s.id);
    for (const s of h.boards) update(s);
    place();
  }

  function onBoard(s) {
    const known = cards.has(s.id);
    update(s);
    if (!known) {
      order.push(s.id);
      order.sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    }
    place();
  }

  function connect() {
    const es = new EventSource('/api/hall/events');
    const conn = el('conn');
    es.addEventListener('open', () => { conn.textContent = 'live'; conn.className = 'up'; });
    es.addEventListener('error', () => { conn.textContent = 'reconnecting…'; conn.className = 'down'; });
    es.addEventListener('hall', (e) => onHall(JSON.parse(e.data)));
    es.addEventListener('board', (e) => onBoard(JSON.parse(e.data)));
  }

  connect();
})();
