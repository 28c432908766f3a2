/*
 * text.c - the checks of text people write (text.h).
 */
#include "server/text.h"

#include <stdio.h>
#include <string.h>

/* The code point at p (valid UTF-8 of n bytes, as jansson hands over), its length in *len; -1
 * for bytes that are not one. */
static long utf8_next(const unsigned char *p, size_t n, int *len) {
  int k = p[0] < 0x80 ? 1 : (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3 : (p[0] & 0xF8) == 0xF0 ? 4 : 0;
  if (!k || (size_t)k > n) return -1;
  long c = k == 1 ? p[0] : p[0] & (0x3F >> (k - 1));
  for (int i = 1; i < k; i++) {
    if ((p[i] & 0xC0) != 0x80) return -1;
    c = c << 6 | (p[i] & 0x3F);
  }
  static const long least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < least[k] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return -1;
  *len = k;
  return c;
}

static bool is_space(long c) {
  return c == ' ' || (c >= 0x09 && c <= 0x0D) || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
         c == 0x202F || c == 0x205F || c == 0x3000;
}

/* Characters no name or message may hold: controls, and the invisible ones that reorder or hide
 * text (bidirectional overrides and isolates, zero widths, line separators, tags). */
static bool is_control(long c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || (c >= 0x200B && c <= 0x200F) || (c >= 0x2028 && c <= 0x202E) ||
         (c >= 0x2060 && c <= 0x206F) || c == 0xFEFF || (c >= 0xFFF9 && c <= 0xFFFB) || (c >= 0xE0000 && c <= 0xE007F);
}

/* Characters that show nothing of their own: white space, fillers (the Hangul ones, the Braille
 * blank), and the format characters and selectors a text may hold but that draw nothing alone
 * (soft hyphen, grapheme joiner, Arabic letter mark, Mongolian and other variation selectors,
 * Khmer's inherent vowels, musical and shorthand format controls). A text made only of these
 * would be a name nobody sees. */
static bool is_blank(long c) {
  return is_space(c) || c == 0x00AD || c == 0x034F || c == 0x061C || c == 0x115F || c == 0x1160 || c == 0x17B4 ||
         c == 0x17B5 || (c >= 0x180B && c <= 0x180F) || c == 0x2800 || c == 0x3164 || (c >= 0xFE00 && c <= 0xFE0F) ||
         c == 0xFFA0 || (c >= 0x1BCA0 && c <= 0x1BCA3) || (c >= 0x1D173 && c <= 0x1D17A) ||
         (c >= 0xE0100 && c <= 0xE01EF);
}

/* Checks text a person wrote (a name, a chat message) and copies it into out, trimmed of white
 * space at both ends: 1 to max characters, valid UTF-8, no control character, at least one that
 * shows (not only blanks, fillers and format characters). -1 with why. */
int pf_text_check(const char *in, size_t n, int max, char *out, size_t outsz, char *why, size_t whysz) {
  const unsigned char *p = (const unsigned char *)in, *end = p + n;
  int len;
  long c;
  while (p < end && (c = utf8_next(p, (size_t)(end - p), &len)) >= 0 && is_space(c)) p += len;
  const unsigned char *start = p, *last = p;
  int chars = 0;
  bool visible = false;
  for (; p < end; p += len) {
    if ((c = utf8_next(p, (size_t)(end - p), &len)) < 0)
      return snprintf(why, whysz, "byte %d is not UTF-8", (int)(p - (const unsigned char *)in)), -1;
    if (is_control(c))
      return snprintf(why, whysz, "character %d is a control character (U+%04lX)", chars + 1, c), -1;
    chars++;
    if (!is_space(c)) last = p + len;
    visible |= !is_blank(c);
  }
  chars = 0;
  for (p = start; p < last; p += len) utf8_next(p, (size_t)(last - p), &len), chars++;
  if (!chars) return snprintf(why, whysz, "it is empty (white space only)"), -1;
  if (!visible) return snprintf(why, whysz, "it shows nothing: each of its characters is blank or invisible"), -1;
  if (chars > max || (size_t)(last - start) >= outsz)
    return snprintf(why, whysz, "it has %d characters; the most is %d", chars, max), -1;
  memcpy(out, start, (size_t)(last - start));
  out[last - start] = 0;
  return 0;
}
