//! Sets of nodes that the steps of one reading hand each other: [`Bits`], a bit per node held
//! while other steps run, and [`Marks`], a byte per node holding every flag of the reading.

use crate::html::Document;
use crate::html::tree::NodeId;

/// One bit per node, for a set of nodes held while other steps run (DANAg's selection, the
/// chosen text while the whole page is collected): an eighth of a `Vec<bool>`, and its set
/// bits, in order, are the nodes in document order.
pub(super) struct Bits(Vec<u64>);

impl Bits {
    pub(super) fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }

    #[inline]
    pub(super) fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    #[inline]
    pub(super) fn get(&self, i: usize) -> bool {
        (self.0[i >> 6] >> (i & 63)) & 1 != 0
    }

    /// The set positions, ascending.
    pub(super) fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + bit
                })
            })
        })
    }
}

/// The flags of one reading of the page ([`super::select`]), a bit each in one byte per node:
/// separate `Vec<bool>`s took a byte per node per flag (on a page of a node every 12 bytes,
/// each a twelfth of the page in memory), and a bit per node per flag ([`Bits`])
/// cost `auto` 5% more instructions in shifts. Cells, so that a step can write one flag while
/// it reads others.
pub(super) struct Marks(Vec<std::cell::Cell<u8>>);

impl Marks {
    pub(super) fn new(n: usize) -> Marks {
        Marks(vec![std::cell::Cell::new(0); n])
    }

    /// The flag kept in bit `bit` (one of the `mark` constants).
    pub(super) fn flag(&self, bit: u8) -> Flags<'_> {
        Flags {
            cells: &self.0,
            bit,
        }
    }
}

/// The bits of [`Marks`].
pub(super) mod mark {
    /// Has a block-level element child with text (so it is a container, not a paragraph).
    pub(crate) const BLOCK_CHILD: u8 = 1;
    /// Hidden by its own attributes (`hidden`, `aria-hidden`, an inline style).
    pub(crate) const HIDDEN: u8 = 1 << 1;
    /// Boilerplate or hidden, inherited from the ancestors.
    pub(crate) const REMOVED: u8 = 1 << 2;
    /// Inside a teaser summary.
    pub(crate) const TEASER: u8 = 1 << 3;
    /// A paragraph-like element (it votes for a container).
    pub(crate) const PARAGRAPH: u8 = 1 << 4;
    /// A root of the collected text.
    pub(crate) const ROOT: u8 = 1 << 5;
    /// Inside the chosen container or a sibling that joined it.
    pub(crate) const UNDER: u8 = 1 << 6;
    /// Taken by the collection pass (inherited from the parent).
    pub(crate) const INSIDE: u8 = 1 << 7;
}

/// One flag of [`Marks`], a `bool` per node.
#[derive(Clone, Copy)]
pub(super) struct Flags<'m> {
    cells: &'m [std::cell::Cell<u8>],
    bit: u8,
}

impl Flags<'_> {
    #[inline(always)]
    pub(super) fn get(&self, i: usize) -> bool {
        self.cells[i].get() & self.bit != 0
    }

    #[inline(always)]
    pub(super) fn set(&self, i: usize) {
        let c = &self.cells[i];
        c.set(c.get() | self.bit);
    }

    #[inline(always)]
    pub(super) fn assign(&self, i: usize, on: bool) {
        let c = &self.cells[i];
        c.set(if on {
            c.get() | self.bit
        } else {
            c.get() & !self.bit
        });
    }

    pub(super) fn clear(&self) {
        for c in self.cells {
            c.set(c.get() & !self.bit);
        }
    }

    /// The flags as booleans (for [`super::Trace`]).
    pub(super) fn bools(self) -> Vec<bool> {
        (0..self.cells.len()).map(|i| self.get(i)).collect()
    }
}

/// Per node: has a block-level element child with text (so it is a container, not a
/// paragraph).
pub(super) type BlockChild<'m> = Flags<'m>;

/// Flags every node of the subtrees of `ids` (in ascending order), each node once: a subtree
/// is a run of the arena, and one inside a run already flagged is skipped (not a pass over
/// the whole page that inherits the flag from each parent).
pub(super) fn mark_subtrees(doc: &Document<'_>, ids: &[NodeId], flag: &Flags<'_>) {
    let mut covered = 0;
    for &id in ids {
        let run = doc.tree.subtree(id);
        if run.start < covered {
            continue;
        }
        for j in run.clone() {
            flag.set(j);
        }
        covered = run.end;
    }
}
