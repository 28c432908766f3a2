/*
 * fuzz_record.c - game records (SPEC §2) from untrusted bytes.
 *
 * The input is a record's text. Whatever it holds, reading it either fails with a message or
 * gives a record that can be replayed; the replay never crashes, leaks or hangs. When it reads:
 *   - the record is replayed move by move, and the game's invariant check holds after the start
 *     and after every move played;
 *   - pf_record_replay agrees with that replay (same move refused, same position, same moves);
 *   - a record with a result that checks out ends with the game over;
 *   - the record the engine writes of the replayed run reads back and replays to the same
 *     position, and its result checks out (SPEC: a record written by pilfer replays exactly).
 */
#include "fuzz.h"

#include "core/record.h"
#include "games/registry.h"

/* Longer records are skipped: a few thousand moves cover every game (and long matches) and keep
 * each input fast. */
#define FUZZ_MAX_MOVES 4000

static void check_state(const pf_run *r, const char *when) {
  pf_error err;
  if (r->game->check(r->state, &err) != 0)
    fuzz_bug("%s: the invariant check fails %s: %s", r->game->id, when, err.msg);
}

/* Plays the record's moves one at a time, checking the state after each. Returns the number of
 * the move refused (counting from 1), 0 if all were played, or -1 if the game did not start. */
static int replay_checked(const pf_record *rec, pf_run *run) {
  pf_error err;
  if (pf_run_start(run, rec->game, &rec->setup, &err) != 0) {
    fuzz_require_message(&err, "pf_run_start");
    return -1;
  }
  check_state(run, "after the start");
  for (int i = 0; i < rec->nmoves; i++) {
    if (pf_run_play_text(run, rec->moves[i], &err) != 0) {
      fuzz_require_message(&err, "pf_run_play_text");
      return i + 1;
    }
    char when[64];
    snprintf(when, sizeof when, "after move %d", i + 1);
    check_state(run, when);
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pf_record rec;
  pf_error err;
  if (pf_record_parse((const char *)data, size, &rec, &err) != 0) {
    fuzz_require_message(&err, "pf_record_parse");
    return 0;
  }
  if (rec.nmoves > FUZZ_MAX_MOVES) {
    pf_record_free(&rec);
    return 0;
  }

  pf_run run;
  int refused = replay_checked(&rec, &run);

  pf_run lib;
  int failed = -7;
  pf_error lerr;
  int rc = pf_record_replay(&rec, -1, &lib, &failed, &lerr);
  if (rc != 0) fuzz_require_message(&lerr, "pf_record_replay");
  if (refused < 0) {
    if (rc == 0 || failed != 0) fuzz_bug("pf_record_replay started a game pf_run_start refused");
    pf_run_free(&lib); /* holds nothing, and freeing nothing is allowed */
    pf_record_free(&rec);
    return 0;
  }
  if ((rc != 0) != (refused != 0) || failed != refused)
    fuzz_bug("pf_record_replay refused move %d (rc %d), the step-by-step replay move %d", failed,
             rc, refused);
  fuzz_require_same_run(&run, &lib, "pf_record_replay against the step-by-step replay");

  if (pf_record_check_result(&rec, &lib, &err) == 0) {
    if (rec.has_result && lib.game->to_move(lib.state) != PF_NOBODY)
      fuzz_bug("a result checked out but the game is not over");
  } else {
    fuzz_require_message(&err, "pf_record_check_result");
    if (!rec.has_result) fuzz_bug("pf_record_check_result failed on a record without result");
  }

  fuzz_check_written_record(&lib);

  pf_run_free(&lib);
  pf_run_free(&run);
  pf_record_free(&rec);
  return 0;
}
