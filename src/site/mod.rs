//! Site-level work over many pages of one host: learning FastCE templates ([`learn`]), their
//! store ([`store`]), a host's template paths ([`paths`]) and TEXT-MDL clustering of its
//! pages ([`cluster`]), and site-level templates from a key page's links ([`links`]) with the
//! exact top-down mapping ([`etdm`]). What one template is, and its file format, is FastCE's
//! model in [`crate::extract::fastce::model`]; applying a template to one page is
//! [`crate::extract::fastce`].

pub mod cluster;
pub mod etdm;
pub mod learn;
pub mod links;
pub mod paths;
pub mod store;

pub use crate::extract::fastce::model::{
    DEFAULT_MIN_MATCH, EXT, Family, Fault as TemplateFault, LoadError, MAGIC, MAX_FILE,
    MAX_SIGNATURE, Member, Template, VERSION,
};
pub use store::{Store, file_for, host_of};
