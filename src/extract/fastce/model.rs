//! FastCE's model: the site template FastContentExtractor's preparation phase learns from pages of one site
//! (Nguyen et al. 2009, Section III, Figure 4), stored as one small binary file per host.
//!
//! A template holds the set P of traversal paths of content blocks, the non-content blocks whose
//! path is in P with their feature vectors (Section III: "we also store in the template the
//! content of non-content blocks which have the path as content blocks"), and, beyond the paper,
//! the set of every path seen in the training pages, which tells a page of another layout (no
//! longer matching the template) from one of the learned layout, so that it falls back to `auto`.
//!
//! A host may have several templates, one per cluster of its pages (`crate::site::cluster`, TEXT-MDL over
//! the pages' template paths, `crate::site::paths`): a [`Family`]. Each member carries the MinHash
//! signature of its cluster's template paths (shown by `template show`), and a page goes to the
//! member whose known block paths are nearest its own ([`Family::pick`]).
//!
//! The file format (all integers little-endian), version [`VERSION`]:
//!
//! ```text
//! magic "PITHTPL\0" | version u16 = 2 | reserved u16 | members u16 | signature length u16
//! host: len u16, bytes
//! per member: template paths u32 | signature: u64 x signature length | template body
//! checksum u64: FNV-1a 64 of every byte before it
//! ```
//!
//! A template body (also the whole of a version 1 file, between its `reserved u16` and its
//! checksum, which pith still reads as a family of one template without a signature):
//!
//! ```text
//! dims u16 | reserved u16
//! similarity f32 | share f32 | min_match f32 | pages u32 | min_words u32
//! host: len u16, bytes
//! P: count u32, then per path: hash u64, name len u16, name bytes (html.body.div.p)
//! known paths: count u32, then hash u64 each
//! non-content blocks: count u32, then per block: path u64, entries u16, (dim u16, count u16)...
//! fingerprints of every non-content block: count u32, then u64 each
//! ```
//!
//! Loading never trusts a count: each is checked against the bytes left before anything is
//! allocated for it, and the file itself is read only up to [`MAX_FILE`] bytes, so a hostile file
//! costs at most its own size. Every fault is a [`LoadError`] naming the file.

use std::path::{Path, PathBuf};

use crate::extract::binary::{Reader, Short};
use crate::extract::blocks::{DIMS, FNV_OFFSET, Features, fnv1a};

/// The first eight bytes of every template file.
pub const MAGIC: &[u8; 8] = b"PITHTPL\0";
/// The format version this pith writes (it reads this one and version 1).
pub const VERSION: u16 = 2;
/// The largest signature a file may declare or `--signature` accept
/// (the default signature of `crate::site::cluster` is 128): 32 KiB a template, and past a few hundred
/// positions MinHash's error (about 1/sqrt(k)) hardly shrinks while each page costs k hashes
/// per path.
pub const MAX_SIGNATURE: u16 = 4096;
/// The largest template file read (a typical one is a few KiB; the target is under 64 KiB).
pub const MAX_FILE: u64 = 16 << 20;
/// File name extension of a template in a store directory: `STORE/<host>.tpl`.
pub const EXT: &str = "tpl";

/// Default share of a page's blocks whose paths the template knows, below which the page
/// is taken for another layout and falls back to `auto` (a majority, as CE's threshold).
pub const DEFAULT_MIN_MATCH: f32 = 0.5;

/// A learned site template.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    /// The host whose pages it was learned from.
    pub host: String,
    /// Dimensions of the feature vectors it was learned with.
    pub dims: u16,
    /// Cosine above which two blocks are similar (paper: 0.9).
    pub similarity: f32,
    /// CE's threshold the template was learned with (share of other pages).
    pub share: f32,
    /// Fallback to `auto` when less than this share of a page's blocks have known paths.
    pub min_match: f32,
    /// Pages it was learned from.
    pub pages: u32,
    /// The fewest content words CE found in a training page; a page where FastCE finds less
    /// than half as many is taken not to match (another kind of page under the same paths).
    pub min_words: u32,
    /// P: content-block paths, sorted by hash, with their dotted names.
    pub paths: Vec<(u64, String)>,
    /// Every block path of the training pages, sorted: the layout a page must share.
    pub known: Vec<u64>,
    /// Non-content blocks whose path is in P, sorted by path.
    pub noncontent: Vec<(u64, Features)>,
    /// Fingerprints (`Features::fingerprint`) of every non-content block of the training
    /// pages, at any path, sorted: a block identical to one of them (cosine 1) is non-content
    /// wherever it sits, at 8 bytes a block instead of a whole vector.
    pub fingerprints: Vec<u64>,
}

impl Template {
    /// Whether `path` is in P.
    pub fn in_p(&self, path: u64) -> bool {
        self.paths.binary_search_by_key(&path, |p| p.0).is_ok()
    }

    /// Whether any training page had a block at `path`.
    pub fn knows(&self, path: u64) -> bool {
        self.known.binary_search(&path).is_ok()
    }

    /// Whether a block with this vector fingerprint was non-content in training.
    pub fn known_noncontent(&self, fingerprint: u64) -> bool {
        self.fingerprints.binary_search(&fingerprint).is_ok()
    }

    /// Where the stored non-content blocks at `path` are in `noncontent` (detection looks up
    /// a run of blocks at one path once and keeps the range).
    pub fn noncontent_range(&self, path: u64) -> std::ops::Range<usize> {
        let lo = self.noncontent.partition_point(|b| b.0 < path);
        let hi = self.noncontent.partition_point(|b| b.0 <= path);
        lo..hi
    }

    /// The body of the template in a file (module comment).
    fn write_body(&self, b: &mut Vec<u8>) {
        b.extend_from_slice(&self.dims.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&self.similarity.to_le_bytes());
        b.extend_from_slice(&self.share.to_le_bytes());
        b.extend_from_slice(&self.min_match.to_le_bytes());
        b.extend_from_slice(&self.pages.to_le_bytes());
        b.extend_from_slice(&self.min_words.to_le_bytes());
        let host = truncate(&self.host, u16::MAX as usize);
        b.extend_from_slice(&(host.len() as u16).to_le_bytes());
        b.extend_from_slice(host.as_bytes());
        b.extend_from_slice(&(self.paths.len() as u32).to_le_bytes());
        for (h, name) in &self.paths {
            b.extend_from_slice(&h.to_le_bytes());
            let name = truncate(name, u16::MAX as usize);
            b.extend_from_slice(&(name.len() as u16).to_le_bytes());
            b.extend_from_slice(name.as_bytes());
        }
        b.extend_from_slice(&(self.known.len() as u32).to_le_bytes());
        for h in &self.known {
            b.extend_from_slice(&h.to_le_bytes());
        }
        b.extend_from_slice(&(self.noncontent.len() as u32).to_le_bytes());
        for (path, f) in &self.noncontent {
            b.extend_from_slice(&path.to_le_bytes());
            let n = f.entries.len().min(u16::MAX as usize);
            b.extend_from_slice(&(n as u16).to_le_bytes());
            for (d, c) in f.entries.iter().take(n) {
                b.extend_from_slice(&d.to_le_bytes());
                b.extend_from_slice(&c.to_le_bytes());
            }
        }
        b.extend_from_slice(&(self.fingerprints.len() as u32).to_le_bytes());
        for h in &self.fingerprints {
            b.extend_from_slice(&h.to_le_bytes());
        }
    }

    /// The template alone as a version 1 file, the format pith wrote before families: what
    /// older stores hold, and what the tests check that pith still reads.
    pub fn to_v1_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        self.write_body(&mut b);
        let sum = fnv1a(FNV_OFFSET, &b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads a template body (module comment) from `r`.
    fn read_body(r: &mut Reader<'_>) -> Result<Template, TemplateFault> {
        let dims = r.u16()?;
        if dims != DIMS {
            return Err(TemplateFault::Dimensions(dims));
        }
        r.u16()?;
        let similarity = r.f32()?;
        let share = r.f32()?;
        let min_match = r.f32()?;
        for (name, v) in [
            ("similarity", similarity),
            ("share", share),
            ("min_match", min_match),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(TemplateFault::Parameter(name, v));
            }
        }
        let pages = r.u32()?;
        let min_words = r.u32()?;
        let host = string(r)?;
        let n = r.count(8 + 2)?;
        let mut paths = Vec::with_capacity(n);
        for _ in 0..n {
            let h = r.u64()?;
            paths.push((h, string(r)?));
        }
        let n = r.count(8)?;
        let mut known = Vec::with_capacity(n);
        for _ in 0..n {
            known.push(r.u64()?);
        }
        let n = r.count(8 + 2)?;
        let mut noncontent = Vec::with_capacity(n);
        for _ in 0..n {
            let path = r.u64()?;
            let m = r.count16(4)?;
            let mut entries = Vec::with_capacity(m);
            for _ in 0..m {
                let d = r.u16()?;
                let c = r.u16()?;
                if d >= DIMS || entries.last().is_some_and(|&(p, _)| p >= d) {
                    return Err(TemplateFault::FeatureOrder);
                }
                entries.push((d, c));
            }
            noncontent.push((path, Features::from_entries(entries)));
        }
        let n = r.count(8)?;
        let mut fingerprints = Vec::with_capacity(n);
        for _ in 0..n {
            fingerprints.push(r.u64()?);
        }
        let sorted = paths.windows(2).all(|w| w[0].0 < w[1].0)
            && known.windows(2).all(|w| w[0] < w[1])
            && noncontent.windows(2).all(|w| w[0].0 <= w[1].0)
            && fingerprints.windows(2).all(|w| w[0] < w[1]);
        if !sorted {
            return Err(TemplateFault::Unsorted);
        }
        Ok(Template {
            host,
            dims,
            similarity,
            share,
            min_match,
            pages,
            min_words,
            paths,
            known,
            noncontent,
            fingerprints,
        })
    }

    /// The template as JSON, for people (`pith template show`).
    pub fn to_json(&self) -> serde_json::Value {
        let noncontent: Vec<serde_json::Value> = self
            .noncontent
            .iter()
            .map(|(path, f)| {
                let name = self
                    .paths
                    .binary_search_by_key(path, |p| p.0)
                    .ok()
                    .and_then(|i| self.paths.get(i))
                    .map_or("", |p| p.1.as_str());
                let count = |d: u16| f.entries.iter().find(|e| e.0 == d).map_or(0, |e| e.1);
                serde_json::json!({
                    "path": name,
                    "words": f.words(),
                    "images": count(crate::extract::blocks::DIM_IMAGES),
                    "scripts": count(crate::extract::blocks::DIM_SCRIPTS),
                    "links": count(crate::extract::blocks::DIM_LINKS),
                    "dimensions": f.entries.len(),
                })
            })
            .collect();
        serde_json::json!({
            "host": self.host,
            "pages": self.pages,
            "min_words": self.min_words,
            "parameters": {
                "dimensions": self.dims,
                "similarity": round6(self.similarity),
                "share": round6(self.share),
                "min_match": round6(self.min_match),
            },
            "content_paths": self.paths.iter().map(|p| p.1.clone()).collect::<Vec<_>>(),
            "known_paths": self.known.len(),
            "noncontent_fingerprints": self.fingerprints.len(),
            "noncontent_blocks": noncontent,
        })
    }
}

/// The number of values two sorted, deduplicated lists share (one merge).
pub(crate) fn sorted_overlap(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        match x.cmp(y) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

/// An f32 parameter as the decimal it was written as (0.9, not 0.8999999761581421).
fn round6(x: f32) -> f64 {
    (f64::from(x) * 1e6).round() / 1e6
}

/// One template of a host's family: a FastCE template learned from one cluster of the host's
/// pages, with the MinHash signature of that cluster's template paths and their number.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// The FastCE template learned from the cluster.
    pub template: Template,
    /// MinHash signature (`crate::site::cluster::MinHasher`) of the cluster's template paths; empty for a template
    /// read from a version 1 file (it then takes every page, as before families).
    pub signature: Vec<u64>,
    /// The number of the cluster's template paths (|T| in `crate::site::cluster::nearest_template`).
    pub paths: u32,
}

/// Every template of one host: what a store file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Family {
    /// The host, written once in the file (`STORE/<host>.tpl`).
    pub host: String,
    /// The host's templates, one per cluster of its pages.
    pub members: Vec<Member>,
}

impl Family {
    /// A family of one template without a signature (every page of the host goes to it).
    pub fn single(template: Template) -> Family {
        Family {
            host: template.host.clone(),
            members: vec![Member {
                template,
                signature: Vec::new(),
                paths: 0,
            }],
        }
    }

    /// The signature length of the members (all share it); 0 when they have none.
    pub fn signature_len(&self) -> usize {
        self.members.first().map_or(0, |m| m.signature.len())
    }

    /// The member for a page, by its layout (its distinct block paths, sorted:
    /// [`crate::extract::blocks::layout`]): the member whose template's known paths (every
    /// block path of its cluster's training pages) differ from the page's in the fewest paths,
    /// the symmetric difference |page| + |known| - 2 |both| that `crate::site::cluster::nearest_template`
    /// estimates from signatures; `None` when no member shares a path with the page. The sets
    /// are exact and the block paths are found anyway for detection, so picking costs one
    /// merge per member instead of the page's template paths (hashing every text node) and a
    /// MinHash signature of them (k multiplications per path): on msv_big9 that was about
    /// two-thirds of `auto`'s time on each page of a host with several templates
    /// (`examples/templates_profile.rs` under callgrind). The clusters themselves are still
    /// found on template paths; their signatures stay in the file (`template show`).
    /// A family of one template gives it without looking at the page.
    pub fn pick(&self, layout: impl FnOnce() -> Vec<u64>) -> Option<usize> {
        if self.members.len() <= 1 {
            return (!self.members.is_empty()).then_some(0);
        }
        let layout = layout();
        let mut best: Option<(usize, usize)> = None;
        for (i, m) in self.members.iter().enumerate() {
            let both = sorted_overlap(&layout, &m.template.known);
            if both == 0 {
                continue;
            }
            let diff = layout.len() + m.template.known.len() - 2 * both;
            if best.is_none_or(|(_, d)| diff < d) {
                best = Some((i, diff));
            }
        }
        best.map(|b| b.0)
    }

    /// The label of member `i` in JSON's `algo`: `fastce+auto` when the host has one template,
    /// `fastce+auto:HOST#i` (the cluster's number) when it has several.
    pub fn label(&self, i: usize) -> String {
        if self.members.len() <= 1 {
            "fastce+auto".to_string()
        } else {
            format!("fastce+auto:{}#{i}", self.host)
        }
    }

    /// The binary file (version [`VERSION`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let k = self
            .members
            .iter()
            .map(|m| m.signature.len())
            .max()
            .unwrap_or(0)
            .min(MAX_SIGNATURE as usize);
        let n = self.members.len().min(u16::MAX as usize);
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&(n as u16).to_le_bytes());
        b.extend_from_slice(&(k as u16).to_le_bytes());
        let host = truncate(&self.host, u16::MAX as usize);
        b.extend_from_slice(&(host.len() as u16).to_le_bytes());
        b.extend_from_slice(host.as_bytes());
        for m in self.members.iter().take(n) {
            b.extend_from_slice(&m.paths.to_le_bytes());
            for i in 0..k {
                let v = m.signature.get(i).copied().unwrap_or(u64::MAX);
                b.extend_from_slice(&v.to_le_bytes());
            }
            m.template.write_body(&mut b);
        }
        let sum = fnv1a(FNV_OFFSET, &b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Parses a template file's bytes, version 1 or [`VERSION`]. `file` names the file in
    /// errors.
    pub fn from_bytes(bytes: &[u8], file: &Path) -> Result<Family, LoadError> {
        let err = |fault: TemplateFault| LoadError {
            file: file.to_path_buf(),
            fault,
        };
        if bytes.len() < MAGIC.len() || bytes.get(..MAGIC.len()) != Some(MAGIC.as_slice()) {
            return Err(err(TemplateFault::Magic));
        }
        let mut r = Reader::new(bytes, MAGIC.len());
        let version = r.u16().map_err(|s| err(s.into()))?;
        if version > VERSION {
            return Err(err(TemplateFault::Newer(version)));
        }
        if version == 0 {
            return Err(err(TemplateFault::VersionZero));
        }
        // The checksum covers everything before the last eight bytes.
        let Some(body_len) = bytes.len().checked_sub(8) else {
            return Err(err(TemplateFault::NoChecksum));
        };
        let (body, tail) = bytes.split_at(body_len);
        let mut stored = [0u8; 8];
        stored.copy_from_slice(tail);
        if body_len < r.pos() || fnv1a(FNV_OFFSET, body) != u64::from_le_bytes(stored) {
            return Err(err(TemplateFault::Checksum));
        }
        let mut r = Reader::new(body, r.pos());
        let parse = |r: &mut Reader<'_>| -> Result<Family, TemplateFault> {
            r.u16()?;
            let family = if version == 1 {
                Family::single(Template::read_body(r)?)
            } else {
                let at = r.pos();
                let n = r.u16()? as usize;
                let k = r.u16()?;
                if k > MAX_SIGNATURE {
                    return Err(TemplateFault::Signature(k));
                }
                let host = string(r)?;
                // Each member takes at least its path count, its signature and a body of
                // 36 bytes (the fixed fields and four empty counts).
                let n = r.check(n, 4 + 8 * k as usize + 36, at)?;
                let mut members = Vec::with_capacity(n);
                for _ in 0..n {
                    let paths = r.u32()?;
                    let mut signature = Vec::with_capacity(k as usize);
                    for _ in 0..k {
                        signature.push(r.u64()?);
                    }
                    members.push(Member {
                        template: Template::read_body(r)?,
                        signature,
                        paths,
                    });
                }
                if members.is_empty() {
                    return Err(TemplateFault::Empty);
                }
                Family { host, members }
            };
            if r.left() != 0 {
                return Err(TemplateFault::Trailing(r.left()));
            }
            Ok(family)
        };
        parse(&mut r).map_err(err)
    }

    /// Reads a template file (at most [`MAX_FILE`] bytes).
    pub fn load(file: &Path) -> Result<Family, LoadError> {
        use std::io::Read;
        let err = |fault: TemplateFault| LoadError {
            file: file.to_path_buf(),
            fault,
        };
        let f = crate::files::open_regular(file)
            .map_err(|e| err(TemplateFault::Io(e.kind(), e.to_string())))?;
        let mut bytes = Vec::new();
        f.take(MAX_FILE + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| err(TemplateFault::Io(e.kind(), e.to_string())))?;
        if bytes.len() as u64 > MAX_FILE {
            return Err(err(TemplateFault::TooLarge));
        }
        Family::from_bytes(&bytes, file)
    }

    /// The family as JSON, for people (`pith template show`): each member's template, its
    /// cluster's number of template paths and signature length (the signature itself is
    /// opaque hashes).
    pub fn to_json(&self) -> serde_json::Value {
        let members: Vec<serde_json::Value> = self
            .members
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let mut v = m.template.to_json();
                if let Some(o) = v.as_object_mut() {
                    o.insert("cluster".into(), serde_json::json!(i));
                    o.insert("algo".into(), serde_json::json!(self.label(i)));
                    o.insert("template_paths".into(), serde_json::json!(m.paths));
                    o.insert(
                        "signature_length".into(),
                        serde_json::json!(m.signature.len()),
                    );
                }
                v
            })
            .collect();
        serde_json::json!({
            "format_version": VERSION,
            "host": self.host,
            "templates": members,
        })
    }
}

fn truncate(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.get(..end).unwrap_or("")
}

/// A template that could not be used, with the file it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadError {
    /// The template file.
    pub file: PathBuf,
    /// Why it could not be used.
    pub fault: TemplateFault,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "template {}: {}", self.file.display(), self.fault)
    }
}

/// Why a template file could not be used: the reader checks every field and count before it
/// trusts it, and names the first one that fails.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum TemplateFault {
    /// The file could not be opened or read.
    Io(std::io::ErrorKind, String),
    /// Larger than [`MAX_FILE`] bytes.
    TooLarge,
    /// It does not start with [`MAGIC`].
    Magic,
    /// Written by a newer pith (its format version).
    Newer(u16),
    /// Format version 0, which no pith writes.
    VersionZero,
    /// Too short to hold its checksum.
    NoChecksum,
    /// The checksum does not match: the file is truncated or corrupt.
    Checksum,
    /// A field or a table ends past the end of the file (at this byte).
    Truncated(usize),
    /// A count (the first value) at a byte (the second) needs more bytes than are left.
    Count(usize, usize),
    /// A host or path name is not UTF-8.
    NotUtf8,
    /// Learned with this many feature dimensions, not `DIMS`.
    Dimensions(u16),
    /// A parameter outside 0..1: its name and value.
    Parameter(&'static str, f32),
    /// A feature vector is out of order or out of range.
    FeatureOrder,
    /// The path tables are not sorted.
    Unsorted,
    /// A signature longer than [`MAX_SIGNATURE`].
    Signature(u16),
    /// A family without templates.
    Empty,
    /// This many bytes follow the last template.
    Trailing(usize),
}

impl std::fmt::Display for TemplateFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TemplateFault::Io(_, e) => write!(f, "{e}"),
            TemplateFault::TooLarge => write!(f, "larger than {MAX_FILE} bytes"),
            TemplateFault::Magic => write!(f, "not a pith template (bad magic bytes)"),
            TemplateFault::Newer(v) => write!(
                f,
                "template format version {v} is newer than this pith reads ({VERSION}); \
                 relearn it or upgrade pith"
            ),
            TemplateFault::VersionZero => write!(f, "template format version 0 is invalid"),
            TemplateFault::NoChecksum => write!(f, "truncated (no checksum)"),
            TemplateFault::Checksum => write!(
                f,
                "checksum mismatch (file truncated or corrupt); relearn it"
            ),
            TemplateFault::Truncated(at) => write!(f, "truncated at byte {at}"),
            TemplateFault::Count(n, at) => write!(
                f,
                "count {n} at byte {at} needs more bytes than the file has"
            ),
            TemplateFault::NotUtf8 => write!(f, "a name is not UTF-8"),
            TemplateFault::Dimensions(d) => write!(
                f,
                "learned with {d} feature dimensions, this pith uses {DIMS}"
            ),
            TemplateFault::Parameter(name, v) => {
                write!(f, "parameter {name} = {v} out of range 0..1")
            }
            TemplateFault::FeatureOrder => write!(f, "feature vector out of order or out of range"),
            TemplateFault::Unsorted => write!(f, "path tables are not sorted"),
            TemplateFault::Signature(k) => write!(
                f,
                "signature length {k} is over the largest pith reads ({MAX_SIGNATURE})"
            ),
            TemplateFault::Empty => write!(f, "no template in the file"),
            TemplateFault::Trailing(n) => write!(f, "{n} bytes of trailing data"),
        }
    }
}

impl std::error::Error for LoadError {}

impl From<Short> for TemplateFault {
    fn from(s: Short) -> TemplateFault {
        match s {
            Short::End(at) => TemplateFault::Truncated(at),
            Short::Count(n, at) => TemplateFault::Count(n, at),
        }
    }
}

/// A u16 length and that many bytes of UTF-8.
fn string(r: &mut Reader<'_>) -> Result<String, TemplateFault> {
    let n = usize::from(r.u16()?);
    let b = r.take(n)?;
    String::from_utf8(b.to_vec()).map_err(|_| TemplateFault::NotUtf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(known: Vec<u64>) -> Member {
        Member {
            template: Template {
                host: "h".into(),
                dims: DIMS,
                similarity: 0.9,
                share: 0.5,
                min_match: DEFAULT_MIN_MATCH,
                pages: 3,
                min_words: 0,
                paths: Vec::new(),
                known,
                noncontent: Vec::new(),
                fingerprints: Vec::new(),
            },
            signature: Vec::new(),
            paths: 0,
        }
    }

    #[test]
    fn a_page_goes_to_the_template_whose_known_paths_differ_least() {
        let f = Family {
            host: "h".into(),
            members: vec![
                member((0..10).collect()),
                member((5..40).collect()),
                member((100..110).collect()),
            ],
        };
        // 0..12: 10 shared with the first (2 + 0 apart), 7 with the second (5 + 28 apart).
        assert_eq!(f.pick(|| (0..12).collect()), Some(0));
        // 5..35: the second holds all of it; the first shares 5 and misses 25.
        assert_eq!(f.pick(|| (5..35).collect()), Some(1));
        // A page that shares only one path with the third (and none with the others).
        assert_eq!(f.pick(|| vec![109, 500, 501]), Some(2));
        // Nothing shared: no template.
        assert_eq!(f.pick(|| vec![1000, 1001]), None);
        assert_eq!(sorted_overlap(&[1, 3, 5, 7], &[2, 3, 4, 7, 9]), 2);
        // One template: no look at the page.
        let one = Family {
            host: "h".into(),
            members: vec![member(vec![1])],
        };
        assert_eq!(one.pick(|| panic!("not needed")), Some(0));
    }
}
