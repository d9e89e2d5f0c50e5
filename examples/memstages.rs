//! Peak resident memory after each stage of one extraction (for finding what holds memory).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn hwm() -> String {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("VmHWM") || l.starts_with("VmRSS"))
        .collect::<Vec<_>>()
        .join(" ")
}
fn main() {
    // The binary's allocator settings (`src/main.rs`): commit lazily, give freed memory back
    // at once, no transparent huge pages, so each stage's peak is what pith's would be.
    // SAFETY: stores option values and a process flag before any thread starts (as
    // `src/main.rs` does).
    unsafe {
        libmimalloc_sys::mi_option_set(4, 0);
        libmimalloc_sys::mi_option_set(15, 0);
        #[cfg(target_os = "linux")]
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    let path = std::env::args().nth(1).expect("usage: memstages PAGE");
    let bytes = std::fs::read(&path).expect("read");
    println!("read    {}", hwm());
    let dec = pith::decode::decode(&bytes, None, None);
    println!("decode  {}", hwm());
    let arena = bumpalo::Bump::new();
    let doc = pith::html::Document::parse(&dec.text, &arena);
    println!(
        "parse   {} nodes={} tokens={} arena={}",
        hwm(),
        doc.tree.nodes.len(),
        doc.tokens().count(),
        arena.allocated_bytes()
    );
    let sel = pith::extract::danag::extract(&doc, pith::extract::danag::Segments::Normalized, 20);
    println!("danag   {}", hwm());
    let text = pith::output::text::render(&doc, &sel);
    println!("render  {} out={}", hwm(), text.len());
}
