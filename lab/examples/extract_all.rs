//! Extracts every page of a directory N times (for profiling).
fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: extract_all DIR [N] [ALGO]");
    let n: usize = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let pages: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| std::fs::read(e.ok()?.path()).ok())
        .collect();
    let algo = std::env::args()
        .nth(3)
        .and_then(|a| a.parse().ok())
        .unwrap_or_default();
    let opts = pith::Options::new(algo);
    let mut total = 0;
    for _ in 0..n {
        for p in &pages {
            total += pith::extract(p, None, &opts)
                .map(|e| e.text.len())
                .unwrap_or(0);
        }
    }
    println!("{total}");
}
