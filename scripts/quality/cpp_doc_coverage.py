#!/usr/bin/env python3
"""How much of a C or C++ library's documentation reaches its generated pages.

Reads every header of SOURCE with Clang (libclang's Python binding, Debian's
python3-clang-14), comments attached as Clang attaches them with -fparse-all-comments
(the comment right above a declaration, or `///<` after it), and takes the public
documented declarations: not in a `detail`, `internal`, `impl` or anonymous namespace,
not a private member, not in test, example, fuzzing or benchmark folders. For each it
checks that the first sentence of its comment (its @brief when it has one) is on the page
`docsd generate SOURCE --out OUT` wrote for the header; markup and whitespace are ignored
in the comparison. It also counts the rows of the pages' API tables that name a
declaration Clang finds only in private places. Macros are left out (Clang attaches no
comment to them). Prints a JSON summary and, with --misses, what was not found.

Usage: python3 scripts/quality/cpp_doc_coverage.py SOURCE OUT [--misses]
"""
import json
import pathlib
import re
import sys

try:
    import clang.cindex as cindex
except ImportError:  # pyenv or a venv in front of Debian's python3
    sys.path.append("/usr/lib/python3/dist-packages")
    import clang.cindex as cindex

SKIP_PARTS = {"test", "tests", "testing", "example", "examples", "fuzz", "fuzzing", "bench", "benchmark",
              "benchmarks", "doc", "docs", "third_party", "thirdparty", "external", "vendor", "build", "contrib"}
HEADERS = {".h", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".inl"}
IMPLEMENTATION = re.compile(r"^(detail|details|internal|impl|priv|private|_.*|.*_detail|.*_details|.*_impl|.*_internal)$")
K = cindex.CursorKind
DECLARATIONS = {K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR, K.CLASS_DECL,
                K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL, K.CLASS_TEMPLATE,
                K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION, K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL,
                K.TYPE_ALIAS_TEMPLATE_DECL, K.FIELD_DECL, K.ENUM_CONSTANT_DECL, K.VAR_DECL, K.CONVERSION_FUNCTION}
RECORDS = {K.CLASS_DECL, K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL, K.CLASS_TEMPLATE,
           K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION}


def comment_text(raw):
    lines = []
    for line in raw.splitlines():
        line = line.strip()
        line = re.sub(r"^(///?<?|//!<?|/\*\*<?|/\*!<?|/\*|\*/|\*)", "", line)
        line = re.sub(r"\*/$", "", line)
        lines.append(line.strip())
    return "\n".join(lines).strip()


def first_sentence(raw):
    text = comment_text(raw)
    brief = re.search(r"[@\\](brief|short)\s+(.*?)(\n\s*\n|\n\s*[@\\][a-z]|$)", text, re.S)
    if brief:
        text = brief.group(2)
    else:
        text = re.split(r"\n\s*[@\\](param|tparam|return|returns|retval|throws?|note|see|sa|code|since|pre|post)\b",
                        text)[0]
        paragraphs = [p for p in text.split("\n\n") if p.strip() and not p.strip().startswith(("```", "@code"))]
        text = paragraphs[0] if paragraphs else ""
    text = " ".join(text.split())
    match = re.search(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)[.!?](\s|$)", text)
    return text[: match.end()].strip() if match else text


def normalise(text):
    text = re.sub(r"[@\\](c|p|a|e|em|b|ref)\s+", "", text)
    text = re.sub(r"</?[a-z]+>", "", text)
    text = re.sub(r"\[([^\[\]]*)\]\([^)]*\)", r"\1", text)  # [text](url) -> text
    text = re.sub(r"[`*_\\|]", "", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def doxygen_style(comment):
    return comment.startswith(("///", "//!", "/**", "/*!")) and not comment.startswith(("////", "/**/"))


def written_here(raw, line, lines):
    """Whether the comment Clang attached is this declaration's own, as Doxygen and a
    reader see it: a Doxygen comment above it in this file, a plain one ending on the line
    right above it, or a remark on its own line (Clang also hands a redeclaration the
    comment of the first declaration, and takes a plain comment across blank lines)."""
    written = [l.strip() for l in raw.strip().splitlines()]
    first, last = written[0], written[-1]
    words = next((l for l in written if re.search(r"\w\w", l)), "")
    if words and any(words in lines[i] for i in range(line - 1, min(line + 2, len(lines)))):
        return True  # on the declaration's lines (`int x;  ///< the x`)
    if line >= 2 and lines[line - 2].strip() == last:
        return True
    if doxygen_style(first):
        return any(lines[i].strip() == last for i in range(max(0, line - 40), line - 1))
    return False


def walk(cursor, path, visible, found):
    for child in cursor.get_children():
        location = child.location
        if location.file is None or pathlib.Path(location.file.name).resolve() != path:
            continue
        kind = child.kind
        if kind == K.NAMESPACE:
            walk(child, path, visible and bool(child.spelling) and not IMPLEMENTATION.match(child.spelling), found)
            continue
        if kind == K.LINKAGE_SPEC:
            walk(child, path, visible, found)
            continue
        if kind not in DECLARATIONS:
            continue
        ok = visible and child.access_specifier not in (cindex.AccessSpecifier.PRIVATE,)
        if kind in RECORDS and not child.is_definition():
            continue
        if child.spelling:
            found.append((child.spelling, child.extent.start.line, ok, child.raw_comment))
        if kind in RECORDS:
            walk(child, path, ok, found)


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    source, out = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2])
    includes = sorted({str(p) for p in source.rglob("include") if p.is_dir()} | {str(source)})
    index = cindex.Index.create()
    total = found = private_rows = api_rows = 0
    misses = []
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source)
        if path.suffix not in HEADERS or not path.is_file():
            continue
        if SKIP_PARTS & {p.lower() for p in relative.parts[:-1]}:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        cpp = path.suffix != ".h" or re.search(r"^\s*(namespace |template ?<|class \w+|public:|.*std::)", text, re.M)
        args = ["-x", "c++" if cpp else "c"] + (["-std=c++20"] if cpp else []) + ["-fparse-all-comments"]
        args += [f"-I{d}" for d in includes] + [f"-I{path.parent}"]
        unit = index.parse(str(path), args=args,
                           options=cindex.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES |
                           cindex.TranslationUnit.PARSE_INCOMPLETE)
        declarations = []
        walk(unit.cursor, path.resolve(), True, declarations)
        page = out / "files" / (str(relative) + ".md")
        page_text = page.read_text(encoding="utf-8") if page.exists() else ""
        normalised_page = normalise(page_text)
        seen = set()
        lines = text.splitlines()
        for name, line, public, raw in declarations:
            if not public or not raw or (name, line) in seen or not written_here(raw, line, lines):
                continue
            seen.add((name, line))
            sentence = normalise(first_sentence(raw))[:80]
            if not sentence:
                continue
            total += 1
            if sentence in normalised_page:
                found += 1
            else:
                misses.append(f"{relative}:{line}: {name}: {sentence}")
        # API rows naming only private declarations.
        public_names = {name for name, _, public, _ in declarations if public}
        private_names = {name for name, _, public, _ in declarations if not public} - public_names
        api = page_text.split("\n## API\n", 1)[1].split("\n## ", 1)[0] if "\n## API\n" in page_text else ""
        for row in re.findall(r"^\| \[`([^`]+)`\]", api, re.M):
            api_rows += 1
            if re.split(r"::|\.", row)[-1] in private_names:
                private_rows += 1
                misses.append(f"{relative}: private in the API table: {row}")
    summary = {"public_documented": total, "summary_on_page": found,
               "share": round(found / total, 4) if total else None, "api_rows": api_rows,
               "private_api_rows": private_rows}
    print(json.dumps(summary))
    if "--misses" in sys.argv:
        print("\n".join(misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
