// table.test.mjs - a table players trust: each seat's clock and the takeover's countdown beside
// the seat on the board (yours in the dock), urgent from 10 s, with what running out does, for
// the players and a spectator; chatting and acting count as presence, "away" only for a seat gone
// or silent, and the transient lines go by their rules; the rematch offer without "null"; Escape
// closes Rules at once after a Hint; the review's players at the move shown; a game left in the
// middle leaves the lobby's "being played"; others' moves skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, startServer, newPage, clickMove, tableData, screenshots, replayView, writeTemp, watchMotion,
  waitTurn, DESKTOP, PHONE, hang } from './lib.mjs';

const env = useServerAndBrowser();
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

async function named(name, viewport = DESKTOP, url = env.server.url) {
  const p = await newPage(env.browser, viewport);
  await p.goto(url);
  await p.evaluate((n) => localStorage.setItem('pilfer.name', n), name);
  return p;
}

// A table created as the protocol allows (a clock in seconds, which the lobby's form gives in
// minutes), from the page's origin; resolves with its number.
function createRaw(page, msg) {
  return page.evaluate((msg) => new Promise((ok, fail) => {
    const ws = new WebSocket(`ws://${location.host}/ws`, 'pilfer');
    ws.onopen = () => ws.send(JSON.stringify({ ...msg, type: 'create', id: 1 }));
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.id !== 1) return;
      ws.close();
      if (m.type === 'created') ok(m.table); else fail(new Error(JSON.stringify(m)));
    };
  }), msg);
}

async function sit(page, table, seat) {
  await page.goto(`${env.server.url}#join=${table}&seat=${seat}`);
  await page.waitForFunction((s) => document.querySelector('.table-page')?.dataset.seat === String(s), seat);
}

const timeOf = (p, sel) => p.evaluate((sel) => document.querySelector(sel)?.textContent ?? null, sel);

test('your clock and the takeover countdown beside your seat in the dock, the others\' beside theirs, urgent at 10 s, also for a spectator', { timeout: hang(120000) }, async () => {
  const a = await named('Ann', PHONE), b = await named('Bo'), w = await named('Cy', PHONE);
  const table = await createRaw(a, { game: 'steal-the-pile', players: 2, clock: { seconds: 20, on_time: 'loss' },
    takeover: { after: 15, bot: 'greedy' } });
  await sit(a, table, 0);
  await sit(b, table, 1);
  await w.goto(`${env.server.url}#watch=${table}`);
  await a.waitForFunction(() => document.querySelector('.table-page')?.dataset.myturn === '1');
  // Ann's own time is in her dock, on the screen of a phone: her clock runs, with its rule.
  const mine = '.board .dock .seat-area.mine .seat-time';
  await a.waitForFunction((sel) => /^0:[01]\d$/.test(document.querySelector(`${sel} .seat-clock.running .time`)?.textContent || ''), mine);
  assert.match(await timeOf(a, `${mine} .seat-clock .rule`), /at 0:00 you lose/);
  assert.match(await timeOf(a, `${mine} .seat-takeover`), /^A bot plays for you in \d+ s unless you act$/);
  const box = await a.locator(`${mine} .seat-clock .time`).boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= PHONE.height, `the clock on the phone's screen: ${JSON.stringify(box)}`);
  const size = await a.locator(`${mine} .seat-clock .time`).evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  assert.ok(size >= 18, `the clock is large: ${size}px`);
  // Bo and the spectator see Ann's beside her seat, Bo's own standing clock in his dock.
  const hers = '.board .seat-areas.others .seat-area[data-seat="0"] .seat-time';
  for (const p of [b, w]) {
    await p.waitForFunction((sel) => /^0:[01]\d$/.test(document.querySelector(`${sel} .seat-clock.running .time`)?.textContent || ''), hers);
    assert.match(await timeOf(p, `${hers} .seat-clock .rule`), /at 0:00 they lose/);
    assert.match(await timeOf(p, `${hers} .seat-takeover`), /^bot plays in \d+ s$/);
  }
  assert.equal(await timeOf(b, '.board .dock .seat-area.mine .seat-clock:not(.running) .time'), '0:20');
  // From 10 s left, urgent, everywhere.
  await a.waitForFunction((sel) => document.querySelector(`${sel} .seat-clock.urgent`), mine);
  for (const p of [b, w]) await p.waitForFunction((sel) => document.querySelector(`${sel} .seat-clock.urgent`), hers);
  await a.waitForFunction((sel) => document.querySelector(`${sel} .seat-takeover.urgent`), mine);
  const left = Number(/(\d+) s/.exec(await timeOf(a, `${mine} .seat-takeover`))?.[1]);
  assert.ok(left <= 10, `the countdown is urgent at ${left} s`);
  assert.equal(await a.locator(`${mine} .seat-clock.urgent .time`).evaluate((e) => getComputedStyle(e).backgroundColor), 'rgb(200, 16, 46)');
  await screenshots(a, 'table-clock-mine', { full: false });
  await screenshots(w, 'table-clock-spectator', { full: false });
  for (const p of [a, b, w]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test('chatting is presence: no takeover, never away; silent, the bot plays and says so; back at a tap; the late move\'s line goes at the seat\'s next move', { timeout: hang(150000) }, async () => {
  const a = await newPage(env.browser), b = await named('Bo');
  // Ann's connections (the lobby's /ws and the table's /ws?table=ID): her first move is sent for
  // another ply, as a move that arrives late is.
  let late = true;
  await a.routeWebSocket(/\/ws(\?.*)?$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      const msg = typeof m === 'string' ? JSON.parse(m) : null;
      if (late && msg?.type === 'move') {
        late = false;
        server.send(JSON.stringify({ ...msg, ply: msg.ply + 1000 }));
      } else server.send(m);
    });
    server.onMessage((m) => ws.send(m));
  });
  await a.goto(env.server.url); // routed from the page's start (the route wraps its WebSocket)
  await a.evaluate(() => localStorage.setItem('pilfer.name', 'Ann'));
  const table = await createRaw(a, { game: 'steal-the-pile', players: 2, takeover: { after: 10, bot: 'greedy' } });
  await sit(a, table, 0);
  await sit(b, table, 1);
  await a.waitForFunction(() => document.querySelector('.table-page')?.dataset.myturn === '1');
  await a.locator('#moves-panel > summary').click(); // All your moves: one of them, from the list
  await a.locator('.legal-move').first().click();
  await a.waitForFunction(() => /moved on before your move arrived/.test(document.querySelector('.table-head .error')?.textContent || ''));
  const ply = (await tableData(a)).ply;
  // Ann types for 16 s (more than the 10 s of the takeover), then sends: her seat stays hers.
  const awayOnB = () => b.locator('.seat[data-seat="0"] .badge-away').count();
  for (let i = 0; i < 16; i++) {
    await a.locator('#chat-input').pressSequentially('x', { delay: 0 });
    await sleep(1000);
    assert.equal(await awayOnB(), 0, `Ann typing is away on Bo's page after ${i + 1} s`);
  }
  await a.locator('#chat-send').click();
  assert.equal((await tableData(a)).ply, ply, 'no bot played for Ann while she typed');
  assert.equal((await tableData(a)).myturn, '1');
  assert.equal(await a.locator('#taken-line').isHidden(), true);
  const sum = await (await fetch(`${env.server.url}/api/tables/${table}`)).json();
  assert.equal(sum.seats[0].bot, undefined, 'the seat is not taken over');
  // Silent: taken over, away for Bo; on Ann's page the bot's line, and the late move's line gone
  // with her seat's next move.
  await b.waitForFunction(() => document.querySelector('.seat[data-seat="0"] .badge-away'), null, { timeout: hang(30000) });
  await a.waitForFunction(() => !document.querySelector('#taken-line').hidden, null, { timeout: hang(30000) });
  await a.waitForFunction((p) => Number(document.querySelector('.table-page').dataset.ply) > p, ply);
  assert.equal(await a.locator('.table-head .error').textContent(), '');
  await screenshots(a, 'table-taken-over', { full: false });
  // A tap anywhere: hers again, and the line and Bo's "away" go.
  await a.locator('#turn').click();
  await a.waitForFunction(() => document.querySelector('#taken-line').hidden);
  await b.waitForFunction(() => !document.querySelector('.seat[data-seat="0"] .badge-away'));
  assert.doesNotMatch(await b.locator('.seat[data-seat="0"] .seat-name').textContent(), /away/);
  for (const p of [a, b]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test('a finished game: the rematch offer says no "null", the lobby\'s Finished list calls nobody away, the review\'s players are at the move shown', { timeout: hang(180000) }, async () => {
  const a = await named('Ann'), b = await named('Bo');
  const table = await createRaw(a, { game: 'thief', players: 2, options: { hands: 1 } });
  await sit(a, table, 0);
  await sit(b, table, 1);
  const play = async (p) => {
    for (;;) {
      await p.waitForFunction(() => {
        const t = document.querySelector('.table-page');
        return t.dataset.status === 'over' || (t.dataset.myturn === '1' && !t.dataset.busy);
      }, null, { timeout: hang(60000), polling: 50 });
      if ((await tableData(p)).status === 'over') return;
      await clickMove(p);
    }
  };
  await Promise.all([play(a), play(b)]);
  await a.locator('#rematch-btn').click();
  await a.waitForFunction(() => /You offer a rematch/.test(document.querySelector('#rematch-line').textContent));
  assert.doesNotMatch(await a.locator('#rematch-line').textContent(), /null|undefined/);
  await b.waitForFunction(() => document.querySelector('#rematch-accept'));
  assert.doesNotMatch(await b.locator('#rematch-line').textContent(), /null|undefined/);
  await screenshots(a, 'table-rematch-offered', { full: false });
  for (const p of [a, b]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
  // Nobody is at the table now: the Finished list names them, no "away".
  const l = await newPage(env.browser);
  await l.goto(env.server.url);
  await l.locator('#filter-over').click();
  const item = l.locator(`.table-item[data-table="${table}"]`);
  await item.waitFor();
  assert.doesNotMatch(await item.textContent(), /away/);
  await l.context().close();
  // The review at a middle step: its players' scores are that step's, nobody away.
  const rec = await (await fetch(`${env.server.url}/api/tables/${table}/record`)).text();
  const path = writeTemp(env.tmp, `table-${table}.json`, rec);
  const plies = JSON.parse(rec).moves.length;
  const final = replayView(path, plies).scores;
  let k = Math.floor(plies / 2);
  while (k > 1 && JSON.stringify(replayView(path, k).scores) === JSON.stringify(final)) k--;
  const at = replayView(path, k);
  assert.notDeepEqual(at.scores, final, 'a step whose scores are not the end\'s');
  const r = await newPage(env.browser);
  await r.goto(`${env.server.url}#review=${table}&ply=${k}`);
  await r.waitForFunction((k) => new RegExp(`^Move ${k} of`).test(document.querySelector('#review-where')?.textContent || ''), k);
  await r.waitForFunction((want) => JSON.stringify([...document.querySelectorAll('#seats .seat')].map((s) => Number(s.querySelector('.seat-score')?.textContent)))
    === JSON.stringify(want), at.scores);
  assert.equal(await r.locator('#seats .badge-away, #seats .badge-winner').count(), 0);
  await r.keyboard.press('End');
  await r.waitForFunction((want) => JSON.stringify([...document.querySelectorAll('#seats .seat')].map((s) => Number(s.querySelector('.seat-score')?.textContent)))
    === JSON.stringify(want), final);
  assert.deepEqual(r.errors, []);
  await r.context().close();
});

test('Escape closes Rules in one press after a Hint', { timeout: hang(60000) }, async () => {
  const a = await named('Ann');
  const table = await createRaw(a, { game: 'steal-the-pile', players: 2, seats: ['open', 'greedy'] });
  await sit(a, table, 0);
  await a.waitForFunction(() => document.querySelector('.table-page')?.dataset.myturn === '1');
  await a.locator('#hint-btn').click();
  await a.waitForFunction(() => /^Hint: /.test(document.querySelector('.hint-line').textContent), null, { timeout: hang(20000) });
  await a.locator('#rules-btn').click();
  const rules = a.locator('dialog.rules-dialog');
  await rules.waitFor();
  await a.keyboard.press('Escape');
  await rules.waitFor({ state: 'detached', timeout: hang(2000) });
  assert.deepEqual(a.errors, []);
  await a.context().close();
});

test('a game left in the middle leaves the lobby\'s "being played" after abandoned_after, and says so', { timeout: hang(60000) }, async () => {
  const srv = await startServer({ args: ['--limit', 'abandoned_after=2'] });
  try {
    const a = await named('Ann', DESKTOP, srv.url), b = await named('Bo', DESKTOP, srv.url);
    const table = await createRaw(a, { game: 'thief', players: 2 });
    for (const [p, s] of [[a, 0], [b, 1]]) {
      await p.goto(`${srv.url}#join=${table}&seat=${s}`);
      await p.waitForFunction((s) => document.querySelector('.table-page')?.dataset.seat === String(s), s);
    }
    await a.waitForFunction(() => document.querySelector('.table-page')?.dataset.status === 'playing');
    for (const p of [a, b]) await p.context().close();
    const l = await newPage(env.browser);
    await l.goto(srv.url);
    await l.locator('#filter-playing').click();
    await l.waitForFunction((t) => document.querySelector('.lobby')?.dataset.tables === '0' && !document.querySelector(`.table-item[data-table="${t}"]`), table,
      { timeout: hang(8000) });
    await l.locator('#filter-all').click();
    const item = l.locator(`.table-item[data-table="${table}"]`);
    await item.waitFor();
    assert.match(await item.textContent(), /left unfinished at move 1: nobody at it/);
    assert.deepEqual(l.errors, []);
    await l.context().close();
  } finally {
    await srv.stop();
  }
});

test('others\' moves shown one by one can be skipped, by the button, a tap on the board or S: the rest land at once', { timeout: hang(120000) }, async () => {
  for (const how of ['button', 'tap', 'key']) {
    const a = await newPage(env.browser, how === 'key' ? DESKTOP : PHONE, { motion: 'no-preference' });
    await watchMotion(a);
    await a.goto(env.server.url);
    const table = await createRaw(a, { game: 'steal-the-pile', players: 4, seats: ['open', 'greedy', 'greedy', 'greedy'] });
    await sit(a, table, 0);
    let skipped = 0;
    for (let turn = 0; turn < 10 && skipped < 2; turn++) {
      if (!await waitTurn(a)) break;
      await clickMove(a);
      // While the three bots' moves are shown, one after another: once the server has them all,
      // skip.
      const shown = await a.locator('#skip-btn').waitFor({ state: 'visible', timeout: hang(3000) }).then(() => true, () => false);
      if (!shown) continue;
      for (;;) {
        const sum = await (await fetch(`${env.server.url}/api/tables/${table}`)).json();
        if (sum.status !== 'playing' || sum.to_move === 0) break;
        await sleep(50);
      }
      await sleep(100); // its states on their way to the page
      if (await a.locator('#skip-btn').isHidden()) continue;
      if (turn === 0) await screenshots(a, `table-skip-${how}`, { full: false });
      if (await a.locator('#skip-btn').isHidden()) continue;
      const before = await a.evaluate(() => window.motions.length);
      const was = Number((await tableData(a)).skipped || 0);
      // (the moves may all have been shown meanwhile: then there was nothing to skip, and the
      // next turn tries again)
      if (how === 'button') await a.locator('#skip-btn').click({ timeout: hang(100) }).catch(() => {});
      else if (how === 'tap') await a.locator('.board .zones.centre').click({ position: { x: 2, y: 2 } });
      else await a.keyboard.press('s');
      if (Number((await tableData(a)).skipped || 0) === was) continue;
      await waitTurn(a);
      await a.waitForFunction(() => !document.getAnimations().some((x) => x.playState === 'running'));
      assert.equal(await a.evaluate(() => window.motions.length), before, 'no card set moving after the skip');
      assert.equal(await a.locator('#skip-btn').isHidden(), true);
      skipped++;
    }
    assert.ok(skipped >= 1, `skipped by ${how}`);
    assert.deepEqual(a.errors, []);
    await a.context().close();
  }
});

test('one tap never plays: a card with one move and no target waits for its move\'s button; a pass is a small button', { timeout: hang(120000) }, async () => {
  // Steal the Pile: a card that can only be trailed (no pile to point at) is chosen, not played.
  const a = await named('Ann', PHONE);
  let found = false;
  for (let round = 0; round < 4 && !found; round++) {
    const table = await createRaw(a, { game: 'steal-the-pile', players: 2, seats: ['open', 'greedy'] });
    await sit(a, table, 0);
    for (let turn = 0; turn < 8 && !found; turn++) {
      if (!await waitTurn(a)) break;
      const cards = a.locator('.board .card-btn');
      for (let i = 0; i < await cards.count() && !found; i++) {
        const ply = (await tableData(a)).ply;
        await cards.nth(i).click();
        if (await a.locator('.board .zone-target').count()) {
          await cards.nth(i).click(); // put back
          continue;
        }
        found = true;
        await sleep(300);
        assert.equal((await tableData(a)).ply, ply, 'the tap on the card played nothing');
        const own = a.locator('.board-actions .action.own');
        assert.equal(await own.count(), 1, 'its one move is a button');
        await screenshots(a, 'table-one-move-chosen', { full: false });
        await own.click();
        await a.waitForFunction((p) => document.querySelector('.table-page').dataset.ply !== p, ply);
      }
      if (!found && (await tableData(a)).myturn === '1') await clickMove(a);
    }
  }
  assert.ok(found, 'a card with one move and no target was met');
  // Piles: the pass is smaller than any card to play.
  const table = await createRaw(a, { game: 'piles', players: 4, seats: ['open', 'greedy', 'greedy', 'greedy'] });
  await sit(a, table, 0);
  let compared = false;
  for (let turn = 0; turn < 10 && !compared; turn++) {
    if (!await waitTurn(a)) break;
    const pass = a.locator('.board-actions .action.plain');
    if (await pass.count()) {
      const p = await pass.first().boundingBox();
      const cards = await a.locator('.board .card-btn').evaluateAll((bs) => bs.map((b) => b.getBoundingClientRect()).map((r) => r.width * r.height));
      if (cards.length) {
        assert.ok(p.width * p.height < Math.min(...cards), `the pass (${Math.round(p.width)}x${Math.round(p.height)}) is smaller than every card (${cards.map(Math.round)})`);
        await screenshots(a, 'table-piles-pass', { full: false });
        compared = true;
        break;
      }
    }
    await clickMove(a);
  }
  assert.ok(compared, 'a turn of Piles with a pass and cards to play');
  assert.deepEqual(a.errors, []);
  await a.context().close();
});
