#!/usr/bin/env python3
"""Load time and peak memory against file size (issue 24, point 3).

Writes scenario files of four shapes and sizes into a scratch folder and measures each twice with
`/usr/bin/time -v`:
  load  `jointlab_bench_load FILE` (bench/load_only.cpp): loadScenario alone, i.e. reading the
        text, parsing, validation, the Scene; what the loader costs;
  run   `jointlab run FILE --steps 0`: the same plus building the World (body and solver arrays,
        one collision object per body) and the runner around it; no step.
It prints a Markdown table: size, then for each CPU time (user + system: less disturbed by other
work on a shared machine than wall time), peak resident memory and its ratio to the file size;
for the loader also the ratio of what it adds to the process: (peak - the peak for an empty
scenario) / file size, since the process alone (code, libraries) is 4 MB, 4x a 1 MB file.
Files over 64 MiB are refused by the size cap before they are read, so the 100 MB rows measure
that refusal.

    python3 bench/load_sizes.py build/app/jointlab [SCRATCH_DIR] [--sizes 1,10,60,100]
                                [--load build/bench/jointlab_bench_load]

(--load defaults to bench/jointlab_bench_load in the build folder that holds app/jointlab.)

Shapes:
  keys     one object of many keys inside the ignored "app" section ("k0000001": 0, ...)
  bodies   many bodies (spheres of 1 kg on a grid, one line each)
  strings  a few long strings (the description and the "app" section's values, 1 MB each)
  nesting  many 60-deep nests of objects and arrays inside "app" (the limit is 64 levels)
"""
import os
import re
import subprocess
import sys
import tempfile

HEAD = '{"format": "jointlab-scenario", "version": 2, '


def write_keys(f, size):
    f.write(HEAD + '"app": {"many": {')
    i, n = 0, len(HEAD) + 20
    while n < size:
        s = '%s"k%09d": %d' % ("," if i else "", i, i % 10)
        f.write(s)
        n += len(s)
        i += 1
    f.write('}}, "bodies": []}\n')


def write_bodies(f, size):
    f.write(HEAD + '"settings": {"groundPlane": false}, "bodies": [\n')
    i, n = 0, len(HEAD) + 60
    while n < size:
        s = '%s{"name": "b%d", "shape": "sphere", "radius": 0.1, "mass": 1.0, "position": [%d, %d, %d]}\n' % (
            "," if i else "", i, i % 1000, (i // 1000) % 1000, i // 1000000)
        f.write(s)
        n += len(s)
        i += 1
    f.write(']}\n')


def write_strings(f, size):
    chunk = 1 << 20
    f.write(HEAD + '"description": "' + "d" * min(chunk, size) + '", "app": {')
    i, n = 0, len(HEAD) + min(chunk, size) + 30
    while n < size:
        part = min(chunk, size - n)
        s = '%s"s%d": "%s"' % ("," if i else "", i, "x" * part)
        f.write(s)
        n += len(s)
        i += 1
    f.write('}, "bodies": []}\n')


def write_nesting(f, size):
    nest = ""
    for d in range(30):
        nest = '{"a": [%s]}' % nest if nest else '{"a": [0]}'
    f.write(HEAD + '"app": {"deep": [')
    i, n = 0, len(HEAD) + 20
    while n < size:
        s = ("," if i else "") + nest
        f.write(s)
        n += len(s)
        i += 1
    f.write(']}, "bodies": []}\n')


SHAPES = {"keys": write_keys, "bodies": write_bodies, "strings": write_strings, "nesting": write_nesting}


def measure(command, path):
    r = subprocess.run(["/usr/bin/time", "-v"] + command,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", r.stderr)
    h, m, s = wall.groups()
    seconds = int(h or 0) * 3600 + int(m) * 60 + float(s)
    kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1))
    cpu = float(re.search(r"User time \(seconds\): ([\d.]+)", r.stderr).group(1)) + float(
        re.search(r"System time \(seconds\): ([\d.]+)", r.stderr).group(1))
    message = r.stderr.splitlines()[0] if r.stderr else ""
    message = message.split(": ", 1)[-1].replace(path, os.path.basename(path))  # no program, no folder
    verdict = "loaded" if r.returncode == 0 else "refused: " + message[:80]
    return seconds, cpu, kb * 1024, verdict


def main():
    jointlab = sys.argv[1]
    scratch = sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("--") else tempfile.mkdtemp()
    sizes = [1, 10, 60, 100]
    if "--sizes" in sys.argv:
        sizes = [int(x) for x in sys.argv[sys.argv.index("--sizes") + 1].split(",")]
    loader = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(jointlab))), "bench",
                          "jointlab_bench_load")
    if "--load" in sys.argv:
        loader = sys.argv[sys.argv.index("--load") + 1]
    empty = os.path.join(scratch, "empty.json")
    with open(empty, "w") as f:
        f.write(HEAD + '"bodies": []}\n')
    _, _, lbase, _ = measure([loader, empty], empty)
    _, _, rbase, _ = measure([jointlab, "run", empty, "--steps", "0"], empty)
    os.remove(empty)
    print("Empty scenario: load %.1f MB, run %.1f MB peak memory.\n" % (lbase / 1e6, rbase / 1e6))
    print("| shape | file size | load: CPU time | load: peak memory | load: memory / file size "
          "| load: (peak - empty) / file size | run: CPU time | run: peak memory | run: memory / file size "
          "| result |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for shape, writer in SHAPES.items():
        for mb in sizes:
            path = os.path.join(scratch, "%s_%dmb.json" % (shape, mb))
            with open(path, "w") as f:
                writer(f, mb * 1000 * 1000)
            size = os.path.getsize(path)
            _, lcpu, lpeak, lverdict = measure([loader, path], path)
            _, rcpu, rpeak, verdict = measure([jointlab, "run", path, "--steps", "0"], path)
            if lverdict != "loaded" and verdict == "loaded":
                verdict = "load " + lverdict  # never expected: the two read the file the same way
            print("| %s | %.1f MB | %.2f s | %.0f MB | %.1f× | %.1f× | %.2f s | %.0f MB | %.1f× | %s |" % (
                shape, size / 1e6, lcpu, lpeak / 1e6, lpeak / size, max(0.0, (lpeak - lbase) / size), rcpu,
                rpeak / 1e6, rpeak / size, verdict))
            sys.stdout.flush()
            os.remove(path)


if __name__ == "__main__":
    main()
