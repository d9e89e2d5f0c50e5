//! The JSON lines reader on arbitrary bytes: no panic, no stall (every item consumes input, so
//! there are at most as many items as lines, which end at LF or CR), no page over the record limit, every record
//! numbered in order.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pith::input::Item;
use pith::lab::input::jsonl;

const MAX: usize = 4096;

fuzz_target!(|data: &[u8]| {
    let mut r = jsonl::Reader::new(data, "fuzz".into(), MAX);
    let lines = data.iter().filter(|&&b| b == b'\n' || b == b'\r').count() + 1;
    let mut items = 0;
    let mut last = 0;
    while let Some(item) = r.next_item() {
        items += 1;
        assert!(items <= lines, "more items than lines");
        let index = match item {
            Item::Page(rec) => {
                assert!(rec.page().len() <= MAX);
                rec.place.index
            }
            Item::Fault(f) => {
                assert!(f.place.offset <= data.len() as u64);
                f.place.index
            }
            other => panic!("unexpected item {other:?}"),
        };
        assert_eq!(index, last + 1);
        last = index;
    }
});
