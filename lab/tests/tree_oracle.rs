//! pith's tree against html5ever's (the reference HTML5 tree builder) on real pages: the
//! sequence of text chunks, each with the names of its ancestor elements, must agree.
//!
//! Both sides skip `html`, `head`, `body` and `tbody` in paths (html5ever inserts them where the
//! page omits them) and text under elements whose text is never content (script, style,
//! template, title, textarea, iframe, noembed, noframes, select, svg). Adjacent chunks with the
//! same path are merged (white-space-only text separates nothing) and white space is collapsed.
//! html5ever runs with scripting disabled, which is how pith reads `<noscript>`.
//!
//! A page agrees when the chunk sequences are equal (strict) or when 95% of the chunks match by
//! LCS (soft). The pages are those in `tests/pages`, and with them every page of
//! `../shared/data/*/html` (ignored without it: see tests/common).

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;

use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{NodeData, RcDom};

const SKIP_IN_PATH: &[&str] = &["html", "head", "body", "tbody"];
const NO_TEXT: &[&str] = &[
    "script", "style", "template", "title", "textarea", "iframe", "noembed", "noframes", "select",
    "svg",
];

type Chunks = Vec<(String, String)>;

fn push_chunk(out: &mut Chunks, path: Vec<String>, text: &str) {
    // White space alone is no chunk on either side: pith keeps no node for white space after a
    // block boundary (it can never separate words there), html5ever keeps every one.
    if text.trim().is_empty() || path.iter().any(|p| NO_TEXT.contains(&p.as_str())) {
        return;
    }
    let path: Vec<String> = path
        .into_iter()
        .filter(|p| !SKIP_IN_PATH.contains(&p.as_str()))
        .collect();
    let path = path.join(".");
    if let Some(last) = out.last_mut()
        && last.0 == path
    {
        last.1.push_str(text);
        return;
    }
    out.push((path, text.to_string()));
}

fn finish(chunks: Chunks) -> Chunks {
    chunks
        .into_iter()
        .map(|(p, t)| (p, t.split_whitespace().collect::<Vec<_>>().join(" ")))
        .filter(|(_, t)| !t.is_empty())
        .collect()
}

fn pith_chunks(text: &str) -> Chunks {
    let arena = bumpalo::Bump::new();
    let doc = pith::lab::html::Document::parse(text, &arena);
    let mut out = Chunks::new();
    for (i, n) in doc.tree.nodes.iter().enumerate() {
        if n.kind != pith::lab::html::Kind::Text {
            continue;
        }
        let mut path: Vec<String> = doc
            .tree
            .ancestors(i as u32)
            .map(|a| doc.name(a).to_ascii_lowercase())
            .collect();
        path.reverse();
        let decoded = pith::lab::html::entities::decode(doc.raw_text(i as u32));
        push_chunk(&mut out, path, &decoded);
    }
    finish(out)
}

fn html5ever_chunks(text: &str) -> Chunks {
    let opts = html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts {
            scripting_enabled: false,
            ..Default::default()
        },
        ..Default::default()
    };
    let dom = html5ever::parse_document(RcDom::default(), opts).one(text);
    let mut out = Chunks::new();
    // Iterative pre-order walk (pages nest deeply); each stack entry carries its element path.
    let mut stack = vec![(dom.document.clone(), Vec::<String>::new())];
    while let Some((node, path)) = stack.pop() {
        let mut child_path = path.clone();
        match &node.data {
            NodeData::Text { contents } => {
                push_chunk(&mut out, path, &contents.borrow());
                continue;
            }
            NodeData::Element { name, .. } => child_path.push(name.local.to_string()),
            _ => {}
        }
        for child in node.children.borrow().iter().rev() {
            stack.push((child.clone(), child_path.clone()));
        }
    }
    finish(out)
}

/// 2·LCS / (|a| + |b|) of two chunk lists: pith's LCS F1 with each chunk (its path and its
/// text, which holds no newline) as one token.
fn lcs_ratio(a: &[(String, String)], b: &[(String, String)]) -> f64 {
    let tokens = |c: &[(String, String)]| -> Vec<String> {
        c.iter()
            .map(|(path, text)| format!("{path}\n{text}"))
            .collect()
    };
    pith::lab::eval::metrics::lcs(&tokens(a), &tokens(b)).f1
}

/// The pages of `tests/pages`, and with `shared` those of every `../shared/data/*/html`.
fn pages(shared: bool) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir("../tests/pages")
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    if shared {
        let data = common::shared("data");
        let sets = std::fs::read_dir(&data).unwrap_or_else(|e| panic!("{}: {e}", data.display()));
        for set in sets.filter_map(|e| e.ok()) {
            if let Ok(files) = std::fs::read_dir(set.path().join("html")) {
                out.extend(files.filter_map(|e| e.ok().map(|e| e.path())));
            }
        }
    }
    out.retain(|p| p.extension().is_some_and(|e| e == "html"));
    out.sort();
    out
}

#[test]
fn tree_agrees_with_html5ever_on_the_test_pages() {
    agrees(&pages(false));
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn tree_agrees_with_html5ever() {
    let pages = pages(true);
    // The gold sets' pages, as many as the floor was measured on (829) or more.
    assert!(pages.len() > 800, "{} pages", pages.len());
    agrees(&pages);
}

/// The agreement of pith's tree with html5ever's over `pages` is at least [`SOFT_FLOOR`].
fn agrees(pages: &[PathBuf]) {
    assert!(!pages.is_empty());
    let (mut strict, mut soft) = (0usize, 0usize);
    let mut worst: Vec<(f64, String, String)> = Vec::new();
    for path in pages {
        let bytes = std::fs::read(path).expect("read page");
        let text = pith::lab::decode::decode(&bytes, None, None).text;
        let mine = pith_chunks(&text);
        let theirs = html5ever_chunks(&text);
        if mine == theirs {
            strict += 1;
            soft += 1;
            continue;
        }
        // Very long chunk lists count by their prefix.
        let ratio = lcs_ratio(
            &mine[..mine.len().min(3000)],
            &theirs[..theirs.len().min(3000)],
        );
        if ratio >= 0.95 {
            soft += 1;
        }
        let first_diff = mine
            .iter()
            .zip(&theirs)
            .find(|(x, y)| x != y)
            .map(|(x, y)| format!("pith {:?}\n      html5ever {:?}", trunc(x), trunc(y)))
            .unwrap_or_else(|| format!("lengths {} vs {}", mine.len(), theirs.len()));
        worst.push((ratio, path.display().to_string(), first_diff));
    }
    let n = pages.len() as f64;
    println!(
        "tree agreement with html5ever over {} pages: strict {:.1}%, soft (LCS >= 95%) {:.1}%",
        pages.len(),
        100.0 * strict as f64 / n,
        100.0 * soft as f64 / n
    );
    worst.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (ratio, page, diff) in worst.iter().take(5) {
        println!("  {ratio:.3} {page}\n      {diff}");
    }
    // Measured: see the README. The floor sits a little under the measured rate.
    assert!(
        soft as f64 / n >= SOFT_FLOOR,
        "soft agreement {:.3} under {SOFT_FLOOR}",
        soft as f64 / n
    );
}

fn trunc(c: &(String, String)) -> (String, String) {
    (
        c.0.chars().take(80).collect(),
        c.1.chars().take(80).collect(),
    )
}

/// Measured 0.907 soft (0.814 strict) over the 829 shared pages plus tests/pages; the floor
/// leaves room for a page or two of noise, and catches a real regression of the tree.
const SOFT_FLOOR: f64 = 0.88;
