"""Deliberately wrong: mypy must reject it (an Array is not an int; Array has no .nope)."""
import dlarray as xp

count: int = xp.sum(xp.ones(3))
xp.ones(3).nope
