//! Prints DANAg's line profile of a page (T1, T2, smoothed diff), for looking at failures.
use pith::lab::extract::danag::{self, Segments};
fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: profile PAGE [lines]");
    let physical = std::env::args().nth(2).is_some();
    let bytes = std::fs::read(&path).expect("read");
    let text = String::from_utf8_lossy(&bytes);
    let arena = bumpalo::Bump::new();
    let doc = pith::lab::html::Document::parse(&text, &arena);
    let seg = if physical {
        Segments::PhysicalLines
    } else {
        Segments::Normalized
    };
    let p = danag::profile(&doc, seg);
    let token_lines = danag::token_lines(&doc, seg);
    let sel = danag::select_lines(&p, 20);
    println!(
        "lines {} tokens {} selected {:?}",
        p.content.len(),
        doc.tokens().count(),
        sel
    );
    let min: u32 = std::env::var("MIN")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    for i in 0..p.content.len() {
        if p.content[i] >= min {
            let text: String = doc
                .tokens()
                .zip(&token_lines)
                .filter(|(t, l)| **l as usize == i && t.kind == pith::lab::html::TokenKind::Text)
                .map(|(t, _)| {
                    doc.raw_text(t.node)
                        .trim()
                        .chars()
                        .take(60)
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("|");
            println!(
                "{i}\t{}\t{}\t{}",
                p.content[i],
                p.code[i],
                text.chars().take(100).collect::<String>()
            );
        }
    }
}
