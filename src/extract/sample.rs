//! Repeatable sampling: a fixed tiny generator and a seeded uniform sample of indices, used
//! wherever pith picks some of a site's pages (the text detector's training pages, the
//! learner's reservoir per host), so that every run picks the same ones.

/// The generator, xorshift64: `crate::hash`'s.
pub use crate::hash::xorshift64;

/// A repeatable random sequence seeded by a name (its FNV-1a hash): the learner's reservoir
/// draws a host's pages with one, so every run keeps the same pages of a host.
#[derive(Clone, Debug)]
pub struct Seeded(u64);

impl Seeded {
    /// The sequence of `name` (a host).
    pub fn new(name: &str) -> Seeded {
        Seeded(
            crate::extract::blocks::fnv1a(crate::extract::blocks::FNV_OFFSET, name.as_bytes()) | 1,
        )
    }

    /// The next number of the sequence.
    pub fn next_u64(&mut self) -> u64 {
        xorshift64(&mut self.0)
    }
}

/// `p` of the indices `0..n` chosen uniformly at random (partial Fisher-Yates with a fixed seed,
/// so runs repeat), in increasing order; all of them when `n <= p`.
pub fn sample_indices(n: usize, p: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    if n <= p {
        return idx;
    }
    let mut state = 0x2545_f491_4f6c_dd1d;
    for k in 0..p {
        let r = xorshift64(&mut state);
        let j = k + (r % (n - k) as u64) as usize;
        idx.swap(k, j);
    }
    idx.truncate(p);
    idx.sort_unstable();
    idx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_indices_takes_p_distinct_indices() {
        let s = sample_indices(100, 30);
        assert_eq!(s.len(), 30);
        assert!(s.windows(2).all(|w| w[0] < w[1]) && s.iter().all(|&i| i < 100));
        assert_eq!(sample_indices(5, 30), vec![0, 1, 2, 3, 4]);
    }
}
