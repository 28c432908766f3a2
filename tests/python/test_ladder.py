"""Tests of scripts/ladder (docs/strength.md): its Bradley-Terry fit against known strengths, and
a small ladder run through pilfer sim whose every pairing its own command reproduces."""
import importlib.machinery
import importlib.util
import json
import math
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PILFER = os.path.abspath(os.environ.get("PILFER_BIN", os.path.join(ROOT, "build", "pilfer")))
_loader = importlib.machinery.SourceFileLoader("ladder", os.path.join(ROOT, "scripts", "ladder"))
_spec = importlib.util.spec_from_loader("ladder", _loader)
ladder = importlib.util.module_from_spec(_spec)
_loader.exec_module(ladder)


def expected(elo_a, elo_b):
    return 1.0 / (1.0 + 10 ** ((elo_b - elo_a) / 400.0))


class BradleyTerry(unittest.TestCase):
    TRUE = {"random": -250.0, "greedy": 0.0, "a": 60.0, "b": 110.0, "c": 130.0}

    def results(self, games):
        names = list(self.TRUE)
        return [(a, b, games * expected(self.TRUE[a], self.TRUE[b]), games)
                for a, b, _ in ladder.pairings([(x, games) for x in names])]

    def test_recovers_known_strengths(self):
        fit = ladder.bradley_terry(list(self.TRUE), self.results(100000), "greedy")
        for name, elo in self.TRUE.items():
            self.assertAlmostEqual(fit[name][0], elo, delta=1.0, msg=name)
        self.assertEqual(fit["greedy"], (0.0, 0.0))

    def test_intervals_shrink_with_games(self):
        few = ladder.bradley_terry(list(self.TRUE), self.results(400), "greedy")
        many = ladder.bradley_terry(list(self.TRUE), self.results(1600), "greedy")
        for name in ("random", "a", "b", "c"):
            # four times the games, half the interval (within the prior's small pull)
            self.assertAlmostEqual(many[name][1] / few[name][1], 0.5, delta=0.02, msg=name)
            self.assertGreater(few[name][1], 10)

    def test_interval_of_one_pairing_is_the_binomial_one(self):
        # one pairing of n games at score s: the Elo's 95% half-width is about
        # 1.96 * sqrt(s(1-s)/n) * d(Elo)/ds
        n, s = 1000, 0.64
        fit = ladder.bradley_terry(["greedy", "x"], [("greedy", "x", n * (1 - s), n)], "greedy")
        slope = 400.0 / math.log(10.0) / (s * (1 - s))
        self.assertAlmostEqual(fit["x"][0], ladder.score_to_elo(s), delta=1.5)
        self.assertAlmostEqual(fit["x"][1], 1.959964 * math.sqrt(s * (1 - s) / n) * slope, delta=1.0)

    def test_a_disconnected_ladder_is_refused(self):
        with self.assertRaises(ValueError):
            ladder.invert([[1.0, 1.0], [1.0, 1.0]])


def pairs_of(entrants):
    return ladder.pairings(entrants, 50)


class Entrants(unittest.TestCase):
    def test_specs_keep_their_commas_and_games(self):
        got = ladder.parse_entrants("random,ismcts:iters=10,c=0.5@8,ismcts:iters=100000000,time=10,clock=cpu", 200)
        self.assertEqual(got, [("random", 200), ("ismcts:iters=10,c=0.5", 8),
                               ("ismcts:iters=100000000,time=10,clock=cpu", 200)])

    def test_a_pairing_plays_the_fewer_games_and_a_costly_entrant_fewer_pairings(self):
        entrants = ladder.parse_entrants(",".join(ladder.ENTRANTS), 200)
        pairs = {(a, b): n for a, b, n in ladder.pairings(entrants, 50)}
        t10, t100, t1000 = [e for e, _ in entrants if "time=" in e]
        self.assertEqual(pairs[("ismcts", t10)], 100)
        self.assertEqual(pairs[(t100, t1000)], 20)
        self.assertEqual(pairs[("greedy", t1000)], 20)
        self.assertNotIn((t10, t1000), pairs)  # the 1000 ms entrant: the one before it and greedy only
        self.assertIn(("ismcts:iters=10000", t100), pairs)
        # the entrants docs/strength.md names ("The entrants are ..."), every one, are the default:
        # six fair ismcts, and the two ceilings beside the default one, which play it and greedy only
        self.assertEqual([e.split(":")[0] for e, _ in entrants if not ladder.ceiling(e)].count("ismcts"), 6)
        self.assertEqual([e for e, _ in entrants if ladder.ceiling(e)], ["ismcts:see=hands", "ismcts:see=all"])
        for c in ("ismcts:see=hands", "ismcts:see=all"):
            self.assertEqual(sorted((a, n) for a, b, n in pairs_of(entrants) if b == c), [("greedy", 100), ("ismcts", 100)])
            self.assertFalse(any(a == c for a, _, _ in pairs_of(entrants)))
        self.assertEqual(ladder.label("ismcts:see=all"), "ismcts 1000 iters see=all (not fair)")
        self.assertEqual(ladder.label("ismcts:iters=100,see=hands"), "ismcts 100 iters see=hands (not fair)")

    def test_the_run_goes_cheapest_entrant_first(self):
        entrants = ladder.parse_entrants(",".join(ladder.ENTRANTS), 200)
        order = ladder.schedule(entrants, {"short": 40, "long": 600}, 50)
        self.assertEqual(len(order), 2 * len(ladder.pairings(entrants, 50)))
        rank = {e: ladder.cost(e) for e, _ in entrants}
        costliest = [max(rank[a], rank[b]) for _, a, b, _ in order]
        self.assertEqual(costliest, sorted(costliest))
        self.assertEqual(order[0][0], "short")


class Run(unittest.TestCase):
    def test_small_ladder_reproduces(self):
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, PILFER=PILFER, THREADS="2")
            run = subprocess.run([os.path.join(ROOT, "scripts", "ladder"), "--game", "thief", "--entrants",
                                  "random,greedy,ismcts:iters=50", "--games", "16", "--cache", os.path.join(d, "c.json"),
                                  "--json", os.path.join(d, "l.json")], capture_output=True, text=True, env=env, timeout=600)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("| ismcts 50 iters |", run.stdout)
            with open(os.path.join(d, "l.json")) as f:
                out = json.load(f)
            lad = out["ladders"]["thief"]
            self.assertEqual(len(lad["pairings"]), 3)  # random-greedy, random-ismcts, greedy-ismcts
            self.assertEqual([r["spec"] for r in lad["ratings"]], ["random", "greedy", "ismcts:iters=50"])
            for p in lad["pairings"]:
                cmd = p["command"].split()
                again = subprocess.run([PILFER] + cmd[1:] + ["--json"], capture_output=True, text=True, timeout=300)
                r = json.loads(again.stdout)
                wins = {x["bot"]: x["win_rate"] * r["played"] for x in r["bots"]}
                self.assertEqual(wins[p["a"]], p["wins_a"], p["command"])
            # the cache: the same run again plays nothing and says the same
            again = subprocess.run(run.args, capture_output=True, text=True, env=env, timeout=60)
            self.assertEqual(again.stdout, run.stdout)


if __name__ == "__main__":
    unittest.main()
