/*
 * slots.c - helpers for games that name cards by their slot in the deal.
 */
#include "core/slots.h"

#include <stdio.h>
#include <string.h>

#include "core/game.h"

void pf_slots_load_deal(pf_card *card, const pf_card *deck, int ndeck, const pf_deal *given, int ngiven, int k,
                        uint64_t seed) {
  if (k < ngiven) {
    memcpy(card, given[k].cards, (size_t)ndeck * sizeof card[0]);
    return;
  }
  pf_rng rng;
  pf_rng_seed(&rng, seed, (uint64_t)k);
  memcpy(card, deck, (size_t)ndeck * sizeof card[0]);
  pf_shuffle16(&rng, card, (size_t)ndeck);
}

/* Sorts n cards by code. Codes below 64 (standard decks and jokers) are one word's bits, read back
 * in order, each as often as counted (once: no count); else counted, when every code is below 256
 * (a bit per code present, then the codes in order); else by insertion (n is at most a deal). */
static void cards_sort(pf_card *cards, int n) {
  uint64_t low = 0, twice = 0, high = 0;
  for (int i = 0; i < n; i++) {
    uint64_t bit = 1ull << (cards[i] & 63);
    high |= cards[i] >> 6;
    twice |= low & bit;
    low |= bit;
  }
  if (!high) {
    uint8_t times[64] = {0};
    if (twice)
      for (int i = 0; i < n; i++) times[cards[i]]++;
    for (int k = 0; low; low &= low - 1) {
      pf_card c = (pf_card)__builtin_ctzll(low);
      cards[k++] = c;
      for (int j = times[c]; j > 1; j--) cards[k++] = c;
    }
    return;
  }
  uint64_t present[4] = {0};
  uint8_t count[256];
  int i = 0;
  for (; i < n && cards[i] < 256; i++) {
    pf_card c = cards[i];
    uint64_t bit = 1ull << (c & 63);
    if (!(present[c >> 6] & bit)) present[c >> 6] |= bit, count[c] = 0;
    count[c]++;
  }
  if (i == n) {
    int k = 0;
    for (int w = 0; w < 4; w++)
      for (uint64_t m = present[w]; m; m &= m - 1) {
        pf_card c = (pf_card)(w * 64 + __builtin_ctzll(m));
        for (int j = count[c]; j > 0; j--) cards[k++] = c;
      }
    return;
  }
  for (i = 1; i < n; i++) {
    pf_card c = cards[i];
    int j = i;
    for (; j > 0 && cards[j - 1] > c; j--) cards[j] = cards[j - 1];
    cards[j] = c;
  }
}

void pf_cards_resample(pf_card *cards, int n, pf_rng *rng) {
  cards_sort(cards, n);
  pf_shuffle16(rng, cards, (size_t)n);
}

void pf_slots_shuffle(pf_card *card, const uint8_t *slots, int n, pf_rng *rng) {
  pf_card cards[PF_MAX_DEAL];
  for (int i = 0; i < n; i++) cards[i] = card[slots[i]];
  pf_cards_resample(cards, n, rng);
  for (int i = 0; i < n; i++) card[slots[i]] = cards[i];
}

int pf_slots_hidden(const pf_hands *h, int seat, int next, int ncards, uint8_t *out) {
  int n = 0;
  if (seat == PF_VIEW_ALL) return 0;
  for (int p = 0; p < h->players; p++)
    if (!pf_view_sees_own(seat, p))
      for (int i = 0; i < h->lens[p]; i++) out[n++] = h->slots[p * h->stride + i];
  for (int k = next; k < ncards; k++) out[n++] = (uint8_t)k;
  return n;
}

void pf_slots_write(pf_jw *w, const pf_card *card, const uint8_t *slots, int n) {
  pf_jw_open(w, '[');
  pf_slots_cards_write(w, card, slots, n, 0);
  pf_jw_close(w, ']');
}

void pf_slots_cards_write(pf_jw *w, const pf_card *card, const uint8_t *slots, int n, int shown) {
  for (int i = 0; i < n; i++) pf_card_write_seen(w, card[slots[i]], i >= shown);
}

void pf_stock_write(pf_jw *w, const pf_card *card, int next, int ncards) {
  pf_jw_open(w, '[');
  for (int k = next; k < ncards; k++) pf_card_write(w, card[k]);
  pf_jw_close(w, ']');
}

void pf_hands_write(pf_jw *w, const pf_card *card, const pf_hands *h, int seat) {
  pf_jw_open(w, '[');
  for (int p = 0; p < h->players; p++) {
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "size", h->lens[p]);
    if (pf_view_sees_own(seat, p)) {
      pf_jw_key(w, "cards");
      pf_slots_write(w, card, h->slots + p * h->stride, h->lens[p]);
    }
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, ']');
}

void pf_hands_zones_write(pf_jw *w, const pf_card *card, const pf_hands *h, int seat) {
  for (int p = 0; p < h->players; p++) {
    char id[PF_ZONE_ID], label[32];
    pf_snprintf(id, sizeof id, "hand:%d", p);
    pf_snprintf(label, sizeof label, "Seat %d's hand", p);
    const uint8_t *slots = h->slots + p * h->stride;
    bool sees = pf_view_sees_own(seat, p);
    pf_zone_open(w, id, "hand", p, label, PF_FAN);
    for (int i = 0; i < h->lens[p]; i++) pf_card_write_seen(w, card[slots[i]], sees);
    pf_zone_close(w);
  }
}

void pf_stock_zone_write(pf_jw *w, const pf_card *card, int next, int ncards, int seat) {
  pf_zone_open(w, "stock", "stock", -1, "Stock", PF_STACK);
  for (int k = ncards - 1; k >= next; k--) pf_card_write_seen(w, card[k], seat == PF_VIEW_ALL);
  pf_zone_close(w);
}

void pf_pool_zones_write(pf_jw *w, const char *prefix, const char *label, const pf_card *card, const uint8_t *slots,
                         int n) {
  for (int k = 0; k < n; k++) {
    char id[PF_ZONE_ID], name[48], c[PF_CARD_STR];
    pf_pool_id(prefix, card, slots, k, id);
    pf_snprintf(name, sizeof name, "%s %s", label, pf_card_str(card[slots[k]], c));
    pf_zone_open(w, id, "pool", -1, name, PF_STACK);
    pf_card_write(w, card[slots[k]]);
    pf_zone_close(w);
  }
}

void pf_slots_render(const pf_card *card, const uint8_t *slots, int n, const char *sep, const pf_style *st,
                     pf_buf *out) {
  for (int i = 0; i < n; i++) {
    char b[32];
    pf_buf_printf(out, "%s%s", i ? sep : "", pf_card_render(card[slots[i]], st, b));
  }
}

void pf_hands_text(const pf_card *card, const pf_hands *h, int seat, const pf_style *st, pf_buf *out) {
  for (int p = 0; p < h->players; p++) {
    if (!pf_view_sees_own(seat, p)) continue;
    if (seat == p)
      pf_buf_puts(out, "Your hand: ");
    else
      pf_buf_printf(out, "Seat %d's hand: ", p);
    pf_slots_render(card, h->slots + p * h->stride, h->lens[p], "  ", st, out);
    pf_buf_putc(out, '\n');
  }
  if (seat == PF_VIEW_ALL || (seat >= 0 && h->players < 2)) return;
  pf_buf_puts(out, seat >= 0 ? "Others hold:" : "Hands:");
  for (int p = 0; p < h->players; p++)
    if (p != seat) pf_buf_printf(out, " seat %d %d card%s;", p, h->lens[p], h->lens[p] == 1 ? "" : "s");
  out->data[out->len - 1] = '\n';
}

void pf_pool_id(const char *prefix, const pf_card *card, const uint8_t *slots, int k, char id[PF_ZONE_ID]) {
  char c[PF_CARD_STR];
  int copy = 1;
  for (int j = 0; j < k; j++) copy += card[slots[j]] == card[slots[k]];
  pf_card_str(card[slots[k]], c);
  if (copy == 1)
    pf_snprintf(id, PF_ZONE_ID, "%s:%s", prefix, c);
  else
    pf_snprintf(id, PF_ZONE_ID, "%s:%s.%d", prefix, c, copy);
}
