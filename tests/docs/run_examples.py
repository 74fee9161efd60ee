#!/usr/bin/env python3
"""Runs every code block of the README and the docs site that is marked runnable.

A block is runnable when the line before its opening fence is the HTML comment
``<!-- runnable -->`` (invisible on GitHub and in the site). By the fence's language:

* ``sh``: every line is a command run with bash, unless lines start with ``$ ``: then those
  are the commands and the lines after each are the output it must show. Output lines are
  matched in order against what the command printed (stdout and stderr), each against a
  line of its own; ``…`` inside an expected line matches any text, a line that is only
  ``…`` stands for lines left out. A command must exit 0 unless it ends with a comment
  that says ``# exit N`` (or ``# exits N``). A line ending in ``\\`` continues on the next.
* ``cpp``: a whole program (with ``main``), compiled against the *installed* package
  (``cmake --install`` of the build into a scratch prefix, then ``find_package(pathlab
  COMPONENTS ...)``, linking ``pathlab::<module>`` for each module whose headers it includes),
  then run; it must exit 0.
* ``c``: a whole C99 program against the C ABI (``pathlab/pathlab.h``), compiled with warnings
  as errors and linked with the build's ``libpathlab_c``, then run; it must exit 0.
* ``python``: run by the Python that has the built module on its path; it must exit 0.

Every block runs in one scratch folder that holds the repository's ``maps``, ``scenarios`` and
``examples`` (links) with ``../shared`` beside it, so the docs can name files as a user in a
clone of the repository does. ``pathlab`` is on PATH and ``pathlab`` imports in Python.

    tests/docs/run_examples.py --build build [--shared ../shared] [FILE.md ...]

Prints one line per block and ends with ``docs: N passed, M failed``; exit 1 when one failed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^\s*<!--\s*runnable\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)\s*$")
EXIT_NOTE = re.compile(r"#.*\bexits? (\d+)\b[^#]*$")
LANGS = {"sh": "sh", "bash": "sh", "shell": "sh", "console": "sh", "cpp": "cpp", "c++": "cpp",
         "c": "c", "python": "python", "py": "python"}
COMMAND_TIMEOUT = 300  # seconds; the slowest block measured takes about 15 s


@dataclass
class Block:
    path: Path
    line: int  # of the opening fence, 1-based
    lang: str
    text: str
    name: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path}:{self.line}"


def extract(path: Path) -> list[Block]:
    """The runnable blocks of one Markdown file; a marker not followed by a fence is an error."""
    lines = path.read_text(encoding="utf-8").split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        if not MARKER.match(lines[i]):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        m = FENCE.match(lines[j]) if j < len(lines) else None
        if not m or m.group(3).lower() not in LANGS:
            b = Block(path, i + 1, "?", "")
            b.problems.append("a runnable marker must stand right before a ```sh, ```cpp, ```c "
                              "or ```python block")
            blocks.append(b)
            i = j
            continue
        indent, fence, lang = m.group(1), m.group(2), LANGS[m.group(3).lower()]
        body = []
        k = j + 1
        while k < len(lines) and not lines[k].strip().startswith(fence):
            line = lines[k]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            k += 1
        blocks.append(Block(path, j + 1, lang, "\n".join(body) + "\n"))
        i = k + 1
    return blocks


def shell_steps(text: str) -> list[tuple[str, list[str]]]:
    """(command, expected output lines) pairs of a shell block."""
    raw = text.rstrip("\n").split("\n")
    prompt = any(line.startswith("$ ") for line in raw)
    steps: list[tuple[str, list[str]]] = []
    pending = ""
    for line in raw:
        if prompt and not line.startswith("$ ") and not pending:
            if steps:
                steps[-1][1].append(line)
            continue
        if prompt and line.startswith("$ ") and not pending:
            line = line[2:]
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        steps.append((pending + line, []))
        pending = ""
    return steps


def matches(expected: str, actual: str) -> bool:
    parts = [re.escape(p) for p in expected.rstrip().split("…")]
    return re.fullmatch(".*".join(parts), actual.rstrip()) is not None


def check_output(expected: list[str], actual: str) -> str | None:
    """None when the expected lines appear in order in the actual output."""
    got = actual.split("\n")
    pos = 0
    for want in expected:
        if want.strip() in ("…", ""):
            continue
        while pos < len(got) and not matches(want, got[pos]):
            pos += 1
        if pos == len(got):
            return f"the output has no line like {want!r} (in order)"
        pos += 1
    return None


def run(cmd, cwd: Path, env: dict, timeout: int = COMMAND_TIMEOUT, shell: bool = False):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, shell=shell, executable="/bin/bash" if shell else None,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=timeout, stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return None, out + f"\n(timed out after {timeout} s)"


def tail(text: str, n: int = 15) -> str:
    lines = text.rstrip().split("\n")
    return "\n".join("    " + line for line in lines[-n:])


def run_shell(block: Block, work: Path, env: dict) -> None:
    steps = shell_steps(block.text)
    if not steps:
        block.problems.append("a runnable shell block with no command")
    for cmd, expected in steps:
        m = EXIT_NOTE.search(cmd)
        want = int(m.group(1)) if m else 0
        rc, out = run("set -o pipefail; " + cmd, work, env, shell=True)
        if rc != want:
            block.problems.append(f"`{cmd}` exited {rc}, expected {want}\n{tail(out)}")
            return
        problem = check_output(expected, out)
        if problem:
            block.problems.append(f"`{cmd}`: {problem}\n{tail(out, 30)}")
            return


def build_cpp(blocks: list[Block], build: Path, scratch: Path) -> dict[str, str]:
    """Installs the build, compiles every C++ block against it; returns per-block errors."""
    prefix = scratch / "prefix"
    proj = scratch / "cpp"
    proj.mkdir()
    errors: dict[str, str] = {}
    rc, out = run(["cmake", "--install", str(build), "--prefix", str(prefix)], scratch, dict(os.environ))
    if rc != 0:
        return {b.name: "cmake --install failed\n" + tail(out) for b in blocks}
    # Each program links the modules whose headers it includes, found as components, as a
    # user's project does (docs/cpp.md): a module missing from a component's closure fails here.
    modules = {b.name: sorted(set(re.findall(r"#include\s*<pathlab/(\w+)/", b.text))) for b in blocks}
    components = sorted({m for ms in modules.values() for m in ms})
    cml = ["cmake_minimum_required(VERSION 3.20)", "project(doc_examples CXX)",
           "set(CMAKE_CXX_STANDARD 20)", "set(CMAKE_CXX_STANDARD_REQUIRED ON)",
           f"find_package(pathlab REQUIRED COMPONENTS {' '.join(components)})"]
    for b in blocks:
        (proj / f"{b.name}.cpp").write_text(f"// {b.where}\n" + b.text)
        cml.append(f"add_executable({b.name} {b.name}.cpp)")
        targets = " ".join(f"pathlab::{m}" for m in modules[b.name]) or "pathlab::core"
        cml.append(f"target_link_libraries({b.name} PRIVATE {targets})")
    (proj / "CMakeLists.txt").write_text("\n".join(cml) + "\n")
    env = dict(os.environ)
    rc, out = run(["cmake", "-S", str(proj), "-B", str(proj / "build"), "-G", "Ninja",
                   "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_PREFIX_PATH={prefix}"], scratch, env)
    if rc != 0:
        return {b.name: "configuring against the installed package failed\n" + tail(out) for b in blocks}
    jobs = os.environ.get("JOBS", str(os.cpu_count() or 2))
    for b in blocks:  # one target at a time, so that each block gets its own compiler errors
        rc, out = run(["cmake", "--build", str(proj / "build"), "-j", jobs, "--target", b.name], scratch, env)
        if rc != 0:
            errors[b.name] = "does not compile against the installed package\n" + tail(out, 25)
    return errors


def run_c(block: Block, build: Path, scratch: Path, work: Path, env: dict) -> None:
    """Compiles a C block as C99 against the C ABI of the build and runs it."""
    lib = build / "libs" / "capi"
    source = scratch / f"{block.name}.c"
    exe = scratch / block.name
    source.write_text(f"/* {block.where} */\n" + block.text)
    rc, out = run(["cc", "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                   f"-I{ROOT / 'libs' / 'capi' / 'include'}", str(source), "-o", str(exe),
                   f"-L{lib}", "-lpathlab_c", "-lm", f"-Wl,-rpath,{lib}"], scratch, env)
    if rc != 0:
        block.problems.append("does not compile as C99 against pathlab/pathlab.h\n" + tail(out, 25))
        return
    rc, out = run([str(exe)], work, env)
    if rc != 0:
        block.problems.append(f"exited {rc}\n{tail(out)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build", help="the built tree (default: build)")
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    ap.add_argument("--python", default="/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable)
    ap.add_argument("files", nargs="*", type=Path)
    args = ap.parse_args()

    build = Path(args.build).resolve()
    pathlab = build / "apps" / "cli" / "pathlab"
    if not pathlab.exists():
        print(f"docs: no pathlab in {build}: build first", file=sys.stderr)
        print("docs: 0 passed, 1 failed")
        return 1
    files = args.files or [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    blocks = [b for f in files for b in extract(Path(f).resolve())]
    for n, b in enumerate(blocks):
        b.name = f"example_{n:02d}"

    scratch = Path(tempfile.mkdtemp(prefix="pathlab-docs."))
    try:
        work = scratch / "work"
        work.mkdir()
        for d in ("maps", "scenarios", "examples"):
            (work / d).symlink_to(ROOT / d)
        shared = Path(args.shared).resolve()
        if shared.exists():
            (scratch / "shared").symlink_to(shared)
        env = dict(os.environ)
        env["PATH"] = f"{pathlab.parent}:{env.get('PATH', '')}"
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(build / "python"), env.get("PYTHONPATH")) if p)
        env["PYTHON"] = args.python
        env["XDG_CACHE_HOME"] = str(scratch / "cache")  # prepared data stays in the scratch folder
        env.pop("CI", None)

        cpp = [b for b in blocks if b.lang == "cpp" and not b.problems]
        cpp_errors = build_cpp(cpp, build, scratch) if cpp else {}

        passed = failed = 0
        for b in blocks:
            t0 = time.monotonic()
            if not b.problems:
                if b.lang == "sh":
                    run_shell(b, work, env)
                elif b.lang == "python":
                    script = scratch / f"{b.name}.py"
                    script.write_text(b.text)
                    rc, out = run([args.python, str(script)], work, env)
                    if rc != 0:
                        b.problems.append(f"exited {rc}\n{tail(out)}")
                elif b.lang == "c":
                    run_c(b, build, scratch, work, env)
                elif b.name in cpp_errors:
                    b.problems.append(cpp_errors[b.name])
                else:
                    rc, out = run([str(scratch / "cpp" / "build" / b.name)], work, env)
                    if rc != 0:
                        b.problems.append(f"exited {rc}\n{tail(out)}")
            secs = time.monotonic() - t0
            if b.problems:
                failed += 1
                print(f"FAIL {b.where} ({b.lang}, {secs:.1f} s): " + "\n".join(b.problems))
            else:
                passed += 1
                print(f"ok   {b.where} ({b.lang}, {secs:.1f} s)")
        print(f"docs: {passed} passed, {failed} failed")
        return 1 if failed else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
