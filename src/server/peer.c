/*
 * peer.c - who is at the other end of a connection (peer.h): the client's address (behind a
 * trusted proxy, the one it forwarded), and whether a browser's page may open a WebSocket here.
 */
#include "server/peer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "core/mem.h"

/* An address in one form: IPv4 as itself (also when lws gives it IPv4-mapped, "::ffff:1.2.3.4"),
 * IPv6 as inet_ntop writes it; false when `text` is no address. */
bool pf_peer_canonical(const char *text, char *out, size_t n) {
  unsigned char bin[16];
  if (strncasecmp(text, "::ffff:", 7) == 0 && inet_pton(AF_INET, text + 7, bin) == 1) text += 7;
  if (inet_pton(AF_INET, text, bin) == 1) return inet_ntop(AF_INET, bin, out, (socklen_t)n) != NULL;
  return inet_pton(AF_INET6, text, bin) == 1 && inet_ntop(AF_INET6, bin, out, (socklen_t)n) != NULL;
}

/* The client's address: the peer's, or, when the peer is a trusted proxy, the last address of
 * its X-Forwarded-For (the one that proxy saw) when that is an address. */
bool pf_peer_address(server *srv, struct lws *wsi, char *ip, size_t n) {
  char peer[64], xff[512], cand[64], proxy[64];
  if (!lws_get_peer_simple(wsi, peer, sizeof peer)) return false;
  if (!pf_peer_canonical(peer, ip, n)) snprintf(ip, n, "%s", peer);
  bool trusted = false;
  for (int i = 0; i < srv->cfg->nproxies && !trusted; i++)
    trusted = pf_peer_canonical(srv->cfg->proxies[i], proxy, sizeof proxy) && strcmp(ip, proxy) == 0;
  if (!trusted || lws_hdr_copy(wsi, xff, sizeof xff, WSI_TOKEN_X_FORWARDED_FOR) <= 0) return true;
  const char *last = strrchr(xff, ',');
  last = last ? last + 1 : xff;
  last += strspn(last, " \t");
  size_t len = strcspn(last, " \t");
  if (len == 0 || len >= sizeof cand) return true;
  snprintf(cand, sizeof cand, "%.*s", (int)len, last);
  pf_peer_canonical(cand, ip, n); /* not an address: the proxy's own stays */
  return true;
}

/* Whether a WebSocket upgrade may come from its Origin: none (not a browser: no page of another
 * site can be behind it), the server's own (the Origin's host[:port] is the Host header), or one
 * of --origin. Anything else, "null" too, is another site's page: cross-site WebSocket hijacking. */
bool pf_peer_origin_allowed(server *srv, struct lws *wsi) {
  if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0) return true;
  char origin[256], host[256];
  if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) <= 0) return false;
  for (int i = 0; i < srv->cfg->norigins; i++)
    if (strcasecmp(origin, srv->cfg->origins[i]) == 0) return true;
  const char *authority = strncasecmp(origin, "http://", 7) == 0    ? origin + 7
                          : strncasecmp(origin, "https://", 8) == 0 ? origin + 8
                                                                     : NULL;
  return authority && lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) > 0 && strcasecmp(authority, host) == 0;
}

/* The index of a client's address, added when new; -1 when it cannot be told. */
int pf_peer_address_index(server *srv, struct lws *wsi) {
  char ip[64];
  if (!pf_peer_address(srv, wsi, ip, sizeof ip)) return -1;
  int free_slot = -1;
  for (int i = 0; i < srv->naddrs; i++) {
    if (strcmp(srv->addrs[i].ip, ip) == 0) return i;
    if (!srv->addrs[i].conns && free_slot < 0) free_slot = i;
  }
  if (free_slot < 0) {
    srv->addrs = pf_xrealloc(srv->addrs, (size_t)(srv->naddrs + 1) * sizeof *srv->addrs);
    free_slot = srv->naddrs++;
  }
  snprintf(srv->addrs[free_slot].ip, sizeof srv->addrs[free_slot].ip, "%s", ip);
  srv->addrs[free_slot].conns = 0;
  return free_slot;
}
