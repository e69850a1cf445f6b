/*!
Topology: what Cluster API's topology controller would want to exist for one Cluster.

Owns the blueprint (class + resolved templates), generated names, and the desired state of
every object (the compute functions of Cluster API's `exp/topology/desiredstate/desired_state.go`), in Cluster API's `Generate` order. Of the current state it
sees only what `plan` distils for it ([`Existing`]: names to keep, versions to write); it
produces plain JSON objects for `plan` to compare and classify.
*/

pub mod blueprint;
pub mod budget;
pub mod contract;
pub mod desired;
pub mod names;
pub mod template;

pub use blueprint::{Blueprint, Catalog};
pub use desired::{DesiredObject, DesiredState, Existing, Role, compute, compute_with};
