/*!
ClusterClass patches: the engine that applies `spec.patches` to a Cluster's desired state, the
inline generator, the request items and RFC 6902 / RFC 7386 application. Each concept has its
own file; this one only declares them.
*/

pub mod capture;
pub mod defaulting;
pub mod engine;
pub mod explain;
pub mod external;
pub mod generator;
pub mod inline;
pub mod jsonpatch;
pub mod request;

pub use defaulting::Defaulting;
pub use engine::{Applied, PatchContext, apply};
pub use generator::{PatchGenerator, PatchType, ResponseItem};
