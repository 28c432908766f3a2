/*
 * cli_backup.c - `pilfer backup`: a copy of a live server's database (server/store.c does it).
 */
#include <getopt.h>
#include <stdio.h>
#include <time.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "server/store.h"

static const char USAGE[] =
    "usage: pilfer backup [--db FILE] BACKUP\n"
    "\n"
    "Copies the server's database to BACKUP, also while `pilfer serve` plays on it: SQLite's online\n"
    "backup takes one consistent snapshot (every move committed before it), and the server goes on\n"
    "playing meanwhile. The copy is checked, written beside BACKUP and renamed over it, so BACKUP is\n"
    "always a whole database: `pilfer serve --db BACKUP` serves it (restoring: docs/operations.md).\n"
    "\n"
    "  --db FILE   the database (default pilfer.db, as pilfer serve's)\n";

int cmd_backup(int argc, char **argv) {
  static const struct option LONG[] = {{"db", required_argument, 0, 'd'}, {"help", no_argument, 0, 'h'}, {0}};
  const char *db = "pilfer.db";
  optind = 1;
  for (int c; (c = getopt_long(argc, argv, "", LONG, NULL)) != -1;) {
    if (c == 'd') db = optarg;
    else if (c == 'h') return fputs(USAGE, stdout), 0;
    else return cli_bad("backup: unknown or incomplete option '%s'; see pilfer backup --help", argv[optind - 1]);
  }
  if (argc - optind != 1) return cli_bad("backup: give one BACKUP file to write; see pilfer backup --help");
  const char *to = argv[optind];
  pf_error err = {0};
  pf_store_backup_info info;
  double t0 = pf_clock_seconds();
  int rc = pf_store_backup(db, to, &info, &err);
  if (rc == PF_BACKUP_BAD_INPUT) return cli_bad("backup: %s", err.msg);
  if (rc != 0) {
    cli_error("backup: %s", err.msg);
    return EXIT_OTHER;
  }
  printf("pilfer backup: %s -> %s: %lld tables (%lld waiting, %lld playing, %lld over), %lld moves, "
         "%lld KiB, in %.2f s\n",
         db, to, (long long)(info.tables[0] + info.tables[1] + info.tables[2]), (long long)info.tables[0],
         (long long)info.tables[1], (long long)info.tables[2], (long long)info.moves, (long long)(info.bytes / 1024),
         pf_clock_seconds() - t0);
  return 0;
}
