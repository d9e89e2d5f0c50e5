//! Gradient-boosted forests as LightGBM trains them, read from the model files the trainers
//! write ([`super::model_file`]) and evaluated row by row or, for a page's blocks, tree by tree.
//!
//! A forest is a flat array of splits, the leaf values and each tree's root. A walk is a loop
//! from the root to a leaf, never recursive: a numeric split sends `x <= threshold` left, as
//! LightGBM does; a categorical one sends the categories of its bit set left and everything
//! else (an unseen category, a negative, fractional or missing value) right, as LightGBM does.
//! A missing (NaN) value counts as 0 in a numeric split, as LightGBM treats them in a model
//! trained without missing values.
//!
//! The walk is the hot loop of the learned extractor (200 trees for each of a page's blocks),
//! so the checks LightGBM's semantics need are done once, not per split:
//! - the file's reader proves every child index lies after its parent and inside the arrays,
//!   and every feature inside the row, so a walk ends within a tree's size;
//! - a row is *prepared* once ([`Forest::prepare`]): NaN becomes 0 in a numeric feature, and
//!   each category set a split asks about is answered once, as a column of its own after the
//!   row's values (0 in the set, 1 outside it), so every split of the walk is one comparison
//!   (`column <= 0.5` for a set) with no test for NaN and no branch on the kind of split;
//! - a split holds its threshold twice, as the trainer's f64 and as the largest f32 not above
//!   it: for an f32 value `x`, `x <= t` in f64 exactly when `x <= t32`, so f32 rows (the
//!   block model's) compare in f32 and give the trainer's decisions bit for bit;
//! - a page's blocks are walked tree by tree ([`Forest::raw_rows`]), eight side by side, and
//!   each block's scores are still summed in tree order, so they are the trainer's f64 sums;
//! - the learned extractor's walk ([`Forest::raw_strided`]) reads each tree as a [`Compact`]
//!   one: 64 entries of 8 bytes, its leaves entries that lead back to themselves, and rows
//!   [`STRIDE`] values apart, so a step is a few loads and a comparison with no branch and no
//!   bounds check (indices are masked by the arrays' sizes). Its blocks go in chunks that
//!   stay in the core's cache while every tree passes over them. On cleaneval_final this
//!   walk takes half the instructions of the one before (`pith -j 1`, callgrind: 519 M to
//!   267 M of 1,202 M), with the same sums to the bit
//!   (`the_compact_trees_give_the_walks_sums_to_the_bit`, `tests/it/block_model.rs`).

/// One split: a numeric threshold, or a categorical bit set (`cat_words > 0`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Node {
    /// A numeric split's threshold as f64 bits; a categorical one's first word in
    /// [`Forest::cats`].
    pub(crate) value: u64,
    /// The left child: a split's index (`>= 0`) or a leaf `!i` (`< 0`).
    pub(crate) left: i32,
    /// The right child, likewise.
    pub(crate) right: i32,
    /// The largest f32 not above the threshold (f32 rows compare with it).
    pub(crate) thr32: f32,
    /// The feature's index in the row.
    pub(crate) feature: u16,
    /// A categorical split's number of 64-bit words of categories; 0 for a numeric split.
    pub(crate) cat_words: u16,
}

/// A value a forest reads: an f32 (the block model's rows) or an f64 (the page models').
pub trait Value: Copy + PartialOrd {
    /// Whether this value goes left at a numeric split of threshold `t64` (f64 bits), whose
    /// largest f32 not above it is `t32`.
    fn at_most(self, t32: f32, t64: u64) -> bool;
    /// The category this value names, or -1 for none (NaN, negative, fractional).
    fn category(self) -> i64;

    /// This value as f64.
    fn wide(self) -> f64;
    /// From f64 (for the prepared values 0 and -1).
    fn narrow(v: f64) -> Self;
}

impl Value for f32 {
    #[inline(always)]
    fn at_most(self, t32: f32, _: u64) -> bool {
        self <= t32
    }
    fn category(self) -> i64 {
        f64::from(self).category()
    }
    fn wide(self) -> f64 {
        f64::from(self)
    }
    fn narrow(v: f64) -> Self {
        v as f32
    }
}

impl Value for f64 {
    #[inline(always)]
    fn at_most(self, _: f32, t64: u64) -> bool {
        self <= f64::from_bits(t64)
    }
    fn category(self) -> i64 {
        if self >= 0.0 && self.fract() == 0.0 && self < 4_294_967_296.0 {
            self as i64
        } else {
            -1
        }
    }
    fn wide(self) -> f64 {
        self
    }
    fn narrow(v: f64) -> Self {
        v
    }
}

/// The largest f32 not above `t` (an f32 `x` has `x <= t` exactly when `x <= down32(t)`).
pub(crate) fn down32(t: f64) -> f32 {
    let r = t as f32;
    if f64::from(r) > t { r.next_down() } else { r }
}

/// A boosted forest: tree `i` adds to output `i % outputs`.
#[derive(Clone, Debug, PartialEq)]
pub struct Forest {
    /// Outputs: 1 for a regressor or a binary classifier, the number of classes for a
    /// multiclass one.
    pub(crate) outputs: usize,
    /// How many values a row has (every split's feature is below it).
    pub(crate) inputs: usize,
    /// Each tree's root, encoded as a child is ([`Node`]).
    pub(crate) roots: Vec<i32>,
    /// All trees' splits, each tree's in pre-order.
    pub(crate) nodes: Vec<Node>,
    /// All trees' leaf values.
    pub(crate) leaves: Vec<f64>,
    /// The categorical splits' bit sets, 64 categories a word.
    pub(crate) cats: Vec<u64>,
    /// Per feature: whether a categorical split reads it.
    pub(crate) categorical: Vec<bool>,
    /// The category sets the splits ask about, each answered in the column `inputs + j` of a
    /// prepared row: its feature, its first word in [`Forest::cats`] and its number of words.
    pub(crate) sets: Vec<(u16, u64, u16)>,
    /// The sets grouped by their feature (sets are ordered by feature): the feature and the
    /// range of its sets in [`Forest::sets`], so that a row's category is read once per
    /// feature, not once per set.
    pub(crate) groups: Vec<(u16, usize, usize)>,
    /// Per group, the columns of its sets for each category any of them holds, a row of
    /// 0 (in the set) and 1 (not) per category: a row's columns are copied, not computed.
    /// A category past a group's rows is in none of its sets.
    pub(crate) columns: Vec<Vec<f32>>,
    /// Every tree as a [`Compact`] one, when every tree has at most [`COMPACT_SPLITS`]
    /// splits and a prepared row at most [`STRIDE`] values ([`Forest::raw_strided`]).
    pub(crate) compact: Option<Vec<Compact>>,
}

impl Forest {
    /// A forest of checked arrays (the model file's reader checks them: children after their
    /// parents and inside the arrays, features inside the row, category sets inside the
    /// words). Each categorical split becomes a numeric one on its set's column (0.5: in the
    /// set goes left).
    pub(crate) fn new(
        outputs: usize,
        inputs: usize,
        roots: Vec<i32>,
        mut nodes: Vec<Node>,
        leaves: Vec<f64>,
        cats: Vec<u64>,
    ) -> Forest {
        let mut categorical = vec![false; inputs];
        let mut sets: Vec<(u16, u64, u16)> = Vec::new();
        let words = |&(_, first, n): &(u16, u64, u16)| {
            cats.get(first as usize..first as usize + usize::from(n))
                .unwrap_or_default()
        };
        // Each categorical split's set, found once (`set_of[i]` for the i-th such split).
        let mut set_of = Vec::new();
        for n in nodes.iter().filter(|n| n.cat_words > 0) {
            if let Some(c) = categorical.get_mut(usize::from(n.feature)) {
                *c = true;
            }
            let set = (n.feature, n.value, n.cat_words);
            let j = match sets
                .iter()
                .position(|s| s.0 == set.0 && words(s) == words(&set))
            {
                Some(j) => j,
                None => {
                    sets.push(set);
                    sets.len() - 1
                }
            };
            set_of.push(j);
        }
        // The sets ordered by feature (stably), each split pointed at its set's new column.
        let mut order: Vec<usize> = (0..sets.len()).collect();
        order.sort_by_key(|&j| sets[j].0);
        let mut column = vec![0; sets.len()];
        for (to, &from) in order.iter().enumerate() {
            column[from] = to;
        }
        let sets: Vec<(u16, u64, u16)> = order.iter().map(|&j| sets[j]).collect();
        for (n, &j) in nodes.iter_mut().filter(|n| n.cat_words > 0).zip(&set_of) {
            n.feature = u16::try_from(inputs + column[j]).unwrap_or(u16::MAX);
            n.value = 0.5f64.to_bits();
            n.thr32 = 0.5;
            n.cat_words = 0;
        }
        let mut groups: Vec<(u16, usize, usize)> = Vec::new();
        for (j, &(feature, ..)) in sets.iter().enumerate() {
            match groups.last_mut() {
                Some(g) if g.0 == feature => g.2 = j + 1,
                _ => groups.push((feature, j, j + 1)),
            }
        }
        let columns = groups
            .iter()
            .map(|&(_, start, end)| {
                let sets = &sets[start..end];
                let categories = sets
                    .iter()
                    .map(|s| usize::from(s.2) * 64)
                    .max()
                    .unwrap_or(0);
                let mut table = Vec::with_capacity(categories * sets.len());
                for c in 0..categories {
                    table.extend(sets.iter().map(|s| {
                        let inside = c / 64 < usize::from(s.2)
                            && cats
                                .get(s.1 as usize + c / 64)
                                .is_some_and(|w| w >> (c % 64) & 1 == 1);
                        if inside { 0.0 } else { 1.0 }
                    }));
                }
                table
            })
            .collect();
        Forest {
            outputs,
            inputs,
            roots,
            nodes,
            leaves,
            cats,
            categorical,
            sets,
            groups,
            columns,
            compact: None,
        }
    }

    /// This forest with its [`Compact`] trees, for [`Forest::raw_strided`] (the block
    /// model's forests; the page models' walk single rows and do without their 770 bytes a
    /// tree). Without them, when a tree or a row is too large, `raw_strided` walks as
    /// [`Forest::raw_rows`] does.
    pub(crate) fn with_compact(mut self) -> Forest {
        if self.width() <= STRIDE {
            let mut trees = Vec::with_capacity(self.roots.len());
            for &root in &self.roots {
                match Compact::of(&self.nodes, &self.leaves, root) {
                    Some(t) => trees.push(t),
                    None => return self,
                }
            }
            self.compact = Some(trees);
        }
        self
    }

    /// How many values a prepared row has: the inputs, then one column per category set.
    pub fn width(&self) -> usize {
        self.inputs + self.sets.len()
    }

    /// How many values a row has.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// How many scores a row gets.
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// The row (at least [`Forest::width`] long, its inputs first) as the walk wants it: NaN
    /// as 0 in a numeric feature, and each category set's column after the inputs, 0 when the
    /// row's category is in the set and 1 when not (an unseen category, a negative,
    /// fractional or missing value is in none), where LightGBM sends them.
    pub fn prepare<V: Value>(&self, row: &mut [V]) {
        for (v, &cat) in row.iter_mut().zip(&self.categorical) {
            if !cat && v.wide().is_nan() {
                *v = V::narrow(0.0);
            }
        }
        for (&(feature, start, end), table) in self.groups.iter().zip(&self.columns) {
            // The row's category, read once for all of its feature's sets, picks their
            // columns' values from the table.
            let c = row.get(usize::from(feature)).map_or(-1, |v| v.category());
            let n = end - start;
            let values = usize::try_from(c)
                .ok()
                .and_then(|c| table.get(c.checked_mul(n)?..c.checked_mul(n)?.checked_add(n)?));
            let columns = row
                .get_mut(self.inputs + start..self.inputs + end)
                .unwrap_or_default();
            match values {
                Some(values) => {
                    for (v, &x) in columns.iter_mut().zip(values) {
                        *v = V::narrow(f64::from(x));
                    }
                }
                None => columns.iter_mut().for_each(|v| *v = V::narrow(1.0)),
            }
        }
    }

    /// The raw scores (sums of leaf values, in tree order) of the row `x`, prepared here.
    pub fn raw<V: Value>(&self, x: &[V]) -> Vec<f64> {
        let mut row: Vec<V> = x.to_vec();
        row.truncate(self.inputs);
        row.resize(self.width(), V::narrow(f64::NAN));
        self.prepare(&mut row);
        let mut out = vec![0.0; self.outputs.max(1)];
        self.raw_rows(&row, row.len(), &mut out);
        out
    }

    /// The raw scores of prepared rows of `width` values each (at least [`Forest::inputs`])
    /// laid one after another in `rows`, into `out` ([`Forest::outputs`] per row, set here),
    /// tree by tree: each row's scores are summed in tree order.
    pub fn raw_rows<V: Value>(&self, rows: &[V], width: usize, out: &mut [f64]) {
        let outputs = self.outputs.max(1);
        out.iter_mut().for_each(|o| *o = 0.0);
        if width < self.width() || width == 0 {
            return;
        }
        let n = (rows.len() / width).min(out.len() / outputs);
        for (t, &root) in self.roots.iter().enumerate() {
            let k = t % outputs;
            let mut first = 0;
            while first < n {
                let count = LANES.min(n - first);
                let leaves = self.walk_lanes(root, rows, width, first, count);
                for (l, &leaf) in leaves.iter().enumerate().take(count) {
                    if let Some(o) = out.get_mut((first + l) * outputs + k) {
                        *o += self.leaves.get(!leaf as usize).copied().unwrap_or(0.0);
                    }
                }
                first += count;
            }
        }
    }

    /// How far apart [`Forest::raw_strided`] wants a page's prepared rows: [`STRIDE`] values
    /// when the forest has its compact trees, else its width. With the compact trees it also
    /// wants the rows padded to a whole number of [`LANES`] (see [`Forest::padded`]).
    pub fn stride(&self) -> usize {
        if self.compact.is_some() {
            STRIDE
        } else {
            self.width()
        }
    }

    /// How many rows to lay out for `n` rows: `n` rounded up to [`LANES`] with the compact
    /// trees, else `n`.
    pub fn padded(&self, n: usize) -> usize {
        if self.compact.is_some() {
            n.next_multiple_of(LANES)
        } else {
            n
        }
    }

    /// [`Forest::raw_rows`] over prepared f32 rows laid [`Forest::stride`] values apart, the
    /// same sums to the bit. With the compact trees, the rows go in chunks of [`CHUNK`]: each
    /// chunk walks every tree before the next chunk starts, so its rows stay in the core's
    /// cache while the trees pass over them (tree by tree over all of a page's rows, a large
    /// page's rows came from memory once a tree). Each row's scores are still summed in tree
    /// order.
    pub fn raw_strided(&self, rows: &[f32], out: &mut [f64]) {
        let Some(compact) = &self.compact else {
            return self.raw_rows(rows, self.width(), out);
        };
        let outputs = self.outputs.max(1);
        out.iter_mut().for_each(|o| *o = 0.0);
        // Whole groups of LANES rows (the caller pads the last one, [`Forest::stride`]).
        let groups: Vec<&[f32; LANES * STRIDE]> = rows
            .chunks_exact(LANES * STRIDE)
            .filter_map(|g| g.try_into().ok())
            .collect();
        let n = (rows.len() / STRIDE).min(out.len() / outputs);
        for (c, chunk) in groups.chunks(CHUNK / LANES).enumerate() {
            for (t, tree) in compact.iter().enumerate() {
                let k = t % outputs;
                for (g, group) in chunk.iter().enumerate() {
                    let first = (c * CHUNK) + g * LANES;
                    let values = tree.walk(group);
                    for (l, v) in values.iter().enumerate().take(n.saturating_sub(first)) {
                        if let Some(o) = out.get_mut((first + l) * outputs + k) {
                            *o += v;
                        }
                    }
                }
            }
        }
    }

    /// The leaves tree `root` sends rows `first..first + count` of `rows` to (`count` at most
    /// [`LANES`]), as `!leaf`: the rows walk the tree side by side, one level of every row a
    /// step, each step a comparison and a select rather than a branch. A lone walk waits on
    /// each split's load and guesses its way wrong at about every other split; side by side,
    /// the rows' loads overlap and the selects have nothing to guess. A row that reached its
    /// leaf stays on it while the others go on; lanes past `count` start on a leaf.
    #[inline]
    fn walk_lanes<V: Value>(
        &self,
        root: i32,
        rows: &[V],
        width: usize,
        first: usize,
        count: usize,
    ) -> [i32; LANES] {
        let nodes = self.nodes.as_slice();
        let mut at = [-1i32; LANES];
        let mut base = [0usize; LANES];
        for l in 0..count {
            at[l] = root;
            base[l] = (first + l) * width;
        }
        // The reader proved each child lies after its parent and inside the arrays, and each
        // feature inside the row (`raw_rows` checked the row's width): every lane reaches a
        // leaf within the tree's size, and no index below is out of bounds.
        // A lane on a leaf reads split 0 and stays: only while some lane is on a split, so
        // there is a split 0.
        let mut live = root >= 0 && count > 0;
        while live {
            live = false;
            for l in 0..LANES {
                let i = at[l];
                let n = &nodes[i.max(0) as usize];
                let x = rows[base[l] + usize::from(n.feature)];
                let next = if x.at_most(n.thr32, n.value) {
                    n.left
                } else {
                    n.right
                };
                let next = if i >= 0 { next } else { i };
                at[l] = next;
                live |= next >= 0;
            }
        }
        at
    }
}

/// How many rows walk a tree side by side ([`Forest::walk_lanes`]): enough loads in flight to
/// hide a split's latency, few enough that rows that reached a leaf early waste little.
const LANES: usize = 8;

/// The most splits, and the most leaves, a tree may have to be walked as a [`Compact`]
/// tree: LightGBM's trees of at most 32 leaves, as every shipped forest's are (31 leaves for
/// the block model).
const COMPACT_SPLITS: usize = 32;

/// How many values apart [`Forest::raw_strided`] reads prepared rows: a power of two, so a
/// split's feature masked by `STRIDE - 1` lies inside a row and the walk needs no bounds
/// check. The block model's rows are 420 values.
const STRIDE: usize = 512;

/// How many rows go through every tree together ([`Forest::raw_strided`]): 16 rows of
/// [`STRIDE`] f32 values are 32 KiB, the first-level data cache of the cores measured.
const CHUNK: usize = 16;

/// One entry of a [`Compact`] tree: 8 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Entry {
    /// The threshold as the largest f32 not above the trainer's (categorical splits are
    /// numeric ones on their set's column by now, [`Forest::new`]); a leaf's is infinite.
    thr: f32,
    /// The feature, below [`STRIDE`].
    feature: u16,
    /// The entries of the children, left then right; a leaf's are itself.
    child: [u8; 2],
}

/// A leaf's entry: every row goes left, to the leaf itself.
const fn leaf_entry(at: u8) -> Entry {
    Entry {
        thr: f32::INFINITY,
        feature: 0,
        child: [at, at],
    }
}

/// A tree as a fixed-size array of entries: its splits from `0` (the root first) and its
/// leaves from [`COMPACT_SPLITS`], each leaf an entry that sends every row back to itself.
/// A walk then has no leaf to test for and no bounds to check: it masks each entry's index
/// by the array's size and each feature by [`STRIDE`], and it stops when every lane's
/// entry has the bit of [`COMPACT_SPLITS`] set.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Compact {
    entries: [Entry; 2 * COMPACT_SPLITS],
    /// The leaves' values, by entry less [`COMPACT_SPLITS`].
    values: [f64; COMPACT_SPLITS],
    /// The root's entry: 0, or a leaf's for a tree of no split.
    root: u8,
}

impl Compact {
    /// Tree `root` as a compact tree, or `None` when it has more than [`COMPACT_SPLITS`]
    /// splits or leaves, or a feature at or past [`STRIDE`]. The reader proved the tree's
    /// splits follow its root, each child after its parent, so they are `root..root + n` and
    /// a split's index less `root` is its entry.
    fn of(nodes: &[Node], leaves: &[f64], root: i32) -> Option<Compact> {
        let mut c = Compact {
            entries: [leaf_entry(0); 2 * COMPACT_SPLITS],
            values: [0.0; COMPACT_SPLITS],
            root: 0,
        };
        let mut n_leaves = 0usize;
        // A child's entry: a split's place after the root, or the next leaf entry.
        let mut entry = |child: i32, c: &mut Compact| -> Option<u8> {
            if child >= 0 {
                let i = usize::try_from(child)
                    .ok()?
                    .checked_sub(usize::try_from(root).ok()?)?;
                return (i < COMPACT_SPLITS).then_some(i as u8);
            }
            let at = COMPACT_SPLITS + n_leaves;
            *c.values.get_mut(n_leaves)? = *leaves.get(!child as usize)?;
            *c.entries.get_mut(at)? = leaf_entry(at as u8);
            n_leaves += 1;
            Some(at as u8)
        };
        c.root = entry(root, &mut c)?;
        if root < 0 {
            return Some(c);
        }
        // The tree's splits, found from its root with a stack (no recursion).
        let mut stack = vec![root];
        while let Some(g) = stack.pop() {
            let n = nodes.get(usize::try_from(g).ok()?)?;
            if usize::from(n.feature) >= STRIDE || n.cat_words > 0 {
                return None;
            }
            let at = entry(g, &mut c)?;
            let child = [entry(n.left, &mut c)?, entry(n.right, &mut c)?];
            c.entries[usize::from(at)] = Entry {
                thr: n.thr32,
                feature: n.feature,
                child,
            };
            stack.extend([n.left, n.right].into_iter().filter(|&c| c >= 0));
        }
        Some(c)
    }

    /// The values of the leaves this tree sends [`LANES`] rows to, the rows laid [`STRIDE`]
    /// values apart in `rows`: the rows walk side by side as in [`Forest::walk_lanes`], one
    /// level of every row a step, with no branch but the loop's.
    #[inline]
    fn walk(&self, rows: &[f32; LANES * STRIDE]) -> [f64; LANES] {
        let mut at = [self.root; LANES];
        loop {
            let mut all = u8::MAX;
            for (l, a) in at.iter_mut().enumerate() {
                let e = &self.entries[usize::from(*a) & (2 * COMPACT_SPLITS - 1)];
                let x = rows[(l * STRIDE) | (usize::from(e.feature) & (STRIDE - 1))];
                // Right unless `x <= thr`, as `Value::at_most` decides (a NaN goes right).
                #[allow(clippy::neg_cmp_op_on_partial_ord)]
                let right = !(x <= e.thr);
                *a = e.child[usize::from(right)];
                all &= *a;
            }
            if usize::from(all) & COMPACT_SPLITS != 0 {
                // Every lane is on a leaf.
                return at.map(|a| self.values[usize::from(a) & (COMPACT_SPLITS - 1)]);
            }
        }
    }
}

/// The logistic function: a binary model's probability from its raw score.
pub fn logistic(raw: f64) -> f64 {
    1.0 / (1.0 + (-raw).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(feature: u16, t: f64, left: i32, right: i32) -> Node {
        Node {
            value: t.to_bits(),
            left,
            right,
            thr32: down32(t),
            feature,
            cat_words: 0,
        }
    }

    fn forest(nodes: Vec<Node>, roots: Vec<i32>, leaves: Vec<f64>, cats: Vec<u64>) -> Forest {
        Forest::new(1, 2, roots, nodes, leaves, cats)
    }

    #[test]
    fn numeric_and_categorical_splits_go_the_way_lightgbm_sends_them() {
        // Tree 0: x0 <= 1.5 ? leaf 0 : leaf 1. Tree 1: x1 in {2, 7} ? leaf 2 : leaf 3.
        let cat = Node {
            value: 0,
            left: !2,
            right: !3,
            thr32: 0.0,
            feature: 1,
            cat_words: 1,
        };
        let f = forest(
            vec![num(0, 1.5, !0, !1), cat],
            vec![0, 1],
            vec![1.0, 10.0, 100.0, 1000.0],
            vec![1 << 2 | 1 << 7],
        );
        assert_eq!(f.raw(&[1.5, 2.0]), [101.0]);
        assert_eq!(f.raw(&[1.6f64, 7.0]), [110.0]);
        assert_eq!(f.raw(&[1.6f32, 7.0]), [110.0]);
        // An unseen category, a negative code (no category), a fraction and a missing value
        // go right.
        assert_eq!(f.raw(&[0.0, 3.0]), [1001.0]);
        assert_eq!(f.raw(&[0.0, -1.0]), [1001.0]);
        assert_eq!(f.raw(&[0.0, 2.5]), [1001.0]);
        assert_eq!(f.raw(&[f64::NAN]), [1001.0]);
        assert!((logistic(0.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_forest_is_walked_as_lightgbm_does() {
        // One tree: x0 <= 1.5 ? (x1 <= 0 ? 1 : 2) : 3; a second tree adds 0.5.
        let f = forest(
            vec![num(0, 1.5, 1, !2), num(1, 0.0, !0, !1)],
            vec![0, !3],
            vec![1.0, 2.0, 3.0, 0.5],
            vec![],
        );
        assert_eq!(f.raw(&[1.5, 0.0]), vec![1.5]);
        assert_eq!(f.raw(&[1.0, 1.0]), vec![2.5]);
        assert_eq!(f.raw(&[2.0, -1.0]), vec![3.5]);
        assert_eq!(f.raw(&[f64::NAN]), vec![1.5]); // NaN and missing as 0
        // Tree by tree over rows gives each row's own scores.
        let rows = [1.5f32, 0.0, 1.0, 1.0, 2.0, -1.0];
        let mut out = [0.0; 3];
        f.raw_rows(&rows, 2, &mut out);
        assert_eq!(out, [1.5, 2.5, 3.5]);
    }

    /// `rows` (`width` values each) laid out as [`Forest::raw_strided`] wants them.
    fn strided(f: &Forest, rows: &[f32], width: usize) -> Vec<f32> {
        let n = rows.len() / width;
        let mut out = vec![0.0; f.padded(n) * f.stride()];
        for (to, from) in out
            .chunks_exact_mut(f.stride())
            .zip(rows.chunks_exact(width))
        {
            to[..width].copy_from_slice(from);
        }
        out
    }

    #[test]
    fn the_compact_trees_give_the_walks_sums_to_the_bit() {
        // The small forest above, and the shipped block model's two forests over rows whose
        // values sit on, just above and just below their splits' thresholds.
        let small = forest(
            vec![num(0, 1.5, 1, !2), num(1, 0.0, !0, !1)],
            vec![0, !3],
            vec![1.0, 2.0, 3.0, 0.5],
            vec![],
        )
        .with_compact();
        assert!(small.compact.is_some());
        let rows = [1.5f32, 0.0, 1.0, 1.0, 2.0, -1.0];
        let mut out = [0.0; 3];
        small.raw_strided(&strided(&small, &rows, 2), &mut out);
        assert_eq!(out, [1.5, 2.5, 3.5]);
        let m = super::super::model();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for f in [&m.block, &m.runs] {
            assert!(f.compact.is_some(), "a shipped forest has no compact trees");
            let width = f.width();
            // 37 rows: four chunks and a part, the last group of lanes padded.
            let n = 37;
            let mut rows = vec![0.0f32; n * width];
            for row in rows.chunks_exact_mut(width) {
                for (j, v) in row.iter_mut().enumerate().take(f.inputs()) {
                    let state = crate::hash::xorshift64(&mut seed);
                    let split = f
                        .nodes
                        .iter()
                        .filter(|s| usize::from(s.feature) == j)
                        .nth(state as usize % 4);
                    *v = split.map_or((state % 7) as f32, |s| match state >> 60 & 3 {
                        0 => s.thr32,
                        1 => s.thr32.next_up(),
                        2 => s.thr32.next_down(),
                        _ => (state % 5) as f32,
                    });
                }
                f.prepare(row);
            }
            let (mut walked, mut compact) = (vec![0.0; n], vec![0.0; n]);
            f.raw_rows(&rows, width, &mut walked);
            f.raw_strided(&strided(f, &rows, width), &mut compact);
            assert_eq!(
                walked.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                compact.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
            assert!(
                walked.windows(2).any(|w| w[0] != w[1]),
                "the rows all scored alike"
            );
        }
    }

    #[test]
    fn an_f32_compares_with_the_rounded_down_threshold_as_with_the_f64_one() {
        // Thresholds between f32 values, on them, and at the ends.
        for t in [
            0.1f64,
            1.0 / 3.0,
            0.5,
            -0.1,
            1e-35,
            1e300,
            -1e300,
            72.0709686279297,
        ] {
            let t32 = down32(t);
            assert!(f64::from(t32) <= t, "{t}");
            for x in [t32, t32.next_up(), t32.next_down(), t as f32] {
                assert_eq!(x <= t32, f64::from(x) <= t, "{x} against {t}");
            }
        }
    }
}
