// playthrough.mjs - plays games through the page as a person would, clicking cards and their
// targets, and screenshots the screen after every turn of theirs: for looking at, not a test.
//   [TURNS=30] node playthrough.mjs [GAME...]   (default: Steal the Pile against two bots, then one hand of
//                                     every other game against bots), at 390x844 and 1280x800
// Screenshots: $PILFER_WEB_ARTIFACTS/play-GAME-SIZE-NN.png (build/web-artifacts by default).
import { spawnSync } from 'node:child_process';
import { startServer, launch, newPage, createTable, waitTurn, clickMove, screenshot, PILFER, PHONE, DESKTOP } from './lib.mjs';

const GAMES = JSON.parse(spawnSync(PILFER, ['games', '--json'], { encoding: 'utf8' }).stdout);
const want = process.argv.slice(2);
const max = Number(process.env.TURNS) || 30; // a hand longer than this is left there (Thief's is ~70)
const server = await startServer();
const browser = await launch();
try {
  for (const g of GAMES) {
    if (want.length && !want.includes(g.id)) continue;
    // Steal the Pile against two bots, a whole game; the others their short game (one hand).
    const stp = g.id === 'steal-the-pile';
    const players = stp ? 3 : g.quick.players;
    const options = stp ? {} : g.quick.options;
    for (const [viewport, size] of [[PHONE, 'phone'], [DESKTOP, 'desktop']]) {
      const page = await newPage(browser, viewport, { motion: 'no-preference' });
      const seats = ['you', ...Array(players - 1).fill('greedy')];
      const table = await createTable(page, server.url, { game: g.id, players, options, seats });
      let turn = 0;
      while (await waitTurn(page) && turn < (stp ? 60 : max)) {
        await screenshot(page, `play-${g.id}-${size}-${String(turn).padStart(2, '0')}`, { full: false });
        await clickMove(page);
        turn++;
      }
      await page.waitForTimeout(1500);
      await screenshot(page, `play-${g.id}-${size}-end`, { full: false });
      console.log(`${g.id} at ${size}: table ${table}, ${turn} turns, errors: ${JSON.stringify(page.errors)}`);
      await page.context().close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
