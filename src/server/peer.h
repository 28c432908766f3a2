/*
 * peer.h - who is at the other end of a connection: the client's address, and whether a page may
 * open a WebSocket here.
 */
#ifndef PF_SERVER_PEER_H
#define PF_SERVER_PEER_H

#include <stdbool.h>
#include <stddef.h>

#include "server/transport.h"

/* An address in one form: IPv4 as itself (also when given IPv4-mapped, "::ffff:1.2.3.4"), IPv6 as
 * inet_ntop writes it; false when `text` is no address. */
bool pf_peer_canonical(const char *text, char *out, size_t n);
/* Whether an address (canonical, as pf_peer_canonical writes it) is one of --trust-proxy's. */
bool pf_peer_trusted(const server *srv, const char *ip);
/* The client's address: the peer's, or, when the peer is a trusted proxy, the last address of its
 * X-Forwarded-For (the one that proxy saw) when that is an address. */
bool pf_peer_address(server *srv, struct lws *wsi, char *ip, size_t n);
/* Whether a WebSocket upgrade may come from its Origin (none, the server's own, or --origin). */
bool pf_peer_origin_allowed(server *srv, struct lws *wsi);
/* The client of a connection (its address's, pf_peer_address), added when new; NULL when its
 * address cannot be told or the table of clients is full (clients_max). key gets its key (or
 * what stood for its address), for messages. */
pf_client *pf_peer_client(server *srv, struct lws *wsi, char *key, size_t n);
/* Whether the Host header names this server (DNS rebinding: a page of evil.example whose name
 * the attacker's DNS points at 127.0.0.1 sends "Host: evil.example"): an address, "localhost"
 * or a name under it, the --listen name, or an --origin's host; no Host at all (not a browser)
 * too. host gets the header as sent, for the refusal's message. */
bool pf_peer_host_allowed(const server *srv, struct lws *wsi, char *host, size_t n);

#endif
