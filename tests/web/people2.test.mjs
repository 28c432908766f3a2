// people2.test.mjs - playing with people: names and chat between two browsers, with a
// spectator of the spectators' chat; hostile names and messages shown as mere text; the takeover's
// countdown and the bot taking a silent seat, seen by both; the lobby that teaches, with its list
// pushed, filtered and paged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, clickMove, tableData, screenshots, DESKTOP, hang } from './lib.mjs';

const env = useServerAndBrowser();
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const HOSTILE_NAME = '<img src=x onerror=1>'; // 21 characters: a name the server accepts
const HOSTILE_TEXT = '<img src=x onerror=alert(1)>';

async function named(name, viewport = DESKTOP) {
  const p = await newPage(env.browser, viewport);
  await p.goto(env.server.url);
  await p.evaluate((n) => localStorage.setItem('pilfer.name', n), name);
  return p;
}

// The lobby's form filled (as lib's createTable) with the spectators' chat or a takeover.
async function create(page, { game, seats, spectatorChat = false, takeover = 0, clock = 0 }) {
  await page.goto(env.server.url);
  await page.locator(`#game-${game}`).check();
  await page.locator('#players').fill(String(seats.length));
  await page.locator('#players').dispatchEvent('change');
  for (let s = 0; s < seats.length; s++) await page.locator(`#seat-${s}`).selectOption(seats[s]);
  if (spectatorChat) await page.locator('#spectator-chat').check();
  if (clock) {
    await page.locator('#clock').check();
    await page.locator('#clock-minutes').fill(String(clock));
  }
  if (takeover) {
    await page.locator('#takeover').check();
    await page.locator('#takeover-after').fill(String(takeover));
  }
  await page.locator('#create').click();
  await page.waitForFunction(() => document.querySelector('.table-page')?.dataset.states > 0);
  return Number(/(?:play|watch|join)=(\d+)/.exec(page.url())[1]);
}

const chatLines = (p) => p.$$eval('#chat-log li', (ls) => ls.map((l) => l.textContent));
const noMarkup = (p) => p.evaluate(() => document.querySelectorAll('#chat-log img, .seats img, .seat-name *, .chat-text *, .table-seats *').length);

test('two named people chat, play to the end; a spectator reads the spectators\' chat; hostile text stays text', { timeout: hang(180000) }, async () => {
  const a = await named('Ann');
  const table = await create(a, { game: 'steal-the-pile', seats: ['you', 'open'], spectatorChat: true });
  const b = await named(HOSTILE_NAME);
  await b.goto(`${env.server.url}#join=${table}&seat=1`);
  await b.waitForFunction(() => document.querySelector('.table-page')?.dataset.seat === '1');
  await a.waitForFunction(() => document.querySelector('.table-page').dataset.status === 'playing');
  // Names on the seats, as text: the hostile one is its characters, no element.
  await a.waitForFunction((n) => document.querySelector('.seat[data-seat="1"] .seat-name')?.textContent === n, HOSTILE_NAME);
  assert.equal(await a.locator('.seat[data-seat="0"] .seat-name').textContent(), 'Ann (you)');
  assert.equal(await b.locator('.seat[data-seat="0"] .seat-name').textContent(), 'Ann');
  const c = await named('Cy');
  await c.goto(`${env.server.url}#watch=${table}`);
  await c.waitForFunction(() => document.querySelector('.table-page')?.dataset.states > 0);
  assert.equal(await c.locator('.seat[data-seat="0"] .seat-name').textContent(), 'Ann');
  // Chat: a quick phrase, markup and 10,000 characters (cut at 300), all as text.
  await a.getByRole('button', { name: 'Good game' }).click();
  await b.waitForFunction(() => [...document.querySelectorAll('#chat-log li')].some((l) => l.textContent === 'Ann: Good game'));
  await b.locator('#chat-input').fill(HOSTILE_TEXT);
  await b.locator('#chat-send').click();
  await a.waitForFunction((t) => [...document.querySelectorAll('#chat-log li')].some((l) => l.textContent.endsWith(`: ${t}`)), HOSTILE_TEXT);
  await b.locator('#chat-input').evaluate((e) => { e.value = 'w'.repeat(10000); });
  await b.locator('#chat-send').click();
  await a.waitForFunction(() => [...document.querySelectorAll('#chat-log li')].some((l) => l.textContent.endsWith(`: ${'w'.repeat(300)}`)));
  assert.deepEqual((await chatLines(a)).map((l) => l.slice(0, 40)),
    ['You: Good game', `${HOSTILE_NAME}: ${HOSTILE_TEXT}`, `${HOSTILE_NAME}: ${'w'.repeat(300)}`].map((l) => l.slice(0, 40)));
  assert.equal((await chatLines(a))[2], `${HOSTILE_NAME}: ${'w'.repeat(300)}`);
  // The page cuts with the server's limits (GET /api/limits, docs/protocol.md), not its own.
  assert.deepEqual(await (await fetch(`${env.server.url}/api/limits`)).json(), { name_chars: 24, chat_chars: 300 });
  assert.equal(await b.locator('#chat-input').evaluate((e) => e.maxLength), 300);
  assert.equal(await noMarkup(a), 0);
  // The spectator saw none of it, and writes to the spectators.
  assert.deepEqual(await chatLines(c), []);
  await c.locator('#chat-input').fill('Nice table');
  await c.locator('#chat-send').click();
  await c.waitForFunction(() => [...document.querySelectorAll('#chat-log li')].some((l) => l.textContent === 'Cy (watching): Nice table'));
  await screenshots(a, 'people2-chat');
  await screenshots(c, 'people2-spectator');
  // The tab's title says whose turn it is.
  const da = await tableData(a);
  assert.equal((await a.title()).startsWith('(Your turn)'), da.myturn === '1');
  for (;;) {
    const [x, y] = await Promise.all([tableData(a), tableData(b)]);
    if (x.status === 'over' && y.status === 'over') break;
    if (x.myturn === '1' && !x.busy) await clickMove(a);
    else if (y.myturn === '1' && !y.busy) await clickMove(b);
    else await sleep(20);
  }
  // The end's table and the log name the people; once over, everyone reads both channels.
  const rows = await a.$$eval('#result table.scores tbody th', (r) => r.map((x) => x.textContent.replace(' \u2605', '')));
  assert.deepEqual([...rows].sort(), [HOSTILE_NAME, 'Ann (you)'].sort());
  assert.ok((await a.$$eval('#log li', (ls) => ls.map((l) => l.textContent))).some((t) => t.includes(`${HOSTILE_NAME}: `)));
  await screenshots(a, 'people2-end');
  // Rematch: Ann offers, Bo's page shows the offer, accepts; both move to the new table, one seat on.
  await a.locator('#rematch-btn').click();
  await b.waitForSelector('#rematch-accept');
  await screenshots(b, 'people2-rematch-offer');
  await b.locator('#rematch-accept').click();
  for (const p of [a, b]) await p.waitForFunction((t) => { const m = /#play=(\d+)/.exec(location.hash); return m && Number(m[1]) !== t; }, table);
  const table2 = Number(/#play=(\d+)/.exec(a.url())[1]);
  assert.equal(Number(/#play=(\d+)/.exec(b.url())[1]), table2);
  // Each page loads the new table in its own time: both are waited for, with their seats.
  for (const p of [a, b]) {
    await p.waitForFunction(() => {
      const t = document.querySelector('.table-page')?.dataset;
      return t?.status === 'playing' && t.seat !== undefined;
    });
  }
  assert.equal((await tableData(a)).seat, '1');
  assert.equal((await tableData(b)).seat, '0');
  await a.waitForFunction(() => document.querySelector('.seat[data-seat="1"] .seat-name')?.textContent === 'Ann (you)');
  assert.equal(await a.locator('.seat[data-seat="0"] .seat-name').textContent(), HOSTILE_NAME);
  for (;;) { // the second game, to the end
    const [x, y] = await Promise.all([tableData(a), tableData(b)]);
    if (x.status === 'over' && y.status === 'over') break;
    if (x.myturn === '1' && !x.busy) await clickMove(a);
    else if (y.myturn === '1' && !y.busy) await clickMove(b);
    else await sleep(20);
  }
  const r = await named('Dee');
  await r.goto(`${env.server.url}#review=${table}`);
  await r.waitForFunction(() => document.querySelectorAll('#chat-log li').length === 4);
  assert.ok((await chatLines(r)).includes('Cy (watching): Nice table'));
  assert.equal(await noMarkup(r), 0);
  for (const p of [a, b, c, r]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test('a silent seat: its countdown and the bot taking over are seen by both', { timeout: hang(120000) }, async () => {
  const a = await named('Ann');
  const table = await create(a, { game: 'steal-the-pile', seats: ['you', 'open'], takeover: 10, clock: 5 });
  const b = await named('Bo');
  await b.goto(`${env.server.url}#join=${table}&seat=1`);
  await a.waitForFunction(() => document.querySelector('.table-page')?.dataset.status === 'playing');
  // Seat 0 (Ann) is asked first and stays silent: both see its countdown, then the bot play.
  for (const p of [a, b]) await p.waitForFunction(() => /bot in \d+ s/.test(document.querySelector('.seat[data-seat="0"] .countdown')?.textContent || ''));
  // Its clock runs (5 minutes each), the other's stands.
  for (const p of [a, b]) {
    await p.waitForFunction(() => /^4:5\d$/.test(document.querySelector('.seat[data-seat="0"] .clock.running')?.textContent || ''));
    assert.equal(await p.locator('.seat[data-seat="1"] .clock').textContent(), '5:00');
  }
  await screenshots(b, 'people2-countdown');
  await b.waitForFunction(() => /away, Medium bot plays/.test(document.querySelector('.seat[data-seat="0"] .seat-name')?.textContent || ''), null, { timeout: hang(30000) });
  await a.waitForFunction(() => !document.querySelector('#taken-line').hidden, null, { timeout: hang(30000) });
  assert.match(await a.locator('#taken-line').textContent(), /A bot \(Medium bot\) played for you/);
  await screenshots(a, 'people2-taken-over');
  for (const p of [a, b]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test('the lobby teaches each game, keeps Create in view, and lists the tables as the server pushes them', { timeout: hang(120000) }, async () => {
  const l = await newPage(env.browser);
  await l.goto(env.server.url);
  await l.locator('#game-thief').check();
  assert.match(await l.locator('#game-desc').textContent(), /capturing game/);
  assert.match(await l.locator('#game-facts').textContent(), /about \d+ moves/);
  assert.doesNotMatch(await l.locator('.game-options').textContent(), /THF-\d/);
  assert.deepEqual(await l.$$eval('#seat-1 option', (o) => o.map((x) => x.textContent)).then((t) => t.slice(2)), ['Easy bot', 'Medium bot', 'Strong bot']);
  // The strong bot is each game's own, as the engine names it (pilfer games --json: strong_bot).
  const games = await (await fetch(`${env.server.url}/api/games`)).json();
  for (const id of ['thief', 'skip-bo-junior']) {
    await l.locator(`#game-${id}`).check();
    const strong = await l.$eval('#seat-1', (s) => [...s.options].find((o) => o.textContent === 'Strong bot').value);
    assert.equal(strong, games.find((g) => g.id === id).strong_bot, `${id}'s strong bot`);
  }
  await l.locator('#seat-1').selectOption({ label: 'Strong bot' });
  await l.locator('#game-thief').check();
  assert.equal(await l.locator('#seat-1').inputValue(), games.find((g) => g.id === 'thief').strong_bot, 'the strong bot kept across games');
  const box = await l.locator('#create').boundingBox();
  assert.ok(box && box.y + box.height <= DESKTOP.height, `Create at ${JSON.stringify(box)}: below the fold`);
  await l.locator('#filter-open').click();
  // Another person creates a table with an open seat: it shows here, pushed, with no reload.
  const o = await named('Ola');
  const table = await create(o, { game: 'thief', seats: ['you', 'open'] });
  await l.waitForSelector(`#table-list li[data-table="${table}"]`, { timeout: hang(10000) });
  // Created with its seats open, then Ola's page joins her seat: a push each, in that order.
  await l.waitForFunction((t) => document.querySelector(`#table-list li[data-table="${t}"]`)?.textContent.includes('Ola'), table, { timeout: hang(10000) });
  // Its options are the game's defaults: not listed (Thief's hands=0 says nothing to a person).
  assert.doesNotMatch(await l.locator(`#table-list li[data-table="${table}"]`).textContent(), /hands/);
  await screenshots(l, 'people2-lobby');
  // Filled, it leaves the open seats and is among those being played.
  const p = await named('Pat');
  await p.goto(`${env.server.url}#join=${table}&seat=1`);
  await l.waitForSelector(`#table-list li[data-table="${table}"]`, { state: 'detached', timeout: hang(10000) });
  await l.locator('#filter-playing').click();
  await l.waitForSelector(`#table-list li[data-table="${table}"]`);
  // Mine: the tables this browser holds a seat of (none here; Ola's page holds one).
  await l.locator('#filter-mine').click();
  await l.waitForFunction(() => document.querySelector('#tables-msg').textContent.includes('no seat'));
  await o.goto(env.server.url);
  await o.locator('#filter-mine').click();
  await o.waitForSelector(`#table-list li[data-table="${table}"]`);
  for (const x of [l, o, p]) {
    assert.deepEqual(x.errors, []);
    await x.context().close();
  }
});
