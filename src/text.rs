//! Words as the field's scorers count them: Python's `re.findall(r"\w+", text.lower())`
//! (`shared/peers/README.md`, "Scorer rules"). The evaluation ([`crate::eval::metrics`])
//! scores with them and the block model ([`crate::extract::learned`]) counts a block's words
//! with them, so both count the same words.

use unicode_general_category::{GeneralCategory as G, get_general_category};

/// Python's `\w` (with `str.lower` applied before): `_`, letters and numbers.
fn is_word_char(c: char) -> bool {
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
