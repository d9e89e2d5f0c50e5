//! The arena tree. (being written)
pub type NodeId = u32;
