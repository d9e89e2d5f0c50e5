//! Prepass, tokens and tree on arbitrary text: no panic, and the tree is well formed: every
//! node's span lies inside the page and inside its parent's span, a node starts no earlier than
//! its parent (document order), child links agree with parent links, and tokens are in order.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pith::lab::html::tree::{NONE, ROOT};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let arena = bumpalo::Bump::new();
    let doc = pith::lab::html::Document::parse(&text, &arena);
    let len = text.len() as u32;
    let nodes = &doc.tree.nodes;
    for (i, n) in nodes.iter().enumerate().skip(1) {
        let inner_end = doc.tree.inner_end(i as u32);
        let inner_start = doc.tree.inner_start(i as u32);
        assert!(
            n.start <= inner_start && inner_start <= inner_end && inner_end <= n.end,
            "node {i}: span out of order {n:?}"
        );
        assert!(n.end <= len, "node {i} ends past the page");
        assert!((n.parent as usize) < i, "node {i}: parent after child");
        if n.parent != ROOT {
            let p = &nodes[n.parent as usize];
            assert!(
                n.start >= p.start && n.end <= p.end,
                "node {i} outside parent {p:?}"
            );
        }
        if n.next_sibling != NONE {
            let s = &nodes[n.next_sibling as usize];
            assert_eq!(s.parent, n.parent, "sibling of {i} has another parent");
            assert!(s.start >= n.end, "sibling of {i} overlaps it");
        }
    }
    // Every child list, walked, has the right parent and runs in document order.
    let mut children = 0usize;
    for i in 0..nodes.len() {
        let mut last = NONE;
        for c in doc.tree.children(i as u32) {
            assert_eq!(nodes[c as usize].parent, i as u32);
            assert!(last == NONE || c > last, "children of {i} out of order");
            last = c;
            children += 1;
        }
    }
    assert_eq!(children, nodes.len() - 1, "a node is in no child list");
    let mut prev = 0;
    for t in doc.tokens() {
        assert!(
            t.start >= prev && t.start <= t.end && t.end <= len,
            "token {t:?}"
        );
        prev = t.start;
    }
    // Attribute and text accessors on every node must not panic.
    for i in 0..nodes.len() as u32 {
        let _ = doc.name(i);
        let _ = doc.raw_text(i);
        let _ = doc.attr(i, "class");
        let _ = doc.attributes(i).count();
    }
    let _ = (doc.title(), doc.lang(), doc.date());
});
