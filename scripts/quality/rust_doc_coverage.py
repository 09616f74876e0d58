#!/usr/bin/env python3
"""How much of a Rust crate's documentation reaches its generated pages.

Asks rustdoc itself which items make up the crate's public API: it runs
`RUSTC_BOOTSTRAP=1 rustdoc -Z unstable-options --output-format json --document-private-items`
on the library root named by Cargo.toml (edition, crate name and `[lib] path` from there;
the default features plus the docs.rs features that need no dependency are passed as
`--cfg feature="..."`, since no crates can be fetched here) and reads the JSON. An item
counts when its visibility is public and it is reachable from the crate root: public
modules are walked from `root`, `pub use` re-exports of local items are followed, and the
methods of inherent impls of public types, the items of public traits, struct fields and
enum variants are taken along. For each such item with docs, rustdoc's summary (the first
paragraph of the Markdown, whitespace joined) must be on the page `docsd generate SOURCE
--out OUT` wrote for the item's file (OUT/files/<span.filename>.md). Links
(`[text](url)`, `[text][ref]`, [`x`]), backticks, asterisks, underscores, backslashes,
pipes, brackets and HTML tags are dropped, HTML entities decoded and whitespace collapsed
on both sides, and the first 80 characters of the summary are looked for in the page.

It also counts the rows of each page's API tables and how many of them name an item that,
by rustdoc's JSON, is not public in that file (private, `pub(crate)`, or `pub` but not
reachable from the crate root, e.g. only through a `#[doc(hidden)]` module). A name counts
only when no public item of that file has it.

Prints one JSON line and, with --misses, a line per summary not found ("path:line: Name:
summary") and per private API row.

Usage: scripts/quality/rust_doc_coverage.py SOURCE OUT [--misses] [--features a,b]
(set RUSTDOC to choose the rustdoc binary; --features replaces the feature guess)
"""
import html
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib


def rustdoc_binary():
    if os.environ.get("RUSTDOC"):
        return os.environ["RUSTDOC"]
    found = shutil.which("rustdoc")
    if found:
        return found
    return str(pathlib.Path.home() / ".cargo" / "bin" / "rustdoc")


def feature_guess(manifest):
    """Default features plus docs.rs features, keeping those that enable no dependency."""
    features = manifest.get("features", {})
    optional = {name for table in ("dependencies", "target") for name in manifest.get(table, {})}

    def closure(name, seen):
        if name in seen:
            return seen
        seen.add(name)
        for part in features.get(name, []):
            if "/" in part or part.startswith("dep:") or part not in features:
                seen.add("dep:" + part)  # enables a dependency, or a feature of one
            else:
                closure(part, seen)
        return seen

    docs_rs = manifest.get("package", {}).get("metadata", {}).get("docs", {}).get("rs", {})
    wanted = list(features.get("default", [])) + list(docs_rs.get("features", []))
    if docs_rs.get("all-features"):
        wanted += list(features)
    chosen = set()
    for name in wanted:
        for feature in closure(name, set()):
            if feature.startswith("dep:") or feature in optional:
                continue
            if not any(f.startswith("dep:") or f in optional for f in closure(feature, set())):
                chosen.add(feature)
    chosen.discard("default")
    return sorted(chosen)


def run_rustdoc(source, tmp):
    manifest = tomllib.loads((source / "Cargo.toml").read_text(encoding="utf-8"))
    package, lib = manifest.get("package", {}), manifest.get("lib", {})
    edition = lib.get("edition") or package.get("edition") or "2015"
    if isinstance(edition, dict):  # edition.workspace = true
        edition = "2021"
    name = (lib.get("name") or package.get("name", "crate")).replace("-", "_")
    root = lib.get("path", "src/lib.rs")
    if "--features" in sys.argv:
        value = sys.argv[sys.argv.index("--features") + 1]
        attempts = [[f for f in value.split(",") if f]]
    else:
        guess = feature_guess(manifest)
        defaults = [f for f in manifest.get("features", {}).get("default", []) if f in guess]
        attempts = [guess, defaults, []]
    errors = ""
    for features in attempts:
        command = [rustdoc_binary(), "-Z", "unstable-options", "--output-format", "json",
                   "--document-private-items", "--cap-lints", "allow",
                   "--edition", str(edition), "--crate-name", name, "--crate-type", "lib"]
        for feature in features:
            command += ["--cfg", f'feature="{feature}"']
        command += [root, "-o", tmp]
        done = subprocess.run(command, cwd=source, env=dict(os.environ, RUSTC_BOOTSTRAP="1"),
                              capture_output=True, text=True)
        output = pathlib.Path(tmp) / f"{name}.json"
        if done.returncode == 0 and output.exists():
            return json.loads(output.read_text(encoding="utf-8")), command
        errors = done.stderr
    sys.exit(f"rustdoc failed:\n{errors[-3000:]}")


def public_items(crate):
    """(id, display name) of the public items reachable from the crate root, and the ids
    that are public only as trait-impl members of public types (not counted, not private)."""
    index = crate["index"]
    public, impl_members, seen = {}, set(), set()

    def item(ident):
        return index.get(str(ident)) if ident is not None else None

    def add(ident, label):
        if ident in public:
            return
        public[ident] = label
        entry = item(ident)
        inner = entry["inner"]
        kind = next(iter(inner))
        body = inner[kind]
        if kind == "module":
            walk_module(ident)
        elif kind in ("struct", "union", "enum"):
            fields = []
            if kind == "struct":
                shape = body["kind"]
                fields = (shape.get("plain") or {}).get("fields", []) if isinstance(shape, dict) else []
                fields += [f for f in (shape.get("tuple") or []) if f is not None] if isinstance(shape, dict) else []
            elif kind == "union":
                fields = body.get("fields", [])
            for field in fields:
                if item(field) and item(field).get("visibility") == "public":
                    add(field, f"{label}.{item(field)['name']}")
            for variant in body.get("variants", []):
                add(variant, f"{label}.{item(variant)['name']}")
            for impl_id in body.get("impls", []):
                impl = item(impl_id)
                if not impl or impl.get("crate_id") != 0:
                    continue
                details = impl["inner"]["impl"]
                for member in details.get("items", []):
                    entry_m = item(member)
                    if not entry_m:
                        continue
                    if details.get("trait") is None:
                        if entry_m.get("visibility") == "public":
                            add(member, f"{label}.{entry_m['name']}")
                    else:
                        impl_members.add(member)
        elif kind == "variant":
            shape = body.get("kind")
            if isinstance(shape, dict):
                fields = (shape.get("struct") or {}).get("fields", []) + [f for f in (shape.get("tuple") or []) if f is not None]
                for field in fields:
                    add(field, f"{label}.{item(field)['name']}")
        elif kind == "trait":
            for member in body.get("items", []):
                add(member, f"{label}.{item(member)['name']}")

    def walk_module(ident):
        if ident in seen:
            return
        seen.add(ident)
        for child in item(ident)["inner"]["module"]["items"]:
            entry = item(child)
            if not entry or entry.get("crate_id") != 0 or entry.get("visibility") != "public":
                continue
            if "use" in entry["inner"]:
                use = entry["inner"]["use"]
                target = item(use.get("id"))
                if not target or target.get("crate_id") != 0:
                    continue
                if use.get("is_glob") and "module" in target["inner"]:
                    walk_module(use["id"])
                else:
                    add(use["id"], use.get("name") or target.get("name"))
            else:
                add(child, entry.get("name"))

    add(crate["root"], item(crate["root"])["name"])
    return public, impl_members


def summary(docs):
    paragraph = re.split(r"\n[ \t]*\n", docs.strip(), maxsplit=1)[0]
    return " ".join(paragraph.split())


def normalise(text):
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))  # &mdash; -> —, <code> goes, as rendered
    text = text.replace("![", "[")  # an image shows as its alt text
    nested = r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]"  # link text, which may hold one [..] level
    for _ in range(2):
        text = re.sub(r"!?" + nested + r"\([^()\s]*(?:\s+\"[^\"]*\")?\)", r"\1", text)  # [text](url)
        text = re.sub(r"!?" + nested + r"\[[^\[\]]*\]", r"\1", text)  # [text][ref]
    text = re.sub(r"[`*_\\|\[\]]", "", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def api_rows(page_text):
    start = page_text.find("\n## API\n")
    if start < 0:
        return []
    end = page_text.find("\n## ", start + 1)
    section = page_text[start: end if end >= 0 else len(page_text)]
    rows = []
    for line in section.splitlines():
        if line.startswith("| [`"):
            name = line[len("| [`"):].split("`", 1)[0]
            rows.append((name, re.split(r"\.|::", name)[-1]))
    return rows


def main():
    args = [a for i, a in enumerate(sys.argv[1:], 1)
            if not a.startswith("--") and sys.argv[i - 1] != "--features"]
    if len(args) < 2:
        print(__doc__)
        return 2
    source, out = pathlib.Path(args[0]).resolve(), pathlib.Path(args[1])
    with tempfile.TemporaryDirectory() as tmp:
        crate, _command = run_rustdoc(source, tmp)
    index = crate["index"]
    public, impl_members = public_items(crate)

    def relative(entry):
        span = entry.get("span")
        if not span:
            return None
        path = pathlib.Path(span["filename"])
        if path.is_absolute():
            try:
                path = path.relative_to(source)
            except ValueError:
                return None
        return path.as_posix()

    pages = {}

    def page(path):
        if path not in pages:
            file = out / "files" / (path + ".md")
            raw = file.read_text(encoding="utf-8") if file.exists() else ""
            pages[path] = (raw, normalise(raw))
        return pages[path]

    found = total = 0
    misses = []
    for ident, label in public.items():
        entry = index[str(ident)]
        path = relative(entry)
        if not entry.get("docs") or not entry["docs"].strip() or path is None:
            continue
        total += 1
        text = normalise(summary(entry["docs"]))[:80]
        if text and text in page(path)[1]:
            found += 1
        else:
            misses.append(f"{path}:{entry['span']['begin'][0]}: {label}: {text}")

    public_names, other_names = {}, {}
    for key, entry in index.items():
        path = relative(entry)
        if entry.get("crate_id") != 0 or not entry.get("name") or path is None:
            continue
        ident = int(key) if key.isdigit() else key
        if ident in public or ident in impl_members:
            public_names.setdefault(path, set()).add(entry["name"])
        else:
            why = "pub, unreachable from the crate root" if entry.get("visibility") == "public" else str(entry.get("visibility"))
            other_names.setdefault(path, {})[entry["name"]] = why
    rows = 0
    private_rows = []
    for path in sorted(set(public_names) | set(other_names)):
        for name, last in api_rows(page(path)[0]):
            rows += 1
            why = other_names.get(path, {}).get(last)
            if why and last not in public_names.get(path, set()):
                private_rows.append(f"{path}: private API row: {name} ({why})")

    result = {"public_documented": total, "summary_on_page": found,
              "share": round(found / total, 4) if total else None,
              "api_rows": rows, "private_api_rows": len(private_rows)}
    print(json.dumps(result))
    if "--misses" in sys.argv:
        for line in misses + private_rows:
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
