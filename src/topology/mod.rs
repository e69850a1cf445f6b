/*!
Topology: what Cluster API's topology controller would want to exist for one Cluster.

Owns the blueprint (class + resolved templates), generated names, and the desired state of
every object (desired-state.md §2–4), in Cluster API's `Generate` order. It reads only the input
— no current state yet — and produces plain JSON objects for `plan` to classify.
*/

pub mod blueprint;
pub mod contract;
pub mod desired;
pub mod names;
pub mod template;

pub use blueprint::{Blueprint, Catalog};
pub use desired::{DesiredObject, DesiredState, Role, compute};
