"""Training and evaluation: PPO self-play, behaviour cloning, duplicate evaluation, the arena.

Submodules load when first used (``mjenv._lazy``): ``import training`` then
``training.calibrate.collect(...)`` works without importing ``training.calibrate`` first.
"""

from mjenv._lazy import lazy_exports

__getattr__ = lazy_exports("training", {}, globals())[0]
