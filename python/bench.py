#!/usr/bin/env python3
"""The speed of `import pilfer` (docs/benchmarks.md: Python): moves per second of

  loop      a pure-Python loop of legal_actions() and apply_action() (a random choice by
            Python's random.Random), whole games of 2-player Steal the Pile;
  playout   state.random_playout(seed), the same games played in C;
  sim       pilfer.sim(game, ["random", "random"], threads=1), the same in the sim engine;
  vecenv    pilfer.VectorEnv(game, --envs): env.step(env.random_actions()), observations off
            and (vecenv+obs) on;

each timed for about --seconds, --rounds times, the best, median and worst printed; and with
--tensors, the microseconds a call of observation_tensor, information_state_tensor and
information_state_string take (the best of --rounds), for every game at 2 players (or its
fewest) and its most, at positions 20 random moves into a game. The vecenv and tensor figures
are of the process's CPU time (time.process_time), which other work on a shared machine
disturbs less than the wall clock; the others are of the wall clock.

    PYTHONPATH=build/python python3 python/bench.py [--game steal-the-pile] [--players 2]
    PYTHONPATH=build/python python3 python/bench.py --tensors
    PYTHONPATH=build/python python3 python/bench.py --vecenv-only [--envs 256] [--game thief]
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


def vecenv(game, seconds, envs=256, observations=False, masks=None):
    env = pilfer.VectorEnv(game, envs, seed=1, observations=observations, masks=masks)
    step, actions = env.step, env.random_actions
    moves, start = env.moves, time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(20):
            step(actions())
    return (env.moves - moves) / (time.process_time() - start)


def per_call(f, seat, calls):
    start = time.process_time()
    for _ in range(calls):
        f(seat)
    return (time.process_time() - start) / calls * 1e6


def tensors(rounds, calls=2000):
    """Microseconds a call, best of `rounds`, at a position 20 random moves into the game."""
    print("tensors: microseconds a call (best of %d x %d calls), seat 0, 20 moves into a game" % (rounds, calls))
    print(f"  {'game':18} {'players':>7} {'observation':>12} {'info tensor':>12} {'info string':>12}")
    for g in pilfer.games():
        for n in sorted({max(2, g["min_players"]) if g["max_players"] >= 2 else 1, g["max_players"]}):
            game = pilfer.load_game(g["id"], {"players": n})
            state = game.new_initial_state(3)
            rng = random.Random(1)
            for _ in range(20):
                if state.is_terminal():
                    break
                state.apply_action(rng.choice(state.legal_actions()))
            state.information_state_string(0)  # the one replay, out of the timing
            row = [min(per_call(f, 0, calls) for _ in range(rounds))
                   for f in (state.observation_tensor, state.information_state_tensor, state.information_state_string)]
            print(f"  {g['id']:18} {n:>7} {row[0]:>12.2f} {row[1]:>12.2f} {row[2]:>12.2f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="steal-the-pile")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--envs", type=int, default=256, help="games of the VectorEnv")
    ap.add_argument("--tensors", action="store_true", help="the tensors' microseconds a call, every game")
    ap.add_argument("--vecenv-only", action="store_true", help="only the VectorEnv's moves/s")
    a = ap.parse_args()
    if a.tensors:
        tensors(a.rounds)
        return
    game = pilfer.load_game(a.game, {"players": a.players})
    print(f"{a.game}, {a.players} players: moves per second, best / median / worst of {a.rounds}")
    runs = (("loop", loop), ("playout", playout), ("sim", sim))
    vec = (("vecenv", lambda g, s: vecenv(g, s, a.envs)), ("vec-nomask", lambda g, s: vecenv(g, s, a.envs, masks=False)),
           ("vecenv+obs", lambda g, s: vecenv(g, s, a.envs, True)))
    for name, f in vec if a.vecenv_only else runs + vec:
        rates = sorted(f(game, a.seconds) for _ in range(a.rounds))
        print(f"  {name:10} {rates[-1]:>12,.0f} {statistics.median(rates):>12,.0f} {rates[0]:>12,.0f}")


if __name__ == "__main__":
    main()
