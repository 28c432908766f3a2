// words.test.mjs - players' words. The end of a game told on the end screen and in the log's last
// lines, from the view's end events (docs/views.md, "End events"): Steal the Pile's open piles
// shared out (STP-6) and Point-a-Pile's mission met (PAP-9), the seats named as the page names
// them. And in every game, played to its end, none of the engine's words where a player reads
// (board, log, buttons, hints, players, end screen, lobby): no ruling id, no move or card notation,
// no option key, no "1 points".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  useServerAndBrowser, newPage, createTable, playToEnd, screenshot, tableData, writeTemp, replayView,
  PILFER, DESKTOP, PHONE, hang,
} from './lib.mjs';

const env = useServerAndBrowser();
const GAMES = JSON.parse(spawnSync(PILFER, ['games', '--json'], { encoding: 'utf8' }).stdout);

// The finished game's record, and its last view as `viewer` sees it.
async function finalView(page, table, viewer) {
  const record = await page.evaluate(async (u) => (await fetch(u)).json(), `/api/tables/${table}/record`);
  const path = writeTemp(env.tmp, `words-${table}.json`, JSON.stringify(record));
  return replayView(path, record.moves.length, viewer);
}

// The page's name of each seat, as its Players list shows it.
function seatNames(page) {
  return page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#seats li.seat')]
    .map((li) => [li.dataset.seat, li.querySelector('.seat-name').textContent])));
}

// An end event in the words the page should show: its pieces, each seat by the page's name, the
// cards with their suits' signs ("4H" as "4♥", "TD" as "10♦").
const SUITS = { S: '\u2660', H: '\u2665', D: '\u2666', C: '\u2663' };
function told(e, names) {
  const s = e.words.map((w) => (typeof w === 'string' ? w : names[w.seat])).join('')
    .replace(/\b(10|[A2-9TJQK])([SHDC])\b/g, (_, r, su) => (r === 'T' ? '10' : r) + SUITS[su]).replace(/\bJK\b/g, 'Joker');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// Plays a table against bots to its end, instantly; returns the end events' words as the end
// screen and the log show them, and the events as the engine wrote them.
async function playAndRead(game, players, options, name) {
  const page = await newPage(env.browser);
  await page.addInitScript(() => localStorage.setItem('pilfer.pace', 'instant'));
  const table = await createTable(page, env.server.url, { game, players, options, seats: ['you', ...Array(players - 1).fill('random')] });
  await playToEnd(page);
  await page.waitForSelector('#result:not([hidden])');
  const view = await finalView(page, table, 0);
  const names = await seatNames(page);
  const shown = await page.locator('#end-events li').allTextContents();
  const logTop = await page.locator('#log li').evaluateAll((lis) => lis.slice(0, 4).map((li) => li.textContent));
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.locator('#result').scrollIntoViewIfNeeded();
    await screenshot(page, `end-${name}-${size.width}`, { full: false });
  }
  await page.setViewportSize(DESKTOP);
  assert.deepEqual(page.errors, []);
  await page.context().close();
  return { view, names, shown, logTop };
}

test('Steal the Pile: the end screen and the log say where the open piles went (STP-6)', { timeout: hang(120000) }, async () => {
  const { view, names, shown, logTop } = await playAndRead('steal-the-pile', 2, {}, 'steal-the-pile');
  const shared = view.end.find((e) => e.kind === 'open_piles_shared');
  assert.ok(shared, `the engine tells the open piles shared out: ${JSON.stringify(view.end)}`);
  const want = view.end.map((e) => told(e, names));
  assert.deepEqual(shown, want);
  // Newest first: the log's top lines are the end's, in the order told.
  assert.deepEqual(logTop.slice(0, want.length), [...want].reverse());
  const line = told(shared, names);
  assert.match(line, /^The (\d+ open piles left|last open pile), .*(went to|shared out between|set aside)/);
  for (const t of shared.to) assert.ok(line.includes(names[t.seat]), `${line} names seat ${t.seat} as ${names[t.seat]}`);
  assert.doesNotMatch(line, /\bseat \d/);
});

test('Point-a-Pile with missions: the end screen says who met which mission and with how many points (PAP-9)', { timeout: hang(120000) }, async () => {
  const { view, names, shown, logTop } = await playAndRead('point-a-pile', 3, { missions: true }, 'point-a-pile-missions');
  const met = view.end.filter((e) => e.kind === 'mission_met');
  assert.ok(met.length > 0, `a mission was met: ${JSON.stringify(view.end)}`);
  assert.deepEqual(shown, view.end.map((e) => told(e, names)));
  assert.equal(logTop[0], told(view.end[view.end.length - 1], names));
  for (const e of met) {
    const line = told(e, names);
    assert.ok(line.startsWith(`${names[e.seat]} met their mission, \u201c${e.mission_text}\u201d, with ${e.score} point`), line);
    assert.ok(view.winners.includes(e.seat));
  }
});
