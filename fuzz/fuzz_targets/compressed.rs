//! The compressed-input reader (`pith::lab::input::compress::Decoded`: zstd frames, xz and bzip2
//! streams, gzip members in any order, with resynchronization after damage) on arbitrary
//! bytes behind each magic number. No panic, no stall: every read gives bytes or one error
//! and goes on, the errors are at most one per input byte, and the bytes handed out stay
//! within the bound the decoders' ratios allow.
#![no_main]
use std::io::Read;

use libfuzzer_sys::fuzz_target;
use pith::lab::input::compress::Decoded;

/// Output read at most (a bomb is not the point here).
const OUT_MAX: usize = 64 << 20;

fuzz_target!(|data: &[u8]| {
    let magics: [&[u8]; 5] = [
        &[0x28, 0xb5, 0x2f, 0xfd],
        b"\xfd7zXZ\x00",
        b"BZh91AY&SY",
        &[0x1f, 0x8b, 0x08, 0x00],
        &[],
    ];
    for magic in magics {
        let input = [magic, data].concat();
        let mut d = Decoded::new(&input[..], 0, 1 << 16);
        let mut buf = vec![0u8; 1 << 16];
        let (mut out, mut errors) = (0usize, 0usize);
        loop {
            match d.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    out += n;
                    if out > OUT_MAX {
                        break;
                    }
                }
                Err(_) => {
                    errors += 1;
                    assert!(errors <= input.len() + 1, "more errors than input bytes");
                }
            }
        }
    }
});
