//! WARC framing and gzip on arbitrary bytes, through every reader pith has: plain WARC, the
//! sequential gzip-member reader, and the splitter with its worker-side inflate. No panic, no
//! stall (items are bounded by the input size), no page over the record limit, and a record
//! limit that holds against gzip bombs (the reader never yields more than the limit).
#![no_main]
use std::io::{BufReader, Cursor, Read};

use libfuzzer_sys::fuzz_target;
use pith::input::{Item, Pool, Stream};
use pith::lab::input::{gzip, split, warc};

const MAX: usize = 1 << 16;

fn check(item: Item, pool: &Pool, n: &mut usize, bound: usize) {
    *n += 1;
    assert!(*n <= bound, "more items than input bytes allow");
    match item {
        Item::Page(rec) => assert!(rec.page().len() <= MAX, "page over the limit"),
        Item::Member(m) => check(m.finish(pool), pool, &mut 0, 1),
        // Only inputs opened for workers give ranges; this one is not.
        Item::Range(_) | Item::Skip(_) | Item::Fault(_) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    // A record needs at least a version line; an empty gzip member is 20 bytes.
    let bound = data.len() + 2;
    let pool = Pool::default();

    let mut n = 0;
    let mut plain = warc::Reader::new(data, "fuzz".into(), MAX);
    while let Some(item) = plain.next_item() {
        check(item, &pool, &mut n, bound);
    }

    let raw: Box<dyn Read + Send> = Box::new(Cursor::new(data.to_vec()));
    let mut members = gzip::Members::new(BufReader::new(raw));
    members.expect_records(b"WARC/");
    let mut seq = warc::Reader::new(Stream::Gzip(Box::new(members)), "fuzz".into(), MAX);
    let mut n = 0;
    while let Some(item) = seq.next_item() {
        check(item, &pool, &mut n, bound);
    }

    let raw: Box<dyn Read + Send> = Box::new(Cursor::new(data.to_vec()));
    let mut s = split::Splitter::new(raw, "fuzz".into(), MAX);
    let mut n = 0;
    while let Some(item) = s.next_item() {
        check(item, &pool, &mut n, bound);
    }
});
