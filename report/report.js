// report.js - the charts of a `pilfer analyze --html` report, drawn with Vega-Lite (pinned in
// package.json, copied into the report with this file, so that it opens offline). It reads the
// analyze --json result the report holds (window.PILFER_RESULT) and draws one chart per metric
// into #charts; each chart's container gets data-drawn="yes" once drawn, or data-drawn="error".
(function () {
  'use strict';
  const r = window.PILFER_RESULT;
  if (r.metrics) return compare(r);
  const an = r.analysis;
  const pct = (x) => Math.round(1000 * x) / 10;
  const charts = [];

  // A histogram of the analysis as bars: each bin's share of the games.
  // With `width`, the bins are regrouped into bins of that width (in shown units).
  function histogram(title, h, unit, { scale = 1, width = 0, of = 'games' } = {}) {
    let bins = h.bins.map(([lo, hi, count]) => [lo * scale, hi * scale, count]);
    if (width) {
      const grouped = new Map();
      for (const [lo, , count] of bins) {
        const k = Math.min(Math.floor(lo / width), Math.floor(h.max * scale / width));
        grouped.set(k, (grouped.get(k) || 0) + count);
      }
      bins = [...grouped].map(([k, count]) => [k * width, (k + 1) * width, count]);
    }
    const values = bins.map(([lo, hi, count]) => ({
      bin: lo === hi ? `${+lo.toFixed(1)}` : `${+lo.toFixed(1)}–${+hi.toFixed(1)}`, lo, share: count / h.n,
    }));
    return {
      title, description: `mean ${(h.mean * scale).toFixed(2)} [${(h.ci95[0] * scale).toFixed(2)}, ` +
        `${(h.ci95[1] * scale).toFixed(2)}], median ${(h.median * scale).toFixed(1)}`,
      data: { values }, mark: 'bar',
      encoding: {
        x: { field: 'bin', type: 'ordinal', sort: { field: 'lo' }, title: unit },
        y: { field: 'share', type: 'quantitative', axis: { format: '%' }, title: `share of ${of}` },
        tooltip: [{ field: 'bin', title: unit }, { field: 'share', format: '.1%' }],
      },
    };
  }

  // Rates with their 95% intervals, one bar and one error bar per row; a rule at `fair` if given.
  function rates(title, rows, fair) {
    const x = { field: 'label', type: 'nominal', sort: null, title: null, axis: { labelAngle: 0 } };
    const tooltip = [{ field: 'label' }, { field: 'rate', format: '.1%' }, { field: 'lo', format: '.1%' }, { field: 'hi', format: '.1%' }];
    const layers = [
      { mark: 'bar', encoding: { x, tooltip, y: { field: 'rate', type: 'quantitative', axis: { format: '%' }, title: 'win rate (95% interval)' } } },
      { mark: { type: 'errorbar', thickness: 2 }, encoding: { x, y: { field: 'lo', type: 'quantitative', title: 'win rate (95% interval)' }, y2: { field: 'hi' } } },
    ];
    if (fair !== undefined) layers.push({ mark: { type: 'rule', strokeDash: [4, 4] }, encoding: { y: { datum: fair } } });
    return { title, data: { values: rows }, layer: layers };
  }

  const seats = r.win_rate.map((rate, p) => ({ label: `seat ${p}`, rate, lo: r.win_rate_ci95[p][0], hi: r.win_rate_ci95[p][1] }));
  charts.push(rates(`Win rate by seat (fair share ${pct(1 / r.players)}%)`, seats, 1 / r.players));
  charts.push(rates('Win rate by bot', r.bots.map((b) => ({ label: b.bot, rate: b.win_rate, lo: b.win_rate_ci95[0], hi: b.win_rate_ci95[1] }))));
  charts.push(histogram('Game length in moves', an.length.moves, 'moves'));
  charts.push(histogram('Game length in turns', an.length.turns, 'turns'));
  if (an.length.deals.max > 1) charts.push(histogram('Deals per game', an.length.deals, 'deals'));
  charts.push(histogram('Lead changes per game', an.tension.lead_changes, 'lead changes'));
  charts.push(histogram("How far behind the winner ever was", an.tension.drama, 'points behind the best'));
  charts.push(histogram('When the winner took the lead for good (% of the game)', an.tension.lead_for_good, '% of the game', { scale: 100, width: 10 }));
  const tenthAxis = { field: 'tenth', type: 'quantitative', title: '% of the game', scale: { domain: [0, 100] } };
  const tenths = an.tension.winner_lead_by_phase.map((e, k) => ({ tenth: 10 * (k + 1), mean: e.mean, lo: e.ci95[0], hi: e.ci95[1] }));
  charts.push({
    title: "The winner's lead over the best other, over the course of the game", data: { values: tenths },
    layer: [
      { mark: { type: 'area', opacity: 0.25 }, encoding: { x: tenthAxis, y: { field: 'lo', type: 'quantitative', title: 'points (95% interval)' }, y2: { field: 'hi' } } },
      { mark: { type: 'line', point: true }, encoding: { x: tenthAxis, y: { field: 'mean', type: 'quantitative' }, tooltip: [{ field: 'tenth' }, { field: 'mean', format: '.2f' }] } },
      { mark: { type: 'rule', strokeDash: [4, 4] }, encoding: { y: { datum: 0 } } },
    ],
  });
  const phases = an.choice.by_phase.map((p, k) => ({ tenth: 10 * (k + 1), legal: p.legal_mean, forced: p.forced_share }));
  charts.push({
    title: 'Legal moves offered, and forced moves, by tenth of the game', data: { values: phases },
    encoding: { x: { field: 'tenth', type: 'ordinal', title: '% of the game' } },
    layer: [
      { mark: 'bar', encoding: { y: { field: 'legal', type: 'quantitative', title: 'legal moves per decision' }, tooltip: [{ field: 'legal', format: '.2f' }] } },
      { mark: { type: 'line', color: '#c0392b', point: true }, encoding: { y: { field: 'forced', type: 'quantitative', axis: { format: '%' }, title: 'forced share' }, tooltip: [{ field: 'forced', format: '.1%' }] } },
    ],
    resolve: { scale: { y: 'independent' } },
  });
  charts.push(histogram('Legal moves per decision', an.choice.legal, 'legal moves', { of: 'decisions' }));
  if (an.beats.length)
    charts.push(rates('Skill and luck: how often one bot has more of the win than another', an.beats.map((b) => ({ label: `${b.bot} > ${b.against}`, rate: b.rate, lo: b.ci95[0], hi: b.ci95[1] }))));
  const events = Object.entries(an.events).map(([name, e]) => ({ name, mean: e.mean, lo: e.ci95[0], hi: e.ci95[1] }));
  if (events.length)
    charts.push({
      title: 'The game\u2019s own events, per game', data: { values: events },
      encoding: { y: { field: 'name', type: 'nominal', sort: null, title: null }, tooltip: [{ field: 'name' }, { field: 'mean', format: '.2f' }] },
      layer: [
        { mark: 'bar', encoding: { x: { field: 'mean', type: 'quantitative', title: 'mean per game (95% interval)' } } },
        { mark: { type: 'errorbar', thickness: 2 }, encoding: { x: { field: 'lo', type: 'quantitative', title: 'mean per game (95% interval)' }, x2: { field: 'hi' } } },
      ],
    });

  const opts = Object.entries(r.options).map(([k, v]) => `${k}=${v}`).join(' ');
  document.getElementById('title').textContent = `${r.game}, ${r.players} players: ${r.played} games`;
  document.getElementById('run').textContent = `seats ${r.seats.join(', ')}${r.rotate ? ' (rotated)' : ''}; ` +
    `options ${opts || 'none'}; seed ${r.seed}. Every figure with its 95% interval; pilfer analyze --json has them all.`;
  draw(charts);
}());

// Draws each Vega-Lite spec into a figure of #charts.
function draw(charts) {
  const root = document.getElementById('charts');
  charts.forEach((spec, i) => {
    const div = document.createElement('figure');
    div.className = 'chart';
    div.id = `chart-${i}`;
    root.appendChild(div);
    spec.$schema = 'https://vega.github.io/schema/vega-lite/v6.json';
    spec.width = 'container';
    spec.height = 220;
    vegaEmbed(div, spec, { actions: false, renderer: 'svg' })
      .then(() => { div.dataset.drawn = 'yes'; })
      .catch((e) => { div.dataset.drawn = 'error'; console.error(`chart ${i}: ${e}`); });
  });
}

// analyze --compare --html: a chart per metric, each result's mean with its 95% interval, and in
// the title every result's difference from the first with its interval, one a line (on one line,
// seven runs' differences were wider than the chart, and Vega shrank the plot to a sliver).
function compare(c) {
  const sign = (x) => (x >= 0 ? '+' : '') + x.toFixed(2);
  const charts = c.metrics.map((m) => {
    const values = m.values.map((v, i) => v && { run: `#${i + 1}`, mean: v.mean, lo: v.ci95[0], hi: v.ci95[1] }).filter(Boolean);
    const diffs = m.differences.map((d, i) => d && `#${i + 2} − #1: ${sign(d.difference)} [${sign(d.ci95[0])}, ${sign(d.ci95[1])}]`)
      .filter(Boolean);
    const x = { field: 'run', type: 'nominal', sort: null, title: null, axis: { labelAngle: 0 } };
    return {
      title: { text: m.label, subtitle: diffs }, data: { values },
      layer: [
        { mark: { type: 'point', filled: true, size: 80 }, encoding: { x, y: { field: 'mean', type: 'quantitative', title: `${m.label} (95% interval)`, scale: { zero: false } }, tooltip: [{ field: 'run' }, { field: 'mean', format: '.3f' }] } },
        { mark: { type: 'errorbar', thickness: 2 }, encoding: { x, y: { field: 'lo', type: 'quantitative', title: `${m.label} (95% interval)` }, y2: { field: 'hi' } } },
      ],
    };
  });
  document.getElementById('title').textContent = c.configs[0].bot !== undefined
    ? `pilfer analyze --skill: ${c.configs.length} bots in seat 0` : `pilfer analyze --compare: ${c.configs.length} runs`;
  const run = document.getElementById('run');
  c.configs.forEach((k, i) => {
    const line = document.createElement('div');
    line.textContent = `#${i + 1} ${k.file ?? k.bot}: ${k.run}`;
    run.appendChild(line);
  });
  draw(charts);
}
