//! Differential: for every algorithm, the text is a function of the input (two runs, the second
//! on a fresh thread whose arena is new, give the same bytes), and every output word occurs in
//! the input's decoded text: the text of its text nodes, entities decoded, concatenated
//! (inline tags join words as written, `foo<b>bar</b>` is `foobar`, so words are looked up in
//! the concatenation rather than in the markup), less the control characters output drops.
//! Both are compared decomposed (NFD): the output composes combining marks (NFC).
#![no_main]
use libfuzzer_sys::fuzz_target;

use pith::lab::html::Document;
use unicode_normalization::UnicodeNormalization;

fuzz_target!(|data: &[u8]| {
    let decoded = pith::lab::decode::decode(data, None, None);
    let arena = bumpalo::Bump::new();
    let doc = Document::parse(&decoded.text, &arena);
    // Hidden text (scripts, styles, the head) is never output; it also separates no words in
    // the output (`a<script>..</script>b` reads `ab`). Output never holds C0 control
    // characters other than tab and newline (`output::no_controls` drops them, joining what
    // stood around them), so neither does the text words are looked up in.
    let text: String = pith::lab::output::no_controls(doc.visible_text())
        .nfd()
        .collect();
    for &algo in pith::Algo::ALL {
        let opts = pith::Options::new(algo);
        let a = pith::extract(data, None, &opts);
        let owned = data.to_vec();
        let o = opts.clone();
        let b = std::thread::spawn(move || pith::extract(&owned, None, &o))
            .join()
            .expect("extraction thread");
        assert_eq!(a, b, "{} differs between runs", algo.name());
        let Ok(e) = a else { continue };
        for word in e.text.split_ascii_whitespace() {
            let word: String = word.nfd().collect();
            assert!(
                text.contains(&word),
                "{}: word {word:?} not in the input",
                algo.name()
            );
        }
    }
});
