// board.js - the one renderer of every game's table, driven by its view.
//
// With view.zones (SPEC §3: every pile, hand, row and stock as {id, kind, owner, label, cards,
// layout, grid, value, note}) it draws the zones, the public ones in the middle, each seat's around
// it, the viewer's own last; and the moves (the state's, parallel to its legal moves: {move, from,
// card, to, text}, docs/views.md) make them playable: a card that some move takes from a zone is a button; once it is chosen, the zones
// it may go to are buttons; a zone that a move without a card points at is one too; the moves with
// neither are buttons below. Several moves for one card and target: a small choice. Drag and drop
// does what the two clicks do. Without zones it shows the table as text (the terminal's view).
import { cardEl, cardLabel, cardShort, richText } from './cards.js';
import { h } from './dom.js';
import { measure, play } from './motion.js';

const key = (zone, card) => `${zone}\u0000${card ?? ''}`;
const SCROLL_KEYS = new Set(['PageUp', 'PageDown', 'Home', 'End', 'ArrowUp', 'ArrowDown', ' ']);

export class Board {
  // handlers: play(legalIndex) sends a move; say(text) tells screen readers; above() the elements
  // above the board that say what the last moves did (shown with them when all fits).
  constructor(handlers) {
    this.handlers = handlers;
    this.root = h('div.board');
    this.actions = h('div.board-actions');
    this.prompt = h('p.board-prompt', { role: 'status' });
    // The viewer's own seat, the prompt and the buttons, docked at the bottom of the screen while
    // the board is longer than it (style.css: .dock).
    this.dock = h('div.dock', {});
    this.pending = null; // a move waiting for its confirmation (the option to confirm moves)
    // Arrow keys go from card to card, and from target to target; Enter chooses.
    this.root.addEventListener('keydown', (ev) => this.arrow(ev));
    // A card's whole text: on hover its title, on a long press (or a right click) a note by it.
    this.root.addEventListener('contextmenu', (ev) => this.cardTip(ev));
    document.addEventListener('pointerdown', (ev) => { if (!ev.target.closest?.('.card-tip')) this.tip?.remove(); });
    this.sel = null;
    this.dialog = null;
    // What the last moves touched (or a chosen card's targets) is kept in view above the dock,
    // not only when a state is drawn: whatever changes the layout afterwards (a row of piles more,
    // the dock growing with your turn's prompt, a line above the board, a card that travelled
    // into place, the window resized) brings it back into view, until the player scrolls.
    this.follow = false;
    this.keep = () => this.keepInView();
    this.sizes = new ResizeObserver(this.keep);
    for (const e of [this.root, this.dock, document.body]) this.sizes.observe(e);
    window.addEventListener('resize', this.keep);
    // The player's own scrolling (wheel, touch, the keys that scroll the page, not those that act
    // on a control or move between the cards) ends it until something moves again.
    this.unfollow = (ev) => {
      if (ev.type !== 'keydown' || (SCROLL_KEYS.has(ev.key) && !ev.target.closest?.('input, select, textarea, button, a, summary, .board')))
        this.follow = false;
    };
    for (const t of ['wheel', 'touchmove', 'keydown']) window.addEventListener(t, this.unfollow, { passive: true });
  }

  // Stops keeping anything in view (the page is left).
  destroy() {
    this.sizes.disconnect();
    window.removeEventListener('resize', this.keep);
    for (const t of ['wheel', 'touchmove', 'keydown']) window.removeEventListener(t, this.unfollow);
  }

  // Draws the view. opts: {view, text, legal, moves (the state's: legal's zones), seat (the
  // viewer's, or null), names(seat) -> text,
  // interactive (false in review and for spectators), marks: {seat: 'to move'…}, moved: what
  // moved since the board was last drawn (motion.js changes()) and ms how long it travels (0: no
  // motion), touched: the zones the last moves touched (outlined), arrived: zone -> the cards that
  // came there (marked), follow: bring what the last moves touched into view even when nothing
  // moved (a review opened at a step)}
  update(opts) {
    const first = opts.ms && opts.moved?.length ? measure(this.root) : null;
    this.opts = opts;
    const { view, legal = [] } = opts;
    // The state's moves are parallel to its legal moves (the view's are the view's legal moves',
    // none for a seat choosing after another): matched by their string all the same.
    const moves = Array.isArray(opts.moves) && opts.moves.length ? opts.moves : view?.moves;
    const byMove = new Map((Array.isArray(moves) ? moves : []).map((m) => [m.move, m]));
    this.entries = legal.map((move, i) => ({ from: null, card: null, to: null, text: null, ...(byMove.get(move) || {}), i, move }));
    if (this.sel && !this.entries.some((e) => e.from === this.sel.zone && (e.card ?? null) === this.sel.card)) this.sel = null;
    // A state that changes nothing one may play (someone connects) keeps an open choice open.
    const same = legal.join('\n') === this.lastLegal;
    this.lastLegal = legal.join('\n');
    if (!same) {
      this.closeChoice();
      this.pending = null;
    }
    this.draw();
    // A card chosen keeps its targets in view, whatever the new state moved around them; else
    // what the last moves touched is followed from a state where something moved on.
    if (opts.moved?.length || opts.follow) this.follow = true;
    this.keepInView();
    const anims = first ? play(this.root, first, opts.moved, opts.ms) : [];
    this.root.dataset.moving = anims.length;
    // Once the cards are in place (a pile's count shows again), once more.
    if (anims.length) Promise.allSettled(anims.map((a) => a.finished)).then(this.keep);
  }

  // Brings a chosen card's targets, or while followed what the last moves touched, into view
  // above the dock (a no-op when they are).
  keepInView() {
    if (!this.root.isConnected || !this.hasZones()) return;
    if (this.sel) this.showTargets();
    else if (this.follow) this.showLastMoves();
  }

  hasZones() {
    return Array.isArray(this.opts?.view?.zones);
  }

  draw() {
    const { view, text } = this.opts;
    this.root.replaceChildren();
    this.actions.replaceChildren();
    this.dock.replaceChildren(this.prompt);
    if (this.hasZones()) {
      this.drawZones(view.zones);
      this.drawActions();
      if (text) {
        // What the zones do not say (whose round, what happened last round…) is in the text.
        const d = h('details.text-details', { open: !!this.textOpen },
          h('summary', {}, 'The table as text'),
          h('pre.textview', { tabindex: 0, 'aria-label': 'The table, as text' }, richText(text)));
        d.addEventListener('toggle', () => { this.textOpen = d.open; });
        this.root.append(d);
      }
      this.dock.append(this.actions);
      this.root.append(this.dock);
    } else if (text) {
      this.root.append(h('pre.textview', { tabindex: 0, 'aria-label': 'The table, as text' }, richText(text)));
    } else {
      this.root.append(h('p.board-empty', {}, 'The cards are dealt when every seat is taken.'));
    }
    this.drawPrompt();
    this.rove();
  }

  // ---- the zones ----

  drawZones(zones) {
    const me = this.opts.seat;
    const interactive = this.opts.interactive && this.entries.length > 0;
    this.sources = new Set();
    this.targets = new Map();
    if (interactive) {
      for (const e of this.entries) if (e.from) this.sources.add(key(e.from, e.card ?? null));
      this.findTargets();
    }
    const owners = [];
    for (const z of zones) if (z.owner !== null && z.owner !== undefined && !owners.includes(z.owner)) owners.push(z.owner);
    owners.sort((a, b) => a - b);
    // Seats from the one after the viewer round to the viewer, so that the viewer sits last.
    if (me !== null && me !== undefined && owners.includes(me)) {
      const k = owners.indexOf(me);
      owners.push(...owners.splice(0, k + 1));
    }
    const others = owners.filter((o) => o !== me);
    const centre = zones.filter((z) => z.owner === null || z.owner === undefined);
    if (others.length) this.root.append(h('div.seat-areas.others', {}, others.map((o) => this.seatArea(o, zones))));
    if (centre.length) this.root.append(this.zoneGroup(centre, 'centre', 'The middle of the table'));
    if (owners.includes(me)) this.dock.append(this.seatArea(me, zones, true));
  }

  seatArea(owner, zones, mine = false) {
    const own = zones.filter((z) => z.owner === owner);
    const names = this.opts.names;
    const mark = this.opts.marks?.[owner];
    const title = names ? names(owner) : `Seat ${owner}`;
    return h(`section.seat-area${mine ? '.mine' : ''}${mark ? '.marked' : ''}`,
      { 'aria-label': title, dataset: { seat: owner } },
      h('h3.seat-title', {}, title, mark ? h('span.mark', {}, ` \u2014 ${mark}`) : null),
      this.zoneGroup(own, 'seat'));
  }

  zoneGroup(zones, cls, label) {
    const grid = zones.filter((z) => Array.isArray(z.grid));
    const free = zones.filter((z) => !Array.isArray(z.grid));
    const box = h(`div.zones.${cls}`, label ? { role: 'group', 'aria-label': label } : {});
    for (const z of free) box.append(this.zone(z));
    if (grid.length) {
      const g = h('div.zone-grid');
      let rows = 0, cols = 0;
      for (const z of grid) {
        rows = Math.max(rows, z.grid[0] + 1);
        cols = Math.max(cols, z.grid[1] + 1);
      }
      g.style.setProperty('--cols', cols);
      g.style.setProperty('--rows', rows);
      for (const z of grid) {
        const e = this.zone(z);
        e.style.gridRow = String(z.grid[0] + 1);
        e.style.gridColumn = String(z.grid[1] + 1);
        g.append(e);
      }
      box.append(g);
    }
    return box;
  }

  // A zone's label from the viewer's side: "Seat 2's hand" is "Your hand" to seat 2.
  label(z) {
    const label = z.label || z.id;
    const me = this.opts.seat;
    if (me === null || me === undefined) return label;
    const own = `Seat ${me}'s `;
    return label.startsWith(own) ? `Your ${label.slice(own.length)}` : label;
  }

  zone(z) {
    const cards = Array.isArray(z.cards) ? z.cards : [];
    const label = this.label(z);
    const target = this.targets?.get(z.id);
    const touched = this.opts.touched?.has(z.id);
    const e = h(`section.zone.kind-${z.kind || 'other'}.layout-${z.layout || 'fan'}${touched ? '.last-move' : ''}`, {
      dataset: { zone: z.id, kind: z.kind || 'other' },
      'aria-label': `${label}: ${cards.length ? cards.length + (cards.length === 1 ? ' card' : ' cards') : 'empty'}`,
    });
    const head = h('header.zone-head', {});
    if (target) {
      e.classList.add('target');
      head.append(h('button.zone-target', {
        type: 'button',
        'aria-label': this.targetLabel(z, target),
        onclick: (ev) => { ev.stopPropagation(); this.pickTarget(z.id); },
      }, richText(this.targetText(label, target)), h('span.here', { 'aria-hidden': 'true' }, ' \u25bc')));
      e.addEventListener('click', () => this.pickTarget(z.id));
    } else {
      // In another seat's area, under its name, "Seat 1's pile" is its "Pile" (the whole label
      // is the zone's aria-label); a short name ("h1") is kept as it is.
      const own = `Seat ${z.owner}'s `;
      const rest = label.slice(own.length);
      const short = z.owner === this.opts.seat || !label.startsWith(own) ? label
        : /^\S{3}/.test(rest) ? rest[0].toUpperCase() + rest.slice(1) : rest;
      head.append(h('span.zone-label', {}, richText(short)));
    }
    // A card may be dropped here while this zone is one of its targets (they change as a drag
    // starts, without drawing the board anew, which would end the drag).
    e.addEventListener('dragover', (ev) => {
      if (!this.targets?.has(z.id)) return;
      ev.preventDefault();
      e.classList.add('drag-over');
    });
    e.addEventListener('dragleave', () => e.classList.remove('drag-over'));
    e.addEventListener('drop', (ev) => {
      if (!this.targets?.has(z.id)) return;
      ev.preventDefault();
      this.dragging = false;
      this.pickTarget(z.id);
    });
    // The zone's number, with what it counts ("takes 6 next", "value 11") when the view says.
    if (z.value !== undefined && z.value !== null && z.value !== '') head.append(h('span.zone-value', {}, String(z.value_text || z.value)));
    e.append(head);
    const row = h('div.zone-cards');
    // The cards that came here with the last moves are marked: the last of their notation.
    const arrived = [...(this.opts.arrived?.get(z.id) || [])];
    const mark = (node, card) => {
      const k = card === null ? -1 : arrived.indexOf(card); // a card face down is no news
      if (k < 0) return node;
      arrived.splice(k, 1);
      (node.matches('.card') ? node : node.querySelector('.card'))?.classList.add('moved');
      return node;
    };
    if (z.layout === 'stack') {
      if (cards.length) {
        const top = cards.length - 1;
        row.append(mark(this.cardNode(z, cards[top], top), cards[top]));
        if (cards.length > 1) {
          row.classList.add('thick');
          row.append(h('span.count', { title: `${cards.length} cards` }, `${cards.length} cards`));
        }
      } else {
        row.append(this.emptySlot(z));
      }
    } else if (cards.length) {
      if (cards.length > 8) row.classList.add('many');
      if (cards.length > 3 && cards.every((c) => c === null)) row.classList.add('backs'); // only a count to tell
      if (cards.length > 14) row.classList.add('lots');
      const nodes = cards.map((c, i) => this.cardNode(z, c, i));
      for (let i = nodes.length - 1; i >= 0; i--) mark(nodes[i], cards[i]);
      row.append(...nodes);
    } else {
      row.append(this.emptySlot(z));
    }
    e.append(row);
    if (z.note) e.append(h('p.zone-note', {}, richText(String(z.note))));
    return e;
  }

  emptySlot(z) {
    // A zone that is itself a source (a move from it that names no card) still needs a button.
    if (this.sources?.has(key(z.id, null))) return this.sourceButton(z, null, -1, h('span.card.empty', {}, this.label(z)));
    return h('span.card.empty', { 'aria-hidden': 'true' });
  }

  cardNode(z, card, index) {
    const face = cardEl(card, z.texts?.[index]);
    // A move names its card by notation: of several cards of one notation in a zone, the last
    // (the top of a fanned pile, as Skip-Bo Junior's hand stacks, SBJ-3) is the one to pick; the
    // others, overlapped by the cards after them, stay cards.
    if (this.sources?.has(key(z.id, card)) && z.cards.lastIndexOf(card) === index) return this.sourceButton(z, card, index, face);
    // The top card of a zone whose moves name no card.
    if (this.sources?.has(key(z.id, null)) && index === z.cards.length - 1) return this.sourceButton(z, null, index, face);
    return face;
  }

  sourceButton(z, card, index, face) {
    const chosen = this.sel && this.sel.zone === z.id && this.sel.card === card && (this.sel.index === index || index < 0);
    const b = h('button.card-btn', {
      type: 'button',
      draggable: 'true',
      'aria-pressed': chosen ? 'true' : 'false',
      'aria-label': `${card !== null ? cardLabel(card, z.texts?.[index]) : this.label(z)}, from ${this.label(z)}`,
      dataset: { zone: z.id, card: card ?? '' },
      onclick: (ev) => { ev.stopPropagation(); this.keyboard = ev.detail === 0; this.pickSource(z.id, card, index); },
      ondragstart: (ev) => {
        ev.dataTransfer.setData('text/plain', card ?? z.id);
        ev.dataTransfer.effectAllowed = 'move';
        this.sel = { zone: z.id, card, index };
        this.dragging = true;
        this.findTargets();
        for (const ze of this.root.querySelectorAll('.zone')) ze.classList.toggle('target', this.targets.has(ze.dataset.zone));
      },
      ondragend: () => {
        if (!this.dragging) return; // dropped on a target
        this.dragging = false;
        this.sel = null;
        this.draw();
      },
    }, face);
    if (chosen) b.classList.add('chosen');
    return b;
  }

  // ---- choosing a move ----

  // zone id -> the moves that end there, for the selection (or, with none, those that need no card).
  findTargets() {
    this.targets = new Map();
    for (const e of this.candidates()) if (e.to) {
      if (!this.targets.has(e.to)) this.targets.set(e.to, []);
      this.targets.get(e.to).push(e);
    }
  }

  // The moves that fit the selection (or, with none, those that need no card).
  candidates() {
    if (!this.sel) return this.entries.filter((e) => !e.from && e.to);
    return this.entries.filter((e) => e.from === this.sel.zone && (e.card ?? null) === this.sel.card);
  }

  // What a target's button says: the zone's label, or the move itself when it is one short move
  // that names no card ("tap empty space" rather than "Discarded this round").
  targetText(label, entries) {
    const t = entries.length === 1 && !this.sel ? entries[0].text : null;
    return t && t.length <= 24 ? t : label;
  }

  targetLabel(z, entries) {
    const t = entries.length === 1 && entries[0].text ? entries[0].text : this.label(z);
    return this.sel ? `Put it here: ${t}` : t;
  }

  pickSource(zone, card, index) {
    if (this.sel && this.sel.zone === zone && this.sel.card === card && this.sel.index === index) {
      this.sel = null; // a second click puts it back
      this.draw();
      this.focusSource(zone, card, index);
      return;
    }
    this.sel = { zone, card, index };
    const fits = this.candidates();
    const targets = fits.filter((e) => e.to);
    const here = fits.filter((e) => !e.to);
    // A card with one move and nowhere to point at is not played by its one tap: its move is the
    // button to press next (or the card again, or Escape, to put it back); with moves confirmed
    // (Options), the confirmation is that second step.
    if (!targets.length && here.length === 1 && this.opts.confirm) {
      this.sel = null;
      this.play(here[0]);
      return;
    }
    this.draw();
    this.showTargets();
    const what = card !== null ? cardShort(card) : 'it';
    this.handlers.say?.(targets.length ? `${what} chosen: pick where it goes with the arrow keys (Escape to cancel)`
      : here.length ? `${what} chosen: press its move below to play it (Escape to cancel)` : `${what} chosen`);
    const first = this.root.querySelector('.zone-target');
    const own = this.actions.querySelector('.action.own');
    if (targets.length && first && this.keyboard) first.focus();
    else if (!targets.length && own && this.keyboard) own.focus();
    else this.focusSource(zone, card, index);
  }

  // Where the chosen card may go is brought into view above the docked hand (Piles' castle, an
  // open pile on a phone), on choosing it and on every redraw while it is chosen.
  showTargets() {
    this.reveal([[...this.root.querySelectorAll('.zone.target')]]);
  }

  // What the last moves touched (outlined) is brought into view above the docked hand: all of it
  // with the words above the board when it fits, else all of it, else what this state's moves
  // touched, else where their cards went.
  showLastMoves() {
    const zone = (id) => this.root.querySelector(`.zone[data-zone="${CSS.escape(id)}"]`);
    const moved = this.opts.moved || [];
    const all = [...this.root.querySelectorAll('.zone.last-move')];
    this.reveal([[...this.handlers.above?.() || [], ...all], all, moved.flatMap((m) => [zone(m.to), zone(m.from)]),
      moved.map((m) => zone(m.to))]);
  }

  // Scrolls the page the least that shows the first of `choices` (lists of elements) that fits
  // between the top of the screen and the dock (elements in the dock are on the screen); when
  // none fits, the top of the last. The page scrolls only for this: a move never jumps it.
  // What the page keeps at the top of the screen (the review's controls) is not the screen.
  // The board's data-scrolled says where it last scrolled to (for tests: the page's own doing).
  reveal(choices) {
    const dock = this.dock.getBoundingClientRect();
    const bottom = this.root.contains(this.dock) && dock.height ? dock.top : innerHeight;
    const top = Math.max(0, this.handlers.covered?.() || 0);
    const room = bottom - top - 16;
    let want = null;
    for (const els of choices) {
      const rects = els.filter((e) => e && !this.dock.contains(e)).map((e) => e.getBoundingClientRect())
        .filter((r) => r.height > 0); // not one hidden
      if (!rects.length) continue;
      const first = Math.min(...rects.map((r) => r.top)), end = Math.max(...rects.map((r) => r.bottom));
      want = { top: first, end };
      if (end - first <= room) break;
    }
    if (!want || (want.top >= top && want.end <= bottom)) return;
    const by = want.end - want.top > room || want.top < top ? want.top - top - 8 : want.end - bottom + 8;
    window.scrollBy({ top: by, behavior: 'instant' });
    this.root.dataset.scrolled = String(Math.round(window.scrollY));
  }

  focusSource(zone, card, index) {
    const btns = [...this.root.querySelectorAll('.card-btn')].filter((b) => b.dataset.zone === zone && b.dataset.card === (card ?? ''));
    (btns.find((b) => b.getAttribute('aria-pressed') === 'true') || btns[0] || btns[index])?.focus({ preventScroll: !this.keyboard });
  }

  pickTarget(zone) {
    const fits = this.targets?.get(zone);
    if (!fits?.length) return;
    this.choose(fits);
  }

  // One move: played; several: a small choice.
  choose(entries) {
    if (entries.length === 1) {
      this.play(entries[0]);
      return;
    }
    this.closeChoice();
    const list = h('div.choice-list', {}, entries.map((e) => h('button.choice', {
      type: 'button', dataset: { move: e.move }, onclick: () => { this.closeChoice(); this.play(e); },
    }, e.text ? richText(e.text) : richText(e.move))));
    const d = h('dialog.choice-dialog', { 'aria-label': 'Which move?' },
      h('h2', {}, 'Which move?'), list,
      h('button', { type: 'button', onclick: () => this.closeChoice() }, 'Cancel'));
    d.addEventListener('close', () => { if (this.dialog === d) { this.dialog = null; d.remove(); } });
    document.body.append(d);
    this.dialog = d;
    d.showModal();
    list.querySelector('button')?.focus();
  }

  closeChoice() {
    if (this.dialog) {
      const d = this.dialog;
      this.dialog = null;
      d.close();
      d.remove();
    }
  }

  play(entry) {
    this.sel = null;
    if (this.opts.confirm) {
      this.pending = entry;
      this.draw();
      this.actions.querySelector('.confirm-yes')?.focus();
      this.handlers.say?.(`Play ${entry.text || entry.move}? Confirm or cancel`);
      return;
    }
    this.handlers.play(entry.i);
  }

  confirmed() {
    const e = this.pending;
    this.pending = null;
    this.draw();
    if (e) this.handlers.play(e.i);
  }

  cardTip(ev) {
    const card = ev.target.closest?.('.card[data-text]');
    if (!card) return;
    ev.preventDefault();
    this.tip?.remove();
    const r = card.getBoundingClientRect();
    this.tip = h('div.card-tip', { role: 'tooltip' }, card.dataset.text);
    this.tip.style.left = `${Math.max(4, Math.min(window.innerWidth - 260, r.left + window.scrollX))}px`;
    this.tip.style.top = `${r.bottom + window.scrollY + 4}px`;
    document.body.append(this.tip);
  }

  // Left/up and right/down between the card buttons, or between the target buttons.
  arrow(ev) {
    const dir = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[ev.key];
    const t = ev.target;
    if (!dir || !t.matches?.('.card-btn, .zone-target')) return;
    const all = [...this.root.querySelectorAll(t.matches('.card-btn') ? '.card-btn' : '.zone-target')];
    const next = all[(all.indexOf(t) + dir + all.length) % all.length];
    if (!next) return;
    ev.preventDefault();
    ev.stopPropagation();
    for (const b of all) b.tabIndex = b === next ? 0 : -1;
    next.focus();
  }

  // One tab stop for the cards and one for the targets: the chosen card (or the first) and the
  // first target; the arrow keys reach the others.
  rove() {
    for (const cls of ['.card-btn', '.zone-target']) {
      const all = [...this.root.querySelectorAll(cls)];
      const keep = all.find((b) => b.getAttribute('aria-pressed') === 'true') || all[0];
      for (const b of all) b.tabIndex = b === keep ? 0 : -1;
    }
  }

  cancel() {
    if (this.pending) {
      this.pending = null;
      this.draw();
      this.handlers.say?.('Cancelled');
      return true;
    }
    if (!this.sel) return false;
    const { zone, card, index } = this.sel;
    this.sel = null;
    this.draw();
    this.focusSource(zone, card, index);
    this.handlers.say?.('Cancelled');
    return true;
  }

  // The moves that need neither a card nor a target (pass, decline…), and the selection's own.
  drawActions() {
    if (!this.opts.interactive) return;
    if (this.pending) {
      const e = this.pending;
      this.actions.append(h('span.confirm-text', {}, 'Play ', richText(e.text || e.move), '?'),
        h('button.primary.confirm-yes', { type: 'button', onclick: () => this.confirmed() }, 'Play it'),
        h('button.cancel', { type: 'button', onclick: () => this.cancel() }, 'Cancel'));
      return;
    }
    const plain = this.entries.filter((e) => !e.from && !e.to);
    const mine = this.sel ? this.candidates().filter((e) => !e.to) : [];
    // The chosen card's own moves first, large; the moves that play no card (a pass: they give up
    // the turn) smaller, never the biggest target.
    for (const e of mine)
      this.actions.append(h('button.action.own.primary', { type: 'button', dataset: { move: e.move }, onclick: () => this.play(e) },
        e.text ? richText(e.text) : richText(e.move)));
    for (const e of plain)
      this.actions.append(h('button.action.plain', { type: 'button', dataset: { move: e.move }, onclick: () => this.play(e),
        title: e.text || e.move, 'aria-label': e.text || e.move },
        e.text ? richText(e.text) : richText(e.move)));
    if (this.sel) this.actions.append(h('button.cancel', { type: 'button', onclick: () => this.cancel() }, 'Cancel'));
  }

  drawPrompt() {
    if (!this.hasZones() || !this.opts.interactive || !this.entries.length) {
      this.prompt.textContent = '';
      return;
    }
    if (this.sel) {
      const n = this.candidates().filter((e) => e.to).length;
      const what = this.sel.card !== null ? cardShort(this.sel.card) : 'It';
      this.prompt.textContent = n ? `${what}: now pick where it goes, or pick it again to put it back.`
        : `${what}: press its move below to play it, or pick it again to put it back.`;
    } else {
      this.prompt.textContent = this.sources.size ? 'Pick a card, then where it goes.'
        : this.targets.size ? 'Pick one of the marked places.' : 'Choose below.';
    }
  }

  // Shows a move (a hint): its card chosen and its target marked.
  show(legalIndex) {
    const e = this.entries?.[legalIndex];
    if (!e || !this.hasZones()) return;
    if (e.from) {
      this.sel = { zone: e.from, card: e.card ?? null, index: -1 };
      const z = this.opts.view.zones.find((x) => x.id === e.from);
      if (z) this.sel.index = e.card === null ? z.cards.length - 1 : z.cards.lastIndexOf(e.card);
    }
    this.draw();
    if (e.to) this.root.querySelector(`[data-zone="${CSS.escape(e.to)}"]`)?.classList.add('hinted');
  }
}
