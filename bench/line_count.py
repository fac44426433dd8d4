#!/usr/bin/env python3
"""Lines of the judge's non-test code, as issue 43 counts them.

usage: python3 bench/line_count.py [--files N]

Every line of judge/src/**/*.rs, minus each `#[cfg(test)]` item (from the attribute to the
item's closing brace or semicolon) and minus whole files declared `#[cfg(test)] mod x;`.
Prints the total split into code, comment and blank lines, then the N largest files.
"""
import argparse
import pathlib
import re

SRC = pathlib.Path(__file__).resolve().parent.parent / "judge" / "src"


def strip_test_items(lines):
    """The lines left once every `#[cfg(test)]` item is cut, and the test-only modules named."""
    code_lines = blank_literals("\n".join(lines)).split("\n")
    kept, test_modules, i = [], [], 0
    while i < len(lines):
        if lines[i].strip() != "#[cfg(test)]":
            kept.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip().startswith("#["):
            j += 1
        declared = re.match(r"\s*(pub(\(\w+\))?\s+)?mod\s+(\w+)\s*;", lines[j]) if j < len(lines) else None
        if declared:
            test_modules.append(declared.group(3))
            i = j + 1
            continue
        depth, opened = 0, False
        while j < len(lines):
            code = code_lines[j]
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            if (opened and depth <= 0) or (not opened and code.rstrip().endswith(";")):
                break
            j += 1
        i = j + 1
    return kept, test_modules


def blank_literals(text):
    """`text` with every comment and string or char literal blanked (newlines kept), so that
    their braces do not count, also where a raw string or block comment spans lines."""
    out, i, n = [], 0, len(text)
    while i < n:
        raw = re.match(r'b?r(#*)"', text[i:]) if text[i] in "br" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) else None
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif raw:
            close = '"' + raw.group(1)
            end = text.find(close, i + raw.end())
            end = n if end < 0 else end + len(close)
        elif text[i] == '"':
            end = i + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            end += 1
        elif text[i] == "'" and re.match(r"'(\\.[^']*|[^\\'])'", text[i:]):
            end = i + re.match(r"'(\\.[^']*|[^\\'])'", text[i:]).end()
        else:
            out.append(text[i])
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", text[i:end]))
        i = end
    return "".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=15, help="how many of the largest files to list")
    args = parser.parse_args()
    files = {p: strip_test_items(p.read_text().splitlines()) for p in sorted(SRC.rglob("*.rs"))}
    test_only = set()
    for path, (_, modules) in files.items():
        folder = path.parent if path.name in ("mod.rs", "lib.rs", "main.rs") else path.with_suffix("")
        test_only.update(folder / f"{m}.rs" for m in modules)
        test_only.update(folder / m / "mod.rs" for m in modules)
    totals = {"code": 0, "comment": 0, "blank": 0}
    sizes = []
    for path, (lines, _) in files.items():
        if path in test_only:
            continue
        for line in lines:
            s = line.strip()
            kind = "blank" if not s else "comment" if s.startswith("//") else "code"
            totals[kind] += 1
        sizes.append((len(lines), path.relative_to(SRC)))
    print(f"{sum(totals.values())} lines: {totals['code']} code, {totals['comment']} comment, {totals['blank']} blank")
    for n, path in sorted(sizes, reverse=True)[: args.files]:
        print(f"{n:6} {path}")


if __name__ == "__main__":
    main()
