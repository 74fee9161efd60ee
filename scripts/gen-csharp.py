#!/usr/bin/env python3
"""Generates the C# P/Invoke declarations of pathlab's C ABI (examples/csharp/Pathlab.cs) from
its header, libs/capi/include/pathlab/pathlab.h, so that the two cannot drift apart (the ctest
capi.csharp regenerates it and fails when the committed file differs).

    scripts/gen-csharp.py [--header H] [--out FILE]     writes the C# file (default: the
                                                        repository's; "-" for stdout)
    scripts/gen-csharp.py --layout-c FILE               writes a C11 file of _Static_asserts:
                                                        the struct sizes and offsets this C# layout
                                                        implies on this machine (x86-64 / AArch64:
                                                        8-byte pointers), to compile against the
                                                        header

What the header may contain (anything else is an error naming its line, so the header stays
regular enough to parse): preprocessor lines, comments, `extern "C" {` / `}`, and these
declarations, each preceded by an optional /** doc comment */:
    typedef enum { NAME = VALUE, /**< doc */ ... } pathlab_x;
    typedef struct pathlab_x pathlab_x;                        an opaque handle, freed by
                                                               pathlab_x_free()
    typedef struct { TYPE NAME; /**< doc */ ... } pathlab_x;   one field per declaration
    PATHLAB_API RET pathlab_name(TYPE NAME, ...);

How C maps to C#:
    enums -> `enum X : int`; structs -> [StructLayout(LayoutKind.Sequential)] with the same
    fields in order (int32_t int, int8_t sbyte, uint32_t uint, uint64_t ulong, double double,
    size_t UIntPtr, int int, const char* a UTF-8 string, any other pointer IntPtr);
    opaque handles -> SafeHandle subclasses (XHandle) whose release calls pathlab_x_free();
    parameters: a handle -> XHandle (its *_free takes an IntPtr), X** -> out XHandle;
    const char* -> UTF-8 string, or byte[] when a size_t follows it (text with a length);
    const T* of numbers -> T[]; T* of numbers -> [Out] T[] after a size_t count, else out T;
    const S* of a struct -> S[] after a size_t count, else `in S`; S* -> out S; returned
    pointers -> IntPtr (the library owns what they point to).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADER = ROOT / "libs" / "capi" / "include" / "pathlab" / "pathlab.h"
OUT = ROOT / "examples" / "csharp" / "Pathlab.cs"

# C number types and their C# types.
NUMBERS = {"int": "int", "int32_t": "int", "int8_t": "sbyte", "uint32_t": "uint", "uint64_t": "ulong",
           "double": "double", "size_t": "UIntPtr", "char": "byte"}
# Size (and alignment) in bytes of each C# field type in a sequential struct on a 64-bit machine:
# the layout the C# file implies, which --layout-c has the C compiler check against the header.
CS_SIZES = {"int": 4, "sbyte": 1, "uint": 4, "ulong": 8, "double": 8, "UIntPtr": 8, "IntPtr": 8,
            "byte": 1, "string": 8}
UTF8 = "[MarshalAs(UnmanagedType.LPUTF8Str)] "
KEYWORDS = {"out", "in", "ref", "params", "string", "object", "base", "checked", "fixed", "lock",
            "event", "operator", "internal", "is", "as", "new", "this", "default", "delegate"}


class HeaderError(Exception):
    pass


@dataclass
class Field:
    ctype: str
    name: str
    doc: str = ""


@dataclass
class Enum:
    name: str
    doc: str
    members: list[tuple[str, int, str]]


@dataclass
class Struct:
    name: str
    doc: str
    fields: list[Field]


@dataclass
class Function:
    name: str
    doc: str
    ret: str
    params: list[Field]


@dataclass
class Header:
    abi_version: int = 0
    enums: list[Enum] = field(default_factory=list)
    handles: list[tuple[str, str]] = field(default_factory=list)  # (name, doc)
    structs: list[Struct] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)


def clean_doc(text: str) -> str:
    lines = [re.sub(r"^\s*\*?\s?", "", line).rstrip() for line in text.strip().split("\n")]
    return " ".join(line.strip() for line in lines if line.strip())


def split_decl(decl: str, where: str) -> Field:
    """`const pathlab_grid* grid` -> Field("const pathlab_grid*", "grid")."""
    m = re.fullmatch(r"\s*((?:const\s+)?\w+(?:\s*\*)*)\s*(\w+)\s*", decl)
    if not m:
        raise HeaderError(f"{where}: cannot read the declaration '{decl.strip()}'")
    return Field(re.sub(r"\s*\*", "*", m.group(1)).strip(), m.group(2))


def parse(text: str) -> Header:
    h = Header()
    pos, doc = 0, ""
    line_of = lambda p: text.count("\n", 0, p) + 1
    patterns = [
        ("space", re.compile(r"\s+")),
        ("doc", re.compile(r"/\*\*(?!<)(.*?)\*/", re.S)),
        ("comment", re.compile(r"/\*.*?\*/", re.S)),
        ("define", re.compile(r"#define\s+PATHLAB_ABI_VERSION\s+(\d+)[^\n]*")),
        ("preprocessor", re.compile(r"#[^\n]*")),
        ("extern", re.compile(r'extern\s+"C"\s*\{|\}(?=\s*\n\s*#endif)')),
        ("enum", re.compile(r"typedef\s+enum\s*\{(.*?)\}\s*(\w+)\s*;", re.S)),
        ("handle", re.compile(r"typedef\s+struct\s+(\w+)\s+(\w+)\s*;")),
        ("struct", re.compile(r"typedef\s+struct\s*\{(.*?)\}\s*(\w+)\s*;", re.S)),
        ("function", re.compile(r"PATHLAB_API\s+([\w\s\*]+?)\s*\b(pathlab_\w+)\s*\(([^)]*)\)\s*;", re.S)),
    ]
    while pos < len(text):
        for kind, pattern in patterns:
            m = pattern.match(text, pos)
            if m:
                break
        else:
            raise HeaderError(f"pathlab.h:{line_of(pos)}: cannot parse: {text[pos:pos + 60]!r}")
        where = f"pathlab.h:{line_of(pos)}"
        pos = m.end()
        if kind == "doc":
            doc = clean_doc(m.group(1))
            continue
        if kind in ("space", "comment", "preprocessor", "extern"):
            if kind == "comment":
                doc = ""
            continue
        if kind == "define":
            h.abi_version = int(m.group(1))
        elif kind == "enum":
            members = []
            for em in re.finditer(r"(\w+)\s*=\s*(-?\d+)\s*,?\s*(?:/\*\*<(.*?)\*/)?", m.group(1), re.S):
                members.append((em.group(1), int(em.group(2)), clean_doc(em.group(3) or "")))
            leftover = re.sub(r"(\w+)\s*=\s*(-?\d+)\s*,?\s*(?:/\*\*<(.*?)\*/)?", "", m.group(1), flags=re.S)
            if leftover.strip():
                raise HeaderError(f"{where}: enum {m.group(2)}: every member needs NAME = VALUE")
            h.enums.append(Enum(m.group(2), doc, members))
        elif kind == "handle":
            if m.group(1) != m.group(2):
                raise HeaderError(f"{where}: an opaque type is typedef struct X X;")
            h.handles.append((m.group(1), doc))
        elif kind == "struct":
            fields = []
            body = m.group(1)
            for fm in re.finditer(r"([^;{}]*?);[ \t]*(?:/\*\*<(.*?)\*/)?", body, re.S):
                decl = re.sub(r"/\*.*?\*/", "", fm.group(1), flags=re.S)
                if "," in decl:
                    raise HeaderError(f"{where}: struct {m.group(2)}: one field per declaration")
                f = split_decl(decl, where)
                f.doc = clean_doc(fm.group(2) or "")
                fields.append(f)
            h.structs.append(Struct(m.group(2), doc, fields))
        elif kind == "function":
            params_text = m.group(3).strip()
            params = [] if params_text in ("", "void") else [split_decl(p, where) for p in params_text.split(",")]
            h.functions.append(Function(m.group(2), doc, re.sub(r"\s*\*", "*", m.group(1)).strip(), params))
        doc = ""
    return h


def pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:].lower() for part in name.split("_") if part)


# Names of the System namespace a C# type of ours would shadow (a user's `using System;` and
# `using Pathlab;` would make them ambiguous): such types keep the prefix.
SYSTEM_TYPES = {"Action", "Array", "Attribute", "Buffer", "Delegate", "Enum", "Environment",
                "Exception", "Index", "Math", "Object", "Random", "Range", "String", "Type",
                "Version"}


def type_name(c_name: str) -> str:
    """pathlab_agent_state -> AgentState; pathlab_range -> PathlabRange (System.Range)."""
    name = pascal(c_name.removeprefix("pathlab_"))
    return "Pathlab" + name if name in SYSTEM_TYPES else name


def ident(name: str) -> str:
    return "@" + name if name in KEYWORDS else name


def xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def summary(doc: str, indent: str) -> list[str]:
    if not doc:
        return []
    words, lines, line = xml(doc).split(), [], ""
    for w in words:
        if line and len(indent) + 4 + len(line) + 1 + len(w) > 100:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    if len(lines) == 1 and len(indent) + len(lines[0]) + 25 <= 100:
        return [f"{indent}/// <summary>{lines[0]}</summary>"]
    return [f"{indent}/// <summary>"] + [f"{indent}/// {l}" for l in lines] + [f"{indent}/// </summary>"]


class Mapper:
    def __init__(self, h: Header):
        self.enums = {e.name for e in h.enums}
        self.handles = {name for name, _ in h.handles}
        self.structs = {s.name: s for s in h.structs}

    def base(self, ctype: str) -> tuple[str, int, bool]:
        """(bare type, pointer depth, const) of a C type."""
        const = ctype.startswith("const ")
        bare = ctype.removeprefix("const ").strip()
        depth = bare.count("*")
        return bare.replace("*", "").strip(), depth, const

    def value(self, bare: str, where: str) -> str:
        if bare in NUMBERS:
            return NUMBERS[bare]
        if bare in self.enums or bare in self.structs:
            return type_name(bare)
        raise HeaderError(f"{where}: no C# type for '{bare}'")

    def field_type(self, f: Field, where: str) -> tuple[str, str]:
        """(attribute, C# type) of a struct field."""
        bare, depth, const = self.base(f.ctype)
        if depth == 0:
            return "", self.value(bare, where)
        if depth == 1 and bare == "char" and const:
            return UTF8, "string"
        return "", "IntPtr"

    def ret_type(self, ctype: str, where: str) -> str:
        bare, depth, _ = self.base(ctype)
        if depth == 0:
            return "void" if bare == "void" else self.value(bare, where)
        return "IntPtr"

    def param(self, fn: Function, i: int) -> str:
        p = fn.params[i]
        where = f"{fn.name}({p.name})"
        bare, depth, const = self.base(p.ctype)
        after_count = any(self.base(q.ctype)[:2] == ("size_t", 0) for q in fn.params[:i])
        count_follows = i + 1 < len(fn.params) and self.base(fn.params[i + 1].ctype)[:2] == ("size_t", 0)
        name = ident(p.name)
        if depth == 0:
            return f"{self.value(bare, where)} {name}"
        if bare in self.handles:
            if depth == 2:
                return f"out {type_name(bare)}Handle {name}"
            if fn.name == f"{bare}_free":
                return f"IntPtr {name}"
            return f"{type_name(bare)}Handle {name}"
        if depth != 1:
            raise HeaderError(f"{where}: a pointer to a pointer that is not a handle")
        if bare == "char" and const:
            return f"byte[] {name}" if count_follows else f"{UTF8}string {name}"
        if bare in NUMBERS:
            t = NUMBERS[bare]
            if const:
                return f"[In] {t}[] {name}"
            return f"[Out] {t}[] {name}" if after_count else f"out {t} {name}"
        if bare in self.structs:
            t = type_name(bare)
            if const:
                return f"[In] {t}[] {name}" if after_count else f"in {t} {name}"
            return f"out {t} {name}"
        raise HeaderError(f"{where}: no C# parameter for '{p.ctype}'")


def layout(h: Header, m: Mapper) -> dict[str, tuple[int, list[int]]]:
    """Each struct's size and field offsets as C# lays it out (sequential, natural alignment)."""
    out = {}
    for s in h.structs:
        offset, biggest, offsets = 0, 1, []
        for f in s.fields:
            t = m.field_type(f, f"{s.name}.{f.name}")[1]
            size = 4 if t in {type_name(e) for e in m.enums} else CS_SIZES[t]
            offset = (offset + size - 1) // size * size
            offsets.append(offset)
            offset += size
            biggest = max(biggest, size)
        out[s.name] = ((offset + biggest - 1) // biggest * biggest, offsets)
    return out


def generate(h: Header) -> str:
    m = Mapper(h)
    frees = {fn.name for fn in h.functions}
    for name, _ in h.handles:
        if f"{name}_free" not in frees:
            raise HeaderError(f"the handle {name} has no {name}_free()")
    sizes = layout(h, m)
    o = [
        "// pathlab's C ABI for C# (Unity, Godot .NET, any .NET): P/Invoke declarations of every",
        "// function, struct and enum of pathlab/pathlab.h, for the shared library libpathlab_c",
        "// (pathlab_c.dll, libpathlab_c.so, libpathlab_c.dylib).",
        "//",
        "// GENERATED by scripts/gen-csharp.py from libs/capi/include/pathlab/pathlab.h: do not edit;",
        "// run the script after changing the header (the ctest capi.csharp fails while this file",
        "// differs from what the script writes). The header is the reference for every call: who",
        "// owns what, what is refused, the thread rules. docs/c.md shows how to use this file.",
        "//",
        "// Strings are passed as UTF-8 (UnmanagedType.LPUTF8Str: .NET Core 3.0, .NET Standard 2.1",
        "// and later). Returned pointers are IntPtr: the memory belongs to the library (read it with",
        "// Marshal.Copy or Marshal.PtrToStructure before the handle's next call). Handles are",
        "// SafeHandles that free themselves; a finder must be disposed before its grid.",
        "#nullable disable",
        "using System;",
        "using System.Runtime.InteropServices;",
        "using Microsoft.Win32.SafeHandles;",
        "",
        "namespace Pathlab",
        "{",
    ]
    for e in h.enums:
        o += summary(e.doc, "    ")
        o.append(f"    public enum {type_name(e.name)} : int")
        o.append("    {")
        for cname, value, doc in e.members:
            o += summary(doc, "        ")
            o.append(f"        {pascal(cname.removeprefix('PATHLAB_'))} = {value},")
        o.append("    }")
        o.append("")
    for s in h.structs:
        size, offsets = sizes[s.name]
        o += summary(s.doc, "    ")
        o.append(f"    /// <remarks>C: {s.name}, {size} bytes on a 64-bit machine.</remarks>")
        o.append("    [StructLayout(LayoutKind.Sequential)]")
        o.append(f"    public struct {type_name(s.name)}")
        o.append("    {")
        for f in s.fields:
            attribute, t = m.field_type(f, f"{s.name}.{f.name}")
            o += summary(f.doc, "        ")
            o.append(f"        {attribute}public {t} {pascal(f.name)};")
        o.append("    }")
        o.append("")
    for name, doc in h.handles:
        t = type_name(name) + "Handle"
        o += summary(doc, "    ")
        o.append(f"    public sealed class {t} : SafeHandleZeroOrMinusOneIsInvalid")
        o.append("    {")
        o.append(f"        public {t}() : base(true) {{ }}")
        o.append("")
        o.append("        protected override bool ReleaseHandle()")
        o.append("        {")
        o.append(f"            Native.{name}_free(handle);")
        o.append("            return true;")
        o.append("        }")
        o.append("    }")
        o.append("")
    o.append("    /// <summary>The functions of pathlab/pathlab.h, one to one, under their C names.</summary>")
    o.append("    public static class Native")
    o.append("    {")
    o.append("        /// <summary>The shared library's name, as DllImport looks it up.</summary>")
    o.append('        public const string Library = "pathlab_c";')
    o.append("")
    o.append("        /// <summary>PATHLAB_ABI_VERSION: pathlab_abi_version() of the library must equal it.</summary>")
    o.append(f"        public const int AbiVersion = {h.abi_version};")
    o.append("")
    o.append("        /// <summary>pathlab_last_error() as a string: this thread's message for its last")
    o.append("        /// failed call.</summary>")
    o.append("        public static string LastError() => Marshal.PtrToStringUTF8(pathlab_last_error());")
    for fn in h.functions:
        o.append("")
        o += summary(fn.doc, "        ")
        o.append(f'        [DllImport(Library, EntryPoint = "{fn.name}", CallingConvention = CallingConvention.Cdecl)]')
        params = ", ".join(m.param(fn, i) for i in range(len(fn.params)))
        o.append(f"        public static extern {m.ret_type(fn.ret, fn.name)} {fn.name}({params});")
    o.append("    }")
    o.append("}")
    return "\n".join(o) + "\n"


def layout_c(h: Header) -> str:
    """C11 asserts that the C structs have the sizes and offsets the C# file assumes."""
    m = Mapper(h)
    o = ["/* Generated by scripts/gen-csharp.py --layout-c: the C# structs' layout, checked against",
         "   pathlab.h by the compiler (64-bit machines). */",
         "#include <stddef.h>", "", "#include <pathlab/pathlab.h>", ""]
    for name, (size, offsets) in layout(h, m).items():
        s = next(s for s in h.structs if s.name == name)
        o.append(f'_Static_assert(sizeof({name}) == {size}, "{name}: {size} bytes in C#");')
        for f, off in zip(s.fields, offsets):
            o.append(f'_Static_assert(offsetof({name}, {f.name}) == {off}, "{name}.{f.name} at {off} in C#");')
    for e in h.enums:
        for cname, value, _ in e.members:
            o.append(f'_Static_assert({cname} == {value}, "{cname} is {value} in C#");')
    o.append('_Static_assert(sizeof(void*) == 8, "the C# layout assumes 8-byte pointers");')
    o.append("int main(void) { return 0; }")
    return "\n".join(o) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--header", type=Path, default=HEADER)
    ap.add_argument("--out", default=str(OUT), help='the C# file to write ("-": stdout)')
    ap.add_argument("--layout-c", help="write the layout asserts (C11) to this file instead")
    a = ap.parse_args()
    try:
        h = parse(a.header.read_text(encoding="utf-8"))
        text = layout_c(h) if a.layout_c else generate(h)
    except HeaderError as e:
        print(f"gen-csharp: {e}", file=sys.stderr)
        return 2
    target = a.layout_c or a.out
    if target == "-":
        sys.stdout.write(text)
    else:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        Path(target).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
