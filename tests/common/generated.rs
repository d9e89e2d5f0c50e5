//! Generated pages for the property tests (proptest strategies), shared (`#[path]`) by the
//! library's (`tests/it/props.rs`) and the command's (`cli/tests/it/props.rs`).
//!
//! Pages are built from a token alphabet that hits what breaks extractors: unclosed and
//! misnested tags, implied end tags, raw-text elements with `<` inside, comments, entities,
//! stray `<` and `&`, non-ASCII text and bytes that are not UTF-8.
#![allow(dead_code)]

use proptest::prelude::*;

const TOKENS: &[&str] = &[
    "<p>",
    "</p>",
    "<div>",
    "</div>",
    "<div class=comment>",
    "<article>",
    "</article>",
    "<nav>",
    "</nav>",
    "<a href=/x>",
    "</a>",
    "<ul><li>",
    "<li>",
    "</ul>",
    "<table><tr><td>",
    "<td>",
    "<tr>",
    "</table>",
    "<h1>",
    "</h1>",
    "<pre>",
    "</pre>",
    "<b>",
    "</b>",
    "<br>",
    "<figure>",
    "</figure>",
    "<figcaption>",
    "</figcaption>",
    "<img src=a.jpg alt=A>",
    "<img src=data:x data-src='b c.jpg'>",
    "<picture><source srcset='p.webp 1x, q.webp 2x'><img alt=P></picture>",
    "<img src=px.gif width=1>",
    "<script>if (a<b) x='</p>';</script>",
    "<style>p{}</style>",
    "<!-- <p>hidden</p> -->",
    "<title>T</title>",
    "<html>",
    "<body>",
    "&amp;",
    "&nbsp;",
    "&#233;",
    "&bogus;",
    " < ",
    "&",
    "<",
    ">",
    "\n",
    " ",
    "\t",
];

const WORDS: &[&str] = &[
    "council",
    "bridge",
    "Tuesday,",
    "approved",
    "the",
    "and",
    "naïve",
    "日本語",
    "über",
    // Decomposed (NFD): the output composes it.
    "u\u{308}ber",
    "a",
    "debate.",
    "x",
];

/// One piece of a page: a token, a word, or a short sentence of words (prose for `auto`).
pub fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(TOKENS).prop_map(String::from),
        2 => proptest::sample::select(WORDS).prop_map(|w| format!("{w} ")),
        1 => proptest::collection::vec(proptest::sample::select(WORDS), 8..30)
            .prop_map(|w| format!("<p>{}.</p>", w.join(" "))),
    ]
}

pub fn page() -> impl Strategy<Value = String> {
    proptest::collection::vec(piece(), 0..120).prop_map(|p| p.concat())
}

/// A page as bytes, sometimes with bytes that are not UTF-8 spliced in.
pub fn page_bytes() -> impl Strategy<Value = Vec<u8>> {
    (
        page(),
        proptest::collection::vec(any::<u8>(), 0..4),
        any::<usize>(),
    )
        .prop_map(|(p, junk, at)| {
            let mut b = p.into_bytes();
            let at = if b.is_empty() { 0 } else { at % b.len() };
            b.splice(at..at, junk);
            b
        })
}
