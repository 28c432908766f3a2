/*
 * cli_rules.c - a game's rules, in the markup of games/rules.h, as plain text for a terminal:
 * headings underlined, paragraphs and list items wrapped, tables aligned in columns.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/buf.h"

#define RULES_WIDTH 78
#define MAX_COLS 12 /* a table's limits (games/rules.h) */
#define MAX_ROWS 64

/* The columns a UTF-8 text of n bytes takes: one per character. */
static int text_width(const char *s, size_t n) {
  int w = 0;
  for (size_t i = 0; i < n; i++) w += ((unsigned char)s[i] & 0xC0) != 0x80;
  return w;
}

/* Appends n bytes of a line's text without its backquotes (what a player types reads plainly). */
static void put_inline(pf_buf *out, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] != '`') pf_buf_putc(out, s[i]);
}

static void put_repeat(pf_buf *out, char c, int n) {
  for (int i = 0; i < n; i++) pf_buf_putc(out, c);
}

/* Appends text (inline markup already taken out) wrapped to width columns: the first line starts
 * with `first`, the others with `indent` spaces. A word longer than a line stands alone. */
static void put_wrapped(pf_buf *out, const char *text, const char *first, int indent, int width) {
  int col = text_width(first, strlen(first));
  bool line_empty = true;
  pf_buf_puts(out, first);
  for (const char *p = text; *p;) {
    p += strspn(p, " ");
    if (!*p) break;
    size_t n = strcspn(p, " ");
    int w = text_width(p, n);
    if (!line_empty && col + 1 + w > width) {
      pf_buf_putc(out, '\n');
      put_repeat(out, ' ', indent);
      col = indent;
      line_empty = true;
    }
    if (!line_empty) pf_buf_putc(out, ' '), col++;
    pf_buf_append(out, p, n);
    col += w;
    line_empty = false;
    p += n;
  }
  pf_buf_putc(out, '\n');
}

/* The cells of a table row "| a | b |", trimmed, into cells[] (each a start and a length). */
static int split_row(const char *line, size_t len, const char *cell[], size_t cell_len[]) {
  int n = 0;
  const char *end = line + len;
  while (end > line && end[-1] == ' ') end--;
  if (end > line && end[-1] == '|') end--;
  for (const char *p = line + 1; p < end && n < MAX_COLS; n++) {
    const char *bar = memchr(p, '|', (size_t)(end - p));
    const char *stop = bar ? bar : end;
    const char *a = p, *b = stop;
    while (a < b && *a == ' ') a++;
    while (b > a && b[-1] == ' ') b--;
    cell[n] = a, cell_len[n] = (size_t)(b - a);
    p = stop + 1;
  }
  return n;
}

static bool is_rule_row(const char *line, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (!strchr("|-: ", line[i])) return false;
  return true;
}

static bool is_number(const char *s, size_t n) {
  if (n == 0) return false;
  for (size_t i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

/* The table of `nrows` lines starting at rows[0]: columns as wide as their widest cell, two
 * spaces apart, the header underlined; a column of numbers is aligned right. When the table is
 * wider than `width`, the last column's cells are wrapped under its start. */
static void put_table(pf_buf *out, const char *const *rows, const size_t *row_len, int nrows, int width) {
  int cols[MAX_COLS] = {0}, ncols = 0;
  bool numeric[MAX_COLS];
  for (int c = 0; c < MAX_COLS; c++) numeric[c] = true;
  const char *cell[MAX_COLS];
  size_t cell_len[MAX_COLS];
  pf_buf text = {0}, line = {0};
  for (int r = 0; r < nrows; r++) {
    if (is_rule_row(rows[r], row_len[r])) continue;
    int n = split_row(rows[r], row_len[r], cell, cell_len);
    if (n > ncols) ncols = n;
    for (int c = 0; c < n; c++) {
      pf_buf_clear(&text);
      put_inline(&text, cell[c], cell_len[c]);
      int w = text_width(pf_buf_str(&text), text.len);
      if (w > cols[c]) cols[c] = w;
      if (r > 0 && !is_number(cell[c], cell_len[c])) numeric[c] = false;
    }
  }
  int last_start = 0; /* the column where the last column starts */
  for (int c = 0; c + 1 < ncols; c++) last_start += cols[c] + 2;
  if (ncols > 0 && last_start + cols[ncols - 1] > width && width - last_start >= 20)
    cols[ncols - 1] = width - last_start;
  for (int r = 0; r < nrows; r++) {
    if (is_rule_row(rows[r], row_len[r])) continue;
    int n = split_row(rows[r], row_len[r], cell, cell_len);
    pf_buf_clear(&line);
    for (int c = 0; c + 1 < ncols; c++) {
      pf_buf_clear(&text);
      if (c < n) put_inline(&text, cell[c], cell_len[c]);
      int pad = cols[c] - text_width(pf_buf_str(&text), text.len);
      bool right = numeric[c] && r > 0;
      if (right) put_repeat(&line, ' ', pad);
      pf_buf_puts(&line, pf_buf_str(&text));
      if (!right) put_repeat(&line, ' ', pad);
      pf_buf_puts(&line, "  ");
    }
    pf_buf_clear(&text);
    if (ncols - 1 < n) put_inline(&text, cell[ncols - 1], cell_len[ncols - 1]);
    if (numeric[ncols - 1] && r > 0) put_repeat(&line, ' ', cols[ncols - 1] - text_width(pf_buf_str(&text), text.len));
    if (!text.len) /* nothing in the last column: no trailing spaces */
      while (line.len && line.data[line.len - 1] == ' ') line.data[--line.len] = '\0';
    put_wrapped(out, pf_buf_str(&text), pf_buf_str(&line), last_start, width);
    if (r == 0) {
      for (int c = 0; c < ncols; c++) {
        put_repeat(out, '-', cols[c]);
        if (c + 1 < ncols) pf_buf_puts(out, "  ");
      }
      pf_buf_putc(out, '\n');
    }
  }
  pf_buf_free(&text);
  pf_buf_free(&line);
}

/* The length of the line at s, without its newline, and where the next one starts. */
static size_t line_len(const char *s, const char **next) {
  size_t n = strcspn(s, "\n");
  *next = s[n] ? s + n + 1 : s + n;
  return n;
}

static bool is_blank(const char *s, size_t n) { return strspn(s, " ") >= n; }
static bool is_item(const char *s, size_t n) { return n >= 2 && s[0] == '-' && s[1] == ' '; }
/* A line that starts a block of its own kind (a paragraph ends before it). */
static bool starts_block(const char *s, size_t n) { return s[0] == '#' || s[0] == '|' || is_item(s, n); }

void cli_rules_text(const char *markup, int width, pf_buf *out) {
  pf_buf text = {0};
  const char *rows[MAX_ROWS];
  size_t row_len[MAX_ROWS];
  bool first = true;
  for (const char *line = markup, *next; *line; line = next) {
    size_t len = line_len(line, &next);
    if (is_blank(line, len)) continue;
    if (!first) pf_buf_putc(out, '\n');
    first = false;
    pf_buf_clear(&text);
    if (line[0] == '#') { /* a heading, underlined: the title with =, a section with -, a part ~ */
      int level = (int)strspn(line, "#");
      const char *h = line + level + strspn(line + level, " ");
      put_inline(&text, h, (size_t)(line + len - h));
      pf_buf_printf(out, "%s\n", pf_buf_str(&text));
      put_repeat(out, level == 1 ? '=' : level == 2 ? '-' : '~', text_width(pf_buf_str(&text), text.len));
      pf_buf_putc(out, '\n');
    } else if (line[0] == '|') { /* a table: its rows, one a line */
      int nrows = 0;
      for (; *line == '|'; line = next, len = line_len(line, &next))
        if (nrows < MAX_ROWS) rows[nrows] = line, row_len[nrows] = len, nrows++;
      next = line;
      put_table(out, rows, row_len, nrows, width);
    } else if (is_item(line, len)) { /* a list: its items and their continuation lines */
      for (; is_item(line, len); line = next, len = line_len(line, &next)) {
        pf_buf_clear(&text);
        put_inline(&text, line + 2, len - 2);
        while (next[0] == ' ' && next[1] == ' ') {
          const char *after;
          size_t n = line_len(next, &after);
          if (is_blank(next, n)) break;
          pf_buf_putc(&text, ' ');
          put_inline(&text, next + 2, n - 2);
          next = after;
        }
        put_wrapped(out, pf_buf_str(&text), "- ", 2, width);
      }
      next = line;
    } else { /* a paragraph: lines up to a blank one or another block */
      put_inline(&text, line, len);
      for (;;) {
        line = next;
        len = line_len(line, &next);
        if (!*line || is_blank(line, len) || starts_block(line, len)) break;
        pf_buf_putc(&text, ' ');
        put_inline(&text, line, len);
      }
      next = line;
      put_wrapped(out, pf_buf_str(&text), "", 0, width);
    }
  }
  pf_buf_free(&text);
}

void cli_print_rules(const pf_game *g, FILE *f) {
  pf_buf out = {0};
  cli_rules_text(g->rules, RULES_WIDTH, &out);
  fputs(pf_buf_str(&out), f);
  pf_buf_free(&out);
}
