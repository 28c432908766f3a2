// cards.js - every card of every game drawn in HTML and CSS from its notation (RULINGS G-8):
// playing cards (7H, TD, JK), Skip-Bo Junior's 1-10 and W, Point-a-Pile's coloured cards (R, G:N45,
// P:A12, M3) and, for null, a card face down. No image files: the suits are text, the faces CSS.

const RANKS = { A: 'A', T: '10', J: 'J', Q: 'Q', K: 'K' };
const RANK_NAMES = { A: 'ace', T: '10', J: 'jack', Q: 'queen', K: 'king' };
const SUITS = {
  S: { sym: '♠', name: 'spades', red: false },
  H: { sym: '♥', name: 'hearts', red: true },
  D: { sym: '♦', name: 'diamonds', red: true },
  C: { sym: '♣', name: 'clubs', red: false },
};
const PAP_COLOURS = { R: 'red', G: 'green', B: 'blue', P: 'purple' };

const PAP_RULES = ['Not Last', 'Force Last', 'Not Friends', 'Force Friends', 'Leading Curse',
  'Trailing Reward', 'Not Text', 'Not Textless'];
const PAP_RULE_TEXT = [
  'you may not pick a pile showing the colour of your last card scored',
  'you must pick a pile showing the colour of your last card scored',
  'you may not pick the pile your left neighbour picks',
  'you must pick a pile that a neighbour also picks',
  'the best scores may not pick the piles with the most cards',
  'the worst scores choose after the others\u2019 choices are shown',
  'last card with text: you may not pick a pile with text',
  'last card textless: you may not pick a pile with a textless card'];
const PAP_SHY = ['Head Only', 'Head Veto', 'Leader Veto', 'Hand Min', 'Hand Plus', 'Color New',
  'Color Same', 'Not Shy'];
const PAP_SHY_TEXT = ['only the Headpointer may pick this pile', 'anyone but the Headpointer',
  'players not in the lead', 'players with fewer than 5 scored cards',
  'players with more than 5 scored cards', 'players who have scored no card of this colour',
  'players who have scored a card of this colour', 'players who have scored no Shy card'];
const PAP_ACTIONS = ['Swap', 'Steal', 'Headpointer', 'Discard', 'Random', 'Merge', 'Switch',
  'Reorder', 'Take All', 'Take None', 'Redo', 'Change Mind', 'Draw More', 'Color Stop',
  'Action Stop', 'Trade'];
const PAP_MISSIONS = ['5 cards of one colour', 'at least 2 cards of every colour', '10 points',
  'at least 6 cards with text', 'at least 5 textless cards', 'every colour and at least 6 points',
  'every colour and at least 6 cards', 'at least 12 cards', 'at least 8 cards and at least 4 points'];

function sign(c) { return c === '-' ? '\u22121' : '+1'; }

// What a Point-a-Pile card's code means, in words (rules: "Cards (colour R red, ...)").
export function papMeaning(code) {
  let m;
  if (!code) return 'textless, worth 0';
  if ((m = /^S([+-])$/.exec(code))) return `score ${sign(m[1])}`;
  if ((m = /^M([+-])([RGBP])$/.exec(code))) return `${sign(m[1])} per ${PAP_COLOURS[m[2]]} card`;
  if ((m = /^D(\d)$/.exec(code))) return `${m[1]} if the row has all 4 colours`;
  if ((m = /^G(\d)(\d)$/.exec(code))) return `${m[1]} if some colour has at least ${m[2]} cards`;
  if ((m = /^C(\d)(\d)([RGBP])$/.exec(code))) return `${m[1]} if the row has at least ${m[2]} ${PAP_COLOURS[m[3]]} cards`;
  if ((m = /^N(\d)(\d)$/.exec(code))) return `${m[1]} if the row has at least ${m[2]} cards`;
  if ((m = /^E([+-])$/.exec(code))) return `${sign(m[1])} per textless card`;
  if ((m = /^L([+-])$/.exec(code))) return `${sign(m[1])} while it is the row\u2019s last card`;
  if ((m = /^H([+-])$/.exec(code))) return `${sign(m[1])} while its owner is the Headpointer`;
  if ((m = /^P(\d)$/.exec(code)) && PAP_RULES[m[1] - 1]) return `Rule: ${PAP_RULES[m[1] - 1]} (${PAP_RULE_TEXT[m[1] - 1]})`;
  if ((m = /^T(\d)$/.exec(code)) && PAP_SHY[m[1] - 1]) return `Shy: ${PAP_SHY[m[1] - 1]} (${PAP_SHY_TEXT[m[1] - 1]})`;
  if ((m = /^A(\d+)$/.exec(code)) && PAP_ACTIONS[m[1] - 1]) return `Action: ${PAP_ACTIONS[m[1] - 1]}`;
  return code;
}

// A short second line for a Point-a-Pile card that fits on it.
function papShort(code) {
  let m;
  if (!code) return '';
  if ((m = /^P(\d)$/.exec(code)) && PAP_RULES[m[1] - 1]) return PAP_RULES[m[1] - 1];
  if ((m = /^T(\d)$/.exec(code)) && PAP_SHY[m[1] - 1]) return PAP_SHY[m[1] - 1];
  if ((m = /^A(\d+)$/.exec(code)) && PAP_ACTIONS[m[1] - 1]) return PAP_ACTIONS[m[1] - 1];
  if ((m = /^M([+-])([RGBP])$/.exec(code))) return `${m[1]}1/${PAP_COLOURS[m[2]]}`;
  if ((m = /^D(\d)$/.exec(code))) return `${m[1]}: 4 colours`;
  if ((m = /^G(\d)(\d)$/.exec(code))) return `${m[1]}: ${m[2]} alike`;
  if ((m = /^C(\d)(\d)([RGBP])$/.exec(code))) return `${m[1]}: ${m[2]} ${PAP_COLOURS[m[3]]}`;
  if ((m = /^N(\d)(\d)$/.exec(code))) return `${m[1]}: ${m[2]}+ cards`;
  if ((m = /^E([+-])$/.exec(code))) return `${m[1]}1/plain`;
  if ((m = /^L([+-])$/.exec(code))) return `${m[1]}1 if last`;
  if ((m = /^H([+-])$/.exec(code))) return `${m[1]}1 if head`;
  if ((m = /^S([+-])$/.exec(code))) return `score ${m[1]}1`;
  return '';
}

// Reads a card's notation: {kind, ...} where kind is back, standard, joker, sbj, pap, mission or
// unknown.
export function parseCard(s) {
  if (s === null || s === undefined) return { kind: 'back' };
  let m;
  if (s === 'JK') return { kind: 'joker' };
  if ((m = /^(10|[A2-9TJQK])([SHDC])$/.exec(s))) {
    const r = m[1] === '10' ? 'T' : m[1];
    return { kind: 'standard', rank: r, suit: m[2] };
  }
  if ((m = /^(10|[1-9]|W)$/.exec(s))) return { kind: 'sbj', value: m[1] };
  if ((m = /^([RGBP])(?::([A-Za-z0-9+-]+))?$/.exec(s))) return { kind: 'pap', colour: m[1], code: m[2] || '' };
  if ((m = /^M(\d+)(?::([0-9RGBP]+))?$/.exec(s))) return { kind: 'mission', n: +m[1], detail: m[2] || '' };
  return { kind: 'unknown', text: s };
}

// What a screen reader says for a card.
export function cardLabel(s) {
  const c = parseCard(s);
  switch (c.kind) {
    case 'back': return 'a card face down';
    case 'joker': return 'joker';
    case 'standard': return `${RANK_NAMES[c.rank] || c.rank} of ${SUITS[c.suit].name}`;
    case 'sbj': return c.value === 'W' ? 'wild card' : `card ${c.value}`;
    case 'pap': return `${PAP_COLOURS[c.colour]} card${c.code ? ' ' + c.code : ''}: ${papMeaning(c.code)}`;
    case 'mission': return `mission ${c.n}: ${missionText(c)}`;
    default: return `card ${s}`;
  }
}

function missionText(c) {
  if (c.n >= 1 && c.n <= 9) return PAP_MISSIONS[c.n - 1];
  const m = /^(\d)([RGBP])(\d)([RGBP])$/.exec(c.detail || '');
  if (c.n === 10 && m) return `${m[1]} ${PAP_COLOURS[m[2]]} and ${m[3]} ${PAP_COLOURS[m[4]]} cards`;
  return `mission ${c.n}`;
}

// A short text for a card, as in a line of text: 7♥, 10♠, Joker, W, G:N45.
export function cardShort(s) {
  const c = parseCard(s);
  switch (c.kind) {
    case 'back': return '??';
    case 'joker': return 'Joker';
    case 'standard': return (RANKS[c.rank] || c.rank) + SUITS[c.suit].sym;
    default: return s;
  }
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// The element of one card (a span; the caller makes it a button when it is to be chosen).
export function cardEl(s) {
  const c = parseCard(s);
  const e = el('span', 'card');
  e.dataset.card = s === null || s === undefined ? '' : s;
  e.setAttribute('role', 'img');
  e.setAttribute('aria-label', cardLabel(s));
  e.title = cardLabel(s);
  switch (c.kind) {
    case 'back':
      e.classList.add('back');
      break;
    case 'joker':
      e.classList.add('joker');
      e.append(el('span', 'corner', 'JK'), el('span', 'pip', '\u2605'), el('span', 'word', 'Joker'));
      break;
    case 'standard': {
      const suit = SUITS[c.suit];
      e.classList.add(suit.red ? 'red' : 'dark', 'suit-' + c.suit.toLowerCase());
      const rank = RANKS[c.rank] || c.rank;
      const corner = el('span', 'corner');
      corner.append(el('span', 'rank', rank), el('span', 'suit', suit.sym));
      e.append(corner, el('span', 'pip', suit.sym));
      break;
    }
    case 'sbj': {
      const v = c.value;
      const band = v === 'W' ? 'w' : +v <= 4 ? 'lo' : +v <= 8 ? 'mid' : 'hi';
      e.classList.add('sbj', 'sbj-' + band);
      e.append(el('span', 'corner', v), el('span', 'big', v === 'W' ? 'W' : v));
      if (v === 'W') e.append(el('span', 'word', 'wild'));
      break;
    }
    case 'pap': {
      e.classList.add('pap', 'pap-' + PAP_COLOURS[c.colour]);
      // The corner holds the code, so that it shows when the cards overlap; the colour's letter
      // is there too, for whoever tells the colours apart badly.
      const corner = el('span', 'corner');
      corner.append(el('span', 'rank', c.code || '\u2013'), el('span', 'suit', c.colour));
      e.append(corner, el('span', 'code', c.code || '\u2013'));
      const short = papShort(c.code);
      if (short) e.append(el('span', 'word', short));
      break;
    }
    case 'mission':
      e.classList.add('mission');
      e.append(el('span', 'corner', 'M' + c.n), el('span', 'word', missionText(c)));
      break;
    default:
      e.classList.add('unknown');
      e.append(el('span', 'code', c.text));
  }
  return e;
}

// Text with the cards in it (7H, TD, 10S, JK) shown with their suits in colour: a fragment of
// text nodes and spans. Other games' notations are left as they are.
export function richText(text) {
  const frag = document.createDocumentFragment();
  const re = /\b(10|[A2-9TJQK])([SHDC])\b|([♠♥♦♣])|\bJK\b/g;
  let last = 0, m;
  while ((m = re.exec(text))) {
    if (m.index > last) frag.append(text.slice(last, m.index));
    if (m[0] === 'JK') {
      const s = el('span', 'joker-text', 'Joker');
      s.dataset.card = 'JK';
      frag.append(s);
    } else if (m[3]) {
      const red = m[3] === '♥' || m[3] === '♦';
      frag.append(el('span', red ? 'suit-red' : 'suit-dark', m[3]));
    } else {
      const suit = SUITS[m[2]];
      const s = el('span', suit.red ? 'suit-red' : 'suit-dark', (RANKS[m[1]] || m[1]) + suit.sym);
      s.dataset.card = (m[1] === '10' ? 'T' : m[1]) + m[2];
      frag.append(s);
    }
    last = re.lastIndex;
  }
  if (last < text.length) frag.append(text.slice(last));
  return frag;
}
