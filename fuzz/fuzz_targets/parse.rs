//! Prepass, tokens and tree on arbitrary text: no panic, spans nested in their parents.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let arena = bumpalo::Bump::new();
    let doc = pith::html::Document::parse(&text, &arena);
    for n in doc.tree.nodes.iter().skip(1) {
        let p = doc.tree.node(n.parent);
        assert!(n.start >= p.start && n.end <= p.end.max(p.start) || n.parent == 0);
    }
});
