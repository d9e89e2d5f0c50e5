#!/usr/bin/env python3
"""Fails when the docs cite a repository path or a Rust item that does not exist.

Reads README.md, DEVELOPING.md and docs/*.md. In inline code spans and link targets it finds:

- repository paths: words that start with a folder or file at the repository's top
  (`src/input/warc.rs`, `cli/tests/it/damage.rs`, `tools/same_output.sh`, `docs/model.md`,
  `lab/benches/`), and the targets of relative Markdown links (`[x](docs/model.md#anchor)`,
  resolved from the linking file's folder; a link's `#anchor` into a Markdown file must be one
  of its headings, as GitHub names them). A trailing `:LINE` is dropped; words
  with wildcards or placeholders (`*`, `...`, `<`, `{`, `N`-style upper-case names) are left
  alone.
- Rust paths into the library: `pith::input::Record`, `input::warc::read_one`,
  `extract::Options` (the first segment, after an optional `pith::` or `crate::`, must be a
  module `src/lib.rs` declares). Each module segment must be a file or folder under `src/`;
  the first segment after the modules must be declared in that module
  (`fn|struct|enum|trait|type|const|static|mod NAME`, a `macro_rules!`, or a `pub use` naming
  it), and any segment after that (a variant, a field, a method) must appear as a word in the
  module's file.

Prints each missing path with the file and line that cites it and exits 1; prints a count and
exits 0 when everything is there. Python 3 standard library only.
"""

import re
import subprocess
import sys
from pathlib import Path

from verdict import verdict

ROOT = Path(__file__).resolve().parent.parent

# Top-level entries a cited path may start with.
TOP = sorted(
    {p.name for p in ROOT.iterdir() if not p.name.startswith(".") and p.name != "target"}
    | {".ci"}
)

CODE_SPAN = re.compile(r"(`+)(.+?)\1")
LINK = re.compile(r"\]\(([^)\s]+)\)")
RUST_PATH = re.compile(r"\b(?:pith::|crate::)?[a-z_][a-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+")
PLACEHOLDER = re.compile(r"(^|/)[A-Z][A-Z0-9_]+(/|$)")


def doc_files():
    files = [ROOT / "README.md", ROOT / "DEVELOPING.md"]
    files += sorted((ROOT / "docs").glob("*.md"))
    return [f for f in files if f.exists()]


def submodules():
    """Module name -> its full path under src/, for names only one module has."""
    seen = {}
    for f in (ROOT / "src").rglob("*.rs"):
        parts = list(f.relative_to(ROOT / "src").with_suffix("").parts)
        if parts[-1] in ("mod", "lib", "main"):
            parts = parts[:-1]
        if len(parts) < 2:
            continue
        seen.setdefault(parts[-1], []).append(parts)
    return {name: paths[0] for name, paths in seen.items() if len(paths) == 1}


SUBMODULES = submodules()


def top_modules():
    lib = (ROOT / "src" / "lib.rs").read_text(encoding="utf-8")
    return set(re.findall(r"^\s*pub(?:\([a-z]+\))?\s+mod\s+([a-z_][a-z0-9_]*)\s*;", lib, re.M)) | set(
        re.findall(r"^\s*mod\s+([a-z_][a-z0-9_]*)\s*;", lib, re.M)
    )


def module_files(segments):
    """The files of module `segments` (a list of names under src/), or None when it is none."""
    if segments and segments[-1] in ("mod", "lib", "main"):
        return None
    base = ROOT / "src"
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        as_file = base / f"{seg}.rs"
        as_dir = base / seg
        if last:
            found = [p for p in (as_file, as_dir / "mod.rs") if p.is_file()]
            return found or None
        if not as_dir.is_dir():
            return None
        base = as_dir
    return None


def declares(text, name):
    kinds = r"(?:fn|struct|enum|trait|type|const|static|mod|union)"
    if re.search(rf"\b{kinds}\s+{re.escape(name)}\b", text):
        return True
    if re.search(rf"macro_rules!\s*{re.escape(name)}\b", text):
        return True
    # Re-exports: `pub use a::{B, C}` or `pub use a::B;` or `pub use a::B as C;`.
    for m in re.finditer(r"\bpub(?:\([a-z]+\))?\s+use\s+([^;]+);", text):
        if re.search(rf"\b{re.escape(name)}\b", m.group(1)):
            return True
    return False


def check_rust(path, modules):
    """An error message, or None when `path` (a::b::C) names something in src/."""
    segs = path.split("::")
    if segs[0] in ("pith", "crate"):
        segs = segs[1:]
    if segs and segs[0] not in modules and segs[0] in SUBMODULES:
        # A path from inside the library (`danag::profile`, `fastce::with_template`): its first
        # segment names one module under src/, and only one.
        segs = SUBMODULES[segs[0]] + segs[1:]
    if not segs or segs[0] not in modules:
        return None  # another crate's path, or a type's (`Tag::flags`): not checked
    # The longest prefix of segments that is a module.
    k = 0
    files = [ROOT / "src" / "lib.rs"]
    for i in range(1, len(segs) + 1):
        f = module_files(segs[:i])
        if f is None:
            break
        k, files = i, f
    if k == 0:
        return f"module {segs[0]} has no file under src/"
    rest = segs[k:]
    if not rest:
        return None
    text = "\n".join(f.read_text(encoding="utf-8") for f in files)
    shown = "::".join(segs[:k])
    if not declares(text, rest[0]):
        if rest[0][:1].islower() and len(rest) == 1:
            return f"no module or item {rest[0]} in {shown} ({', '.join(str(f.relative_to(ROOT)) for f in files)})"
        return f"no item {rest[0]} in {shown} ({', '.join(str(f.relative_to(ROOT)) for f in files)})"
    for r in rest[1:]:
        if not re.search(rf"\b{re.escape(r)}\b", text):
            return f"{r} (of {rest[0]}) is not in {shown}"
    return None


_ANCHORS = {}


def anchors(md):
    """The anchors GitHub gives the headings of `md`."""
    if md not in _ANCHORS:
        seen, found, fence = {}, set(), False
        for line in md.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith("```"):
                fence = not fence
            if fence or not re.match(r"#{1,6} ", line):
                continue
            text = line.lstrip("#").strip().lower()
            slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
        _ANCHORS[md] = found
    return _ANCHORS[md]


def looks_like_repo_path(word):
    if "/" not in word and word not in TOP:
        return False
    first = word.split("/", 1)[0]
    if first not in TOP:
        return False
    if any(c in word for c in "*?<>{}[]$=") or "..." in word or PLACEHOLDER.search(word):
        return False
    return True


def ignored(path):
    """Whether git ignores `path` (made by a run, like `fuzz/corpus/`)."""
    r = subprocess.run(
        ["git", "-C", str(ROOT), "check-ignore", "-q", path],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return r.returncode == 0


def clean(word):
    word = word.split("#", 1)[0]
    word = re.sub(r"(:\d+(-\d+)?)+$", "", word)
    return word.rstrip(".,;:)")


def check_file(md, modules, problems):
    rel_md = md.relative_to(ROOT)
    in_fence = False
    for lineno, line in enumerate(md.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        # Relative link targets, from the file's folder (a link written inside a code span is
        # an example, not a link).
        for m in LINK.finditer(CODE_SPAN.sub("", line)):
            target = m.group(1)
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            anchor = target.split("#", 1)[1] if "#" in target else None
            target = clean(target)
            p = (md.parent / target).resolve() if target else md
            if not p.exists():
                problems.append(f"{rel_md}:{lineno}: link to a missing file: {target}")
            elif anchor and p.suffix == ".md" and anchor not in anchors(p):
                problems.append(f"{rel_md}:{lineno}: link to a missing heading: {m.group(1)}")
        # Code spans: repository paths and Rust paths.
        for m in CODE_SPAN.finditer(line):
            span = m.group(2)
            for w in span.split():
                w = clean(w.strip("()[]'\",;"))
                if not looks_like_repo_path(w):
                    continue
                if not (ROOT / w).exists() and not ignored(w):
                    problems.append(f"{rel_md}:{lineno}: missing path: {w}")
            for rp in RUST_PATH.findall(span):
                err = check_rust(rp, modules)
                if err:
                    problems.append(f"{rel_md}:{lineno}: {rp}: {err}")


def main():
    modules = top_modules()
    problems = []
    files = doc_files()
    for md in files:
        check_file(md, modules, problems)
    return verdict(
        problems,
        "check_doc_paths: {n} cited paths or items do not exist",
        f"check_doc_paths: every cited path and Rust item in {len(files)} files exists",
    )


if __name__ == "__main__":
    sys.exit(main())
