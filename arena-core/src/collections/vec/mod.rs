//! [`ArenaVec`], a growable vector in a scope, and its iterators: [`Drain`],
//! [`ExtractIf`] and [`IntoIter`], as `std::vec`'s.

mod arena_vec;
mod drain;
mod extract_if;
mod into_iter;

pub use arena_vec::ArenaVec;
pub use drain::Drain;
pub use extract_if::ExtractIf;
pub use into_iter::IntoIter;
