// games.test.mjs - every game, created in the lobby against bots and played to its end screen by
// clicking, as a person would; screenshots of each table at desktop and phone width (mid-game and at
// the end); the end screen's review, record, rules and hint on the way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  useServerAndBrowser, newPage, createTable, playToEnd, screenshots, tableData, waitTurn, recordBoards,
  checkBoardsAgainstRecord, writeTemp, mineOnScreen, PILFER, PHONE, hang,
} from './lib.mjs';

// Every game, as the short whole game it declares next to its code (its measures' quick game:
// players and options, in `pilfer games --json`), played to the real end.
const GAMES = JSON.parse(spawnSync(PILFER, ['games', '--json'], { encoding: 'utf8' }).stdout);
const TABLES = Object.fromEntries(GAMES.map((g) => [g.id, g.quick]));

const env = useServerAndBrowser();

test('every game declares a short game within its player range', () => {
  assert.ok(GAMES.length > 0);
  for (const g of GAMES) assert.ok(g.quick.players >= g.min_players && g.quick.players <= g.max_players, g.id);
});

test('the lobby lists every game with its options, at desktop and phone width', { timeout: hang(30000) }, async () => {
  const page = await newPage(env.browser);
  await page.goto(env.server.url);
  await page.waitForSelector('.game-choice');
  assert.equal(await page.locator('.game-choice').count(), Object.keys(TABLES).length);
  await page.locator('#game-gharat').check();
  assert.equal(await page.locator('#opt-target').inputValue(), '1000');
  assert.equal(await page.locator('#opt-teams').isChecked(), false);
  // The option's help in words (the rulings' ids are for the rules' text, not the lobby).
  assert.match(await page.locator('.option').first().textContent(), /play hands until a total reaches this/);
  assert.doesNotMatch(await page.locator('.option').first().textContent(), /GHA-6/);
  await page.locator('#game-point-a-pile').check();
  assert.equal(await page.locator('.option input[type=checkbox]').count(), 5);
  const wide = await screenshots(page, 'lobby');
  assert.ok(wide <= PHONE.width, `the lobby is ${wide} px wide at phone width`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const [game, t] of Object.entries(TABLES)) {
  test(`${game}: against bots, by clicking, to the end screen`, { timeout: hang(120000) }, async () => {
    const page = await newPage(env.browser);
    const seats = ['you', ...Array(t.players - 1).fill('random')];
    const table = await createTable(page, env.server.url, { game, players: t.players, options: t.options, seats });
    assert.ok(table > 0);
    // Someone watches: what they and the player are shown is checked against the record below.
    const watcher = await newPage(env.browser);
    await watcher.goto(`${env.server.url}#watch=${table}`);
    await watcher.waitForFunction(() => document.querySelector('.table-page')?.dataset.states > 0);
    await recordBoards(watcher);
    await recordBoards(page);
    const stats = { hidden: [] }; // hidden: the targets of a chosen card that were off the screen
    let shot = false, zones = false;
    const moves = await playToEnd(page, {
      stats,
      drag: game === 'steal-the-pile' || game === 'skip-bo-junior', // every other move dragged
      each: async (n) => {
        zones ||= (await page.locator('.board .zone').count()) > 0;
        // At 1280x800 the player's own seat is on the screen after every move (Piles too).
        if (await waitTurn(page)) {
          const r = await mineOnScreen(page);
          if (r) assert.ok(r.top >= -1 && r.bottom <= r.height + 1, `${game}, move ${n}: your seat at ${r.top}-${r.bottom} of ${r.height}`);
        }
        if (n === 3 && !shot && (await tableData(page)).status === 'playing') {
          shot = true;
          await waitTurn(page);
          const wide = await screenshots(page, `${game}-table`);
          assert.ok(wide <= PHONE.width, `${game}: the table is ${wide} px wide at phone width`);
        }
      },
    });
    assert.ok(moves > 0, 'made moves');
    // The board drew the view's zones, and every move was made on it: a card then its target
    // (clicked or dragged), a target, or a button there; never from the list of moves.
    assert.ok(zones, 'the board shows zones');
    assert.equal(stats.list || 0, 0, `moves made from the list: ${JSON.stringify(stats)}`);
    // At 1280x800 where a chosen card may go is on the screen above the hand (Piles' castle too).
    assert.deepEqual(stats.hidden, [], `${game}: where a chosen card could go was off the screen`);
    if (game === 'steal-the-pile') assert.ok(stats.drag > 0, 'cards were dragged');
    // The end screen: result, winners, the record and the review.
    await page.waitForSelector('#result:not([hidden])');
    const words = await page.locator('.result-words').textContent();
    assert.match(words, /win|Nobody/);
    const rows = await page.locator('#result table.scores tbody tr').count();
    assert.equal(rows, t.players);
    const wide = await screenshots(page, `${game}-end`);
    assert.ok(wide <= PHONE.width, `${game}: the end screen is ${wide} px wide at phone width`);
    const href = await page.locator('#record-link').getAttribute('href');
    const record = await page.evaluate(async (u) => (await fetch(u)).json(), href);
    assert.equal(record.game, game);
    assert.equal(record.moves.length, Number((await tableData(page)).ply));
    assert.ok(record.result, 'the record holds the result');
    // Every card either page showed while the game went on was in that viewer's view.
    const path = writeTemp(env.tmp, `${game}-${table}.json`, JSON.stringify(record));
    await watcher.waitForFunction(() => document.querySelector('.table-page').dataset.status === 'over');
    const seen = checkBoardsAgainstRecord(await watcher.evaluate(() => window.boards), path, 'public');
    const played = checkBoardsAgainstRecord(await page.evaluate(() => window.boards), path, 0);
    assert.ok(seen > 0 && played > 0);
    console.log(`# ${game}: ${moves} moves by clicking (${JSON.stringify(stats)}), ${record.moves.length} plies in all; ` +
      `${seen} positions watched and ${played} played checked against the record`);
    assert.deepEqual(page.errors, []);
    assert.deepEqual(watcher.errors, []);
    await page.context().close();
    await watcher.context().close();
  });
}

test('the review steps through a finished game, backwards and forwards, every card shown', { timeout: hang(120000) }, async () => {
  const page = await newPage(env.browser);
  await createTable(page, env.server.url, { game: 'steal-the-pile', players: 2, seats: ['you', 'greedy'] });
  await playToEnd(page);
  await page.locator('#review-btn').click();
  await page.waitForSelector('#review:not([hidden])');
  await page.waitForFunction(() => /^Move 0 of \d+/.test(document.querySelector('#review-where').textContent));
  const plies = Number(/of (\d+)/.exec(await page.locator('#review-where').textContent())[1]);
  assert.equal(plies, 48);
  // Both hands are shown at the start (everything revealed): four cards each.
  const start = await page.locator('.board').textContent();
  await page.locator('#review-next').click();
  await page.waitForFunction(() => /^Move 1 of/.test(document.querySelector('#review-where').textContent));
  const one = await page.locator('.board').textContent();
  assert.notEqual(one, start);
  await page.keyboard.press('End');
  await page.waitForFunction(() => /^Move 48 of 48: /.test(document.querySelector('#review-where').textContent) &&
    document.querySelector('#review-next-line').textContent === 'The end of the game.');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => /^Move 47 of/.test(document.querySelector('#review-where').textContent));
  await page.locator('#review-first').click();
  await page.waitForFunction(() => /^Move 0 of/.test(document.querySelector('#review-where').textContent));
  assert.equal(await page.locator('.board').textContent(), start);
  // The review's address works on its own.
  assert.match(page.url(), /#review=\d+/);
  await page.reload();
  await page.waitForFunction(() => /^Move 0 of 48/.test(document.querySelector('#review-where')?.textContent || ''));
  await screenshots(page, 'steal-the-pile-review');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('rules and hint while playing; the live region says whose turn it is', { timeout: hang(60000) }, async () => {
  const page = await newPage(env.browser);
  const table = await createTable(page, env.server.url, { game: 'thief', players: 2, options: { hands: 1 }, seats: ['you', 'greedy'] });
  await waitTurn(page);
  await page.waitForFunction(() => document.querySelector('#announce').textContent.includes('Your turn'));
  // The lobby lists the table with the option that is not the game's default.
  const lobby = await newPage(env.browser);
  await lobby.goto(env.server.url);
  await lobby.locator('#filter-playing').click();
  await lobby.waitForSelector(`#table-list li[data-table="${table}"]`);
  assert.match(await lobby.locator(`#table-list li[data-table="${table}"]`).textContent(), /\bHands in a game: 1\b/);
  await lobby.context().close();
  await page.locator('#rules-btn').click();
  const rules = page.locator('dialog.rules-dialog');
  await rules.waitFor();
  assert.match(await rules.textContent(), /THF-1/);
  // Formatted from the server's markup, not preformatted lines: the title heads the dialog, the
  // sections are headings, the points a table, the captures a list (src/games/rules/thief.md).
  assert.equal(await rules.locator('#rules-title').textContent(), 'Thief');
  const sections = await rules.locator('.rules-text h3').allTextContents();
  for (const h of ['The object of the game', 'Set-up', 'A turn', 'Scoring', 'The end']) assert.ok(sections.includes(h), `section ${h}: ${sections}`);
  assert.deepEqual(await rules.locator('.rules-text table th').allTextContents(), ['cards', 'points']);
  assert.equal(await rules.locator('.rules-text table tbody tr').count(), 5);
  assert.ok(await rules.locator('.rules-text ul li').count() >= 3);
  assert.match(await rules.locator('.rules-text code').first().textContent(), /^[a-z0-9+>]+$/i);
  assert.equal(await rules.locator('pre').count(), 0);
  assert.doesNotMatch(await rules.textContent(), /[#`|]/);
  await page.keyboard.press('Escape');
  await rules.waitFor({ state: 'detached' });
  await page.locator('#hint-btn').click();
  await page.waitForFunction(() => /^Hint: /.test(document.querySelector('.hint-line').textContent), null, { timeout: hang(20000) });
  const hinted = await page.locator('.legal-move.hinted').count();
  assert.equal(hinted, 1, 'the hinted move is marked in the list');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
