#!/usr/bin/env python3
"""The C# P/Invoke file cannot drift from the C header (.NET is not installed here, so the C#
itself is not compiled; what can be checked without it is):

1. examples/csharp/Pathlab.cs is exactly what scripts/gen-csharp.py writes from pathlab.h now;
2. every function the header declares (found here by a regex of its own, not by the generator's
   parser) is in the C# file, as an EntryPoint and as an extern method of that name;
3. every struct and every enum member of the header is in the C# file;
4. every `pathlab_name(` the header mentions, comments included, is a declared function (the
   WebAssembly build exports each such name: one that does not exist fails its link);
5. the C# structs' layout (sequential, natural alignment, the C# types the generator chose) is
   the C compiler's: gen-csharp.py --layout-c writes _Static_asserts of every size, offset and
   enum value, compiled here against the header.

    check_csharp.py [--cc CC]      last line: capi-csharp: N passed, N failed
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "libs" / "capi" / "include" / "pathlab" / "pathlab.h"
CSHARP = ROOT / "examples" / "csharp" / "Pathlab.cs"
GENERATOR = ROOT / "scripts" / "gen-csharp.py"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    a = ap.parse_args()
    passed = failed = 0

    def verdict(ok: bool, what: str, detail: str = "") -> None:
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {what}" + (f"\n{detail}" if detail else ""))

    header = HEADER.read_text(encoding="utf-8")
    committed = CSHARP.read_text(encoding="utf-8") if CSHARP.exists() else ""
    with tempfile.TemporaryDirectory() as tmp:
        fresh_path = Path(tmp) / "Pathlab.cs"
        run = subprocess.run([sys.executable, str(GENERATOR), "--out", str(fresh_path)], capture_output=True,
                             text=True)
        fresh = fresh_path.read_text(encoding="utf-8") if run.returncode == 0 else ""
        verdict(run.returncode == 0, "gen-csharp.py parses the header", run.stderr.strip())
        diff = "".join(list(difflib.unified_diff(committed.splitlines(True), fresh.splitlines(True),
                                                 "examples/csharp/Pathlab.cs (committed)",
                                                 "scripts/gen-csharp.py (now)"))[:60])
        verdict(bool(fresh) and fresh == committed,
                "examples/csharp/Pathlab.cs is what scripts/gen-csharp.py writes (run it and commit the file)",
                diff)

        functions = re.findall(r"PATHLAB_API[^;(]*?\b(pathlab_\w+)\s*\(", header)
        missing = [f for f in functions
                   if f'EntryPoint = "{f}"' not in committed or not re.search(rf"\bextern [^;]*\b{f}\(", committed)]
        verdict(len(functions) > 20 and not missing,
                f"every function of the header is in the C# file ({len(functions)} functions)",
                f"missing: {missing}" if missing else "")

        structs = re.findall(r"typedef\s+struct\s*\{.*?\}\s*(\w+)\s*;", header, re.S)
        missing = [s for s in structs if f"C: {s}," not in committed]
        verdict(len(structs) > 5 and not missing, f"every struct of the header is in the C# file ({len(structs)})",
                f"missing: {missing}" if missing else "")
        members = re.findall(r"\b(PATHLAB_[A-Z_]+)\s*=\s*(\d+)", header)
        pascal = lambda n: "".join(p.capitalize() for p in n.removeprefix("PATHLAB_").split("_"))
        missing = [m for m, v in members if f"{pascal(m)} = {v}," not in committed]
        verdict(len(members) > 5 and not missing, f"every enum member is in the C# file ({len(members)})",
                f"missing: {missing}" if missing else "")

        mentioned = set(re.findall(r"\b(pathlab_\w+)\(", header))
        unknown = sorted(mentioned - set(functions))
        verdict(not unknown, "every pathlab_name( the header mentions is a declared function",
                f"not declared: {unknown}" if unknown else "")

        layout_c = Path(tmp) / "layout.c"
        gen = subprocess.run([sys.executable, str(GENERATOR), "--layout-c", str(layout_c)], capture_output=True,
                             text=True)
        if gen.returncode == 0:
            cc = subprocess.run([a.cc, "-std=c11", "-Wall", "-Werror", f"-I{HEADER.parent.parent}", str(layout_c),
                                 "-o", str(Path(tmp) / "layout")], capture_output=True, text=True)
            asserts = layout_c.read_text().count("_Static_assert")
            verdict(cc.returncode == 0,
                    f"the C# structs' sizes, offsets and enum values are the C compiler's ({asserts} asserts)",
                    cc.stderr.strip()[-3000:])
        else:
            verdict(False, "gen-csharp.py --layout-c", gen.stderr.strip())
    print(f"capi-csharp: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
