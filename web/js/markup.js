// markup.js - a game's rules (GET /api/rules/GAME) as elements. The text is written in the small
// markup that src/games/rules.h defines: `#`, `##`, `###` headings; paragraphs; `- ` list items
// continued by lines starting with two spaces; tables of `| a | b |` rows, the second a row of
// dashes; `code` in backquotes. Nothing else is markup, and nothing becomes HTML: every piece of
// text is a text node.

import { h } from './dom.js';

// The text of a line with its `code` as <code> elements.
function inline(text) {
  return text.split('`').map((part, i) => (i % 2 ? h('code', {}, part) : part)).filter((x) => x !== '');
}

function cells(line) {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

const isItem = (l) => l.startsWith('- ');
const isBlank = (l) => l.trim() === '';
const startsBlock = (l) => l.startsWith('#') || l.startsWith('|') || isItem(l);

// The elements of a rules text; headings start at <h{top}> (the page's own headings are above).
export function rulesElements(text, top = 3) {
  const lines = String(text).split('\n');
  const out = [];
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    if (isBlank(line)) { i++; continue; }
    if (line.startsWith('#')) {
      const level = line.match(/^#+/)[0].length;
      out.push(h(`h${Math.min(6, top + level - 1)}`, {}, inline(line.slice(level).trim())));
      i++;
    } else if (line.startsWith('|')) {
      const rows = [];
      for (; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i]);
      const body = rows.slice(1).filter((r) => !/^[|\-: ]+$/.test(r));
      out.push(h('div.table-wrap', {}, h('table', {},
        h('thead', {}, h('tr', {}, cells(rows[0]).map((c) => h('th', { scope: 'col' }, inline(c))))),
        h('tbody', {}, body.map((r) => h('tr', {}, cells(r).map((c) => h('td', {}, inline(c)))))))));
    } else if (isItem(line)) {
      const items = [];
      while (i < lines.length && isItem(lines[i])) {
        let t = lines[i++].slice(2);
        while (i < lines.length && lines[i].startsWith('  ') && !isBlank(lines[i])) t += ` ${lines[i++].slice(2)}`;
        items.push(h('li', {}, inline(t)));
      }
      out.push(h('ul', {}, items));
    } else {
      let t = line;
      for (i++; i < lines.length && !isBlank(lines[i]) && !startsBlock(lines[i]); i++) t += ` ${lines[i]}`;
      out.push(h('p', {}, inline(t)));
    }
  }
  return out;
}
