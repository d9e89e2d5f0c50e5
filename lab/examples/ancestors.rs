//! Prints the ancestor path of the text nodes containing a needle (debugging the tree).
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: ancestors PAGE NEEDLE");
    let needle = args.next().expect("needle");
    let bytes = std::fs::read(&path).expect("read");
    let text = String::from_utf8_lossy(&bytes);
    let arena = bumpalo::Bump::new();
    let doc = pith::lab::html::Document::parse(&text, &arena);
    for (i, n) in doc.tree.nodes.iter().enumerate() {
        if n.kind == pith::lab::html::Kind::Text && doc.raw_text(i as u32).contains(&needle) {
            let mut p: Vec<String> = doc
                .tree
                .ancestors(i as u32)
                .map(|a| {
                    let c = doc.attr(a, "class").unwrap_or("");
                    format!("{}[{}]@{}", doc.name(a), c, doc.tree.node(a).start)
                })
                .collect();
            p.reverse();
            println!("ctx={} {}", n.context(), p.join(" > "));
        }
    }
}
