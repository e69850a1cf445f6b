/*!
Loading: turns `-f` arguments into objects that remember where they came from.

Owns reading files, directories (recursive, sorted) and stdin; optional clusterctl-style
variable substitution; YAML/JSON parsing with spans; flattening of `kind: List`; namespace
defaulting; and duplicate detection. It knows nothing about Cluster API semantics.
*/

pub mod envfile;
pub mod envsubst;
pub mod source;
pub mod yaml;
