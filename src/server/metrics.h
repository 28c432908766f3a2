/*
 * metrics.h - what `GET /metrics` tells (Prometheus's text format, version 0.0.4): counters,
 * gauges and latency histograms, kept by the store (commits, moves), the hall (errors by code,
 * the passes' latency) and the transport (connections, limits hit), and written out on request.
 * docs/operations.md, "Metrics", lists every series.
 *
 * A histogram or a counter may be bumped from one thread while another writes it out: their
 * numbers are relaxed atomics (a scrape may see one bucket a step ahead of the count, as
 * Prometheus's own clients allow).
 */
#ifndef PF_METRICS_H
#define PF_METRICS_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/buf.h"

/* Latency buckets, in seconds: 0.5 ms to 10 s, then +Inf. */
#define PF_HIST_BUCKETS 14
typedef struct pf_histogram {
  _Atomic uint64_t bucket[PF_HIST_BUCKETS + 1]; /* non-cumulative; the last is +Inf */
  _Atomic uint64_t sum_ns;
} pf_histogram;

/* `times` observations of `seconds` each. */
void pf_histogram_observe(pf_histogram *h, double seconds, uint64_t times);
void pf_histogram_write(pf_buf *out, const char *name, const char *help, const pf_histogram *h);

/* A counter by one label, for a bounded set of values (error codes, limits): at most
 * PF_COUNT_LABELS distinct values, later ones are counted under "other". Values are added by one
 * thread only. */
#define PF_COUNT_LABELS 48
typedef struct pf_counts {
  char value[PF_COUNT_LABELS][32];
  _Atomic uint64_t n[PF_COUNT_LABELS];
  _Atomic int nvalues;
} pf_counts;

void pf_counts_add(pf_counts *c, const char *value);
void pf_counts_write(pf_buf *out, const char *name, const char *label, const char *help, const pf_counts *c);

/* One series without labels: its HELP and TYPE lines, then its value. */
void pf_metric(pf_buf *out, const char *name, const char *type, const char *help, double value);
/* The HELP and TYPE lines of a series whose labelled samples follow (pf_metric_sample). */
void pf_metric_head(pf_buf *out, const char *name, const char *type, const char *help);
void pf_metric_sample(pf_buf *out, const char *name, const char *label, const char *value, double v);

#endif
