/*!
Kubernetes apimachinery behaviour that more than one stage needs, written once: field errors as
the API server renders them ([`field`]) and the string checks of `pkg/util/validation`,
`pkg/api/validate/content` and `pkg/api/validation` ([`validation`]), and the value helpers
admission reads objects with ([`values`]: `{labels, annotations}` maps, int-or-percent,
`strconv.Atoi`, `schema.ParseGroupVersion`).

Lower-level than every stage that reports a field error (load, schema, variables, validate); it
depends only on [`crate::go`].
*/

pub mod field;
pub mod validation;
pub mod values;
pub mod version;
