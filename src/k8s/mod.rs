/*!
Kubernetes apimachinery behaviour that more than one stage needs, written once: the string checks
of `pkg/util/validation`, `pkg/api/validate/content` and `pkg/api/validation` ([`validation`]).

Lower-level than [`crate::validate`] and [`crate::variables`], which both call it; it depends only
on [`crate::schema::field`] for the `field.Error` shapes.
*/

pub mod validation;
