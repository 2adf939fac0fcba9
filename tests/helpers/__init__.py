"""Helpers shared by the test files, not tests themselves (pytest collects nothing here):
NumPy as the value oracle (oracle), the GPU test files' device helpers and the fake backend's
fixture (gpu_util), complex test data and comparisons (complex_cases), DLPack's C structs in
ctypes (dlpack_ctypes), and the random-calls fuzzer that tests/test_random_calls.py runs as a
script in a child process (random_calls: python tests/helpers/random_calls.py SEED CALLS LOG).

Test files import them as `helpers.<module>`: tests/ is on sys.path because pytest's default
("prepend") import mode puts the first directory without an __init__.py above each test file
and conftest.py there, which is tests/ for `pytest tests` in the source tree and for the suite
run against an installed wheel from elsewhere (.ci/wheel-check: pytest <checkout>/tests).
"""
