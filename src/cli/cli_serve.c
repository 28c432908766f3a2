/*
 * cli_serve.c - `pilfer serve`: reads the command line and hands over to server/serve.c.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "server/log.h"
#include "server/serve.h"

static const char USAGE[] =
    "usage: pilfer serve [--listen ADDRESS:PORT] [--db FILE] [--web DIR] [--workers N] [--helpers N]\n"
    "                    [--sync normal|full] [--reports DIR] [--limit NAME=N]... [--origin URL]...\n"
    "                    [--trust-proxy ADDRESS]... [--metrics-token-file FILE] [--log text|json]\n"
    "                    [--shard I/N]\n"
    "\n"
    "Serves the game server and its web page on one port: HTTP, and WebSocket at /ws (the protocol\n"
    "is docs/protocol.md). Everything is kept in an SQLite database; after a restart, even after\n"
    "the process was killed, every unfinished table comes back as it was.\n"
    "\n"
    "  --listen ADDRESS:PORT  where to listen (default 127.0.0.1:8080; port 0: any free port;\n"
    "                         ADDRESS * or an empty one: every interface)\n"
    "  --db FILE              the database (default pilfer.db; created when missing)\n"
    "  --web DIR              the web page's folder (default: the first of EXEDIR/../share/pilfer/web,\n"
    "                         EXEDIR/../web and EXEDIR/web that holds index.html, EXEDIR being the\n"
    "                         folder of the pilfer binary; without one only /api/ and /ws answer)\n"
    "  --reports DIR          serve the reports of pilfer analyze --html in DIR at /reports/NAME.html\n"
    "                         and list them at /api/reports (the lobby links each game to its report:\n"
    "                         a name that begins with the game's id, as thief.html or thief-4p.html)\n"
    "  --workers N            threads for the bots' searches (default: the cores, at least 1)\n"
    "  --helpers N            threads that build the players' states with the network's thread\n"
    "                         (default: the cores less one; 0: the network's thread alone)\n"
    "  --sync normal|full     normal: a written move survives the process being killed;\n"
    "                         full: a power cut too, at some cost in speed (default normal)\n"
    "  --limit NAME=N         one of the server's limits (docs/protocol.md, \"Limits\"; repeatable); a\n"
    "                         NAME it does not know is answered with every name and its default\n"
    "  --origin URL           a page's origin whose WebSockets are taken besides the server's own\n"
    "                         (\"https://pilfer.example.org\"; repeatable, at most 16): a browser's\n"
    "                         upgrade from any other site is refused; and its host a name the server\n"
    "                         answers to (besides addresses and localhost: the Host of a request)\n"
    "  --trust-proxy ADDRESS  a reverse proxy in front of the server (\"127.0.0.1\"; repeatable, at\n"
    "                         most 16): from it, the last address of X-Forwarded-For is the client's,\n"
    "                         for the per-address limits (docs/operations.md)\n"
    "  --metrics-token-file FILE  serve GET /metrics (Prometheus's text format) to requests with\n"
    "                         \"Authorization: Bearer TOKEN\", TOKEN being FILE's first line (16 to 200\n"
    "                         letters, digits and -._~+/=); without it /metrics is 404\n"
    "  --shard I/N            be shard I of N processes that share the tables (1 <= I <= N <= 99):\n"
    "                         it makes and holds the tables whose ids end in I's two digits (1302 is\n"
    "                         shard 2's) and refuses the others, naming their shard; its --db is its\n"
    "                         own (docs/operations.md, \"Shards\"; scripts/cluster starts N of them)\n"
    "  --log text|json        its log: a line per event (start, stop, errors, limits hit), as text\n"
    "                         or as one JSON object a line (docs/operations.md, \"Logs\"; default text)\n"
    "Stops on Ctrl-C (SIGINT) or SIGTERM.\n";

/* "127.0.0.1:8080", "[::1]:8080", ":8080", "*:8080" or "8080". */
static int parse_listen(const char *text, char *iface, size_t n, int *port) {
  const char *colon = strrchr(text, ':');
  const char *p = colon ? colon + 1 : text;
  if (cli_parse_count(p, port) != 0 || *port > 65535) return -1;
  size_t len = colon ? (size_t)(colon - text) : 0;
  if (len >= n) return -1;
  memcpy(iface, text, len);
  iface[len] = 0;
  if (strcmp(iface, "*") == 0) iface[0] = 0;
  if (len >= 2 && iface[0] == '[' && iface[len - 1] == ']') { /* [::1]:8080, as in a URL */
    memmove(iface, iface + 1, len - 2);
    iface[len - 2] = 0;
  }
  return 0;
}

/* The token of --metrics-token-file: the file's first line, 16 to 200 characters of a bearer
 * token (RFC 6750: letters, digits, -._~+/ and = at the end). */
static int read_token(const char *path, char *out, size_t n) {
  FILE *f = fopen(path, "r");
  if (!f) {
    cli_error("serve: --metrics-token-file %s: %s", path, strerror(errno));
    return -1;
  }
  if (!fgets(out, (int)n, f)) out[0] = 0;
  fclose(f);
  out[strcspn(out, "\r\n")] = 0;
  size_t len = strlen(out), ok = strspn(out, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=");
  if (len < 16 || len > 200 || ok != len) {
    cli_error("serve: --metrics-token-file %s: its first line must be a token of 16 to 200 letters, digits and "
              "-._~+/= (e.g. from: head -c 24 /dev/urandom | base64)",
              path);
    return -1;
  }
  return 0;
}

int cmd_serve(int argc, char **argv) {
  static char metrics_token[256];
  static const struct option LONG[] = {{"listen", required_argument, 0, 'l'}, {"db", required_argument, 0, 'd'},
                                       {"web", required_argument, 0, 'w'},    {"workers", required_argument, 0, 'n'},
                                       {"sync", required_argument, 0, 's'},   {"limit", required_argument, 0, 'L'},
                                       {"helpers", required_argument, 0, 'H'}, {"reports", required_argument, 0, 'r'},
                                       {"origin", required_argument, 0, 'o'}, {"trust-proxy", required_argument, 0, 'p'},
                                       {"metrics-token-file", required_argument, 0, 'm'}, {"log", required_argument, 0, 'g'},
                                       {"shard", required_argument, 0, 'S'},
                                       {"help", no_argument, 0, 'h'},         {0}};
  char iface[128] = "127.0.0.1";
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  pf_serve_config cfg = {.port = 8080, .db = "pilfer.db", .workers = cores > 0 ? (int)cores : 1,
                         .helpers = cores > 1 ? (int)cores - 1 : 0};
  pf_serve_defaults(&cfg);
  char web[PATH_MAX];
  pf_error err;
  int c;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "h", LONG, NULL)) != -1) {
    switch (c) {
    case 'l':
      if (parse_listen(optarg, iface, sizeof iface, &cfg.port) != 0) {
        cli_error("serve: --listen needs ADDRESS:PORT (a port from 0 to 65535), not '%s'", optarg);
        return EXIT_BAD_INPUT;
      }
      break;
    case 'd': cfg.db = optarg; break;
    case 'w': cfg.web = optarg; break;
    case 'r': cfg.reports = optarg; break;
    case 'n':
      if (cli_parse_count(optarg, &cfg.workers) != 0 || cfg.workers < 1 || cfg.workers > 256) {
        cli_error("serve: --workers needs a number from 1 to 256, not '%s'", optarg);
        return EXIT_BAD_INPUT;
      }
      break;
    case 'H':
      if (cli_parse_count(optarg, &cfg.helpers) != 0 || cfg.helpers > 256) {
        cli_error("serve: --helpers needs a number from 0 to 256, not '%s'", optarg);
        return EXIT_BAD_INPUT;
      }
      break;
    case 's':
      if (strcmp(optarg, "normal") != 0 && strcmp(optarg, "full") != 0) {
        cli_error("serve: --sync is normal or full, not '%s'", optarg);
        return EXIT_BAD_INPUT;
      }
      cfg.full_sync = strcmp(optarg, "full") == 0;
      break;
    case 'L':
      if (pf_serve_set_limit(&cfg, optarg, &err) != 0) {
        cli_error("serve: %s", err.msg);
        return EXIT_BAD_INPUT;
      }
      break;
    case 'o': {
      const char *host = strncmp(optarg, "http://", 7) == 0 ? optarg + 7 : strncmp(optarg, "https://", 8) == 0 ? optarg + 8 : NULL;
      if (cfg.norigins == PF_SERVE_MAX_LIST || !host || !*host || strlen(optarg) > 200 || strchr(host, '/')) {
        cli_error("serve: --origin needs an origin such as https://pilfer.example.org (scheme, host, port if not the "
                  "scheme's, no path; at most %d of them), not '%s'", PF_SERVE_MAX_LIST, optarg);
        return EXIT_BAD_INPUT;
      }
      cfg.origins[cfg.norigins++] = optarg;
      break;
    }
    case 'p': {
      unsigned char bin[16];
      if (cfg.nproxies == PF_SERVE_MAX_LIST || (inet_pton(AF_INET, optarg, bin) != 1 && inet_pton(AF_INET6, optarg, bin) != 1)) {
        cli_error("serve: --trust-proxy needs an IPv4 or IPv6 address (at most %d of them), not '%s'", PF_SERVE_MAX_LIST,
                  optarg);
        return EXIT_BAD_INPUT;
      }
      cfg.proxies[cfg.nproxies++] = optarg;
      break;
    }
    case 'm':
      if (read_token(optarg, metrics_token, sizeof metrics_token) != 0) return EXIT_BAD_INPUT;
      cfg.metrics_token = metrics_token;
      break;
    case 'g':
      if (strcmp(optarg, "text") != 0 && strcmp(optarg, "json") != 0) {
        cli_error("serve: --log is text or json, not '%s'", optarg);
        return EXIT_BAD_INPUT;
      }
      pf_log_json(strcmp(optarg, "json") == 0);
      break;
    case 'S':
      if (pf_shard_parse(optarg, &cfg.shard, &err) != 0) {
        cli_error("serve: %s", err.msg);
        return EXIT_BAD_INPUT;
      }
      break;
    case 'h': fputs(USAGE, stdout); return 0;
    default:
      cli_error("serve: unknown or incomplete option '%s'; see pilfer serve --help", argv[optind - 1]);
      return EXIT_BAD_INPUT;
    }
  }
  if (optind < argc) {
    cli_error("serve: unexpected argument '%s'; see pilfer serve --help", argv[optind]);
    return EXIT_BAD_INPUT;
  }
  cfg.iface = iface[0] ? iface : NULL;
  if (!cfg.web && !(cfg.web = cli_find_beside("web", "index.html", web, sizeof web)))
    pf_log("config", "no web folder next to the binary (see --help): only /api/ and /ws answer");
  return pf_serve(&cfg);
}
