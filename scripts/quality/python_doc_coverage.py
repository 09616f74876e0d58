#!/usr/bin/env python3
"""How much of a Python library's documentation reaches its generated pages.

Reads every module of SOURCE with Python's own parser (ast), takes the public documented
declarations (no leading `_` in the name or its class, in `__all__` when the module has
one; `__init__` counts; test, example and documentation files are left out, as the
generator leaves them out of the API) and checks that the first sentence of each
docstring is on the page `docsd generate SOURCE --out OUT` wrote for its file. Markup
(backticks, asterisks, reST roles) and whitespace are ignored in the comparison, since the
page renders them. Prints a JSON summary and, with --misses, what was not found.

Usage: scripts/quality/python_doc_coverage.py SOURCE OUT [--misses]
"""
import ast
import inspect
import json
import pathlib
import re
import sys

SKIP_PARTS = {"tests", "test", "testing", "examples", "example", "docs", "doc", "benchmarks", "bench", "scripts"}


def first_sentence(doc):
    paragraph = doc.strip().split("\n\n")[0]
    text = " ".join(paragraph.split())
    match = re.search(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)[.!?](\s|$)", text)
    return text[: match.end()].strip() if match else text


def normalise(text):
    text = re.sub(r":[a-z:]+:`([^`<]*?)\s*<[^`>]*>`", r"\1", text)  # :term:`fields <field>` -> fields
    text = re.sub(r":[a-z:]+:`~[^`]*?\.?([^`.]*)`", r"\1", text)  # :class:`~a.B` -> B (Sphinx's short form)
    text = re.sub(r":[a-z:]+:`\.?([^`]*)`", r"\1", text)  # :class:`a.B` -> a.B
    text = re.sub(r"[`*_\\|]", "", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # [text](url) -> text
    return re.sub(r"\s+", " ", text).strip().lower()


def public(name):
    return not name.startswith("_") or name in ("__init__", "__call__", "__new__")


def declarations(tree):
    exported = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            try:
                exported = set(ast.literal_eval(node.value))
            except ValueError:
                pass

    def walk(body, scope, visible):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                ok = visible and public(node.name) and (scope or exported is None or node.name in exported)
                decorators = [getattr(d, "id", getattr(d, "attr", "")) for d in node.decorator_list]
                # Overload stubs give way to the implementation; a setter's doc is the property's.
                if "overload" in decorators or "setter" in decorators or "deleter" in decorators:
                    continue
                doc = ast.get_docstring(node)
                if ok and doc:
                    yield (scope + node.name, inspect.cleandoc(doc))
                if isinstance(node, ast.ClassDef):
                    yield from walk(node.body, scope + node.name + ".", ok)

    yield from walk(tree.body, "", True)


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    source, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    found = total = 0
    misses = []
    for path in sorted(source.rglob("*.py")):
        relative = path.relative_to(source)
        if SKIP_PARTS & set(p.lower() for p in relative.parts[:-1]) or relative.name.startswith("test_"):
            continue
        if relative.name == "conftest.py" or relative.name.endswith("_test.py"):
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except SyntaxError:
            continue
        page = out / "files" / (str(relative) + ".md")
        text = normalise(page.read_text(encoding="utf-8")) if page.exists() else ""
        for name, doc in declarations(tree):
            total += 1
            sentence = normalise(first_sentence(doc))[:80]
            if sentence and sentence in text:
                found += 1
            else:
                misses.append(f"{relative}: {name}: {sentence}")
    summary = {"public_documented": total, "summary_on_page": found,
               "share": round(found / total, 4) if total else None}
    print(json.dumps(summary))
    if "--misses" in sys.argv:
        print("\n".join(misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
