// report.test.mjs - `pilfer analyze --html`: the report of every game opens offline in Chromium
// (every network request refused) with every chart drawn as SVG marks and no console error; a
// screenshot of each goes to web-artifacts/report-GAME.png. At 1280 px no chart leaves its cell
// or shrinks to a sliver, counts and rates are drawn from zero, a histogram's bars are as wide as
// the values they hold, a figure that cannot vary is listed rather than charted, and --vary's
// report charts every figure against the swept parameter.
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
    await checkLayout(page, { zeroX: ['events'] });
    await screenshot(page, `report-${game}`);
    await page.context().close();
  });
}

// The layout at 1280 px and each chart's scales, read from its Vega view (window.PILFER_VIEWS):
// for every chart its title, whether its SVG or the figure leaves the figure's (or the page's)
// bounds, the texts that reach beyond the figure's sides, its plot's width, and the numeric
// domains of its scales by name.
function layout(page) {
  return page.evaluate(() => {
    const main = document.getElementById('charts').getBoundingClientRect();
    return {
      pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth,
      constants: document.getElementById('constants').textContent,
      charts: [...document.querySelectorAll('figure.chart')].map((fig, i) => {
        const box = fig.getBoundingClientRect(), svg = fig.querySelector('svg').getBoundingClientRect();
        const view = window.PILFER_VIEWS[i];
        const domains = {};
        for (const name of ['x', 'y', 'layer_0_y', 'layer_1_y', 'layer_0_x']) {
          try {
            const d = view.scale(name)?.domain();
            if (d && typeof d[0] === 'number') domains[name] = d;
          } catch { /* no such scale */ }
        }
        // any text of the chart (a title's line, an axis title or label) beyond the figure's sides
        const textOut = [...fig.querySelectorAll('svg text')].filter((t) => {
          const r = t.getBoundingClientRect();
          return r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1);
        }).map((t) => t.textContent);
        return {
          title: [...fig.querySelectorAll('svg .role-title-text')].map((t) => t.textContent).join(' '),
          out: svg.left < box.left - 1 || svg.right > box.right + 1 || box.right > main.right + 1 || box.left < main.left - 1,
          textOut,
          plotWidth: view.width(), domains,
        };
      }),
    };
  });
}

// No chart out of its cell at 1280 px, none a sliver, the page no wider than the window; every
// y scale (or `zeroX`'s x scales, by chart title) that is numeric includes 0. Returns the layout.
async function checkLayout(page, { zeroX = [] } = {}) {
  const l = await layout(page);
  assert.ok(l.pageWidth <= l.viewport, `the page is ${l.pageWidth} px wide at ${l.viewport}`);
  for (const c of l.charts) {
    assert.ok(!c.out, `chart '${c.title}' leaves its cell`);
    assert.deepEqual(c.textOut, [], `chart '${c.title}': text beyond its sides`);
    assert.ok(c.plotWidth >= 200, `chart '${c.title}' is ${c.plotWidth} px wide`);
    for (const [name, d] of Object.entries(c.domains)) {
      if (name.includes('y') || zeroX.some((t) => c.title.includes(t)))
        assert.ok(d[0] <= 0 && d[1] >= 0, `chart '${c.title}': scale ${name} is ${d}, not from 0`);
    }
  }
  return l;
}

// Opens a report offline and waits for every chart; resolves with the page.
async function openReport(file) {
  const page = await newPage(browser);
  await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => [...document.querySelectorAll('figure.chart')].every((f) => f.dataset.drawn), null, { timeout: hang(30000) });
  return page;
}

// Three-player Steal the Pile, greedy against random: every game 48 moves and 48 turns (listed,
// not charted), and how far behind the winner was spreads over bins of 1, 2 and 4 points.
test('a report draws bins at their true widths, from zero, and lists what cannot vary', { timeout: hang(60000) }, async () => {
  const file = join(dir, 'widths.html');
  const run = spawnSync(PILFER, ['analyze', 'steal-the-pile', '-p', '3', '--seat', 'greedy', '--seat', 'random', '--seat', 'random',
    '--games', '300', '--html', file], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const page = await openReport(file);
  assert.deepEqual(page.errors, []);
  const l = await checkLayout(page, { zeroX: ['events'] });
  assert.match(l.constants, /Game length in moves: 48 in every one of the 300 games/);
  assert.match(l.constants, /Deals per game: 1 in every one/);
  assert.ok(!l.charts.some((c) => /Game length in moves|Deals per game/.test(c.title)), l.charts.map((c) => c.title).join('; '));
  assert.match(l.constants, /Rounds per game: 4 in every one/);
  // Every seat's scores and margins are charted, and what the winner did beside the others.
  for (const want of [/Final score by seat/, /Each seat.s margin/, /What decided the game/])
    assert.ok(l.charts.some((c) => want.test(c.title)), `no chart ${want}: ${l.charts.map((c) => c.title).join('; ')}`);
  const seatsShown = await page.evaluate(() => {
    const fig = [...document.querySelectorAll('figure.chart')].find((f) => f.textContent.includes('Final score by seat'));
    return [...fig.querySelectorAll('svg .role-axis-label text')].map((t) => t.textContent).filter((t) => t.startsWith('seat'));
  });
  assert.deepEqual(seatsShown, ['seat 0', 'seat 1', 'seat 2']);
  // The bars of the deficit's histogram against the bins: each bar from lo - 1/2 to hi + 1/2 on
  // the chart's own x scale, bins of different widths among them.
  const bars = await page.evaluate(() => {
    const i = [...document.querySelectorAll('figure.chart')].findIndex((f) => f.textContent.includes('How far behind the winner'));
    const fig = document.querySelectorAll('figure.chart')[i], x = window.PILFER_VIEWS[i].scale('x');
    const drawn = [...fig.querySelectorAll('svg .mark-rect path')].map((p) => {
      const m = /^M(-?[\d.]+),(-?[\d.]+)h(-?[\d.]+)/.exec(p.getAttribute('d'));
      return m && { left: +m[1], width: +m[3] };
    }).filter(Boolean).sort((a, b) => a.left - b.left);
    const bins = window.PILFER_RESULT.analysis.tension.drama.bins;
    return { drawn, want: bins.map(([lo, hi]) => ({ left: x(lo - 0.5), width: x(hi + 0.5) - x(lo - 0.5), values: hi - lo + 1 })) };
  });
  assert.equal(bars.drawn.length, bars.want.length);
  bars.want.forEach((w, k) => {
    assert.ok(Math.abs(bars.drawn[k].width - w.width) < 0.6 && Math.abs(bars.drawn[k].left - w.left) < 0.6,
      `bar ${k}: drawn ${JSON.stringify(bars.drawn[k])}, want ${JSON.stringify(w)}`);
  });
  const widths = bars.want.map((w) => w.values);
  assert.ok(Math.max(...widths) >= 4 && Math.min(...widths) === 1, `bins of ${widths}`);
  await screenshot(page, 'report-widths');
  await page.context().close();
});

// --vary: one page, every figure against the swept stock size on a numeric axis (5 to 15), each
// seat's rate less its fair share in one chart, what cannot vary listed.
test('a --vary report charts every figure against the parameter', { timeout: hang(120000) }, async () => {
  const file = join(dir, 'vary.html');
  const json = spawnSync(PILFER, ['analyze', 'skip-bo-junior', '-p', '3', '--seat', 'greedy', '--games', '200', '--vary', 'stock=5,10,15',
    '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(json.status, 0, json.stderr);
  const sweep = JSON.parse(json.stdout);
  const run = spawnSync(PILFER, ['analyze', 'skip-bo-junior', '-p', '3', '--seat', 'greedy', '--games', '200', '--vary', 'stock=5,10,15',
    '--html', file], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const page = await openReport(file);
  assert.deepEqual(page.errors, []);
  assert.equal(await page.textContent('#title'), 'skip-bo-junior: every figure against stock (5, 10, 15)');
  const l = await checkLayout(page);
  const charted = sweep.metrics.filter((m) => !m.constant && !m.metric.startsWith('seat:'));
  assert.equal(l.charts.length, charted.length + 1, l.charts.map((c) => c.title).join('; '));
  assert.match(l.charts[0].title, /Each seat.s win rate less its fair share/);
  for (const c of l.charts) {
    assert.ok(c.domains.x && c.domains.x[0] <= 5 && c.domains.x[1] >= 15 && c.domains.x[1] < 20, `chart '${c.title}': x ${c.domains.x}`);
  }
  // every run's interval inside its chart's y scale
  charted.forEach((m, k) => {
    const d = l.charts[k + 1].domains.y, his = m.values.map((v) => v.ci95[1]), los = m.values.map((v) => v.ci95[0]);
    assert.ok(d[1] >= Math.max(...his) && d[0] <= Math.min(...los), `chart '${m.label}': y ${d}, intervals ${los} to ${his}`);
  });
  for (const m of sweep.metrics.filter((x) => x.constant)) assert.ok(l.constants.includes(m.label), `${m.label} not listed`);
  assert.match(l.constants, /deals per game: 1 in every run/);
  await screenshot(page, 'report-vary');
  await page.context().close();
});

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
  assert.ok(drawn.length >= 10 && drawn.every((d) => d === 'yes'), `charts: ${drawn}`);
  assert.deepEqual(page.errors, []);
  await checkLayout(page);
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
  assert.match(await page.textContent('#run'), /^police=false: point-a-pile, 3 players.*police=true: point-a-pile/);
  await page.context().close();
});

// A bot spec longer than a chart's width in its titles: wrapped, every chart in its cell.
test('a --skill report draws the gradient offline', { timeout: hang(60000) }, async () => {
  const long = 'ismcts:iters=3,playout=greedy,horizon=game,bias=0,c=0.75,eps=0.01,cutoff=100,clock=cpu';
  const page = await comparisonReport('skill', ['thief', '-p', '2', '--seat', 'greedy', '--games', '30', '--skill', 'random',
    '--skill', 'greedy', '--skill', long]);
  assert.match(await page.textContent('#title'), /--skill: 3 bots in seat 0/);
  assert.ok((await page.textContent('#run')).includes('greedy: thief, 2 players'));
  assert.ok((await page.textContent('#run')).includes(`${long}: thief, 2 players`));
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
