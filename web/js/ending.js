// ending.js - what a game's end did, in words: the view's "end" events (docs/views.md, "End
// events"), each told from its "words" with its seats named as the page names them elsewhere.
// The engine says what happened and why; nothing here knows a game.

import { h } from './dom.js';
import { richText } from './cards.js';

// The end events of a view, those that can be told.
export function endEvents(view) {
  const end = Array.isArray(view?.end) ? view.end : [];
  return end.filter((e) => e && (Array.isArray(e.words) || typeof e.text === 'string'));
}

// One event in words, `name(seat)` naming each seat.
export function endText(e, name) {
  if (!Array.isArray(e.words)) return String(e.text);
  const s = e.words.map((w) => (typeof w === 'string' ? w : Number.isInteger(w?.seat) ? name(w.seat) : '')).join('');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// The events as a list for the end screen ("How it ended"), or null when there are none.
export function endList(view, name) {
  const events = endEvents(view);
  if (!events.length) return null;
  return h('ul.end-events', { id: 'end-events' }, events.map((e) => h('li', { dataset: { kind: String(e.kind ?? '') } },
    richText(endText(e, name)))));
}
