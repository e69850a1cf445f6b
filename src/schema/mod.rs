/*!
Variable schemas: the Kubernetes structural OpenAPI v3 subset Cluster API accepts for
ClusterClass variables.

Owns reading a variable schema, checking that it is well formed, validating and defaulting values
against it, evaluating its CEL rules, and the Kubernetes field-error shape every message takes
([`field`]). Knows nothing of ClusterClasses or Clusters: [`crate::variables`] and
[`crate::validate`] call in with values and paths.
*/

pub mod cel;
pub mod field;
