//! `--dedup`: a page whose main text repeats an earlier page of the run, exactly or nearly, is
//! dropped. The text's word shingles ([`SHINGLE_WORDS`] words in a row) are summed up by
//! MinHash, the same [`MinHasher`] that clusters a site's pages by their templates
//! ([`crate::site::cluster`]), with [`BANDS`] x [`ROWS`] positions; each band of [`ROWS`]
//! positions is hashed to one 64-bit key (locality-sensitive hashing). A page one of whose keys
//! an earlier kept page has is a duplicate.
//!
//! **The threshold.** Two texts whose shingle sets have Jaccard coefficient J share a band with
//! probability 1 - (1 - J^8)^16: 0.9999 at J = 0.95, 0.95 at J = 0.8, 0.61 at J = 0.7, 0.06 at
//! J = 0.5, 0.001 at J = 0.3. The curve crosses one half near J = 0.71 ((1/16)^(1/8)): a page
//! is dropped when about 70% or more of its shingles and an earlier page's are shared, the
//! near-duplicate bar of large crawl pipelines (FineWeb's 14 bands of 8 rows puts it at 0.72),
//! and a page that shares a template's sentences but half its own text (J 0.5) is kept 94 times
//! in 100. One word changed in a text of 200 words changes at most 5 of its shingles: J above
//! 0.95, always dropped. Identical texts have identical keys: always dropped.
//!
//! **Memory.** Only the keys of kept pages are held, [`BANDS`] x 8 bytes = 128 bytes a page, in
//! a hash set (hashbrown: one control byte a key, a table 7/16 to 7/8 full): 165 to 330 bytes a
//! kept page, and for the moment the table doubles, the old one beside the new, up to 500. That
//! is at most 3.3 GB (5 GB while it grows) for 10 million distinct pages, whatever their size;
//! nothing of the texts is kept, and duplicates add nothing. 64-bit keys keep a false match
//! unlikely at that size (160 M keys: about one chance in 10^11 a lookup). This memory is not
//! counted in `--max-memory`, which bounds the records in flight.
//!
//! **Order.** Workers compute a page's keys; the writer, which sees the pages in input order
//! at every `-j`, decides: the first of two duplicates is the one kept, the same at every `-j`.
//! A page with no main text has no keys and is never a duplicate (`--min-words 1` drops
//! those). The text is the body as rendered (Markdown's markup and HTML's tags count as words).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use crate::extract::blocks::{FNV_OFFSET, fnv1a};
use crate::site::cluster::MinHasher;

/// Words per shingle: five, as near-duplicate detection over web text takes them (FineWeb,
/// Broder's shingling), long enough that two unrelated texts share few shingles, short enough
/// that one changed word spoils few.
pub(crate) const SHINGLE_WORDS: usize = 5;
/// Bands of the signature, each one 64-bit key.
pub(crate) const BANDS: usize = 16;
/// MinHash positions a band.
pub(crate) const ROWS: usize = 8;

/// A page's keys, one per band.
pub(crate) type Keys = [u64; BANDS];

/// The shared MinHash functions: fixed seeds, so keys are the same in every run.
fn hasher() -> &'static MinHasher {
    static HASHER: OnceLock<MinHasher> = OnceLock::new();
    HASHER.get_or_init(|| MinHasher::new(BANDS * ROWS))
}

/// FNV-1a's 64-bit hash of a word (as site templates hash paths): stable across runs and
/// builds.
fn word_hash(w: &str) -> u64 {
    fnv1a(FNV_OFFSET, w.as_bytes())
}

/// The keys of `text` (`None` for a text without words).
pub(crate) fn keys(text: &str) -> Option<Box<Keys>> {
    let words: Vec<u64> = text.split_whitespace().map(word_hash).collect();
    if words.is_empty() {
        return None;
    }
    // A text shorter than a shingle is one shingle.
    let window = SHINGLE_WORDS.min(words.len());
    let shingles: Vec<u64> = words
        .windows(window)
        .map(|w| {
            w.iter().fold(0u64, |h, &x| {
                (h.rotate_left(23) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            })
        })
        .collect();
    let sig = hasher().signature(&shingles);
    let mut keys = Box::new([0u64; BANDS]);
    for (b, (key, rows)) in keys.iter_mut().zip(sig.chunks(ROWS)).enumerate() {
        // The band's number is part of its key: equal rows in two bands are different keys.
        *key = rows.iter().fold(word_hash(&b.to_string()), |h, &x| {
            (h.rotate_left(29) ^ x).wrapping_mul(0xbf58_476d_1ce4_e5b9)
        });
    }
    Some(keys)
}

/// The keys are already uniform: the set takes them as their own hashes.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The keys of the pages kept so far.
#[derive(Default)]
pub(crate) struct Seen {
    keys: HashSet<u64, BuildHasherDefault<KeyHasher>>,
}

impl Seen {
    /// Whether a page with `keys` repeats one kept before; if not, it is kept (its keys held).
    pub(crate) fn repeats(&mut self, keys: &Keys) -> bool {
        if keys.iter().any(|k| self.keys.contains(k)) {
            return true;
        }
        self.keys.extend(keys.iter().copied());
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(n: usize, changed: Option<usize>) -> String {
        (0..n)
            .map(|i| match changed {
                Some(c) if c == i => "CHANGED".to_string(),
                _ => format!("w{}", (i * 7919) % 1000),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn exact_and_near_repeats_are_caught_and_other_texts_are_not() {
        let mut seen = Seen::default();
        let a = keys(&text(200, None)).expect("keys");
        assert!(!seen.repeats(&a));
        assert!(seen.repeats(&a));
        let near = keys(&text(200, Some(100))).expect("keys");
        assert!(seen.repeats(&near));
        let other: String = (0..200).map(|i| format!("x{i} ")).collect();
        assert!(!seen.repeats(&keys(&other).expect("keys")));
        assert!(keys("  \n").is_none());
        // Short texts: one shingle; equal is a repeat, another is not.
        assert!(!seen.repeats(&keys("two words").expect("keys")));
        assert!(seen.repeats(&keys("two  words").expect("keys")));
        assert!(!seen.repeats(&keys("two birds").expect("keys")));
    }
}
