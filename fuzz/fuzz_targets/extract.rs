//! The whole extraction on arbitrary bytes, one algorithm and option set per input (chosen by
//! its first byte, so coverage guidance explores each algorithm and format separately): no
//! panic, and a page's text is valid UTF-8 (a `String`) that ends with a newline when not empty.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pith::{Format, Mode};

fuzz_target!(|data: &[u8]| {
    let Some((&sel, page)) = data.split_first() else {
        return;
    };
    let algo = pith::Algo::ALL[sel as usize % pith::Algo::ALL.len()];
    let opts = pith::Options::new(algo)
        .with_mode([Mode::Balanced, Mode::Precision, Mode::Recall][(sel as usize / 3) % 3])
        .with_comments(sel & 0x10 != 0)
        .with_gap(if sel & 0x80 != 0 { 0 } else { 20 })
        .with_format(if sel & 0x20 != 0 {
            Format::Markdown
        } else {
            Format::Text
        })
        .with_links(sel & 0x40 != 0)
        .with_images(sel & 0x04 != 0)
        .with_metadata(sel & 0x08 != 0);
    if let Ok(e) = pith::extract(page, None, &opts) {
        assert!(e.text.is_empty() || e.text.ends_with('\n'));
    }
});
