//! The model files the trainers write (`lab/train/common.py`, `write_model_file`) and the
//! library compiles in with `include_bytes!`: the block model (`block.model`) and the page
//! models (`crate::page::model`'s `page.model`). Data, not code: a retrained model changes a
//! file, not the source.
//!
//! The layout, little-endian:
//! - `PITHMODL`, the format's version (u32, [`VERSION`]) and the FNV-1a 64 hash of every byte
//!   after the hash (u64): a file cut short or altered is refused as a whole;
//! - then named entries to the end, each a kind byte, a name (u8 length, UTF-8) and:
//!   - `1`, strings: a u32 count, then each as a u16 length and UTF-8;
//!   - `2`, numbers: a u32 count, then each an f64;
//!   - `3`, a forest: u32 outputs, inputs, trees, splits, leaves and category words; each
//!     tree's root (i32); each split as u16 feature, u16 category words (0: numeric), i32 left,
//!     i32 right and u64 value (a numeric split's threshold as f64 bits, a categorical one's
//!     first word); each leaf (f64); each category word (u64).
//!
//! Like the template file reader ([`crate::site::store`]), it never trusts a count: each one
//! is checked against the bytes left before anything is allocated for it, and a forest is
//! checked whole before it is used: every child lies after its parent and inside the arrays
//! (so a walk ends), every feature inside the row, every bit set inside the words.

use std::fmt;

use super::forest::{Forest, Node, down32};
use crate::extract::binary::{Reader, Short};
use crate::extract::blocks::{FNV_OFFSET, fnv1a};

/// The file's first bytes.
pub(crate) const MAGIC: &[u8; 8] = b"PITHMODL";
/// The format's version this reader reads.
pub(crate) const VERSION: u32 = 1;

/// Why a model file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// It does not start with [`MAGIC`].
    Magic,
    /// It is of another version of the format.
    Version(u32),
    /// Its bytes do not hash to the hash it carries.
    Checksum,
    /// It ends inside an entry.
    Truncated,
    /// An entry is malformed: what is wrong, and the entry's name.
    Invalid(&'static str, String),
    /// An entry the caller needs is not there (or not of the kind asked for).
    Missing(String),
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::Magic => write!(f, "not a pith model file"),
            ModelError::Version(v) => {
                write!(f, "model file version {v}, this reader reads {VERSION}")
            }
            ModelError::Checksum => write!(f, "model file checksum mismatch"),
            ModelError::Truncated => write!(f, "model file ends inside an entry"),
            ModelError::Invalid(what, name) => write!(f, "model entry {name:?}: {what}"),
            ModelError::Missing(name) => write!(f, "model entry {name:?} is missing"),
        }
    }
}

impl std::error::Error for ModelError {}

/// One entry's value.
#[derive(Clone, Debug, PartialEq)]
enum Entry {
    Strings(Vec<String>),
    Numbers(Vec<f64>),
    /// Boxed: a forest holds its compact trees' array beside its vectors.
    Forest(Box<Forest>),
}

/// A model file, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ModelFile {
    entries: Vec<(String, Entry)>,
}

impl From<Short> for ModelError {
    fn from(_: Short) -> ModelError {
        ModelError::Truncated
    }
}

/// `len` bytes of UTF-8, the name of an entry or in entry `name`.
fn utf8(b: &mut Reader<'_>, len: usize, name: &str) -> Result<String, ModelError> {
    let bytes = b.take(len)?;
    String::from_utf8(bytes.to_vec())
        .map_err(|_| ModelError::Invalid("a name that is not UTF-8", name.to_string()))
}

impl ModelFile {
    /// Reads and checks a model file.
    pub(crate) fn parse(bytes: &[u8]) -> Result<ModelFile, ModelError> {
        let mut b = Reader::new(bytes, 0);
        if b.take(MAGIC.len()).map_err(|_| ModelError::Magic)? != MAGIC {
            return Err(ModelError::Magic);
        }
        let version = b.u32()?;
        if version != VERSION {
            return Err(ModelError::Version(version));
        }
        let hash = b.u64()?;
        if fnv1a(FNV_OFFSET, b.rest()) != hash {
            return Err(ModelError::Checksum);
        }
        let mut entries: Vec<(String, Entry)> = Vec::new();
        while b.left() != 0 {
            let kind = b.u8()?;
            let len = usize::from(b.u8()?);
            let name = utf8(&mut b, len, "")?;
            let entry = match kind {
                1 => {
                    let n = b.count(2)?;
                    let mut v = Vec::with_capacity(n);
                    for _ in 0..n {
                        let len = usize::from(b.u16()?);
                        v.push(utf8(&mut b, len, &name)?);
                    }
                    Entry::Strings(v)
                }
                2 => {
                    let n = b.count(8)?;
                    Entry::Numbers((0..n).map(|_| b.f64()).collect::<Result<_, _>>()?)
                }
                3 => Entry::Forest(Box::new(read_forest(&mut b, &name)?)),
                _ => return Err(ModelError::Invalid("an unknown kind of entry", name)),
            };
            if entries.iter().any(|(n, _)| *n == name) {
                return Err(ModelError::Invalid("a name given twice", name));
            }
            entries.push((name, entry));
        }
        Ok(ModelFile { entries })
    }

    fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, e)| e)
    }

    /// The strings entry `name`.
    pub(crate) fn strings(&self, name: &str) -> Result<&[String], ModelError> {
        match self.get(name) {
            Some(Entry::Strings(v)) => Ok(v),
            _ => Err(ModelError::Missing(name.to_string())),
        }
    }

    /// The numbers entry `name`.
    pub(crate) fn numbers(&self, name: &str) -> Result<&[f64], ModelError> {
        match self.get(name) {
            Some(Entry::Numbers(v)) => Ok(v),
            _ => Err(ModelError::Missing(name.to_string())),
        }
    }

    /// The forest entry `name`, taken out of the file (no copy of its arrays).
    pub(crate) fn take_forest(&mut self, name: &str) -> Result<Forest, ModelError> {
        let at = self
            .entries
            .iter()
            .position(|(n, e)| n == name && matches!(e, Entry::Forest(_)));
        match at.map(|i| self.entries.swap_remove(i).1) {
            Some(Entry::Forest(f)) => Ok(*f),
            _ => Err(ModelError::Missing(name.to_string())),
        }
    }

    /// The forest entry `name`.
    #[cfg(test)]
    pub(crate) fn forest(&self, name: &str) -> Result<&Forest, ModelError> {
        match self.get(name) {
            Some(Entry::Forest(f)) => Ok(f.as_ref()),
            _ => Err(ModelError::Missing(name.to_string())),
        }
    }
}

/// A forest entry, checked whole (see the module doc).
fn read_forest(b: &mut Reader<'_>, name: &str) -> Result<Forest, ModelError> {
    let bad = |what: &'static str| ModelError::Invalid(what, name.to_string());
    let outputs = b.u32()? as usize;
    let inputs = b.u32()? as usize;
    let (trees, splits, leaves, words) = (b.u32()?, b.u32()?, b.u32()?, b.u32()?);
    let need = (trees as usize)
        .saturating_mul(4)
        .saturating_add((splits as usize).saturating_mul(20))
        .saturating_add((leaves as usize).saturating_mul(8))
        .saturating_add((words as usize).saturating_mul(8));
    if need > b.left() {
        return Err(ModelError::Truncated);
    }
    if outputs == 0 || inputs > usize::from(u16::MAX) + 1 || splits > i32::MAX as u32 {
        return Err(bad("outputs, inputs or splits out of range"));
    }
    let roots = (0..trees).map(|_| b.i32()).collect::<Result<Vec<_>, _>>()?;
    let mut nodes = Vec::with_capacity(splits as usize);
    for _ in 0..splits {
        let feature = b.u16()?;
        let cat_words = b.u16()?;
        let (left, right, value) = (b.i32()?, b.i32()?, b.u64()?);
        let thr32 = if cat_words == 0 {
            let t = f64::from_bits(value);
            if t.is_nan() {
                return Err(bad("a NaN threshold"));
            }
            down32(t)
        } else {
            0.0
        };
        nodes.push(Node {
            value,
            left,
            right,
            thr32,
            feature,
            cat_words,
        });
    }
    let leaves = (0..leaves)
        .map(|_| b.f64())
        .collect::<Result<Vec<_>, _>>()?;
    let cats = (0..words).map(|_| b.u64()).collect::<Result<Vec<_>, _>>()?;
    // A child is a later split or a leaf that exists; a root, a split or a leaf that exists.
    let child_ok = |c: i32, after: i64| {
        if c >= 0 {
            i64::from(c) > after && (c as usize) < nodes.len()
        } else {
            (!c as usize) < leaves.len()
        }
    };
    if !roots.iter().all(|&r| child_ok(r, -1)) {
        return Err(bad("a root outside the arrays"));
    }
    let mut categorical = vec![false; inputs];
    for (i, n) in nodes.iter().enumerate() {
        if !child_ok(n.left, i as i64) || !child_ok(n.right, i as i64) {
            return Err(bad("a child before its parent or outside the arrays"));
        }
        let Some(cat) = categorical.get_mut(usize::from(n.feature)) else {
            return Err(bad("a feature outside the row"));
        };
        if n.cat_words > 0 {
            let end = n.value.saturating_add(u64::from(n.cat_words));
            if end > cats.len() as u64 {
                return Err(bad("a category set outside the words"));
            }
            *cat = true;
        }
    }
    if nodes
        .iter()
        .any(|n| n.cat_words == 0 && categorical[usize::from(n.feature)])
    {
        return Err(bad("a feature split both as a number and as a category"));
    }
    Ok(Forest::new(outputs, inputs, roots, nodes, leaves, cats))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of the given entries' bytes, with its header.
    fn file(body: &[u8]) -> Vec<u8> {
        let mut f = MAGIC.to_vec();
        f.extend(VERSION.to_le_bytes());
        f.extend(fnv1a(FNV_OFFSET, body).to_le_bytes());
        f.extend(body);
        f
    }

    /// One forest "f" of one tree: x0 <= 0.5 ? 1.0 : 2.0, and strings "s" ["a", "bc"].
    fn body() -> Vec<u8> {
        let mut b = vec![1, 1, b's'];
        b.extend(2u32.to_le_bytes());
        b.extend(1u16.to_le_bytes());
        b.push(b'a');
        b.extend(2u16.to_le_bytes());
        b.extend(b"bc");
        b.extend([3, 1, b'f']);
        for v in [1u32, 1, 1, 1, 2, 0] {
            b.extend(v.to_le_bytes());
        }
        b.extend(0i32.to_le_bytes());
        b.extend(0u16.to_le_bytes());
        b.extend(0u16.to_le_bytes());
        b.extend((!0i32).to_le_bytes());
        b.extend((!1i32).to_le_bytes());
        b.extend(0.5f64.to_bits().to_le_bytes());
        b.extend(1.0f64.to_bits().to_le_bytes());
        b.extend(2.0f64.to_bits().to_le_bytes());
        b
    }

    #[test]
    fn a_file_is_read_whole_and_its_entries_by_name() {
        let m = ModelFile::parse(&file(&body())).expect("valid");
        assert_eq!(m.strings("s").expect("s"), ["a", "bc"]);
        let f = m.forest("f").expect("f");
        assert_eq!(f.raw(&[0.5f64]), [1.0]);
        assert_eq!(f.raw(&[0.6f32]), [2.0]);
        assert_eq!(m.numbers("s"), Err(ModelError::Missing("s".into())));
    }

    #[test]
    fn a_damaged_file_is_refused_never_trusted() {
        let good = file(&body());
        assert_eq!(ModelFile::parse(b"PITHMOD"), Err(ModelError::Magic));
        let mut v2 = good.clone();
        v2[8] = 2;
        assert_eq!(ModelFile::parse(&v2), Err(ModelError::Version(2)));
        let mut flipped = good.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert_eq!(ModelFile::parse(&flipped), Err(ModelError::Checksum));
        // Every cut is refused (the checksum or the reader), none panics.
        for cut in 0..good.len() {
            assert!(ModelFile::parse(&good[..cut]).is_err(), "cut at {cut}");
        }
        // A count that claims more than the bytes left, with a valid checksum.
        let mut b = body();
        b[3] = 0xff;
        assert_eq!(ModelFile::parse(&file(&b)), Err(ModelError::Truncated));
        // A child pointing back at its parent (a walk that would not end).
        let mut b = body();
        let split = b.len() - 16 - 20;
        b[split + 4..split + 8].copy_from_slice(&0i32.to_le_bytes());
        assert!(matches!(
            ModelFile::parse(&file(&b)),
            Err(ModelError::Invalid(..))
        ));
        // A feature outside the row.
        let mut b = body();
        b[split..split + 2].copy_from_slice(&5u16.to_le_bytes());
        assert!(matches!(
            ModelFile::parse(&file(&b)),
            Err(ModelError::Invalid(..))
        ));
    }
}
