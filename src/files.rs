//! File errors that name their file: every library function that reads or writes a file it
//! was given returns a [`FileError`], so the caller's message says which file failed and why
//! without the library printing anything.

use std::path::{Path, PathBuf};

/// An I/O error on one file or directory.
#[derive(Debug)]
pub struct FileError {
    /// The file or directory.
    pub path: PathBuf,
    /// What went wrong.
    pub error: std::io::Error,
}

impl FileError {
    /// A closure for `map_err` that names `path`.
    pub fn at(path: &Path) -> impl FnOnce(std::io::Error) -> FileError + '_ {
        move |error| FileError {
            path: path.to_path_buf(),
            error,
        }
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// `O_NONBLOCK` of Linux's `open(2)` (asm-generic/fcntl.h: 0o4000 on every architecture Rust
/// targets but alpha, sparc and parisc), named here rather than through the libc crate, which
/// the library does not otherwise need.
#[cfg(all(
    target_os = "linux",
    not(any(target_arch = "sparc64", target_arch = "sparc"))
))]
const O_NONBLOCK: i32 = 0o4000;

/// Opens `file` for reading when it is a regular file, never blocking: a FIFO (or a device or
/// socket) in its place is refused rather than waited on. On Linux the file is opened
/// non-blocking and checked by its handle, so a FIFO swapped in after a check on its name does
/// not block either; elsewhere the name is checked first.
pub(crate) fn open_regular(file: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(all(
        target_os = "linux",
        not(any(target_arch = "sparc64", target_arch = "sparc"))
    ))]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(O_NONBLOCK);
    }
    #[cfg(not(all(
        target_os = "linux",
        not(any(target_arch = "sparc64", target_arch = "sparc"))
    )))]
    if !std::fs::metadata(file)?.is_file() {
        return Err(not_regular());
    }
    let f = options.open(file)?;
    if !f.metadata()?.is_file() {
        return Err(not_regular());
    }
    Ok(f)
}

fn not_regular() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        "not a regular file (a FIFO, device or socket), not read",
    )
}
