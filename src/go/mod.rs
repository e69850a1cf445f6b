/*!
Parts of Go's standard library (and of k8s.io/utils' copies of them) whose exact behaviour more
than one stage needs: [`ip`] (`net.ParseIP`, `net.ParseCIDR` and the Kubernetes "sloppy"
variants) and [`url`] (`net/url` parsing and printing).
*/

pub mod ip;
pub mod unicode;
pub mod url;
