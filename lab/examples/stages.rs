//! Times the stages of one extraction over a directory (for finding hot spots).
use std::time::Instant;
fn main() {
    let dir = std::env::args().nth(1).expect("usage: stages DIR");
    let raw: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| std::fs::read(e.ok()?.path()).ok())
        .collect();
    let mb: f64 = raw.iter().map(|p| p.len()).sum::<usize>() as f64 / 1e6;
    let names = ["decode", "parse", "danag", "auto", "render", "title+lang"];
    let mut t = [0f64; 6];
    let mut arena = bumpalo::Bump::new();
    for _ in 0..5 {
        for bytes in &raw {
            arena.reset();
            let t0 = Instant::now();
            let dec = pith::lab::decode::decode(bytes, None, None);
            let t1 = Instant::now();
            let doc = pith::lab::html::Document::parse(&dec.text, &arena);
            let t2 = Instant::now();
            let d = pith::lab::extract::danag::extract(
                &doc,
                pith::lab::extract::danag::Segments::Normalized,
                20,
            );
            let t3 = Instant::now();
            let sel = pith::lab::extract::auto::extract(
                &doc,
                &pith::lab::extract::auto::Tuning::new(Default::default(), false),
            );
            let t4 = Instant::now();
            let text = pith::lab::output::text::render(&doc, &sel);
            let t5 = Instant::now();
            let title = (doc.title(), doc.lang());
            let t6 = Instant::now();
            std::hint::black_box((d.nodes.len(), text, title));
            for (i, w) in [t0, t1, t2, t3, t4, t5, t6].windows(2).enumerate() {
                t[i] += (w[1] - w[0]).as_secs_f64();
            }
        }
    }
    for (name, secs) in names.iter().zip(t) {
        println!(
            "{name:<12} {:8.1} MB/s  {:6.1} ms",
            5.0 * mb / secs,
            secs * 1000.0 / 5.0
        );
    }
}
