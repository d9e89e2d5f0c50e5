//! The research lab's door (`pith-lab`, the benches, the fuzz targets and the tests that look
//! inside a stage): the internals they drive, re-exported at their own paths
//! (`pith::lab::html::tree::NONE` is `html::tree::NONE`), and the research knobs no user
//! sets. Hidden from the documentation and outside the stable API: nothing here is promised.
#![allow(missing_docs)]

pub mod decode {
    pub use crate::decode::{decode, looks_binary};
}
pub mod eval {
    pub use crate::eval::{Dataset, Error};
    pub mod metrics {
        pub use crate::eval::metrics::{bow, lcs, snippets, tokens};
    }
}
pub mod explain {
    pub use crate::explain::{Explained, explain, explain_with_gold};
    pub mod rows {
        pub use crate::explain::rows::{
            ANCESTOR_BUCKETS, BlockRow, FEATURES, Labels, N_FEATURES, OWN_BUCKETS, block_rows,
        };
    }
}
pub mod extract {
    pub use crate::extract::{Algo, AlgoOptions, Selection, comments, run, with_comments};
    pub mod auto {
        pub use crate::extract::auto::{
            Mode, Outcome, Rule, Rules, Trace, Tuning, extract, extract_traced,
        };
    }
    pub mod blocks {
        pub use crate::extract::blocks::{FNV_OFFSET, blocks, fnv1a, layout, path_of};
    }
    pub mod ce {
        pub use crate::extract::ce::Params;
    }
    pub mod danag {
        pub use crate::extract::danag::{
            PAPER_GAP, Segments, extract, profile, select_lines, token_lines,
        };
    }
    pub mod fastce {
        pub use crate::extract::fastce::{detect, with_auto, with_template};
    }
    pub mod learned {
        pub use crate::extract::learned::{
            describe, extract, judge_scores, model, raw_scores, select,
        };
        pub mod features {
            pub use crate::extract::learned::features::WORDS;
        }
        pub mod forest {
            pub use crate::extract::learned::forest::logistic;
        }
    }
    pub mod sample {
        pub use crate::extract::sample::{sample_indices, xorshift64};
    }
    pub mod tmpl_dom {
        pub use crate::extract::tmpl_dom::{Model, Params, detect, hashes, site};
    }
    pub mod tmpl_text {
        pub use crate::extract::tmpl_text::{PageText, Params, detect, learn, page_text, site};
    }
}
pub mod html {
    pub use crate::html::tokens::TokenKind;
    pub use crate::html::tree::{Kind, Node, NodeId};
    pub use crate::html::{Arena, Document, Tag};
    pub mod entities {
        pub use crate::html::entities::decode;
    }
    pub mod tree {
        pub use crate::html::tree::{Builder, Kind, MAX_DEPTH, NONE, ROOT, context};
    }
}
pub mod input {
    pub use crate::input::{DEFAULT_MAX_RECORD, Framing, Input, Item, Pool, Record, Stream};
    pub mod compress {
        pub use crate::input::compress::Decoded;
    }
    pub mod gzip {
        pub use crate::input::gzip::Members;
    }
    pub mod jsonl {
        pub use crate::input::jsonl::Reader;
    }
    pub mod split {
        pub use crate::input::split::Splitter;
    }
    pub mod warc {
        pub use crate::input::warc::Reader;
    }
}
pub mod output {
    pub use crate::output::{Format, RenderOptions, no_controls, render};
    pub mod images {
        pub use crate::output::images::MAX_IMAGES;
    }
    pub mod text {
        pub use crate::output::text::render;
    }
}
pub mod page {
    pub use crate::page::{
        Context, Options, decode_page, element_budget, extract, extract_buffer, extract_with,
        markup,
    };
    pub mod model {
        pub use crate::page::model::{
            N_FEATURES, PageType, confidence, feature_names, model, skip_models, type_probs,
        };
    }
}
pub mod pipeline {
    pub use crate::pipeline::{Config, JsonLines, run};
    pub mod json {
        pub use crate::pipeline::json::page;
    }
}
pub mod site {
    pub use crate::site::{Family, LoadError, Member, Template, VERSION, host_of};
    pub mod cluster {
        pub use crate::site::cluster::{
            Clustering, DEFAULT_SIGNATURE, MinHasher, cluster, cluster_exact, estimated_cost,
            exact_cost, exact_parts, single,
        };
    }
    pub mod learn {
        pub use crate::site::learn::{
            PageSummary, ce_site, learn, learn_family, learn_named, leave_out, names_of, read_site,
            summarize,
        };
    }
    pub mod links {
        pub use crate::site::links::{LinkErrorKind, Params, Site, extract, select};
    }
    pub mod paths {
        pub use crate::site::paths::{
            Threshold, essential, essential_by, page_paths, page_tag_paths,
        };
    }
}
pub mod text {
    pub use crate::text::tokens;
}

/// `auto`'s rules in `rules` switched off, to measure what each is worth (`pith-lab rules`).
pub fn without_rules(
    mut opts: crate::extract::AlgoOptions,
    rules: crate::extract::auto::Rules,
) -> crate::extract::AlgoOptions {
    opts.rules_off = rules;
    opts
}

/// The pipeline run with every stage but extraction: what reading, decoding and writing cost
/// (the throughput bench's floor).
pub fn skip_extraction(mut config: crate::pipeline::Config) -> crate::pipeline::Config {
    config.skip_extraction = true;
    config
}
