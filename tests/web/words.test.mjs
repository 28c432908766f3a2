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

// ---- none of the engine's words where a player reads ----

// What a player reads on the table page: the board (but the table as text, the terminal's own),
// the prompt, the log, the players, the hints, the buttons, the end screen; the lobby's forms and
// lists. Not the rules (which keep their rulings' ids as references) nor the chat (people's words).
function readText(page) {
  return page.evaluate(() => {
    const root = document.querySelector('.table-page') || document.querySelector('main') || document.body;
    const copy = root.cloneNode(true);
    for (const e of copy.querySelectorAll('.textview, dialog, .chat-panel, .rules-text')) e.remove();
    const parts = [];
    const walk = (n) => {
      if (n.nodeType === 3) parts.push(n.textContent);
      else for (const c of n.childNodes) walk(c);
      if (n.nodeType === 1 && /^(LI|P|DIV|BUTTON|SPAN|TD|TH|SECTION|H\d|LABEL|OPTION|SUMMARY)$/.test(n.tagName)) parts.push('\n');
    };
    walk(copy);
    return parts.join('').replace(/[ \t]+/g, ' ');
  });
}

// The engine's words a player should never read, each with what it is.
const FORBIDDEN = [
  [/\((?:G|STP|THF|FCT|SBJ|PIL|GHA|PAP)-\d+\)|\b(?:STP|THF|FCT|SBJ|PIL|GHA|PAP)-\d+\b/, 'a ruling id'],
  [/->/, 'an arrow of text'],
  [/(?:^|[\s(])(?:[shpcb]\d*|\d{1,2}[SHDC]|[AKQJT][SHDC]|JK|[RGBP](?::\S+)?|@\w*)>[a-z0-9@]+\b/im, 'move notation'],
  [/(?:^|[\s(])@(?:empty|\d+)\b/, 'move notation (pointing)'],
  [/\b[RGBP]:[A-Z0-9+\-]{2,}/, 'card notation'],
  [/\bput c\d+\b|\bcard c\d+\b/, 'a drawn card by its number'],
  [/\bof split \d/, 'an internal name'],
  [/\btap(?:ped)? empty space\b/i, 'an internal name'],
  [/(?:^|[^\d.])1 (?:points|cards)\b/, 'a plural after 1'],
];

function offences(text) {
  const found = [];
  for (const line of text.split('\n')) {
    for (const [re, what] of FORBIDDEN) if (re.test(line)) found.push(`${what}: "${line.trim().slice(0, 160)}"`);
  }
  return found;
}

for (const g of GAMES) {
  test(`${g.id}: no engine words in what the player reads, from the lobby to the end`, { timeout: hang(180000) }, async () => {
    const page = await newPage(env.browser);
    await page.addInitScript(() => localStorage.setItem('pilfer.pace', 'instant'));
    const found = new Set();
    const scan = async (where) => { for (const o of offences(await readText(page))) found.add(`${where}: ${o}`); };
    // The lobby: every option of the game in words (its label, not its key).
    await page.goto(env.server.url);
    await page.locator(`#game-${g.id}`).check();
    await scan('lobby');
    for (const o of g.options) {
      const label = await page.locator(`label[for="opt-${o.name}"]`).textContent();
      assert.notEqual(label.trim(), o.name, `${g.id}: the option ${o.name} is shown by its key`);
    }
    const t = g.quick;
    const options = Object.fromEntries(Object.entries(t.options).filter(([k]) => g.options.some((o) => o.name === k)));
    if (g.id === 'point-a-pile') Object.assign(options, { missions: true, police: true, shy: true, actions: true });
    await createTable(page, env.server.url, { game: g.id, players: t.players, options, seats: ['you', ...Array(t.players - 1).fill('random')] });
    await playToEnd(page, {
      each: async (n) => {
        await scan(`move ${n}`);
        if ((n === 1 || n === 6) && (await tableData(page)).myturn === '1') {
          await page.locator('#hint-btn').click();
          await page.waitForFunction(() => /^(Hint|No hint)/.test(document.querySelector('.hint-line').textContent), null, { timeout: hang(20000) });
          await scan(`hint after move ${n}`);
          // The hint shows its move on the board, a card chosen: the page anew, to play on by clicking.
          await page.reload();
          await page.waitForFunction(() => document.querySelector('.table-page')?.dataset.states > 0);
        }
      },
    });
    await page.waitForSelector('#result:not([hidden])');
    await scan('end');
    // The lobby's list of tables names the finished table's options in words too.
    await page.goto(env.server.url);
    await page.locator('#filter-over').click();
    await page.waitForSelector('#table-list li[data-table]');
    await scan('lobby list');
    assert.deepEqual([...found].slice(0, 40), [], `${g.id}: ${found.size} engine words on the page`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
