"""dlarray.random: random numbers from a counter-based generator (Philox-4x32-10)."""
