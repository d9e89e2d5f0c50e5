//! The whole extraction, every algorithm, on arbitrary bytes: no panic, valid UTF-8 out, and
//! the same output twice.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for &algo in pith::Algo::ALL {
        let opts = pith::Options { algo, ..Default::default() };
        let a = pith::extract(data, None, &opts).map(|e| e.text);
        let b = pith::extract(data, None, &opts).map(|e| e.text);
        assert_eq!(a, b);
    }
});
