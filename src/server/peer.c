/*
 * peer.c - who is at the other end of a connection (peer.h): the client's address (behind a
 * trusted proxy, the one it forwarded), and whether a browser's page may open a WebSocket here.
 */
#include "server/peer.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "core/clock.h"

/* An address in one form: IPv4 as itself (also when lws gives it IPv4-mapped, "::ffff:1.2.3.4"),
 * IPv6 as inet_ntop writes it; false when `text` is no address. */
bool pf_peer_canonical(const char *text, char *out, size_t n) {
  unsigned char bin[16];
  if (strncasecmp(text, "::ffff:", 7) == 0 && inet_pton(AF_INET, text + 7, bin) == 1) text += 7;
  if (inet_pton(AF_INET, text, bin) == 1) return inet_ntop(AF_INET, bin, out, (socklen_t)n) != NULL;
  return inet_pton(AF_INET6, text, bin) == 1 && inet_ntop(AF_INET6, bin, out, (socklen_t)n) != NULL;
}

bool pf_peer_trusted(const server *srv, const char *ip) {
  char proxy[64];
  for (int i = 0; i < srv->cfg->nproxies; i++)
    if (pf_peer_canonical(srv->cfg->proxies[i], proxy, sizeof proxy) && strcmp(ip, proxy) == 0) return true;
  return false;
}

/* The client's address: the peer's, or, when the peer is a trusted proxy, the last address of
 * its X-Forwarded-For (the one that proxy saw) when that is an address. */
bool pf_peer_address(server *srv, struct lws *wsi, char *ip, size_t n) {
  char peer[64], xff[512], cand[64];
  if (!lws_get_peer_simple(wsi, peer, sizeof peer)) return false;
  if (!pf_peer_canonical(peer, ip, n)) snprintf(ip, n, "%s", peer);
  if (!pf_peer_trusted(srv, ip) || lws_hdr_copy(wsi, xff, sizeof xff, WSI_TOKEN_X_FORWARDED_FOR) <= 0) return true;
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

pf_client *pf_peer_client(server *srv, struct lws *wsi, char *key, size_t n) {
  char ip[64];
  snprintf(key, n, "?");
  if (!pf_peer_address(srv, wsi, ip, sizeof ip)) return NULL;
  snprintf(key, n, "%s", ip);
  if (!pf_client_key(ip, key, n)) return NULL;
  return pf_client_get(srv->clients, key, pf_clock_seconds());
}

/* The host of an authority ("name:port", "[v6]:port", "1.2.3.4"), lower case, without its port
 * or a final dot; false when it is not one. */
static bool authority_host(const char *authority, size_t len, char *out, size_t n) {
  size_t end = len;
  if (len && authority[0] == '[') {
    const char *close = memchr(authority, ']', len);
    if (!close) return false;
    end = (size_t)(close - authority) + 1;
    if (end < len && authority[end] != ':') return false;
  } else {
    const char *colon = memchr(authority, ':', len);
    if (colon) end = (size_t)(colon - authority);
    if (colon && memchr(colon + 1, ':', len - end - 1)) return false;
  }
  if (end && authority[end - 1] == '.' && authority[0] != '[') end--;
  if (end == 0 || end >= n) return false;
  for (size_t i = 0; i < end; i++) out[i] = (char)tolower((unsigned char)authority[i]);
  out[end] = '\0';
  return true;
}

bool pf_peer_host_allowed(const server *srv, struct lws *wsi, char *host, size_t n) {
  char raw[256], name[256], v6[64];
  unsigned char bin[16];
  snprintf(host, n, "?");
  int len = lws_hdr_total_length(wsi, WSI_TOKEN_HOST);
  if (len <= 0) return true; /* no browser leaves it out */
  if (len >= (int)sizeof raw || lws_hdr_copy(wsi, raw, sizeof raw, WSI_TOKEN_HOST) <= 0) return false;
  snprintf(host, n, "%s", raw);
  if (!authority_host(raw, strlen(raw), name, sizeof name)) return false;
  /* An address is never a rebinding page's: that needs a name the attacker's DNS answers. */
  if (inet_pton(AF_INET, name, bin) == 1) return true;
  if (name[0] == '[') {
    snprintf(v6, sizeof v6, "%.*s", (int)strlen(name) - 2, name + 1);
    return strlen(name) < sizeof v6 && inet_pton(AF_INET6, v6, bin) == 1;
  }
  size_t nl = strlen(name);
  if (strcmp(name, "localhost") == 0 || (nl > 10 && strcmp(name + nl - 10, ".localhost") == 0)) return true;
  const pf_serve_config *cfg = srv->cfg;
  if (cfg->iface && strcasecmp(cfg->iface, name) == 0) return true;
  for (int i = 0; i < cfg->norigins; i++) {
    const char *o = strstr(cfg->origins[i], "://");
    char oname[256];
    if (o && authority_host(o + 3, strcspn(o + 3, "/"), oname, sizeof oname) && strcmp(oname, name) == 0) return true;
  }
  return false;
}
