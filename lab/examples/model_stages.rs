//! Times the stages of `--algo model` over a directory: parse, `auto` alone, the description
//! (`auto` traced, DANAg's profile, the blocks and their numbers), the two forests, the
//! selection and the text. Usage: `model_stages DIR [PASSES]`.
use std::time::Instant;
fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("usage: model_stages DIR [PASSES]");
    let passes: usize = args.next().and_then(|p| p.parse().ok()).unwrap_or(5);
    let raw: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| std::fs::read(e.ok()?.path()).ok())
        .collect();
    let texts: Vec<String> = raw
        .iter()
        .map(|b| pith::lab::decode::decode(b, None, None).text.into_owned())
        .collect();
    let mb: f64 = raw.iter().map(|p| p.len()).sum::<usize>() as f64 / 1e6;
    let names = ["parse", "auto", "describe", "forests", "select+render"];
    let mut t = [0f64; 5];
    let (mut blocks, mut zero) = (0usize, 0usize);
    let mut arena = bumpalo::Bump::new();
    for pass in 0..passes {
        for text in &texts {
            arena.reset();
            let t0 = Instant::now();
            let doc = pith::lab::html::Document::parse(text, &arena);
            let t1 = Instant::now();
            let sel = pith::lab::extract::auto::extract(
                &doc,
                &pith::lab::extract::auto::Tuning::new(Default::default(), false),
            );
            let t2 = Instant::now();
            let d = pith::lab::extract::learned::describe(&doc);
            let t3 = Instant::now();
            let (_, raw2) = pith::lab::extract::learned::raw_scores(&d);
            let t4 = Instant::now();
            if pass == 0 {
                blocks += d.blocks.len();
                zero += (0..d.blocks.len())
                    .filter(|&i| d.row(i)[pith::lab::extract::learned::features::WORDS] == 0.0)
                    .count();
            }
            let judged = pith::lab::extract::learned::judge_scores(
                &d,
                &raw2,
                pith::lab::extract::auto::Mode::Balanced,
            );
            let s = pith::lab::extract::learned::select(d, &judged.blocks);
            let out = pith::lab::output::text::render(&doc, &s);
            let t5 = Instant::now();
            std::hint::black_box((sel.nodes.len(), out));
            for (i, w) in [t0, t1, t2, t3, t4, t5].windows(2).enumerate() {
                t[i] += (w[1] - w[0]).as_secs_f64();
            }
        }
    }
    println!(
        "{} pages, {blocks} blocks ({zero} without words)",
        texts.len()
    );
    for (name, secs) in names.iter().zip(t) {
        println!(
            "{name:<14} {:>8.1} ms/pass {:>8.1} MB/s",
            secs * 1e3 / passes as f64,
            mb * passes as f64 / secs
        );
    }
}
