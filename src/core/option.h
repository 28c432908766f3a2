/*
 * option.h - game options (`-o key=value`): typed, validated, with defaults.
 */
#ifndef PF_OPTION_H
#define PF_OPTION_H

#include <stdint.h>

#include "core/buf.h"

#define PF_MAX_OPTIONS 8

typedef enum pf_option_type { PF_OPT_INT, PF_OPT_BOOL } pf_option_type;

/* One option of a game. For PF_OPT_BOOL, min is 0 and max is 1 (false, true). */
typedef struct pf_option_desc {
  const char *name;
  pf_option_type type;
  int64_t def, min, max;
  const char *help;  /* one line, for `pilfer games` */
  const char *label; /* its name for players, a few words ("Hands in a game"): the lobby's */
} pf_option_desc;

/* The values of every option of a game, in the order of its descriptions. */
typedef struct pf_options {
  int64_t v[PF_MAX_OPTIONS];
} pf_options;

/* Fills every option with its default. */
void pf_options_default(const pf_option_desc *desc, int n, pf_options *out);
/* Index of the option called name, or -1. */
int pf_option_find(const pf_option_desc *desc, int n, const char *name);
/* Checks a value against its option's type and range; the message names the option and what is
 * allowed. */
int pf_option_check(const pf_option_desc *d, int64_t value, pf_error *err);
/* Parses "key=value" into out; unknown keys and bad values are refused with a message that names
 * them and lists what is allowed. */
int pf_option_parse_kv(const pf_option_desc *desc, int n, const char *kv, pf_options *out,
                       pf_error *err);
/* Parses space-separated "key=value" pairs ("hands=1 pile=true"; NULL or "" for none) into out,
 * as pf_option_parse_kv does each. */
int pf_options_parse_list(const pf_option_desc *desc, int n, const char *list, pf_options *out, pf_error *err);
/* Parses a value given as text ("12", "true", "false") for option d. */
int pf_option_parse_value(const pf_option_desc *d, const char *text, int64_t *out, pf_error *err);
/* Writes "name (type, default D, from MIN to MAX)" style text describing what is allowed. */
void pf_option_describe(const pf_option_desc *d, pf_buf *out);

#endif
