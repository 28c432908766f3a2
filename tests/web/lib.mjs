// lib.mjs - what the browser tests share: a real `pilfer serve` on 127.0.0.1 (port 0, its own
// temporary database), Debian's chromium driven by playwright-core, and the moves a person makes
// on the page, by clicking.
//
// Environment: PILFER_BIN (the pilfer executable; default build/pilfer), PILFER_WEB_ARTIFACTS (where
// screenshots go; default build/web-artifacts), CHROMIUM (default /usr/bin/chromium).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(here, '../..');
export const PILFER = process.env.PILFER_BIN || join(ROOT, 'build/pilfer');
export const ARTIFACTS = process.env.PILFER_WEB_ARTIFACTS || join(ROOT, 'build/web-artifacts');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// Every wall-clock limit here is a hang guard: hang(ms) is ms, what the wait takes at most on a quiet
// machine, times PILFER_TEST_HANG (10 by default), so that a busy machine (load 15 on 2 cores, or
// the sanitizers) is slow but never fails for it; only a test that hangs meets a limit.
export const HANG = Number(process.env.PILFER_TEST_HANG) || 10;
export const hang = (ms) => ms * HANG;

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

// Starts `pilfer serve` on a free port with a fresh database; resolves with {url, port, dir,
// stop()}. With {dir, port}: on that port with the database of that folder (a restart); args:
// more arguments of pilfer serve.
export async function startServer({ dir = null, port = 0, args = [] } = {}) {
  dir ??= mkdtempSync(join(tmpdir(), 'pilfer-web-'));
  const proc = spawn(PILFER, ['serve', '--listen', `127.0.0.1:${port}`, '--db', join(dir, 'test.db'), '--web', join(ROOT, 'web'), ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  proc.on('exit', (code, signal) => {
    if (!proc.stopping) process.stderr.write(`pilfer serve died (exit ${code}, signal ${signal}): ${err}\n`);
  });
  const url = await new Promise((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`pilfer serve printed no URL: ${out} ${err}`)), hang(10000));
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    proc.on('exit', (code) => fail(new Error(`pilfer serve exited (${code}): ${err}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    dir,
    stderr: () => err,
    // Stops the server; throws if it did not stop cleanly or its stderr shows a sanitizer's report.
    async stop({ keep = false } = {}) {
      proc.stopping = true;
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        await new Promise((ok) => proc.on('exit', ok));
      }
      if (!keep) rmSync(dir, { recursive: true, force: true });
      if (proc.exitCode !== 0 || /Sanitizer|runtime error/.test(err))
        throw new Error(`pilfer serve ended with status ${proc.exitCode} (signal ${proc.signalCode}): ${err}`);
    },
  };
}

export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

// A new page in its own context (its own localStorage: another person), failing the test on a
// page error. Cards travel only with {motion: 'no-preference'}: the other tests see every state
// drawn at once (prefers-reduced-motion), as a person who asked for no motion does.
export async function newPage(browser, viewport = DESKTOP, { motion = 'reduce' } = {}) {
  const ctx = await browser.newContext({ viewport, reducedMotion: motion });
  const page = await ctx.newPage();
  page.setDefaultTimeout(hang(30000)); // playwright's own default, 30 s, as a hang guard
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  return page;
}

export async function screenshot(page, name, { full = true } = {}) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await settled(page); // cards at rest: no motion half played
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: full });
}

// Both widths: desktop, then phone, then back. {full: false}: only what the screen shows (the
// docked hand where a person sees it), not the whole page.
export async function screenshots(page, name, opts = {}) {
  await page.setViewportSize(DESKTOP);
  await screenshot(page, `${name}-desktop`, opts);
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(100);
  await screenshot(page, `${name}-phone`, opts);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  await page.setViewportSize(DESKTOP);
  return wide; // the page's width at phone size: more than 390 means sideways scrolling
}

// Records in the page every card set moving (window.motions: {from, to, fromSeat, start, end,
// source, target}, rectangles as {x, y, w, h}): where the element showed on the first frame of
// its animation and where it came to rest, and the rectangles of the zone it left (while it is
// still drawn) and of the zone it went to. Call before the page is opened.
export async function watchMotion(page) {
  await page.addInitScript(() => {
    window.motions = [];
    // The least the page could be scrolled since the last reset (it got shorter on the way).
    window.leastScroll = Infinity;
    const sample = () => {
      window.leastScroll = Math.min(window.leastScroll, document.documentElement.scrollHeight - innerHeight);
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
    // What scrolled the page, for a failing test's message: each scroll with the calls that may
    // have caused it (window.scrollLog, the last 40).
    window.scrollLog = [];
    const note = (what) => {
      window.scrollLog.push(`${Math.round(performance.now())} ${what} y=${scrollY} h=${document.documentElement.scrollHeight}`);
      if (window.scrollLog.length > 40) window.scrollLog.shift();
    };
    addEventListener('scroll', () => note('scroll'));
    const wrap = (proto, name, label) => {
      const f = proto[name];
      proto[name] = function (...args) {
        const y = scrollY;
        const r = f.apply(this, args);
        if (scrollY !== y) note(`${label}(${this.className || this.tagName || ''}) from ${y}`);
        return r;
      };
    };
    wrap(HTMLElement.prototype, 'focus', 'focus');
    wrap(Element.prototype, 'scrollIntoView', 'scrollIntoView');
    wrap(HTMLDialogElement.prototype, 'showModal', 'showModal');
    wrap(HTMLDialogElement.prototype, 'close', 'close');
    wrap(window, 'scrollBy', 'scrollBy');
    wrap(window, 'scrollTo', 'scrollTo');
    const box = (r) => r && { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (...args) {
      const a = animate.apply(this, args);
      const zone = this.closest('.zone');
      if (!zone || !this.dataset.movingFrom && !this.classList.contains('moving')) return a;
      const from = this.dataset.movingFrom;
      const src = document.querySelector(`.zone[data-zone="${CSS.escape(from)}"]`);
      const rec = {
        from, to: zone.dataset.zone, fromSeat: src?.closest('.seat-area')?.dataset.seat ?? null,
        source: box(src?.querySelector('.zone-cards')?.getBoundingClientRect()), start: box(this.getBoundingClientRect()),
      };
      window.motions.push(rec);
      a.finished.then(() => {
        rec.end = box(this.getBoundingClientRect());
        rec.target = box(zone.getBoundingClientRect());
      }, () => {});
      return a;
    };
  });
}

// Where the viewer's own seat (its hand: the dock) is on the screen, and how far the page is
// scrolled; whether the game is over and where its result's top is, read in the same moment.
export function mineOnScreen(page) {
  return page.evaluate(() => {
    const r = document.querySelector('.board .seat-area.mine')?.getBoundingClientRect();
    return r && { top: r.top, bottom: r.bottom, height: innerHeight, scrollY, maxScroll: Math.min(window.leastScroll ?? Infinity, document.documentElement.scrollHeight - innerHeight),
      scrolled: document.querySelector('.board')?.dataset.scrolled, log: window.scrollLog,
      over: document.querySelector('.table-page')?.dataset.status === 'over',
      result: document.querySelector('#result:not([hidden])')?.getBoundingClientRect().top };
  });
}

// The zones the last moves touched (outlined) that are not wholly on the screen between what
// covers its top (the review's controls) and the docked hand, as "zone at top-bottom": what a
// person would not see without scrolling.
export function lastMovesHidden(page) {
  return page.evaluate(() => {
    const dock = document.querySelector('.board .dock');
    const d = dock?.getBoundingClientRect();
    const bottom = d && d.height ? d.top : innerHeight;
    const top = Math.max(0, document.querySelector('#review:not([hidden])')?.getBoundingClientRect().bottom || 0);
    return [...document.querySelectorAll('.board .zone.last-move')].filter((z) => !dock?.contains(z))
      .map((z) => [z.dataset.zone, z.getBoundingClientRect()]).filter(([, r]) => r.top < top - 1 || r.bottom > bottom + 1)
      .map(([id, r]) => `${id} at ${Math.round(r.top)}-${Math.round(r.bottom)} (the screen from ${Math.round(top)}, the dock at ${Math.round(bottom)})`);
  });
}

// The cards drawn beyond the sides of their seat's area or of the middle (a fan that spills over
// its neighbours), as "zone card"; a row that scrolls sideways (Point-a-Pile's cards in the dock)
// keeps its cards in it.
export function cardsSpilling(page) {
  return page.evaluate(() => [...document.querySelectorAll('.board .card')].filter((c) => {
    const row = c.closest('.zone-cards');
    if (row && ['auto', 'scroll'].includes(getComputedStyle(row).overflowX)) return false;
    const box = c.closest('.seat-area, .zones.centre')?.getBoundingClientRect(), b = c.getBoundingClientRect();
    return box && (b.left < box.left - 1 || b.right > box.right + 1);
  }).map((c) => `${c.closest('.zone')?.dataset.zone} ${c.dataset.card ?? ''}`));
}

// The card buttons on the screen whose middle another card covers (a person's click there picks
// the card on top), as "zone card".
export function cardsCovered(page) {
  return page.evaluate(() => [...document.querySelectorAll('.board .card-btn')].filter((b) => {
    const r = b.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
    const top = document.elementFromPoint(x, y);
    return top && top.closest('.card') && top.closest('.card-btn') !== b;
  }).map((b) => `${b.dataset.zone} ${b.dataset.card}`));
}

// Resolves once no animation is running (cards at rest).
export function settled(page) {
  return page.waitForFunction(() => !document.getAnimations().some((a) => a.playState === 'running'), null, { timeout: 5000 }).catch(() => {});
}

// ---- the lobby ----

// Fills the lobby's form and creates the table; resolves with the table's number once the table
// page shows. seats: 'you', 'open' or a bot spec for each seat.
export async function createTable(page, url, { game, players, options = {}, seats }) {
  await page.goto(url);
  await page.locator(`#game-${game}`).check();
  if (players !== undefined && await page.locator('#players').isEnabled()) await page.locator('#players').fill(String(players));
  await page.locator('#players').dispatchEvent('change');
  for (const [k, v] of Object.entries(options)) {
    const input = page.locator(`#opt-${k}`);
    if (typeof v === 'boolean') await input.setChecked(v);
    else await input.fill(String(v));
  }
  for (let s = 0; s < seats.length; s++) await page.locator(`#seat-${s}`).selectOption(seats[s]);
  await page.locator('#create').click();
  await page.waitForSelector('.table-page');
  await page.waitForFunction(() => document.querySelector('.table-page')?.dataset.states > 0);
  return Number(/(?:play|watch|join)=(\d+)/.exec(page.url())[1]);
}

// ---- the table page ----

export function tableData(page) {
  return page.evaluate(() => ({ ...document.querySelector('.table-page')?.dataset }));
}

// Waits until this page's seat is asked (true) or the game is over (false).
export async function waitTurn(page, timeout = hang(60000)) {
  await page.waitForFunction(() => {
    const t = document.querySelector('.table-page');
    return t && (t.dataset.status === 'over' || (t.dataset.myturn === '1' && !t.dataset.busy));
  }, null, { timeout, polling: 50 });
  return (await tableData(page)).status !== 'over';
}

// Makes one move by clicking, as a person would: a card then where it goes when the board offers
// zones, or a target there (stats.zones counts those, stats.drag the cards dragged), else a button
// of the board (stats.button: a pass), and the list of legal moves as a last resort (stats.list). `pick` chooses among the candidates (default: at
// random, from the page's seeded generator). Resolves once the server has answered with a state.
// With {still: true} the clicks are dispatched where the elements are, without scrolling to them
// first, so that any scroll is the page's own.
export async function clickMove(page, stats = {}, pick = null, { drag = false, still = false } = {}) {
  const before = Number((await tableData(page)).states);
  const choose = async (loc) => {
    const n = await loc.count();
    if (!n) return false;
    const i = pick ? pick(n) : Math.floor(Math.random() * n);
    if (still) await loc.nth(i).dispatchEvent('click', { detail: 1 });
    else await loc.nth(i).click();
    return true;
  };
  const board = page.locator('.board-area');
  let how = 'list';
  if (drag && await board.locator('.card-btn').count()) {
    // Drag a card onto a zone it may go to: the targets show once the drag starts, so the card
    // is picked first to learn them, put back, and dragged.
    const cards = board.locator('.card-btn');
    const i = pick ? pick(await cards.count()) : Math.floor(Math.random() * await cards.count());
    const card = cards.nth(i);
    await card.click();
    const targets = board.locator('.zone.target');
    const n = await targets.count();
    if (n) {
      const zone = await targets.nth(pick ? pick(n) : Math.floor(Math.random() * n)).getAttribute('data-zone');
      await card.click(); // put back
      await board.locator(`.card-btn >> nth=${i}`).dragTo(board.locator(`.zone[data-zone="${zone}"]`));
      if (await page.locator('dialog.choice-dialog .choice').count()) await choose(page.locator('dialog.choice-dialog .choice'));
      how = 'drag';
    } else {
      if (await board.locator('.board-actions .action').count()) await choose(board.locator('.board-actions .action'));
      how = 'zones';
    }
  } else if (await board.locator('.card-btn').count()) {
    await choose(board.locator('.card-btn'));
    if (still) await page.waitForTimeout(30);
    // stats.hidden: where the chosen card may go that was not on the screen above the docked hand.
    // stats.chosenScroll: where the page was then (choosing a card may scroll to its targets).
    if (stats.hidden) stats.chosenScroll = await page.evaluate(() => scrollY);
    if (stats.hidden) stats.hidden.push(...await page.evaluate(() => {
      const dock = document.querySelector('.board .dock')?.getBoundingClientRect();
      const bottom = dock && dock.height ? dock.top : innerHeight;
      return [...document.querySelectorAll('.board .zone.target')].filter((z) => !z.closest('.dock'))
        .map((z) => [z.dataset.zone, z.getBoundingClientRect()]).filter(([, r]) => r.top < -1 || r.bottom > bottom + 1)
        .map(([id, r]) => `${id} at ${Math.round(r.top)}-${Math.round(r.bottom)} (the dock at ${Math.round(bottom)})`);
    }));
    // then a target, a button for the card, or a choice
    if (await page.locator('dialog.choice-dialog .choice').count()) await choose(page.locator('dialog.choice-dialog .choice'));
    else if (await board.locator('.zone-target').count()) await choose(board.locator('.zone-target'));
    else if (await board.locator('.board-actions .action').count()) await choose(board.locator('.board-actions .action'));
    if (await page.locator('dialog.choice-dialog .choice').count()) await choose(page.locator('dialog.choice-dialog .choice'));
    how = 'zones';
  } else if (await board.locator('.zone-target').count()) {
    await choose(board.locator('.zone-target'));
    if (await page.locator('dialog.choice-dialog .choice').count()) await choose(page.locator('dialog.choice-dialog .choice'));
    how = 'zones';
  } else if (await board.locator('.board-actions .action').count()) {
    await choose(board.locator('.board-actions .action'));
    how = 'button';
  } else {
    await choose(page.locator('#legal .legal-move'));
  }
  stats[how] = (stats[how] || 0) + 1;
  await page.waitForFunction((b) => {
    const t = document.querySelector('.table-page');
    return (Number(t.dataset.states) > b && !t.dataset.busy) || document.querySelector('.error')?.textContent;
  }, before, { timeout: hang(30000), polling: 50 });
}

// Plays this page's seat to the end of the game; returns the number of moves made. `each(n)` runs
// after every move.
export async function playToEnd(page, { stats = {}, each = null, max = 3000, drag = false } = {}) {
  let n = 0;
  while (await waitTurn(page)) {
    if (n >= max) throw new Error(`no end after ${max} moves`);
    await clickMove(page, stats, null, { drag: drag && n % 2 === 1 });
    n++;
    if (each) await each(n);
  }
  return n;
}

// The cards the page shows on its board (cards drawn and cards named in the text view), as notation;
// '' for a card face down.
export function boardCards(page) {
  return page.evaluate(() => [...document.querySelectorAll('.board [data-card]')].map((e) => e.dataset.card));
}

// Keeps, in the page, what its board showed after every state: window.boards = [{ply, status,
// cards}], the cards as boardCards gives them.
export async function recordBoards(page) {
  await page.evaluate(() => {
    window.boards = [];
    new MutationObserver(() => {
      const t = document.querySelector('.table-page');
      if (!t) return;
      window.boards.push({
        ply: Number(t.dataset.ply), status: t.dataset.status,
        cards: [...document.querySelectorAll('.board [data-card]')].map((e) => e.dataset.card),
      });
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-states'] });
  });
}

// Every string in a view (but its legal moves): what a card shown may be.
export function viewStrings(view, out = new Set(), key = '') {
  if (key === 'legal' || key === 'moves') return out;
  if (typeof view === 'string') out.add(view);
  else if (Array.isArray(view)) view.forEach((x) => viewStrings(x, out, key));
  else if (view && typeof view === 'object') for (const [k, x] of Object.entries(view)) viewStrings(x, out, k);
  return out;
}

// Checks that every card a page showed while the game was played is in the view the engine gives
// its viewer (a seat, or 'public') at that ply, replaying the finished game's record.
export function checkBoardsAgainstRecord(boards, recordPath, viewer) {
  let checked = 0;
  const views = new Map();
  for (const b of boards) {
    if (b.status !== 'playing') continue;
    if (!views.has(b.ply)) views.set(b.ply, viewStrings(replayView(recordPath, b.ply, viewer)));
    const allowed = views.get(b.ply);
    const extra = b.cards.filter((c) => c && !allowed.has(c));
    if (extra.length) throw new Error(`viewer ${viewer} was shown ${extra.join(' ')} at ply ${b.ply}, not in its view`);
    checked++;
  }
  return checked;
}

// `pilfer replay RECORD --until K --json --view V` as an object.
export function replayView(recordPath, k, view = 'all') {
  const r = spawnSync(PILFER, ['replay', recordPath, '--until', String(k), '--json', '--view', String(view)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`replay: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

export function writeTemp(dir, name, text) {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

// What every test file needs, started before its tests and stopped after them: a server, a
// browser, and a temporary folder for records. The fields are set once the tests begin.
export function useServerAndBrowser() {
  const env = { server: null, browser: null, tmp: null };
  before(async () => {
    env.server = await startServer();
    env.browser = await launch();
    env.tmp = mkdtempSync(join(tmpdir(), 'pilfer-web-records-'));
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
    if (env.tmp) rmSync(env.tmp, { recursive: true, force: true });
  });
  return env;
}
