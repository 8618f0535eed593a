// boardd's console: draws one board from its state (GET .../events), and,
// when the board is simulated, is the board: clicks lift and set down men,
// buttons press and name promotion pieces. docs/api.md describes the API.
'use strict';
(() => {
  const SVGNS = 'http://www.w3.org/2000/svg';
  const GLYPH = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
  const TEXT = '\uFE0E'; // text, not emoji, presentation
  const TOKEN_KEY = 'boardd-arbiter-token';
  const FILES = 'abcdefgh';
  const OPTION_TEXT = {
    'stand': 'the move stands',
    'recall': 'taken back; the offender moves freely',
    'move-touched': 'taken back; the man touched must move',
    'move-taken': 'taken back; the own man taken must move',
    'take-touched': 'taken back; the adverse man touched must be taken',
    'king': 'taken back; the king must move',
    'rook': 'taken back; the rook must move',
    'castle': 'taken back; castle correctly',
    'replace': 'the adverse man goes back; the offender moves freely',
    'keep-first': 'the second move is taken back',
    'keep-all': 'both moves stand',
    'annul': 'the game is annulled and begun anew',
    'restore': 'the position before is set up again',
    'promote-q': 'a queen', 'promote-r': 'a rook', 'promote-b': 'a bishop', 'promote-n': 'a knight',
  };

  const el = (id) => document.getElementById(id);
  let boardId = '';
  let token = '';
  let state = null;
  let flipped = false;
  let occupied = new Set();
  let queue = Promise.resolve();
  const squares = {}; // name -> {led, man, unknown, unknownQ}

  const cap = (s) => s ? s[0].toUpperCase() + s.slice(1) : s;
  const list = (xs) => (xs && xs.length) ? xs.join(', ') : 'none';
  const api = (path) => `/api/boards/${encodeURIComponent(boardId)}/${path}`;

  function svg(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  function showMessage(text, kind) {
    const m = el('message');
    m.textContent = text || '';
    m.className = kind || '';
  }

  // --- the arbiter token -------------------------------------------------
  function readToken() {
    const m = location.hash.match(/(?:^#|&)token=([^&]+)/);
    if (m) {
      token = decodeURIComponent(m[1]);
      try { localStorage.setItem(TOKEN_KEY, token); } catch (e) { /* private mode */ }
      history.replaceState(null, '', location.pathname + location.search);
      return;
    }
    try { token = localStorage.getItem(TOKEN_KEY) || ''; } catch (e) { token = ''; }
  }

  function setToken(t) {
    token = t;
    try {
      if (t) localStorage.setItem(TOKEN_KEY, t); else localStorage.removeItem(TOKEN_KEY);
    } catch (e) { /* private mode */ }
    checkRole();
  }

  async function checkRole() {
    const headers = {};
    if (token) headers.Authorization = 'Bearer ' + token;
    let role = 'spectator';
    try {
      const res = await fetch('/api/auth', { headers, cache: 'no-store' });
      const data = await res.json();
      if (res.ok) {
        role = data.role;
      } else {
        showMessage('The arbiter token was refused: ' + (data.error || res.status), 'error');
        token = '';
        try { localStorage.removeItem(TOKEN_KEY); } catch (e) { /* private mode */ }
      }
    } catch (e) { /* the stream reports the connection */ }
    const r = el('role');
    r.textContent = role === 'arbiter' ? 'arbiter' : 'spectator';
    r.className = role;
    document.body.dataset.role = role;
  }

  // --- requests ----------------------------------------------------------
  async function post(path, body) {
    const headers = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = 'Bearer ' + token;
    let res;
    try {
      res = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body), credentials: 'same-origin', cache: 'no-store' });
    } catch (e) {
      showMessage('The board did not answer: ' + e.message, 'error');
      return false;
    }
    let data = {};
    try { data = await res.json(); } catch (e) { /* not JSON */ }
    if (!res.ok) {
      showMessage(data.error || `${res.status} ${res.statusText}`, 'error');
      return false;
    }
    showMessage('', '');
    return true;
  }

  function send(body) {
    queue = queue.then(async () => {
      const ok = await post(api('input'), body);
      // A refused lift or placement: the board is as the last state said.
      if (!ok && state) occupied = new Set(state.occupied);
      return ok;
    });
    return queue;
  }

  function arbiterAction(body) {
    queue = queue.then(() => post(api('arbiter'), body));
    return queue;
  }

  // --- the board ---------------------------------------------------------
  function buildBoard() {
    const root = el('board');
    root.replaceChildren();
    const defs = svg('defs', {}, root);
    const f = svg('filter', { id: 'glow', x: '-30%', y: '-30%', width: '160%', height: '160%' }, defs);
    svg('feGaussianBlur', { stdDeviation: '5', result: 'blur' }, f);
    const merge = svg('feMerge', {}, f);
    svg('feMergeNode', { in: 'blur' }, merge);
    svg('feMergeNode', { in: 'SourceGraphic' }, merge);
    for (let i = 0; i < 8; i++) {
      const file = flipped ? 7 - i : i;
      const rank = flipped ? i : 7 - i;
      svg('text', { class: 'coord', x: 70 + i * 100, y: 830 }, root).textContent = FILES[file];
      svg('text', { class: 'coord', x: 10, y: 70 + i * 100 }, root).textContent = String(rank + 1);
    }
    for (let rank = 0; rank < 8; rank++) {
      for (let file = 0; file < 8; file++) {
        const name = FILES[file] + (rank + 1);
        const x = 20 + (flipped ? 7 - file : file) * 100;
        const y = 20 + (flipped ? rank : 7 - rank) * 100;
        const g = svg('g', { 'data-square': name }, root);
        svg('rect', { class: (file + rank) % 2 === 0 ? 'sq-dark' : 'sq-light', x, y, width: 100, height: 100 }, g);
        const led = svg('rect', { class: 'led', x: x + 7, y: y + 7, width: 86, height: 86, rx: 14, filter: 'url(#glow)', 'data-square': name, visibility: 'hidden' }, g);
        const unknown = svg('circle', { class: 'unknown', cx: x + 50, cy: y + 52, r: 30, visibility: 'hidden' }, g);
        const unknownQ = svg('text', { class: 'unknown-q', x: x + 50, y: y + 53, visibility: 'hidden' }, g);
        unknownQ.textContent = '?';
        const man = svg('text', { class: 'man', x: x + 50, y: y + 56, 'data-square': name }, g);
        const hit = svg('rect', { class: 'hit', x, y, width: 100, height: 100, 'data-square': name }, g);
        hit.addEventListener('click', () => onSquare(name));
        squares[name] = { led, man, unknown, unknownQ };
      }
    }
  }

  function onSquare(name) {
    if (!state || !state.simulated) return;
    if (occupied.has(name)) {
      occupied.delete(name);
      send({ lift: name });
    } else {
      occupied.add(name);
      send({ place: name });
    }
  }

  function drawSquares(st) {
    const leds = {};
    for (const l of st.leds) leds[l.square] = l;
    for (const [name, s] of Object.entries(squares)) {
      const l = leds[name];
      if (l) {
        s.led.setAttribute('visibility', 'visible');
        s.led.setAttribute('fill', l.colour);
        s.led.setAttribute('stroke', l.colour);
        s.led.setAttribute('class', `led blink-${l.blink}`);
        s.led.setAttribute('data-role', l.role);
      } else {
        s.led.setAttribute('visibility', 'hidden');
        s.led.setAttribute('data-role', 'off');
      }
      let letter = st.men[name];
      let lifted = false;
      if (!letter && st.lifted[name]) { letter = st.lifted[name]; lifted = true; }
      const unknown = letter === '?';
      s.unknown.setAttribute('visibility', unknown ? 'visible' : 'hidden');
      s.unknownQ.setAttribute('visibility', unknown ? 'visible' : 'hidden');
      if (!letter || unknown) {
        s.man.textContent = '';
        s.man.setAttribute('data-man', unknown ? '?' : '');
        continue;
      }
      const white = letter === letter.toUpperCase();
      s.man.textContent = GLYPH[letter.toLowerCase()] + TEXT;
      s.man.setAttribute('class', `man ${white ? 'white' : 'black'}${lifted ? ' lifted' : ''}`);
      s.man.setAttribute('data-man', lifted ? '' : letter);
    }
  }

  // --- the panels --------------------------------------------------------
  function statusText(st) {
    if (st.result) return `Game over: ${st.result.result}, ${st.result.reason}.`;
    if (st.syncing && st.mismatch) {
      return `The board does not match the game: put men on ${list(st.missing)}; clear ${list(st.extra)}.`;
    }
    if (st.syncing) return `Set the board as lit: put men on ${list(st.missing)}; clear ${list(st.extra)}.`;
    if (st.pending) return `Waiting for ${st.pending.chooser === 'arbiter' ? 'the arbiter' : cap(st.pending.chooser)} to choose.`;
    return `${cap(st.turn)} to move.`;
  }

  function noteText(r) {
    switch (r.type) {
      case 'irregularity':
        return `${r.kind} (${r.law}): ${r.offender} erred; ${r.chooser === 'arbiter' ? 'the arbiter decides' : r.chooser + ' chooses'} among ${r.options.map((o) => o.id).join(', ')}${r.reason ? ' (' + r.reason + ')' : ''}`;
      case 'ruling':
        return `ruling: ${r.option} (${OPTION_TEXT[r.option] || r.option}), by ${r.by === 'lapse' ? 'lapse of the right' : r.by} (${r.law})`;
      case 'mismatch':
        return `board out of step: missing ${list(r.missing)}; extra ${list(r.extra)}`;
      case 'synced':
        return 'the board matches the game again';
      case 'result':
        return `result ${r.result}: ${r.reason} (${r.law})`;
      default:
        return r.type;
    }
  }

  function drawMoves(st) {
    const ol = el('moves');
    const items = [];
    const notesAt = {};
    for (const n of st.notes) (notesAt[n.ply] = notesAt[n.ply] || []).push(n.report);
    const addNotes = (ply) => {
      for (const r of notesAt[ply] || []) {
        const li = document.createElement('li');
        li.className = `note ${r.type}`;
        li.dataset.ply = ply;
        li.dataset.type = r.type;
        li.textContent = noteText(r);
        items.push(li);
      }
    };
    addNotes(0);
    for (const m of st.moves) {
      const li = document.createElement('li');
      li.className = 'move';
      li.dataset.ply = m.ply;
      li.dataset.san = m.san;
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = m.side === 'white' ? `${m.number}.` : `${m.number}\u2026`;
      const san = document.createElement('span');
      san.className = 'san';
      san.textContent = m.san;
      li.append(num, san);
      for (const c of m.comments || []) {
        const sp = document.createElement('span');
        sp.className = 'comment';
        sp.textContent = c;
        li.append(sp);
      }
      items.push(li);
      addNotes(m.ply);
    }
    ol.replaceChildren(...items);
    ol.scrollTop = ol.scrollHeight;
  }

  function optionButton(o, i, side, colours, label) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.option = o.id;
    b.dataset.side = side;
    b.textContent = `${label}${o.id}`;
    b.title = `${OPTION_TEXT[o.id] || o.id}; squares ${o.squares.join(', ')}`;
    const c = colours[`option-${Math.min(i + 1, 6)}`];
    if (c) b.style.borderColor = c;
    return b;
  }

  function drawPending(st) {
    const sec = el('pending');
    const p = st.pending;
    sec.hidden = !p;
    if (!p) {
      el('player-options').replaceChildren();
      el('arbiter-options').replaceChildren();
      return;
    }
    const who = p.chooser === 'arbiter' ? 'The arbiter decides' : `${cap(p.chooser)} chooses`;
    el('pending-text').textContent = `${p.kind} (${p.law}): ${cap(p.offender)} erred. ${who}.`;
    const colours = {};
    for (const l of st.leds) colours[l.role] = l.colour;
    const players = [];
    if (st.simulated && p.chooser !== 'arbiter') {
      p.options.forEach((o, i) => {
        const b = optionButton(o, i, p.chooser, colours, `${cap(p.chooser)}: `);
        b.addEventListener('click', () => send({ choose: o.id, side: p.chooser }));
        players.push(b);
      });
    }
    el('player-options').replaceChildren(...players);
    const rulings = p.options.map((o, i) => {
      const b = optionButton(o, i, 'arbiter', colours, 'Arbiter rules: ');
      b.addEventListener('click', () => arbiterAction({ action: 'choose', option: o.id }));
      return b;
    });
    el('arbiter-options').replaceChildren(...rulings);
  }

  function render(st) {
    state = st;
    occupied = new Set(st.occupied);
    document.title = `boardd ${st.board}`;
    el('laws').textContent = `${st.laws.name} (${st.laws.id})${st.tournament ? ', tournament' : ''}`;
    el('laws').dataset.laws = st.laws.id;
    el('mode').textContent = st.simulated ? 'simulated board' : 'sensor board';
    el('sim').hidden = !st.simulated;
    el('board').classList.toggle('sim', st.simulated);
    drawSquares(st);
    el('status').textContent = statusText(st);
    el('status').dataset.syncing = st.syncing ? (st.mismatch ? 'mismatch' : 'restore') : '';
    drawPending(st);
    const res = el('result');
    res.hidden = !st.result;
    res.textContent = st.result ? `Result ${st.result.result}: ${st.result.reason} (${st.result.law})` : '';
    drawMoves(st);
    const sel = el('laws-select');
    if (document.activeElement !== sel) sel.value = st.laws.id;
  }

  // --- wiring ------------------------------------------------------------
  function connect() {
    const es = new EventSource(api('events'));
    const conn = el('conn');
    es.addEventListener('open', () => { conn.textContent = 'live'; conn.className = 'up'; });
    es.addEventListener('error', () => { conn.textContent = 'reconnecting…'; conn.className = 'down'; });
    es.addEventListener('state', (e) => render(JSON.parse(e.data)));
  }

  async function loadLaws() {
    try {
      const res = await fetch('/api/laws');
      const laws = await res.json();
      el('laws-select').replaceChildren(...laws.map((l) => {
        const o = document.createElement('option');
        o.value = l.id;
        o.textContent = `${l.name} (${l.id})`;
        o.title = l.summary;
        return o;
      }));
      if (state) el('laws-select').value = state.laws.id;
    } catch (e) { /* the list stays empty */ }
  }

  function wire() {
    for (const b of document.querySelectorAll('button[data-press]')) {
      b.addEventListener('click', () => send({ press: b.dataset.press, side: b.dataset.side }));
    }
    for (const b of document.querySelectorAll('button[data-promote]')) {
      b.addEventListener('click', () => send({ promote: b.dataset.promote, side: b.dataset.side }));
    }
    el('token-form').addEventListener('submit', (e) => {
      e.preventDefault();
      setToken(el('token').value.trim());
      el('token').value = '';
    });
    el('token-forget').addEventListener('click', () => setToken(''));
    el('new-game').addEventListener('click', () => {
      if (confirm('Start a new game? The game in progress ends here.')) arbiterAction({ action: 'new-game' });
    });
    el('annul').addEventListener('click', () => {
      if (confirm('Annul the game in progress?')) arbiterAction({ action: 'annul' });
    });
    for (const b of document.querySelectorAll('button[data-result]')) {
      b.addEventListener('click', () => {
        if (confirm(`Declare the result ${b.dataset.result}?`)) arbiterAction({ action: 'result', value: b.dataset.result });
      });
    }
    el('laws-change').addEventListener('click', () => {
      const id = el('laws-select').value;
      if (id && confirm(`Change the law-set to ${id}?`)) arbiterAction({ action: 'laws', value: id });
    });
    el('flip').addEventListener('click', () => {
      flipped = !flipped;
      buildBoard();
      if (state) render(state);
    });
  }

  async function init() {
    readToken();
    boardId = new URLSearchParams(location.search).get('board') || '';
    if (!boardId) {
      try {
        const boards = await (await fetch('/api/boards')).json();
        boardId = boards.length ? boards[0].id : '';
      } catch (e) {
        showMessage('No board: ' + e.message, 'error');
        return;
      }
    }
    el('board-id').textContent = boardId;
    el('pgn').href = api('pgn');
    buildBoard();
    wire();
    loadLaws();
    checkRole();
    connect();
  }

  init();
})();
