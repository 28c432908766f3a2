// motion.js - what moved between two views of a table, and the cards seen moving (a FLIP
// animation: the places measured before the new view is drawn, drawn, each moved card put back
// where it was, and played to where it is).
//
// It knows no game: a card that left one zone and came into another moved between them, as the
// views' zones say (docs/views.md). A card matched by its notation moved as it is; one that came
// out of a zone where it lay face down (a bot's hand, the stock) turned over on its way.

const DOWN = '\u0000'; // the key of a card face down

// zone id -> {owner, kind, cards} of a view.
function zonesOf(view) {
  const out = new Map();
  for (const z of Array.isArray(view?.zones) ? view.zones : [])
    out.set(z.id, { owner: z.owner ?? null, kind: z.kind, cards: Array.isArray(z.cards) ? z.cards : [] });
  return out;
}

function counts(cards) {
  const m = new Map();
  for (const c of cards) m.set(c ?? DOWN, (m.get(c ?? DOWN) || 0) + 1);
  return m;
}

// What moved from the view `before` to `after`: [{from, to, cards, turned, count, fromOwner,
// toOwner}], one entry a pair of zones; cards are the notations that arrived in `to` (null face
// down). Cards that only appeared (a deal from nowhere) or went (out of every zone) are left out.
// `mover`, the seat whose move it was (or null): a card that showed up from a face-down zone
// that is not that seat's came from its hand, which was filled again (a bot plays a card and
// draws one: its hand shows as many backs as before).
//
// `said`: the log entries of the moves between the two views; one that names where its card came
// from (`from`, `card`; docs/protocol.md) is followed first, so that of two cards of one notation
// the one that moved is the one seen moving. What they do not say is inferred as above.
export function changes(before, after, mover = null, said = []) {
  const a = zonesOf(before), b = zonesOf(after);
  if (!a.size || !b.size) return [];
  const gone = [], came = []; // {zone, key, n}
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    const was = counts(a.get(id)?.cards || []), now = counts(b.get(id)?.cards || []);
    for (const [k, n] of was) if (n > (now.get(k) || 0)) gone.push({ zone: id, key: k, n: n - (now.get(k) || 0) });
    for (const [k, n] of now) if (n > (was.get(k) || 0)) came.push({ zone: id, key: k, n: n - (was.get(k) || 0) });
  }
  const pairs = new Map();
  const move = (g, c, n, turned) => {
    const k = `${g.zone}\u0001${c.zone}`;
    if (!pairs.has(k)) pairs.set(k, { from: g.zone, to: c.zone, cards: [], turned: false });
    const p = pairs.get(k);
    for (let i = 0; i < n; i++) p.cards.push(c.key === DOWN ? null : c.key);
    p.turned ||= turned;
    g.n -= n;
    c.n -= n;
  };
  // The same card first; then a card that was face down somewhere and shows now, or the reverse.
  // Two cards may share a notation (two decks, Skip-Bo Junior's eight 9s): a card is first looked
  // for in the mover's zones and the middle's, where a move takes cards from, and only then in
  // another seat's (a steal).
  for (const e of Array.isArray(said) ? said : []) {
    if (typeof e?.from !== 'string' || typeof e?.card !== 'string' || !a.has(e.from)) continue;
    let g = gone.find((x) => x.n && x.zone === e.from && (x.key === e.card || x.key === DOWN));
    if (!g) {
      // The zone has as many of it as before: the card left and another of its name came (a card
      // played from the hand and one drawn): it passed through.
      const key = a.get(e.from).cards.includes(e.card) ? e.card : DOWN;
      if (!(counts(b.get(e.from)?.cards || []).get(key) > 0)) continue;
      gone.push(g = { zone: e.from, key, n: 1 });
      came.push({ zone: e.from, key, n: 1 });
    }
    const fits = (x) => x.n && x.zone !== e.from && (x.key === e.card || x.key === DOWN);
    const c = came.find((x) => fits(x) && x.zone === e.to) || came.find(fits);
    if (g && c) move(g, c, 1, g.key !== c.key);
  }
  const near = (g) => mover === null || (a.get(g.zone)?.owner ?? null) === null || a.get(g.zone)?.owner === mover;
  for (const anywhere of [false, true]) {
    for (const c of came) for (const g of gone) {
      if (c.n && g.n && g.key === c.key && g.zone !== c.zone && (anywhere || near(g))) move(g, c, Math.min(g.n, c.n), false);
    }
    for (const c of came) for (const g of gone) {
      if (c.n && g.n && g.zone !== c.zone && (g.key === DOWN || c.key === DOWN) && (anywhere || near(g)))
        move(g, c, Math.min(g.n, c.n), g.key !== c.key);
    }
  }
  const hand = mover === null ? null : [...b.entries()].find(([id, z]) => z.kind === 'hand' && z.owner === mover && a.has(id))?.[0];
  if (hand) for (const [k, p] of [...pairs]) {
    if (!p.turned || p.from === hand || a.get(p.from)?.owner === mover || !p.cards.some((c) => c !== null)) continue;
    pairs.delete(k);
    const n = p.cards.length;
    pairs.set(`${hand}\u0001${p.to}`, { ...p, from: hand });
    const refill = `${p.from}\u0001${hand}`;
    if (!pairs.has(refill)) pairs.set(refill, { from: p.from, to: hand, cards: [], turned: false });
    for (let i = 0; i < n; i++) pairs.get(refill).cards.push(null);
  }
  return [...pairs.values()].map((p) => ({
    ...p, count: p.cards.length, fromOwner: a.get(p.from)?.owner ?? null, toOwner: b.get(p.to)?.owner ?? null,
    fromKind: a.get(p.from)?.kind ?? null,
  }));
}

// The rectangles of the zones and cards in `root` now: the "first" of FLIP.
export function measure(root) {
  const zones = new Map(), cards = new Map(), top = root.getBoundingClientRect().top;
  for (const z of root.querySelectorAll('.zone[data-zone]')) {
    const row = z.querySelector('.zone-cards') || z;
    zones.set(z.dataset.zone, row.getBoundingClientRect());
    for (const c of z.querySelectorAll('.zone-cards .card[data-card]')) {
      const k = `${z.dataset.zone}\u0001${c.dataset.card}`;
      cards.set(k, c.getBoundingClientRect());
    }
  }
  return { zones, cards, top };
}

const centre = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

export function reducedMotion() {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

// Plays the moves `moved` (changes()) on the zones drawn anew in `root`, from the places `first`
// (measure()) had; ms: how long a card travels. Returns the animations started.
export function play(root, first, moved, ms) {
  if (!ms || !moved.length) return [];
  const shift = root.getBoundingClientRect().top - first.top;
  const rect = (r) => r && { left: r.left, top: r.top + shift, width: r.width, height: r.height };
  const jobs = new Map(); // element -> {from (a rectangle), turned, zone}: one motion an element
  for (const m of moved) {
    const to = root.querySelector(`.zone[data-zone="${CSS.escape(m.to)}"]`);
    // Where the cards come from: their zone as it is drawn now (the board around it may have
    // moved), or where it was, for a zone that is gone (an open pile taken).
    const now = root.querySelector(`.zone[data-zone="${CSS.escape(m.from)}"] .zone-cards`);
    const src = now ? now.getBoundingClientRect() : rect(first.zones.get(m.from));
    if (!to || !src) continue;
    const row = to.querySelector('.zone-cards');
    const els = [...to.querySelectorAll('.zone-cards .card[data-card]')];
    if (to.classList.contains('layout-stack')) {
      // A stack moves as one, from where its new top card came (a pile taken whole slides with it).
      const top = els[els.length - 1]?.dataset.card || DOWN;
      const have = jobs.get(row);
      if (row && (!have || m.cards.some((c) => (c ?? DOWN) === top))) jobs.set(row, { from: src, turned: m.turned, zone: m.from });
      continue;
    }
    // In a fan, the cards that arrived: the last ones of their notation.
    const want = counts(m.cards);
    for (let i = els.length - 1; i >= 0; i--) {
      const k = els[i].dataset.card || DOWN;
      if (!want.get(k)) continue;
      want.set(k, want.get(k) - 1);
      const known = !now && els[i].dataset.card ? rect(first.cards.get(`${m.from}\u0001${els[i].dataset.card}`)) : null;
      jobs.set(els[i], { from: known || src, turned: m.turned, zone: m.from });
    }
  }
  // Every end measured before anything moves, then every motion started.
  const list = [...jobs].slice(0, 40).map(([el, j]) => ({ el, ...j, end: centre(el.getBoundingClientRect()) }));
  const anims = [];
  for (const { el, from, turned, zone, end } of list) {
    const start = centre(from);
    const dx = start.x - end.x, dy = start.y - end.y;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
    el.classList.add('moving');
    el.dataset.movingFrom = zone;
    const turn = turned ? ' rotateY(180deg)' : '';
    const frames = [{ transform: `translate(${dx}px, ${dy}px)${turn}` }];
    if (turned) frames.push({ transform: `translate(${dx / 2}px, ${dy / 2}px) rotateY(90deg)`, offset: 0.5 });
    frames.push({ transform: 'none' });
    const anim = el.animate(frames, { duration: ms, easing: 'cubic-bezier(.2,.7,.3,1)' });
    const done = () => { el.classList.remove('moving'); delete el.dataset.movingFrom; };
    anim.onfinish = done;
    anim.oncancel = done;
    anims.push(anim);
  }
  return anims;
}
