// app.js - the page's router: the part of the address after '#' says what is shown.
//   (nothing)            the lobby: games, options, seats, the tables
//   #join=7&seat=1       sit at seat 1 of table 7 (the link a friend is sent), then #play=…
//   #play=7&seat=1       play seat 1 of table 7 with the token this browser keeps for it
//   #watch=7             watch table 7 (the public view: no hidden card)
//   #review=7&ply=40     step through finished table 7 with everything shown (at move 40)
import { Lobby } from './lobby.js';
import { TablePage } from './table.js';

let page = null;

function route() {
  const p = new URLSearchParams(location.hash.slice(1));
  const main = document.getElementById('main');
  page?.destroy();
  page = null;
  main.replaceChildren();
  const num = (k) => (p.has(k) && /^\d+$/.test(p.get(k)) ? Number(p.get(k)) : null);
  const seat = num('seat');
  if (num('join')) page = new TablePage(main, { table: num('join'), seat, mode: 'join' });
  else if (num('play')) page = new TablePage(main, { table: num('play'), seat, mode: 'play' });
  else if (num('watch')) page = new TablePage(main, { table: num('watch'), mode: 'watch' });
  else if (num('review')) page = new TablePage(main, { table: num('review'), mode: 'review', ply: num('ply') });
  else page = new Lobby(main);
}

window.addEventListener('hashchange', route);
// "Skip to the game": the first thing to act on at the table (a card, a target, a button), else
// the page's content; the address stays as it is.
document.querySelector('.skip')?.addEventListener('click', (ev) => {
  ev.preventDefault();
  const main = document.getElementById('main');
  const first = main.querySelector('.board .card-btn[tabindex="0"], .board .zone-target[tabindex="0"], .board-actions button');
  (first || main).focus();
});
route();
