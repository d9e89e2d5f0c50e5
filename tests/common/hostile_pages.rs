//! The hostile pages, by name and size: shared (`#[path]`) by the library's memory test
//! (`tests/memory.rs`), the binary's (`cli/tests/memory_budget.rs`) and the full-size curves
//! (`lab/examples/hostile.rs`).

#![allow(dead_code)]

/// The HTML cases, in the order the README's table lists them.
pub const HTML_CASES: &[&str] = &[
    "deep", "flat", "attrs", "line", "lt", "nul", "bad_utf8", "utf16",
];

const SENTENCE: &str = "PITHMARKER main article text, a long sentence that reads like prose and \
                        carries enough words, commas, and stop words to look like content. ";

pub fn article() -> String {
    format!("<p>{}</p>", SENTENCE.repeat(4)).repeat(6)
}

pub fn page(body: &str) -> String {
    format!("<!DOCTYPE html><html><head><title>t</title></head><body>{body}</body></html>")
}

const PARA: &str = "<p>Paragraph of text with a <a href=/l>link</a> and more words here.</p>";

/// Paragraphs filling about `bytes`, after the article, separated by `sep`.
fn filler(bytes: usize, sep: &str) -> String {
    let unit = format!("{PARA}{sep}");
    article() + &unit.repeat(bytes / unit.len())
}

pub fn html_case(name: &str, size: usize) -> Vec<u8> {
    match name {
        "deep" => format!(
            "{}<article>{}</article>{}",
            "<div>".repeat(size),
            article(),
            "</div>".repeat(size)
        )
        .into_bytes(),
        "flat" => page(&filler(size, "\n")).into_bytes(),
        "attrs" => {
            let attrs: String = (0..size).map(|i| format!(" a{i}=\"v{i}\"")).collect();
            page(&format!("<div{attrs}>{}</div>", article())).into_bytes()
        }
        "line" => page(&filler(size, "")).into_bytes(),
        "lt" => vec![b'<'; size],
        "nul" => page(&filler(size, "\0")).into_bytes(),
        "bad_utf8" => {
            let mut b = b"<meta charset=utf-8>".to_vec();
            b.extend(
                page(&filler(size, "\u{1}"))
                    .bytes()
                    .map(|c| if c == 1 { 0xff } else { c }),
            );
            b
        }
        "utf16" => {
            let mut b = vec![0xff, 0xfe];
            for u in page(&filler(size / 2, "\n")).encode_utf16() {
                b.extend_from_slice(&u.to_le_bytes());
            }
            b
        }
        _ => panic!("unknown case {name}"),
    }
}

/// Issue 43's pages of dense markup, by the shape repeated: one unit of markup each as
/// `pith::lab::page::markup` counts it (`<b>x</b>` two), `<div>` nested and never closed,
/// and `<p>x` in UTF-16.
pub const DENSE_SHAPES: &[&str] = &[
    "<p>x",
    "<br>",
    "<b>x</b>",
    "x</b>",
    "x<!---->",
    "<div>",
    "utf16 <p>x",
];

/// A page of about `size` bytes with `units` units of markup (`pith::lab::page::markup`, in
/// the UTF-8 copy of a UTF-16 page; `units` rounded up to a whole `<b>x</b>`): the article, a
/// paragraph of plain words filling the page, then `shape` repeated.
pub fn dense_case(shape: &str, size: usize, units: u64) -> Vec<u8> {
    let (unit, utf16) = match shape.strip_prefix("utf16 ") {
        Some(unit) => (unit, true),
        None => (shape, false),
    };
    let build = |reps: usize, words: usize| {
        let filler = "lorem ipsum dolor sit amet ".repeat(words / 27 + 1);
        page(&format!(
            "{}<p>{}</p>{}",
            article(),
            &filler[..words],
            unit.repeat(reps)
        ))
    };
    let per = pith::lab::page::markup(unit.repeat(2).as_bytes()) / 2;
    let fixed = pith::lab::page::markup(build(1, 1).as_bytes()) - per;
    let reps = units.saturating_sub(fixed).div_ceil(per) as usize;
    // A UTF-16 page has two bytes a character.
    let chars = if utf16 { size / 2 } else { size };
    let html = build(reps, chars.saturating_sub(build(reps, 0).len()));
    if utf16 {
        let mut b = vec![0xff, 0xfe];
        b.extend(html.encode_utf16().flat_map(u16::to_le_bytes));
        b
    } else {
        html.into_bytes()
    }
}
