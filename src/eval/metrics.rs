//! The field's accuracy measures, implemented to match the reference scorer bit for bit
//! (`shared/peers/README.md`, "Scorer rules").
//!
//! - Tokens: Python's `re.findall(r"\w+", text.lower())`: full Unicode lower-casing, then maximal
//!   runs of `_` or characters whose general category is a letter or a number (Lu Ll Lt Lm Lo,
//!   Nd Nl No, Python's `str.isalnum`). Combining marks split tokens, as in Python.
//! - Bag of words (ScrapingHub's article-extraction-benchmark): the multiset overlap.
//! - LCS (Gottron's measure, used by the DANAg paper): the longest common subsequence of the two
//!   token lists, computed bit-parallel (Allison and Dix 1986, Crochemore et al. 2001; Hyyrö
//!   2004): 64 tokens of the shorter list per machine word, so a 20,000-word page scores in
//!   milliseconds.
//! - Snippets (trafilatura's evaluation): white-space-normalized containment of `with` and
//!   `without` snippets, counted over a whole set.

use ahash::AHashMap;

pub use crate::text::tokens;

/// Precision, recall and F1 of one page. P is `None` for an empty prediction and R for an empty
/// gold, so set means can skip them as the reference scorer does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prf {
    /// Matched tokens over predicted tokens, in 0..=1; `None` when the prediction has no tokens.
    pub precision: Option<f64>,
    /// Matched tokens over gold tokens, in 0..=1; `None` when the gold has no tokens.
    pub recall: Option<f64>,
    /// Harmonic mean of precision and recall, in 0..=1 (1 when both sides are empty).
    pub f1: f64,
}

/// Scores `common` matched tokens of `pred` predicted and `gold` gold tokens: both empty is a
/// perfect 1, exactly one empty is 0.
pub(crate) fn prf(common: usize, pred: usize, gold: usize) -> Prf {
    let precision = (pred > 0).then(|| common as f64 / pred as f64);
    let recall = (gold > 0).then(|| common as f64 / gold as f64);
    let f1 = match (precision, recall) {
        (Some(p), Some(r)) if p + r > 0.0 => 2.0 * p * r / (p + r),
        (Some(_), Some(_)) => 0.0,
        (None, None) => 1.0,
        _ => 0.0,
    };
    Prf {
        precision,
        recall,
        f1,
    }
}

/// Maps both token lists to dense integer ids (shared vocabulary).
fn ids<'t>(pred: &'t [String], gold: &'t [String]) -> (Vec<u32>, Vec<u32>, usize) {
    let mut vocab: AHashMap<&'t str, u32> = AHashMap::new();
    let mut map = |t: &'t [String]| -> Vec<u32> {
        t.iter()
            .map(|w| {
                let n = vocab.len() as u32;
                *vocab.entry(w.as_str()).or_insert(n)
            })
            .collect()
    };
    let p = map(pred);
    let g = map(gold);
    (p, g, vocab.len())
}

/// Bag-of-words overlap: the sum over tokens of the smaller of the two counts.
pub(crate) fn bow_common(pred: &[String], gold: &[String]) -> usize {
    let (p, g, v) = ids(pred, gold);
    let mut count = vec![0i64; v];
    for &t in &g {
        count[t as usize] += 1;
    }
    let mut common = 0;
    for &t in &p {
        let c = &mut count[t as usize];
        if *c > 0 {
            *c -= 1;
            common += 1;
        }
    }
    common
}

/// Bag-of-words precision, recall and F1.
pub fn bow(pred: &[String], gold: &[String]) -> Prf {
    prf(bow_common(pred, gold), pred.len(), gold.len())
}

/// LCS precision, recall and F1.
pub fn lcs(pred: &[String], gold: &[String]) -> Prf {
    let (p, g, v) = ids(pred, gold);
    prf(lcs_len(&p, &g, v), pred.len(), gold.len())
}

/// Length of the longest common subsequence of `a` and `b` (token ids below `vocab`),
/// bit-parallel over the shorter sequence: V starts all ones; for each symbol c of the longer
/// sequence, `U = V & M[c]; V = (V + U) | (V - U)`; the LCS is the number of zero bits of V.
/// Multi-word additions carry and subtractions borrow across words. O(n·m/64) time.
pub(crate) fn lcs_len(a: &[u32], b: &[u32], vocab: usize) -> usize {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let m = short.len();
    if m == 0 {
        return 0;
    }
    let words = m.div_ceil(64);
    // Match masks, only for symbols that occur in the short sequence.
    let mut slot = vec![u32::MAX; vocab];
    let mut masks: Vec<u64> = Vec::new();
    for (i, &c) in short.iter().enumerate() {
        let s = &mut slot[c as usize];
        if *s == u32::MAX {
            *s = (masks.len() / words) as u32;
            masks.resize(masks.len() + words, 0);
        }
        masks[*s as usize * words + i / 64] |= 1 << (i % 64);
    }
    let mut v = vec![u64::MAX; words];
    for &c in long {
        let s = slot[c as usize];
        if s == u32::MAX {
            continue; // U = 0 leaves V unchanged
        }
        let mask = &masks[s as usize * words..(s as usize + 1) * words];
        let mut carry = 0u64;
        let mut borrow = 0u64;
        for (vw, &mw) in v.iter_mut().zip(mask) {
            let u = *vw & mw;
            let (sum1, c1) = vw.overflowing_add(u);
            let (sum, c2) = sum1.overflowing_add(carry);
            carry = u64::from(c1 || c2);
            let (dif1, b1) = vw.overflowing_sub(u);
            let (dif, b2) = dif1.overflowing_sub(borrow);
            borrow = u64::from(b1 || b2);
            *vw = sum | dif;
        }
    }
    let mut zeros = 0;
    for (i, w) in v.iter().enumerate() {
        let bits = if i + 1 == words && m % 64 != 0 {
            m % 64
        } else {
            64
        };
        let valid = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        zeros += (!w & valid).count_ones() as usize;
    }
    zeros
}

/// Snippet counts of one page or a whole set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SnippetCounts {
    /// `with` snippets found in the output (true positives).
    pub tp: usize,
    /// `without` snippets found in the output (false positives).
    pub fp: usize,
    /// `with` snippets missing from the output (false negatives).
    pub fn_: usize,
    /// `without` snippets missing from the output (true negatives).
    pub tn: usize,
}

impl SnippetCounts {
    /// Adds `o`'s four counts to these, to total a set.
    pub fn add(&mut self, o: SnippetCounts) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
        self.tn += o.tn;
    }
    /// `tp / (tp + fp)`; 0 when nothing was found.
    pub fn precision(&self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }
    /// `tp / (tp + fn)`; 0 when there are no `with` snippets.
    pub fn recall(&self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }
    /// `2·tp / (2·tp + fp + fn)`; 0 when all three counts are 0.
    pub fn f1(&self) -> f64 {
        ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn_)
    }
    /// `(tp + tn)` over all snippets; 0 when there are none.
    pub fn accuracy(&self) -> f64 {
        ratio(self.tp + self.tn, self.tp + self.tn + self.fp + self.fn_)
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// Collapses every run of white space to one space and trims (`re.sub(r"\s+", " ", s).strip()`).
pub(crate) fn normalize_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// Scores an output against `with` and `without` snippets (case-sensitive containment after
/// white-space normalisation).
pub fn snippets(output: &str, with: &[String], without: &[String]) -> SnippetCounts {
    let out = normalize_ws(output);
    let found = |s: &String| out.contains(&normalize_ws(s));
    let mut c = SnippetCounts::default();
    for s in with {
        if found(s) { c.tp += 1 } else { c.fn_ += 1 }
    }
    for s in without {
        if found(s) { c.fp += 1 } else { c.tn += 1 }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Vec<String> {
        tokens(s)
    }

    #[test]
    fn tokens_follow_python() {
        assert_eq!(
            t("Hello, World! it's 2024_x"),
            ["hello", "world", "it", "s", "2024_x"]
        );
        assert_eq!(t("Straße ÄNDERN"), ["straße", "ändern"]);
        assert_eq!(t("中文，测试"), ["中文", "测试"]);
        // A combining mark (Mn) splits a token in Python's \w.
        assert_eq!(t("e\u{301}t\u{e9}"), ["e", "t\u{e9}"]);
        assert_eq!(t("ΟΔΟΣ"), ["οδος"]);
    }

    #[test]
    fn known_cases() {
        let gold = t("a b c d");
        assert_eq!(bow(&gold, &gold).f1, 1.0);
        assert_eq!(lcs(&gold, &gold).f1, 1.0);
        let empty: Vec<String> = vec![];
        assert_eq!(bow(&empty, &empty).f1, 1.0);
        let e = bow(&empty, &gold);
        assert_eq!((e.precision, e.recall, e.f1), (None, Some(0.0), 0.0));
        let e = bow(&gold, &empty);
        assert_eq!((e.precision, e.recall, e.f1), (Some(0.0), None, 0.0));
        assert_eq!(bow(&t("x y"), &gold).f1, 0.0);
        // Reordered paragraphs: bag of words does not care, LCS does.
        let reordered = t("c d a b");
        assert_eq!(bow(&reordered, &gold).f1, 1.0);
        assert_eq!(lcs(&reordered, &gold).f1, 0.5);
        // Half the prediction is boilerplate.
        let p = bow(&t("a b c d x y z w"), &gold);
        assert_eq!((p.precision, p.recall), (Some(0.5), Some(1.0)));
    }

    fn lcs_dp(a: &[u32], b: &[u32]) -> usize {
        let mut prev = vec![0usize; b.len() + 1];
        for &x in a {
            let mut cur = vec![0usize; b.len() + 1];
            for (j, &y) in b.iter().enumerate() {
                cur[j + 1] = if x == y {
                    prev[j] + 1
                } else {
                    prev[j + 1].max(cur[j])
                };
            }
            prev = cur;
        }
        prev[b.len()]
    }

    /// On 2,000 seeded random pairs of token sequences (lengths 0-199 over a 6-word
    /// vocabulary, so common subsequences are long and ties frequent).
    #[test]
    fn bit_parallel_lcs_equals_dynamic_programming() {
        use crate::extract::sample::xorshift64;
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let seq = |rng: &mut u64| -> Vec<u32> {
            let n = (xorshift64(rng) % 200) as usize;
            (0..n).map(|_| (xorshift64(rng) % 6) as u32).collect()
        };
        for _ in 0..2_000 {
            let (a, b) = (seq(&mut rng), seq(&mut rng));
            assert_eq!(lcs_len(&a, &b, 6), lcs_dp(&a, &b), "{a:?} {b:?}");
        }
    }

    #[test]
    fn lcs_is_fast_on_long_pages() {
        let a: Vec<u32> = (0..20_000).map(|i| (i * 7919 % 3001) as u32).collect();
        let b: Vec<u32> = (0..20_000).map(|i| (i * 104_729 % 3001) as u32).collect();
        let n = lcs_len(&a, &b, 3001);
        assert!(n > 0 && n <= 20_000);
    }

    #[test]
    fn snippet_counts() {
        let with = vec!["the  quick\nfox".to_string(), "absent".to_string()];
        let without = vec!["menu".to_string(), "footer text".to_string()];
        let c = snippets(
            "The start: the quick fox jumps. Footer text",
            &with,
            &without,
        );
        assert_eq!(
            c,
            SnippetCounts {
                tp: 1,
                fn_: 1,
                fp: 0,
                tn: 2
            }
        );
        assert_eq!(c.f1(), 2.0 / 3.0);
    }
}
