// shards.test.mjs - the page in front of scripts/cluster --shards 2 (nginx on loopback,
// docs/operations.md, "Shards behind nginx"): two people's pages create a table each from the
// lobby until the tables are on different shards, and a third page's lobby lists both; each
// table page's WebSocket names its table (/ws?table=ID), so nginx sends it to the table's shard,
// and both play; the lobby is killed (kill -9): the third page says its list is not up to date
// while both play on, and lists both once it is back; one shard is killed (kill -9) mid-game: the
// third page's lobby says its tables are not listed now, its page reconnects once the cluster has started it again and plays on
// from where it was, while the other page plays on meanwhile. Skipped without nginx.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, PILFER, launch, newPage, createTable, waitTurn, clickMove, tableData, hang } from './lib.mjs';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => { try { accessSync(p, constants.X_OK); return true; } catch { return false; } });

const portFree = (port) => new Promise((ok) => {
  const s = createServer();
  s.once('error', () => ok(false));
  s.listen(port, '127.0.0.1', () => s.close(() => ok(true)));
});

// A port whose next three are free too: nginx's, the two shards' and the lobby's.
async function fourPorts() {
  for (let i = 0; i < 100; i++) {
    const base = 20000 + Math.floor(Math.random() * 40000);
    if (await portFree(base) && await portFree(base + 1) && await portFree(base + 2) && await portFree(base + 3)) return base;
  }
  throw new Error('no four free ports in a row');
}

async function startCluster() {
  const state = mkdtempSync(join(tmpdir(), 'pilfer-web-cluster-'));
  const port = await fourPorts();
  const proc = spawn(join(ROOT, 'scripts/cluster'), ['--shards', '2', '--listen', `127.0.0.1:${port}`, '--state', state,
    '--pilfer', PILFER, '--web', join(ROOT, 'web'), '--workers', '1', '--helpers', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  proc.stdout.on('data', (d) => { out += d; });
  proc.stderr.on('data', (d) => { err += d; });
  const until = (re, ms) => new Promise((ok, fail) => {
    const timer = setInterval(() => {
      if (re.test(out)) { clearInterval(timer); clearTimeout(t); ok(); }
    }, 50);
    const t = setTimeout(() => { clearInterval(timer); fail(new Error(`cluster: no ${re} in: ${out} ${err}`)); }, ms);
  });
  await until(/listening on http/, hang(20000));
  return {
    url: `http://127.0.0.1:${port}/`,
    pid: (i) => Number(readFileSync(join(state, i === 'lobby' ? 'lobby.pid' : `shard-${i}.pid`), 'utf8')),
    until,
    hold: (on) => proc.kill(on ? 'SIGSTOP' : 'SIGCONT'),
    async stop() {
      proc.kill('SIGCONT'); // if a check failed while it was held
      proc.kill('SIGTERM');
      await new Promise((ok) => proc.on('exit', ok));
      rmSync(state, { recursive: true, force: true });
      assert.equal(proc.exitCode, 0, `cluster: ${out} ${err}`);
    },
  };
}

const plies = (page) => tableData(page).then((d) => Number(d.ply ?? -1));

test('two pages play a table on each shard through nginx; a shard killed mid-game comes back under its page', { skip: NGINX ? false : 'nginx is not installed (scripts/deps installs it)', timeout: hang(240000) }, async () => {
  const cluster = await startCluster();
  const browser = await launch();
  try {
    const sockets = new Map(); // page -> the WebSocket addresses it opened
    const person = async () => {
      const p = await newPage(browser);
      sockets.set(p, []);
      p.on('websocket', (ws) => sockets.get(p).push(ws.url()));
      return p;
    };
    const spec = { game: 'thief', players: 2, options: { hands: 1 }, seats: ['you', 'random'] };
    const a = await person();
    const ta = await createTable(a, cluster.url, spec);
    let b, tb;
    for (let i = 0; i < 6 && !(tb % 100 !== ta % 100 && tb); i++) {
      b ??= await person();
      tb = await createTable(b, cluster.url, spec);
    }
    assert.ok([1, 2].includes(ta % 100) && [1, 2].includes(tb % 100) && ta % 100 !== tb % 100,
      `the two tables are on different shards: ${ta}, ${tb}`);
    for (const [p, t] of [[a, ta], [b, tb]])
      assert.ok(sockets.get(p).some((u) => u.endsWith(`/ws?table=${t}`)), `the page of table ${t} names it: ${sockets.get(p)}`);

    // A third page's lobby (the lobby's /ws, names no table) lists both, one from each shard.
    const c = await newPage(browser);
    await c.goto(cluster.url);
    await c.locator('#filter-all').click();
    await c.waitForSelector(`li.table-item[data-table="${ta}"]`, { timeout: hang(20000) });
    await c.waitForSelector(`li.table-item[data-table="${tb}"]`, { timeout: hang(20000) });

    // Both play a few moves.
    for (const p of [a, b]) for (let k = 0; k < 2 && await waitTurn(p); k++) await clickMove(p);
    const shardB = tb % 100;
    let before = await plies(b);
    assert.ok(before > 0, `table ${tb} was played: ply ${before}`);

    // kill -9 of the lobby, the cluster held meanwhile so that it stays down: c's list says it is
    // not up to date, a and b play on; started again, c lists both tables again.
    const notUpToDate = () => document.getElementById('tables-msg')?.textContent.includes('not up to date');
    cluster.hold(true);
    process.kill(cluster.pid('lobby'), 'SIGKILL');
    await c.waitForFunction(notUpToDate, null, { timeout: hang(20000) });
    for (const p of [a, b]) {
      const was = await plies(p);
      if (await waitTurn(p)) {
        await clickMove(p);
        assert.ok(await plies(p) > was, 'a table plays on while the lobby is down');
      }
    }
    cluster.hold(false);
    await cluster.until(/the lobby is back/, hang(20000));
    await c.waitForFunction(() => /^\d+ tables?$/.test(document.getElementById('tables-msg')?.textContent || ''), null, { timeout: hang(30000) });
    for (const t of [ta, tb]) await c.waitForSelector(`li.table-item[data-table="${t}"]`, { timeout: hang(20000) });
    before = await plies(b);

    // kill -9 of b's shard, the cluster held meanwhile (SIGSTOP) so that it stays down: a plays on,
    // c's lobby says that shard's tables are not listed now; the cluster goes on and starts it
    // again; b reconnects and plays on, and c lists b's table again.
    cluster.hold(true);
    process.kill(cluster.pid(shardB), 'SIGKILL');
    const aBefore = await plies(a);
    if (await waitTurn(a)) await clickMove(a);
    assert.ok(await plies(a) > aBefore || (await tableData(a)).status === 'over', 'the other shard\'s table plays on');
    await c.waitForFunction((s) => document.getElementById('tables-msg')?.textContent.includes(`the tables of shard ${s}, which is not answering`),
      shardB, { timeout: hang(20000) });
    assert.equal(await c.locator(`li.table-item[data-table="${tb}"]`).count(), 0, 'the lobby leaves out the tables of the shard that is down');
    assert.equal(await c.locator(`li.table-item[data-table="${ta}"]`).count(), 1, 'and lists the other shard\'s');
    cluster.hold(false);
    await cluster.until(new RegExp(`shard ${shardB} is back`), hang(20000));
    await b.waitForFunction(() => document.getElementById('conn-status')?.textContent === '', null, { timeout: hang(20000) });
    assert.ok(await plies(b) >= before, `table ${tb} came back with its moves (ply ${await plies(b)} >= ${before})`);
    if (await waitTurn(b)) {
      await clickMove(b);
      assert.ok(await plies(b) > before, 'b plays on after its shard came back');
    }
    assert.ok(sockets.get(b).filter((u) => u.endsWith(`/ws?table=${tb}`)).length >= 2, `b reconnected: ${sockets.get(b)}`);
    await c.waitForSelector(`li.table-item[data-table="${tb}"]`, { timeout: hang(20000) });
    assert.ok(!(await c.locator('#tables-msg').textContent()).includes('not answering'), 'c lists every shard again');
    // The browser says so when an upgrade fails while the shard is down (nginx answers 502).
    for (const p of [a, b, c]) assert.deepEqual(p.errors.filter((e) => !/WebSocket connection to .* failed|502/.test(e)), [], 'no page error');
  } finally {
    await browser.close();
    await cluster.stop();
  }
});
