// cards.js - every card of every game drawn in HTML and CSS from its notation (RULINGS G-8):
// playing cards (7H, TD, JK), Skip-Bo Junior's 1-10 and W, Point-a-Pile's coloured cards (R, G:N45,
// P:A12, M3) and, for null, a card face down. No image files: the suits are text, the faces CSS.
// It only draws: what a card with a text is called and does comes with it from the view (its
// zone's `texts`, a move's `card_text`: {name, text}, docs/views.md), never from here.

const RANKS = { A: 'A', T: '10', J: 'J', Q: 'Q', K: 'K' };
const RANK_NAMES = { A: 'ace', T: '10', J: 'jack', Q: 'queen', K: 'king' };
const SUITS = {
  S: { sym: '♠', name: 'spades', red: false },
  H: { sym: '♥', name: 'hearts', red: true },
  D: { sym: '♦', name: 'diamonds', red: true },
  C: { sym: '♣', name: 'clubs', red: false },
};
const PAP_COLOURS = { R: 'red', G: 'green', B: 'blue', P: 'purple' }; // the faces' CSS classes

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

// What a screen reader says for a card; `info` is the card's {name, text} from the view, if any.
export function cardLabel(s, info) {
  const c = parseCard(s);
  const says = info?.text ? `: ${info.text}` : '';
  switch (c.kind) {
    case 'back': return 'a card face down';
    case 'joker': return 'joker';
    case 'standard': return `${RANK_NAMES[c.rank] || c.rank} of ${SUITS[c.suit].name}`;
    case 'sbj': return c.value === 'W' ? 'wild card' : `card ${c.value}`;
    case 'pap': return `${PAP_COLOURS[c.colour]} card${says}`;
    case 'mission': return `mission${says}`;
    default: return `card ${s}${says}`;
  }
}

// A short text for a card, as in a line of text: 7♥, 10♠, Joker, W, "The green card" (a
// Point-a-Pile card by its colour: its notation is not for players).
export function cardShort(s) {
  const c = parseCard(s);
  switch (c.kind) {
    case 'back': return '??';
    case 'joker': return 'Joker';
    case 'standard': return (RANKS[c.rank] || c.rank) + SUITS[c.suit].sym;
    case 'pap': return `The ${PAP_COLOURS[c.colour]} card`;
    default: return s;
  }
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// The element of one card (a span; the caller makes it a button when it is to be chosen), with
// the card's {name, text} from the view, if any: its name on the face, its text in the label.
export function cardEl(s, info) {
  const c = parseCard(s);
  const e = el('span', 'card');
  e.dataset.card = s === null || s === undefined ? '' : s;
  e.setAttribute('role', 'img');
  e.setAttribute('aria-label', cardLabel(s, info));
  e.title = cardLabel(s, info);
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
      // The corner holds the code and the colour's letter (for whoever tells the colours apart
      // badly); the face says what the card does, in the view's words (its name, then its text).
      const corner = el('span', 'corner');
      corner.append(el('span', 'rank', c.code || '\u2013'), el('span', 'suit', c.colour));
      e.append(corner);
      if (info?.text) {
        e.classList.add('has-text');
        const face = el('span', 'face');
        if (info.name) face.append(el('span', 'face-name', info.name));
        face.append(el('span', 'face-text', info.text));
        e.append(face);
        e.dataset.text = info.name ? `${info.name}: ${info.text}` : info.text;
      } else {
        e.append(el('span', 'code', c.code || '\u2013'));
      }
      break;
    }
    case 'mission': // a mission is known by what it asks: its text on the face
      e.classList.add('mission');
      e.append(el('span', 'corner', 'M' + c.n));
      if (info?.text) {
        e.classList.add('has-text');
        const face = el('span', 'face');
        face.append(el('span', 'face-text', info.text));
        e.append(face);
        e.dataset.text = info.text;
      }
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
