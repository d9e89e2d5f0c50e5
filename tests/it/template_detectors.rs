//! The paper's two template detectors (`tmpl-dom`, `tmpl-text`) on hostile pages, in-process:
//! they stay linear and call identical pages all template. Over real pages through the
//! command: `cli/tests/it/template_detectors.rs`.

use pith::lab::extract::{tmpl_dom, tmpl_text};
use pith::lab::html::Document;

#[test]
fn hostile_pages_stay_linear() {
    // 200,000 nested divs, and 100,000 siblings of one word each.
    let mut deep = String::from("<body>");
    for _ in 0..200_000 {
        deep.push_str("<div>");
    }
    deep.push_str("deep words at the bottom of the page");
    let mut wide = String::from("<body><div>");
    for i in 0..100_000 {
        wide.push_str(&format!("<span>w{}</span>", i % 7));
    }
    let pages = [deep.clone(), deep, wide.clone(), wide];
    let arena = bumpalo::Bump::new();
    let docs: Vec<Document<'_>> = pages.iter().map(|p| Document::parse(p, &arena)).collect();
    let refs: Vec<&Document<'_>> = docs.iter().collect();
    let dom = tmpl_dom::site(&refs, &tmpl_dom::Params::default());
    let text = tmpl_text::site(&refs, &tmpl_text::Params::default());
    // Identical pages are all template for both detectors.
    assert!(dom.iter().chain(&text).all(|s| s.nodes.is_empty()));
}
