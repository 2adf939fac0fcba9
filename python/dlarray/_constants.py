"""The array API constants (plain Python floats, as the standard defines them)."""
import math

e = math.e
inf = math.inf
nan = math.nan
newaxis = None
pi = math.pi
