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
//! - a page's blocks are walked tree by tree ([`Forest::raw_rows`]): one tree's splits stay in
//!   the first-level cache while every block goes through it, and each block's scores are
//!   still summed in tree order, so they are the trainer's f64 sums.

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
        }
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
