//! Inputs the fuzz targets found (`fuzz/`), kept as regression tests: each checks what its
//! target checked when it failed.

use pith::Algo;
use pith::lab::html::{Document, Kind};

/// The visible text of a page (as the `differential` target builds it).
fn visible_text(bytes: &[u8]) -> String {
    let decoded = pith::lab::decode::decode(bytes, None, None);
    let arena = bumpalo::Bump::new();
    Document::parse(&decoded.text, &arena).visible_text()
}

fn assert_words_in_input(bytes: &[u8]) {
    let text = visible_text(bytes);
    for &algo in Algo::ALL {
        let opts = pith::Options::new(algo);
        let e = pith::extract(bytes, None, &opts).expect("a page");
        for word in e.text.split_ascii_whitespace() {
            assert!(
                text.contains(word),
                "{}: {word:?} not in the input",
                algo.name()
            );
        }
    }
}

/// differential: `danag-lines` selected two regions whose facing lines held `...">` (a tag
/// that lost its `<`) and `Menu`; the text between them was left out and the two joined into
/// one word that is not in the page.
#[test]
fn differential_words_of_separate_regions_do_not_join() {
    let page = std::fs::read("tests/fuzz/differential-joined-words.html").expect("fixture");
    assert_words_in_input(&page);
}

/// The same rule on a hand-made selection: text left out between two selected runs
/// separates them.
#[test]
fn text_left_out_between_selected_runs_separates_them() {
    let page = "<div>foo<span>x</span>bar<script>y</script>baz</div>";
    let arena = bumpalo::Bump::new();
    let doc = Document::parse(page, &arena);
    let run = |t: &str| {
        (0..doc.tree.nodes.len() as u32)
            .find(|&i| doc.tree.node(i).kind == Kind::Text && doc.raw_text(i) == t)
            .expect("text run")
    };
    let sel = pith::lab::extract::Selection {
        nodes: vec![run("foo"), run("bar"), run("baz")],
    };
    // Hidden text (the script) is not left-out content: `bar` and `baz` join as written.
    assert_eq!(
        pith::lab::output::render(&doc, &sel, &pith::lab::output::RenderOptions::default()),
        "foo barbaz\n"
    );
}
