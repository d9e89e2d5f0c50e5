//! The `pith` binary's memory on a large page as a JSON line against its text: the peak
//! resident memory of the child (`wait4`'s `ru_maxrss`, which neither this process nor the
//! machine's load moves). The library's own memory on the hostile pages, in-process, is the
//! root's `tests/memory.rs`.
//!
//! A binary of its own, as `memory_budget.rs` is: a child's peak counts what its parent had
//! resident when it was started, so no other test's pages may be resident here. Linux only.

#![cfg(target_os = "linux")]

#[path = "../../tests/common/hostile_pages.rs"]
mod hostile_pages;
#[path = "peak/mod.rs"]
mod peak;

/// Peak resident memory of the `pith` binary on `page` with `args`, in KiB (a run that
/// fails is a failure).
fn binary_peak_kib(page: &std::path::Path, args: &[&str]) -> u64 {
    let (peak, code) = peak::binary_peak_and_code(page, args);
    assert_eq!(code, 0, "pith {args:?} failed");
    peak
}

/// A page's JSON line (`--format json`, how crawls are read) costs no more memory than its
/// text: the text moves into the JSON object instead of being copied, and the arena of a page
/// this large (over `extract::KEEP_ARENA`) is freed before the line is formatted. With both
/// undone, the line took 0.37x the page more than the text did here (1.3x with the release
/// binary).
#[test]
fn a_json_line_costs_no_more_memory_than_its_text() {
    let dir = std::env::temp_dir().join(format!("pith-memory-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("nul.html");
    // 12 MB of paragraphs of 300 bytes, a NUL in each (six bytes as JSON, `\u0000`): under
    // the element budget, which the hostile case "nul" (a paragraph per 73 bytes) is over.
    let para = format!("<p>{}\0</p>\n", "words of a paragraph ".repeat(14));
    let page = hostile_pages::page(&para.repeat((12 << 20) / para.len())).into_bytes();
    std::fs::write(&file, &page).expect("write page");
    // Written and dropped: the children's peaks do not count it.
    let page_kib = page.len() as f64 / 1024.0;
    drop(page);
    let args = ["-j", "1", "--algo", "danag"];
    // The least of three runs each: a run's peak moves by a few hundred KiB with when its
    // reader, worker and writer threads free their buffers.
    let least = |args: &[&str]| (0..3).map(|_| binary_peak_kib(&file, args)).min();
    let text = least(&args).unwrap_or_default();
    let json = least(&[&args[..], &["--format", "json"]].concat()).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "12 MB of paragraphs with NULs, danag: text {:.2}x, JSON {:.2}x the page",
        text as f64 / page_kib,
        json as f64 / page_kib
    );
    // A fifth of the page for the line's own growth and the metadata's passes over the page
    // (0.10x here): half what copying the text would cost.
    assert!(
        json as f64 <= text as f64 + 0.2 * page_kib,
        "nul as JSON: {json} KiB, as text {text} KiB"
    );
}
