#!/usr/bin/env python3
"""test_ladder.py REPO - scripts/ladder, the bots' rating ladder (its head has the method), against
a fake pilfer whose entrants have known Elo ratings (each pairing's wins are exactly what those
ratings expect, so the fit must give them back):

- the pairings played are each entrant against the next and the one after (only the next for an
  entrant with fewer than a quarter of --games) and against greedy, cheapest entrant first and,
  for each entrant, the shortest game first; each a `sim --rotate` with the entrants alternating
  round the table (four seats in Piles);
- the Bradley-Terry fit gives every entrant its true rating back, within a few Elo, inside its
  95% interval; the interval narrows with more games;
- a second run plays nothing (the cache) and prints the same; --cached-only with a pairing missing
  rates the entrants before it and lists the missing command;
- --markdown puts the tables between the file's two marker lines, and only there, and refuses a
  file without them, leaving it as it was;
- a ceiling (a measuring instrument: ismcts see=hands or see=all) plays only greedy and the fair
  entrant it stands beside, is rated with the others, marked not fair, and a missing ceiling
  leaves the fair entrants' ladder whole;
- bad arguments fail with a message.

Each check prints "ok" or "FAIL" with what went wrong; the exit status is 1 when one failed.
"""
import json
import math
import os
import stat
import subprocess
import sys
import tempfile

import checks
from checks import check

REPO = sys.argv[1]
LADDER = os.path.join(REPO, "scripts", "ladder")

TRUE = {"random": -200.0, "greedy": 0.0, "ismcts:iters=100": 50.0, "ismcts": 150.0, "ismcts:iters=10000": 300.0}
CEILINGS = {"ismcts:see=hands": 250.0, "ismcts:iters=100,see=all": 400.0}
ENTRANTS = "random,greedy,ismcts:iters=100,ismcts,ismcts:iters=10000@40"

# A stand-in for pilfer: `games --json` lists two games, `sim` gives the first seat's entrant
# exactly the share of the wins that the true ratings expect; every sim is logged to $FAKE_LOG.
FAKE = r'''#!/usr/bin/env python3
import json, os, sys
a = sys.argv[1:]
if a[:2] == ["games", "--json"]:
    print(json.dumps([{"id": "steal-the-pile", "length": {"moves": 48}}, {"id": "piles", "length": {"moves": 40}}]))
    sys.exit(0)
assert a[0] == "sim" and "--json" in a and "--rotate" in a, a
true = json.loads(os.environ["FAKE_TRUE"])
seats = [a[i + 1] for i, x in enumerate(a) if x == "--seat"]
games = int(a[a.index("--games") + 1])
p = 1.0 / (1.0 + 10.0 ** ((true[seats[1]] - true[seats[0]]) / 400.0))
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write(json.dumps(a) + "\n")
print(json.dumps({"played": games, "bots": [{"bot": seats[0], "win_rate": p}, {"bot": seats[1], "win_rate": 1 - p}]}))
'''


def ladder(args, fake, log):
    env = dict(os.environ, PILFER=fake, FAKE_LOG=log, FAKE_TRUE=json.dumps(dict(TRUE, **CEILINGS)))
    env.pop("THREADS", None)
    return subprocess.run([sys.executable, LADDER] + args, capture_output=True, text=True, env=env)


def logged(log):
    if not os.path.exists(log):
        return []
    return [json.loads(x) for x in open(log)]


def seats_of(call):
    return [call[i + 1] for i, x in enumerate(call) if x == "--seat"]


with tempfile.TemporaryDirectory() as tmp:
    fake = os.path.join(tmp, "pilfer")
    with open(fake, "w") as f:
        f.write(FAKE)
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
    log, cache, out = os.path.join(tmp, "log"), os.path.join(tmp, "cache.json"), os.path.join(tmp, "out.json")

    run = ladder(["--entrants", ENTRANTS, "--games", "200", "--cache", cache, "--json", out], fake, log)
    check("a run exits 0", run.returncode == 0, run.stderr)
    calls = logged(log)
    played = [(c[1], tuple(seats_of(c)[:2]), int(c[c.index("--games") + 1])) for c in calls]
    # By the list: each against the next and the one after, greedy against all; 10000 iterations
    # (40 games, under a quarter of 200) only against the one before it and greedy.
    want = {("random", "greedy", 200), ("random", "ismcts:iters=100", 200), ("greedy", "ismcts:iters=100", 200),
            ("greedy", "ismcts", 200), ("ismcts:iters=100", "ismcts", 200), ("ismcts", "ismcts:iters=10000", 40),
            ("greedy", "ismcts:iters=10000", 40)}
    for game in ("steal-the-pile", "piles"):
        got = {(a, b, n) for g, (a, b), n in played if g == game}
        check("%s: the pairings are the neighbours' and greedy's" % game, got == want,
              "got %s" % sorted(got))
    rank = {e: k for k, e in enumerate(["random", "greedy", "ismcts:iters=100", "ismcts", "ismcts:iters=10000"])}
    levels = [max(rank[a], rank[b]) for _, (a, b), _ in played]
    check("cheapest entrant first", levels == sorted(levels), str(levels))
    firsts = {}
    for g, (a, b), _ in played:
        firsts.setdefault(max(rank[a], rank[b]), g)
    check("each entrant's shortest game (Piles) first", set(firsts.values()) == {"piles"}, str(firsts))
    piles = [seats_of(c) for c in calls if c[1] == "piles"]
    check("Piles: four seats, the entrants alternating",
          all(len(s) == 4 and s[0] == s[2] and s[1] == s[3] and s[0] != s[1] for s in piles), str(piles[:2]))
    stp = [seats_of(c) for c in calls if c[1] == "steal-the-pile"]
    check("Steal the Pile: two seats", all(len(s) == 2 for s in stp), str(stp[:2]))

    result = json.load(open(out))
    for game in ("steal-the-pile", "piles"):
        rows = {r["spec"]: r for r in result["ladders"][game]["ratings"]}
        for spec, elo in TRUE.items():
            r = rows[spec]
            check("%s: %s rated %+.0f (true %+.0f), inside its interval" % (game, spec, r["elo"], elo),
                  abs(r["elo"] - elo) < 15 and r["lo"] <= elo <= r["hi"], json.dumps(r))
        check("%s: greedy is the anchor at 0" % game, rows["greedy"]["elo"] == 0 and rows["greedy"]["lo"] == 0)
        check("%s: fewer games, a wider interval" % game,
              rows["ismcts:iters=10000"]["hi"] - rows["ismcts:iters=10000"]["lo"]
              > rows["ismcts"]["hi"] - rows["ismcts"]["lo"] > 0)
    check("nothing missing", result["missing"] == [], str(result["missing"]))

    os.remove(log)
    again = ladder(["--entrants", ENTRANTS, "--games", "200", "--cache", cache], fake, log)
    check("a second run plays nothing", again.returncode == 0 and logged(log) == [], again.stderr)
    check("and prints the same tables", again.stdout == run.stdout)
    check("every pairing's command is in the tables",
          all("`pilfer sim %s -p" % g in run.stdout for g in ("steal-the-pile", "piles")) and
          "--seat ismcts:iters=100 --seat ismcts`" in run.stdout)

    # The cache without the costliest entrant's Steal the Pile pairings.
    c = json.load(open(cache))
    part = {k: v for k, v in c.items() if not (k.startswith("sim steal-the-pile") and "iters=10000" in k)}
    part_cache = os.path.join(tmp, "part.json")
    json.dump(part, open(part_cache, "w"))
    only = ladder(["--entrants", ENTRANTS, "--games", "200", "--cache", part_cache, "--cached-only",
                   "--json", out], fake, log)
    partial = json.load(open(out))
    check("--cached-only plays nothing", only.returncode == 0 and logged(log) == [], only.stderr)
    check("--cached-only rates the entrants before the missing one",
          [r["spec"] for r in partial["ladders"]["steal-the-pile"]["ratings"]] == list(TRUE)[:4] and
          "not yet played: ismcts 10000 iters." in only.stdout)
    check("--cached-only lists the two missing commands",
          len(partial["missing"]) == 2 and all("iters=10000" in m and m.startswith("pilfer sim steal-the-pile")
                                               for m in partial["missing"]) and
          "2 pairings not yet played" in only.stdout, str(partial["missing"]))

    # --markdown: between the markers, and only there.
    doc = os.path.join(tmp, "doc.md")
    head, tail = "# Strength\n\nBefore the tables.\n\n", "\nAfter the tables.\n"
    begin = "<!-- scripts/ladder --markdown: the tables below are its -->"
    end = "<!-- scripts/ladder --markdown: end -->"
    with open(doc, "w") as f:
        f.write(head + begin + "\n\nold tables\n\n" + end + "\n" + tail)
    md = ladder(["--entrants", ENTRANTS, "--games", "200", "--cache", part_cache, "--cached-only",
                 "--markdown", doc], fake, log)
    text = open(doc).read()
    check("--markdown exits 0", md.returncode == 0, md.stderr)
    check("--markdown keeps what stands outside the markers",
          text.startswith(head + begin + "\n") and text.endswith(end + "\n" + tail))
    check("--markdown puts the tables between them",
          "old tables" not in text and text.count("### steal-the-pile") == 1 and text.count("### piles") == 1 and
          md.stdout.strip() in text)
    md2 = ladder(["--entrants", ENTRANTS, "--games", "200", "--cache", part_cache, "--cached-only",
                  "--markdown", doc], fake, log)
    check("--markdown twice gives the same file", md2.returncode == 0 and open(doc).read() == text)
    bare = os.path.join(tmp, "bare.md")
    with open(bare, "w") as f:
        f.write("# No markers\n")
    refused = ladder(["--entrants", ENTRANTS, "--games", "200", "--cache", part_cache, "--cached-only",
                      "--markdown", bare], fake, log)
    check("--markdown refuses a file without the markers, and leaves it",
          refused.returncode != 0 and "needs one line" in refused.stderr and open(bare).read() == "# No markers\n",
          refused.stderr)

    # Ceilings: beside ismcts and ismcts:iters=100, and against greedy; nothing else.
    if os.path.exists(log):
        os.remove(log)
    with_ceilings = ENTRANTS + ",ismcts:see=hands,ismcts:iters=100,see=all"
    run = ladder(["--entrants", with_ceilings, "--games", "200", "--cache", cache, "--json", out], fake, log)
    check("a run with ceilings exits 0", run.returncode == 0, run.stderr)
    got = {(c[1], tuple(seats_of(c)[:2])) for c in logged(log)}
    want = {(g, p) for g in ("steal-the-pile", "piles")
            for p in [("greedy", "ismcts:see=hands"), ("ismcts", "ismcts:see=hands"),
                      ("greedy", "ismcts:iters=100,see=all"), ("ismcts:iters=100", "ismcts:iters=100,see=all")]}
    check("a ceiling plays greedy and the fair entrant it stands beside, only", got == want, str(sorted(got)))
    result = json.load(open(out))
    rows = {r["spec"]: r for r in result["ladders"]["steal-the-pile"]["ratings"]}
    for spec, elo in CEILINGS.items():
        r = rows[spec]
        check("%s rated %+.0f (true %+.0f), not fair" % (spec, r["elo"], elo),
              abs(r["elo"] - elo) < 20 and r["lo"] <= elo <= r["hi"] and r["fair"] is False, json.dumps(r))
    check("the fair entrants are fair", all(rows[e]["fair"] for e in TRUE))
    check("a ceiling's row says not fair", "| ismcts 100 iters see=all (not fair) |" in run.stdout and
          "measuring instruments" in run.stdout, run.stdout[:600])
    c = json.load(open(cache))
    part = {k: v for k, v in c.items() if not (k.startswith("sim steal-the-pile") and "see=hands" in k)}
    json.dump(part, open(part_cache, "w"))
    only = ladder(["--entrants", with_ceilings, "--games", "200", "--cache", part_cache, "--cached-only",
                   "--json", out], fake, log)
    specs = [r["spec"] for r in json.load(open(out))["ladders"]["steal-the-pile"]["ratings"]]
    check("a ceiling not yet played leaves the fair ladder whole",
          only.returncode == 0 and specs == list(TRUE) + ["ismcts:iters=100,see=all"], str(specs))

    bad = ladder(["--games", "6", "--cache", cache, "--cached-only"], fake, log)
    check("--games 6 is refused", bad.returncode != 0 and "multiple of 4" in bad.stderr, bad.stderr)
    bad = ladder(["--game", "chess", "--cache", cache, "--cached-only"], fake, log)
    check("an unknown game is refused", bad.returncode != 0 and "no game 'chess'" in bad.stderr, bad.stderr)
    bad = ladder(["--entrants", "greedy,greedy", "--cache", cache, "--cached-only"], fake, log)
    check("an entrant named twice is refused", bad.returncode != 0 and "named once" in bad.stderr, bad.stderr)

sys.exit(1 if checks.failed else 0)
