/*!
Go's text/template with Sprig, byte-identical to what Cluster API renders.

Cluster API evaluates `enabledIf`, `valueFrom.template` (text/template + Sprig's hermetic map,
data decoded by encoding/json) and naming templates (text/template, `missingkey=error`, no
Sprig). This module is our own engine for all three: [`value`] (Go values), [`lex`] / [`parse`]
(the template language), [`exec`] (execution, built-in functions, Go's error texts), [`print`]
(Go's fmt) and [`sprig`] (the function map). It must not read the environment, files or the
network: templates are hermetic.
*/

pub mod exec;
pub mod func;
pub mod gojson;
pub mod lex;
pub mod parse;
pub mod print;
pub mod sprig;
pub mod value;
