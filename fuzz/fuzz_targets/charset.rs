//! The charset decoder on arbitrary bytes and labels: no panic, deterministic, bounded output
//! (at most 3 UTF-8 bytes per input byte: U+FFFD for every bad byte is the worst case), and
//! valid UTF-8 input with no BOM or declaration comes back unchanged.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pith::lab::decode;

const LABELS: &[&str] = &[
    "utf-8",
    "utf-16le",
    "utf-16be",
    "windows-1252",
    "shift_jis",
    "euc-jp",
    "iso-2022-jp",
    "gbk",
    "gb18030",
    "big5",
    "euc-kr",
    "koi8-r",
    "x-user-defined",
    "replacement",
    "bogus",
];

fuzz_target!(|data: &[u8]| {
    let Some((&sel, page)) = data.split_first() else {
        return;
    };
    let pick = |k: u8| (k & 0x80 != 0).then(|| LABELS[k as usize % LABELS.len()]);
    let forced = pick(sel);
    let transport = pick(sel.rotate_left(4));
    let a = decode::decode(page, forced, transport);
    let b = decode::decode(page, forced, transport);
    assert_eq!(a.text, b.text);
    assert_eq!(a.encoding, b.encoding);
    assert!(
        a.text.len() <= page.len() * 3 + 3,
        "{} bytes from {}",
        a.text.len(),
        page.len()
    );
    if forced.is_none()
        && transport.is_none()
        && encoding_rs::Encoding::for_bom(page).is_none()
        && page.len() <= 1024
        && !page.contains(&b'<')
        && let Ok(s) = std::str::from_utf8(page)
    {
        assert_eq!(a.text, s);
    }
    let _ = decode::looks_binary(page);
});
