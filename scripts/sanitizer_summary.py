"""Counts what the sanitizers reported in scripts/sanitize's log files, and whose it is.

AddressSanitizer errors and UndefinedBehaviorSanitizer "runtime error:" lines always count.
A leak counts when its allocation stack passes through dlarray (a frame in one of its
modules or its sources). Leaks whose stacks hold no dlarray frame are Python objects that
CPython (and NumPy, PyTorch) keep until exit and never free: they are listed as such, not
counted. With fast unwinding (the default) a stack stops at the first CPython frame, so a
Python object that dlarray's own code allocated could hide there: SANITIZE_FULL_STACKS=1
records whole stacks, which this attribution then sees through.

usage: python3 scripts/sanitizer_summary.py LOG... ; prints one line of counts; writes the
counted reports to stdout after it, and exits 1 when anything counted.
"""
import re
import sys

OURS = re.compile(r"/dlarray/_core\.|/dlarray/_fake_gpu\.|[ /]src/(core|backends|bindings|dlpack|testing)/")
LEAK_HEAD = re.compile(r"^(Direct|Indirect) leak of (\d+) byte")


def leak_blocks(lines):
    """(header, frames) for each leak block of a LeakSanitizer report."""
    block = None
    for line in lines:
        if LEAK_HEAD.match(line):
            if block:
                yield block
            block = (line, [])
        elif block and line.lstrip().startswith("#"):
            block[1].append(line)
        elif block and not line.strip():
            yield block
            block = None
    if block:
        yield block


def main(paths):
    asan = ubsan = 0
    ours, theirs, their_bytes = [], 0, 0
    for path in paths:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
        asan += sum("ERROR: AddressSanitizer" in l for l in lines)
        ubsan += sum("runtime error:" in l for l in lines)
        for head, frames in leak_blocks(lines):
            if any(OURS.search(fr) for fr in frames):
                ours.append("\n".join([f"{path}:", head, *frames]))
            else:
                theirs += 1
                their_bytes += int(LEAK_HEAD.match(head).group(2))
    errors = asan + ubsan + len(ours)
    print(f"{errors} errors (AddressSanitizer {asan}, LeakSanitizer {len(ours)} leaks through dlarray, "
          f"UndefinedBehaviorSanitizer {ubsan}); not dlarray's: {theirs} exit-time leaks of CPython and "
          f"peers ({their_bytes} bytes, no dlarray frame)")
    for r in ours:
        print(r)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
