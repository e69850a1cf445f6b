/*!
Output: the plan as a table, as a JSON/YAML document, as files in a directory, as unified
diffs and as a review; progress on stderr.

Owns every byte topoplan writes to stdout or disk for a plan; it computes nothing. All output is
deterministic: objects arrive sorted from `plan`, maps are sorted, and nothing depends on time,
environment or thread scheduling. Human-readable output escapes every control character that
comes from input ([`crate::escape`]); JSON and YAML are escaped by their emitters.
*/

pub mod actions;
pub mod affected;
pub mod annotations;
pub mod diff;
pub mod document;
pub mod external_diff;
pub mod files;
pub mod junit;
pub mod markdown;
pub mod progress;
pub mod render;
pub mod replace;
pub mod review;
pub mod schema;
pub mod stream;
pub mod table;
pub mod validation;
