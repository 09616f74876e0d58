#!/usr/bin/env python3
"""Reader figures of a `docsd generate --out DIR` tree, read from its Markdown alone, so
that trees written by any version of the writer can be compared:

  first_topic         the first topic under the overview (the tree opens there)
  tests_first         the first topic is tests
  test_rows_in_api    rows of API / symbol tables whose symbol lives in a test file
  test_entry_points   test files listed under "Entry points"
  directive_purposes  purposes that are build directives (//go:build, <reference ...>)
  escaped_markdown    escaped Markdown (\\*\\*, \\[) shown literally outside code, on the pages the
                      writer wrote (guide pages quote the repository's text, brackets and all)
  guide_pages         pages made from the repository's guides (a Guides topic, or "guide:" keys)

usage: reader_figures.py DIR [DIR ...]   (prints one JSON object per DIR)
"""
import json
import os
import re
import sys

TEST_PATH = re.compile(r"(^|/)(tests?|__tests__|testdata|spec|e2e|bench[a-z]*)/|_test\.go$|(^|/)test_[^/]*\.py$|_test\.py$|"
                       r"\.(test|spec)\.[a-z]+$|(^|/)conftest\.py$")
DIRECTIVE = re.compile(r"^\s*(go:build|\+build|\\?<reference|eslint-|@ts-|#!)")
API_HEADING = re.compile(r"^#{2,3} (Public API|API|Symbols|Members of)")


def link_path(cell):
    match = re.search(r"\]\(([^)#]+)", cell)
    if not match:
        return ""
    path = match.group(1)
    blob = path.find("/blob/")
    if blob >= 0:
        path = path[path.find("/", blob + 6) + 1:]
    return path


def figures(out_dir):
    index = json.load(open(os.path.join(out_dir, "index.json")))
    overview = index[0] if index else {"children": []}
    topics = [c for c in overview.get("children", []) if c.get("key", "").startswith("topic:")]
    first = topics[0]["title"] if topics else ""
    result = {"first_topic": first, "tests_first": bool(re.search(r"test", first, re.I)), "test_rows_in_api": 0, "api_rows": 0,
              "test_entry_points": 0, "directive_purposes": 0, "escaped_markdown": 0,
              "guide_pages": sum(len(t.get("children", [])) for t in topics if t.get("key") == "topic:guides")}
    guide_files = set()

    def walk(node):
        if node.get("key", "").startswith("guide:"):
            result["guide_pages"] += 1
            guide_files.add(os.path.normpath(os.path.join(out_dir, node.get("path", ""))))
        for child in node.get("children", []):
            walk(child)

    for node in index:
        walk(node)
    for folder, _, names in os.walk(out_dir):
        for name in names:
            if not name.endswith(".md"):
                continue
            path = os.path.join(folder, name)
            quoted = os.path.normpath(path) in guide_files
            text = open(path, encoding="utf-8", errors="replace").read()
            in_api = in_entries = in_code = False
            for line in text.split("\n"):
                if line.startswith("```"):
                    in_code = not in_code
                    continue
                if in_code:
                    continue
                if not quoted:
                    result["escaped_markdown"] += line.count("\\*") + line.count("\\[")
                if line.startswith("#"):
                    in_api = bool(API_HEADING.match(line))
                    in_entries = line.strip() == "## Entry points"
                    continue
                if in_api and line.startswith("| ") and not line.startswith("| ---") and not line.startswith("| Symbol"):
                    result["api_rows"] += 1
                    if TEST_PATH.search(link_path(line.split("|")[1])):
                        result["test_rows_in_api"] += 1
                if in_entries and line.startswith("- ") and TEST_PATH.search(link_path(line)):
                    result["test_entry_points"] += 1
                if line.startswith("| ") and "|" in line[2:]:
                    cells = [c.strip() for c in line.strip().strip("|").split("|")]
                    if any(DIRECTIVE.match(c) for c in cells[1:]):
                        result["directive_purposes"] += 1
    return result


if __name__ == "__main__":
    for out_dir in sys.argv[1:]:
        print(json.dumps({"tree": out_dir, **figures(out_dir)}))
