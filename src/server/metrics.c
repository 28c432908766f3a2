/*
 * metrics.c - Prometheus's text format for pilfer serve's figures (metrics.h).
 */
#include "server/metrics.h"

#include <stdio.h>
#include <string.h>

static const double BOUNDS[PF_HIST_BUCKETS] = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                               0.1,    0.25,  0.5,    1,     2.5,  5,     10};

void pf_histogram_observe(pf_histogram *h, double seconds, uint64_t times) {
  if (times == 0) return;
  if (seconds < 0) seconds = 0;
  int b = 0;
  while (b < PF_HIST_BUCKETS && seconds > BOUNDS[b]) b++;
  atomic_fetch_add_explicit(&h->bucket[b], times, memory_order_relaxed);
  atomic_fetch_add_explicit(&h->sum_ns, (uint64_t)(seconds * 1e9) * times, memory_order_relaxed);
}

void pf_metric_head(pf_buf *out, const char *name, const char *type, const char *help) {
  pf_buf_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

void pf_metric(pf_buf *out, const char *name, const char *type, const char *help, double value) {
  pf_metric_head(out, name, type, help);
  pf_buf_printf(out, "%s %.17g\n", name, value);
}

void pf_metric_sample(pf_buf *out, const char *name, const char *label, const char *value, double v) {
  pf_buf_printf(out, "%s{%s=\"%s\"} %.17g\n", name, label, value, v);
}

void pf_histogram_write(pf_buf *out, const char *name, const char *help, const pf_histogram *h) {
  pf_metric_head(out, name, "histogram", help);
  uint64_t cum = 0;
  for (int b = 0; b <= PF_HIST_BUCKETS; b++) {
    cum += atomic_load_explicit(&h->bucket[b], memory_order_relaxed);
    if (b < PF_HIST_BUCKETS) pf_buf_printf(out, "%s_bucket{le=\"%g\"} %llu\n", name, BOUNDS[b], (unsigned long long)cum);
    else pf_buf_printf(out, "%s_bucket{le=\"+Inf\"} %llu\n", name, (unsigned long long)cum);
  }
  pf_buf_printf(out, "%s_sum %.9f\n%s_count %llu\n", name,
                (double)atomic_load_explicit(&h->sum_ns, memory_order_relaxed) / 1e9, name, (unsigned long long)cum);
}

/* A label's value as the format allows it in quotes: letters, digits, '_', '-', '.'; anything
 * else becomes '_' (the values are the server's own codes, but no byte of them is trusted). */
static void label_value(char *dst, size_t n, const char *src) {
  size_t i = 0;
  for (; src[i] && i + 1 < n; i++) {
    char ch = src[i];
    dst[i] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || strchr("_-.", ch) ? ch : '_';
  }
  dst[i] = 0;
}

void pf_counts_add(pf_counts *c, const char *value) {
  char v[32];
  label_value(v, sizeof v, value);
  int n = atomic_load_explicit(&c->nvalues, memory_order_acquire);
  for (int i = 0; i < n; i++)
    if (strcmp(c->value[i], v) == 0) {
      atomic_fetch_add_explicit(&c->n[i], 1, memory_order_relaxed);
      return;
    }
  if (n == PF_COUNT_LABELS) { /* full: the last slot is "other" */
    atomic_fetch_add_explicit(&c->n[n - 1], 1, memory_order_relaxed);
    return;
  }
  snprintf(c->value[n], sizeof c->value[n], "%s", n == PF_COUNT_LABELS - 1 ? "other" : v);
  atomic_store_explicit(&c->n[n], 1, memory_order_relaxed);
  atomic_store_explicit(&c->nvalues, n + 1, memory_order_release);
}

void pf_counts_write(pf_buf *out, const char *name, const char *label, const char *help, const pf_counts *c) {
  pf_metric_head(out, name, "counter", help);
  int n = atomic_load_explicit(&((pf_counts *)c)->nvalues, memory_order_acquire);
  for (int i = 0; i < n; i++)
    pf_metric_sample(out, name, label, c->value[i], (double)atomic_load_explicit(&((pf_counts *)c)->n[i], memory_order_relaxed));
}
