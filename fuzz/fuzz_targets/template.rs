//! The site-template loader (`Family::from_bytes`: a host's templates, format version 1 or 2) on arbitrary bytes: no panic; an error
//! always names the file; the bytes allocated while loading stay within what the file's size
//! justifies; and a template that loads round-trips (`to_bytes`, then `from_bytes`, gives an
//! equal template, and writing it again gives the same bytes).
//!
//! A random mutation almost never keeps the trailing FNV-1a checksum right, so each input is
//! loaded twice: as it is (the checksum test itself), and resealed with the right checksum, so
//! that the fuzzer reaches the table parsing behind it.
#![no_main]
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;

use libfuzzer_sys::fuzz_target;
use pith::lab::extract::blocks::{FNV_OFFSET, fnv1a};
use pith::site::{Family, VERSION};

/// Counts the bytes this thread holds while loading, and their peak.
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn add(delta: isize) {
    // `try_with`: the allocator also runs while thread-locals are torn down.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        add(layout.size() as isize);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        add(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        add(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The most a file of `len` bytes may cost in memory while it loads. Every table item takes
/// at least a quarter of its in-memory size in file bytes (a non-content block: 10 bytes in the
/// file, 40 in memory; a content path: 10 and 32 plus its name, which is in the file too), so
/// 4 bytes per file byte, plus room for an error message and the file's name.
fn budget(len: usize) -> isize {
    (4 * len + 4096) as isize
}

const FILE: &str = "STORE/fuzz.example.tpl";

fn check(bytes: &[u8]) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let loaded = Family::from_bytes(bytes, Path::new(FILE));
    let used = PEAK.with(Cell::get) - base;
    assert!(
        used <= budget(bytes.len()),
        "loading {} bytes allocated {used} bytes at its peak",
        bytes.len()
    );
    match loaded {
        Err(e) => {
            assert!(
                e.to_string().starts_with(&format!("template {FILE}: ")),
                "{e}"
            );
            assert!(!e.fault.to_string().is_empty());
        }
        Ok(t) => {
            let written = t.to_bytes();
            let again = Family::from_bytes(&written, Path::new(FILE))
                .unwrap_or_else(|e| panic!("a loaded template does not reload: {e}"));
            assert_eq!(again, t, "to_bytes then from_bytes changed the template");
            assert_eq!(again.to_bytes(), written, "writing is not stable");
            // The reserved fields are ignored on reading, so only the rest must be the file;
            // a version 1 file is written back as the current version, in another layout.
            if bytes.get(8..10) == Some(VERSION.to_le_bytes().as_slice()) {
                assert_eq!(written.len(), bytes.len());
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);
    if let Some(n) = data.len().checked_sub(8) {
        let mut sealed = data.to_vec();
        let sum = fnv1a(FNV_OFFSET, &sealed[..n]);
        sealed[n..].copy_from_slice(&sum.to_le_bytes());
        check(&sealed);
    }
});
