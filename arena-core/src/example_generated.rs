//! The expansion of `#[derive(ArenaAlloc)]` on two example structs, for reading in
//! rustdoc: everything in this module but the two structs was generated.
//!
//! [`Particle`] uses the struct-of-arrays layout:
//!
//! ```
//! use arena_kit::ArenaAlloc;
//!
//! #[derive(ArenaAlloc)]
//! #[arena(soa, capacity = 64)]
//! pub struct Particle {
//!     pub pos: [f32; 3],
//!     pub vel: [f32; 3],
//!     pub mass: f32,
//! }
//! ```
//!
//! which generates [`ParticlePool`] (derefs to [`SoaPool`](crate::SoaPool); with
//! `with_fixed` and `with_storage` besides `with`), the row views [`ParticleRef`] and
//! [`ParticleMut`], the column views [`ParticleColumns`] and [`ParticleColumnsMut`], the
//! aliases [`ParticleHandle`] and [`ParticleKey`], the storage of 64 rows
//! [`ParticleStorage`], and the [`SoaRow`](crate::SoaRow) and
//! [`Views`](crate::pool::soa::Views) impls.
//!
//! [`Node`] uses the plain layout, and names its own pool's keys through its brand:
//!
//! ```
//! use arena_kit::ArenaAlloc;
//!
//! #[derive(ArenaAlloc)]
//! #[arena(brand = 'id)]
//! pub struct Node<'id> {
//!     pub value: u32,
//!     pub next: Option<NodeKey<'id>>,
//! }
//! ```
//!
//! which generates [`NodePool`] (derefs to [`Pool`](crate::Pool)), [`NodeHandle`] and
//! [`NodeKey`].
//!
//! [`Sensor`] uses the plain layout with a fixed capacity, for code without a heap:
//!
//! ```
//! use arena_kit::ArenaAlloc;
//!
//! #[derive(ArenaAlloc)]
//! #[arena(capacity = 8)]
//! pub struct Sensor {
//!     pub id: u8,
//!     pub reading: i16,
//! }
//! ```
//!
//! which generates [`SensorPool`] (with `with_fixed` and `with_storage`), [`SensorStorage`],
//! [`SensorHandle`] and [`SensorKey`].
//!
//! [`Particle`]: crate::example_generated::Particle
//! [`ParticlePool`]: crate::example_generated::ParticlePool
//! [`ParticleRef`]: crate::example_generated::ParticleRef
//! [`ParticleMut`]: crate::example_generated::ParticleMut
//! [`ParticleColumns`]: crate::example_generated::ParticleColumns
//! [`ParticleColumnsMut`]: crate::example_generated::ParticleColumnsMut
//! [`ParticleHandle`]: crate::example_generated::ParticleHandle
//! [`ParticleKey`]: crate::example_generated::ParticleKey
//! [`ParticleStorage`]: crate::example_generated::ParticleStorage
//! [`Node`]: crate::example_generated::Node
//! [`NodePool`]: crate::example_generated::NodePool
//! [`NodeHandle`]: crate::example_generated::NodeHandle
//! [`NodeKey`]: crate::example_generated::NodeKey
//! [`Sensor`]: crate::example_generated::Sensor
//! [`SensorPool`]: crate::example_generated::SensorPool
//! [`SensorStorage`]: crate::example_generated::SensorStorage
//! [`SensorHandle`]: crate::example_generated::SensorHandle
//! [`SensorKey`]: crate::example_generated::SensorKey

use crate as arena_kit;
use crate::ArenaAlloc;

/// A particle stored struct-of-arrays: each field in a column of its own; 64 of them fit
/// a storage of their own.
#[derive(ArenaAlloc)]
#[arena(soa, capacity = 64, crate = arena_kit)]
pub struct Particle {
    /// Position.
    pub pos: [f32; 3],
    /// Velocity.
    pub vel: [f32; 3],
    /// Mass.
    pub mass: f32,
}

/// A list node holding a key of its own pool.
#[derive(ArenaAlloc)]
#[arena(brand = 'id, crate = arena_kit)]
pub struct Node<'id> {
    /// The payload.
    pub value: u32,
    /// The next node, if any.
    pub next: Option<NodeKey<'id>>,
}

/// A sensor reading, in a pool of eight fixed slots.
#[derive(ArenaAlloc)]
#[arena(capacity = 8, crate = arena_kit)]
pub struct Sensor {
    /// Which sensor.
    pub id: u8,
    /// What it read.
    pub reading: i16,
}
