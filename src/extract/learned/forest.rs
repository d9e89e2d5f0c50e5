//! Gradient-boosted forests as LightGBM trains them, evaluated from static tables: the block
//! model's ([`super::trees`]) and the page models' (`crate::page::model::trees`).
//!
//! A forest is three tables, the splits, the leaves and the tree roots, generated as Rust
//! source by the trainers (`lab/train/`), numbers in their shortest round-trip form so they are
//! the trainer's f64 values exactly. A walk is a loop from the root to a leaf, never recursive:
//! a numeric split sends `x <= threshold` left, as LightGBM does; a categorical one sends the
//! categories it lists left and everything else (an unseen category, a negative or missing
//! value) right, as LightGBM does.

/// What a split asks of its feature.
#[derive(Clone, Copy, Debug)]
pub enum Test {
    /// At most this value goes left (LightGBM's `<=`).
    AtMost(f64),
    /// One of these categories (sorted) goes left (LightGBM's `==` over a category set).
    In(&'static [u32]),
}

/// One split of a tree. A child `c >= 0` is a split's index in [`Forest::splits`]; `c < 0` is
/// the leaf `!c` of [`Forest::leaves`].
#[derive(Clone, Copy, Debug)]
pub struct Split {
    /// The feature's index in the model's feature list.
    pub feature: u16,
    /// The question asked of it.
    pub test: Test,
    /// The left child.
    pub left: i32,
    /// The right child.
    pub right: i32,
}

/// A boosted forest: tree `i` adds to output `i % outputs`.
#[derive(Clone, Copy, Debug)]
pub struct Forest {
    /// Outputs: 1 for a regressor or a binary classifier, the number of classes for a
    /// multiclass one.
    pub outputs: usize,
    /// Each tree's root, encoded as a child is ([`Split`]).
    pub roots: &'static [i32],
    /// All trees' splits.
    pub splits: &'static [Split],
    /// All trees' leaf values.
    pub leaves: &'static [f64],
}

impl Forest {
    /// The raw scores (sums of leaf values, in tree order) of the row `x`. A missing or NaN
    /// feature counts as 0 in a numeric split, as LightGBM treats them in a model trained
    /// without missing values.
    pub fn raw(&self, x: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.outputs.max(1)];
        self.raw_into(x, &mut out);
        out
    }

    /// [`Forest::raw`] into `out` (at least [`Forest::outputs`] long, set to the scores), so a
    /// caller scoring many rows allocates once.
    pub fn raw_into(&self, x: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|o| *o = 0.0);
        let outputs = self.outputs.max(1);
        for (i, &root) in self.roots.iter().enumerate() {
            let mut node = root;
            // Every child index is above its parent's, so a walk takes at most one step per
            // split; the bound only guards a hand-edited table.
            let mut steps = 0;
            while node >= 0 && steps <= self.splits.len() {
                let Some(s) = self.splits.get(node as usize) else {
                    break;
                };
                let v = x.get(usize::from(s.feature)).copied().unwrap_or(f64::NAN);
                let left = match s.test {
                    Test::AtMost(t) => (if v.is_nan() { 0.0 } else { v }) <= t,
                    Test::In(set) => {
                        v >= 0.0 && v.fract() == 0.0 && set.binary_search(&(v as u32)).is_ok()
                    }
                };
                node = if left { s.left } else { s.right };
                steps += 1;
            }
            let leaf = if node < 0 {
                self.leaves.get(!node as usize).copied().unwrap_or(0.0)
            } else {
                0.0
            };
            if let Some(o) = out.get_mut(i % outputs) {
                *o += leaf;
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

    #[test]
    fn numeric_and_categorical_splits_go_the_way_lightgbm_sends_them() {
        // Tree 0: x0 <= 1.5 ? leaf 0 : leaf 1. Tree 1: x1 in {2, 7} ? leaf 2 : leaf 3.
        static SPLITS: [Split; 2] = [
            Split {
                feature: 0,
                test: Test::AtMost(1.5),
                left: !0,
                right: !1,
            },
            Split {
                feature: 1,
                test: Test::In(&[2, 7]),
                left: !2,
                right: !3,
            },
        ];
        static F: Forest = Forest {
            outputs: 1,
            roots: &[0, 1],
            splits: &SPLITS,
            leaves: &[1.0, 10.0, 100.0, 1000.0],
        };
        assert_eq!(F.raw(&[1.5, 2.0]), [101.0]);
        assert_eq!(F.raw(&[1.6, 7.0]), [110.0]);
        // An unseen category, a negative code (no category) and a missing value go right.
        assert_eq!(F.raw(&[0.0, 3.0]), [1001.0]);
        assert_eq!(F.raw(&[0.0, -1.0]), [1001.0]);
        assert_eq!(F.raw(&[f64::NAN]), [1001.0]);
        assert!((logistic(0.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_forest_is_walked_as_lightgbm_does() {
        // One tree: x0 <= 1.5 ? (x1 <= 0 ? 1 : 2) : 3; a second tree adds 0.5.
        static SPLITS: [Split; 2] = [
            Split {
                feature: 0,
                test: Test::AtMost(1.5),
                left: 1,
                right: !2,
            },
            Split {
                feature: 1,
                test: Test::AtMost(0.0),
                left: !0,
                right: !1,
            },
        ];
        static F: Forest = Forest {
            outputs: 1,
            roots: &[0, !3],
            splits: &SPLITS,
            leaves: &[1.0, 2.0, 3.0, 0.5],
        };
        assert_eq!(F.raw(&[1.5, 0.0]), vec![1.5]);
        assert_eq!(F.raw(&[1.0, 1.0]), vec![2.5]);
        assert_eq!(F.raw(&[2.0, -1.0]), vec![3.5]);
        assert_eq!(F.raw(&[f64::NAN]), vec![1.5]); // NaN and missing as 0
    }
}
