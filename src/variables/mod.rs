/*!
ClusterClass variables: definitions, the `status.variables` view, Cluster values with their
defaulting and validation, and the builtin variables each template holder sees.
*/

pub mod builtins;
pub mod definitions;
pub mod ip_family;
pub mod status;
pub mod values;
