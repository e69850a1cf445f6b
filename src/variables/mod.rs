/*!
ClusterClass variables: definitions, the `status.variables` view, Cluster values with their
defaulting and validation, and the builtin variables each template holder sees.
*/

pub mod definitions;
pub mod metadata;
pub mod values;
