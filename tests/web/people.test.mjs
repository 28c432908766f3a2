// people.test.mjs - people at tables: two browsers at one table (the second joins by the link the
// first is given), a spectator who must never see a hidden card, a reload in the middle of a game
// that comes back to the same position, and a game played by keyboard alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, startServer, newPage, createTable, clickMove, playToEnd, tableData, waitTurn, replayView, writeTemp,
  screenshots, recordBoards, hang,
} from './lib.mjs';

const env = useServerAndBrowser();

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// Steal the Pile (one deck: every card is one of a kind): the cards nobody but their holder may
// see at ply k, from the record replayed with everything shown: the hands (but `seat`'s own) and
// the stock (the deck less every card that is somewhere).
function hiddenAt(record, recordPath, k, seat) {
  const all = replayView(recordPath, k, 'all');
  const somewhere = new Set([...all.open_piles, ...all.piles.flatMap((p) => p.cards), ...all.hands.flatMap((x) => x.cards)]);
  const hidden = new Set(record.deals[0].filter((c) => !somewhere.has(c)));
  all.hands.forEach((x, s) => { if (s !== seat) for (const c of x.cards) hidden.add(c); });
  return hidden;
}

test('two people in two browsers: the second joins by the seat link, both play to the end', { timeout: hang(120000) }, async () => {
  const a = await newPage(env.browser);
  const table = await createTable(a, env.server.url, { game: 'steal-the-pile', players: 3, seats: ['you', 'open', 'random'] });
  await a.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Waiting for 1 more player'));
  await screenshots(a, 'waiting-for-a-friend');
  const link = await a.locator('#share-seat-1').inputValue();
  assert.match(link, new RegExp(`#join=${table}&seat=1$`));
  const b = await newPage(env.browser);
  await b.goto(link);
  await b.waitForFunction(() => document.querySelector('.table-page')?.dataset.seat === '1');
  assert.match(b.url(), new RegExp(`#play=${table}&seat=1$`));
  const held = await b.evaluate((t) => JSON.parse(localStorage.getItem(`pilfer.table.${t}`)), table);
  assert.match(held['1'], /^[0-9a-f]{32}$/, 'the seat token is kept in localStorage');
  await a.waitForFunction(() => document.querySelector('.table-page').dataset.status === 'playing');
  // A sees B as a connected person.
  assert.equal(await a.locator('.seat[data-seat="1"] .seat-name').textContent(), 'Seat 1 (player)');
  await recordBoards(a);
  await recordBoards(b);
  const made = [0, 0];
  for (;;) {
    const [da, db] = await Promise.all([tableData(a), tableData(b)]);
    if (da.status === 'over' && db.status === 'over') break;
    if (da.myturn === '1' && !da.busy) { await clickMove(a); made[0]++; }
    else if (db.myturn === '1' && !db.busy) { await clickMove(b); made[1]++; }
    else await sleep(20);
  }
  assert.equal(made[0], 16);
  assert.equal(made[1], 16);
  // The same scores on both end screens (each names the seats from its own side).
  const scores = (p) => p.$$eval('#result table.scores tbody tr', (rows) => rows.map((r) => r.querySelector('td').textContent));
  assert.deepEqual(await scores(a), await scores(b));
  assert.equal(await a.locator('.result-words').count(), 1);
  // Neither saw the other's hand, nor the stock.
  const href = await a.locator('#record-link').getAttribute('href');
  const record = await a.evaluate(async (u) => (await fetch(u)).json(), href);
  const path = writeTemp(env.tmp, `friends-${table}.json`, JSON.stringify(record));
  for (const [p, seat] of [[a, 0], [b, 1]]) {
    const boards = (await p.evaluate(() => window.boards)).filter((x) => x.status === 'playing');
    assert.ok(boards.length > 10);
    for (const x of boards) {
      const hidden = hiddenAt(record, path, x.ply, seat);
      const seen = x.cards.filter((c) => hidden.has(c));
      assert.deepEqual(seen, [], `seat ${seat} saw hidden cards at ply ${x.ply}`);
    }
  }
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.context().close();
  await b.context().close();
});

test('Point-a-Pile between two browsers: a sealed choice shows as chosen to the other, and as itself to its player', { timeout: hang(120000) }, async () => {
  const a = await newPage(env.browser);
  const table = await createTable(a, env.server.url, { game: 'point-a-pile', players: 3, seats: ['you', 'open', 'random'] });
  const b = await newPage(env.browser);
  await b.goto(await a.locator('#share-seat-1').inputValue());
  await b.waitForFunction(() => document.querySelector('.table-page')?.dataset.seat === '1');
  let sealedSeen = 0;
  const statsA = {}, statsB = {};
  for (;;) {
    const [da, db] = await Promise.all([tableData(a), tableData(b)]);
    if (da.status === 'over' && db.status === 'over') break;
    if (db.myturn === '1' && !db.busy) {
      // Seat 1 chooses before seat 0, who is still asked: its choice is sealed.
      const both = da.myturn === '1' && da.choosing.split(' ').includes('0') && db.choosing.split(' ').includes('1');
      await clickMove(b, statsB);
      if (both) {
        await a.waitForSelector('.seat[data-seat="1"] .badge-chosen');
        await b.waitForFunction(() => /^Your sealed choice: /.test(document.querySelector('.sealed-line').textContent));
        assert.match(await b.locator('#turn').textContent(), /Your choice is in/);
        if (!sealedSeen++) await screenshots(a, 'point-a-pile-sealed');
      }
    } else if (da.myturn === '1' && !da.busy) {
      await clickMove(a, statsA);
    } else {
      await sleep(20);
    }
  }
  assert.ok(sealedSeen > 0, 'a sealed choice was seen');
  // After the game, the view's round log (`log`, `previous_log`) on both pages says what every
  // seat chose (PAP-4), from the page's generic round log panel, each seat by the page's name.
  for (const p of [a, b]) {
    assert.equal(await p.locator('#round-log').isHidden(), false);
    const told = await p.locator('#round-log').textContent();
    assert.match(told, /Pointing: Seat 0[^;]* at (pile \d|empty space); Seat 1[^;]* at (pile \d|empty space); Seat 2[^;]* at (pile \d|empty space)/);
    assert.doesNotMatch(told, /\bseat \d/);
  }
  // Both played on the board's zones (placing, pointing: no move here is a bare button), seat 1
  // too when it chose after seat 0 (from the state's moves).
  for (const st of [statsA, statsB]) assert.deepEqual(Object.keys(st), ['zones'], JSON.stringify(st));
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  console.log(`# point-a-pile ${table}: ${sealedSeen} sealed choices seen`);
  await a.context().close();
  await b.context().close();
});

test('a spectator sees no hidden card, ever', { timeout: hang(120000) }, async () => {
  const p = await newPage(env.browser);
  const table = await createTable(p, env.server.url, { game: 'steal-the-pile', players: 2, seats: ['you', 'greedy'] });
  const s = await newPage(env.browser);
  await s.goto(`${env.server.url}#watch=${table}`);
  await s.waitForFunction(() => document.querySelector('.table-page')?.dataset.states > 0);
  await recordBoards(s);
  assert.equal((await tableData(s)).seat, '');
  assert.equal(await s.locator('#legal .legal-move').count(), 0, 'a spectator has no moves');
  await screenshots(s, 'spectator');
  await playToEnd(p);
  await s.waitForFunction(() => document.querySelector('.table-page').dataset.status === 'over');
  const href = await p.locator('#record-link').getAttribute('href');
  const record = await p.evaluate(async (u) => (await fetch(u)).json(), href);
  const path = writeTemp(env.tmp, `watched-${table}.json`, JSON.stringify(record));
  const boards = (await s.evaluate(() => window.boards)).filter((x) => x.status === 'playing');
  assert.ok(boards.length >= 20, `the spectator saw ${boards.length} states`);
  let shown = 0;
  for (const x of boards) {
    const hidden = hiddenAt(record, path, x.ply, -1);
    assert.ok(hidden.size > 0);
    assert.deepEqual(x.cards.filter((c) => hidden.has(c)), [], `the spectator saw hidden cards at ply ${x.ply}`);
    shown += x.cards.filter((c) => c).length;
  }
  assert.ok(shown > 0, 'the spectator saw the cards face up');
  assert.deepEqual(s.errors, []);
  await p.context().close();
  await s.context().close();
});

test('a reload in the middle of a game comes back to the same position, and play goes on', { timeout: hang(120000) }, async () => {
  const p = await newPage(env.browser);
  const table = await createTable(p, env.server.url, { game: 'thief', players: 2, options: { hands: 1 }, seats: ['you', 'greedy'] });
  for (let i = 0; i < 6; i++) {
    assert.ok(await waitTurn(p));
    await clickMove(p, {}, () => 0);
  }
  assert.ok(await waitTurn(p));
  const look = () => p.evaluate(() => ({
    ply: document.querySelector('.table-page').dataset.ply,
    board: document.querySelector('.board').textContent,
    legal: [...document.querySelectorAll('#legal .legal-move')].map((b) => b.dataset.move),
    seats: document.querySelector('#seats').textContent,
  }));
  const was = await look();
  assert.match(p.url(), new RegExp(`#play=${table}&seat=0$`));
  await p.reload();
  await p.waitForFunction(() => document.querySelector('.table-page')?.dataset.states > 0);
  assert.ok(await waitTurn(p));
  assert.deepEqual(await look(), was);
  assert.match(p.url(), new RegExp(`#play=${table}&seat=0$`));
  await playToEnd(p);
  assert.equal(await p.locator('#result:not([hidden])').count(), 1);
  assert.deepEqual(p.errors, []);
  await p.context().close();
});

test('the server restarts in the middle of a game: the page reconnects, resumes its seat, and play goes on', { timeout: hang(120000) }, async () => {
  const own = await startServer();
  let again = null;
  const p = await newPage(env.browser);
  try {
    await createTable(p, own.url, { game: 'four-card-thief', players: 2, options: { hands: 1 }, seats: ['you', 'random'] });
    for (let i = 0; i < 3; i++) {
      assert.ok(await waitTurn(p));
      await clickMove(p);
    }
    assert.ok(await waitTurn(p));
    const ply = (await tableData(p)).ply;
    const legal = await p.$$eval('#legal .legal-move', (bs) => bs.map((b) => b.dataset.move));
    const states = Number((await tableData(p)).states);
    await own.stop({ keep: true });
    await p.waitForFunction(() => /Connection lost/.test(document.querySelector('#conn-status').textContent));
    again = await startServer({ dir: own.dir, port: own.port });
    // The page finds the server again, resumes the seat with its token and is sent the same state.
    await p.waitForFunction(() => document.querySelector('#conn-status').textContent === '', null, { timeout: hang(20000) });
    await p.waitForFunction((n) => Number(document.querySelector('.table-page').dataset.states) > n, states);
    assert.ok(await waitTurn(p));
    assert.equal((await tableData(p)).ply, ply);
    assert.deepEqual(await p.$$eval('#legal .legal-move', (bs) => bs.map((b) => b.dataset.move)), legal);
    await playToEnd(p);
    assert.equal(await p.locator('#result:not([hidden])').count(), 1);
    assert.deepEqual(p.errors.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(e)), []);
  } finally {
    await p.context().close();
    await again?.stop();
  }
});

// Tabs until the focus is on an element matching sel; returns false after `max` tabs.
async function tabTo(page, sel, max = 300) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s), sel)) return true;
    await page.keyboard.press('Tab');
  }
  return false;
}

test('a game by keyboard alone: every move focusable and played with Enter or Space, focus visible', { timeout: hang(120000) }, async () => {
  const p = await newPage(env.browser);
  // A turn with no play possible passes by itself (SBJ-5), so with stockpiles of 2 the random bot
  // sometimes empties its own before this seat is ever asked (CI saw it once): such a game has
  // nothing to play by keyboard, and a new table is dealt, at most five times.
  let tries = 0;
  do {
    await createTable(p, env.server.url, { game: 'skip-bo-junior', players: 2, options: { stock: 2 }, seats: ['you', 'random'] });
  } while (!(await waitTurn(p)) && ++tries < 5);
  let n = 0;
  while (await waitTurn(p)) {
    const before = Number((await tableData(p)).states);
    const zones = await p.locator('.board .card-btn, .board .zone-target, .board-actions .action').count();
    if (zones) {
      assert.ok(await tabTo(p, '.board .card-btn, .board .zone-target, .board-actions .action'), 'reached the board by Tab');
      const isCard = await p.evaluate(() => document.activeElement.matches('.card-btn'));
      await p.keyboard.press(n % 2 ? 'Enter' : ' ');
      if (isCard && (await p.locator('.board .zone-target').count())) {
        assert.ok(await tabTo(p, '.board .zone-target'), 'reached a target by Tab');
        await p.keyboard.press('Enter');
      }
    } else {
      assert.ok(await tabTo(p, '#legal .legal-move'), 'reached a move by Tab');
      const outline = await p.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
      assert.notEqual(outline, 'none', 'the focus is visible');
      await p.keyboard.press(n % 2 ? 'Enter' : ' ');
    }
    await p.waitForFunction((b) => Number(document.querySelector('.table-page').dataset.states) > b || document.querySelector('.error').textContent, before);
    n++;
  }
  assert.ok(n > 0);
  await p.waitForSelector('#result:not([hidden])');
  // The end screen's buttons are reached by keyboard too.
  assert.ok(await tabTo(p, '#review-btn'));
  await p.keyboard.press('Enter');
  await p.waitForSelector('#review:not([hidden])');
  await p.keyboard.press('ArrowRight');
  await p.waitForFunction(() => /^Move 1 of/.test(document.querySelector('#review-where').textContent));
  assert.deepEqual(p.errors, []);
  await p.context().close();
});

test('keyboard: Tab reaches the board in a few presses, arrows go between cards and targets, moves confirmed on request', { timeout: hang(60000) }, async () => {
  const p = await newPage(env.browser);
  await p.addInitScript(() => localStorage.setItem('pilfer.confirm', '1'));
  await createTable(p, env.server.url, { game: 'steal-the-pile', players: 2, seats: ['you', 'greedy'] });
  assert.ok(await waitTurn(p));
  assert.equal(await p.locator('#opt-confirm').isChecked(), true, 'the option is kept in this browser');
  // From the top of the page (as loaded): the skip link, then Enter lands on a card.
  const top = async () => {
    await p.reload();
    await p.waitForFunction(() => document.querySelector('.board .card-btn'));
  };
  await top();
  await p.keyboard.press('Tab');
  assert.equal(await p.evaluate(() => document.activeElement.className), 'skip');
  await p.keyboard.press('Enter');
  assert.ok(await p.evaluate(() => document.activeElement.matches('.board .card-btn')), 'the skip link leads to a card');
  // Without it, a few Tabs: one stop for the tools each, one for all the cards.
  await top();
  let tabs = 0;
  while (!(await p.evaluate(() => document.activeElement.matches('.board .card-btn'))) && tabs < 12) {
    await p.keyboard.press('Tab');
    tabs++;
  }
  assert.ok(tabs <= 9, `${tabs} Tabs to the first card`);
  const cards = await p.locator('.board .card-btn').count();
  assert.ok(cards > 1);
  const first = await p.evaluate(() => document.activeElement.dataset.card);
  await p.keyboard.press('ArrowRight');
  const second = await p.evaluate(() => document.activeElement.dataset.card);
  assert.notEqual(second, first, 'ArrowRight goes to the next card');
  await p.keyboard.press('ArrowLeft');
  assert.equal(await p.evaluate(() => document.activeElement.dataset.card), first);
  // Enter chooses; where it may go gets the focus (or, for a card that matches nothing, the
  // confirmation does).
  const before = Number((await tableData(p)).states);
  await p.keyboard.press('Enter');
  if (await p.evaluate(() => document.activeElement.matches('.zone-target'))) {
    const n = await p.locator('.board .zone-target').count();
    if (n > 1) {
      const a = await p.evaluate(() => document.activeElement.closest('[data-zone]').dataset.zone);
      await p.keyboard.press('ArrowRight');
      assert.notEqual(await p.evaluate(() => document.activeElement.closest('[data-zone]').dataset.zone), a);
    }
    await p.keyboard.press('Enter');
  }
  // Nothing is sent before the confirmation.
  assert.ok(await p.evaluate(() => document.activeElement.matches('.confirm-yes')), 'the confirmation has the focus');
  assert.equal(Number((await tableData(p)).states), before, 'nothing sent yet');
  await p.keyboard.press('Escape');
  assert.equal(await p.locator('.confirm-yes').count(), 0, 'Escape takes it back');
  await p.locator('.board .card-btn').first().click();
  if (await p.locator('.board .zone-target').count()) await p.locator('.board .zone-target').first().click();
  if (await p.locator('dialog.choice-dialog .choice').count()) await p.locator('dialog.choice-dialog .choice').first().click();
  await p.locator('.confirm-yes').click();
  await p.waitForFunction((b) => Number(document.querySelector('.table-page').dataset.states) > b, before);
  assert.deepEqual(p.errors, []);
  await p.context().close();
});
