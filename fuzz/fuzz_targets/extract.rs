//! The whole extraction on arbitrary bytes, one algorithm and option set per input (chosen by
//! its first byte, so coverage guidance explores each algorithm and format separately): no
//! panic, and a page's text is valid UTF-8 (a `String`) that ends with a newline when not empty.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pith::extract::auto::Mode;
use pith::output::Format;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, page)) = data.split_first() else {
        return;
    };
    let algo = pith::Algo::ALL[sel as usize % pith::Algo::ALL.len()];
    let opts = pith::Options {
        extract: pith::extract::Options {
            algo,
            mode: [Mode::Balanced, Mode::Precision, Mode::Recall][(sel as usize / 3) % 3],
            comments: sel & 0x10 != 0,
            gap: if sel & 0x80 != 0 { 0 } else { 20 },
            ..Default::default()
        },
        output: pith::output::Options {
            format: if sel & 0x20 != 0 {
                Format::Markdown
            } else {
                Format::Text
            },
            links: sel & 0x40 != 0,
            images: sel & 0x04 != 0,
        },
        charset: None,
        metadata: sel & 0x08 != 0,
    };
    if let Ok(e) = pith::extract(page, None, &opts) {
        assert!(e.text.is_empty() || e.text.ends_with('\n'));
    }
});
