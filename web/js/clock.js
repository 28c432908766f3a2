// clock.js - the time at the table, where the players look: each seat's clock and the countdown
// before the takeover bot plays a silent seat, beside the seat on the board (your own in the dock),
// large, urgent from 10 seconds, with what running out does in words. Drawn from what the server
// says (docs/protocol.md, "create" and "Presence": a seat's clock_ms and clock_running, its
// takeover_ms, each as of the state's arrival; the summary's clock.on_time), counted down here.
// It also tells the server that this seat's person is there (`here`) when they act on the page.
import { h } from './dom.js';

export const URGENT_S = 10;

export function mmss(s) {
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// Seconds left of a seat's field (clock_ms, takeover_ms) now; null when it has none.
// info: {state, at: performance.now() when the state came, live: the game is being played and shown}
export function secondsLeft(seat, key, info) {
  const v = seat?.[key];
  if (!Number.isInteger(v)) return null;
  const running = key === 'takeover_ms' || seat.clock_running;
  const ms = Math.max(0, v - (running && info.live ? performance.now() - info.at : 0));
  return Math.ceil(ms / 1000);
}

// What running out of time does, in words (the table's `clock.on_time`).
export function outOfTime(onTime, mine) {
  if (onTime === 'loss') return mine ? 'at 0:00 you lose' : 'at 0:00 they lose';
  return mine ? 'at 0:00 a bot plays for you' : 'at 0:00 a bot plays for them';
}

// The time line of one seat: [clock, countdown] elements (either may be missing), or [].
function seatTime(seat, info) {
  const mine = seat.seat === info.seat;
  const parts = [];
  const c = secondsLeft(seat, 'clock_ms', info);
  if (c !== null && !seat.bot) {
    const running = !!seat.clock_running;
    const urgent = running && c <= URGENT_S;
    parts.push(h(`span.seat-clock${running ? '.running' : ''}${urgent ? '.urgent' : ''}`,
      { title: `Time left on ${mine ? 'your' : 'this player’s'} clock` },
      h('b.time', {}, mmss(c)), running ? h('span.rule', {}, ` ${outOfTime(info.onTime, mine)}`) : null));
  }
  const t = secondsLeft(seat, 'takeover_ms', info);
  if (t !== null) {
    const urgent = t <= URGENT_S;
    const words = mine
      ? (t > 0 ? `A bot plays for you in ${t} s unless you act` : 'A bot plays for you now')
      : (t > 0 ? `bot plays in ${t} s` : 'bot plays now');
    parts.push(h(`span.seat-takeover${urgent ? '.urgent' : ''}`, { title: 'Silent seats are played by the bot until their player is back' }, words));
  }
  return parts;
}

// Puts each seat's time beside its title on the board (root: the board, the dock inside it).
export function drawClocks(root, info) {
  const seats = info.live ? info.state?.seats || [] : [];
  const want = new Set();
  for (const seat of seats) {
    const title = root.querySelector(`.seat-area[data-seat="${seat.seat}"] > .seat-title`);
    const parts = title ? seatTime(seat, info) : [];
    if (!parts.length) continue;
    want.add(title);
    let box = title.querySelector(':scope > .seat-time');
    if (!box) title.append(box = h('span.seat-time', { dataset: { seat: seat.seat } }));
    // Replaced only when its text changes, so that an urgent pulse runs on.
    const text = parts.map((p) => p.className + p.textContent).join('|');
    if (box.dataset.text !== text) {
      box.replaceChildren(...parts);
      box.dataset.text = text;
    }
  }
  for (const box of root.querySelectorAll('.seat-time')) if (!want.has(box.parentElement)) box.remove();
}

// Calls send() when the player acts on the page (a pointer, a key, typing), at most once every
// `every` ms: the server's takeover counts from the seat's last message.
export function watchPresence(el, send, every = 5000) {
  let last = -Infinity;
  const note = () => {
    const now = performance.now();
    if (now - last < every) return;
    last = now;
    send();
  };
  for (const t of ['pointerdown', 'keydown', 'input']) el.addEventListener(t, note, { capture: true, passive: true });
  return note;
}
