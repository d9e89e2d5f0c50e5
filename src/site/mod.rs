//! Site-level work over many pages of one host: learning FastCE templates (`learn`), their
//! store (`store`), a host's template paths (`paths`) and TEXT-MDL clustering of its
//! pages ([`cluster`]), and site-level templates from a key page's links ([`links`]) with the
//! exact top-down mapping (`etdm`). What one template is, and its file format, is FastCE's
//! model in `crate::extract::fastce::model`; applying a template to one page is
//! `crate::extract::fastce`.

pub(crate) mod cluster;
pub(crate) mod etdm;
pub(crate) mod learn;
pub mod links;
pub(crate) mod paths;
pub(crate) mod store;

pub use crate::extract::fastce::model::{
    DEFAULT_MIN_MATCH, EXT, Family, LoadError, MAGIC, MAX_FILE, MAX_SIGNATURE, Member, Template,
    TemplateFault, VERSION,
};
pub use crate::extract::sample::Seeded;
pub use cluster::{Cluster, Clustering, DEFAULT_SIGNATURE, cluster};
pub use learn::{PageSummary, learn_family, read_site, save, site_texts, summarize};
pub use paths::paths_of_page;
pub use store::{Store, file_for, host_of};
