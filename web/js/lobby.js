// lobby.js - the first page: your name; pick a game (each told in words), its options, seat
// yourself, friends and bots, create the table; and the tables of the server, filtered and paged,
// as the server pushes them (`subscribe`: no polling).
import { Conn, api } from './conn.js';
import { h, BOTS, botsFor, seatName, seatsHeld, announce, myName, setMyName, limitsRead } from './dom.js';

const SEAT_YOU = 'you', SEAT_FRIEND = 'open';
const FILTERS = [['open', 'Open seats'], ['mine', 'Mine'], ['playing', 'Being played'], ['over', 'Finished'], ['all', 'All']];

// An option's help in words: without the rulings' ids ("(THF-8)"), which are for the rules' text.
export function inWords(help) {
  return String(help || '').replace(/\s*\([A-Z]{1,4}-\d+\)/g, '').trim();
}

// The tables this browser holds a seat of (localStorage 'pilfer.table.<T>').
function heldTables() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i++) {
    const m = /^pilfer\.table\.(\d+)$/.exec(localStorage.key(i));
    if (m) ids.push(Number(m[1]));
  }
  return ids.sort((a, b) => b - a).slice(0, 100);
}

export class Lobby {
  constructor(root) {
    this.root = root;
    document.title = 'pilfer: pile card games';
    this.filter = localStorage.getItem('pilfer.lobby.filter') || 'open';
    if (!FILTERS.some(([f]) => f === this.filter)) this.filter = 'open';
    this.page = 0;
    this.conn = new Conn({
      onstatus: (t) => {
        document.getElementById('conn-status').textContent = t;
        // The list shown is the last one pushed: say so until a new one comes (onopen subscribes).
        if (t && this.tablesMsg) this.tablesMsg.textContent = 'The list of tables is not up to date: no connection to the server (trying again…)';
      },
      onopen: () => this.refresh(),
      onmessage: (m) => { if (m.type === 'tables') this.showTables(m); },
    });
    this.build();
    this.load();
  }

  destroy() {
    this.conn.close();
  }

  build() {
    this.gamesBox = h('div.game-choices', { role: 'radiogroup', 'aria-labelledby': 'game-legend' });
    this.gameNames = h('span.game-names'); // the games' titles, from /api/games (the one list: the registry)
    this.playersBox = h('div.players-box');
    this.optionsBox = h('div.game-options'); // not .options-box: that is the table's pop-up of options
    this.seatsBox = h('ol.seat-choices');
    this.takeover = h('input', { type: 'checkbox', id: 'takeover' });
    this.takeoverAfter = h('input', { type: 'number', id: 'takeover-after', min: 10, max: 86400, value: 60,
      'aria-label': 'seconds before a bot takes over' });
    this.createMsg = h('p.form-msg', { role: 'status' });
    this.gameAbout = h('div.game-about', { id: 'game-about', 'aria-live': 'polite' });
    this.form = h('form.new-table', { onsubmit: (e) => { e.preventDefault(); this.create(); } },
      h('h2', {}, 'New table'),
      h('fieldset', {}, h('legend', { id: 'game-legend' }, 'Game'), this.gamesBox, this.gameAbout),
      this.playersBox,
      this.optionsBox,
      h('fieldset.seats-fieldset', {},
        h('legend', {}, 'Seats'),
        h('p.help', {}, 'Play yourself, keep a seat open for a friend (you get a link to send), or seat a bot: ',
          ...BOTS.map((b, i) => [i ? '; ' : '', h('b', {}, b.name), ` ${b.help}`]), '.'),
        this.seatsBox),
      h('p.takeover-line', {}, this.takeover,
        h('label', { for: 'takeover' }, ' When a player is silent for '), this.takeoverAfter,
        h('label', { for: 'takeover-after' }, ' seconds, the medium bot plays their seat until they come back')),
      h('p.clock-line', {}, h('input', { type: 'checkbox', id: 'clock' }),
        h('label', { for: 'clock' }, ' A clock: '),
        h('input', { type: 'number', id: 'clock-minutes', min: 1, max: 600, value: 10, 'aria-label': 'minutes for each player' }),
        h('label', { for: 'clock-minutes' }, ' minutes for each player; out of time, '),
        h('select', { id: 'clock-on-time', 'aria-label': 'out of time' },
          h('option', { value: 'bot' }, 'the medium bot plays on'), h('option', { value: 'loss' }, 'the player loses'))),
      h('p.spectator-chat-line', {}, h('input', { type: 'checkbox', id: 'spectator-chat' }),
        h('label', { for: 'spectator-chat' }, ' Spectators may chat among themselves')),
      // Kept in view however long the form is, never below the fold (docs/web.md).
      h('div.create-bar', {}, h('button.primary', { type: 'submit', id: 'create' }, 'Create the table'), this.createMsg));
    this.tablesList = h('ul.table-list', { id: 'table-list', 'aria-live': 'off' });
    this.tablesMsg = h('p.help', { role: 'status', id: 'tables-msg' });
    this.filterBox = h('div.table-filters', { role: 'group', 'aria-label': 'Show' },
      FILTERS.map(([f, label]) => h('button.filter', { type: 'button', id: `filter-${f}`, 'aria-pressed': String(f === this.filter),
        onclick: () => this.setFilter(f) }, label)));
    this.prevBtn = h('button', { type: 'button', id: 'tables-prev', onclick: () => this.goPage(this.page - 1), disabled: true }, '\u2039 Newer');
    this.nextBtn = h('button', { type: 'button', id: 'tables-next', onclick: () => this.goPage(this.page + 1), disabled: true }, 'Older \u203a');
    this.pageWhere = h('span.page-where', { id: 'tables-page' });
    const tables = h('section.tables', { 'aria-labelledby': 'tables-title' },
      h('div.section-head', {}, h('h2', { id: 'tables-title' }, 'Tables')),
      this.filterBox, this.tablesMsg, this.tablesList,
      h('div.table-pages', {}, this.prevBtn, this.pageWhere, this.nextBtn));
    this.nameInput = h('input', { type: 'text', id: 'my-name', maxLength: 64, value: myName(), autocomplete: 'nickname',
      placeholder: 'e.g. Ann', onchange: () => this.saveName(), 'aria-describedby': 'my-name-msg' });
    const shown = 'Shown to the others at your tables';
    this.nameMsg = h('span.help', { id: 'my-name-msg', role: 'status' }, `${shown}.`);
    limitsRead.then((l) => {
      if (l.name_chars && this.nameMsg.textContent === `${shown}.`) this.nameMsg.textContent = `${shown} (at most ${l.name_chars} characters).`;
    });
    this.root.append(h('div.lobby', {},
      h('section.intro', {}, h('h1', {}, 'Pile card games'),
        h('p', {}, this.gameNames, 'with friends and bots. Pick a game, press ', h('b', {}, 'Create the table'),
          ', and play.'),
        h('p.name-line', {}, h('label', { for: 'my-name' }, 'Your name '), this.nameInput, ' ', this.nameMsg)),
      this.form, tables));
  }

  saveName() {
    const wrong = setMyName(this.nameInput.value);
    this.nameMsg.textContent = wrong || (myName() ? `You are ${myName()} at your tables.` : 'No name: you are shown by your seat.');
    if (!wrong) this.nameInput.value = myName();
  }

  async load() {
    try {
      this.games = await api('/api/games');
    } catch (e) {
      this.createMsg.textContent = `Cannot read the games: ${e.message}`;
      return;
    }
    const titles = this.games.map((g) => g.title);
    const last = titles.pop();
    this.gameNames.textContent = titles.length ? `${titles.join(', ')} and ${last}, ` : last ? `${last}, ` : '';
    const saved = (() => { try { return JSON.parse(localStorage.getItem('pilfer.lobby')) || {}; } catch { return {}; } })();
    this.games.forEach((g, i) => {
      const id = `game-${g.id}`;
      const input = h('input', { type: 'radio', name: 'game', id, value: g.id, onchange: () => this.pickGame(g) });
      const players = g.min_players === g.max_players ? `${g.min_players} players` : `${g.min_players}\u2013${g.max_players} players`;
      this.gamesBox.append(h('label.game-choice', { for: id }, input, h('span.game-title', {}, g.title), h('span.game-players', {}, players)));
      if (saved.game ? saved.game === g.id : i === 0) {
        input.checked = true;
        this.pickGame(g);
      }
    });
    if (!this.game) {
      this.gamesBox.querySelector('input').checked = true;
      this.pickGame(this.games[0]);
    }
    this.linkReports();
  }

  // Each game's design report, when the server keeps one (pilfer serve --reports): a link after
  // its name. A server without reports lists none; one that cannot list them is left unsaid.
  async linkReports() {
    let reports;
    try {
      reports = (await api('/api/reports')).reports || [];
    } catch {
      return;
    }
    for (const g of this.games) {
      const r = reports.find((x) => x.game === g.id);
      const label = this.gamesBox.querySelector(`label[for="game-${g.id}"]`);
      if (r && label) label.append(h('a.game-report', { href: r.url, target: '_blank', rel: 'noopener' }, 'design report'));
    }
  }

  pickGame(g) {
    this.game = g;
    const len = g.length;
    this.gameAbout.replaceChildren(
      h('p.game-desc', { id: 'game-desc' }, g.description || ''),
      h('p.game-facts', { id: 'game-facts' },
        g.min_players === g.max_players ? `${g.min_players} players` : `${g.min_players} to ${g.max_players} players`,
        len ? ` \u00b7 a game of ${len.players} lasts about ${len.moves} moves (deals counted; bots\u2019 games)` : '',
        ' \u00b7 ', h('a', { href: `/api/rules/${encodeURIComponent(g.id)}`, target: '_blank', rel: 'noopener' }, 'the full rules')));
    const def = Math.min(g.max_players, Math.max(g.min_players, 2));
    this.playersBox.replaceChildren();
    this.players = h('input', { type: 'number', id: 'players', min: g.min_players, max: g.max_players, value: def,
      onchange: () => this.buildSeats(), oninput: () => this.buildSeats() });
    if (g.min_players === g.max_players) this.players.disabled = true;
    this.playersBox.append(h('label', { for: 'players' }, 'Players '), this.players,
      h('span.help', {}, ` (${g.min_players}\u2013${g.max_players})`));
    this.optionsBox.replaceChildren();
    this.optionInputs = [];
    if (g.options.length) {
      const fs = h('fieldset', {}, h('legend', {}, 'Options'));
      for (const o of g.options) {
        const id = `opt-${o.name}`, helpId = `${id}-help`;
        let input;
        if (o.type === 'bool') {
          input = h('input', { type: 'checkbox', id, checked: !!o.default, 'aria-describedby': helpId });
          fs.append(h('div.option', {}, input, h('label', { for: id }, ` ${o.label || o.name}`), h('p.help', { id: helpId }, inWords(o.help))));
        } else {
          input = h('input', { type: 'number', id, min: o.min, max: o.max, value: o.default, 'aria-describedby': helpId });
          fs.append(h('div.option', {}, h('label', { for: id }, `${o.label || o.name} `), input,
            h('span.help', {}, ` (${o.min}\u2013${o.max}, default ${o.default})`), h('p.help', { id: helpId }, inWords(o.help))));
        }
        this.optionInputs.push({ o, input });
      }
      this.optionsBox.append(fs);
    }
    this.buildSeats();
  }

  buildSeats() {
    const n = Math.min(this.game.max_players, Math.max(this.game.min_players, Number(this.players.value) || 0));
    const old = [...this.seatsBox.querySelectorAll('select')].map((s) => s.value);
    this.seatsBox.replaceChildren();
    this.seatSelects = [];
    const bots = botsFor(this.game);
    // A seat that had another game's strong bot keeps the strong bot, this game's.
    const kept = (v) => (v && v.startsWith('ismcts') ? bots.find((b) => b.strong).spec : v);
    for (let s = 0; s < n; s++) {
      const sel = h('select', { id: `seat-${s}` },
        h('option', { value: SEAT_YOU }, 'You'),
        h('option', { value: SEAT_FRIEND }, 'A friend (open seat)'),
        ...bots.map((b) => h('option', { value: b.spec }, b.name)));
      sel.value = kept(old[s]) || (s === 0 ? SEAT_YOU : 'greedy');
      this.seatSelects.push(sel);
      this.seatsBox.append(h('li', {}, h('label', { for: `seat-${s}` }, `Seat ${s} `), sel));
    }
  }

  async create() {
    const g = this.game;
    const options = {};
    for (const { o, input } of this.optionInputs) {
      if (o.type === 'bool') options[o.name] = input.checked;
      else {
        const v = Number(input.value);
        if (!Number.isInteger(v) || v < o.min || v > o.max) {
          this.createMsg.textContent = `${o.label || o.name} must be a whole number from ${o.min} to ${o.max}.`;
          input.focus();
          return;
        }
        options[o.name] = v;
      }
    }
    const choice = this.seatSelects.map((s) => s.value);
    const you = choice.indexOf(SEAT_YOU);
    if (choice.filter((c) => c === SEAT_YOU).length > 1) {
      this.createMsg.textContent = 'Only one seat can be you: make the others open seats for friends.';
      return;
    }
    const msg = { type: 'create', game: g.id, players: choice.length, options,
      seats: choice.map((c) => (c === SEAT_YOU ? 'open' : c)) };
    if (this.takeover.checked) msg.takeover = { after: Number(this.takeoverAfter.value) || 60, bot: 'greedy' };
    if (this.root.querySelector('#spectator-chat')?.checked) msg.spectator_chat = true;
    if (this.root.querySelector('#clock')?.checked) {
      const min = Number(this.root.querySelector('#clock-minutes').value);
      if (!Number.isInteger(min) || min < 1 || min > 600) {
        this.createMsg.textContent = 'The clock takes a whole number of minutes from 1 to 600.';
        return;
      }
      msg.clock = { minutes: min, on_time: this.root.querySelector('#clock-on-time').value };
    }
    localStorage.setItem('pilfer.lobby', JSON.stringify({ game: g.id }));
    this.createMsg.textContent = 'Creating…';
    try {
      const r = await this.conn.request(msg);
      location.hash = you >= 0 ? `join=${r.table}&seat=${you}` : `watch=${r.table}`;
    } catch (e) {
      this.createMsg.textContent = `The table could not be created: ${e.message}`;
      announce(this.createMsg.textContent, true);
    }
  }

  setFilter(f) {
    this.filter = f;
    this.page = 0;
    localStorage.setItem('pilfer.lobby.filter', f);
    for (const b of this.filterBox.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.id === `filter-${f}`));
    this.refresh(true);
  }

  goPage(p) {
    this.page = Math.max(0, p);
    this.refresh(true);
  }

  // Subscribes to the list as filtered and paged now: the server answers with the page and pushes
  // it again whenever it changes (and after a reconnection, onopen subscribes again).
  async refresh(asked = false) {
    try {
      const r = await this.conn.request({ type: 'subscribe', filter: this.filter, page: this.page, mine: heldTables() });
      this.showTables(r);
      if (asked) announce(`${r.total} ${r.total === 1 ? 'table' : 'tables'}`);
    } catch (e) {
      this.tablesMsg.textContent = `Cannot list the tables: ${e.message}`;
    }
  }

  showTables(m) {
    if (m.filter !== this.filter) return; // a push of the filter before
    const tables = Array.isArray(m.tables) ? m.tables : [];
    this.page = m.page;
    this.tablesList.replaceChildren(...tables.map((t) => this.tableItem(t)));
    const none = { open: 'No table has an open seat: create one.', mine: 'You hold no seat at any table.',
      playing: 'No game is being played.', over: 'No game has finished yet.', all: 'No tables yet: create one.' };
    this.tablesMsg.textContent = tables.length ? `${m.total} ${m.total === 1 ? 'table' : 'tables'}` : none[this.filter];
    // Behind a lobby over several shards (docs/protocol.md, "Shards"): those not answering now.
    const missing = Array.isArray(m.missing) ? m.missing.filter(Number.isInteger) : [];
    if (missing.length) {
      this.tablesMsg.textContent += ` (not listed now: the tables of shard ${missing.join(', ')}, which is not answering;`
        + ' their games go on once it is back)';
    }
    this.prevBtn.disabled = m.page <= 0;
    this.nextBtn.disabled = m.page + 1 >= m.pages;
    this.pageWhere.textContent = m.pages > 1 ? `page ${m.page + 1} of ${m.pages}` : '';
    this.root.querySelector('.lobby').dataset.tables = String(m.total);
  }

  tableItem(t) {
    const held = seatsHeld(t.table);
    const mine = Object.keys(held).map(Number);
    const opts = optionsText(t.options, this.games?.find((g) => g.id === t.game)?.options);
    const seats = t.seats.map((s) => {
      const name = seatName(s.seat, t.seats, mine.includes(s.seat) ? s.seat : null);
      return s.away && !mine.includes(s.seat) && !s.bot ? `${name} (away)` : name; // the server's presence: never once over
    }).join(' \u00b7 ');
    const status = t.status === 'waiting' ? 'waiting for players' : t.status === 'playing'
      ? (t.abandoned ? `left unfinished at move ${t.ply + 1}: nobody at it` : `playing, move ${t.ply + 1}`) : 'finished';
    const actions = [];
    for (const s of mine)
      if (t.status !== 'over') actions.push(h('a.button.primary', { href: `#play=${t.table}&seat=${s}` }, `Resume seat ${s}`));
    if (t.status !== 'over')
      for (const s of t.seats)
        if (s.kind === 'open') actions.push(h('a.button', { href: `#join=${t.table}&seat=${s.seat}` }, `Join seat ${s.seat}`));
    if (t.status === 'over') actions.push(h('a.button', { href: `#review=${t.table}` }, 'Review'));
    else actions.push(h('a.button', { href: `#watch=${t.table}` }, 'Watch'));
    return h('li.table-item', { dataset: { table: t.table, status: t.status } },
      h('div.table-desc', {},
        h('b', {}, `#${t.table} ${t.title}`), ` \u00b7 ${t.players} players${opts ? ' \u00b7 ' + opts : ''} \u00b7 `,
        h('span.status-' + t.status, {}, status),
        h('div.table-seats', {}, seats)),
      h('div.table-actions', {}, actions));
  }
}

// A table's options as the lobby lists them: only those not at the game's default (the engine's
// list of options says which), by their labels for players: an on/off option by its label
// ("Point-a-Police", "no Teams"), a number as "label: value" ("Hands in a game: 1"). Every option,
// by its key, when the game's list is unknown.
function optionsText(options, known) {
  const byName = new Map((Array.isArray(known) ? known : []).map((o) => [o.name, o]));
  const label = (k) => byName.get(k)?.label || k;
  return Object.entries(options || {}).filter(([k, v]) => !byName.has(k) || byName.get(k).default !== v)
    .map(([k, v]) => (typeof v === 'boolean' ? (v ? label(k) : `no ${label(k)}`) : `${label(k)}: ${v}`)).join(', ');
}
