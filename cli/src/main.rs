//! The `pith` binary: a thin shell over the library. It parses arguments (argh), dispatches
//! the subcommands, writes documents to stdout and reports to stderr (with the flag names the
//! library does not know), draws the progress line, and maps a run's summary to an exit
//! status. The allocator is set up here, once.

mod args;
mod cluster;
mod cmdline;
mod eval;
mod explain;
mod learn;
mod outdir;
mod report;
mod site;
mod stdin_url;

use mimalloc::MiMalloc;

#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

/// mimalloc v3's option numbers (`mi_option_e` in `c_src/mimalloc/v3/include/mimalloc.h` of
/// libmimalloc-sys 0.1.49; the crate's Rust bindings name only the options around them, 0-2,
/// 6-9 and 16-20, which these fall between).
const MI_OPTION_ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> std::process::ExitCode {
    // pith holds one page's working set per worker at a time: the page, its tree, its output.
    // By default mimalloc commits its arenas eagerly and keeps freed memory for 10 ms before
    // giving it back, so the working sets of a page's passes add up instead of reusing one
    // another: on a 50 MB page peak memory is 4.3x the page with the defaults and 3.3x without
    // them, at no measured cost in speed (README, "Speed").
    // SAFETY: `mi_option_set` only stores an option value; it is called before any thread is
    // started, with option numbers of the mimalloc version this binary links.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0);
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0);
    }
    // mimalloc asks the kernel for transparent huge pages on its memory (`MADV_HUGEPAGE`), so
    // the first byte written into a 2 MiB region makes all of it resident: every large vector
    // pith reserves for a page (the tree and the tokens are sized for the most tokens the page
    // could have, most of it never written) cost 4 MiB at once, and a vector grown by doubling
    // kept its old copies. Its own switch (`allow_thp`) is read before `main`, once the
    // memory is already asked for; the kernel's per-process switch holds for every later page
    // fault. No measured cost in speed (README, "Speed"); on a kernel without it the call
    // fails and nothing changes.
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and changes only this process's flag.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    args::main()
}
