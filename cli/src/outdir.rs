//! `-o DIR`: a file per input in DIR, named after the input with the format's extension
//! (`page.html` → `DIR/page.txt`, `crawl.warc.gz` → `DIR/crawl.jsonl`, standard input →
//! `DIR/stdin.txt`). A WARC or JSON lines input writes JSON lines, one object per record
//! ([`pith::pipeline::Config::json_streams`]); a page given as a file is written in the
//! format. Two inputs of the same name (`a/index.html`, `b/index.html`) are named after their
//! paths (`a_index.txt`, `b_index.txt`), and `-2`, `-3` are added to names that still
//! collide: no file of the run overwrites another. A file is created when its input's first
//! document is written (an input that gives none leaves no file); a file of DIR that a run
//! writes is replaced, and one that is the input itself is an error.

use std::collections::{HashMap, HashSet};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use pith::Format;
use pith::pipeline::{At, Output};

/// Compression suffixes pith reads, dropped before the input's own extension.
const COMPRESSED: &[&str] = &["gz", "gzip", "zst", "zstd", "xz", "bz2", "bz", "bzip2"];

/// The output files of a run's inputs.
pub struct OutDir {
    dir: PathBuf,
    /// The inputs, as given.
    inputs: Vec<String>,
    /// The name of each input's file, without its extension.
    stems: Vec<String>,
    /// The extension of a page's file (a stream's is `jsonl`).
    page_ext: &'static str,
    file: Option<(PathBuf, BufWriter<std::fs::File>)>,
}

impl OutDir {
    /// The files of `inputs` in `dir` (created when missing), for output in `format` (`json`:
    /// JSON lines).
    pub fn new(
        dir: &Path,
        inputs: &[String],
        format: Format,
        json: bool,
    ) -> Result<OutDir, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let page_ext = match (json, format) {
            (true, _) => "json",
            (false, Format::Text) => "txt",
            (false, Format::Markdown) => "md",
            (false, Format::Html) => "html",
            (false, Format::Xml) => "xml",
        };
        Ok(OutDir {
            dir: dir.to_path_buf(),
            inputs: inputs.to_vec(),
            stems: stems(inputs),
            page_ext,
            file: None,
        })
    }

    /// Flushes and closes the file being written.
    fn close(&mut self) -> std::io::Result<()> {
        match self.file.take() {
            Some((path, mut f)) => f.flush().map_err(|e| at_path(&path, e)),
            None => Ok(()),
        }
    }
}

/// The error `e` naming `path`.
fn at_path(path: &Path, e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

impl Write for OutDir {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.file {
            Some((path, f)) => f.write(buf).map_err(|e| at_path(path, e)),
            // Nothing is written before an input starts ([`Output::start`]).
            None => Ok(buf.len()),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match &mut self.file {
            Some((path, f)) => f.write_all(buf).map_err(|e| at_path(path, e)),
            None => Ok(()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some((path, f)) => f.flush().map_err(|e| at_path(path, e)),
            None => Ok(()),
        }
    }
}

impl Output for OutDir {
    fn start(&mut self, at: At) -> std::io::Result<bool> {
        self.close()?;
        let stem = self.stems.get(at.input).map_or("output", String::as_str);
        let ext = if at.stream { "jsonl" } else { self.page_ext };
        let path = self.dir.join(format!("{stem}.{ext}"));
        if let Some(input) = self.inputs.get(at.input)
            && input != "-"
            && let (Ok(a), Ok(b)) = (std::fs::canonicalize(input), std::fs::canonicalize(&path))
            && a == b
        {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!("{}: is the input itself; not overwritten", path.display()),
            ));
        }
        let f = std::fs::File::create(&path).map_err(|e| at_path(&path, e))?;
        self.file = Some((path, BufWriter::new(f)));
        Ok(true)
    }
}

impl Drop for OutDir {
    fn drop(&mut self) {
        let _ = self.close();
    }
}

/// An input's name without its directory, compression suffix and extension (`stdin` for
/// standard input).
fn stem(input: &str) -> String {
    if input == "-" {
        return "stdin".into();
    }
    let name = Path::new(input)
        .file_name()
        .map_or_else(|| input.to_string(), |n| n.to_string_lossy().into_owned());
    let mut s = name.as_str();
    if let Some((base, ext)) = s.rsplit_once('.')
        && !base.is_empty()
        && COMPRESSED.contains(&ext.to_ascii_lowercase().as_str())
    {
        s = base;
    }
    if let Some((base, _)) = s.rsplit_once('.')
        && !base.is_empty()
    {
        s = base;
    }
    s.to_string()
}

/// The folders of an input's path, outermost first (`.`, `..` and the root left out).
fn folders(input: &str) -> Vec<String> {
    Path::new(input)
        .parent()
        .into_iter()
        .flat_map(|p| p.components())
        .filter_map(|c| match c {
            std::path::Component::Normal(p) => Some(p.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect()
}

/// The file names (without extension) of `inputs`: their stems, unique without regard to case
/// (a folder on macOS or Windows ignores it). Inputs whose stems collide are named after their
/// paths (`x/a/index.html` → `a_index`); a name that still collides gets `-2`, `-3`...
pub fn stems(inputs: &[String]) -> Vec<String> {
    let mut names: Vec<String> = inputs.iter().map(|i| stem(i)).collect();
    let mut count: HashMap<String, usize> = HashMap::new();
    for n in &names {
        *count.entry(n.to_lowercase()).or_insert(0) += 1;
    }
    // Each group of inputs whose stems collide: named after the fewest trailing folders of
    // their paths that tell them apart (`x/a/index.html`, `x/b/index.html` → `a_index`,
    // `b_index`).
    let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, n) in names.iter().enumerate() {
        if count.get(&n.to_lowercase()).copied().unwrap_or(0) > 1 && inputs[i] != "-" {
            groups.entry(n.to_lowercase()).or_default().push(i);
        }
    }
    let mut renamed: Vec<(usize, String)> = Vec::new();
    for members in groups.values() {
        let folders: Vec<Vec<String>> = members.iter().map(|&i| folders(&inputs[i])).collect();
        let deepest = folders.iter().map(Vec::len).max().unwrap_or(0);
        let named = |depth: usize| -> Vec<String> {
            members
                .iter()
                .zip(&folders)
                .map(|(&i, f)| {
                    let mut parts: Vec<&str> = f[f.len().saturating_sub(depth)..]
                        .iter()
                        .map(String::as_str)
                        .collect();
                    parts.push(&names[i]);
                    parts.join("_")
                })
                .collect()
        };
        // The fewest folders that tell the most members apart (the same path twice is told
        // apart by the suffixes below only).
        let mut best = (1, 0);
        for depth in 1..=deepest {
            let distinct: HashSet<String> = named(depth).iter().map(|n| n.to_lowercase()).collect();
            if distinct.len() > best.0 {
                best = (distinct.len(), depth);
            }
            if distinct.len() == members.len() {
                break;
            }
        }
        if best.1 > 0 {
            for (&i, n) in members.iter().zip(named(best.1)) {
                renamed.push((i, n));
            }
        }
    }
    for (i, n) in renamed {
        names[i] = n;
    }
    let mut used: HashSet<String> = HashSet::new();
    for name in &mut names {
        if used.insert(name.to_lowercase()) {
            continue;
        }
        let mut k = 2;
        while !used.insert(format!("{name}-{k}").to_lowercase()) {
            k += 1;
        }
        *name = format!("{name}-{k}");
    }
    names
}

#[cfg(test)]
mod tests {
    use super::stems;

    #[test]
    fn names_are_the_inputs_and_never_collide() {
        let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            stems(&v(&[
                "x/page.html",
                "crawl.warc.gz",
                "-",
                "d.jsonl.zst",
                "noext"
            ])),
            ["page", "crawl", "stdin", "d", "noext"]
        );
        assert_eq!(
            stems(&v(&[
                "/t/a/index.html",
                "/t/b/index.htm",
                "/t/c/Index.html",
                "one.html"
            ])),
            ["a_index", "b_index", "c_Index", "one"]
        );
        // As many folders as it takes.
        assert_eq!(
            stems(&v(&["/t/x/a/p.html", "/t/y/a/p.html", "/t/p.html"])),
            ["x_a_p", "y_a_p", "t_p"]
        );
        // The same path twice, and a name the suffixes would take.
        assert_eq!(
            stems(&v(&[
                "a.html", "a.html", "a-2.txt", "x/b.html", "x/b.html", "y/b.html"
            ])),
            ["a", "a-2", "a-2-2", "x_b", "x_b-2", "y_b"]
        );
    }
}
