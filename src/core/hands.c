/*
 * hands.c - hands and slots in views, and their resampling.
 */
#include "core/hands.h"

#include "core/game.h"

json_t *pf_card_json(pf_card c) {
  char b[PF_CARD_STR];
  return json_string(pf_card_str(c, b));
}

json_t *pf_cards_json(const pf_card *cards, int n) {
  json_t *a = json_array();
  for (int i = 0; i < n; i++) json_array_append_new(a, pf_card_json(cards[i]));
  return a;
}

json_t *pf_slots_json(const uint8_t *card, const uint8_t *slots, int n) {
  json_t *a = json_array();
  for (int i = 0; i < n; i++) json_array_append_new(a, pf_card_json(card[slots[i]]));
  return a;
}

json_t *pf_hands_json(const pf_hands *h, int seat) {
  json_t *hands = json_array();
  for (int p = 0; p < h->players; p++) {
    json_t *o = json_object();
    json_object_set_new(o, "size", json_integer(h->len[p]));
    if (seat == PF_VIEW_ALL || seat == p)
      json_object_set_new(o, "cards", pf_slots_json(h->card, h->slots + p * h->stride, h->len[p]));
    json_array_append_new(hands, o);
  }
  return hands;
}

void pf_slots_text(pf_buf *out, const uint8_t *card, const uint8_t *slots, int n, const char *sep,
                   const pf_style *style) {
  for (int i = 0; i < n; i++) {
    char b[32];
    pf_buf_printf(out, "%s%s", i ? sep : "", pf_card_render(card[slots[i]], style, b));
  }
}

void pf_hands_text(pf_buf *out, const pf_hands *h, int seat, const char *sep, const pf_style *style) {
  for (int p = 0; p < h->players; p++) {
    if (seat != PF_VIEW_ALL && seat != p) continue;
    if (seat == p)
      pf_buf_puts(out, "Your hand: ");
    else
      pf_buf_printf(out, "Seat %d's hand: ", p);
    pf_slots_text(out, h->card, h->slots + p * h->stride, h->len[p], sep, style);
    pf_buf_putc(out, '\n');
  }
  if (seat == PF_VIEW_ALL || h->players < 2) return;
  pf_buf_puts(out, "Others hold:");
  for (int p = 0; p < h->players; p++)
    if (p != seat) pf_buf_printf(out, " seat %d %d card%s;", p, h->len[p], h->len[p] == 1 ? "" : "s");
  out->data[out->len - 1] = '\n';
}

int pf_hands_hidden(const pf_hands *h, int seat, uint8_t *slots) {
  int n = 0;
  if (seat == PF_VIEW_ALL) return 0;
  for (int p = 0; p < h->players; p++)
    if (p != seat)
      for (int i = 0; i < h->len[p]; i++) slots[n++] = h->slots[p * h->stride + i];
  return n;
}

void pf_slots_resample(uint8_t *card, const uint8_t *slots, int n, pf_rng *rng) {
  uint8_t cards[256];
  for (int i = 0; i < n; i++) cards[i] = card[slots[i]];
  pf_shuffle(rng, cards, (size_t)n);
  for (int i = 0; i < n; i++) card[slots[i]] = cards[i];
}
