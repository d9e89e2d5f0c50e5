//! The library's imports point one way, in the order a page flows through it: no module
//! imports one that comes after it, and no two modules (down to `extract::auto`,
//! `site::learn`, ...) import each other, directly or around a circle. Read from the source:
//! every `crate::` path and `super::` path outside comments counts, test modules included.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules in page order; each may import only those before it.
const ORDER: &[&str] = &[
    "names", "files", "hash", "text", "input", "decode", "html", "extract", "output", "page",
    "site", "pipeline", "eval", "explain", "lab",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("src/ readable")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file under src/: `extract/auto/rules.rs` is `[extract, auto, rules]`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
        parts.pop();
    }
    parts
}

/// The code of a line, without its comment.
fn code(line: &str) -> &str {
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

/// `a::b` from the identifiers after `prefix` in `text` (at most two).
fn paths_after(text: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let mut parts = Vec::new();
        let mut s = rest;
        for _ in 0..2 {
            let end = s
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(s.len());
            if end == 0 {
                break;
            }
            parts.push(s[..end].to_string());
            s = &s[end..];
            match s.strip_prefix("::") {
                Some(t) if t.starts_with(|c: char| c.is_ascii_lowercase()) => s = t,
                _ => break,
            }
        }
        if !parts.is_empty() {
            out.push(parts);
        }
    }
    out
}

/// Which module (two levels deep at most) each module imports.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let known: BTreeSet<String> = files
        .iter()
        .map(|f| module_of(&src, f))
        .filter(|m| !m.is_empty())
        .map(|m| m[..m.len().min(2)].join("::"))
        .collect();
    for f in &files {
        let m = module_of(&src, f);
        if m.is_empty() {
            continue; // lib.rs re-exports
        }
        let me = m[..m.len().min(2)].join("::");
        let text: String = std::fs::read_to_string(f)
            .expect("source")
            .lines()
            .map(code)
            .collect::<Vec<_>>()
            .join("\n");
        let mut targets = Vec::new();
        for p in paths_after(&text, "crate::") {
            targets.push(p);
        }
        // `super::x` from a file `a/b.rs` (module a::b) is `a::x`; from `a/b/mod.rs`, too.
        let parent = &m[..m.len() - 1];
        for p in paths_after(&text, "super::") {
            if p[0] == "super" {
                continue;
            }
            let mut full: Vec<String> = parent.to_vec();
            full.extend(p);
            targets.push(full);
        }
        for t in targets {
            // The longest known module the path names (`extract::auto`, else `extract`).
            let two = t[..t.len().min(2)].join("::");
            let target = if known.contains(&two) {
                two
            } else {
                t[0].clone()
            };
            if target != me && !me.starts_with(&format!("{target}::")) {
                g.entry(me.clone()).or_default().insert(target);
            }
        }
    }
    g
}

#[test]
fn no_module_imports_one_after_it() {
    let rank = |m: &str| {
        let top = m.split("::").next().unwrap_or(m);
        ORDER.iter().position(|o| *o == top)
    };
    let g = graph();
    let mut upward = Vec::new();
    for (from, tos) in &g {
        let Some(a) = rank(from) else {
            panic!("module {from} is not in ORDER: place it in the page order");
        };
        for to in tos {
            let b = rank(to).unwrap_or_else(|| panic!("{from} imports {to}, not in ORDER"));
            if b > a {
                upward.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(upward.is_empty(), "upward imports: {upward:#?}");
}

#[test]
fn no_two_modules_import_each_other() {
    let g = graph();
    // Depth-first search for a back edge, with an explicit stack.
    let mut state: BTreeMap<&str, u8> = BTreeMap::new(); // 1 on the stack, 2 done
    for start in g.keys() {
        if state.contains_key(start.as_str()) {
            continue;
        }
        let mut stack: Vec<&str> = vec![start];
        state.insert(start, 1);
        let mut next: BTreeMap<&str, usize> = BTreeMap::new();
        while let Some(&node) = stack.last() {
            let tos: Vec<&str> = g
                .get(node)
                .map(|s| s.iter().map(String::as_str).collect())
                .unwrap_or_default();
            let i = next.entry(node).or_insert(0);
            if *i < tos.len() {
                let to = tos[*i];
                *i += 1;
                match state.get(to) {
                    Some(1) => {
                        panic!("import circle: {} -> {to}", stack.join(" -> "));
                    }
                    Some(_) => {}
                    None => {
                        state.insert(to, 1);
                        stack.push(to);
                    }
                }
            } else {
                state.insert(node, 2);
                stack.pop();
            }
        }
    }
}
