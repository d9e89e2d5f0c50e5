//! Times the stages of one extraction over a directory (for finding hot spots).
use std::time::Instant;
fn main() {
    let dir = std::env::args().nth(1).expect("usage: stages DIR");
    let pages: Vec<String> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| std::fs::read(e.ok()?.path()).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect();
    let mb: f64 = pages.iter().map(|p| p.len()).sum::<usize>() as f64 / 1e6;
    let mut t = [0f64; 5];
    let mut arena = bumpalo::Bump::new();
    for _ in 0..5 {
        for p in &pages {
            arena.reset();
            let a = Instant::now();
            let doc = pith::html::Document::parse(p, &arena);
            let b = Instant::now();
            let prof =
                pith::extract::danag::profile(&doc, pith::extract::danag::Segments::Normalized);
            let c = Instant::now();
            let sel =
                pith::extract::danag::extract(&doc, pith::extract::danag::Segments::Normalized, 20);
            let d = Instant::now();
            let text = pith::output::text::render(&doc, &sel);
            let e = Instant::now();
            let title = doc.title();
            let f = Instant::now();
            std::hint::black_box((prof.content.len(), text, title));
            for (i, (x, y)) in [(a, b), (b, c), (c, d), (d, e), (e, f)].iter().enumerate() {
                t[i] += (*y - *x).as_secs_f64();
            }
        }
    }
    for (name, secs) in ["parse", "profile", "danag(all)", "render", "title"]
        .iter()
        .zip(t)
    {
        println!("{name:<12} {:8.1} MB/s", 5.0 * mb / secs);
    }
}
