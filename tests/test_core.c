/*
 * test_core.c - the core that knows no game: card notation (G-8), the specified random stream,
 * shuffling, decks and deal checks, options; JSON text written as jansson writes it; snprintf's
 * fast twin (pf_snprintf).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsontext.h"
#include "core/rng.h"
#include "core/siphash.h"
#include "core/slots.h"
#include "testutil.h"

/* pf_cards_resample (what every determinization rests on, game.h) is "sort by code, then
 * pf_shuffle16" whatever the cards: one deck (a word's bits), decks with jokers repeated (counted
 * in one word), Skip-Bo Junior's codes, a game's own codes above 255 (by insertion); and it is
 * canonical, the same for the same cards in any order. */
static void test_cards_resample(void **unused) {
  (void)unused;
  pf_card decks[4][PF_MAX_DEAL];
  int ns[4];
  ns[0] = pf_deck_standard(decks[0], 1, 0);
  ns[1] = pf_deck_standard(decks[1], 2, 4);
  ns[2] = 0;
  for (int v = 1; v <= 10; v++)
    for (int k = 0; k < v; k++) decks[2][ns[2]++] = PF_CARD_SBJ(v);
  decks[2][ns[2]++] = PF_CARD_SBJ_WILD;
  ns[3] = 0;
  for (int k = 0; k < 40; k++) decks[3][ns[3]++] = (pf_card)(k % 3 ? PF_CARD_GAME + 200 + k % 7 : k);
  for (int d = 0; d < 4; d++)
    for (uint64_t seed = 1; seed <= 20; seed++) {
      int n = ns[d] - (int)(seed % 5); /* part of a deck, as hidden cards are */
      pf_card got[PF_MAX_DEAL], again[PF_MAX_DEAL], want[PF_MAX_DEAL];
      pf_rng r;
      pf_rng_seed(&r, seed, 9);
      memcpy(got, decks[d], sizeof got);
      pf_shuffle16(&r, got, (size_t)n);
      memcpy(want, got, sizeof want);
      for (int i = 0; i < n; i++) again[n - 1 - i] = got[i];
      for (int i = 1; i < n; i++) /* the reference: by insertion */
        for (int j = i; j > 0 && want[j - 1] > want[j]; j--) {
          pf_card t = want[j];
          want[j] = want[j - 1];
          want[j - 1] = t;
        }
      pf_rng a, b, c;
      pf_rng_seed(&a, seed, 3);
      b = c = a;
      pf_shuffle16(&a, want, (size_t)n);
      pf_cards_resample(got, n, &b);
      pf_cards_resample(again, n, &c);
      assert_memory_equal(got, want, (size_t)n * sizeof got[0]);
      assert_memory_equal(again, want, (size_t)n * sizeof got[0]);
      assert_memory_equal(&a, &b, sizeof a);
    }
}

/* ---- SipHash-2-4, the MAC of the bot protocol's samples ---- */

/* The reference vectors of SipHash-2-4 (Aumasson and Bernstein's vectors.h, read as little-endian
 * numbers): key 00 01 ... 0f, messages 00 01 ... of every length from 0 to 63. */
static void test_siphash_reference(void **unused) {
  (void)unused;
  static const uint64_t want[64] = {
      0x726fdb47dd0e0e31, 0x74f839c593dc67fd, 0x0d6c8009d9a94f5a, 0x85676696d7fb7e2d, 0xcf2794e0277187b7, 0x18765564cd99a68d,
      0xcbc9466e58fee3ce, 0xab0200f58b01d137, 0x93f5f5799a932462, 0x9e0082df0ba9e4b0, 0x7a5dbbc594ddb9f3, 0xf4b32f46226bada7,
      0x751e8fbc860ee5fb, 0x14ea5627c0843d90, 0xf723ca908e7af2ee, 0xa129ca6149be45e5, 0x3f2acc7f57c29bdb, 0x699ae9f52cbe4794,
      0x4bc1b3f0968dd39c, 0xbb6dc91da77961bd, 0xbed65cf21aa2ee98, 0xd0f2cbb02e3b67c7, 0x93536795e3a33e88, 0xa80c038ccd5ccec8,
      0xb8ad50c6f649af94, 0xbce192de8a85b8ea, 0x17d835b85bbb15f3, 0x2f2e6163076bcfad, 0xde4daaaca71dc9a5, 0xa6a2506687956571,
      0xad87a3535c49ef28, 0x32d892fad841c342, 0x7127512f72f27cce, 0xa7f32346f95978e3, 0x12e0b01abb051238, 0x15e034d40fa197ae,
      0x314dffbe0815a3b4, 0x027990f029623981, 0xcadcd4e59ef40c4d, 0x9abfd8766a33735c, 0x0e3ea96b5304a7d0, 0xad0c42d6fc585992,
      0x187306c89bc215a9, 0xd4a60abcf3792b95, 0xf935451de4f21df2, 0xa9538f0419755787, 0xdb9acddff56ca510, 0xd06c98cd5c0975eb,
      0xe612a3cb9ecba951, 0xc766e62cfcadaf96, 0xee64435a9752fe72, 0xa192d576b245165a, 0x0a8787bf8ecb74b2, 0x81b3e73d20b49b6f,
      0x7fa8220ba3b2ecea, 0x245731c13ca42499, 0xb78dbfaf3a8d83bd, 0xea1ad565322a1a0b, 0x60e61c23a3795013, 0x6606d7e446282b93,
      0x6ca4ecb15c5f91e1, 0x9f626da15c9625f3, 0xe51b38608ef25f57, 0x958a324ceb064572};
  uint8_t key[PF_SIPHASH_KEY], msg[64];
  for (int i = 0; i < PF_SIPHASH_KEY; i++) key[i] = (uint8_t)i;
  for (int i = 0; i < 64; i++) msg[i] = (uint8_t)i;
  for (int n = 0; n < 64; n++)
    if (pf_siphash24(key, msg, (size_t)n) != want[n]) fail_msg("SipHash-2-4 of %d bytes: not the reference's", n);
}

/* ---- cards (G-8) ---- */

static void expect_card(const char *text, const char *canonical) { tu_expect_card(NULL, text, canonical); }

/* G-8: rank then suit; input also accepts 10, lower case and the suit symbols; JK is the joker. */
static void test_G_8_card_notation(void **unused) {
  (void)unused;
  expect_card("7H", "7H");
  expect_card("TD", "TD");
  expect_card("10D", "TD");
  expect_card("10d", "TD");
  expect_card("td", "TD");
  expect_card("as", "AS");
  expect_card("K\u2663", "KC");
  expect_card("q\u2665", "QH");
  expect_card("10\u2666", "TD");
  expect_card("A\u2660", "AS");
  expect_card("JK", "JK");
  expect_card("jk", "JK");
  /* Skip-Bo Junior's cards are numbers without a suit, and W. */
  expect_card("1", "1");
  expect_card("10", "10");
  expect_card("w", "W");
  const char *bad[] = {"", "7X", "1H", "11", "ZS", "7HH", "JKX", "0", " 7H", "\u2665", "#", "#127", "#65535", "#128000"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    pf_card c;
    if (pf_card_parse(bad[i], &c) == 0) fail_msg("'%s' should not be a card", bad[i]);
  }
  /* Rank and suit of the code. */
  pf_card c;
  assert_int_equal(pf_card_parse("QD", &c), 0);
  assert_int_equal(pf_card_rank(c), 12);
  assert_int_equal(pf_card_suit(c), PF_DIAMONDS);
  assert_true(pf_card_is_red(c));
  /* Every code round-trips: standard cards, joker, Skip-Bo Junior, and the codes of a game's own
   * cards as #N (the core knows no game's cards: core/card.h). */
  for (int i = 0; i < PF_CARD_NONE; i++) {
    if ((i > PF_CARD_JOKER && i < PF_CARD_SBJ(1)) || (i > PF_CARD_SBJ_WILD && i < PF_CARD_GAME)) continue;
    char buf[PF_CARD_STR];
    pf_card back;
    assert_int_equal(pf_card_parse(pf_card_str((pf_card)i, buf), &back), 0);
    assert_int_equal(back, i);
    if (i >= PF_CARD_GAME) assert_int_equal(buf[0], '#');
  }
}

/* Scanning stops after the card, so moves like "7H>7S" can be read piece by piece. */
static void test_card_scan(void **unused) {
  (void)unused;
  const char *p = "10h>7S";
  pf_card c;
  assert_int_equal(pf_card_scan(&p, &c), 0);
  assert_string_equal(p, ">7S");
  assert_int_equal(c, pf_card_make(10, PF_HEARTS));
  p = "10>b1";
  assert_int_equal(pf_card_scan(&p, &c), 0);
  assert_int_equal(c, PF_CARD_SBJ(10));
  assert_string_equal(p, ">b1");
}

/* For people: suit symbols and red colour, or plain text. */
/* G-8: pK names seat K's pile, in any case. */
static void test_pile_scan(void **unused) {
  (void)unused;
  const char *p = "p12x";
  int seat = -1;
  assert_int_equal(pf_pile_scan(&p, &seat), 0);
  assert_int_equal(seat, 12);
  assert_string_equal(p, "x");
  p = "P3";
  assert_int_equal(pf_pile_scan(&p, &seat), 0);
  assert_int_equal(seat, 3);
  p = "p123456789";
  assert_int_equal(pf_pile_scan(&p, &seat), 0);
  assert_int_equal(seat, 99); /* no overflow: reads as an impossible seat */
  assert_string_equal(p, "");
  p = "px";
  assert_int_equal(pf_pile_scan(&p, &seat), -1);
  assert_string_equal(p, "px");
  p = "7H";
  assert_int_equal(pf_pile_scan(&p, &seat), -1);
}

static void test_card_render(void **unused) {
  (void)unused;
  char buf[32];
  pf_style plain = {0}, fancy = {.unicode = true, .color = true}, symbols = {.unicode = true};
  assert_string_equal(pf_card_render(pf_card_make(7, PF_HEARTS), &plain, buf), "7H");
  assert_string_equal(pf_card_render(pf_card_make(10, PF_SPADES), &symbols, buf), "10\u2660");
  pf_card_render(pf_card_make(7, PF_HEARTS), &fancy, buf);
  assert_non_null(strstr(buf, "\x1b[1;31m")); /* red */
  assert_non_null(strstr(buf, "7\u2665"));
}

/* ---- the random stream (rng.h is its specification) ---- */

/* SplitMix64 from 0 gives the published reference outputs. */
static void test_rng_splitmix_reference(void **unused) {
  (void)unused;
  uint64_t x = 0;
  assert_true(pf_splitmix64(&x) == 0xe220a8397b1dcdafu);
  assert_true(pf_splitmix64(&x) == 0x6e789e6aa1b965f4u);
  assert_true(pf_splitmix64(&x) == 0x06c45d188009454fu);
}

/* The stream, bounded draws and shuffle are pinned to values computed by an independent
 * implementation of the specification in rng.h (a Python transcription), so any platform or
 * change that alters them fails here. */
static void test_rng_specified_stream(void **unused) {
  (void)unused;
  pf_rng r;
  pf_rng_seed(&r, 42, 0);
  assert_true(pf_rng_next(&r) == 0x15780b2e0c2ec716u);
  assert_true(pf_rng_next(&r) == 0x6104d9866d113a7eu);
  assert_true(pf_rng_next(&r) == 0xae17533239e499a1u);
  pf_rng_seed(&r, 42, 5);
  const uint32_t below[] = {50, 46, 47, 31, 11, 17, 1, 45, 29, 31};
  for (int i = 0; i < 10; i++) assert_int_equal(pf_rng_below(&r, 52), below[i]);
  pf_card deck[52];
  pf_deck_standard(deck, 1, 0);
  pf_rng_seed(&r, 7, 0);
  pf_shuffle16(&r, deck, 52);
  const char *top = "4C 3D 8C AD AC JH AS TD 9H 3H 2D QH";
  char got[64] = "";
  for (int i = 0; i < 12; i++) {
    char b[PF_CARD_STR];
    strcat(got, i ? " " : "");
    strcat(got, pf_card_str(deck[i], b));
  }
  assert_string_equal(got, top);
}

/* Bounded draws stay in range and reach every value; streams differ. */
static void test_rng_below_uniform_enough(void **unused) {
  (void)unused;
  pf_rng r, r2;
  pf_rng_seed(&r, 1, 0);
  pf_rng_seed(&r2, 1, 1);
  int counts[7] = {0};
  for (int i = 0; i < 70000; i++) {
    uint32_t v = pf_rng_below(&r, 7);
    assert_true(v < 7);
    counts[v]++;
  }
  for (int i = 0; i < 7; i++) assert_true(counts[i] > 9000 && counts[i] < 11000);
  assert_true(pf_rng_next(&r) != pf_rng_next(&r2));
  assert_int_equal(pf_rng_below(&r, 1), 0);
}

/* ---- decks ---- */

static void test_decks(void **unused) {
  (void)unused;
  pf_card d[PF_MAX_DEAL];
  assert_int_equal(pf_deck_standard(d, 2, 4), 108);
  assert_int_equal(pf_card_count(d, 108, PF_CARD_JOKER), 4);
  assert_int_equal(pf_card_count(d, 108, pf_card_make(1, PF_SPADES)), 2);
  assert_int_equal(pf_deck_skipbo_junior(d), 96);
  assert_int_equal(pf_card_count(d, 96, PF_CARD_SBJ(10)), 8);
  assert_int_equal(pf_card_count(d, 96, PF_CARD_SBJ_WILD), 16);
}

/* A deal must be exactly the game's deck; the message names the offending card. */
static void test_deal_check(void **unused) {
  (void)unused;
  pf_card deck[52];
  pf_deck_standard(deck, 1, 0);
  pf_deal d;
  pf_error err;
  tu_deal(&d, 1, 0, "7H KS");
  assert_int_equal(pf_deal_check(&d, deck, 52, &err), 0);
  d.cards[1] = d.cards[0]; /* two 7H, no KS */
  assert_int_equal(pf_deal_check(&d, deck, 52, &err), -1);
  assert_non_null(strstr(err.msg, "7H"));
  d.ncards = 51;
  assert_int_equal(pf_deal_check(&d, deck, 52, &err), -1);
  assert_non_null(strstr(err.msg, "51 cards"));
  tu_deal(&d, 1, 0, NULL);
  d.cards[0] = PF_CARD_JOKER;
  assert_int_equal(pf_deal_check(&d, deck, 52, &err), -1);
  assert_non_null(strstr(err.msg, "JK"));
}

/* ---- options ---- */

static const pf_option_desc OPTS[] = {
    {"target", PF_OPT_INT, 0, 0, 500, "a number", "Target"},
    {"teams", PF_OPT_BOOL, 0, 0, 1, "a flag", "Teams"},
};

static void test_options(void **unused) {
  (void)unused;
  pf_options o;
  pf_error err;
  pf_options_default(OPTS, 2, &o);
  assert_int_equal(o.v[0], 0);
  assert_int_equal(pf_option_parse_kv(OPTS, 2, "target=100", &o, &err), 0);
  assert_int_equal(o.v[0], 100);
  assert_int_equal(pf_option_parse_kv(OPTS, 2, "teams=true", &o, &err), 0);
  assert_int_equal(o.v[1], 1);
  /* Unknown keys are refused by name, listing the options. */
  assert_int_equal(pf_option_parse_kv(OPTS, 2, "tagret=5", &o, &err), -1);
  assert_non_null(strstr(err.msg, "unknown option 'tagret'"));
  assert_non_null(strstr(err.msg, "target, teams"));
  /* Bad values name the option and what is allowed. */
  const char *bad[] = {"target=x", "target=501", "target=-1", "target=", "target=1.5", "teams=1", "teams=yes", "target"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    if (pf_option_parse_kv(OPTS, 2, bad[i], &o, &err) == 0) fail_msg("'%s' should be refused", bad[i]);
    if (i < 7) assert_non_null(strstr(err.msg, i < 5 ? "from 0 to 500" : "true or false"));
  }
  assert_int_equal(o.v[0], 100); /* refused values change nothing */
}

/* ---- JSON text ---- */

/* pf_jw_dumps writes what json_dumps(JSON_COMPACT) writes, or refuses what it refuses. */
static void expect_like_jansson(json_t *v) {
  char *want = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY), *got = pf_jw_dumps(v, 0, false);
  if (!want != !got) fail_msg("jansson %s, pf_jw_dumps %s", want ? want : "(refused)", got ? got : "(refused)");
  if (want) assert_string_equal(got, want);
  free(want);
  free(got);
  json_decref(v);
}

/* A random value: every type, strings of every byte kind (controls, quotes, escapes, UTF-8 of
 * 2-4 bytes), keys likewise. */
static json_t *random_json(uint64_t *r, int depth) {
  static const char *const PIECES[] = {"a", "\"", "\\", "/", "\b", "\f", "\n", "\r", "\t", "\x01", "\x1f", "\x7f",
                                       "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x82\xa1", " ", "7H>p2"};
  uint64_t k = pf_splitmix64(r) % (depth > 3 ? 6 : 8);
  switch (k) {
  case 0: return json_null();
  case 1: return json_boolean(pf_splitmix64(r) & 1);
  case 2: return json_integer((json_int_t)pf_splitmix64(r) >> (pf_splitmix64(r) % 64));
  case 3: return json_real((double)(int64_t)pf_splitmix64(r) / 1e6);
  case 4:
  case 5: {
    char text[200] = "";
    for (int i = (int)(pf_splitmix64(r) % 8); i > 0; i--) strcat(text, PIECES[pf_splitmix64(r) % 17]);
    return json_string(text);
  }
  case 6: {
    json_t *a = json_array();
    for (int i = (int)(pf_splitmix64(r) % 5); i > 0; i--) json_array_append_new(a, random_json(r, depth + 1));
    return a;
  }
  default: {
    json_t *o = json_object();
    for (int i = (int)(pf_splitmix64(r) % 5); i > 0; i--) {
      json_t *key = random_json(r, 9); /* a leaf: a string now and then */
      json_object_set_new(o, json_is_string(key) ? json_string_value(key) : "k\xc3\xa9y", random_json(r, depth + 1));
      json_decref(key);
    }
    return o;
  }
  }
}

/* pf_jw_value and pf_jw_format write what json_dumps writes with JSON_INDENT(indent) (0:
 * JSON_COMPACT) and JSON_ENSURE_ASCII, reals at JSON_REAL_PRECISION(17). v is taken. */
static void expect_format_like_jansson(json_t *v, int indent, bool ascii) {
  size_t flags = (indent ? JSON_INDENT(indent) : JSON_COMPACT) | (ascii ? JSON_ENSURE_ASCII : 0) | JSON_ENCODE_ANY |
                 JSON_REAL_PRECISION(17);
  char *want = json_dumps(v, flags);
  pf_buf b = {0};
  pf_buf_puts(&b, "kept");
  pf_jw w = {.b = &b};
  pf_jw_value(&w, v);
  pf_jw_format(&b, 4, indent, ascii);
  if (!want != (w.rc != 0)) fail_msg("jansson %s, pf_jw %s", want ? want : "(refused)", w.rc ? "(refused)" : b.data);
  if (want) {
    assert_memory_equal(b.data, "kept", 4);
    assert_string_equal(b.data + 4, want);
  }
  free(want);
  pf_buf_free(&b);
  json_decref(v);
}

/* pf_jw_real writes what json_dumps writes of json_real. */
static void expect_real_like_jansson(double x) {
  json_t *v = json_real(x);
  char *want = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_jw_open(&w, '[');
  pf_jw_real(&w, x);
  pf_jw_close(&w, ']');
  char wrapped[64];
  snprintf(wrapped, sizeof wrapped, "[%s]", want);
  assert_int_equal(w.rc, 0);
  assert_string_equal(b.data, wrapped);
  free(want);
  pf_buf_free(&b);
  json_decref(v);
}

static void test_json_format(void **unused) {
  (void)unused;
  const double reals[] = {0.0,    -0.0,   1.0,     -1.0,   0.5,    0.1,     1.0 / 3,  2.0 / 3,   1e15,      1e16,
                          1e17,   1e20,   1e21,    1e22,   1e100,  1e300,   1e-4,     1e-5,      1e-7,      1e-300,
                          5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 123456789012345678.0, 0.25,
                          100.0,  -2.5e-10, 12345.678, 3.0e5,   -7e-100, 9007199254740993.0};
  for (size_t i = 0; i < sizeof reals / sizeof *reals; i++) expect_real_like_jansson(reals[i]);
  uint64_t r = 36;
  for (int i = 0; i < 20000; i++) { /* any finite bit pattern */
    uint64_t bits = pf_splitmix64(&r);
    double x;
    memcpy(&x, &bits, sizeof x);
    if (isfinite(x)) expect_real_like_jansson(x);
    expect_real_like_jansson((double)(int64_t)bits / (double)(1ULL << (bits % 64)));
  }
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_jw_real(&w, NAN); /* jansson has no such real */
  assert_int_equal(w.rc, -1);
  pf_buf_free(&b);
  expect_format_like_jansson(json_pack("{s:[], s:{}, s:[{}, []], s:s, s:f, s:{s:[i, {s:n}]}}", "a", "b", "c", "d",
                                       "caf\xc3\xa9 \xf0\x9f\x82\xa1 \\\"q\"\n", "e", 0.5, "f", "g", 1, "h"),
                             2, true);
  expect_format_like_jansson(json_string("\xe2\x82\xac: [1, {2}]"), 1, true);
  for (int i = 0; i < 6000; i++) expect_format_like_jansson(random_json(&r, 0), i % 3, i % 2);
}

static void test_json_text(void **unused) {
  (void)unused;
  expect_like_jansson(json_integer(INT64_MIN));
  expect_like_jansson(json_integer(INT64_MAX));
  expect_like_jansson(json_integer(0));
  expect_like_jansson(json_pack("{s:[], s:{}, s:s, s:f}", "a", "b", "c", "", "d", 0.5));
  expect_like_jansson(json_stringn("nul\0inside", 11));
  char bad[][5] = {"\xc3", "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xff", "\x80"}; /* cut, overlong, surrogate, too high */
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) expect_like_jansson(json_string_nocheck(bad[i]));
  uint64_t r = 16;
  for (int i = 0; i < 20000; i++) expect_like_jansson(random_json(&r, 0));
}

/* pf_snprintf writes what snprintf writes and returns what it returns, at every room from none
 * to enough (a cut text is cut where snprintf cuts it), for the formats it writes itself and for
 * those it hands on. The strings hold the edges: empty, one character, multibyte, a NUL cut by
 * %.*s, the integer types' least and greatest values. */
#define EXPECT_LIKE_SNPRINTF(...)                                                                   \
  do {                                                                                              \
    char want[256], got[256];                                                                       \
    int nw = snprintf(want, sizeof want, __VA_ARGS__);                                              \
    assert_true(nw >= 0 && nw < (int)sizeof want);                                                  \
    for (size_t cap = 0; cap <= (size_t)nw + 2; cap++) {                                            \
      memset(want, 'x', sizeof want), memset(got, 'x', sizeof got);                                 \
      assert_int_equal(snprintf(cap ? want : NULL, cap, __VA_ARGS__), nw);                          \
      assert_int_equal(pf_snprintf(cap ? got : NULL, cap, __VA_ARGS__), nw);                        \
      assert_memory_equal(got, want, sizeof want);                                                  \
    }                                                                                               \
  } while (0)

static void test_snprintf(void **unused) {
  (void)unused;
  const char *strs[] = {"", "a", "Seat 0's h1", "7\xe2\x99\xa5 takes", "100%"};
  for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
    EXPECT_LIKE_SNPRINTF("%s", strs[i]);
    EXPECT_LIKE_SNPRINTF("hand:%d.%s|%c|%%|%s", (int)i, strs[i], 'Q', strs[i]);
    for (int prec = -1; prec <= 8; prec++) EXPECT_LIKE_SNPRINTF("[%.*s]", prec, strs[i]);
  }
  EXPECT_LIKE_SNPRINTF("%.*s", 3, "ab\0cd");
  EXPECT_LIKE_SNPRINTF("no conversion at all");
  EXPECT_LIKE_SNPRINTF("%d %i %d %d %u %u", 0, -7, INT_MIN, INT_MAX, 0u, UINT_MAX);
  EXPECT_LIKE_SNPRINTF("%ld %li %lu %lld %lli %llu", LONG_MIN, LONG_MAX, ULONG_MAX, LLONG_MIN, LLONG_MAX, ULLONG_MAX);
  EXPECT_LIKE_SNPRINTF("%zu %zd %zu", (size_t)0, (ptrdiff_t)-5, SIZE_MAX);
  EXPECT_LIKE_SNPRINTF("%c%c", 'a', 0); /* a NUL written as a character */
  /* handed on to vsnprintf: flags, widths, precisions, other conversions, a NULL string */
  EXPECT_LIKE_SNPRINTF("%5d|%-4s|%+d|%03d|%.2s|%x|%g|%hd|%p", 42, "ab", 3, 7, "abcdef", 255u, 0.5, (short)-3, (void *)strs);
  const char *volatile null = NULL; /* hidden from the compiler's format checks */
  EXPECT_LIKE_SNPRINTF("%s and %d", null, 4);
  EXPECT_LIKE_SNPRINTF("%d then %5.1f", 9, 2.25);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_snprintf),
      cmocka_unit_test(test_G_8_card_notation),   cmocka_unit_test(test_card_scan),
      cmocka_unit_test(test_card_render),         cmocka_unit_test(test_rng_splitmix_reference),
      cmocka_unit_test(test_rng_specified_stream), cmocka_unit_test(test_rng_below_uniform_enough),
      cmocka_unit_test(test_decks),               cmocka_unit_test(test_deal_check),
      cmocka_unit_test(test_options),            cmocka_unit_test(test_pile_scan),
      cmocka_unit_test(test_json_text),          cmocka_unit_test(test_json_format),          cmocka_unit_test(test_siphash_reference),
      cmocka_unit_test(test_cards_resample),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
