//! Growable collections in a scope, owning boxes, and the traits and macros that build
//! them: bumpalo's `collections` and `boxed`, for a [`Scope`](crate::Scope) or an
//! [`Arena`](crate::Arena).
//!
//! [`ArenaVec`], [`ArenaString`] and [`ArenaBox`] are at the crate root; [`vec`](mod@vec) holds
//! the vector's iterators. [`CollectIn`] and [`FromIteratorIn`] collect into them, and
//! the crate's `vec!` and `format!` macros build them.

mod boxed;
mod collect_in;
mod macros;
mod string;
pub mod vec;

pub use boxed::ArenaBox;
pub use collect_in::{CollectIn, FromIteratorIn};
pub use string::ArenaString;
pub use vec::ArenaVec;
