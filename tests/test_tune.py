#!/usr/bin/env python3
"""test_tune.py PILFER REPO - scripts/tune, the NTBEA parameter search (its head has the method):

- against a fake pilfer whose win rates are known (a setting's true score, noise from the
  evaluation's seed): the search picks the setting that is truly best, never iters=1, which loses
  most; its output has the best line, the table of the top settings and their check commands
  (the --check-base spec with the setting put in, a key the base names replaced, not repeated);
  the same seed gives the same output, with --jobs 2 too; --json holds every evaluation, each
  on deals of its own; the evaluations ran sims with --threads 1 and --rotate;
- bad arguments fail with a message naming the argument;
- a short real run of Steal the Pile: ismcts with 1 iteration and no rule of thumb (about
  random play) against 300 iterations, against greedy: the search does not choose iters=1.

Each check prints "ok" or "FAIL" with what went wrong; the exit status is 1 when one failed.
"""
import json
import os
import stat
import subprocess
import sys
import tempfile

import checks
from checks import check

PILFER, REPO = sys.argv[1], sys.argv[2]
TUNE = os.path.join(REPO, "scripts", "tune")

# A stand-in for pilfer sim: the setting's share of the wins is drawn around a true score that
# the test knows; every call is logged to $FAKE_LOG.
FAKE = r'''#!/usr/bin/env python3
import json, os, random, sys
a = sys.argv[1:]
assert a[0] == "sim" and "--json" in a and "--rotate" in a and a[a.index("--threads") + 1] == "1", a
seats = [a[i + 1] for i, x in enumerate(a) if x == "--seat"]
spec, games, seed = seats[0], int(a[a.index("--games") + 1]), int(a[a.index("--seed") + 1])
kv = dict(x.split("=") for x in spec.split(":", 1)[1].split(","))
p = 0.15 if kv.get("iters") == "1" else 0.5 + (0.15 if kv.get("c") == "0.7" else 0.0) + (0.05 if kv.get("bias") == "3" else 0.0)
rng = random.Random("%d %s" % (seed, spec))
wins = sum(rng.random() < p for _ in range(games))
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write(" ".join(a) + "\n")
print(json.dumps({"played": games, "bots": [{"bot": spec, "win_rate": wins / games},
                                            {"bot": seats[1], "win_rate": 1 - wins / games}]}))
'''


def tune(args, pilfer, log=None):
    env = dict(os.environ, PILFER=pilfer)
    if log:
        env["FAKE_LOG"] = log
    return subprocess.run([sys.executable, TUNE] + args, capture_output=True, text=True, env=env)


with tempfile.TemporaryDirectory() as tmp:
    fake = os.path.join(tmp, "pilfer")
    with open(fake, "w") as f:
        f.write(FAKE)
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
    log = os.path.join(tmp, "log")
    out_json = os.path.join(tmp, "out.json")
    args = ["steal-the-pile", "--base", "ismcts:iters=1000,c=1", "--param", "iters=1,1000",
            "--param", "c=0.35,0.7,1.4", "--param", "bias=0,3,10", "--budget", "100", "--games", "8",
            "--seed", "3", "--check-base", "ismcts:iters=100000000,time=10,clock=cpu", "--check-games", "500"]
    r = tune(args + ["--json", out_json], fake, log)
    check("fake: exits 0", r.returncode == 0, r.stderr[-500:])
    lines = r.stdout.splitlines()
    best = lines[0] if lines else ""
    check("fake: the best line names the truly best setting", best.startswith("best: iters=1000,c=0.7,bias=3 "), best)
    rows = [x for x in lines if x.startswith("| ") and x[2].isdigit()]
    check("fake: five top settings, none with iters=1 first", len(rows) == 5 and "iters=1," not in rows[0], "\n".join(rows))
    want = ("`pilfer sim steal-the-pile -p 2 --games 500 --rotate --seed 1 --seat "
            "ismcts:iters=1000,time=10,clock=cpu,c=0.7,bias=3 --seat greedy`")
    check("fake: the check command puts the setting into --check-base", rows and rows[0].endswith(want + " |"),
          rows[0] if rows else "")
    plain = "`pilfer sim steal-the-pile -p 2 --games 500 --rotate --seed 1 --seat ismcts:iters=100000000,time=10,clock=cpu --seat greedy`"
    check("fake: the base's check on the same deals", any(x.endswith(plain) for x in lines), r.stdout[-400:])
    calls = open(log).read().splitlines()
    check("fake: one sim a evaluation", len(calls) == 100, "%d calls" % len(calls))
    data = json.load(open(out_json))
    seeds = [e["seed"] for e in data["evaluations"]]
    check("fake: --json has every evaluation, each on its own deals",
          len(seeds) == 100 and len(set(seeds)) == 100 and data["top"][0]["setting"] == "iters=1000,c=0.7,bias=3",
          str(seeds[:5]))
    check("fake: iters=1 evaluated and found worse", data["values"]["iters"]["1"]["evaluations"] > 0 and
          data["values"]["iters"]["1"]["mean"] < data["values"]["iters"]["1000"]["mean"] - 0.2,
          json.dumps(data["values"]["iters"]))
    again = tune(args, fake, os.path.join(tmp, "log2"))
    check("fake: the same seed, the same output", again.stdout == r.stdout)
    jobs = tune(args + ["--jobs", "2"], fake, os.path.join(tmp, "log3"))
    check("fake: --jobs 2 gives the same output", jobs.stdout == r.stdout, jobs.stderr[-300:])
    other = tune(args[:-6] + ["--seed", "4"], fake, os.path.join(tmp, "log4"))
    check("fake: another seed, other evaluations", other.returncode == 0 and other.stderr != r.stderr)

    for bad, word in [(["--param", "c=1"], "--param"), (["--param", "c=1,1"], "--param"),
                      (["--param", "c=1,2", "--games", "3"], "--games"),
                      (["--param", "c=1,2", "--pattern", "AC"], "--pattern"),
                      (["--param", "c=1,2", "--param", "c=3,4"], "--param")]:
        e = tune(["steal-the-pile"] + bad, fake, log)
        check("bad arguments %s: refused, naming %s" % (" ".join(bad), word),
              e.returncode != 0 and word in e.stderr and e.stdout == "", e.stderr)

real = tune(["steal-the-pile", "--base", "ismcts:bias=0", "--param", "iters=1,300", "--param", "c=0.7,1.4",
             "--budget", "20", "--games", "8", "--top", "2"], PILFER)
check("real: exits 0", real.returncode == 0, real.stderr[-500:])
check("real: iters=1 (about random play) is not chosen", real.stdout.startswith("best: iters=300,"), real.stdout[:300])
check("real: two top settings with their commands",
      len([x for x in real.stdout.splitlines() if x.startswith("| ") and "`pilfer sim steal-the-pile" in x]) == 2,
      real.stdout)
sys.exit(1 if checks.failed else 0)
