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
