//! The collections wing: growable vectors and strings in a scope, owning boxes, and the
//! macros and traits that build them.

pub(crate) mod boxed;
pub(crate) mod collect_in;
mod macros;
pub(crate) mod string;
pub(crate) mod vec;
