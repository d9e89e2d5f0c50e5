//! Words as the field's scorers count them: Python's `re.findall(r"\w+", text.lower())`
//! (`shared/peers/README.md`, "Scorer rules"). The evaluation ([`crate::eval::metrics`])
//! scores with them, the block model ([`crate::extract::learned`]) counts a block's words with
//! them and [`crate::extract::repeats`] compares lines by them, so all count the same words.

use unicode_general_category::{GeneralCategory as G, get_general_category};

/// Python's `\w` (with `str.lower` applied before): `_`, letters and numbers.
pub(crate) fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    matches!(
        get_general_category(c),
        G::UppercaseLetter
            | G::LowercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter
            | G::DecimalNumber
            | G::LetterNumber
            | G::OtherNumber
    )
}

/// The lower-cased `\w+` tokens of `text`.
pub fn tokens(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in lower.char_indices() {
        match (is_word_char(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(lower[s..i].to_string());
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(lower[s..].to_string());
    }
    out
}

/// How many tokens [`tokens`] gives, without allocating them: each character lower-cased as
/// `str::to_lowercase` does (its one context rule, a final sigma, lower-cases to another
/// letter, so the count is the same).
pub(crate) fn count_tokens(text: &str) -> usize {
    if text.is_ascii() {
        // ASCII text is its bytes, and no byte lower-cases to another class: the starts of
        // runs of word bytes, counted with no branch.
        let (mut n, mut in_word) = (0, false);
        for &b in text.as_bytes() {
            let w = b.is_ascii_alphanumeric() | (b == b'_');
            n += usize::from(w & !in_word);
            in_word = w;
        }
        return n;
    }
    let (mut n, mut in_word) = (0, false);
    let mut step = |c: char| {
        let w = is_word_char(c);
        n += usize::from(w && !in_word);
        in_word = w;
    };
    for c in text.chars() {
        // An ASCII character lower-cases to one character of the same class: no need to ask.
        if c.is_ascii() {
            step(c);
        } else {
            c.to_lowercase().for_each(&mut step);
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counting_tokens_agrees_with_making_them() {
        for s in [
            "",
            "  ",
            "Hello, world_2!",
            "ΟΔΥΣΣΕΥΣ σοφός",
            "İstanbul café naïve",
            "日本語のテキスト 123",
            "a\u{301}b c\u{0308}",
            "x-y z--",
        ] {
            assert_eq!(count_tokens(s), tokens(s).len(), "{s:?}");
        }
        // ASCII texts, which are counted byte by byte: every class of byte, in every order.
        let bytes = b"aZ09_ -.,\t\n\x01\x7f";
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for len in 0..300 {
            let s: String = (0..len % 30)
                .map(|_| {
                    char::from(
                        bytes[(crate::hash::xorshift64(&mut x) % bytes.len() as u64) as usize],
                    )
                })
                .collect();
            assert_eq!(count_tokens(&s), tokens(&s).len(), "{s:?}");
        }
    }
}
