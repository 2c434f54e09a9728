"""Train sb3-contrib's MaskablePPO on a canonical task and export a NumPy policy file.

    pip install torch==2.13.0 '.[rl,train]'     # a CPU build of torch
    python examples/train_maskable_ppo.py --task barbu-notricks-v0 --steps 120000 --out notricks.npz
    barbu arena --bots policy:notricks.npz,heuristic ...

The learner plays one seat of the task's single-agent Gymnasium environment
(:class:`barbu.research.gym.BarbuGymEnv`), the other seats drawn from ``--opponents``.
The policy network (``tanh`` MLP) is exported to ``--out`` with
:func:`barbu.research.policy.save_policy` every ``--save-every`` steps and at the end;
play needs NumPy only (the ``policy:PATH`` bot level). Then the exported policy is
evaluated on the task's duplicate deals against random and heuristic opponents.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from barbu.research.gym import BarbuGymEnv
from barbu.research.policy import save_policy
from barbu.research.tasks import evaluate


def export(model: MaskablePPO, env: BarbuGymEnv, path: str, steps: int, seconds: float) -> None:
    """Write the policy network of ``model`` as a NumPy policy file."""
    layers = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    layers.append(model.policy.action_net)
    weights = [layer.weight.detach().cpu().numpy().T.copy() for layer in layers]
    biases = [layer.bias.detach().cpu().numpy().copy() for layer in layers]
    t = env.task
    save_policy(
        path,
        t.variant,
        t.options,
        weights,
        biases,
        task=t.id,
        trainer="sb3-contrib MaskablePPO",
        steps=str(steps),
        cpu_seconds=f"{seconds:.0f}",
    )


class Exporter(BaseCallback):
    """Export the policy every ``every`` steps, and stop after ``limit`` CPU-seconds."""

    def __init__(self, env: BarbuGymEnv, path: str, every: int, limit: float) -> None:
        super().__init__()
        self.env, self.path, self.every, self.limit = env, path, every, limit
        self.start = time.process_time()

    def _on_step(self) -> bool:
        if self.num_timesteps % self.every == 0:
            export(self.model, self.env, self.path, self.num_timesteps, time.process_time() - self.start)
            print(f"{self.num_timesteps} steps, {time.process_time() - self.start:.0f} CPU-s: exported", flush=True)
        return time.process_time() - self.start < self.limit


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--task", default="barbu-notricks-v0")
    parser.add_argument("--opponents", default="random", help="comma-separated bot levels (a pool)")
    parser.add_argument("--steps", type=int, default=120_000, help="learner decisions")
    parser.add_argument("--hidden", type=int, default=64, help="width of the hidden layer")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="policy.npz")
    parser.add_argument("--save-every", type=int, default=10_240)
    parser.add_argument("--cpu-limit", type=float, default=3600.0, help="stop after this many CPU-seconds")
    parser.add_argument("--eval-deals", type=int, default=100)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    env = BarbuGymEnv(args.task, opponents=args.opponents.split(","))
    model = MaskablePPO(
        "MlpPolicy",
        env,
        policy_kwargs={"net_arch": {"pi": [args.hidden], "vf": [args.hidden]}, "activation_fn": torch.nn.Tanh},
        n_steps=2048,
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=0.01,
        seed=args.seed,
        verbose=0,
    )
    start = time.process_time()
    model.learn(args.steps, callback=Exporter(env, args.out, args.save_every, args.cpu_limit))
    seconds = time.process_time() - start
    export(model, env, args.out, model.num_timesteps, seconds)
    print(f"trained {model.num_timesteps} steps in {seconds:.0f} CPU-s; wrote {args.out}")
    for opponents in ("random", "heuristic"):
        score = evaluate(args.task, f"policy:{args.out}", opponents, deals=args.eval_deals)
        print(f"policy vs {opponents}: {score}")
    np.set_printoptions(precision=3)


if __name__ == "__main__":
    main()
