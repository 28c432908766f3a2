// report.js - the charts of a `pilfer analyze --html` report, drawn with Vega-Lite (pinned in
// package.json, copied into the report with this file, so that it opens offline). It reads the
// analyze --json result the report holds (window.PILFER_RESULT) and draws one chart per metric
// into #charts; each chart's container gets data-drawn="yes" once drawn, or data-drawn="error",
// and its Vega view is kept in window.PILFER_VIEWS (the browser test reads the scales from it).
// A figure that cannot vary (the same in every game, or in every run) is not charted: it is
// listed as text in #constants. Counts and rates are drawn from zero; a histogram's bars are as
// wide as the values they hold, their height the share per unit, so that a bar's area is its
// share; long titles are wrapped, never pushing a chart out of its cell.
(function () {
  'use strict';
  const r = window.PILFER_RESULT;
  if (r.metrics) return compare(r);
  const an = r.analysis;
  const pct = (x) => Math.round(1000 * x) / 10;
  const charts = [];
  const constants = [];
  const num = (x) => `${+x.toFixed(2)}`;

  // A histogram of the analysis as bars, each bin [lo, hi] of whole values drawn from lo - 1/2 to
  // hi + 1/2 (its true width), its height the share of `of` per one unit (`per`). With `width`,
  // the bins are regrouped into bins of that width (in shown units), drawn from lo to lo + width.
  // A histogram of one value is not charted: it goes to the constants.
  function histogram(title, h, unit, per, { scale = 1, width = 0, of = 'games' } = {}) {
    if (h.n === 0 || h.min === h.max) {
      constants.push(`${title}: ${h.n ? `${num(h.min * scale)} in every one of the ${h.n} ${of}` : `no ${of}`}`);
      return;
    }
    let bins = h.bins.map(([lo, hi, count]) => ({ lo: lo * scale, hi: hi * scale, x0: lo * scale - 0.5, x1: hi * scale + 0.5, count }));
    if (width) {
      const grouped = new Map();
      for (const { lo, count } of bins) {
        const k = Math.min(Math.floor(lo / width), Math.floor(h.max * scale / width));
        grouped.set(k, (grouped.get(k) || 0) + count);
      }
      bins = [...grouped].map(([k, count]) => ({ lo: k * width, hi: (k + 1) * width, x0: k * width, x1: (k + 1) * width, count }));
    }
    const unequal = new Set(bins.map((b) => b.x1 - b.x0)).size > 1;
    const values = bins.map((b) => ({
      ...b, bin: b.lo === b.hi ? `${num(b.lo)}` : `${num(b.lo)}–${num(b.hi)}`, share: b.count / h.n,
      density: b.count / h.n / (unequal ? b.x1 - b.x0 : 1),
    }));
    const yTitle = unequal ? `share of ${of} per ${per}` : `share of ${of}`;
    return {
      title: wrap(title, 60), description: `mean ${num(h.mean * scale)} [${num(h.ci95[0] * scale)}, ` +
        `${num(h.ci95[1] * scale)}], median ${num(h.median * scale)}`,
      data: { values }, mark: { type: 'rect', stroke: 'white', strokeWidth: 0.5 },
      encoding: {
        x: { field: 'x0', type: 'quantitative', title: wrap(unit, 60), scale: { zero: false, nice: false }, axis: width ? {} : { tickMinStep: 1, format: 'd' } },
        x2: { field: 'x1' },
        y: { field: 'density', type: 'quantitative', axis: { format: unequal ? '.1%' : '%' }, title: wrap(yTitle, 32), scale: { domain: [0, 1.05 * Math.max(...values.map((v) => v.density))] } },
        y2: { datum: 0 },
        tooltip: [{ field: 'bin', title: unit }, { field: 'share', format: '.1%', title: `share of ${of}` }, { field: 'count' }],
      },
    };
  }

  // Rates with their 95% intervals, one bar and one error bar per row; a rule at `fair` if given.
  function rates(title, rows, fair, what = 'win rate') {
    const x = { field: 'label', type: 'nominal', sort: null, title: null, axis: { labelAngle: 0 } };
    const yTitle = wrap(`${what} (95% interval)`, 32);
    const tooltip = [{ field: 'label' }, { field: 'rate', format: '.1%' }, { field: 'lo', format: '.1%' }, { field: 'hi', format: '.1%' }];
    const layers = [
      { mark: 'bar', encoding: { x, tooltip, y: { field: 'rate', type: 'quantitative', axis: { format: '%' }, title: yTitle, scale: span(rows, fair === undefined ? [] : [fair]) } } },
      { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x, y: { field: 'lo', type: 'quantitative', title: yTitle }, y2: { field: 'hi' } } },
    ];
    if (fair !== undefined) layers.push({ mark: { type: 'rule', strokeDash: [4, 4] }, encoding: { y: { datum: fair } } });
    return { title: wrap(title, 60), data: { values: rows }, layer: layers };
  }

  // Each seat's distribution of a figure: its middle 80% (p10 to p90) as a bar, its median as a
  // tick, its mean as a point with its 95% interval; a rule at `at` if given.
  function spread(title, hs, unit, at) {
    const rows = hs.map((h, p) => ({ label: `seat ${p}`, p10: h.p10, p90: h.p90, median: h.median, mean: h.mean, lo: h.ci95[0], hi: h.ci95[1] }));
    if (rows.every((v) => v.p10 === v.p90 && v.lo === v.hi)) {
      constants.push(`${title}: ${rows.map((v) => `${v.label} ${num(v.mean)}`).join(', ')} in every game`);
      return;
    }
    const x = { field: 'label', type: 'nominal', sort: null, title: null, axis: { labelAngle: 0 } };
    const yTitle = wrap(`${unit}: p10 to p90, median, mean (95% interval)`, 32);
    const all = rows.flatMap((v) => [v.p10, v.p90, v.lo, v.hi]).concat(at === undefined ? [] : [at]);
    const domain = [Math.min(0, ...all), Math.max(0, ...all)];
    const tooltip = [{ field: 'label' }, { field: 'p10', format: '.1f' }, { field: 'median', format: '.1f' }, { field: 'p90', format: '.1f' }, { field: 'mean', format: '.2f' }];
    const layers = [
      { mark: { type: 'bar', opacity: 0.35, size: 28 }, encoding: { x, tooltip, y: { field: 'p10', type: 'quantitative', title: yTitle, scale: { domain } }, y2: { field: 'p90' } } },
      { mark: { type: 'tick', thickness: 2, size: 28 }, encoding: { x, y: { field: 'median', type: 'quantitative' } } },
      { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } } },
      { mark: { type: 'point', filled: true }, encoding: { x, y: { field: 'mean', type: 'quantitative' } } },
    ];
    if (at !== undefined) layers.push({ mark: { type: 'rule', strokeDash: [4, 4] }, encoding: { y: { datum: at } } });
    return { title: wrap(title, 60), data: { values: rows }, layer: layers };
  }

  const seats = r.win_rate.map((rate, p) => ({ label: `seat ${p}`, rate, lo: r.win_rate_ci95[p][0], hi: r.win_rate_ci95[p][1] }));
  charts.push(rates(`Win rate by seat (fair share ${pct(1 / r.players)}%)`, seats, 1 / r.players));
  if (r.bots.length > 1)
    charts.push(rates('Win rate by bot', r.bots.map((b) => ({ label: b.bot, rate: b.win_rate, lo: b.win_rate_ci95[0], hi: b.win_rate_ci95[1] }))));
  else
    constants.push(`Win rate by bot: ${r.bots[0].bot} holds every seat (${pct(r.bots[0].win_rate)}% of the games have a winner)`);
  charts.push(histogram('Game length in moves', an.length.moves, 'moves', 'move'));
  charts.push(histogram('Game length in turns', an.length.turns, 'turns', 'turn'));
  charts.push(histogram('Deals per game', an.length.deals, 'deals', 'deal'));
  if (an.length.rounds && an.length.rounds.n) charts.push(histogram('Rounds per game', an.length.rounds, 'rounds', 'round'));
  if (an.seats) {
    charts.push(spread('Final score by seat', an.seats.map((s) => s.score), 'score'));
    charts.push(spread("Each seat's margin: its final standing less the best other seat's", an.seats.map((s) => s.margin), 'margin', 0));
  }
  charts.push(histogram('Lead changes per game', an.tension.lead_changes, 'lead changes', 'lead change'));
  charts.push(histogram('How far behind the winner ever was', an.tension.drama, 'points behind the best', 'point'));
  charts.push(histogram('When the winner took the lead for good (% of the game)', an.tension.lead_for_good, '% of the game', '10%',
    { scale: 100, width: 10 }));
  const tenthAxis = { field: 'tenth', type: 'quantitative', title: '% of the game', scale: { domain: [0, 100] } };
  const tenths = an.tension.winner_lead_by_phase.map((e, k) => ({ tenth: 10 * (k + 1), mean: e.mean, lo: e.ci95[0], hi: e.ci95[1] }));
  charts.push({
    title: wrap("The winner's lead over the best other, over the course of the game", 60), data: { values: tenths },
    layer: [
      { mark: { type: 'area', opacity: 0.25 }, encoding: { x: tenthAxis, y: { field: 'lo', type: 'quantitative', title: wrap('points ahead (95% interval)', 32), scale: span(tenths) }, y2: { field: 'hi' } } },
      { mark: { type: 'line', point: true }, encoding: { x: tenthAxis, y: { field: 'mean', type: 'quantitative' }, tooltip: [{ field: 'tenth' }, { field: 'mean', format: '.2f' }] } },
      { mark: { type: 'rule', strokeDash: [4, 4] }, encoding: { y: { datum: 0 } } },
    ],
  });
  const phases = an.choice.by_phase.map((p, k) => ({ tenth: 10 * (k + 1), legal: p.legal_mean, forced: p.forced_share }));
  charts.push({
    title: wrap('Legal moves offered, and forced moves, by tenth of the game', 60), data: { values: phases },
    encoding: { x: { field: 'tenth', type: 'ordinal', title: '% of the game', axis: { labelAngle: 0 } } },
    layer: [
      { mark: 'bar', encoding: { y: { field: 'legal', type: 'quantitative', title: wrap('legal moves per decision', 32), scale: { zero: true } }, tooltip: [{ field: 'legal', format: '.2f' }] } },
      { mark: { type: 'line', color: '#c0392b', point: true }, encoding: { y: { field: 'forced', type: 'quantitative', axis: { format: '%', titleColor: '#c0392b' }, title: 'forced share', scale: { zero: true } }, tooltip: [{ field: 'forced', format: '.1%' }] } },
    ],
    resolve: { scale: { y: 'independent' } },
  });
  charts.push(histogram('Legal moves per decision', an.choice.legal, 'legal moves', 'legal move', { of: 'decisions' }));
  if (an.deal_share)
    charts.push(rates("How much of a seat's result its deal explains (the same deal across rotations)",
      [{ label: `over ${an.deal_share.deals} deals`, rate: an.deal_share.share, lo: an.deal_share.ci95[0], hi: an.deal_share.ci95[1] }],
      undefined, 'share of the variance'));
  if (an.beats.length)
    charts.push(rates('Skill and luck: how often one bot has more of the win than another', an.beats.map((b) => ({ label: `${b.bot} > ${b.against}`, rate: b.rate, lo: b.ci95[0], hi: b.ci95[1] }))));
  const events = [];
  for (const [name, e] of Object.entries(an.events)) {
    if (e.sd === 0) constants.push(`${name}: ${num(e.mean)} in every game`);
    else events.push({ name, mean: e.mean, lo: e.ci95[0], hi: e.ci95[1] });
  }
  if (events.length) {
    const xTitle = 'mean per game (95% interval)';
    charts.push({
      title: 'The game\u2019s own events, per game', data: { values: events },
      encoding: { y: { field: 'name', type: 'nominal', sort: null, title: null }, tooltip: [{ field: 'name' }, { field: 'mean', format: '.2f' }] },
      layer: [
        { mark: 'bar', encoding: { x: { field: 'mean', type: 'quantitative', title: xTitle, scale: span(events) } } },
        { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x: { field: 'lo', type: 'quantitative', title: xTitle }, x2: { field: 'hi' } } },
      ],
    });
  }

  // What decided the game: each counter's count for the winner less the others' mean, per game.
  const decided = Object.entries(an.events).filter(([, e]) => e.winner_minus_others && e.winner_minus_others.games &&
    e.winner_minus_others.sd > 0).map(([name, e]) => ({ name, mean: e.winner_minus_others.mean, lo: e.winner_minus_others.ci95[0], hi: e.winner_minus_others.ci95[1] }));
  if (decided.length) {
    const xTitle = "the winner's count less the others' mean, per game (95% interval)";
    charts.push({
      title: wrap('What decided the game: the winner against the others', 60), data: { values: decided },
      encoding: { y: { field: 'name', type: 'nominal', sort: null, title: null }, tooltip: [{ field: 'name' }, { field: 'mean', format: '+.2f' }] },
      layer: [
        { mark: 'bar', encoding: { x: { field: 'mean', type: 'quantitative', title: wrap(xTitle, 50), scale: span(decided) } } },
        { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x: { field: 'lo', type: 'quantitative', title: wrap(xTitle, 50) }, x2: { field: 'hi' } } },
        { mark: { type: 'rule', strokeDash: [4, 4] }, encoding: { x: { datum: 0 } } },
      ],
    });
  }

  const opts = Object.entries(r.options).map(([k, v]) => `${k}=${v}`).join(' ');
  document.getElementById('title').textContent = `${r.game}, ${r.players} players: ${r.played} games`;
  document.getElementById('run').textContent = `seats ${r.seats.join(', ')}${r.rotate ? ' (rotated)' : ''}; ` +
    `options ${opts || 'none'}; seed ${r.seed}. Every figure with its 95% interval; pilfer analyze --json has them all.`;
  listConstants('The same in every game (not charted)', constants);
  draw(charts.filter(Boolean));
}());

// Text broken into lines of at most n characters, at spaces (a word longer than n, such as a bot's
// spec, in pieces of n): Vega draws an array as lines, where one long line would widen the chart
// past its cell.
function wrap(text, n) {
  const lines = [];
  const words = String(text).split(' ').flatMap((w) => w.match(new RegExp(`.{1,${n}}`, 'gu')) || ['']);
  for (const word of words) {
    const last = lines.length ? lines[lines.length - 1] : null;
    if (last !== null && last.length + 1 + word.length <= n) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.length === 1 ? lines[0] : lines;
}

// A scale from 0 (or below, for values below it) that holds every interval of rows [{lo, hi}]
// (Vega's own domain of a layered chart cut some intervals' upper ends, y2, off).
// Its ends are set a twentieth of its length beyond the data (0 stays an end when it is one).
function span(rows, more = []) {
  const v = rows.flatMap((r) => [r.lo, r.hi]).concat(more, [0]).filter((x) => Number.isFinite(x));
  const lo = Math.min(...v), hi = Math.max(...v), pad = (hi - lo) / 20 || 1;
  return { domain: [lo < 0 ? lo - pad : 0, hi > 0 ? hi + pad : 0], zero: true };
}

// The figures that are not charted, as a list under a heading in #constants.
function listConstants(heading, items) {
  const box = document.getElementById('constants');
  if (!box || !items.length) return;
  const h = document.createElement('h2');
  h.textContent = heading;
  const ul = document.createElement('ul');
  for (const text of items) {
    const li = document.createElement('li');
    li.textContent = text;
    ul.appendChild(li);
  }
  box.append(h, ul);
  box.hidden = false;
}

// Draws each Vega-Lite spec into a figure of #charts.
function draw(charts) {
  const root = document.getElementById('charts');
  window.PILFER_VIEWS = [];
  charts.forEach((spec, i) => {
    const div = document.createElement('figure');
    div.className = 'chart';
    div.id = `chart-${i}`;
    root.appendChild(div);
    spec.$schema = 'https://vega.github.io/schema/vega-lite/v6.json';
    spec.width = 'container';
    spec.height = 220;
    spec.autosize = { type: 'fit-x', contains: 'padding' };
    spec.config = { axis: { labelLimit: 160, titleLimit: 400 }, title: { limit: 0 } };
    vegaEmbed(div, spec, { actions: false, renderer: 'svg' })
      .then((res) => { window.PILFER_VIEWS[i] = res.view; div.dataset.drawn = 'yes'; })
      .catch((e) => { div.dataset.drawn = 'error'; console.error(`chart ${i}: ${e}`); });
  });
}

// analyze --compare, --skill and --vary --html: a chart per metric, each run's mean with its 95%
// interval, the runs named by their labels (what differs between them). A sweep (--vary) of a
// number draws the metric against it, the values on a true scale joined by a line; otherwise the
// runs side by side, and in the title each run's difference from the first with its interval,
// one a line (on one line, seven runs' differences were wider than the chart). Metrics that are
// the same in every run are listed, not charted; raw win rates are charted only when every run
// has the same players (otherwise each seat's rate less its fair share says what they mean).
function compare(c) {
  const sign = (x) => (x >= 0 ? '+' : '') + x.toFixed(2);
  const labels = c.configs.map((k) => k.label);
  const sweep = c.vary && c.vary.values.every((v) => typeof v === 'number') ? c.vary : null;
  const constants = [];
  const charts = [];
  const step = sweep ? Math.min(...sweep.values.slice(1).map((v, i) => Math.abs(v - sweep.values[i]))) : 0;
  // Every seat's win rate less its fair share in one chart, a colour a seat (a seat that only the
  // runs with more players have is drawn where it exists); in a sweep each seat's points are set
  // a little apart so that their intervals do not hide each other.
  const seatMetrics = c.metrics.filter((m) => m.metric.startsWith('seat:') && !m.constant);
  if (seatMetrics.length) {
    const ns = seatMetrics.length;
    const values = seatMetrics.flatMap((m, p) => m.values.map((v, i) => v && {
      run: labels[i], seat: `seat ${m.metric.slice(5)}`, mean: v.mean, lo: v.ci95[0], hi: v.ci95[1],
      value: sweep ? sweep.values[i] : null, x: sweep ? sweep.values[i] + step * 0.3 * (p - (ns - 1) / 2) / ns : null,
    }).filter(Boolean));
    const color = { field: 'seat', type: 'nominal', sort: seatMetrics.map((m) => `seat ${m.metric.slice(5)}`), title: null, legend: { orient: 'top' } };
    const x = sweep
      ? { field: 'x', type: 'quantitative', title: sweep.key, scale: { zero: false, padding: 12 }, axis: { values: sweep.values, format: 'd' } }
      : { field: 'run', type: 'nominal', sort: labels, title: null, axis: { labelAngle: labels.some((l) => l.length > 12) ? -30 : 0 } };
    const yTitle = wrap('win rate less the fair share, points (95% interval)', 32);
    const enc = (more) => ({ x, color, ...(sweep ? {} : { xOffset: { field: 'seat', sort: color.sort } }), ...more });
    const tooltip = [{ field: 'run' }, { field: 'seat' }, { field: 'mean', format: '.2f' }, { field: 'lo', format: '.2f' }, { field: 'hi', format: '.2f' }];
    const layer = [
      { mark: { type: 'rule', strokeWidth: 2 }, encoding: enc({ y: { field: 'lo', type: 'quantitative', title: yTitle, scale: span(values) }, y2: { field: 'hi' } }) },
      { mark: { type: 'point', filled: true, size: 60 }, encoding: enc({ y: { field: 'mean', type: 'quantitative', title: yTitle }, tooltip }) },
      { mark: { type: 'rule', strokeDash: [4, 4], color: '#555' }, encoding: { y: { datum: 0 } } },
    ];
    if (sweep) layer.push({ mark: { type: 'line', strokeWidth: 1 }, encoding: enc({ y: { field: 'mean', type: 'quantitative' } }) });
    charts.push({ title: { text: wrap('Each seat\u2019s win rate less its fair share (points; 0 is fair)', 60) }, data: { values }, layer });
  }
  for (const m of c.metrics) {
    if (m.metric.startsWith('seat:') && !m.constant) continue;
    if (m.constant) {
      const v = m.values.find(Boolean);
      constants.push(`${m.label}: ${v ? +v.mean.toFixed(3) : '–'} in every run`);
      continue;
    }
    if (m.raw_rate && c.same_players === false) continue;
    const values = m.values.map((v, i) => v && { run: labels[i], value: sweep ? sweep.values[i] : null, mean: v.mean, lo: v.ci95[0], hi: v.ci95[1] })
      .filter(Boolean);
    const ref = m.values.findIndex(Boolean);
    const diffs = sweep ? [] : m.differences.map((d, i) => d && wrap(`${labels[i + 1]} − ${labels[ref]}: ${sign(d.difference)} [${sign(d.ci95[0])}, ${sign(d.ci95[1])}]`, 70))
      .filter(Boolean).flat();
    const x = sweep
      ? { field: 'value', type: 'quantitative', title: sweep.key, scale: { zero: false, padding: 12 }, axis: { values: sweep.values, format: 'd' } }
      : { field: 'run', type: 'nominal', sort: labels, title: null, axis: { labelAngle: labels.some((l) => l.length > 12) ? -30 : 0 } };
    const yTitle = wrap(`${m.label} (95% interval)`, 32);
    const tooltip = [{ field: 'run' }, { field: 'mean', format: '.3f' }, { field: 'lo', format: '.3f' }, { field: 'hi', format: '.3f' }];
    const layer = [
      { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x, y: { field: 'lo', type: 'quantitative', title: yTitle, scale: span(values) }, y2: { field: 'hi' } } },
      { mark: { type: 'point', filled: true, size: 70 }, encoding: { x, y: { field: 'mean', type: 'quantitative', title: yTitle }, tooltip } },
    ];
    if (sweep) layer.push({ mark: { type: 'line', strokeWidth: 1 }, encoding: { x, y: { field: 'mean', type: 'quantitative' } } });
    charts.push({ title: { text: wrap(m.label, 60), subtitle: diffs }, data: { values }, layer });
  }
  document.getElementById('title').textContent = c.vary
    ? `${c.runs[0].game}: every figure against ${c.vary.key} (${c.vary.values.join(', ')})` : c.configs[0].bot !== undefined
      ? `pilfer analyze --skill: ${c.configs.length} bots in seat 0` : `pilfer analyze --compare: ${c.configs.length} runs`;
  const run = document.getElementById('run');
  c.configs.forEach((k, i) => {
    const line = document.createElement('div');
    line.textContent = `${labels[i]}: ${k.run}${k.file !== undefined && k.file !== labels[i] ? ` (${k.file})` : ''}`;
    run.appendChild(line);
  });
  if (c.same_players === false) {
    const line = document.createElement('div');
    line.textContent = 'The runs have different players: win rates are charted less each seat\u2019s (and bot\u2019s) fair share.';
    run.appendChild(line);
  }
  listConstants('The same in every run (not charted)', constants);
  draw(charts);
}
