// report.test.mjs - `pilfer analyze --html`: the report of every game opens offline in Chromium
// (every network request refused) with every chart drawn as SVG marks and no console error; a
// screenshot of each goes to web-artifacts/report-GAME.png.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PILFER, launch, newPage, screenshot, startServer, hang } from './lib.mjs';

// Every game of the registry, with its short game's players and options (pilfer games --json:
// "quick"), greedy in seat 0 against random (seats rotated).
const GAMES = JSON.parse(spawnSync(PILFER, ['games', '--json'], { encoding: 'utf8' }).stdout).map((g) => [g.id, [
  '-p', String(g.quick.players), '--seat', 'greedy', ...Array(g.quick.players - 1).fill(['--seat', 'random']).flat(),
  ...Object.entries(g.quick.options || {}).flatMap(([k, v]) => ['-o', `${k}=${v}`]),
]]);
const dir = mkdtempSync(join(tmpdir(), 'pilfer-report-'));
const browser = await launch();
after(async () => { await browser.close(); rmSync(dir, { recursive: true, force: true }); });

for (const [game, flags] of GAMES) {
  test(`the ${game} report draws every chart offline`, { timeout: hang(60000) }, async () => {
    const file = join(dir, `${game}.html`);
    const run = spawnSync(PILFER, ['analyze', game, ...flags, '--games', '48', '--rotate', '--html', file],
      { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const page = await newPage(browser);
    const requests = [];
    await page.route('**/*', (route) => {
      if (route.request().url().startsWith('file:')) return route.continue();
      requests.push(route.request().url());
      return route.abort();
    });
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction(() => {
      const figs = [...document.querySelectorAll('figure.chart')];
      return figs.length > 0 && figs.every((f) => f.dataset.drawn);
    }, null, { timeout: hang(30000) });
    const charts = await page.$$eval('figure.chart', (figs) => figs.map((f) => ({
      drawn: f.dataset.drawn, marks: f.querySelectorAll('svg .mark-rect path, svg .mark-rect, svg .mark-line path, svg .mark-symbol path, svg .mark-area path, svg .mark-rule line').length,
      title: f.querySelector('svg .role-title-text')?.textContent ?? '',
    })));
    assert.ok(charts.length >= 9, `only ${charts.length} charts`);
    for (const c of charts) {
      assert.equal(c.drawn, 'yes', `chart '${c.title}' was not drawn`);
      assert.ok(c.marks > 0, `chart '${c.title}' has no marks`);
    }
    assert.deepEqual(page.errors, []);
    assert.deepEqual(requests, [], 'the report asked the network');
    await screenshot(page, `report-${game}`);
    await page.context().close();
  });
}

// Writes the report of `pilfer analyze ARGS --html NAME.html` and opens it offline: every chart
// drawn (a chart per metric), no error; screenshot report-NAME.png. Resolves with the page.
async function comparisonReport(name, args) {
  const file = join(dir, `${name}.html`);
  const run = spawnSync(PILFER, ['analyze', ...args, '--html', file], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const page = await newPage(browser);
  await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => [...document.querySelectorAll('figure.chart')].every((f) => f.dataset.drawn), null, { timeout: hang(30000) });
  const drawn = await page.$$eval('figure.chart', (figs) => figs.map((f) => f.dataset.drawn));
  assert.ok(drawn.length >= 13 && drawn.every((d) => d === 'yes'), `charts: ${drawn}`);
  assert.deepEqual(page.errors, []);
  await screenshot(page, `report-${name}`);
  return page;
}

test('a comparison report draws a chart per metric offline', { timeout: hang(60000) }, async () => {
  const parts = ['police=false', 'police=true'].map((o) => {
    const file = join(dir, `${o}.json`);
    const run = spawnSync('sh', ['-c', `"${PILFER}" analyze point-a-pile -p 3 --seat greedy --games 30 --json -o ${o} >"${file}"`]);
    assert.equal(run.status, 0, String(run.stderr));
    return file;
  });
  const page = await comparisonReport('compare', ['--compare', ...parts]);
  assert.ok((await page.textContent('#run')).includes('police=true'));
  await page.context().close();
});

test('a --skill report draws the gradient offline', { timeout: hang(60000) }, async () => {
  const page = await comparisonReport('skill', ['thief', '-p', '2', '--seat', 'greedy', '--games', '30', '--skill', 'random',
    '--skill', 'greedy']);
  assert.match(await page.textContent('#title'), /--skill: 2 bots in seat 0/);
  assert.ok((await page.textContent('#run')).includes('#2 greedy: thief, 2 players'));
  await page.context().close();
});

// pilfer serve --reports: the lobby links every game to its report (those written above), and
// the report opens from the server with its charts drawn.
test('the lobby links each game to its report, served by pilfer serve --reports', { timeout: hang(60000) }, async () => {
  const server = await startServer({ args: ['--reports', dir] });
  try {
    const page = await newPage(browser);
    await page.goto(server.url);
    await page.waitForFunction((n) => document.querySelectorAll('a.game-report').length === n, GAMES.length, { timeout: hang(10000) });
    const links = await page.$$eval('a.game-report', (as) => as.map((a) => [a.closest('label').htmlFor, a.getAttribute('href')]));
    assert.deepEqual(links.sort(), GAMES.map(([g]) => [`game-${g}`, `/reports/${g}.html`]).sort());
    const [report] = await Promise.all([page.context().waitForEvent('page'), page.click('label[for="game-thief"] a.game-report')]);
    report.errors = [];
    report.on('pageerror', (e) => report.errors.push(String(e)));
    // a Content-Security-Policy violation is a console error (the report's own policy: sandboxed)
    report.on('console', (m) => { if (m.type() === 'error') report.errors.push(m.text()); });
    await report.waitForFunction(() => {
      const figs = [...document.querySelectorAll('figure.chart')];
      return figs.length > 0 && figs.every((f) => f.dataset.drawn === 'yes');
    }, null, { timeout: hang(30000) });
    assert.deepEqual(report.errors, []);
    assert.deepEqual(page.errors, []);
    await screenshot(page, 'lobby-reports');
    await page.context().close();
  } finally {
    await server.stop();
  }
});
