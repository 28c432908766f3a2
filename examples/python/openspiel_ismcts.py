"""OpenSpiel's own ISMCTS and MCTS (open_spiel/python/algorithms/ismcts.py and mcts.py, as they
are in an OpenSpiel checkout) against pilfer's ismcts bot, with pilfer standing in for pyspiel.

    PYTHONPATH=build/python python3 examples/python/openspiel_ismcts.py ~/open_spiel [game] [games] [sims]

OpenSpiel's files are loaded from the checkout, unchanged: `import pyspiel` finds pilfer, whose
names are pyspiel's (docs/python.md). They import absl.logging (Debian: python3-absl); without
it a silent stand-in is used. OpenSpiel's ISMCTSBot searches worlds from
resample_from_infostate, so it plays fair; its MCTSBot searches the true state, hidden cards and
all, so it is shown only as a clairvoyant reference. Seats alternate; each line prints the
OpenSpiel bot's summed win share against pilfer's `ismcts:iters=200`.
"""
import importlib.util
import os
import sys
import types

import numpy as np

import pilfer

sys.modules.setdefault("pyspiel", pilfer)
try:
    import absl.logging  # noqa: F401
except ImportError:
    quiet = types.SimpleNamespace(**{f: (lambda *a, **k: None) for f in ("info", "warning", "error", "debug")})
    sys.modules["absl"] = types.SimpleNamespace(logging=quiet)
    sys.modules["absl.logging"] = quiet


def load(checkout, name):
    path = os.path.join(checkout, "open_spiel", "python", "algorithms", name + ".py")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def play(game, make_bot, games, seed=1):
    rng = np.random.RandomState(seed)
    n, total = game.num_players(), 0.0
    for k in range(games):
        seat = k % n
        theirs = make_bot(k)
        ours = [pilfer.Bot("ismcts:iters=200", seat=p, seed=k) for p in range(n)]
        state = game.new_initial_state(1000 + k)
        while not state.is_terminal():
            if state.is_chance_node():
                ids, ps = zip(*state.chance_outcomes())
                state.apply_action(rng.choice(ids, p=ps))
            elif state.current_player() == seat:
                state.apply_action(theirs.step(state))
            else:
                state.apply_action(ours[state.current_player()].step(state))
        total += state.returns()[seat]
    return total


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    checkout = sys.argv[1]
    gid = sys.argv[2] if len(sys.argv) > 2 else "steal-the-pile"
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    sims = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    mcts, ismcts = load(checkout, "mcts"), load(checkout, "ismcts")
    game = pilfer.load_game(gid, {"players": 2})

    def evaluator(k):
        return mcts.RandomRolloutEvaluator(1, np.random.RandomState(k))

    fair = play(game, lambda k: ismcts.ISMCTSBot(game, evaluator(k), 2, sims, random_state=np.random.RandomState(k)),
                games)
    print(f"{gid}: OpenSpiel's ISMCTSBot ({sims} simulations) {fair:g} of {games} against pilfer's ismcts")
    seer = play(game, lambda k: mcts.MCTSBot(game, 2, sims, evaluator(k), random_state=np.random.RandomState(k)),
                games)
    print(f"{gid}: OpenSpiel's MCTSBot ({sims} simulations, sees every card) {seer:g} of {games}")


if __name__ == "__main__":
    main()
