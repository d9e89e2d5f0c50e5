//! Peak resident memory of each stage of one extraction (for finding what holds memory):
//! `cargo run --release --example memstages PAGE [auto|danag]`.
//!
//! Each stage's line gives the resident set after it (RSS) and the peak it reached while it
//! ran (the peak is reset through `/proc/self/clear_refs` before each stage, where the kernel
//! allows it), in MB and over the page's size.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn kb(field: &str) -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        .unwrap_or(0.0)
}

struct Meter {
    page: f64,
}

impl Meter {
    fn start(&self) {
        let _ = std::fs::write("/proc/self/clear_refs", "5");
    }
    fn stage(&self, name: &str, extra: &str) {
        let (rss, peak) = (kb("VmRSS:") * 1024.0, kb("VmHWM:") * 1024.0);
        println!(
            "{name:8} rss {:7.1} MB ({:.2}x)  peak {:7.1} MB ({:.2}x)  {extra}",
            rss / 1e6,
            rss / self.page,
            peak / 1e6,
            peak / self.page
        );
    }
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
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: memstages PAGE [auto|danag]");
    let algo = args.next().unwrap_or_else(|| "auto".into());
    let bytes = std::fs::read(&path).expect("read");
    let m = Meter {
        page: bytes.len() as f64,
    };
    m.stage("read", &format!("page {:.1} MB", bytes.len() as f64 / 1e6));
    m.start();
    let dec = pith::lab::decode::decode(&bytes, None, None);
    let copied = matches!(dec.text, std::borrow::Cow::Owned(_));
    m.stage("decode", &format!("copy: {copied}"));
    let arena = bumpalo::Bump::new();
    m.start();
    let doc = pith::lab::html::Document::parse(&dec.text, &arena);
    m.stage(
        "parse",
        &format!(
            "nodes {} ({:.2}x) arena {:.1} MB",
            doc.tree.nodes.len(),
            (doc.tree.nodes.len() * std::mem::size_of::<pith::lab::html::Node>()) as f64 / m.page,
            arena.allocated_bytes() as f64 / 1e6
        ),
    );
    m.start();
    let sel = match algo.as_str() {
        "danag" => pith::lab::extract::danag::extract(
            &doc,
            pith::lab::extract::danag::Segments::Normalized,
            pith::lab::extract::danag::PAPER_GAP,
        ),
        _ => pith::lab::extract::auto::extract(
            &doc,
            &pith::lab::extract::auto::Tuning::new(pith::lab::extract::auto::Mode::Balanced, false),
        ),
    };
    m.stage(&algo, &format!("selected {}", sel.nodes.len()));
    m.start();
    let text = pith::lab::output::text::render(&doc, &sel);
    m.stage("render", &format!("out {:.1} MB", text.len() as f64 / 1e6));
}
