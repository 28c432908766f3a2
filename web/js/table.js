// table.js - one table: play a seat, watch, or step through a finished game.
//
// The page binds its connection to the table (join, resume with the token this browser keeps, or
// watch), then draws every state it is sent: the board (board.js), the players with their scores
// and whose turn it is, the legal moves as a list (always there, whatever the board offers), the
// last moves, the links to send friends, and at the end the result, the review and the record.
import { Conn, api } from './conn.js';
import { Board } from './board.js';
import { changes, reducedMotion } from './motion.js';
import { richText } from './cards.js';
import { rulesElements } from './markup.js';
import { endEvents, endList, endText } from './ending.js';
import { drawClocks, secondsLeft, watchPresence, mmss, URGENT_S } from './clock.js';
import { h, announce, keepFocus, seatsHeld, holdSeat, dropSeat, seatName, joinLink, watchLink, copyText, myName, setMyName, botName, limitsRead } from './dom.js';

const QUICK = ['Good game', 'Your turn', 'One moment', 'Well played'];

// A short beep (WebAudio, made here: no file to fetch), for the turn alert when asked for.
function beep() {
  try {
    const ac = beep.ac || (beep.ac = new AudioContext());
    const o = ac.createOscillator(), g = ac.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.08, ac.currentTime);
    g.gain.exponentialRampToValueAtTime(0.0001, ac.currentTime + 0.25);
    o.connect(g).connect(ac.destination);
    o.start();
    o.stop(ac.currentTime + 0.25);
  } catch { /* no sound: the title still says it */ }
}

export class TablePage {
  // opts: {table, seat, mode: join | play | watch | review}
  constructor(root, opts) {
    this.root = root;
    this.table = opts.table;
    this.mode = opts.mode;
    this.wantSeat = opts.seat;
    this.wantPly = opts.ply ?? 0; // the step a review link asks for
    this.seat = null;
    this.token = null;
    this.state = null;
    this.summary = null;
    this.lastPly = null;
    this.wasMyTurn = false;
    this.review = null;
    this.queue = []; // states received, not yet drawn (others' moves are shown one by one)
    this.holdUntil = 0;
    this.touched = new Set(); // the zones the moves since this seat's last move touched
    this.arrived = new Map(); // zone -> the cards they brought there
    this.build();
    this.ticker = setInterval(() => this.tick(), 250); // the clocks, to the second, on the board and in the list
    // Acting on the page (a card chosen, typing in the chat…) tells the server this seat's person
    // is there: the takeover counts from the seat's last message (docs/protocol.md, "Presence").
    watchPresence(this.page, () => {
      if (this.token && this.state?.status === 'playing') this.conn.request({ type: 'here', table: this.table, token: this.token }).catch(() => {});
    });
    this.conn = new Conn({
      onstatus: (t) => { document.getElementById('conn-status').textContent = t; },
      onopen: () => this.bind(),
      onmessage: (m) => this.message(m),
      onerror: (e) => this.error(e.message),
    }, this.table);
    this.onkey = (ev) => this.key(ev);
    document.addEventListener('keydown', this.onkey);
    this.loadSummary();
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.ticker);
    document.title = 'pilfer';
    document.removeEventListener('keydown', this.onkey);
    this.board.closeChoice();
    this.board.destroy();
    this.conn.close();
  }

  // ---- the page's parts ----

  build() {
    this.title = h('h1.table-title', {}, `Table ${this.table}`);
    this.turn = h('p.turn', { id: 'turn', tabindex: -1 });
    this.errorLine = h('p.error', { role: 'alert' });
    this.hintLine = h('p.hint-line', { role: 'status' });
    this.rulesBtn = h('button', { type: 'button', id: 'rules-btn', onclick: () => this.showRules() }, 'Rules');
    this.hintBtn = h('button', { type: 'button', id: 'hint-btn', onclick: () => this.hint(), disabled: true }, 'Hint');
    this.leaveBtn = h('button', { type: 'button', id: 'leave-btn', onclick: () => this.leave(), hidden: true }, 'Leave');
    this.board = new Board({ play: (i) => this.play(i), say: (t) => announce(t), above: () => [this.since, this.notice],
      covered: () => this.reviewCovers() });
    this.seatsList = h('ol.seats', { id: 'seats' });
    this.sharePanel = h('section.share-panel', { 'aria-labelledby': 'share-title', hidden: true });
    this.legalList = h('ul.legal', { id: 'legal' });
    this.legalCount = h('span', {});
    // The list of every legal move: open while the board has no zones to play on, and as the
    // player last left it.
    this.legalPanel = h('details.moves-panel', { id: 'moves-panel', open: true },
      h('summary', { onclick: () => { this.movesOpen = !this.legalPanel.open; } }, 'All your moves ', this.legalCount),
      this.legalList);
    this.logList = h('ol.log', { id: 'log' });
    this.chatList = h('ol.chat-log', { id: 'chat-log', 'aria-live': 'polite' });
    this.chatInput = h('input.chat-input', { type: 'text', id: 'chat-input', autocomplete: 'off',
      'aria-label': 'Message', placeholder: 'Say something' });
    limitsRead.then((l) => { if (l.chat_chars) this.chatInput.maxLength = l.chat_chars; });
    this.chatMsg = h('p.help.chat-msg', { id: 'chat-msg', role: 'status' });
    this.chatForm = h('form.chat-form', { onsubmit: (e) => { e.preventDefault(); this.say(this.chatInput.value); } },
      h('div.chat-quick', {}, QUICK.map((q) => h('button.quick', { type: 'button', onclick: () => this.say(q) }, q))),
      h('div.chat-row', {}, this.chatInput, h('button', { type: 'submit', id: 'chat-send' }, 'Send')));
    this.chatTitle = h('h2', { id: 'chat-title' }, 'Chat');
    this.chatPanel = h('section.chat-panel', { id: 'chat', 'aria-labelledby': 'chat-title' },
      this.chatTitle, this.chatList, this.chatForm, this.chatMsg);
    this.takenLine = h('p.taken-line', { id: 'taken-line', role: 'status', hidden: true });
    this.rematchLine = h('div.rematch-line', { id: 'rematch-line', role: 'status' });
    // A view's own log of the round (`log`, and `previous_log`: docs/views.md), for any game that
    // gives one: what everyone chose, told once it is revealed.
    this.roundLog = h('section.round-log-panel', { id: 'round-log', hidden: true, 'aria-labelledby': 'round-log-title' });
    this.result = h('section.result', { id: 'result', hidden: true, tabindex: -1, 'aria-labelledby': 'result-title' });
    this.reviewPanel = h('section.review', { id: 'review', hidden: true, 'aria-labelledby': 'review-title' });
    this.mineLine = h('p.sealed-line', { role: 'status' });
    this.since = h('p.since', { id: 'since' });
    this.notice = h('p.notice', { id: 'notice', role: 'status', hidden: true });
    this.drawerBtn = h('button.drawer-btn', { type: 'button', id: 'drawer-btn', 'aria-expanded': 'false',
      'aria-controls': 'side', onclick: () => this.drawer() }, 'Players & log');
    this.skipBtn = h('button.skip-moves', { type: 'button', id: 'skip-btn', hidden: true, title: 'Show the table as it is now (S)',
      onclick: () => this.skip() }, 'Skip \u25b8\u25b8');
    this.drawerBtn.addEventListener('click', () => { this.unread = 0; this.drawerBtn.querySelector('.unread')?.remove(); });
    this.options = this.buildOptions();
    this.page = h('div.table-page', { dataset: { states: 0, table: this.table } },
      h('div.table-head', {},
        h('div.title-line', {}, this.title,
          h('nav.tools', { 'aria-label': 'Table tools' }, this.rulesBtn, this.hintBtn, this.drawerBtn, this.options,
            this.leaveBtn, h('a.button', { href: '#' }, 'Lobby'))),
        this.turn, this.takenLine, this.mineLine, this.errorLine, this.hintLine),
      this.result,
      this.reviewPanel,
      h('div.table-layout', {},
        h('section.board-area', { 'aria-label': 'The table', onclick: (ev) => { if (!ev.target.closest('button, a, input, summary')) this.skip(); } },
          this.skipBtn, this.since, this.notice, this.board.root),
        this.side = h('aside.side', { id: 'side' },
          h('button.drawer-close', { type: 'button', onclick: () => this.drawer(false) }, 'Close'),
          h('section.seats-panel', { 'aria-labelledby': 'seats-title' }, h('h2', { id: 'seats-title' }, 'Players'), this.seatsList),
          this.sharePanel,
          this.chatPanel,
          this.legalPanel,
          this.roundLog,
          h('section.log-panel', { 'aria-labelledby': 'log-title' }, h('h2', { id: 'log-title' }, 'Last moves'), this.logList))));
    this.root.append(this.page);
  }

  // The options this browser keeps: how fast others' moves are shown, and whether a move waits
  // for a confirmation.
  buildOptions() {
    const get = (k, d) => localStorage.getItem(`pilfer.${k}`) ?? d;
    this.pace = get('pace', 'normal');
    this.confirmMoves = get('confirm', '0') === '1';
    const pace = h('select', { id: 'opt-pace', onchange: () => { this.pace = pace.value; localStorage.setItem('pilfer.pace', pace.value); } },
      [['normal', 'normal'], ['fast', 'fast'], ['instant', 'instant']].map(([v, t]) => h('option', { value: v, selected: v === this.pace }, t)));
    const confirmBox = h('input', { type: 'checkbox', id: 'opt-confirm', checked: this.confirmMoves, onchange: () => {
      this.confirmMoves = confirmBox.checked;
      localStorage.setItem('pilfer.confirm', confirmBox.checked ? '1' : '0');
    } });
    this.sound = get('sound', '0') === '1';
    const soundBox = h('input', { type: 'checkbox', id: 'opt-sound', checked: this.sound, onchange: () => {
      this.sound = soundBox.checked;
      localStorage.setItem('pilfer.sound', soundBox.checked ? '1' : '0');
    } });
    const nameBox = h('input', { type: 'text', id: 'opt-name', value: myName(), maxLength: 64, autocomplete: 'nickname' });
    nameBox.addEventListener('change', () => this.rename(nameBox));
    return h('details.table-options', {}, h('summary.button', {}, 'Options'),
      h('div.options-box', {},
        h('p', {}, h('label', { for: 'opt-name' }, 'Your name: '), nameBox),
        h('p', {}, soundBox, ' ', h('label', { for: 'opt-sound' }, 'A sound when it is your turn')),
        h('p', {}, h('label', { for: 'opt-pace' }, 'Others’ moves: '), pace),
        h('p', {}, confirmBox, ' ', h('label', { for: 'opt-confirm' }, 'Confirm each move before it is sent (a move cannot be taken back)'))));
  }

  // How long a card travels, and the pause after another seat's move (0: no motion).
  motionMs() {
    if (reducedMotion() || this.pace === 'instant' || this.skipping) return 0;
    const ms = this.pace === 'fast' || this.queue.length > 4 ? 300 : 600;
    return ms;
  }

  // The drawer of the players, the log and the moves (on a narrow screen): open, shut or toggled.
  drawer(open = !this.page.classList.contains('drawer-open')) {
    this.page.classList.toggle('drawer-open', open);
    this.drawerBtn.setAttribute('aria-expanded', String(open));
    if (open) this.side.querySelector('.drawer-close')?.focus();
    else if (this.side.contains(document.activeElement)) this.drawerBtn.focus();
  }

  async loadSummary() {
    try {
      this.summary = await api(`/api/tables/${this.table}`);
      // What the game's score counts, and whether lower wins (`pilfer games --json`).
      const games = await api('/api/games');
      this.score = games.find((g) => g.id === this.summary.game)?.score || null;
      if (this.state) this.render();
      this.title.replaceChildren(`${this.summary.title} `, h('small', {}, `table ${this.table}`));
      this.titleTurn();
    } catch (e) {
      this.turn.textContent = `There is no table ${this.table} (${e.message}).`;
    }
  }

  // ---- binding the connection: join, resume or watch (again after a reconnection) ----

  async bind() {
    this.error('');
    if (this.mode === 'review') return this.bindReview();
    if (this.mode === 'watch') return this.watch();
    const held = seatsHeld(this.table);
    const first = Object.keys(held).length ? Number(Object.keys(held)[0]) : null;
    const seat = this.wantSeat ?? first;
    if (seat !== null && held[seat] !== undefined) {
      try {
        await this.conn.request({ type: 'resume', table: this.table, token: held[seat], ...this.nameField() });
        this.sitAt(seat, held[seat]);
        return;
      } catch (e) {
        if (e.code !== 'bad_token') return this.error(e.message);
        dropSeat(this.table, seat); // the seat was left, or the table is another server's
      }
    }
    if (this.mode !== 'join') {
      this.error(`This browser holds no seat of table ${this.table}: you are watching.`);
      return this.watch();
    }
    try {
      const r = await this.conn.request({ type: 'join', table: this.table, ...(seat !== null ? { seat } : {}), ...this.nameField() });
      holdSeat(this.table, r.seat, r.token);
      this.sitAt(r.seat, r.token);
      announce(`You sit at seat ${r.seat} of table ${this.table}`);
    } catch (e) {
      this.error(e.code === 'seat_taken' ? 'That seat is taken: you are watching the table.' : e.message);
      this.watch();
    }
  }

  sitAt(seat, token) {
    this.seat = seat;
    this.wantSeat = seat;
    this.token = token;
    this.mode = 'play';
    history.replaceState(null, '', `#play=${this.table}&seat=${seat}`);
    this.leaveBtn.hidden = false;
  }

  async watch() {
    this.seat = null;
    this.token = null;
    this.mode = 'watch';
    this.leaveBtn.hidden = true;
    try {
      await this.conn.request({ type: 'watch', table: this.table });
    } catch (e) {
      this.error(e.message);
    }
  }

  async bindReview() {
    await this.watch(); // the state tells whether it is over; review then starts from it
    this.mode = 'review-wanted';
  }

  // ---- what the server sends ----

  // States are drawn in order, one at a time: after another seat's move the next waits a moment,
  // so that a bot's three moves are three things seen.
  message(m) {
    if (m.table !== this.table) return;
    if (m.type === 'chat') return this.addChat(m);
    if (m.type === 'rematch') return this.rematchNews(m);
    if (m.type === 'chat_log') {
      this.chatList.replaceChildren();
      for (const x of Array.isArray(m.messages) ? m.messages : []) this.addChat(x, true);
      return;
    }
    if (m.type !== 'state') return;
    this.queue.push(m);
    this.pump();
  }

  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length) {
        const wait = this.holdUntil - performance.now();
        if (wait > 0 && this.motionMs()) {
          this.skipBtn.hidden = false; // others' moves wait to be shown: they may be skipped
          await new Promise((ok) => { this.wake = ok; setTimeout(ok, Math.min(wait, 1000)); });
        }
        if (this.destroyed) return;
        this.show(this.queue.shift());
      }
    } finally {
      this.pumping = false;
      this.skipping = false;
      this.skipBtn.hidden = true;
    }
  }

  // Skip (the button, or S): the others' moves still to be shown are drawn at once, and the
  // cards travelling now land.
  skip() {
    if (this.skipBtn.hidden) return false;
    this.skipping = true;
    this.holdUntil = 0;
    for (const a of document.getAnimations()) if (this.board.root.contains(a.effect?.target)) a.finish();
    this.wake?.();
    this.page.dataset.skipped = Number(this.page.dataset.skipped || 0) + 1; // for tests
    announce('Skipped to the table as it is now');
    return true;
  }

  // The moves a new state brings (its log's entries past the state drawn before).
  newMoves(prev, m) {
    if (!prev || prev.ply === m.ply) return [];
    return (m.log || []).filter((e) => e.ply >= prev.ply && e.ply < m.ply);
  }

  show(m) {
    const first = this.state === null;
    const prev = this.state;
    this.state = m;
    if (m.seat !== null && m.seat !== undefined) this.seat = m.seat;
    const news = this.newMoves(prev, m);
    const mine = news.some((e) => e.seat === this.seat && this.seat !== null);
    const mover = news.length ? news[news.length - 1].seat ?? null : null;
    this.moved = prev && !this.review ? changes(prev.view, m.view, mover, news) : [];
    // A move of this seat's that moved nothing (a pass) keeps the others' marked.
    this.mark(this.moved, (mine && this.moved.length > 0) || first);
    if (mine) this.notice.hidden = true; // a notice stays until this seat's next move
    if (mine && this.lateLine) this.error(''); // so does "the table moved on before your move arrived"
    this.tellSteal(this.moved, mover, prev?.view, m.view);
    const ms = this.motionMs();
    this.ms = ms && !this.review ? (mine ? Math.min(ms, 350) : ms) : 0;
    if (news.length && !mine && ms) this.holdUntil = performance.now() + ms + 150;
    this.tellNews(prev, m, first);
    this.render();
    this.moved = [];
    if (m.status === 'over' && this.mode === 'review-wanted') {
      this.mode = 'watch';
      // A seat this browser held is still "you" in the names.
      const held = Object.keys(seatsHeld(this.table));
      if (held.length) {
        this.seat = Number(held[0]);
        this.render();
      }
      this.startReview();
    }
  }

  // The screen reader hears the new moves and whose turn it is.
  tellNews(prev, m, first) {
    const news = (m.log || []).filter((e) => this.lastPly !== null && e.ply >= this.lastPly);
    if (!first) for (const e of news) announce(this.logText(e));
    this.lastPly = m.ply;
    const myTurn = (m.legal || []).length > 0;
    if (myTurn && (!this.wasMyTurn || first || prev?.ply !== m.ply)) announce('Your turn');
    if (myTurn && !this.wasMyTurn && !first && this.sound) beep();
    this.stateAt = performance.now(); // the clocks in it are as of now
    this.wasMyTurn = myTurn;
    if (m.status === 'over' && prev?.status !== 'over' && !first) announce(`Game over. ${this.resultWords(m)}`);
    if (m.status === 'playing' && prev?.status === 'waiting') announce('Everyone is seated: the game begins');
  }

  render() {
    keepFocus(this.page, () => this.draw(), this.turn);
  }

  // What the last moves touched stays marked until this seat's next move: `fresh` starts anew.
  mark(moved, fresh) {
    if (fresh) {
      this.touched = new Set();
      this.arrived = new Map();
    }
    for (const x of moved) {
      this.touched.add(x.from);
      this.touched.add(x.to);
      this.arrived.set(x.to, [...(this.arrived.get(x.to) || []), ...x.cards]);
    }
  }

  // A short notice when cards go from one seat's pile to another's: "Seat 1 (easy bot) took your
  // 13 cards".
  tellSteal(moved, mover, before, after) {
    // Not this seat's own steal: the player knows what they did.
    const steal = moved.find((x) => x.fromOwner !== null && x.toOwner !== null && x.fromOwner !== x.toOwner &&
      x.fromKind !== 'hand' && x.count > 0 && (mover === null || x.toOwner === mover) && (this.seat === null || x.toOwner !== this.seat));
    if (!steal) return;
    // As many as the pile lost (a card face down in it may have been matched elsewhere).
    const size = (v) => (Array.isArray(v?.zones) ? v.zones : []).find((z) => z.id === steal.from)?.cards?.length ?? 0;
    const count = Math.max(steal.count, size(before) - size(after));
    const n = `${count} ${count === 1 ? 'card' : 'cards'}`;
    const whose = steal.fromOwner === this.seat ? `your ${n}` : `${this.name(steal.fromOwner)}’s ${n}`;
    const who = steal.toOwner === this.seat ? 'You' : this.name(steal.toOwner);
    const text = `${who} took ${whose}`;
    this.notice.textContent = text;
    this.notice.hidden = false;
    this.notice.classList.toggle('against-me', steal.fromOwner === this.seat);
    // A spectator's notice goes after a while; a player's stays until their next move.
    clearTimeout(this.noticeTimer);
    if (this.seat === null) this.noticeTimer = setTimeout(() => { this.notice.hidden = true; }, 5000);
    announce(text);
  }

  // "Since your turn": the moves after this seat's last one, in words (the log's), or for a
  // spectator the last three.
  renderSince(m) {
    const log = m.log || [];
    let k = -1;
    if (this.seat !== null) for (let i = log.length - 1; i >= 0; i--) if (log[i].seat === this.seat) { k = i; break; }
    const since = this.seat !== null && k >= 0 ? log.slice(k + 1) : log.slice(-3);
    // The last four at most: the others are in the log.
    const items = since.length ? since.slice(-4) : log.slice(-1);
    const more = since.length - items.length;
    const head = !since.length ? 'Last move: ' : this.seat !== null && k >= 0 ? 'Since your turn: ' : 'Last moves: ';
    this.since.replaceChildren(...(items.length ? [h('strong', {}, head), more > 0 ? `(${more} more in the log) ` : '',
      ...items.flatMap((e, i) => [i ? ' \u00b7 ' : '', richText(this.logText(e))])] : []));
    this.since.hidden = !items.length || m.status === 'waiting';
  }

  draw() {
    const m = this.state;
    this.renderTurn(m);
    if (!this.review) this.renderSeats(m); // in review, the step's (reviewShow)
    this.renderShare(m);
    this.renderLog(m);
    if (!this.review) this.renderSince(m);
    if (!this.review) this.renderRoundLog(m.view);
    this.renderLegal(m);
    this.renderResult(m);
    if (!this.review) this.board.update(this.boardOpts(m));
    // The game's end: its result, above the board, is brought into view and focused, after the
    // board has shown the last moves; the board then stops following them (they stay outlined,
    // and the log says them), so that nothing scrolls the result away.
    if (this.resultNew) {
      this.resultNew = false;
      this.board.follow = false;
      this.result.focus({ preventScroll: true });
      this.result.scrollIntoView({ block: 'nearest', behavior: 'instant' });
    }
    this.hintBtn.disabled = !(m.legal || []).length || !!this.review;
    this.renderPeople(m);
    this.leaveBtn.hidden = this.seat === null || m.status === 'over';
    // For scripts and tests: where the table is, as data attributes of the page.
    const d = this.page.dataset;
    d.states = Number(d.states) + 1;
    d.ply = m.ply;
    d.status = m.status;
    d.myturn = (m.legal || []).length ? '1' : '0';
    d.choosing = (m.choosing || []).join(' ');
    d.sealed = (m.sealed || []).join(' ');
    d.seat = this.seat ?? '';
  }

  name(seat) {
    return seatName(seat, this.state?.seats, this.seat);
  }

  boardOpts(m) {
    const marks = {};
    const choosing = m.choosing || [];
    for (const s of choosing) marks[s] = (m.sealed || []).includes(s) ? 'chosen' : choosing.length > 1 ? 'choosing' : 'to move';
    return {
      view: m.view, text: m.text, legal: m.legal || [], moves: m.moves, seat: this.seat, interactive: this.seat !== null,
      names: (s) => this.name(s) + this.scoreText(m, s), marks,
      moved: this.moved, ms: this.ms, touched: this.touched, arrived: this.arrived, confirm: this.confirmMoves,
    };
  }

  scoreText(m, s) {
    const sc = m.view?.scores;
    if (!Array.isArray(sc) || s >= sc.length) return '';
    return sc[s] === null ? ': score hidden' : `: ${sc[s]} ${this.scoreUnit(sc[s])}`;
  }

  // The score's unit, for a score of n when given: "1 point", "-1 point", "2 points".
  scoreUnit(n) {
    if (Math.abs(n) === 1) return this.score?.unit_one || 'point';
    return this.score?.unit || 'points';
  }

  renderTurn(m) {
    let t;
    const choosing = m.choosing || [];
    if (m.status === 'waiting') {
      const open = (m.seats || []).filter((s) => s.kind === 'open').length;
      t = `Waiting for ${open} more ${open === 1 ? 'player' : 'players'}: send the links below.`;
    } else if (m.status === 'over') {
      t = `Game over. ${this.resultWords(m)}`;
    } else if ((m.legal || []).length) {
      t = choosing.length > 1 ? 'Your turn: choose (everyone chooses at once, in secret).' : 'Your turn.';
    } else if (this.seat !== null && (m.sealed || []).includes(this.seat)) {
      const left = choosing.filter((s) => !(m.sealed || []).includes(s));
      t = `Your choice is in. Waiting for ${left.map((s) => this.name(s)).join(', ')}.`;
    } else if (choosing.length > 1) {
      t = `${choosing.map((s) => this.name(s)).join(', ')} are choosing.`;
    } else if (choosing.length === 1) {
      t = `${this.name(choosing[0])} to move.`;
    } else {
      t = 'Playing.';
    }
    this.turn.textContent = t;
    this.turn.classList.toggle('my-turn', (m.legal || []).length > 0);
    const said = m.mine && this.sent?.move === m.mine ? this.sent.text : null;
    this.mineLine.replaceChildren(...(m.mine ? ['Your sealed choice: ', richText(said || m.mine),
      ' (the others see only that you have chosen).'] : []));
  }

  resultWords(m) {
    const lost = m.result?.lost_on_time;
    if (Number.isInteger(lost)) return `${lost === this.seat ? 'You' : this.name(lost)} ran out of time: ${this.winWords(m)}`;
    return this.winWords(m);
  }

  winWords(m) {
    const w = m.result?.winners || [];
    if (!w.length) return 'Nobody wins.';
    if (this.seat !== null && w.includes(this.seat)) return w.length === 1 ? 'You win!' : `You share the win with ${w.filter((s) => s !== this.seat).map((s) => this.name(s)).join(', ')}.`;
    if (w.length === 1) return `${this.name(w[0])} wins.`;
    return `${w.map((s) => this.name(s)).join(' and ')} share the win.`;
  }

  renderSeats(m) {
    const choosing = m.choosing || [], sealed = m.sealed || [];
    const scores = m.status === 'over' ? m.result?.scores : m.view?.scores;
    this.seatsList.replaceChildren(...(m.seats || []).map((s) => {
      const marks = [];
      if (choosing.includes(s.seat)) marks.push(sealed.includes(s.seat) ? 'chosen' : choosing.length > 1 ? 'choosing' : 'to move');
      if (s.away && s.seat !== this.seat) marks.push('away'); // gone or silent (the server's presence)
      if (m.status === 'over' && m.result?.winners?.includes(s.seat)) marks.push('winner');
      const score = Array.isArray(scores) && s.seat < scores.length ? (scores[s.seat] === null ? 'hidden' : String(scores[s.seat])) : '';
      return h(`li.seat${s.seat === this.seat ? '.me' : ''}${choosing.includes(s.seat) ? '.asked' : ''}`, { dataset: { seat: s.seat } },
        h('span.seat-name', {}, this.name(s.seat)),
        score !== '' ? h('span.seat-score', { 'aria-label': `${score} ${this.scoreUnit(Number(score))}`, title: this.scoreUnit() }, score) : null,
        marks.length ? h('span.seat-marks', {}, marks.map((k) => h(`span.badge.badge-${k.replace(' ', '-')}`, {}, k))) : null);
    }));
  }

  renderShare(m) {
    const open = (m.seats || []).filter((s) => s.kind === 'open');
    this.sharePanel.hidden = m.status === 'over';
    const link = (label, url, id) => {
      const input = h('input.link', { type: 'text', readOnly: true, value: url, id, 'aria-label': label });
      const btn = h('button', { type: 'button', onclick: async () => {
        const ok = await copyText(url);
        if (!ok) { input.select(); document.execCommand?.('copy'); }
        btn.textContent = 'Copied';
        announce(`${label}: copied`);
        setTimeout(() => { btn.textContent = 'Copy'; }, 1500);
      } }, 'Copy');
      return h('li', {}, h('label', { for: id }, label), h('div.link-row', {}, input, btn));
    };
    const items = open.map((s) => link(`Link to seat ${s.seat}`, joinLink(this.table, s.seat), `share-seat-${s.seat}`));
    const sitHere = this.seat === null && m.status === 'waiting'
      ? open.map((s) => h('a.button', { href: `#join=${this.table}&seat=${s.seat}` }, `Sit at seat ${s.seat}`))
      : [];
    items.push(link('Link to watch', watchLink(this.table), 'share-watch'));
    this.sharePanel.replaceChildren(...[h('h2', { id: 'share-title' }, open.length ? 'Invite' : 'Share'),
      open.length ? h('p.help', {}, 'Send a friend the link of an open seat; the game starts when every seat is taken.') : null,
      sitHere.length ? h('p', {}, sitHere) : null,
      h('ul.links', {}, items)].filter(Boolean));
  }

  renderLog(m) {
    // In review, the whole game's moves (the review's log), else the state's last ones.
    const all = this.review?.log.size ? [...this.review.log.values()].sort((a, b) => a.ply - b.ply) : m.log || [];
    const log = [...all].reverse();
    // Once over, the log's last lines say what the end did (the view's end events); the review's
    // log is the game's moves alone, one line a step.
    const end = m.status === 'over' && !this.review ? endEvents(m.view).reverse() : [];
    this.logList.replaceChildren(...end.map((e) => h('li.log-end', {}, richText(endText(e, (s) => this.name(s))))),
      ...log.map((e) => h('li', { dataset: { ply: e.ply } },
        h('span.log-ply', { 'aria-hidden': 'true' }, `${e.ply + 1}. `), richText(this.logText(e)))));
    if (!log.length) this.logList.append(h('li.help', {}, 'No moves yet.'));
    this.logStep();
  }

  // In review, the log's line of the step shown is picked and scrolled to (in the log only).
  logStep() {
    const step = this.review ? this.review.ply - 1 : null;
    for (const li of this.logList.querySelectorAll('li')) {
      const cur = step !== null && Number(li.dataset.ply) === step;
      li.classList.toggle('current', cur);
      if (cur) li.setAttribute('aria-current', 'step'); else li.removeAttribute('aria-current');
    }
    const cur = this.logList.querySelector('li.current');
    if (cur) this.logList.scrollTop = cur.offsetTop - this.logList.offsetTop - 40;
  }

  renderRoundLog(view) {
    const lines = (x) => (Array.isArray(x) ? x.filter((l) => typeof l === 'string') : []);
    const now = lines(view?.log), before = lines(view?.previous_log);
    // The log names seats "seat N" (docs/views.md): here each is named as the page names it.
    const named = (l) => l.replace(/\bseat (\d+)\b/g, (w, n) => (Number(n) < (this.state?.seats || []).length ? this.name(Number(n)) : w));
    const list = (id, ls) => h('ul.round-log', { id }, ls.map((l) => h('li', {}, richText(named(l)))));
    this.roundLog.hidden = !Array.isArray(view?.log) && !Array.isArray(view?.previous_log);
    this.roundLog.replaceChildren(...[h('h2', { id: 'round-log-title' }, 'This round'),
      now.length ? list('round-log-now', now) : h('p.help', {}, 'Nothing revealed yet.'),
      before.length ? h('details.round-log-before', {}, h('summary', {}, 'The round before'),
        list('round-log-before', before)) : null].filter(Boolean));
  }

  // A line of the log, with who played it (the server's text says what, from the viewer's side).
  // A log line with its seat's name: "You" in play, where the game tells your moves to you
  // ("your own pile"); in review the game tells every move with everything shown ("their own
  // pile"), so your seat is named as the others are ("Seat 0 (you)").
  logText(e) {
    if (e.seat === null || e.seat === undefined) return e.text;
    return `${e.seat === this.seat && !this.review ? 'You' : this.name(e.seat)}: ${e.text}`;
  }

  renderLegal(m) {
    const legal = m.legal || [];
    const all = Array.isArray(m.moves) && m.moves.length ? m.moves : m.view?.moves;
    const byMove = new Map((Array.isArray(all) ? all : []).map((x) => [x.move, x]));
    const moves = legal.map((mv) => byMove.get(mv));
    this.legalCount.textContent = `(${legal.length})`;
    this.legalPanel.hidden = this.seat === null || m.status !== 'playing';
    this.legalPanel.open = this.movesOpen ?? !Array.isArray(m.view?.zones);
    this.legalList.replaceChildren(...legal.map((mv, i) => h('li', {}, h('button.legal-move', {
      type: 'button', dataset: { move: mv }, onclick: () => this.play(i),
    }, moves?.[i]?.text ? richText(moves[i].text) : richText(mv)))));
    if (!legal.length) this.legalList.append(h('li.help', {}, m.status === 'playing' ? 'Nothing to do now.' : ''));
  }

  renderResult(m) {
    if (m.status !== 'over' || this.review) {
      this.result.hidden = true;
      return;
    }
    const wasHidden = this.result.hidden;
    const scores = m.result?.scores || [];
    const winners = m.result?.winners || [];
    // The best first: the highest score, or the lowest where lower wins (Skip-Bo Junior's cards
    // left); the winners before the others all the same.
    const low = !!this.score?.lower_wins;
    const order = scores.map((s, i) => i).sort((a, b) => (winners.includes(b) - winners.includes(a)) ||
      (low ? scores[a] - scores[b] : scores[b] - scores[a]));
    const unit = this.scoreUnit();
    this.result.replaceChildren(
      h('h2', { id: 'result-title' }, 'Game over'),
      h('p.result-words', {}, this.resultWords(m)),
      endList(m.view, (s) => this.name(s)),
      h('table.scores', {},
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Seat'), h('th', { scope: 'col' }, unit[0].toUpperCase() + unit.slice(1)))),
        h('tbody', {}, order.map((s) => h(`tr${winners.includes(s) ? '.winner' : ''}`, {},
          h('th', { scope: 'row' }, this.name(s), winners.includes(s) ? ' \u2605' : ''), h('td', {}, String(scores[s])))))),
      h('p.result-actions', {},
        h('button.primary', { type: 'button', id: 'review-btn', onclick: () => this.startReview() }, 'Step through the game'),
        h('a.button', { href: m.record || `/api/tables/${this.table}/record`, download: `pilfer-${this.summary?.game || 'game'}-${this.table}.json`, id: 'record-link' }, 'Download the record'),
        this.seat !== null && this.token ? h('button', { type: 'button', id: 'rematch-btn', onclick: () => this.rematch(true) }, 'Rematch') : null,
        h('button', { type: 'button', onclick: () => this.again() }, 'New table like this'),
        h('a.button', { href: '#' }, 'Lobby')),
      this.rematchLine);
    this.result.hidden = false;
    this.resultNew = wasHidden && !this.review; // draw() brings it into view
  }

  // ---- people: names, chat, presence, the takeover's countdown, the turn in the tab's title ----

  nameField() {
    return myName() ? { name: myName() } : {};
  }

  async rename(input) {
    const wrong = setMyName(input.value);
    if (wrong) return this.error(wrong);
    input.value = myName();
    if (!this.token || !myName()) return;
    try {
      await this.conn.request({ type: 'name', table: this.table, token: this.token, name: myName() });
    } catch (e) {
      this.error(e.message);
    }
  }

  // Who may write here: a seat to the players, a spectator to the spectators when the table has
  // their chat (its summary says).
  canChat() {
    return this.token ? 'players' : this.summary?.spectator_chat && this.state?.status !== 'over' ? 'spectators' : null;
  }

  async say(text) {
    text = String(text).trim();
    if (!text) return;
    const channel = this.canChat();
    if (!channel) return;
    this.chatMsg.textContent = '';
    try {
      const { chat_chars: most } = await limitsRead; // the server's (dom.js)
      await this.conn.request({ type: 'chat', table: this.table, text: text.slice(0, most),
        ...(this.token ? { token: this.token } : this.nameField()) });
      if (text === this.chatInput.value.trim()) this.chatInput.value = '';
    } catch (e) {
      this.chatMsg.textContent = e.code === 'chat_flood' ? 'Slow down: one message every 2 seconds.' : e.message;
    }
  }

  // One line of the chat: who (a seat's name as the page names it, or the spectator's name), and
  // what, both as text (a message is never markup).
  addChat(m, old = false) {
    if (typeof m?.text !== 'string') return;
    const seat = Number.isInteger(m.seat) ? m.seat : null;
    const who = seat !== null ? (seat === this.seat ? 'You' : (typeof m.name === 'string' && m.name) || this.name(seat))
      : `${(typeof m.name === 'string' && m.name) || 'A spectator'} (watching)`;
    this.chatList.append(h(`li.chat-line.chat-${m.channel === 'spectators' ? 'spectators' : 'players'}`, {},
      h('b.chat-who', {}, `${who}: `), h('span.chat-text', {}, m.text)));
    while (this.chatList.childNodes.length > 200) this.chatList.firstChild.remove();
    this.chatList.scrollTop = this.chatList.scrollHeight;
    if (!old && seat !== this.seat) {
      announce(`${who} says: ${m.text}`);
      // On a phone the chat is in the drawer: its button says a message came.
      if (!this.page.classList.contains('drawer-open')) {
        this.unread = (this.unread || 0) + 1;
        this.drawerBtn.querySelector('.unread')?.remove();
        this.drawerBtn.append(h('span.badge.unread', { id: 'chat-unread' }, ` ${this.unread} new`));
      }
    }
  }

  renderPeople(m) {
    const channel = this.canChat();
    this.chatForm.hidden = !channel;
    this.chatTitle.textContent = channel === 'spectators' ? 'Spectators\u2019 chat' : 'Chat';
    if (!channel && !this.chatList.childNodes.length) this.chatMsg.textContent = this.seat === null && m.status !== 'over'
      ? 'The players\u2019 chat is theirs; this table has no spectators\u2019 chat.' : '';
    // A bot plays this seat while its player is away (takeover): said on the player's own page.
    const mine = this.seat !== null ? (m.seats || [])[this.seat] : null;
    // It goes when the server says the seat is theirs again: any move or message of theirs.
    this.takenLine.hidden = !(mine?.bot && m.status === 'playing');
    if (mine?.bot) this.takenLine.textContent = mine.clock_ms === 0
      ? `You ran out of time: a bot (${botName(mine.bot)}) plays your seat to the end.`
      : `A bot (${botName(mine.bot)}) played for you while you were away: tap or type anything to take your seat back.`;
    this.titleTurn();
    this.tick();
  }

  // "(Your turn)" in the tab's title while this seat is asked.
  titleTurn() {
    const base = this.summary ? `${this.summary.title}, table ${this.table} \u2014 pilfer` : `Table ${this.table} \u2014 pilfer`;
    const mine = (this.state?.legal || []).length > 0 && !this.review;
    document.title = mine ? `(Your turn) ${base}` : base;
  }

  // Four times a second: the players' clocks, and the countdown of a silent seat before the
  // takeover bot plays it, in the players list and on the board (drawTime).
  tick() {
    const m = this.state;
    for (const e of this.seatsList.querySelectorAll('.countdown, .clock')) e.remove();
    const info = this.timeInfo();
    if (!info.live) return;
    for (const seat of m.seats || []) {
      const li = this.seatsList.querySelector(`.seat[data-seat="${seat.seat}"]`);
      const s = secondsLeft(seat, 'clock_ms', info);
      if (s !== null) li?.querySelector('.seat-name')?.after(h(`span.clock.badge${seat.clock_running ? '.running' : ''}${s <= URGENT_S ? '.low' : ''}`,
        { title: 'Time left on the clock' }, mmss(s)));
      const left = secondsLeft(seat, 'takeover_ms', info);
      if (left !== null) (li?.querySelector('.seat-marks') || li)?.append(h('span.countdown.badge', { title: 'Before a bot plays this seat' },
        left > 0 ? `bot in ${left} s` : 'bot takes over'));
    }
    this.drawTime();
  }

  // What the clocks are drawn from: the state, when it came, and whether they run on screen.
  timeInfo() {
    const m = this.state;
    return { state: m, at: this.stateAt, seat: this.seat, onTime: this.summary?.clock?.on_time,
      live: !!m && m.status === 'playing' && !this.review };
  }

  // Each seat's time beside it on the board, yours in the dock (clock.js).
  drawTime() {
    if (this.state) drawClocks(this.board.root, this.timeInfo());
  }

  // ---- rematch: the same people, one seat on (docs/protocol.md, "rematch") ----

  async rematch(accept) {
    this.rematchAsked = true;
    try {
      const r = await this.conn.request({ type: 'rematch', table: this.table, token: this.token, accept });
      this.rematchNews(r);
    } catch (e) {
      this.error(e.message);
    }
  }

  rematchNews(m) {
    const line = this.rematchLine;
    const btn = (label, id, accept) => h('button', { type: 'button', id, onclick: () => this.rematch(accept) }, label);
    if (m.status === 'offered') {
      this.rematchAsked = true; // a rematch followed from here: when made, this page moves to it
      const waiting = (m.waiting || []).filter(Number.isInteger);
      const mine = this.seat !== null && waiting.includes(this.seat);
      line.replaceChildren(h('p', {}, m.from === this.seat ? 'You offer a rematch. ' : `${this.name(m.from)} offers a rematch (seats move one on). `,
        waiting.length ? `Waiting for ${waiting.map((s) => (s === this.seat ? 'you' : this.name(s))).join(', ')}.` : ''),
      ...(mine && this.token ? [h('p', {}, btn('Accept the rematch', 'rematch-accept', true), ' ', btn('Decline', 'rematch-decline', false))] : []));
      if (mine) announce(`${this.name(m.from)} offers a rematch`);
    } else if (m.status === 'declined') {
      line.replaceChildren(h('p', {}, `${m.by === this.seat ? 'You' : this.name(m.by)} declined the rematch.`));
      announce(line.textContent);
    } else if (m.status === 'made' && Number.isInteger(m.new_table)) {
      const seat = Number.isInteger(m.seat) ? m.seat : null;
      const go = seat !== null && this.token ? `#play=${m.new_table}&seat=${seat}` : `#watch=${m.new_table}`;
      if (seat !== null && this.token) holdSeat(m.new_table, seat, this.token); // the same token plays the new seat
      if (this.rematchAsked) {
        announce(`The rematch begins at table ${m.new_table}`);
        location.hash = go;
        return;
      }
      line.replaceChildren(h('p', {}, 'The rematch was played at ', h('a', { href: go, id: 'rematch-link' }, `table ${m.new_table}`), '.'));
    }
  }

  // ---- acting ----

  async play(i) {
    const m = this.state;
    const move = m?.legal?.[i];
    if (move === undefined || !this.token) return;
    if (this.page.dataset.busy) return; // one move at a time
    this.sent = { move, text: [...(m.moves || []), ...(m.view?.moves || [])].find((x) => x.move === move)?.text || null };
    this.error('');
    this.hintLine.textContent = '';
    this.page.dataset.busy = '1';
    try {
      const r = await this.conn.request({ type: 'move', table: this.table, token: this.token, move, ply: m.ply });
      if (r.sealed) announce('Your choice is in');
    } catch (e) {
      if (e.code === 'stale') this.error('The table moved on before your move arrived: look again.', true);
      else this.error(e.message);
    } finally {
      delete this.page.dataset.busy;
    }
  }

  async hint() {
    if (!this.token) return;
    this.hintLine.textContent = 'Thinking…';
    this.hintBtn.disabled = true;
    try {
      const r = await this.conn.request({ type: 'hint', table: this.table, token: this.token });
      if (r.ply !== this.state.ply) return;
      this.hintLine.replaceChildren('Hint: ', richText(r.text || r.move));
      announce(`Hint: ${r.text || r.move}`);
      const i = this.state.legal.indexOf(r.move);
      for (const b of this.legalList.querySelectorAll('.legal-move')) b.classList.toggle('hinted', b.dataset.move === r.move);
      if (i >= 0) this.board.show(i);
    } catch (e) {
      this.hintLine.textContent = `No hint: ${e.message}`;
    } finally {
      this.hintBtn.disabled = !(this.state?.legal || []).length;
    }
  }

  async leave() {
    const playing = this.state?.status === 'playing';
    if (!confirm(playing ? 'Leave the game? A bot will play your seat to the end.' : 'Leave this table? Your seat opens again.')) return;
    try {
      await this.conn.request({ type: 'leave', table: this.table, token: this.token });
    } catch (e) {
      this.error(e.message);
      return;
    }
    dropSeat(this.table, this.seat);
    location.hash = '';
  }

  // A new table like this one: the same game, options and bots; you at your seat, other people's
  // seats open.
  async again() {
    const m = this.state, s = this.summary;
    if (!s) return;
    const seats = (m.seats || []).map((x) => (x.kind === 'bot' ? x.bot : 'open'));
    try {
      const r = await this.conn.request({ type: 'create', game: s.game, players: s.players, options: s.options, seats,
        ...(s.takeover ? { takeover: s.takeover } : {}), ...(s.spectator_chat ? { spectator_chat: true } : {}) });
      location.hash = this.seat !== null ? `join=${r.table}&seat=${this.seat}` : `watch=${r.table}`;
    } catch (e) {
      this.error(e.message);
    }
  }

  async showRules() {
    const game = this.summary?.game;
    if (!game) return;
    let text;
    try {
      text = await api(`/api/rules/${game}`, true);
    } catch (e) {
      this.error(`No rules: ${e.message}`);
      return;
    }
    // The text's title (its `#` heading) heads the dialog; its sections are <h3>, its parts <h4>.
    const parts = rulesElements(text, 2);
    const title = parts[0]?.tagName === 'H2' ? parts.shift() : h('h2', {}, `Rules of ${this.summary.title}`);
    title.id = 'rules-title';
    const d = h('dialog.rules-dialog', { 'aria-labelledby': 'rules-title' },
      h('div.dialog-head', {}, title, h('button', { type: 'button', onclick: () => d.close() }, 'Close')),
      h('div.rules-text', { tabindex: 0 }, parts));
    d.addEventListener('close', () => { d.remove(); this.rulesBtn.focus(); });
    document.body.append(d);
    d.showModal();
  }

  error(text, late = false) {
    this.errorLine.textContent = text || '';
    this.lateLine = !!text && late;
  }

  key(ev) {
    if ((ev.key === 's' || ev.key === 'S') && !ev.ctrlKey && !ev.metaKey && !ev.altKey && !ev.target.closest?.('input, select, textarea') &&
        this.skip()) ev.preventDefault();
    // Escape closes a dialog (Rules) first: a card chosen (a hint's) stays chosen under it.
    if (ev.key === 'Escape' && !ev.target.closest?.('dialog.rules-dialog') && !document.querySelector('dialog.rules-dialog[open]') &&
        this.board.cancel()) ev.preventDefault();
    if (this.review && !ev.target.closest?.('input, select, textarea')) {
      if (ev.key === 'ArrowLeft') { this.reviewGo(this.review.ply - 1); ev.preventDefault(); }
      if (ev.key === 'ArrowRight') { this.reviewGo(this.review.ply + 1); ev.preventDefault(); }
      if (ev.key === 'Home') { this.reviewGo(0); ev.preventDefault(); }
      if (ev.key === 'End') { this.reviewGo(this.review.plies); ev.preventDefault(); }
    }
  }

  // ---- review: the finished game ply by ply, everything shown ----

  async startReview() {
    this.review = { ply: -1, plies: this.state?.ply ?? 0, cache: new Map(), height: 0, log: new Map() };
    const btn = (label, id, fn) => h('button', { type: 'button', id, onclick: fn }, label);
    this.reviewSlider = h('input', { type: 'range', min: 0, max: this.review.plies, value: 0, id: 'review-slider',
      'aria-label': 'Move', oninput: () => this.reviewGo(Number(this.reviewSlider.value)) });
    this.reviewWhere = h('p.review-where', { role: 'status', id: 'review-where' });
    this.reviewNext = h('p.review-next.help', { id: 'review-next-line' });
    this.reviewPanel.replaceChildren(
      h('h2', { id: 'review-title' }, 'The game, move by move (every card shown)'),
      h('div.review-controls', {},
        btn('\u00ab Start', 'review-first', () => this.reviewGo(0)),
        btn('\u25c0 Back', 'review-prev', () => this.reviewGo(this.review.ply - 1)),
        btn('Forward \u25b6', 'review-next', () => this.reviewGo(this.review.ply + 1)),
        btn('End \u00bb', 'review-last', () => this.reviewGo(this.review.plies)),
        btn('Close', 'review-close', () => this.stopReview())),
      this.reviewSlider, this.reviewWhere, this.reviewNext,
      h('p.help', {}, 'Keys: \u2190 and \u2192 step, Home and End jump.'));
    this.reviewPanel.hidden = false;
    this.result.hidden = true;
    this.legalPanel.hidden = true;
    this.since.hidden = true;
    this.hintBtn.disabled = true;
    const ply = this.wantPly;
    this.wantPly = 0;
    await this.reviewGo(ply);
    this.reviewPanel.querySelector('#review-next').focus();
  }

  // How much of the top of the screen the review's controls cover once the page is scrolled
  // (they stay there: style.css), for the board's following of each step's marks.
  reviewCovers() {
    if (!this.review || this.reviewPanel.hidden) return 0;
    const r = this.reviewPanel.getBoundingClientRect();
    return Math.min(Math.max(0, r.bottom), r.height);
  }

  stopReview() {
    this.review = null;
    this.reviewPanel.hidden = true;
    this.board.root.style.minHeight = '';
    history.replaceState(null, '', this.seat !== null ? `#play=${this.table}&seat=${this.seat}` : `#watch=${this.table}`);
    this.render();
    this.result.focus();
  }

  // The position after `ply` moves, from the server (kept once asked).
  async reviewAt(ply) {
    const rv = this.review;
    let r = rv.cache.get(ply);
    // The game's moves in words come with it when the step before is not told yet (the server
    // tells at most 1000 around the step asked: docs/protocol.md).
    const log = ply > 0 && !rv.log.has(ply - 1);
    if (!r || log) {
      r = await this.conn.request({ type: 'review', table: this.table, ply, log });
      for (const e of Array.isArray(r.log) ? r.log : []) if (Number.isInteger(e?.ply)) rv.log.set(e.ply, e);
      delete r.log;
      rv.cache.set(ply, r);
      rv.plies = r.plies;
      this.reviewSlider.max = r.plies;
    }
    return r;
  }

  // A move played at a reviewed position, in words: who, and what the game says of it (the view
  // with everything shown lists every legal move with its text).
  reviewWords(r) {
    if (!r?.next) return null;
    const said = this.review?.log.get(r.ply);
    if (said?.text) return this.logText(said);
    const m = (r.view?.moves || []).find((x) => x.move === r.next);
    const who = Number.isInteger(r.view?.to_move) ? `${this.name(r.view.to_move)}: ` : '';
    return `${who}${m?.text || r.next}`;
  }

  // Move `ply` (the position after it): drawn as play drew it, the cards it moved travelling from
  // the position shown before and marked, the move said in words, the log's line of it picked.
  // One step is asked of the server at a time: steps taken meanwhile (a slider dragged, a key
  // held) only move where it goes next, so the page asks as fast as the answers come, and no
  // faster; told to slow down (the server's rate of reviews: docs/protocol.md), it asks again.
  async reviewGo(ply) {
    const rv = this.review;
    if (!rv) return;
    rv.ply = Math.max(0, Math.min(rv.plies, ply));
    if (rv.busy) return; // the step being asked goes on to rv.ply once it is in
    rv.busy = true;
    try {
      while (this.review === rv) {
        const want = rv.ply;
        let r, before;
        try {
          [r, before] = await Promise.all([this.reviewAt(want), want > 0 ? this.reviewAt(want - 1) : null]);
        } catch (e) {
          if (e.code === 'flood') {
            await new Promise((resolve) => setTimeout(resolve, 500));
            continue;
          }
          this.error(e.message);
          return;
        }
        if (this.review !== rv) return;
        if (rv.ply !== want) continue; // stepped on meanwhile: on to where it is now
        this.reviewShow(rv, want, r, before);
        return;
      }
    } finally {
      rv.busy = false;
    }
  }

  // Draws the reviewed step `ply` (r, and before: the step before it, or null).
  reviewShow(rv, ply, r, before) {
    const from = rv.shown ?? -1;
    rv.shown = ply;
    history.replaceState(null, '', `#review=${this.table}&ply=${ply}`);
    this.reviewSlider.value = ply;
    const words = this.reviewWords(before);
    this.reviewWhere.replaceChildren(ply ? `Move ${ply} of ${r.plies}: ` : `Move 0 of ${r.plies}: the deal, nothing played yet.`,
      ...(words ? [richText(words)] : []));
    const next = this.reviewWords(r);
    this.reviewNext.replaceChildren(...(next ? ['Then: ', richText(next)] : ['The end of the game.']));
    // The marks: what this move changed; the motion: from what was shown to this.
    const said = before ? [rv.log.get(ply - 1)].filter(Boolean) : [];
    const marks = before ? changes(before.view, r.view, before.view?.to_move ?? null, said) : [];
    this.touched = new Set(marks.flatMap((x) => [x.from, x.to]));
    // A move that moves no card (pointing at a pile) marks the zones it names (the view's moves).
    const mv = (before?.view?.moves || []).find((x) => x.move === before.next);
    for (const z of [mv?.from, mv?.to]) if (z) this.touched.add(z);
    this.arrived = new Map();
    for (const x of marks) this.arrived.set(x.to, [...(this.arrived.get(x.to) || []), ...x.cards]);
    const shown = rv.cache.get(from);
    const ms = Math.abs(ply - from) === 1 ? Math.min(this.motionMs(), 450) : 0;
    this.board.update({ view: r.view, text: r.text, legal: [], seat: null, interactive: false,
      names: (s) => this.name(s) + this.scoreText({ view: r.view }, s), marks: {},
      moved: shown ? changes(shown.view, r.view) : [], ms, touched: this.touched, arrived: this.arrived, follow: true });
    // The board keeps the tallest height it had, so that nothing jumps from step to step.
    rv.height = Math.max(rv.height, this.board.root.getBoundingClientRect().height);
    this.board.root.style.minHeight = `${rv.height}px`;
    this.renderRoundLog(r.view);
    this.renderLog(this.state);
    // The players as they were at this step: its scores and who was to move; nobody "away" (that
    // was the live table's), the result's marks only at the end.
    const seats = (this.state?.seats || []).map(({ seat, kind, name, bot }) => ({ seat, kind, name, bot }));
    const to = r.view?.to_move;
    const end = ply === r.plies;
    this.renderSeats({ status: end ? 'over' : 'review', result: end ? this.state?.result : undefined, seats, view: r.view,
      choosing: end ? [] : Array.isArray(to) ? to : Number.isInteger(to) ? [to] : [], sealed: [] });
  }
}

