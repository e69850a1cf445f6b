/*!
Ports of Go's standard library (and of k8s.io/utils' copies of it) whose exact behaviour more
than one stage needs. This is the bottom of the module graph: nothing here imports anything
outside `go`.

- [`base32`]: `encoding/base32` with the standard alphabet, Go's error offsets included.
- [`base64`]: `encoding/base64` with the standard alphabet, Go's error offsets included.
- [`bignum`]: exact decimal arithmetic behind strconv's shortest float digits (and Sprig's decimals).
- [`ip`]: `net.ParseIP`, `net.ParseCIDR` and the Kubernetes "sloppy" variants.
- [`json`]: `encoding/json`: Go's output bytes, its scanner and error texts, `Unmarshal`.
- [`path`]: `path`'s lexical `Clean`, `Base`, `Dir`, `Ext` and `IsAbs`.
- [`regexp`]: `regexp` and `regexp/syntax`: Go's pattern syntax and errors, matched by the `regex` crate.
- [`strconv`]: `strconv` number parsing and formatting, quoting and unquoting.
- [`time`]: `time`: the calendar, `Time` layouts (parse and format), `ParseDuration`, `Duration.String`.
- [`unicode`]: `unicode` category predicates and simple case mappings (Unicode 15.0.0).
- [`url`]: `net/url` parsing and printing.
*/

pub mod base32;
pub mod base64;
pub(crate) mod bignum;
pub mod ip;
pub mod json;
pub mod path;
pub mod regexp;
pub mod strconv;
pub mod time;
pub mod unicode;
pub mod url;
