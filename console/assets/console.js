// boardd's console: draws one board from its state (GET .../events), and,
// when the board is simulated, is the board: clicks lift and set down men,
// buttons press and name promotion pieces. docs/api.md describes the API.
'use strict';
(() => {
  const SVGNS = 'http://www.w3.org/2000/svg';
  const GLYPH = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
  const TEXT = '\uFE0E'; // text, not emoji, presentation
  const TOKEN_KEY = 'boardd-arbiter-token';
  // TURNED_KEY keeps the flip button's choice: the board turned from the
  // way it faces by itself (White at the bottom, Black when an engine plays
  // White).
  const TURNED_KEY = 'boardd-board-turned';
  // NO_EVAL_KEY keeps a player's wish not to see the engine's evaluation
  // while playing.
  const NO_EVAL_KEY = 'boardd-no-eval';
  const FILES = 'abcdefgh';
  const PIECE = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
  // Option ids in plain words (GET /api/options), for the rulings in the
  // move list; the pending choice brings its own words, naming the man.
  let optionWords = {};

  const el = (id) => document.getElementById(id);
  let boardId = '';
  let token = '';
  let state = null;
  let flipped = false;
  let turned = false;
  let occupied = new Set();
  let queue = Promise.resolve();
  let inflight = 0; // inputs sent and not yet answered
  // What the simulated board holds as this page last knew it: the men
  // standing (square -> FEN letter) and the men in hand (the one set down
  // next last). A state adopted while no input is in flight replaces it.
  let men = {};
  let hand = [];
  let role = 'spectator';
  const squares = {}; // name -> {led, man, unknown, unknownQ, held}

  const cap = (s) => s ? s[0].toUpperCase() + s.slice(1) : s;
  const low = (s) => s ? s[0].toLowerCase() + s.slice(1) : s;
  // and joins words as a sentence does: "a", "a and b", "a, b and c".
  const and = (xs, last = 'and') => xs.length < 2 ? (xs[0] || '') : `${xs.slice(0, -1).join(', ')} ${last} ${xs[xs.length - 1]}`;
  const known = (letter) => !!letter && letter !== '?';
  const side = (letter) => letter === letter.toUpperCase() ? 'white' : 'black';
  const manName = (letter) => letter && PIECE[letter.toLowerCase()] ? `${side(letter)} ${PIECE[letter.toLowerCase()]}` : 'man';
  const kindText = (k) => k === 'touch-move' ? k : String(k || '').replace(/-/g, ' ');
  const chooserName = (c) => c === 'arbiter' ? 'the arbiter' : cap(c);
  const words = (id) => optionWords[id] || (/^move-touched-[a-h][1-8]$/.test(id) ? `He must move the man on ${id.slice(-2)}` : id);
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

  // tokenFromLink takes a token from an arbiter's link opened in this
  // already open tab (hashchange): it is stored, checked and dropped from
  // the address bar, as at load.
  function tokenFromLink() {
    if (!/(?:^#|&)token=/.test(location.hash)) return;
    readToken();
    checkRole();
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
    let who = 'spectator';
    try {
      const res = await fetch('/api/auth', { headers, cache: 'no-store' });
      const data = await res.json();
      if (res.ok) {
        who = data.role;
      } else {
        showMessage('The arbiter token was refused: ' + (data.error || res.status), 'error');
        token = '';
        try { localStorage.removeItem(TOKEN_KEY); } catch (e) { /* private mode */ }
      }
    } catch (e) { /* the stream reports the connection */ }
    setRole(who);
  }

  function setRole(r) {
    role = r === 'arbiter' ? 'arbiter' : 'spectator';
    const e = el('role');
    e.textContent = role;
    e.className = role;
    document.body.dataset.role = role;
    if (state) {
      drawPending(state);
      drawEngine(state);
      drawWarnOnly(state);
      drawPlayers(state);
    }
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
    inflight++;
    queue = queue.then(async () => {
      const ok = await post(api('input'), body);
      inflight--;
      // Once every input is answered, the last state the board sent is the
      // truth (a refused lift or placement changed nothing).
      if (state && (!ok || inflight === 0)) {
        adopt(state);
        drawHand();
      }
      return ok;
    });
    return queue;
  }

  function arbiterAction(body) {
    queue = queue.then(() => post(api('arbiter'), body));
    return queue;
  }

  // warnOnly switches warn-only for the board's games (POST .../warn-only):
  // the arbiter may, and the player at a simulated board.
  function warnOnly(on) {
    queue = queue.then(() => post(api('warn-only'), { value: on ? 'on' : 'off' }));
    return queue;
  }

  // drawWarnOnly shows the last warning's words under the board, and the
  // warn-only switch to whoever may use it (the arbiter; the player at a
  // simulated board), greyed out with the reason while a game is under way
  // or in tournament mode.
  function drawWarnOnly(st) {
    const w = el('warning');
    w.hidden = !st.warning;
    w.textContent = st.warning ? `Warning: ${st.warning.words}.` : '';
    el('warn-only-row').hidden = !(st.simulated || role === 'arbiter');
    const box = el('warn-only');
    box.checked = !!st.warn_only;
    const underway = st.moves.length > 0 && !st.result;
    box.disabled = st.tournament || underway;
    box.closest('label').title = st.tournament ? 'not in tournament mode: a tournament exacts every penalty'
      : underway ? 'switched between games: before the first move or after the result' : '';
  }

  // drawPlayers shows the players form to whoever may name the players
  // (the arbiter; the player at a simulated board), with the names as the
  // game has them; a side played from off the board (an engine) is named
  // by its player, and its name cannot be changed here. A name being typed
  // is left alone.
  function drawPlayers(st) {
    el('players-box').hidden = !(st.simulated || role === 'arbiter');
    const names = st.players || {};
    const remote = st.remote || {};
    for (const side of ['white', 'black']) {
      const input = el('player-' + side);
      if (document.activeElement !== input && !input.dataset.typed) input.value = names[side] || '';
      input.disabled = !!remote[side];
      input.title = remote[side] ? `${cap(side)} is played from off the board, and named by whoever plays it` : '';
    }
  }

  // namePlayers names the players (POST .../players): the sides played at
  // the board only.
  function namePlayers() {
    const body = {};
    for (const side of ['white', 'black']) {
      const input = el('player-' + side);
      if (!input.disabled) body[side] = input.value.trim();
    }
    queue = queue.then(async () => {
      const ok = await post(api('players'), body);
      if (ok) for (const side of ['white', 'black']) delete el('player-' + side).dataset.typed;
      if (state) drawPlayers(state);
      return ok;
    });
    return queue;
  }

  // engineCommand gives the engine playing a side a command (POST
  // .../opponent): the player at a simulated board may, and the arbiter.
  function engineCommand(command, value) {
    queue = queue.then(() => post(api('opponent'), value ? { command, value } : { command }));
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
        const held = svg('rect', { class: 'held', x: x + 6, y: y + 6, width: 88, height: 88, rx: 10, visibility: 'hidden' }, g);
        const man = svg('text', { class: 'man', x: x + 50, y: y + 56, 'data-square': name }, g);
        const hit = svg('rect', { class: 'hit', x, y, width: 100, height: 100, 'data-square': name }, g);
        hit.addEventListener('click', () => onSquare(name));
        squares[name] = { led, man, unknown, unknownQ, held };
      }
    }
  }

  // drawPromotion shows, on the simulated board, a picker over the square a
  // pawn has reached on its last rank while the piece is still to be
  // named: a queen, knight, rook and bishop, one a square from the
  // promotion square towards the middle of the board; a click names it.
  function drawPromotion(st) {
    const root = el('board');
    const old = document.getElementById('promotion');
    if (old) old.remove();
    const ld = st.landing;
    if (!st.simulated || st.result || !ld || ld.needs !== 'piece') return;
    const who = st.turn;
    const file = FILES.indexOf(ld.to[0]);
    const last = Number(ld.to[1]) - 1;
    const step = last === 7 ? -1 : 1;
    const g = svg('g', { id: 'promotion', 'data-square': ld.to, role: 'group', 'aria-label': 'promote to' }, root);
    svg('rect', { class: 'promo-veil', x: 0, y: 0, width: 840, height: 840 }, g);
    ['q', 'n', 'r', 'b'].forEach((piece, i) => {
      const rank = last + step * i;
      const x = 20 + (flipped ? 7 - file : file) * 100;
      const y = 20 + (flipped ? rank : 7 - rank) * 100;
      const b = svg('g', { class: 'promo-choice', 'data-promote': piece, role: 'button', 'aria-label': PIECE[piece], tabindex: 0 }, g);
      svg('rect', { x: x + 2, y: y + 2, width: 96, height: 96, rx: 48 }, b);
      const t = svg('text', { class: `man ${who}`, x: x + 50, y: y + 56 }, b);
      t.textContent = GLYPH[piece] + TEXT;
      const pick = () => send({ promote: piece, side: who });
      b.addEventListener('click', pick);
      b.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') pick(); });
    });
  }

  // A click on the simulated board. On an empty square it sets down the
  // man in hand; on a man it picks him up, unless a man of the other side
  // is in hand: then it takes him (lifts him and sets the man in hand down
  // on his square), so that a capture is two clicks like a quiet move. With
  // "one man per click" every click lifts or sets down one man, to test the
  // orders real hands work in.
  function onSquare(name) {
    if (!state || !state.simulated) return;
    if (viewing()) { backToGame(); return; } // the board viewed is no board to play on
    if (!occupied.has(name)) {
      occupied.add(name);
      // The man set down is the last lifted, or, on the square the last
      // left, the man of the other side lifted before him (a capture).
      let i = hand.length - 1;
      if (i >= 1 && hand[i].from === name && known(hand[i].man) && known(hand[i - 1].man) && side(hand[i].man) !== side(hand[i - 1].man)) i--;
      const h = i >= 0 ? hand.splice(i, 1)[0] : null;
      men[name] = h ? h.man : '?';
      send({ place: name });
    } else if (takes(name)) {
      // As the board follows hands: the man taken is in hand, the taker
      // stands on his square.
      const taker = hand.pop();
      hand.push({ man: men[name], from: name });
      men[name] = taker.man;
      send({ lift: name });
      send({ place: name });
    } else {
      occupied.delete(name);
      hand.push({ man: men[name] || '?', from: name });
      delete men[name];
      send({ lift: name });
    }
    drawHand();
  }

  // START is the start position: square -> FEN letter.
  const START = (() => {
    const back = 'rnbqkbnr', out = {};
    for (let f = 0; f < 8; f++) {
      out[FILES[f] + '1'] = back[f].toUpperCase();
      out[FILES[f] + '2'] = 'P';
      out[FILES[f] + '7'] = 'p';
      out[FILES[f] + '8'] = back[f];
    }
    return out;
  })();

  // setupMoves is what the set-up button does on the simulated board, as
  // clicks would: after a result, every man lifted and the start position
  // set up (a new game); while the board must be set as lit, the men lit
  // to go lifted and the squares lit to fill filled. Null when there is
  // nothing to set up.
  function setupMoves(st) {
    if (!st || !st.simulated) return null;
    if (st.result) return { label: 'Set up the start position', lift: st.occupied.slice(), place: Object.keys(START) };
    if (st.syncing && (st.missing.length || st.extra.length)) return { label: 'Set the board as lit', lift: st.extra.slice(), place: st.missing.slice() };
    return null;
  }

  function setUp() {
    const m = setupMoves(state);
    if (!m) return;
    hand = [];
    for (const sq of m.lift) {
      occupied.delete(sq);
      delete men[sq];
      send({ lift: sq });
    }
    for (const sq of m.place) {
      occupied.add(sq);
      men[sq] = (state.result ? START[sq] : state.lifted[sq]) || '?';
      send({ place: sq });
    }
    drawHand();
  }

  // takes reports whether a click on the man on name takes him.
  function takes(name) {
    if (el('one-by-one').checked || !hand.length) return false;
    const taker = hand[hand.length - 1].man, victim = men[name];
    return known(taker) && known(victim) && side(taker) !== side(victim);
  }

  // adopt takes the simulated board's men and hand from a state, unless
  // this page's own inputs are still on their way.
  function adopt(st) {
    if (inflight > 0) return;
    occupied = new Set(st.occupied);
    men = Object.assign({}, st.men);
    hand = (st.hand || []).map((h) => ({ man: h.man, from: h.from }));
  }

  // drawHand says what is in hand and what the next click does.
  function drawHand() {
    const p = el('hand');
    for (const s of Object.values(squares)) s.held.setAttribute('visibility', 'hidden');
    // A man whose square a man of the other side now holds was taken: he
    // is off the board for good, and no business of the next click.
    const held = hand.filter((h) => !(known(men[h.from]) && known(h.man) && side(men[h.from]) !== side(h.man)));
    if (!state || !state.simulated || !held.length) {
      p.hidden = true;
      p.textContent = '';
      p.dataset.count = 0;
      return;
    }
    for (const h of held) if (squares[h.from]) squares[h.from].held.setAttribute('visibility', 'visible');
    const names = held.map((h) => `the ${manName(h.man)} from ${h.from}`);
    const next = hand[hand.length - 1];
    let text = `In hand: ${and(names)}. `;
    if (held.length === 1 && next === held[0]) {
      const other = known(next.man) ? (side(next.man) === 'white' ? 'black' : 'white') : '';
      text += el('one-by-one').checked || !other
        ? `Next click: an empty square sets him down (${next.from} puts him back); a click on a man picks him up too.`
        : `Next click: an empty square sets him down (${next.from} puts him back); a ${other} man is taken.`;
    } else {
      text += `A click on an empty square sets down the ${manName(next.man)}.`;
    }
    p.textContent = text;
    p.dataset.count = held.length;
    p.hidden = false;
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
  // fixText says what to put where and what to take off: "put the white
  // pawn on e2; take the man off e4".
  function fixText(st) {
    const parts = [];
    const put = st.missing.map((sq) => st.lifted[sq] ? `the ${manName(st.lifted[sq])} on ${sq}` : `a man on ${sq}`);
    if (put.length) parts.push(`put ${and(put)}`);
    if (st.extra.length === 1) parts.push(`take the man off ${st.extra[0]}`);
    else if (st.extra.length) parts.push(`take the men off ${and(st.extra)}`);
    return parts.join('; ');
  }

  // backText says how to set a position back after a take-back: each man
  // lit to go back named with the square he stands on ("set the white
  // rook back on h1 (from h3)"), the rest as fixText says it. Empty when
  // nothing pairs.
  function backText(st) {
    const extra = st.extra.slice(), parts = [], put = [];
    for (const sq of st.missing) {
      const letter = st.lifted[sq];
      const i = known(letter) ? extra.findIndex((x) => st.men[x] === letter) : -1;
      if (i < 0) {
        put.push(known(letter) ? `the ${manName(letter)} on ${sq}` : `a man on ${sq}`);
        continue;
      }
      parts.push(`set the ${manName(letter)} back on ${sq} (from ${extra[i]})`);
      extra.splice(i, 1);
    }
    if (!parts.length) return '';
    if (put.length) parts.push(`put ${and(put)}`);
    if (extra.length === 1) parts.push(`take the man off ${extra[0]}`);
    else if (extra.length) parts.push(`take the men off ${and(extra)}`);
    return parts.join('; ');
  }

  // dutyText says an obligation in words: "White must move the knight on
  // g1".
  function dutyText(st) {
    const ob = st.obligation;
    if (!ob) return '';
    const letter = st.men[ob.square] || st.lifted[ob.square];
    const piece = known(letter) ? PIECE[letter.toLowerCase()] : 'man';
    const who = cap(ob.side);
    switch (ob.what) {
      case 'king': return `${who} must move the king (not castling)`;
      case 'castle': return `${who} must castle lawfully`;
      case 'take-touched': return `${who} must take the ${piece} on ${ob.square}`;
      default: return `${who} must move the ${piece} on ${ob.square}`;
    }
  }

  // carryText says what to do on the board to carry out a move announced:
  // "move the knight from g8 to f6", "move the king from e8 to c8 and the
  // rook from a8 to d8", "... and take the pawn off d5", "... and make it
  // a queen".
  function carryText(st, mv) {
    const letter = st.men[mv.from] || st.lifted[mv.from];
    const kind = known(letter) ? letter.toLowerCase() : '';
    let text = `move the ${kind ? PIECE[kind] : 'man'} from ${mv.from} to ${mv.to}`;
    const df = FILES.indexOf(mv.to[0]) - FILES.indexOf(mv.from[0]);
    if (kind === 'k' && Math.abs(df) === 2) {
      const rank = mv.from[1];
      const [rf, rt] = df > 0 ? ['h', 'f'] : ['a', 'd'];
      return `${text} and the rook from ${rf}${rank} to ${rt}${rank}`;
    }
    const victim = st.men[mv.to];
    if (known(victim)) text += `, taking the ${PIECE[victim.toLowerCase()]}`;
    else if (kind === 'p' && df !== 0) text += ` and take the pawn off ${mv.to[0]}${mv.from[1]}`;
    const promo = mv.uci && mv.uci.length === 5 ? mv.uci[4] : '';
    if (promo) text += ` and make it a ${PIECE[promo]}`;
    return text;
  }

  function statusText(st) {
    if (st.result) return `Game over: ${st.result.result}, ${st.result.reason}. To play again, clear the board and set up the start position.`;
    if (st.syncing && st.mismatch) return `The board does not match the game: ${fixText(st)}.`;
    const duty = dutyText(st);
    if (st.syncing) {
      const back = backText(st);
      const then = duty ? `; then ${duty}` : '';
      return back ? `${cap(back)}${then}.` : `Set the board as lit: ${fixText(st)}${then}.`;
    }
    if (st.pending) return `Waiting for ${chooserName(st.pending.chooser)} to choose.`;
    const aw = st.remote && st.remote.awaiting;
    if (aw) return `${cap(st.turn)} to move: carry out ${aw.san}, ${carryText(st, aw)}.`;
    const ld = st.landing;
    if (ld && ld.needs === 'piece') return `${cap(st.turn)} promotes on ${ld.to}: choose the piece${st.simulated ? ' over the square' : ''}.`;
    if (ld) {
      const needs = { rook: ' (castling: now the rook)', victim: ` (en passant: take the pawn off)`, piece: ' (name the piece)' };
      return `${cap(st.turn)} plays ${ld.san || ld.uci}: pending until the hand leaves it${needs[ld.needs] || ''}.`;
    }
    if (duty) return `${duty}.`;
    return `${cap(st.turn)} to move.`;
  }

  // faultText warns of what is wrong beside the game.
  function faultText(st) {
    const say = { sensor: 'the board\'s sensors are not to be trusted', journal: 'the game is not being saved', voice: 'the board cannot be heard (its speech program fails; the log says why)' };
    const f = (st.faults || []).map((x) => say[x] || x);
    const notes = (st.notices || []).join(' ');
    return [f.length ? `Fault: ${and(f)}.` : '', notes].filter((x) => x).join(' ');
  }

  // pairText tells the arbiter how two paired boards' games differ
  // (fide2023:D.2.7): his to put right; both boards' clocks stand meanwhile.
  function pairText(st) {
    const d = st.pair && st.pair.differ;
    if (!d) return '';
    const on = st.pair.other;
    const what = d.move
      ? `The boards differ at move ${d.move}: ${d.here || 'nothing'} here, ${d.there || 'nothing'} on ${on}.`
      : `The boards differ: ${d.why} (this board and ${on}).`;
    const since = d.since ? ` Since ${new Date(d.since).toLocaleTimeString()}; the clocks stand.` : ' The clocks stand.';
    return `${what} Arbiter: put the boards right.${since}`;
  }

  function noteText(r) {
    switch (r.type) {
      case 'irregularity': {
        if (r.chooser === 'warn-only') return `Warning, ${low(kindText(r.kind))} (${r.law}), ${r.offender}: ${r.reason}.`;
        const opts = (r.options || []).map((o) => low(words(o.id)));
        const how = opts.length === 1 ? opts[0] : `${chooserName(r.chooser)} chooses: ${and(opts, 'or')}`;
        return `${kindText(r.kind)} (${r.law}): ${cap(r.offender)} erred; ${how}${r.reason ? ' (' + r.reason + ')' : ''}.`;
      }
      case 'ruling': {
        const what = low(words(r.option));
        const law = r.law ? ` (${r.law})` : '';
        if (r.by === 'lapse') return `The right to choose lapsed${law}: ${what}.`;
        return `${r.by === 'arbiter' ? 'The arbiter ruled' : cap(r.by) + ' chose'}${law}: ${what}.`;
      }
      case 'mismatch': {
        const fix = fixText({ missing: r.missing || [], extra: r.extra || [], lifted: {} });
        return `The board is out of step: ${fix}.`;
      }
      case 'synced':
        return 'The board matches the game again.';
      case 'result':
        return `Result ${r.result}: ${r.reason}${r.law ? ' (' + r.law + ')' : ''}.`;
      case 'clock':
        return `${cap(r.reason)}${r.white_clock ? '; the clocks stand meanwhile' : ''}${r.law ? ' (' + r.law + ')' : ''}.`;
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
    const showEval = el('show-eval').checked;
    for (const m of st.moves) {
      const li = document.createElement('li');
      // A move of Black's beside White's of the same number shares its
      // row: its number is White's.
      const prev = items[items.length - 1];
      const beside = m.side === 'black' && prev && prev.classList.contains('white') && prev.dataset.number === String(m.number);
      li.className = `move ${m.side}${beside ? ' beside' : ''}`;
      li.dataset.ply = m.ply;
      li.dataset.san = m.san;
      li.dataset.number = m.number;
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = m.side === 'white' ? `${m.number}.` : `${m.number}\u2026`;
      const san = document.createElement('span');
      san.className = 'san';
      san.textContent = m.san;
      li.append(num, san);
      for (const c of m.comments || []) {
        // The engine's evaluation and the clock as small numbers; the rest
        // as it is written.
        const small = (cls, text) => {
          const sp = document.createElement('span');
          sp.className = cls;
          sp.textContent = text;
          li.append(sp);
        };
        const rest = c.replace(/\[%(eval|clk) ([^\]]*)\]/g, (all, cmd, v) => {
          // [%eval 0.30,12]: the score, without the depth after the comma.
          const score = v.split(',')[0];
          if (cmd === 'eval' && showEval) small('eval', /^[-#]/.test(score) ? score : '+' + score);
          if (cmd === 'clk') small('clk', v);
          return '';
        }).trim();
        if (rest) small('comment', rest);
      }
      items.push(li);
      addNotes(m.ply);
    }
    ol.replaceChildren(...items);
    ol.scrollTop = ol.scrollHeight;
  }

  // choiceButton is one option on a button: its colour, its plain words;
  // the id is for tools (data-option).
  function choiceButton(o, i, who, colours, text) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'choice';
    b.dataset.option = o.id;
    b.dataset.side = who;
    const c = colours[`option-${Math.min(i + 1, 6)}`];
    const sw = document.createElement('span');
    sw.className = 'swatch';
    if (c) {
      b.style.borderColor = c;
      sw.style.background = c;
    }
    b.append(sw, document.createTextNode(text));
    b.title = `${o.id}: squares ${o.squares.join(', ')}`;
    return b;
  }

  function drawPending(st) {
    const sec = el('pending');
    const p = st.pending;
    sec.hidden = !p;
    const players = el('player-options'), list = el('option-list'), arbiter = el('arbiter-options');
    if (!p) {
      players.replaceChildren();
      list.replaceChildren();
      arbiter.replaceChildren();
      return;
    }
    const who = p.chooser === 'arbiter' ? 'The arbiter decides' : `${cap(p.chooser)} chooses`;
    el('pending-text').textContent = `${p.kind} (${p.law}): ${cap(p.offender)} erred. ${who}.`;
    const colours = {};
    for (const l of st.leds) colours[l.role] = l.colour;
    const text = (o, i) => (p.words && p.words[i]) || words(o.id);
    const playerButtons = [];
    if (st.simulated && p.chooser !== 'arbiter') {
      p.options.forEach((o, i) => {
        const b = choiceButton(o, i, p.chooser, colours, text(o, i));
        b.addEventListener('click', () => send({ choose: o.id, side: p.chooser }));
        playerButtons.push(b);
      });
    }
    players.className = playerButtons.length ? 'choices' : '';
    players.replaceChildren(...playerButtons);
    // The arbiter's rulings add something only where no player's buttons
    // offer the same options: on a board with sensors, or when the law
    // gives the choice to the arbiter. At a simulated board the chooser's
    // buttons serve the arbiter too, and each option is shown once.
    const rulings = [];
    if (role === 'arbiter' && !playerButtons.length) {
      const head = document.createElement('p');
      head.textContent = p.chooser === 'arbiter' ? 'Rule:' : `Or rule for ${cap(p.chooser)}, as the arbiter:`;
      rulings.push(head);
      p.options.forEach((o, i) => {
        const b = choiceButton(o, i, 'arbiter', colours, text(o, i));
        b.addEventListener('click', () => arbiterAction({ action: 'choose', option: o.id }));
        rulings.push(b);
      });
    }
    arbiter.className = rulings.length ? 'choices arbiter-only' : 'arbiter-only';
    arbiter.replaceChildren(...rulings);
    // Whoever may not choose here still sees what is being chosen.
    const items = [];
    if (!playerButtons.length && !rulings.length) {
      p.options.forEach((o, i) => {
        const li = document.createElement('li');
        li.dataset.option = o.id;
        const sw = document.createElement('span');
        sw.className = 'swatch';
        const c = colours[`option-${Math.min(i + 1, 6)}`];
        if (c) sw.style.background = c;
        li.append(sw, document.createTextNode(text(o, i)));
        items.push(li);
      });
    }
    list.replaceChildren(...items);
  }

  // whiteShare is White's part of the evaluation bar, in percent: even is
  // half, a pawn up about 59, a mate all of it (the curve consoles use).
  function whiteShare(ev) {
    if (ev.mate) return ev.mate > 0 ? 100 : 0;
    return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * ev.cp)) - 1);
  }

  // --- The engine's evaluation and hint (docs/engine.md#the-console) ---

  // evalSeen: the engine has given an evaluation on this page, so the bar
  // stays in place (greyed, without a figure) while the next position's is
  // awaited rather than jumping away.
  let evalSeen = false;

  // plyName names the position after ply moves: "the start", "after
  // 12...Rxd7".
  function plyName(st, ply) {
    const m = ply > 0 && st.moves[ply - 1];
    if (!m) return 'the start';
    return `after ${m.number}${m.side === 'white' ? '.' : '...'}${m.san}`;
  }

  // drawEvaluation shows the engine's evaluation of the position as it
  // stands, from White's point of view, and which position it is for; it
  // never shows an earlier position's: until the new one comes the bar is
  // greyed and says so.
  function drawEvaluation(st) {
    const ev = st.opponent.eval;
    const show = el('show-eval').checked;
    if (ev) evalSeen = true;
    el('eval-switch').hidden = !evalSeen && show;
    el('engine-eval').hidden = !evalSeen || !show;
    const bar = el('evalbar');
    bar.dataset.ply = ev ? String(ev.ply) : '';
    bar.dataset.sign = !ev ? '' : ev.mate ? (ev.mate > 0 ? '+' : '-') : ev.cp > 0 ? '+' : ev.cp < 0 ? '-' : '0';
    bar.classList.toggle('awaited', !ev);
    if (!ev) {
      el('evalbar-white').style.width = '50%';
      bar.setAttribute('aria-label', 'evaluation: the engine is evaluating the position');
      el('engine-score').textContent = '…';
      el('engine-pv').textContent = `evaluating the position ${plyName(st, st.moves.length)}`;
      return;
    }
    el('evalbar-white').style.width = `${whiteShare(ev).toFixed(1)}%`;
    bar.setAttribute('aria-label', `evaluation ${ev.score} for White, ${plyName(st, ev.ply)}`);
    el('engine-score').textContent = `${ev.score}${ev.depth ? ' (depth ' + ev.depth + ')' : ''}`;
    el('engine-pv').textContent = `${plyName(st, ev.ply)}${ev.pv.length ? '; best line: ' + ev.pv.join(' ') : ''}`;
  }

  // drawHint shows the hint beside the hint button: the move, where it
  // goes, and what the engine thinks of the position (White's view).
  function drawHint(st, hint) {
    const o = st.opponent;
    const p = el('engine-hint-said');
    const words = [];
    if (hint && o.hint) {
      words.push(`Hint: ${hint.san}, from ${hint.from} to ${hint.to}`);
      const he = o.hint_eval;
      if (he && el('show-eval').checked) words.push(`, ${he.score} for White${he.depth ? ' (depth ' + he.depth + ')' : ''}${he.pv.length > 1 ? '; best line: ' + he.pv.join(' ') : ''}`);
      words.push('.');
    }
    p.textContent = words.join('');
    p.hidden = !p.textContent;
  }

  // --- end of the engine's evaluation and hint ---

  // idle says which of the engine's commands cannot work now, and why
  // (the button's title): no resigning, offering or hint after the result
  // (a take-back may still undo the last moves), no hint while the engine
  // thinks, no take-back before a move.
  function idle(st) {
    const o = st.opponent;
    const over = st.result ? 'the game is over' : '';
    return {
      takeback: st.moves.length || st.landing ? '' : 'no move to take back',
      hint: over || (o.thinking ? 'the engine is thinking' : o.hinting ? 'a hint is on its way' : ''),
      draw: over || (o.draw === 'offered' ? 'a draw is offered' : ''),
      resign: over,
      decline: over,
      abort: over,
      'claim-victory': over,
    };
  }

  // drawEngine shows the engine playing a side: who it is, what it is
  // doing, its evaluation and best line, and its commands for whoever may
  // give them (the player at a simulated board, the arbiter).
  function drawEngine(st) {
    const o = st.opponent;
    el('engine').hidden = !o;
    if (!o) return;
    el('engine').dataset.thinking = o.thinking ? 'yes' : 'no';
    el('engine-who').textContent = `${o.name}${o.level ? ', ' + o.level + ',' : ''} plays ${cap(o.side)}${o.random ? ' (a side drawn each game)' : ''}.`;
    const aw = st.remote && st.remote.awaiting;
    const hint = st.remote && st.remote.hint;
    const doing = [];
    if (o.thinking) doing.push(`${o.name} is thinking…`);
    else if (aw && !st.result) doing.push(`${o.name} plays ${aw.san}${o.book ? ' (from its book)' : ''}: ${carryText(st, aw)}.`);
    const controls = st.simulated || role === 'arbiter';
    if (o.hinting) doing.push('Looking for a hint…');
    else if (hint && !controls) doing.push(`Hint: ${hint.san}, from ${hint.from} to ${hint.to}.`);
    const draw = { offered: `Draw offered: ${o.name} answers with its next move.`, declined: `${o.name} declined the draw.`, accepted: `${o.name} accepted the draw.` }[o.draw];
    if (draw) doing.push(draw);
    el('engine-doing').textContent = doing.join(' ');
    drawEvaluation(st);
    drawHint(st, hint);
    const fault = el('engine-fault');
    fault.textContent = o.fault ? `The engine does not answer: ${o.fault}. It is asked again every few seconds; the game is kept.` : '';
    fault.hidden = !o.fault;
    const recovered = el('engine-recovered');
    recovered.textContent = !o.fault && o.recovered ? `The engine was restarted after a fault and given the position again: ${o.recovered}.` : '';
    recovered.hidden = !recovered.textContent;
    el('engine-controls').hidden = !(st.simulated || role === 'arbiter');
    const cannot = idle(st);
    for (const b of document.querySelectorAll('#engine-controls [data-command]')) {
      b.disabled = !o.commands.includes(b.dataset.command) || !!cannot[b.dataset.command];
      b.title = cannot[b.dataset.command] || b.dataset.title || '';
    }
    el('engine-level-set').disabled = !o.commands.includes('level');
    const side = el('engine-side');
    if (document.activeElement !== side) side.value = o.random ? 'random' : o.side;
    const level = el('engine-level');
    if (document.activeElement !== level) {
      const match = Array.from(level.options).find((x) => x.value && x.textContent === o.level);
      el('engine-level-now').textContent = o.level ? `${o.level} (now)` : 'the level it plays at';
      level.value = match ? match.value : '';
    }
    drawOnline(st);
  }

  // clockText writes milliseconds left as a clock does: 14:32, or 0:09.4
  // under ten seconds.
  function clockText(ms) {
    ms = Math.max(0, ms);
    const s = Math.floor(ms / 1000);
    if (s < 10) return `0:0${(ms / 1000).toFixed(1)}`;
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = String(s % 60).padStart(2, '0');
    return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
  }

  // drawClocks shows the players, by name where known, and the game's
  // clocks, counting the running side's time down from the state's word
  // until the next state comes; a side whose time is out shows its flag
  // fallen. A board that sends only the times shown (no milliseconds) is
  // shown as it sends them.
  let clockTimer = null;
  function drawClocks(st) {
    const c = st.clock;
    const names = st.players || {};
    el('clocks').hidden = !c && !names.white && !names.black;
    if (clockTimer) { clearInterval(clockTimer); clockTimer = null; }
    for (const side of ['white', 'black']) {
      const who = el('clock-' + side).querySelector('.who');
      who.textContent = names[side] ? `${cap(side)}: ${names[side]}` : cap(side);
      who.title = who.textContent;
      el('clock-' + side).querySelector('.time').hidden = !c;
      el('clock-' + side).querySelector('.flag').hidden = true;
      el('clock-' + side).dataset.running = 'no';
      el('clock-' + side).dataset.flag = 'no';
    }
    if (!c) return;
    const counted = c.white_ms !== undefined || c.black_ms !== undefined;
    const since = Date.now();
    const tick = () => {
      for (const side of ['white', 'black']) {
        const e = el('clock-' + side);
        let ms = c[side + '_ms'] || 0;
        if (c.running === side) ms -= Date.now() - since;
        const flag = c.flag === side || (counted && ms <= 0 && (c.running === side || c.flag === side));
        e.querySelector('.time').textContent = counted ? clockText(ms) : c[side];
        e.querySelector('.flag').hidden = !flag;
        e.dataset.running = c.running === side && !flag ? 'yes' : 'no';
        e.dataset.flag = flag ? 'yes' : 'no';
      }
    };
    tick();
    if (counted && c.running) clockTimer = setInterval(tick, 100);
  }

  // drawOnline shows a game played on lichess in the engine's panel: the
  // opponent and the game's page, lichess's clocks (the running one counted
  // down here from lichess's last word), the link, offers and notices.
  let onlineTimer = null;
  function drawOnline(st) {
    const o = st.opponent;
    const g = o && o.online;
    el('online').hidden = !g;
    for (const b of document.querySelectorAll('.online-only')) b.hidden = !g;
    for (const id of ['engine-hint', 'engine-new-game']) el(id).hidden = !!g;
    for (const id of ['engine-side', 'engine-level']) el(id).closest('.row').hidden = !!g;
    if (onlineTimer) { clearInterval(onlineTimer); onlineTimer = null; }
    if (!g) return;
    el('engine').querySelector('h2').textContent = 'Online on lichess';
    if (g.searching && !g.url) {
      el('engine-who').textContent = '';
      el('online-url').textContent = '';
      el('online-clocks').hidden = true;
      el('online-status').textContent = `${cap(g.searching)}.`;
      el('online-notice').hidden = true;
      return;
    }
    el('engine-who').textContent = `${g.title ? g.title + ' ' : ''}${o.name}${g.rating ? ' (' + g.rating + ')' : ''} plays ${cap(o.side)} on lichess.`;
    const a = el('online-url');
    a.href = g.url;
    a.textContent = g.url;
    el('online-game').textContent = `${g.rated ? 'rated' : 'casual'}${g.speed ? ' ' + g.speed : ''}`;
    el('online-clocks').hidden = !g.clock;
    const since = Date.now() - g.age_ms;
    const tick = () => {
      for (const side of ['white', 'black']) {
        let ms = g[side + '_ms'];
        if (g.running === side) ms -= Date.now() - since;
        const c = el('online-clock-' + side);
        c.textContent = `${cap(side)} ${clockText(ms)}`;
        c.dataset.running = g.running === side ? 'yes' : 'no';
      }
    };
    if (g.clock) {
      tick();
      if (g.running) onlineTimer = setInterval(tick, 500);
    }
    const words = [];
    if (g.result) words.push(`The game is over on lichess: ${g.result} (${g.status}).`);
    else if (!g.up) words.push(`The link to lichess is down${g.link ? ' (' + g.link + ')' : ''}: reconnecting; moves made meanwhile are sent when it is back.`);
    if (g.draw_offered) words.push('The opponent offers a draw.');
    if (g.takeback_proposed) words.push('The opponent asks to take back.');
    if (g.opponent_gone) words.push('The opponent has left the game.');
    el('online-status').textContent = words.join(' ');
    const n = el('online-notice');
    n.textContent = g.notice ? cap(g.notice) + '.' : '';
    n.hidden = !g.notice;
    el('engine-eval').hidden = true;
  }

  // facing turns the board to the player: Black at the bottom when the
  // engine (or the opponent online) plays White, unless the flip button
  // turned it.
  function facing(st) {
    const black = !!(st.opponent && st.opponent.side === 'white');
    if ((black !== turned) !== flipped) {
      flipped = black !== turned;
      buildBoard();
    }
  }

  function render(st) {
    state = st;
    adopt(st);
    facing(st);
    document.title = `boardd ${st.board}`;
    el('laws').textContent = `${st.laws.name} (${st.laws.id})${st.tournament ? ', tournament' : ''}${st.warn_only ? ', warn-only' : ''}`;
    el('laws').dataset.laws = st.laws.id;
    el('mode').textContent = st.simulated ? 'simulated board' : 'sensor board';
    el('sim').hidden = !st.simulated;
    el('board').classList.toggle('sim', st.simulated);
    drawSquares(st);
    drawPromotion(st);
    el('status').textContent = statusText(st);
    drawWarnOnly(st);
    drawPlayers(st);
    el('status').dataset.syncing = st.syncing ? (st.mismatch ? 'mismatch' : 'restore') : '';
    const fault = el('fault');
    fault.textContent = faultText(st);
    fault.hidden = fault.textContent === '';
    const pn = el('pair-notice');
    pn.textContent = pairText(st);
    pn.hidden = pn.textContent === '';
    drawHand();
    const setup = setupMoves(st);
    el('setup').hidden = !setup;
    if (setup) el('setup').textContent = setup.label;
    drawPending(st);
    const res = el('result');
    res.hidden = !st.result;
    res.textContent = st.result ? `Result ${st.result.result}: ${st.result.reason}${st.result.law ? ' (' + st.result.law + ')' : ''}.` : '';
    drawMoves(st);
    drawClocks(st);
    drawEngine(st);
    const sel = el('laws-select');
    if (document.activeElement !== sel) sel.value = st.laws.id;
    followGame(st);
    drawView();
  }

  // --- the viewer and the review -------------------------------------------
  // The viewer shows an earlier position of the game on the page's board
  // (a click on a move, the arrow keys, the ◀ ▶ buttons, the review's graph
  // and timeline), marked "viewing move 12… — back to the game". It only
  // draws: the board's LEDs, the game, the clocks and any choice waiting are
  // the board's, untouched. A new move in the game (or a choice coming up)
  // brings the page back to the game. The positions come from the state
  // (moves[].fen, start_fen); the page has no chess of its own.
  //
  // The review shows a finished game: the viewer over it, the evaluation
  // graph (White's share, from the [%eval] comments), a timeline of the
  // rulings, irregularities and clock times, and the PGN. It opens by
  // itself once the game has a result; the last finished game is kept in
  // this browser (LAST_GAME_KEY) to be reviewed after a new game begins.
  const LAST_GAME_KEY = 'boardd-last-game:';
  // view: which game is viewed ('live': the board's; 'last': the last
  // finished game kept), and the ply viewed (null: the game as it stands).
  const view = { game: 'live', ply: null };
  let lastGame = null; // {key, moves, notes, start_fen, result, players, pgn}
  // review: whether the review is open, of which game ('live': the board's,
  // finished; 'last': the last finished game kept), and the finished game
  // whose review the player closed (it does not open again by itself).
  const review = { open: false, game: 'live', closedFor: '' };
  let seen = { moves: -1, pending: false };
  let pgnURL = '';

  const viewedGame = () => view.game === 'last' && lastGame ? lastGame : state;
  const viewing = () => view.game === 'last' || view.ply !== null;
  const moveName = (m) => m ? `${m.number}${m.side === 'white' ? '.' : '\u2026'} ${m.san}` : 'the start';

  // fenMen reads a FEN's men: square -> FEN letter.
  function fenMen(fen) {
    const out = {};
    const rows = String(fen || '').split(' ')[0].split('/');
    if (rows.length !== 8) return null;
    for (let r = 0; r < 8; r++) {
      let f = 0;
      for (const c of rows[r]) {
        if (c >= '1' && c <= '8') { f += Number(c); continue; }
        if (f > 7 || !PIECE[c.toLowerCase()]) return null;
        out[FILES[f] + (8 - r)] = c;
        f++;
      }
    }
    return out;
  }

  // fenAt is the position after ply (0: before the first move) of a game.
  const fenAt = (g, ply) => ply === 0 ? g.start_fen : (g.moves[ply - 1] || {}).fen;

  // evalOf reads a move's [%eval] comment: {text, share} (White's share
  // in percent), or null.
  function evalOf(m) {
    for (const c of m.comments || []) {
      const e = c.match(/\[%eval ([^\],\s]+)/);
      if (!e) continue;
      const v = e[1];
      if (v[0] === '#') {
        const mate = Number(v.slice(1));
        if (!Number.isFinite(mate)) return null;
        return { text: v, share: mate > 0 || (mate === 0 && m.side === 'white') ? 100 : 0 };
      }
      const pawns = Number(v);
      if (!Number.isFinite(pawns)) return null;
      return { text: (pawns >= 0 ? '+' : '') + pawns.toFixed(2), share: whiteShare({ cp: pawns * 100 }) };
    }
    return null;
  }

  // clockOf reads a move's [%clk] comment, in seconds, or null.
  function clockOf(m) {
    for (const c of m.comments || []) {
      const k = c.match(/\[%clk (\d+):(\d\d):(\d\d(?:\.\d+)?)\]/);
      if (k) return { text: k[0].slice(6, -1), s: Number(k[1]) * 3600 + Number(k[2]) * 60 + Number(k[3]) };
    }
    return null;
  }

  // gameKey names a game by its moves, notes and result, to tell a new one.
  const gameKey = (st) => `${st.start_fen || ''}|${st.moves.map((m) => m.san).join(' ')}|${st.notes.length}|${st.result ? st.result.result : ''}`;

  // keepFinished keeps a finished game (and its PGN, fetched once) as the
  // last game, in this browser's storage too.
  function keepFinished(st) {
    if (!st.result) return;
    const key = gameKey(st);
    if (lastGame && lastGame.key === key) return;
    lastGame = { key, board: st.board, moves: st.moves, notes: st.notes, start_fen: st.start_fen, result: st.result, players: st.players, pgn: '' };
    saveLastGame();
    const kept = lastGame;
    fetch(api('pgn'), { cache: 'no-store' }).then((res) => res.ok ? res.text() : '').then((text) => {
      if (lastGame === kept && text) {
        kept.pgn = text;
        saveLastGame();
        if (review.open) drawReview();
      }
    }).catch(() => { /* the link stays the board's */ });
  }

  function saveLastGame() {
    try { localStorage.setItem(LAST_GAME_KEY + boardId, JSON.stringify(lastGame)); } catch (e) { /* full, or private mode */ }
  }

  function loadLastGame() {
    try {
      const g = JSON.parse(localStorage.getItem(LAST_GAME_KEY + boardId) || 'null');
      if (g && Array.isArray(g.moves) && Array.isArray(g.notes) && g.result) lastGame = g;
    } catch (e) { lastGame = null; }
  }

  // followGame is called with each state: a new move or a choice coming up
  // brings the page back to the game; a result opens the review.
  function followGame(st) {
    const pending = !!st.pending;
    if (seen.moves >= 0 && (st.moves.length !== seen.moves || (pending && !seen.pending))) {
      view.game = 'live';
      view.ply = null;
      if (review.game === 'last') review.open = false;
    }
    seen = { moves: st.moves.length, pending };
    keepFinished(st);
    if (st.result && !review.open && review.closedFor !== gameKey(st)) {
      review.open = true;
      review.game = 'live';
    }
    if (!st.result && review.open && review.game === 'live') review.open = false;
  }

  // showPly views a ply of the viewed game (null: back to the game).
  function showPly(ply) {
    const g = viewedGame();
    if (!g) return;
    const n = g.moves.length;
    if (ply !== null) ply = Math.max(g.start_fen ? 0 : Math.min(1, n), Math.min(n, ply));
    if (view.game === 'live' && ply === n) ply = null;
    view.ply = ply;
    drawView();
  }

  // stepView answers the ◀ ▶ buttons and the arrow keys.
  function stepView(how) {
    const g = viewedGame();
    if (!g || !g.moves.length) return;
    const n = g.moves.length;
    const at = view.ply === null ? n : view.ply;
    switch (how) {
      case 'first': showPly(0); break;
      case 'prev': showPly(at - 1); break;
      case 'next': showPly(at + 1); break;
      case 'last': showPly(view.game === 'live' ? null : n); break;
    }
  }

  function backToGame() {
    view.game = 'live';
    view.ply = null;
    if (review.open && review.game === 'last') review.open = false;
    drawView();
  }

  // drawView draws the board as viewed: the game's (its men, lights, the
  // hand, the promotion picker), or the position viewed with the move that
  // led to it marked; then the banner, the move list's mark and the review.
  function drawView() {
    if (!state) return;
    const g = viewedGame();
    const ply = view.ply === null ? g.moves.length : view.ply;
    const men = viewing() ? fenMen(fenAt(g, ply)) : null;
    el('board').classList.toggle('viewing', !!men);
    if (!men) {
      if (viewing()) { view.game = 'live'; view.ply = null; }
      drawSquares(state);
      drawPromotion(state);
      drawHand();
    } else {
      const before = ply > 0 ? fenMen(fenAt(g, ply - 1)) : null;
      const leds = [];
      if (before) {
        for (const sq of Object.keys(squares)) {
          if ((before[sq] || '') !== (men[sq] || '')) leds.push({ square: sq, role: 'viewed-move', blink: 'steady', colour: '#f0c674' });
        }
      }
      drawSquares({ leds, men, lifted: {} });
      const promo = document.getElementById('promotion');
      if (promo) promo.remove();
      for (const s of Object.values(squares)) s.held.setAttribute('visibility', 'hidden');
      el('hand').hidden = true;
    }
    const banner = el('viewing');
    banner.hidden = !viewing();
    const of = view.game === 'last' ? 'the last game, ' : '';
    el('viewing-text').textContent = !viewing() ? '' : ply === 0 ? `Viewing ${of}the position before the first move` : `Viewing ${of}move ${moveName(g.moves[ply - 1])}`;
    el('view-live').textContent = view.game === 'last' ? 'back to the game on the board' : 'back to the game';
    banner.dataset.ply = viewing() ? ply : '';
    for (const b of el('view-nav').querySelectorAll('[data-view]')) b.disabled = !state.moves.length;
    for (const li of el('moves').querySelectorAll('li.move')) {
      li.tabIndex = 0; // Enter shows the position after it
      const on = view.game === 'live' && view.ply !== null && Number(li.dataset.ply) === view.ply;
      li.classList.toggle('viewing', on);
      if (on) li.setAttribute('aria-current', 'true'); else li.removeAttribute('aria-current');
      if (on) scrollWithin(el('moves'), li);
    }
    el('review-open').hidden = review.open || !(state.result || lastGame);
    el('review-open').textContent = state.result ? 'Review the game' : 'Review the last game';
    drawReview();
  }

  // scrollWithin scrolls list (and nothing else) to show item.
  function scrollWithin(list, item) {
    const r = item.getBoundingClientRect(), o = list.getBoundingClientRect();
    if (r.top < o.top) list.scrollTop -= o.top - r.top;
    else if (r.bottom > o.bottom) list.scrollTop += r.bottom - o.bottom;
  }

  // graphX places ply (1 to n) across the graph and the timeline; ply 0
  // stands at the left edge.
  function graphX(ply, n) {
    if (ply <= 0) return 4;
    return n <= 1 ? 300 : 12 + (ply - 1) * 576 / (n - 1);
  }

  // plyAt is the ply nearest a click at clientX on a graph.
  function plyAt(svgEl, clientX, n) {
    const r = svgEl.getBoundingClientRect();
    const x = (clientX - r.left) / r.width * 600;
    let best = 1, dist = Infinity;
    for (let p = 1; p <= n; p++) {
      const d = Math.abs(graphX(p, n) - x);
      if (d < dist) { best = p; dist = d; }
    }
    return best;
  }

  // drawReview draws the review of the game viewed: its evaluation graph,
  // its timeline and its notes, with the ply viewed marked.
  function drawReview() {
    const sec = el('review');
    const g = review.open ? (review.game === 'last' ? lastGame : state) : null;
    sec.hidden = !g;
    if (!g) return;
    sec.dataset.game = review.game;
    const n = g.moves.length;
    const ply = view.ply === null ? n : view.ply;
    const names = g.players || {};
    const who = names.white || names.black ? `${names.white || 'White'} – ${names.black || 'Black'}: ` : '';
    el('review-title').textContent = review.game === 'last' && g !== state ? 'Review of the last game' : 'Review of the game';
    el('review-result').textContent = g.result ? `${who}${g.result.result}, ${g.result.reason}${g.result.law ? ' (' + g.result.law + ')' : ''}. ${n} ${n === 1 ? 'ply' : 'plies'}.` : '';
    el('review-at').textContent = ply === 0 ? 'the start' : moveName(g.moves[ply - 1]);

    // The evaluation graph: White's share, White at the top.
    const graph = el('review-graph');
    graph.replaceChildren();
    const evals = g.moves.map((m) => evalOf(m));
    const pts = [];
    evals.forEach((e, i) => { if (e) pts.push({ ply: i + 1, e, x: graphX(i + 1, n), y: 145 - e.share * 1.4 }); });
    graph.hidden = !pts.length;
    el('review-no-eval').hidden = !!pts.length;
    if (pts.length) {
      svg('rect', { class: 'graph-bg', x: 0, y: 0, width: 600, height: 150 }, graph);
      svg('line', { class: 'graph-even', x1: 0, x2: 600, y1: 75, y2: 75 }, graph);
      const d = `M ${pts[0].x} 150 ` + pts.map((p) => `L ${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ') + ` L ${pts[pts.length - 1].x} 150 Z`;
      svg('path', { class: 'graph-white', d }, graph);
      svg('polyline', { class: 'graph-line', points: pts.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ') }, graph);
      if (ply > 0) svg('line', { class: 'graph-at', x1: graphX(ply, n), x2: graphX(ply, n), y1: 0, y2: 150 }, graph);
      for (const p of pts) {
        const c = svg('circle', { class: 'eval-point' + (p.ply === ply ? ' at' : ''), cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 5, 'data-ply': p.ply, 'data-eval': p.e.text }, graph);
        svg('title', {}, c).textContent = `${moveName(g.moves[p.ply - 1])}: ${p.e.text}`;
      }
    }

    // The timeline: the clock times (a dot a move, higher with more time
    // left) and the rulings and irregularities, each at its move.
    const tl = el('review-timeline');
    tl.replaceChildren();
    svg('rect', { class: 'timeline-bg', x: 0, y: 0, width: 600, height: 56 }, tl);
    if (ply >= 0 && n) svg('line', { class: 'graph-at', x1: graphX(ply, n), x2: graphX(ply, n), y1: 0, y2: 56 }, tl);
    const clocks = g.moves.map((m) => clockOf(m));
    const most = Math.max(1, ...clocks.filter((c) => c).map((c) => c.s));
    clocks.forEach((c, i) => {
      if (!c) return;
      const m = g.moves[i];
      const dot = svg('circle', { class: `clock-mark ${m.side}`, cx: graphX(i + 1, n).toFixed(1), cy: (30 - 24 * c.s / most).toFixed(1), r: 3, 'data-ply': i + 1, 'data-clock': c.text }, tl);
      svg('title', {}, dot).textContent = `${moveName(m)}: ${cap(m.side)} had ${c.text} left`;
    });
    const notes = (g.notes || []).filter((x) => x.report && x.report.type !== 'synced');
    const items = [];
    for (const nt of notes) {
      const r = nt.report;
      const x = graphX(nt.ply, n);
      const mark = svg('path', { class: `mark ${r.type}`, d: `M ${x.toFixed(1)} 36 l 6 14 l -12 0 Z`, 'data-ply': nt.ply, 'data-type': r.type }, tl);
      const where = nt.ply === 0 ? 'Before the first move' : `After ${moveName(g.moves[nt.ply - 1])}`;
      svg('title', {}, mark).textContent = `${where}: ${noteText(r)}`;
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `note ${r.type}`;
      b.dataset.ply = nt.ply;
      b.dataset.type = r.type;
      b.textContent = `${where}: ${noteText(r)}`;
      li.append(b);
      items.push(li);
    }
    el('review-notes').replaceChildren(...items);

    const a = el('review-pgn');
    if (pgnURL) { URL.revokeObjectURL(pgnURL); pgnURL = ''; }
    if (g === state || !g.pgn) {
      a.href = api('pgn');
      a.hidden = g !== state && !g.pgn;
    } else {
      pgnURL = URL.createObjectURL(new Blob([g.pgn], { type: 'application/x-chess-pgn' }));
      a.href = pgnURL;
      a.hidden = false;
    }
    a.download = `boardd-${g.board || boardId}${g === state ? '' : '-last'}.pgn`;
  }

  // wireView hooks the viewer up: the move list, the ◀ ▶ buttons, the
  // keys, the banner, the review's graph, timeline and notes.
  function wireView() {
    el('moves').addEventListener('click', (e) => {
      const li = e.target.closest('li.move');
      if (!li || !state) return;
      if (view.game === 'last') { view.game = 'live'; if (review.game === 'last') review.open = false; }
      showPly(Number(li.dataset.ply));
    });
    for (const b of document.querySelectorAll('[data-view]')) {
      b.addEventListener('click', () => {
        if (b.closest('#view-nav') && view.game === 'last') { view.game = 'live'; view.ply = null; if (review.game === 'last') review.open = false; }
        stepView(b.dataset.view);
      });
    }
    document.addEventListener('keydown', (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey || !state) return;
      if (e.target.closest && e.target.closest('input, select, textarea, [contenteditable]')) return;
      const how = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' }[e.key];
      const g = viewedGame();
      if (e.key === 'Enter' && e.target.matches && e.target.matches('#moves li.move')) {
        e.target.click();
      } else if (how && g && g.moves.length) {
        e.preventDefault();
        stepView(how);
      } else if (e.key === 'Escape' && viewing()) {
        backToGame();
      }
    });
    el('view-live').addEventListener('click', backToGame);
    const toPly = (svgEl) => (e) => {
      const g = viewedGame();
      if (!g || !g.moves.length) return;
      const target = e.target.closest('[data-ply]');
      showPly(target ? Number(target.dataset.ply) : plyAt(svgEl, e.clientX, g.moves.length));
    };
    el('review-graph').addEventListener('click', toPly(el('review-graph')));
    el('review-timeline').addEventListener('click', toPly(el('review-timeline')));
    el('review-notes').addEventListener('click', (e) => {
      const b = e.target.closest('button[data-ply]');
      if (b) showPly(Number(b.dataset.ply));
    });
    el('review-open').addEventListener('click', () => {
      review.open = true;
      if (state && state.result) {
        review.game = 'live';
      } else {
        review.game = 'last';
        view.game = 'last';
        view.ply = lastGame ? lastGame.moves.length : null;
      }
      drawView();
      el('review').scrollIntoView({ block: 'nearest' });
    });
    el('review-close').addEventListener('click', () => {
      if (state && state.result) review.closedFor = gameKey(state);
      review.open = false;
      if (view.game === 'last') { view.game = 'live'; view.ply = null; }
      drawView();
    });
  }

  // --- wiring ------------------------------------------------------------
  // connect follows the board's events. A browser gives up on a stream the
  // console refused (too many open: 503); the page opens it again after a
  // pause, as the console's Retry-After asks.
  function connect() {
    const es = new EventSource(api('events'));
    const conn = el('conn');
    es.addEventListener('open', () => { conn.textContent = 'live'; conn.className = 'up'; });
    es.addEventListener('error', () => {
      conn.textContent = 'reconnecting…'; conn.className = 'down';
      if (es.readyState === EventSource.CLOSED) setTimeout(connect, 10000);
    });
    es.addEventListener('state', (e) => render(JSON.parse(e.data)));
    es.addEventListener('say', (e) => say(JSON.parse(e.data)));
  }

  // say speaks a line of the board's voice through the browser's speech
  // synthesis, when this page's speech switch is on.
  function say(line) {
    const synth = window.speechSynthesis;
    if (!el('speak').checked || !synth || typeof SpeechSynthesisUtterance === 'undefined') return;
    const u = new SpeechSynthesisUtterance(line.text);
    u.lang = line.lang;
    synth.speak(u);
  }

  async function loadWords() {
    try {
      const res = await fetch('/api/options');
      optionWords = await res.json();
      if (state) render(state);
    } catch (e) { /* the ids stand for themselves */ }
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
    window.addEventListener('hashchange', tokenFromLink);
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
    el('warn-only').addEventListener('change', (e) => warnOnly(e.target.checked));
    for (const side of ['white', 'black']) {
      el('player-' + side).addEventListener('input', (e) => { e.target.dataset.typed = '1'; });
    }
    el('players-form').addEventListener('submit', (e) => {
      e.preventDefault();
      namePlayers();
    });
    el('laws-change').addEventListener('click', () => {
      const id = el('laws-select').value;
      if (id && confirm(`Change the law-set to ${id}?`)) arbiterAction({ action: 'laws', value: id });
    });
    for (const b of document.querySelectorAll('#engine-controls [data-command]')) {
      b.dataset.title = b.title;
      b.addEventListener('click', () => {
        const c = b.dataset.command;
        if (c === 'resign' && !confirm('Resign the game?')) return;
        if (c === 'new-game' && !confirm('Start a new game? The game in progress ends here.')) return;
        engineCommand(c);
      });
    }
    el('engine-side-set').addEventListener('click', () => engineCommand('side', el('engine-side').value));
    el('engine-level-set').addEventListener('click', () => {
      if (el('engine-level').value) engineCommand('level', el('engine-level').value);
    });
    el('one-by-one').addEventListener('change', drawHand);
    el('setup').addEventListener('click', setUp);
    el('show-eval').addEventListener('change', () => {
      try {
        if (el('show-eval').checked) localStorage.removeItem(NO_EVAL_KEY); else localStorage.setItem(NO_EVAL_KEY, '1');
      } catch (e) { /* private mode */ }
      if (state) render(state);
    });
    el('flip').addEventListener('click', () => {
      turned = !turned;
      try {
        if (turned) localStorage.setItem(TURNED_KEY, '1'); else localStorage.removeItem(TURNED_KEY);
      } catch (e) { /* private mode */ }
      if (state) render(state);
      else { flipped = turned; buildBoard(); }
    });
  }

  async function init() {
    readToken();
    try { turned = localStorage.getItem(TURNED_KEY) === '1'; } catch (e) { turned = false; }
    flipped = turned;
    try { el('show-eval').checked = localStorage.getItem(NO_EVAL_KEY) !== '1'; } catch (e) { /* shown */ }
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
    loadLastGame();
    wireView();
    loadLaws();
    loadWords();
    checkRole();
    connect();
  }

  init();
})();
