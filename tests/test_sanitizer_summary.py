"""scripts/sanitizer_summary.py: which sanitizer reports count as dlarray's (the attribution
scripts/sanitize relies on), checked on report text in the formats ASan/LSan/UBSan write."""
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "scripts" / "sanitizer_summary.py"

CPYTHON_ONLY = """\
==python3==11==ERROR: LeakSanitizer: detected memory leaks

Direct leak of 952 byte(s) in 17 object(s) allocated from:
    #0 0x7f6d1bab89cf in __interceptor_malloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:69
    #1 0x7f6d1b2bcd74 in gc_alloc Modules/gcmodule.c:2283

Indirect leak of 80 byte(s) in 1 object(s) allocated from:
    #0 0x7fd8c3cb89cf in __interceptor_malloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:69
    #1 0x7fd8c0d746cd in PyDataMem_UserNEW (/site-packages/numpy/_core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so+0x1746cd)

SUMMARY: AddressSanitizer: 1032 byte(s) leaked in 18 allocation(s).
"""

THROUGH_DLARRAY = """\
==python3==12==ERROR: LeakSanitizer: detected memory leaks

Direct leak of 48 byte(s) in 1 object(s) allocated from:
    #0 0x7f in operator new(unsigned long) ../../../../src/libsanitizer/asan/asan_new_delete.cpp:95
    #1 0x7f in dla::Storage::adopt(dla::DataPtr, unsigned long, dla::Device) /work/main/src/core/array.cpp:40
    #2 0x7f in PyObject_Vectorcall Objects/call.c:299

SUMMARY: AddressSanitizer: 48 byte(s) leaked in 1 allocation(s).
"""

UBSAN = "/work/main/src/core/indexing.cpp:120:7: runtime error: signed integer overflow\n"


def summarize(tmp_path, *texts):
    paths = []
    for i, text in enumerate(texts):
        p = tmp_path / f"asan.python3.{i}"
        p.write_text(text)
        paths.append(str(p))
    r = subprocess.run([sys.executable, str(SCRIPT), *paths], capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout.splitlines()


def test_leaks_with_no_dlarray_frame_are_listed_not_counted(tmp_path):
    rc, out = summarize(tmp_path, CPYTHON_ONLY)
    assert rc == 0 and out[0].startswith("0 errors")
    assert "2 exit-time leaks of CPython and peers (1032 bytes" in out[0]


def test_a_leak_through_dlarray_counts_and_is_shown(tmp_path):
    rc, out = summarize(tmp_path, CPYTHON_ONLY, THROUGH_DLARRAY)
    assert rc == 1 and out[0].startswith("1 errors") and "LeakSanitizer 1 leaks through dlarray" in out[0]
    assert any("dla::Storage::adopt" in line for line in out[1:])


def test_address_and_undefined_behaviour_errors_always_count(tmp_path):
    asan = "==python3==13==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1\n"
    rc, out = summarize(tmp_path, asan, UBSAN)
    assert rc == 1 and "AddressSanitizer 1," in out[0] and "UndefinedBehaviorSanitizer 1)" in out[0]
