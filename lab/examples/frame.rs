//! Reads a WARC through pith's framing only (for profiling).
fn main() {
    let path = std::env::args().nth(1).expect("usage: frame WARC");
    let (mut input, _) =
        pith::input::Input::open(&path, pith::input::Framing::Auto, 64 << 20).expect("open");
    let mut n = 0;
    while let Some(item) = input.next_item() {
        if let pith::input::Item::Page(r) = item {
            n += r.html.len();
        }
    }
    println!("{n}");
}
