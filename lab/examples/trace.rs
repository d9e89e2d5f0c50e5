//! Prints what `auto` decided on one page (debugging): the outcome, the chosen container and
//! its siblings, and each recovered paragraph, with a short class path and the start of its text
//! (`PITH_MODE=precision` or `recall` for those modes).
use pith::lab::extract::auto::{Mode, Outcome, Trace, Tuning, extract_traced};

fn label(doc: &pith::lab::html::Document<'_>, id: u32) -> String {
    let c = doc.attr(id, "class").unwrap_or("");
    let i = doc.attr(id, "id").unwrap_or("");
    format!("{}.{}#{}", doc.name(id), c, i)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: trace PAGE");
    let bytes = std::fs::read(&path).expect("read");
    let text = String::from_utf8_lossy(&bytes);
    let arena = bumpalo::Bump::new();
    let doc = pith::lab::html::Document::parse(&text, &arena);
    let mut t = Trace::default();
    let mode = match std::env::var("PITH_MODE").as_deref() {
        Ok("precision") => Mode::Precision,
        Ok("recall") => Mode::Recall,
        _ => Mode::Balanced,
    };
    let sel = extract_traced(&doc, &Tuning::new(mode, false), Some(&mut t));
    println!(
        "outcome {:?} spread {:?} nodes {}",
        t.outcome,
        t.spread,
        sel.nodes.len()
    );
    if let Some(b) = t.best {
        println!("best {} score {:.1}", label(&doc, b as u32), t.score[b]);
    }
    if let Some(top) = t.top {
        println!("top {} text {}", label(&doc, top as u32), t.stats[top].text);
    }
    for &r in &t.roots {
        println!("root {} text {}", label(&doc, r), t.stats[r as usize].text);
    }
    let mut n = 0;
    for (i, &r) in t.is_root.iter().enumerate() {
        if r && !t.roots.contains(&(i as u32)) {
            n += 1;
            let s: String = doc.text_of(i as u32).chars().take(70).collect();
            let p = doc.tree.node(i as u32).parent;
            println!(
                "recovered{} {} (parent {} ld {:.2}) ld {:.2}: {}",
                if t.teaser.get(i) == Some(&true) {
                    " TEASER"
                } else {
                    ""
                },
                label(&doc, i as u32),
                label(&doc, p),
                t.stats[p as usize].link_density(),
                t.stats[i].link_density(),
                s
            );
        }
    }
    let teasers = t.teaser.iter().filter(|&&x| x).count();
    println!("{n} recovered, {teasers} nodes in teasers");
    if let Some(needle) = args.next() {
        why(&doc, &t, &needle);
    }
    let _ = Outcome::Container;
}

/// With a third argument NEEDLE: for the text nodes containing it, each ancestor with its
/// removed flag, text and link density.
#[allow(dead_code)]
fn why(doc: &pith::lab::html::Document<'_>, t: &Trace, needle: &str) {
    for (i, n) in doc.tree.nodes.iter().enumerate() {
        if n.kind == pith::lab::html::Kind::Text && doc.raw_text(i as u32).contains(needle) {
            let mut chain: Vec<u32> = doc.tree.ancestors(i as u32).collect();
            chain.reverse();
            for a in chain {
                let s = t.stats[a as usize];
                println!(
                    "  {} removed={} text={} ld={:.2} score={:.1}",
                    label(doc, a),
                    t.removed[a as usize],
                    s.text,
                    s.link_density(),
                    t.score[a as usize]
                );
            }
        }
    }
}
