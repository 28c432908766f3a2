#!/usr/bin/env python3
"""Monte Carlo tree search written only against the pyspiel-style API of `import pilfer`, after
the shape of OpenSpiel's MCTSBot with a random-rollout evaluator (re-written, not copied): UCT
selection, one node added per simulation, random rollouts, returns backed up for every player.

Pilfer's games hide cards, so each simulation first draws a world the searching seat cannot tell
from the real one (state.resample_from_infostate, the game's determinization), as "determinized"
or information-set MCTS does; the tree is keyed by the actions' strings, so that it is shared
across those worlds. Chance nodes are stepped through with an outcome drawn by the probabilities
chance_outcomes() gives (drawn from the resampled world, whose generator the resample reseeds).

    python3 examples/mcts.py steal-the-pile 200    # MCTS with 200 simulations against random
"""
import math
import random
import sys

import pilfer


class Node:
    __slots__ = ("player", "visits", "total", "children")

    def __init__(self, player):
        self.player = player          # who chose the action that leads here
        self.visits = 0
        self.total = 0.0              # the sum of that player's returns
        self.children = {}            # action string -> Node


class MCTSBot:
    def __init__(self, seat, simulations=200, uct_c=1.4, seed=0):
        self.seat = seat
        self.simulations = simulations
        self.uct_c = uct_c
        self.rng = random.Random(seed)

    def step(self, state):
        root = Node(None)
        for _ in range(self.simulations):
            world = state.resample_from_infostate(self.seat, self.rng.getrandbits(62))
            self._simulate(root, world)
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].total))
        return state.string_to_action(best[0])

    def _simulate(self, root, state):
        path = [root]
        node = root
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance(state, self.rng))
                continue
            player = state.current_player()
            moves = {state.action_to_string(player, a): a for a in state.legal_actions()}
            unexplored = [m for m in moves if m not in node.children]
            if unexplored:
                move = self.rng.choice(unexplored)
                node.children[move] = Node(player)
                state.apply_action(moves[move])
                path.append(node.children[move])
                break
            move = max(moves, key=lambda m: self._uct(node, node.children[m]))
            node = node.children[move]
            state.apply_action(moves[move])
            path.append(node)
        returns = self._rollout(state)
        for n in path:
            n.visits += 1
            if n.player is not None:
                n.total += returns[n.player]

    def _uct(self, parent, child):
        if child.visits == 0:
            return math.inf
        return child.total / child.visits + self.uct_c * math.sqrt(math.log(parent.visits + 1) / child.visits)

    def _rollout(self, state):
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance(state, self.rng))
                continue
            actions = state.legal_actions()
            state.apply_action(actions[self.rng.randrange(len(actions))])
        return state.returns()


def chance(state, rng):
    """A chance outcome drawn by its probability."""
    outcomes = state.chance_outcomes()
    return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]


def play(game, bots, seed):
    """Plays one game; bots[p] is a callable state -> action. Returns the final state."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance(state, rng))
        else:
            state.apply_action(bots[state.current_player()](state))
    return state


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "steal-the-pile"
    sims = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    game = pilfer.load_game(name, {"players": 2})
    wins = 0.0
    for g in range(games):
        rng = random.Random(g)
        seat = g % 2
        mcts = MCTSBot(seat, sims, seed=g)
        bots = [None, None]
        bots[seat] = mcts.step
        bots[1 - seat] = lambda s: rng.choice(s.legal_actions())
        wins += play(game, bots, seed=g).returns()[seat]
    print(f"{name}: MCTS ({sims} simulations) won {wins:g} of {games} games against random")


if __name__ == "__main__":
    main()
