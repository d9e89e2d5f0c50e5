//! Properties over generated pages (proptest, the pages of `tests/common/generated.rs`):
//! whatever the markup, the text is valid UTF-8, every output word occurs in the input's text,
//! extraction is deterministic, and no tree element's span lies outside its parent's. That the
//! output does not depend on `-j` is the command's (`cli/tests/it/props.rs`).

use unicode_normalization::UnicodeNormalization;

use crate::generated::page_bytes;
use pith::Algo;
use pith::lab::html::tree::{NONE, ROOT};
use pith::lab::html::{Document, Kind};
use pith::lab::output::Format;
use proptest::prelude::*;

/// The page's visible text ([`Document::visible_text`]): inline tags join words as written,
/// so output words are looked up in this string. Decomposed (NFD), as output words are before
/// the lookup: the output composes combining marks (NFC), and a mark the markup set apart
/// from its letter stays apart in the output but not in this string. Without C0 control
/// characters other than tab and newline, as output is ([`pith::lab::output::no_controls`]).
fn input_text(bytes: &[u8]) -> String {
    let decoded = pith::lab::decode::decode(bytes, None, None);
    let arena = bumpalo::Bump::new();
    let visible = Document::parse(&decoded.text, &arena).visible_text();
    pith::lab::output::no_controls(visible).nfd().collect()
}

fn opts(algo: Algo, format: Format) -> pith::Options {
    pith::Options::new(algo).with_format(format)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn text_is_utf8_and_its_words_are_input_words(bytes in page_bytes()) {
        let text = input_text(&bytes);
        for &algo in Algo::ALL {
            let Ok(e) = pith::extract(&bytes, None, &opts(algo, Format::Text)) else {
                continue;
            };
            prop_assert!(std::str::from_utf8(e.text.as_bytes()).is_ok());
            prop_assert!(e.text.is_empty() || e.text.ends_with('\n'));
            for word in e.text.split_ascii_whitespace() {
                let word: String = word.nfd().collect();
                prop_assert!(text.contains(&word), "{}: {word:?} not in {text:?}", algo.name());
            }
        }
    }

    #[test]
    fn images_leave_text_alone_and_markdown_writes_each_once(bytes in page_bytes()) {
        let text = input_text(&bytes);
        for &algo in Algo::ALL {
            for format in [Format::Text, Format::Markdown] {
                let mut with = opts(algo, format);
                with.output.images = true;
                let (Ok(a), Ok(b)) = (
                    pith::extract(&bytes, None, &opts(algo, format)),
                    pith::extract(&bytes, None, &with),
                ) else {
                    continue;
                };
                prop_assert_eq!(a.images, None);
                let images = b.images.unwrap_or_default();
                prop_assert!(images.len() <= pith::lab::output::images::MAX_IMAGES);
                for i in &images {
                    prop_assert!(!i.src.is_empty() && !i.src.starts_with("data:"), "{i:?}");
                    for word in i.caption.iter().flat_map(|c| c.split_ascii_whitespace()) {
                        let word: String = word.nfd().collect();
                        prop_assert!(text.contains(&word), "{word:?} not in {text:?}");
                    }
                }
                if format == Format::Text {
                    prop_assert_eq!(&a.text, &b.text);
                } else {
                    prop_assert_eq!(b.text.matches("![").count(), images.len(), "{}", b.text);
                    prop_assert!(b.text.is_empty() || b.text.ends_with('\n'));
                }
            }
        }
    }

    #[test]
    fn extraction_is_deterministic(bytes in page_bytes()) {
        for &algo in Algo::ALL {
            for format in [Format::Text, Format::Markdown] {
                let a = pith::extract(&bytes, None, &opts(algo, format));
                // Again on a fresh thread: a new arena, nothing left from the first run.
                let (b2, o) = (bytes.clone(), opts(algo, format));
                let b = std::thread::spawn(move || pith::extract(&b2, None, &o))
                    .join()
                    .expect("thread");
                prop_assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn every_element_lies_inside_its_parent(bytes in page_bytes()) {
        let text = String::from_utf8_lossy(&bytes);
        let arena = bumpalo::Bump::new();
        let doc = Document::parse(&text, &arena);
        let nodes = &doc.tree.nodes;
        for (i, n) in nodes.iter().enumerate().skip(1) {
            let inner_end = doc.tree.inner_end(i as u32);
            let inner_start = doc.tree.inner_start(i as u32);
            prop_assert!(n.start <= inner_start && inner_start <= inner_end);
            prop_assert!(inner_end <= n.end && n.end as usize <= text.len());
            prop_assert!((n.parent as usize) < i);
            if n.parent != ROOT {
                let p = &nodes[n.parent as usize];
                prop_assert!(p.kind == Kind::Element);
                let p_inner = doc.tree.inner_start(n.parent);
                prop_assert!(n.start >= p_inner && n.end <= p.end, "{i}: {n:?} in {p:?}");
            }
            if n.next_sibling != NONE {
                prop_assert!(nodes[n.next_sibling as usize].start >= n.end);
            }
        }
    }
}

/// Every text node of `page`, rendered as text output.
fn all_text(page: &str) -> String {
    let arena = bumpalo::Bump::new();
    let doc = Document::parse(page, &arena);
    let all = pith::lab::extract::Selection {
        nodes: (0..doc.tree.nodes.len() as u32)
            .filter(|&i| doc.tree.node(i).kind == Kind::Text)
            .collect(),
    };
    pith::lab::output::render(&doc, &all, &pith::lab::output::RenderOptions::default())
}

/// Found by `text_is_utf8_and_its_words_are_input_words`: runs of preformatted text lost the
/// blank at their end, so highlighted code (`<span>let</span> <span>x</span>`) and
/// `<pre>foo <b>bar</b>` joined words.
#[test]
fn preformatted_runs_keep_the_blanks_between_them() {
    let page = "<pre><span>let</span> <span>x</span> = 1;\nfoo <b>bar</b>  \nend</pre>";
    assert_eq!(all_text(page), "let x = 1;\nfoo bar\nend\n");
    // A run that starts with a no-break space is not one that starts with a blank line.
    assert_eq!(
        all_text("<pre>Tuesday, </ul>&nbsp;bridge</pre>"),
        "Tuesday, \u{a0}bridge\n"
    );
}
