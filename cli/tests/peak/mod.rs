//! The peak resident memory of a run of the `pith` binary, from the kernel's account of the
//! child (`wait4`'s `ru_maxrss`), which neither the test process nor the machine's load
//! moves: shared by the memory tests (`memory.rs`, `memory_budget.rs`). Linux only.

/// Peak resident memory of the `pith` binary on `file` with `args`, in KiB, and its exit
/// code (also of runs that refuse their page).
#[allow(clippy::zombie_processes)]
pub fn binary_peak_and_code(file: &std::path::Path, args: &[&str]) -> (u64, i32) {
    // The parent's own peak, which the child's counts until it starts, is brought down to
    // what the parent has resident now.
    assert!(
        std::fs::write("/proc/self/clear_refs", "5").is_ok(),
        "clear_refs: the peak resident set cannot be reset here"
    );
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(args)
        .arg(file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run pith");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for this process's own child, writing only into the two locals.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4");
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (usage.ru_maxrss as u64, code)
}
