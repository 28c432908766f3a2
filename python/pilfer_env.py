"""pilfer_env: a game of `import pilfer` in PettingZoo's AEC conventions, without PettingZoo
(docs/python.md: "Learning: the vector environment and the AEC wrapper").

    import pilfer_env
    env = pilfer_env.AECEnv("steal-the-pile", players=2)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(obs["observation"], obs["action_mask"])
        env.step(action)

Agents are "player_0" ... "player_{n-1}", seats in order. Chance events are drawn as the game
goes, each outcome by its probability in State.chance_outcomes(), from the env's own generator
(seeded by reset's seed and how many resets came before), so an agent is always a seat to move. Rewards
come once, at the end: each seat's share of the win (State.returns()). Spaces are plain objects
with the attributes a learner reads (shape, dtype, low, high; n), not gymnasium's classes.

A pure-Python file that does only `import pilfer`, installed beside the module.
"""
import numpy as np

import pilfer


class Box:
    """An observation space: floats of `shape`, from `low` to `high`."""

    def __init__(self, shape, low=0.0, high=np.inf, dtype=np.float32):
        self.shape, self.low, self.high, self.dtype = tuple(shape), low, high, np.dtype(dtype)

    def __repr__(self):
        return f"Box(shape={self.shape}, dtype={self.dtype})"


class Discrete:
    """An action space: the integers 0 .. n - 1."""

    def __init__(self, n):
        self.n, self.shape, self.dtype = n, (), np.dtype(np.int64)

    def __repr__(self):
        return f"Discrete({self.n})"


class AECEnv:
    """One game at a time, agent by agent, as PettingZoo's AECEnv steps it.

    AECEnv(game, players=None, seed=None, observation="observation", **options): `game` is a
    pilfer.Game or a game's id (then loaded with `players` and the options); `observation` is
    "observation" (State.observation_tensor) or "information_state"
    (State.information_state_tensor). Without a seed, reset() deals the game's next deal."""

    metadata = {"name": "pilfer", "is_parallelizable": False}

    def __init__(self, game, players=None, seed=None, observation="observation", **options):
        if isinstance(game, str):
            params = dict(options)
            if players is not None:
                params["players"] = players
            game = pilfer.load_game(game, params)
        if observation not in ("observation", "information_state"):
            raise pilfer.Error('observation is "observation" or "information_state"')
        self.game = game
        self.num_players = game.num_players()
        self.num_actions = game.num_distinct_actions()
        self._info_state = observation == "information_state"
        size = game.information_state_tensor_size() if self._info_state else game.observation_tensor_size()
        self.observation_shape = (size,)
        self.action_mask_shape = (self.num_actions,)
        self.possible_agents = [f"player_{p}" for p in range(self.num_players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: {"observation": Box(self.observation_shape),
                                       "action_mask": Box(self.action_mask_shape, 0, 1, np.int8)}
                                   for a in self.possible_agents}
        self.action_spaces = {a: Discrete(self.num_actions) for a in self.possible_agents}
        self._seed = seed
        self.state = None
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """A new game: deal `seed`, or the game's next deal."""
        if seed is None:
            seed, self._seed = self._seed, None
        self.state = self.game.new_initial_state(seed)
        self._resets = getattr(self, "_resets", 0) + 1  # reproducible without a seed too
        self._rng = np.random.default_rng([0 if seed is None else int(seed) + 1, self._resets, 0x43484E43])
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._chance()
        self._select()

    def _chance(self):
        while self.state.is_chance_node():
            ids, probs = zip(*self.state.chance_outcomes())
            self.state.apply_action(ids[self._rng.choice(len(ids), p=probs)])

    def _select(self):
        """The agent to act next: the seat to move, or (the game over) the next agent still in."""
        if self.state.is_terminal():
            self.agent_selection = self.agents[0] if self.agents else None
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]
        for a in self.agents:
            self.infos[a] = {}
        if self.agent_selection is not None and not self.state.is_terminal():
            self.infos[self.agent_selection] = {"legal_actions": self.state.legal_actions()}

    def observe(self, agent):
        p = self.agent_name_mapping[agent]
        obs = self.state.information_state_tensor(p) if self._info_state else self.state.observation_tensor(p)
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if not self.state.is_terminal() and self.state.current_player() == p:
            mask[self.state.legal_actions()] = 1
        return {"observation": obs, "action_mask": mask}

    def last(self, observe=True):
        a = self.agent_selection
        return (self.observe(a) if observe else None, self._cumulative_rewards[a], self.terminations[a],
                self.truncations[a], self.infos[a])

    def agent_iter(self, max_iter=2 ** 63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action):
        """Plays the selected agent's action; once the game is over, each agent steps once with
        None (PettingZoo's "dead step") and leaves `agents`."""
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            if action is not None:
                raise pilfer.Error(f"{a}'s game is over: step(None)")
            self.agents.remove(a)
            self._cumulative_rewards.pop(a, None)
            self._select()
            return
        self._cumulative_rewards[a] = 0.0
        self.state.apply_action(int(action))
        self._chance()
        for b in self.agents:
            self.rewards[b] = 0.0
        if self.state.is_terminal():
            for b, r in zip(self.possible_agents, self.state.returns()):
                self.rewards[b] = r
                self.terminations[b] = True
        for b in self.agents:
            self._cumulative_rewards[b] += self.rewards[b]
        self._select()

    def render(self):
        return str(self.state)

    def close(self):
        pass


def env(game, **kw):
    """PettingZoo's conventional constructor: pilfer_env.env("thief", players=4)."""
    return AECEnv(game, **kw)
