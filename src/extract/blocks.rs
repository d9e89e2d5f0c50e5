//! Blocks, traversal paths and feature vectors: the representation ContentExtractor ([`super::ce`])
//! and FastContentExtractor ([`super::fastce`]) share.
//!
//! Nguyen et al., *A Fast Template-based Approach to Automatically Identify Primary Text Content
//! of a Web Page* (2009), Section I: "a block is a part of a web page surrounded by an open tag
//! such as TABLE, TR, HR, P, DIV and a matching close tag". pith's block elements are those five
//! plus their modern kin: `section article main aside header footer nav ul ol li h1-h6 blockquote
//! pre form td th` (`th` is `td`'s twin), and `body`. Inline elements (`span`, `a`, `b`...) are
//! not blocks: the paper's Figure 2 splits a `<p>` at its `<span>`s only to show how CE loses
//! word order, and modern pages wrap single words in spans, which would shred every paragraph.
//!
//! Section III: a block's traversal path is `html.body.div.p` over the hierarchy of blocks. It
//! is computed while the tree is walked as a 64-bit FNV-1a hash, extended by `.tag` at each
//! block: the document root stands for `html` (so a page without an `<html>` tag has the same
//! paths), and non-block elements add nothing. FNV-1a's offset basis and prime are fixed by its
//! specification, so the hashes are the same on every run, machine and pith version, which a
//! template stored on disk needs (`ahash` and std's `DefaultHasher` promise no such thing).
//!
//! Section II (ContentExtractor's measure): a block's feature vector holds its number of images,
//! scripts and links and its terms; the similarity of two blocks is the cosine of their vectors,
//! and two blocks are similar above 0.9. Terms are lower-cased alphanumeric words hashed into
//! [`TERM_DIMS`] dimensions (the hashing trick), so a vector is a short sorted list of counts.
//! The words of a link's anchor text are not terms: they belong to the link, which the link
//! dimension counts. The paper lists hyperlinks and terms as separate features without saying
//! where anchor words go; counting them as terms makes every list of headlines look unique
//! (the headlines change from page to page) and CE keeps such lists as content. On msv_big9,
//! same-year leave-one-out, anchor words as terms gave CE 0.796 and FastCE 0.771 mean
//! bag-of-words F1; as part of the link, 0.894 and 0.858 (`just eval-sites`).
//!
//! A block's *own* content is what lies in its subtree outside its sub-blocks; CE's atomic blocks
//! are these pieces (Section II: "the four sub-blocks and the original block with sub-blocks
//! removed"). Nothing here recurses: nodes are stored in document order with parents before
//! children, so one forward pass finds every node's block and every block's path.

use crate::html::entities;
use crate::html::tags::Tag;
use crate::html::tree::{Kind, NodeId, ROOT, context};
use crate::html::{Document, Tree};

/// The similarity threshold of ContentExtractor (Section II of the paper: "greater than 0.9").
pub(crate) const SIMILAR: f32 = 0.9;

/// Dimensions for hashed terms. 1021 (a prime) keeps collisions rare for the few hundred
/// distinct words of a block while a dimension index still fits a `u16`.
pub(crate) const TERM_DIMS: u16 = 1021;

/// Dimension of the image count (the first three dimensions are the non-term features).
pub(crate) const DIM_IMAGES: u16 = 0;
/// Dimension of the script count.
pub(crate) const DIM_SCRIPTS: u16 = 1;
/// Dimension of the link count.
pub(crate) const DIM_LINKS: u16 = 2;
/// The first term dimension: those below it are the non-term features.
pub(crate) const FIRST_TERM_DIM: u16 = DIM_LINKS + 1;
/// Total dimensions of a feature vector.
pub(crate) const DIMS: u16 = FIRST_TERM_DIM + TERM_DIMS;

use crate::hash::fnv1a_byte;
/// The paths', features' and words' hash, FNV-1a: `crate::hash`'s.
pub use crate::hash::{FNV_OFFSET, fnv1a};

/// The path hash of the document root, which stands for `html`.
pub(crate) fn root_path() -> u64 {
    fnv1a(FNV_OFFSET, b"html")
}

/// The path of a block whose parent block has path `parent`.
#[inline]
pub(crate) fn child_path(parent: u64, tag: Tag) -> u64 {
    fnv1a(fnv1a(parent, b"."), tag.name().as_bytes())
}

/// The hash of a whole path written as `html.body.div.p` (for tests and `template show`).
pub fn path_of(dotted: &str) -> u64 {
    fnv1a(FNV_OFFSET, dotted.as_bytes())
}

/// The block elements (see the module comment for the list and why).
const BLOCK_TAGS: [Tag; 27] = [
    Tag::Body,
    Tag::Table,
    Tag::Tr,
    Tag::Td,
    Tag::Th,
    Tag::P,
    Tag::Div,
    Tag::Hr,
    Tag::Section,
    Tag::Article,
    Tag::Main,
    Tag::Aside,
    Tag::Header,
    Tag::Footer,
    Tag::Nav,
    Tag::Ul,
    Tag::Ol,
    Tag::Li,
    Tag::H1,
    Tag::H2,
    Tag::H3,
    Tag::H4,
    Tag::H5,
    Tag::H6,
    Tag::Blockquote,
    Tag::Pre,
    Tag::Form,
];

/// [`BLOCK_TAGS`] as a table indexed by the tag's number: one load per node in the walks over
/// every node of a page, rather than a branch over 27 kinds.
static IS_BLOCK: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < BLOCK_TAGS.len() {
        t[BLOCK_TAGS[i] as usize] = true;
        i += 1;
    }
    t
};

/// Whether elements of this kind are blocks (see the module comment for the list and why).
#[inline]
pub(crate) fn is_block(tag: Tag) -> bool {
    IS_BLOCK[tag as u8 as usize]
}

/// "No block" in a block-index field.
pub(crate) const NO_BLOCK: u32 = u32::MAX;

/// One block of a page: the root (index 0) or a block element.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    /// Its element ([`ROOT`] for the root block).
    pub node: NodeId,
    /// The index of the nearest enclosing block ([`NO_BLOCK`] for the root).
    pub parent: u32,
    /// Its traversal path hash.
    pub path: u64,
}

/// The blocks of a page and the block every node belongs to.
pub struct PageBlocks {
    /// Blocks in document order; index 0 is the root.
    pub blocks: Vec<Block>,
    /// For every node of the tree, the index of the block whose own content it is (for a block
    /// element: the block itself).
    pub owner: Vec<u32>,
}

/// Finds the blocks of a page in one forward pass over its nodes.
pub fn blocks(tree: &Tree<'_>) -> PageBlocks {
    // Filled by pushes, one per node (the root's first), rather than zeroed and then
    // overwritten: a page's worth of memset less.
    let mut owner = Vec::with_capacity(tree.nodes.len());
    owner.push(0u32);
    // Room for a block per four nodes (msv_big9: 289 blocks in 1,071 nodes a page) from the
    // start: grown from one by doubling, the vector was copied nine times a page, which cost
    // a quarter of this walk.
    let mut blocks = Vec::with_capacity(tree.nodes.len() / 4 + 1);
    blocks.push(Block {
        node: ROOT,
        parent: NO_BLOCK,
        path: root_path(),
    });
    for (i, node) in tree.nodes.iter().enumerate().skip(1) {
        // Parents come before children, so the parent's owner is known.
        let parent_owner = owner.get(node.parent as usize).copied().unwrap_or(0);
        let own = if node.kind == Kind::Element && is_block(node.tag) {
            let parent_path = blocks.get(parent_owner as usize).map_or(0, |b| b.path);
            blocks.push(Block {
                node: i as NodeId,
                parent: parent_owner,
                path: child_path(parent_path, node.tag),
            });
            (blocks.len() - 1) as u32
        } else {
            parent_owner
        };
        owner.push(own);
    }
    PageBlocks { blocks, owner }
}

/// A page's layout: the distinct paths of its blocks, sorted (what a template's known paths
/// are made of, and what [`crate::extract::fastce::model::Family::pick`] compares them with).
pub fn layout(pb: &PageBlocks) -> Vec<u64> {
    let mut paths: Vec<u64> = pb.blocks.iter().map(|b| b.path).collect();
    paths.sort_unstable();
    paths.dedup();
    paths
}

/// A feature vector: sorted `(dimension, count)` pairs and the Euclidean norm.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Features {
    /// Nonzero `(dimension, count)` pairs, sorted by dimension, no dimension twice.
    pub entries: Vec<(u16, u16)>,
    /// The Euclidean norm of the counts.
    pub norm: f32,
}

impl Features {
    /// Builds a vector from sorted, deduplicated entries.
    pub fn from_entries(entries: Vec<(u16, u16)>) -> Features {
        let norm = entries
            .iter()
            .map(|&(_, c)| f32::from(c) * f32::from(c))
            .sum::<f32>()
            .sqrt();
        Features { entries, norm }
    }

    /// No feature at all (a block with no words, images, scripts or links).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// A stable 64-bit fingerprint of the vector (FNV-1a over its entries): equal vectors,
    /// equal fingerprints.
    pub fn fingerprint(&self) -> u64 {
        let mut h = FNV_OFFSET;
        for (d, c) in &self.entries {
            h = fnv1a(h, &d.to_le_bytes());
            h = fnv1a(h, &c.to_le_bytes());
        }
        h
    }

    /// The number of words counted in it.
    pub fn words(&self) -> u32 {
        self.entries
            .iter()
            .filter(|e| e.0 >= FIRST_TERM_DIM)
            .map(|e| u32::from(e.1))
            .sum()
    }
}

/// The cosine of two vectors (0 when either is empty); one merge over the sorted entries.
pub(crate) fn cosine(a: &Features, b: &Features) -> f32 {
    if a.norm == 0.0 || b.norm == 0.0 {
        return 0.0;
    }
    let (mut i, mut j, mut dot) = (0, 0, 0f32);
    while let (Some(&(da, ca)), Some(&(db, cb))) = (a.entries.get(i), b.entries.get(j)) {
        match da.cmp(&db) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                dot += f32::from(ca) * f32::from(cb);
                i += 1;
                j += 1;
            }
        }
    }
    dot / (a.norm * b.norm)
}

/// Whether two blocks are similar (cosine above `threshold`, the paper's 0.9 by default).
pub(crate) fn similar(a: &Features, b: &Features, threshold: f32) -> bool {
    cosine(a, b) > threshold
}

/// Whether the vector whose counts are spread over `dense` (indexed by dimension) and whose
/// norm is `norm` has a cosine above `threshold` with any of `others`: one pass over each
/// other vector's entries, the dot product summed in integers (see [`similar_to_any`]).
fn any_cosine_above<'f>(
    dense: &[u32],
    norm: f32,
    others: impl IntoIterator<Item = &'f Features>,
    threshold: f32,
) -> bool {
    others.into_iter().any(|b| {
        if b.norm == 0.0 {
            return false;
        }
        let dot: u64 = b
            .entries
            .iter()
            .map(|&(d, c)| {
                u64::from(dense.get(usize::from(d)).copied().unwrap_or(0)) * u64::from(c)
            })
            .sum();
        dot as f32 / (norm * b.norm) > threshold
    })
}

/// Whether `a` is similar ([`similar`]) to any of `others`, for a block compared with the
/// many stored blocks of its path: `a` is spread once over a dense array of counts (`scratch`,
/// left zeroed), so each cosine is one pass over the other vector's entries, with no branch on
/// their order (a sorted merge per pair mispredicts at almost every step) and the dot product
/// summed in integers (a float sum is a chain of additions each waiting for the last). The
/// integer dot product is exact; the float sum of [`cosine`] equals it while it stays under
/// 2^24, far above what blocks of text reach, so the answers agree. Comparing was most of
/// FastCE's detection time on msv_big9 (`cargo bench --bench templates`).
#[cfg(test)]
pub(crate) fn similar_to_any<'f>(
    a: &Features,
    others: impl IntoIterator<Item = &'f Features>,
    threshold: f32,
    scratch: &mut Vec<u32>,
) -> bool {
    if a.norm == 0.0 {
        return false;
    }
    scratch.resize(usize::from(DIMS), 0);
    for &(d, c) in &a.entries {
        if let Some(x) = scratch.get_mut(usize::from(d)) {
            *x = u32::from(c);
        }
    }
    let found = any_cosine_above(scratch, a.norm, others, threshold);
    for &(d, _) in &a.entries {
        if let Some(x) = scratch.get_mut(usize::from(d)) {
            *x = 0;
        }
    }
    found
}

/// The dimension of a term.
#[cfg(test)]
fn term_dim(word: &[u8]) -> u16 {
    dim_of_hash(fnv1a(FNV_OFFSET, word))
}

/// The dimension of a term whose FNV-1a hash is `h`.
#[inline]
fn dim_of_hash(h: u64) -> u16 {
    3 + (h % u64::from(TERM_DIMS)) as u16
}

/// [`ASCII_WORD`]'s mark for a byte the ASCII loop of [`push_terms`] cannot take: `&` (an
/// entity to decode) and every byte of a non-ASCII character.
const SPECIAL: u8 = 0xff;

/// For each byte: its lower case when it is an ASCII letter or digit (a word byte), [`SPECIAL`]
/// for `&` and non-ASCII bytes, else 0. One table load instead of several tests per byte of
/// text, the hottest loop of FastCE.
static ASCII_WORD: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            t[b] = c.to_ascii_lowercase();
        } else if c == b'&' || !c.is_ascii() {
            t[b] = SPECIAL;
        }
        b += 1;
    }
    t
};

/// The bytes of a word that enter its term's hash.
const WORD_BYTES: usize = 64;

/// Pushes the dimension of every term of a text node's text.
///
/// Words are runs of alphanumeric characters, lower-cased; a word longer than [`WORD_BYTES`]
/// is hashed on its first bytes (a URL or a token string, not a term worth more). Plain ASCII
/// text, most of it, takes a byte loop that hashes as it scans (FNV-1a over the same bytes
/// [`term_dim`] hashes, so the dimension is the same): two tight loops, over the gaps and over
/// the words, per byte a load, a table load and a branch (and the hash step inside a word),
/// the hottest loop of FastCE's detection (callgrind over msv_big9,
/// `examples/templates_profile.rs`). At the first `&` or non-ASCII byte the rest of the text,
/// from the start of the word it is in, goes to [`push_terms_decoded`]: the words before it
/// hold no entity, so decoding the rest alone gives the words decoding all of it gives.
fn push_terms(text: &str, out: &mut Vec<u16>, scratch: &mut String) {
    let bytes = text.as_bytes();
    let n = bytes.len();
    let mut i = 0;
    while i < n {
        while i < n && ASCII_WORD[usize::from(bytes[i])] == 0 {
            i += 1;
        }
        if i == n {
            break;
        }
        let start = i;
        let mut h = FNV_OFFSET;
        while i < n {
            let lower = ASCII_WORD[usize::from(bytes[i])];
            // 0 and SPECIAL are the two ends of the byte range, so one test on the path of
            // every word byte finds both.
            if lower.wrapping_sub(1) >= SPECIAL - 1 {
                if lower == SPECIAL {
                    // `start` follows an ASCII byte (or is 0): a character boundary.
                    push_terms_decoded(text.get(start..).unwrap_or_default(), out, scratch);
                    return;
                }
                break;
            }
            h = fnv1a_byte(h, lower);
            i += 1;
        }
        if i - start > WORD_BYTES {
            h = bytes
                .get(start..start + WORD_BYTES)
                .unwrap_or_default()
                .iter()
                .fold(FNV_OFFSET, |h, &b| {
                    fnv1a_byte(h, ASCII_WORD[usize::from(b)])
                });
        }
        out.push(dim_of_hash(h));
    }
}

/// Hashes byte `b` into `h`, the hash of a word of `len` bytes so far, while it has fewer than
/// [`WORD_BYTES`].
#[inline]
fn word_byte(h: &mut u64, len: &mut usize, b: u8) {
    if *len < WORD_BYTES {
        *h = fnv1a_byte(*h, b);
        *len += 1;
    }
}

/// [`push_terms`] for text with entities or non-ASCII characters: entities decoded, then
/// words of `char`s.
fn push_terms_decoded(text: &str, out: &mut Vec<u16>, scratch: &mut String) {
    let text = if text.contains('&') {
        scratch.clear();
        entities::decode_into(text, scratch);
        scratch.as_str()
    } else {
        text
    };
    // Hashed as scanned, as in the ASCII loop; ASCII characters by the table, others by
    // Unicode's classes and lower case (the bytes of its UTF-8 form).
    let mut h = FNV_OFFSET;
    let mut len = 0usize;
    for ch in text.chars() {
        let word = if ch.is_ascii() {
            let lower = ASCII_WORD[usize::from(ch as u8)];
            if lower != 0 && lower != SPECIAL {
                word_byte(&mut h, &mut len, lower);
                true
            } else {
                false
            }
        } else if ch.is_alphanumeric() {
            let mut buf = [0u8; 4];
            for lc in ch.to_lowercase() {
                for &b in lc.encode_utf8(&mut buf).as_bytes() {
                    word_byte(&mut h, &mut len, b);
                }
            }
            true
        } else {
            false
        };
        if !word && len > 0 {
            out.push(dim_of_hash(h));
            h = FNV_OFFSET;
            len = 0;
        }
    }
    if len > 0 {
        out.push(dim_of_hash(h));
    }
}

/// Collects the features of the nodes whose key (given by `key_of`, [`NO_BLOCK`] for none) is
/// set, among the nodes of `spans` (ranges of node ids, disjoint), and builds one vector per
/// key in `0..keys`.
pub(crate) fn features(
    doc: &Document<'_>,
    keys: usize,
    spans: &[std::ops::Range<usize>],
    key_of: impl FnMut(usize) -> u32,
) -> Vec<Features> {
    let mut v = Vectors::default();
    v.collect(doc, keys, spans, key_of);
    let Vectors {
        dims_of,
        counts,
        seen,
        ..
    } = &mut v;
    dims_of
        .iter()
        .take(keys)
        .map(|dims| count_dims(dims, counts, seen))
        .collect()
}

/// What FastCE's detection needs of a block's vector ([`Vectors::count`]), without its entries.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Summary {
    /// [`Features::fingerprint`].
    pub fingerprint: u64,
    /// [`Features::words`].
    pub words: u32,
    /// [`Features::norm`].
    pub norm: f32,
}

/// Buffers for the vectors of a page's blocks, kept from page to page ([`with_vectors`]):
/// detection judges a block by its vector's fingerprint, words and cosines with stored
/// vectors, all of which come from the dense count of its dimensions, so the vector itself
/// (a sorted list of entries, one allocation a block) is never built. Built, spread into a
/// dense array again for the cosines and freed, it cost detection a tenth of its time in
/// allocation and copies on msv_big9.
#[derive(Default)]
pub(crate) struct Vectors {
    /// Each key's dimension occurrences, in the order met ([`Vectors::collect`]).
    dims_of: Vec<Vec<u16>>,
    /// The counts of the key last counted ([`Vectors::count`]), by dimension; zero otherwise.
    counts: Vec<u32>,
    /// Bitmap of the dimensions set in `counts`.
    seen: Vec<u64>,
    /// Decoded text for [`push_terms`].
    text: String,
    /// Keys of the last [`Vectors::collect`] (the lists in use).
    used: usize,
    /// Whether `counts` holds a vector (else [`Vectors::clear`] has nothing to do).
    counted: bool,
}

/// Keys whose occurrence lists [`with_vectors`] keeps for the next page (a page of a
/// million blocks must not leave a million empty lists behind).
const KEEP_KEYS: usize = 1 << 12;
/// Occurrences a list may hold and still be kept for the next page.
const KEEP_DIMS: usize = 1 << 16;

thread_local! {
    static VECTORS: std::cell::RefCell<Vectors> = std::cell::RefCell::new(Vectors::default());
}

/// Runs `f` with this thread's [`Vectors`], whose lists are kept for the next page up to
/// [`KEEP_KEYS`] and [`KEEP_DIMS`]. A nested call gets fresh buffers.
pub(crate) fn with_vectors<R>(f: impl FnOnce(&mut Vectors) -> R) -> R {
    VECTORS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut v) => {
            let got = f(&mut v);
            v.trim();
            got
        }
        Err(_) => f(&mut Vectors::default()),
    })
}

impl Vectors {
    /// Collects the dimension occurrences of the nodes whose key (given by `key_of`,
    /// [`NO_BLOCK`] for none) is set, among the nodes of `spans` (ranges of node ids,
    /// disjoint), per key in `0..keys`: a text node's terms, an image, a script or a link.
    pub(crate) fn collect(
        &mut self,
        doc: &Document<'_>,
        keys: usize,
        spans: &[std::ops::Range<usize>],
        mut key_of: impl FnMut(usize) -> u32,
    ) {
        for dims in self.dims_of.iter_mut().take(keys) {
            dims.clear();
        }
        self.used = keys;
        if self.dims_of.len() < keys {
            self.dims_of.resize_with(keys, Vec::new);
        }
        let nodes = spans.iter().flat_map(|span| {
            let span = span.start.min(span.end)..span.end.min(doc.tree.nodes.len());
            doc.tree
                .nodes
                .get(span.clone())
                .unwrap_or(&[])
                .iter()
                .zip(span)
        });
        for (node, i) in nodes {
            let k = key_of(i) as usize;
            if k >= keys {
                continue;
            }
            let Some(dims) = self.dims_of.get_mut(k) else {
                continue;
            };
            match node.kind {
                Kind::Text if node.context() & (context::HIDDEN | context::LINK) == 0 => {
                    push_terms(doc.raw_text(i as NodeId), dims, &mut self.text);
                }
                Kind::Element => match node.tag {
                    Tag::Img => dims.push(DIM_IMAGES),
                    Tag::Script => dims.push(DIM_SCRIPTS),
                    Tag::A => dims.push(DIM_LINKS),
                    _ => {}
                },
                _ => {}
            }
        }
        self.counts.resize(usize::from(DIMS), 0);
        self.seen.resize(usize::from(DIMS).div_ceil(64), 0);
    }

    /// Counts key `key`'s occurrences (collected last) into the dense counts, which stay
    /// there for [`Vectors::similar_to_any`] until [`Vectors::clear`], and sums up the
    /// vector: `None` when it is empty. The values are those of the [`Features`] built from
    /// the same occurrences ([`count_dims`]): counts saturated at `u16::MAX`, the norm summed
    /// in dimension order, the fingerprint over the entries in that order.
    pub(crate) fn count(&mut self, key: usize) -> Option<Summary> {
        self.clear();
        let dims = self.dims_of.get(key)?;
        if dims.is_empty() {
            return None;
        }
        self.counted = true;
        // The bit is set whether or not the dimension is new: a test of the count would be a
        // branch taken at random.
        for &d in dims {
            if let Some(c) = self.counts.get_mut(usize::from(d)) {
                *c += 1;
            }
            if let Some(w) = self.seen.get_mut(usize::from(d) / 64) {
                *w |= 1 << (d % 64);
            }
        }
        let (mut fingerprint, mut words, mut sum) = (FNV_OFFSET, 0u32, 0f32);
        for (wi, &word) in self.seen.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let d = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let Some(slot) = self.counts.get_mut(d) else {
                    continue;
                };
                let c = (*slot).min(u32::from(u16::MAX)) as u16;
                *slot = u32::from(c);
                fingerprint = fnv1a(fingerprint, &(d as u16).to_le_bytes());
                fingerprint = fnv1a(fingerprint, &c.to_le_bytes());
                if d >= usize::from(FIRST_TERM_DIM) {
                    words += u32::from(c);
                }
                sum += f32::from(c) * f32::from(c);
            }
        }
        Some(Summary {
            fingerprint,
            words,
            norm: sum.sqrt(),
        })
    }

    /// Whether the vector counted last (with summary `a`) is similar to any of `others`:
    /// [`similar_to_any`] with the counts already dense.
    pub(crate) fn similar_to_any<'f>(
        &self,
        a: &Summary,
        others: impl IntoIterator<Item = &'f Features>,
        threshold: f32,
    ) -> bool {
        if a.norm == 0.0 {
            return false;
        }
        any_cosine_above(&self.counts, a.norm, others, threshold)
    }

    /// Zeroes the counts of the vector counted last.
    pub(crate) fn clear(&mut self) {
        if !std::mem::take(&mut self.counted) {
            return;
        }
        for (wi, word) in self.seen.iter_mut().enumerate() {
            let mut bits = std::mem::take(word);
            while bits != 0 {
                let d = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some(c) = self.counts.get_mut(d) {
                    *c = 0;
                }
            }
        }
    }

    /// Frees what the next page should not inherit ([`KEEP_KEYS`], [`KEEP_DIMS`]).
    fn trim(&mut self) {
        self.clear();
        if self.dims_of.len() > KEEP_KEYS {
            self.dims_of.truncate(KEEP_KEYS);
            self.dims_of.shrink_to_fit();
        }
        for dims in self.dims_of.iter_mut().take(self.used) {
            if dims.capacity() > KEEP_DIMS {
                *dims = Vec::new();
            }
        }
        if self.text.capacity() > KEEP_DIMS {
            self.text = String::new();
        }
    }
}

/// Counts dimension occurrences into a vector, in time linear in them: a dense counter over
/// the dimensions (`counts`, left zeroed) and a bitmap of the dimensions met (`seen`, left
/// zeroed), read back in dimension order a 64-bit word at a time, so no sort is needed. A
/// comparison sort of all occurrences was most of FastCE's detection time, and a sort of the
/// distinct dimensions still a tenth of its extra cost over `auto` (callgrind over msv_big9).
fn count_dims(dims: &[u16], counts: &mut [u32], seen: &mut [u64]) -> Features {
    if dims.is_empty() {
        return Features::default();
    }
    let mut distinct = 0usize;
    for &d in dims {
        if let Some(c) = counts.get_mut(usize::from(d)) {
            if *c == 0 {
                distinct += 1;
                if let Some(w) = seen.get_mut(usize::from(d) / 64) {
                    *w |= 1 << (d % 64);
                }
            }
            *c += 1;
        }
    }
    let mut entries = Vec::with_capacity(distinct);
    for (wi, word) in seen.iter_mut().enumerate() {
        let mut bits = std::mem::take(word);
        while bits != 0 {
            let d = wi * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let c = counts.get_mut(d).map_or(0, std::mem::take);
            entries.push((d as u16, c.min(u32::from(u16::MAX)) as u16));
        }
    }
    Features::from_entries(entries)
}

/// The own-content feature vector of every block (CE's atomic blocks), indexed like
/// [`PageBlocks::blocks`].
pub(crate) fn block_features(doc: &Document<'_>, pb: &PageBlocks) -> Vec<Features> {
    let all = 0..doc.tree.nodes.len();
    features(doc, pb.blocks.len(), std::slice::from_ref(&all), |i| {
        pb.owner.get(i).copied().unwrap_or(NO_BLOCK)
    })
}

/// The visible text nodes of the page whose owner block satisfies `keep`, in document order.
pub(crate) fn text_nodes(doc: &Document<'_>, mut keep: impl FnMut(usize) -> bool) -> Vec<NodeId> {
    doc.tree
        .nodes
        .iter()
        .enumerate()
        .filter(|(i, n)| n.kind == Kind::Text && n.context() & context::HIDDEN == 0 && keep(*i))
        .map(|(i, _)| i as NodeId)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_blocks(html: &str) -> (Vec<u64>, Vec<Features>) {
        let arena = bumpalo::Bump::new();
        let doc = Document::parse(html, &arena);
        let pb = blocks(&doc.tree);
        let f = block_features(&doc, &pb);
        (pb.blocks.iter().map(|b| b.path).collect(), f)
    }

    #[test]
    fn paths_follow_the_block_hierarchy_only() {
        let (paths, _) =
            parse_blocks("<html><body><div><span><p>Hello <b>world</b></p></span></div></body>");
        assert_eq!(paths[0], path_of("html"));
        assert_eq!(paths[1], path_of("html.body"));
        assert_eq!(paths[2], path_of("html.body.div"));
        // The span is not a block: the p's path goes straight from the div.
        assert_eq!(paths[3], path_of("html.body.div.p"));
        // Without an <html> tag the paths are the same.
        let (again, _) = parse_blocks("<body><div><p>x</p></div>");
        assert_eq!(again[3], path_of("html.body.div.p"));
    }

    #[test]
    fn path_hashes_are_fixed_values() {
        // FNV-1a of "html" and of a longer path, as the specification defines them: a stored
        // template stays valid across runs, machines and versions.
        assert_eq!(path_of("html"), 0x888b_b1cc_15ef_7930);
        assert_eq!(path_of("html.body.div.p"), 0x1a60_17ca_7f2e_750d);
        assert_eq!(fnv1a(FNV_OFFSET, b""), FNV_OFFSET);
        assert_eq!(fnv1a(FNV_OFFSET, b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(FNV_OFFSET, b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn own_content_excludes_sub_blocks_and_counts_links_images_scripts() {
        let (_, f) = parse_blocks(
            "<body><div>Read <a href=/x>more</a> <img src=a.png><script>var x</script>\
             <p>one two two</p></div>",
        );
        // f[2] is the div's own content: the term "read" (the anchor word "more" belongs to
        // the link), a link, an image, a script.
        let div = &f[2];
        assert_eq!(div.words(), 1);
        let get = |d: u16| div.entries.iter().find(|e| e.0 == d).map(|e| e.1);
        assert_eq!(get(DIM_LINKS), Some(1));
        assert_eq!(get(DIM_IMAGES), Some(1));
        assert_eq!(get(DIM_SCRIPTS), Some(1));
        // The p holds its three words, not the div's.
        assert_eq!(f[3].words(), 3);
    }

    #[test]
    fn cosine_of_equal_and_disjoint_blocks() {
        let (_, f) = parse_blocks(
            "<body><p>the cat sat on the mat</p><p>the cat sat on the mat</p>\
             <p>quantum chromodynamics lattice</p>",
        );
        assert!((cosine(&f[2], &f[3]) - 1.0).abs() < 1e-5);
        assert!(similar(&f[2], &f[3], SIMILAR));
        assert!(!similar(&f[2], &f[4], SIMILAR));
        assert_eq!(cosine(&f[2], &Features::default()), 0.0);
    }

    #[test]
    fn terms_hash_alike_on_the_ascii_and_the_unicode_path() {
        // A stored template holds these dimensions: the byte loop for ASCII text and the
        // `char` loop for other text must give the FNV-1a dimension of the lower-cased word.
        let mut ascii = Vec::new();
        let mut other = Vec::new();
        let mut scratch = String::new();
        push_terms("Hello, WORLD x42", &mut ascii, &mut scratch);
        push_terms("Hello, WORLD x42 \u{e9}t\u{e9}", &mut other, &mut scratch);
        let want: Vec<u16> = ["hello", "world", "x42"]
            .iter()
            .map(|w| 3 + (fnv1a(FNV_OFFSET, w.as_bytes()) % 1021) as u16)
            .collect();
        assert_eq!(ascii, want);
        assert_eq!(other[..3], want[..]);
        assert_eq!(other[3], term_dim("\u{e9}t\u{e9}".as_bytes()));
        // A word past 64 bytes is hashed on its first 64 on both paths.
        let long = "a".repeat(100);
        let mut a = Vec::new();
        push_terms(&long, &mut a, &mut scratch);
        assert_eq!(a, vec![term_dim(&[b'a'; 64])]);
    }

    #[test]
    fn the_ascii_loop_hands_over_at_entities_and_other_characters_unchanged() {
        // The byte loop stops at the first `&` or non-ASCII byte and hands the rest over from
        // the start of its word: the terms must be those of decoding the whole text.
        let mut scratch = String::new();
        for text in [
            "AT&amp;T caf&eacute; and more",
            "caf&eacute;s &amp; bars",
            "plain words &nbsp;then&nbsp;more",
            "Grüße aus K\u{f6}ln, 2005",
            "tail entity &#8217;",
            "&lt;start&gt; here",
            "word\u{a0}split by nbsp",
            "x&y",
            "ends with &",
        ] {
            let mut fast = Vec::new();
            let mut whole = Vec::new();
            push_terms(text, &mut fast, &mut scratch);
            push_terms_decoded(text, &mut whole, &mut scratch);
            assert_eq!(fast, whole, "{text}");
            assert!(!fast.is_empty(), "{text}");
        }
        // A decoded entity joins the word it is in: "café" is one term, not "caf".
        let mut t = Vec::new();
        push_terms("caf&eacute;", &mut t, &mut scratch);
        assert_eq!(t, vec![term_dim("caf\u{e9}".as_bytes())]);
    }

    #[test]
    fn occurrences_are_counted_in_dimension_order() {
        // Dimensions out of order and repeated: the vector a sort of the occurrences gives,
        // and the counter is left zeroed for the next block.
        let mut counts = vec![0u32; usize::from(DIMS)];
        let mut seen = vec![0u64; usize::from(DIMS).div_ceil(64)];
        let f = count_dims(
            &[900, 5, 4, 900, 5, 3, 900, 1023, 63, 64],
            &mut counts,
            &mut seen,
        );
        assert_eq!(
            f.entries,
            vec![
                (3, 1),
                (4, 1),
                (5, 2),
                (63, 1),
                (64, 1),
                (900, 3),
                (1023, 1)
            ]
        );
        assert!((f.norm - 18f32.sqrt()).abs() < 1e-6);
        assert!(counts.iter().all(|&c| c == 0) && seen.iter().all(|&w| w == 0));
        assert!(count_dims(&[], &mut counts, &mut seen).is_empty());
        // Counts saturate at u16::MAX.
        let f = count_dims(&[7; 70_000], &mut counts, &mut seen);
        assert_eq!(f.entries, vec![(7, u16::MAX)]);
    }

    #[test]
    fn similar_to_any_agrees_with_each_cosine() {
        let (_, f) = parse_blocks(
            "<body><p>the cat sat on the mat</p><p>the cat sat on the mat mat</p>\
             <p>a cat sat on a mat</p><p>quantum chromodynamics lattice</p>\
             <p>the cat <a href=/x>x</a> sat <img src=y> on the mat</p><p></p>\
             <p>the the the the cat</p>",
        );
        let mut scratch = Vec::new();
        for threshold in [0.0, 0.5, 0.8, SIMILAR, 0.99] {
            for a in &f {
                for b in &f {
                    assert_eq!(
                        similar_to_any(a, [b], threshold, &mut scratch),
                        similar(a, b, threshold),
                        "{a:?} {b:?} at {threshold}"
                    );
                }
                let any = f.iter().any(|b| similar(a, b, threshold));
                assert_eq!(similar_to_any(a, &f, threshold, &mut scratch), any);
            }
        }
        assert!(scratch.iter().all(|&x| x == 0));
    }

    #[test]
    fn counted_vectors_agree_with_built_ones() {
        // Detection sums up a block's vector from its dense counts ([`Vectors::count`]); the
        // fingerprint, words, norm and comparisons must be those of the [`Features`] learning
        // builds and stores, or a stored template would judge differently.
        let html = "<body><p>the cat sat on the mat</p><p>the cat sat on the mat mat</p>\
             <p>a cat sat on a mat</p><p>quantum chromodynamics lattice</p>\
             <p>the cat <a href=/x>x</a> sat <img src=y> on the mat</p><p></p>\
             <p>the the the the cat</p><div>caf&eacute; K\u{f6}ln <script>x</script></div>";
        let arena = bumpalo::Bump::new();
        let doc = Document::parse(html, &arena);
        let pb = blocks(&doc.tree);
        let built = block_features(&doc, &pb);
        let mut v = Vectors::default();
        let all = 0..doc.tree.nodes.len();
        v.collect(&doc, pb.blocks.len(), std::slice::from_ref(&all), |i| {
            pb.owner[i]
        });
        let mut scratch = Vec::new();
        for (k, f) in built.iter().enumerate() {
            let Some(s) = v.count(k) else {
                assert!(f.is_empty());
                continue;
            };
            assert_eq!(s.fingerprint, f.fingerprint());
            assert_eq!(s.words, f.words());
            assert_eq!(s.norm.to_bits(), f.norm.to_bits());
            for threshold in [0.0, 0.5, SIMILAR, 0.99] {
                for b in &built {
                    assert_eq!(
                        v.similar_to_any(&s, [b], threshold),
                        similar_to_any(f, [b], threshold, &mut scratch)
                    );
                }
            }
        }
        v.clear();
        assert!(v.counts.iter().all(|&c| c == 0) && v.seen.iter().all(|&w| w == 0));
        // Counts saturate at u16::MAX, as in a built vector.
        let many = format!("<body><p>{}</p>", "w ".repeat(70_000));
        let doc = Document::parse(&many, &arena);
        let pb = blocks(&doc.tree);
        let built = block_features(&doc, &pb);
        v.collect(
            &doc,
            pb.blocks.len(),
            std::slice::from_ref(&(0..doc.tree.nodes.len())),
            |i| pb.owner[i],
        );
        let s = v.count(2).expect("the p has words");
        assert_eq!(s.fingerprint, built[2].fingerprint());
        assert_eq!(s.words, u32::from(u16::MAX));
    }

    #[test]
    fn deep_pages_do_not_recurse() {
        let mut html = String::from("<body>");
        for _ in 0..200_000 {
            html.push_str("<div>");
        }
        html.push_str("deep text");
        let arena = bumpalo::Bump::new();
        let doc = Document::parse(&html, &arena);
        let pb = blocks(&doc.tree);
        // The root's, the body's and the divs' down to the depth limit (deeper ones have no
        // node).
        assert_eq!(pb.blocks.len(), crate::html::tree::MAX_DEPTH as usize + 1);
        let f = block_features(&doc, &pb);
        assert_eq!(f.iter().map(Features::words).sum::<u32>(), 2);
    }
}
