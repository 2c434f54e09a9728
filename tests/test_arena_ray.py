"""The arena on a Ray cluster: the same duplicate schedule, the same numbers as the local pool."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import ray

from barbu.arena import run_arena
from barbu.arena.command import arena_main
from barbu.usage import UsageError


def _stable(report: dict[str, Any]) -> dict[str, Any]:
    """A JSON report without the fields that measure time or the workers."""
    out = {k: v for k, v in report.items() if k not in ("workers", "seconds", "games_per_second")}
    out["bots"] = [{k: v for k, v in b.items() if k != "decision_seconds"} for b in report["bots"]]
    return out


def test_a_ray_cluster_gives_the_local_pool_s_numbers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lineup = ["heuristic", "random", "random", "random"]
    local = run_arena(lineup, variant="king", games=3, seed=7, workers=2)
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except Exception:  # Ray gives its node 30 s to register: a very busy machine may need a second try
        ray.shutdown()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert ray.is_initialized()
        one = run_arena(lineup, variant="king", games=3, seed=7, workers=1, ray="local")
        two = run_arena(lineup, variant="king", games=3, seed=7, ray="local")
        out = tmp_path / "ray.json"
        argv = [*lineup, "--variant", "king", "--games", "3", "--seed", "7", "--ray", "local", "--quiet"]
        assert arena_main([*argv, "--json", str(out)]) == 0
        assert ray.is_initialized()  # a connection the arena did not open is left open
    finally:
        ray.shutdown()
    assert _stable(one.as_json()) == _stable(local.as_json()) == _stable(two.as_json())
    assert _stable(json.loads(out.read_text())) == _stable(local.as_json())
    assert local.bot("heuristic").points_per_game.mean > 0


def test_an_empty_ray_address_is_refused() -> None:
    with pytest.raises(UsageError, match="--ray needs an address"):
        arena_main(["random"] * 4 + ["--ray", " ", "--games", "1"])


def test_a_missing_ray_package_is_said_in_the_readers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Ray, ``--ray`` is refused before any game, with the install command, in French too."""
    import barbu.arena.command
    from barbu.language import speaking

    def no_ray() -> None:
        raise ValueError("--ray needs the Ray package: pip install 'barbu[cluster]'")

    monkeypatch.setattr(barbu.arena.command, "ray_module", no_ray)
    with speaking("en"), pytest.raises(UsageError) as refused:  # the language --lang sets ends with the block
        arena_main(["random"] * 4 + ["--ray", "local", "--games", "1", "--lang", "en"])
    assert str(refused.value) == "--ray needs the Ray package: pip install 'barbu[cluster]'"
    with speaking("fr"), pytest.raises(UsageError) as refused:
        arena_main(["random"] * 4 + ["--ray", "local", "--games", "1", "--lang", "fr"])
    assert "--ray" in str(refused.value) and "pip install 'barbu[cluster]'" in str(refused.value)
    assert "needs" not in str(refused.value), refused.value
