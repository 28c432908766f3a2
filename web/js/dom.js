// dom.js - small helpers shared by the pages: building elements, announcing to screen readers,
// the seats kept in this browser, the server's limits on names and chat, and the names of the bots.
import { api } from './conn.js';

// h('button.primary', {onclick, type: 'button'}, 'text', child...): an element with classes,
// properties (attributes for aria-*, data-* and a few others) and children.
export function h(spec, props, ...children) {
  const [tag, ...classes] = spec.split('.');
  const e = document.createElement(tag || 'div');
  if (classes.length) e.className = classes.join(' ');
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k.startsWith('aria-') || k === 'role' || k === 'for' || k === 'tabindex' || k === 'draggable' ||
      k === 'download' || k === 'list' || k === 'form') e.setAttribute(k, v === true ? '' : v);
    else e[k] = v;
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

// Tells screen readers (the polite live region); `assertive` for errors.
export function announce(text, assertive = false) {
  const region = document.getElementById(assertive ? 'alert' : 'announce');
  if (!region) return;
  if (assertive) {
    region.textContent = text;
    return;
  }
  const line = h('p', {}, text);
  region.append(line);
  while (region.childNodes.length > 8) region.firstChild.remove();
}

// A selector that finds an element again after its part of the page is drawn anew: by id, by the
// move or the card and zone it stands for. null for nothing worth finding.
export function focusKey(e) {
  if (!e || e === document.body || !e.matches) return null;
  const q = (v) => `"${CSS.escape(v)}"`;
  if (e.id) return `#${CSS.escape(e.id)}`;
  if (e.matches('.card-btn')) return `.card-btn[data-zone=${q(e.dataset.zone)}][data-card=${q(e.dataset.card)}]`;
  if (e.matches('.zone-target')) return `[data-zone=${q(e.closest('[data-zone]')?.dataset.zone || '')}] .zone-target`;
  if (e.dataset.move !== undefined) return `.${e.classList[0]}[data-move=${q(e.dataset.move)}]`;
  return null;
}

// Runs draw(), which replaces part of `root`; if the focus was in it, puts it back on the same
// thing, or else on `fallback` (keyboard users keep their place; nothing is lost to <body>).
// The page stays where it was scrolled: nothing jumps to the top after a move.
export function keepFocus(root, draw, fallback) {
  const was = document.activeElement;
  const inside = root.contains(was) && was !== root;
  const key = inside ? focusKey(was) : null;
  draw();
  // Where the draw left the page (it may have scrolled to show something): focus does not move it.
  const x = window.scrollX, y = window.scrollY;
  if (!inside || (was.isConnected && root.contains(was))) return;
  if (document.activeElement !== was && document.activeElement !== document.body) return; // draw() chose
  const again = key ? root.querySelector(key) : null;
  (again || fallback)?.focus({ preventScroll: true });
  if (window.scrollX !== x || window.scrollY !== y) window.scrollTo(x, y);
}

// ---- the seats this browser holds: localStorage 'pilfer.table.<T>' = {"<seat>": token} ----

export function seatsHeld(table) {
  try {
    return JSON.parse(localStorage.getItem(`pilfer.table.${table}`)) || {};
  } catch {
    return {};
  }
}

export function holdSeat(table, seat, token) {
  const held = seatsHeld(table);
  held[seat] = token;
  localStorage.setItem(`pilfer.table.${table}`, JSON.stringify(held));
}

export function dropSeat(table, seat) {
  const held = seatsHeld(table);
  delete held[seat];
  if (Object.keys(held).length) localStorage.setItem(`pilfer.table.${table}`, JSON.stringify(held));
  else localStorage.removeItem(`pilfer.table.${table}`);
}

// ---- bots ----

// The strengths offered in the lobby, weakest first. The strong bot's spec is each game's own:
// the games list's "strong_bot" (the engine's, src/games/registry.c); botsFor gives it.
export const BOTS = [
  { spec: 'random', name: 'Easy bot', help: 'plays any legal move, at random' },
  { spec: 'greedy', name: 'Medium bot', help: 'plays the game\u2019s rule of thumb' },
  { spec: 'ismcts', name: 'Strong bot', help: 'thinks ahead over the deals you might hold', strong: true },
];

// The lobby's bots for a game (an entry of the games list), its strong bot's spec its own.
export function botsFor(game) {
  return BOTS.map((b) => (b.strong && game?.strong_bot ? { ...b, spec: game.strong_bot } : b));
}

// A bot's level in words: "Medium bot"; a spec the lobby does not offer is named by its kind.
export function botName(spec) {
  const b = BOTS.find((x) => x.spec === spec) || BOTS.find((x) => String(spec).split(':')[0] === x.spec.split(':')[0]);
  return b ? b.name : `Bot ${spec}`;
}

// How a seat is named at a table: "Ann (you)", "Ann", "Seat 2 (you)", "Seat 1 (Medium bot)". A
// name is the player's own text: it is only ever set as text (textContent), never as markup.
export function seatName(seat, seats, mine) {
  const s = seats?.[seat];
  const name = s?.kind === 'human' && typeof s.name === 'string' && s.name ? s.name : null;
  let who = '';
  if (mine !== null && mine !== undefined && seat === mine) who = 'you';
  else if (s?.kind === 'bot') who = botName(s.bot);
  // A seat the takeover bot plays while its person is away; once the game is over (no `away`),
  // just the person's.
  else if (s?.kind === 'human') who = s.bot && s.away ? `away, ${botName(s.bot)} plays` : name ? '' : 'player';
  else if (s?.kind === 'open') who = 'open';
  if (name) return who ? `${name} (${who})` : name;
  return who ? `Seat ${seat} (${who})` : `Seat ${seat}`;
}

// ---- what the server takes of a name and a chat message: GET /api/limits ----

// {name_chars, chat_chars} (docs/protocol.md, "Names and chat text"), filled in once the server
// has told them, read once as the page loads. Until then nothing is cut or refused here: the
// server checks all the same.
export const limits = {};
export const limitsRead = api('/api/limits').then((l) => Object.assign(limits, l), () => limits);

// ---- the display name this browser uses: localStorage 'pilfer.name' ----

export function myName() {
  return (localStorage.getItem('pilfer.name') || '').trim();
}

// Keeps a name (trimmed; '' forgets it); returns what is wrong with it, or ''.
export function setMyName(text) {
  const name = String(text).trim();
  if ([...name].length > limits.name_chars) return `A name has at most ${limits.name_chars} characters.`;
  if (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/.test(name)) return 'A name cannot hold control characters.';
  if (name) localStorage.setItem('pilfer.name', name);
  else localStorage.removeItem('pilfer.name');
  return '';
}

// The link that sits a friend at an open seat, and the one to watch.
export function joinLink(table, seat) {
  return `${location.origin}${location.pathname}#join=${table}&seat=${seat}`;
}
export function watchLink(table) {
  return `${location.origin}${location.pathname}#watch=${table}`;
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
