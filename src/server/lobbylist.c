/*
 * lobbylist.c - the lobby's list kept as ready texts (lobbylist.h).
 */
#include "server/lobbylist.h"

#include <stdlib.h>
#include <string.h>

pf_lobbylist *pf_lobbylist_new(void) { return pf_xcalloc(1, sizeof(pf_lobbylist)); }

void pf_lobbylist_free(pf_lobbylist *l) {
  if (!l) return;
  for (int i = 0; i < l->nlive; i++) free(l->live[i].text);
  for (int i = 0; i < l->nover; i++) free(l->over[i].text);
  free(l->live);
  free(l);
}

void pf_lobbylist_set_text(pf_lobbylist_entry *e, char *text) {
  free(e->text);
  e->text = text;
  e->len = text ? strlen(text) : 0;
}

/* Where id is or would go in a part sorted by id, highest first (binary search). */
static int find(const pf_lobbylist_entry *a, int n, int64_t id) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid].id > id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

void pf_lobbylist_set_live(pf_lobbylist *l, int64_t id, int status, bool open) {
  int i = find(l->live, l->nlive, id);
  if (i == l->nlive || l->live[i].id != id) {
    if (l->nlive == l->caplive) {
      l->caplive = l->caplive ? 2 * l->caplive : 64;
      l->live = pf_xrealloc(l->live, (size_t)l->caplive * sizeof *l->live);
    }
    memmove(l->live + i + 1, l->live + i, (size_t)(l->nlive - i) * sizeof *l->live);
    l->nlive++;
    l->live[i] = (pf_lobbylist_entry){.id = id};
  }
  pf_lobbylist_entry *e = &l->live[i];
  pf_lobbylist_set_text(e, NULL);
  e->status = status;
  e->open = open;
}

void pf_lobbylist_drop_live(pf_lobbylist *l, int i) {
  free(l->live[i].text);
  memmove(l->live + i, l->live + i + 1, (size_t)(l->nlive - i - 1) * sizeof *l->live);
  l->nlive--;
}

bool pf_lobbylist_has_over(const pf_lobbylist *l, int64_t id) {
  int i = find(l->over, l->nover, id);
  return i < l->nover && l->over[i].id == id;
}

void pf_lobbylist_set_over(pf_lobbylist *l, int64_t id, char *text) {
  int i = find(l->live, l->nlive, id);
  if (i < l->nlive && l->live[i].id == id) pf_lobbylist_drop_live(l, i);
  i = find(l->over, l->nover, id);
  if ((i < l->nover && l->over[i].id == id) || i == LIST_MAX) { /* there already (it does not change), or too old */
    free(text);
    return;
  }
  if (l->nover == LIST_MAX) free(l->over[--l->nover].text);
  memmove(l->over + i + 1, l->over + i, (size_t)(l->nover - i) * sizeof *l->over);
  l->nover++;
  l->over[i] = (pf_lobbylist_entry){.id = id, .status = ST_OVER};
  pf_lobbylist_set_text(&l->over[i], text);
}
