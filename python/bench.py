#!/usr/bin/env python3
"""The speed of `import pilfer` (docs/benchmarks.md: Python): moves per second of

  loop      a pure-Python loop of legal_actions() and apply_action() (a random choice by
            Python's random.Random), whole games of 2-player Steal the Pile;
  playout   state.random_playout(seed), the same games played in C;
  sim       pilfer.sim(game, ["random", "random"], threads=1), the same in the sim engine.

Each is timed for about --seconds, --rounds times, and the best, median and worst are printed.

    PYTHONPATH=build/python python3 python/bench.py [--game steal-the-pile] [--players 2]
"""
import argparse
import random
import statistics
import time

import pilfer


def loop(game, seconds):
    rng = random.Random(1)
    moves, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state(seed)
        seed += 1
        choice, legal, apply = rng.choice, state.legal_actions, state.apply_action
        while not state.is_terminal():
            apply(choice(legal()))
            moves += 1
    return moves / (time.perf_counter() - start)


def playout(game, seconds):
    moves, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        moves += game.new_initial_state(seed).random_playout(seed)
        seed += 1
    return moves / (time.perf_counter() - start)


def sim(game, seconds):
    games, moves, start = 100, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        r = pilfer.sim(game, ["random"] * game.num_players(), games=games, threads=1)
        moves += r["sums"]["moves"]
    return moves / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="steal-the-pile")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    game = pilfer.load_game(a.game, {"players": a.players})
    print(f"{a.game}, {a.players} players: moves per second, best / median / worst of {a.rounds}")
    for name, f in (("loop", loop), ("playout", playout), ("sim", sim)):
        rates = sorted(f(game, a.seconds) for _ in range(a.rounds))
        print(f"  {name:8} {rates[-1]:>12,.0f} {statistics.median(rates):>12,.0f} {rates[0]:>12,.0f}")


if __name__ == "__main__":
    main()
