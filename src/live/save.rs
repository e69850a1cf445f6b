/*!
`--save-current DIR`: what a live read read, written as the files `--current DIR` reads back
(one YAML file per resource, `clusters.cluster.x-k8s.io.yaml`), so a CI job can plan without
credentials and a bug report can carry the state.

DIR is replaced as `plan --output-dir` replaces its directory ([`crate::output::replace`]):
staged beside it and swapped in whole, and only when DIR is missing, empty, or written by
topoplan with nothing added since; a directory holding anything else is refused, never
overwritten. Refused before the cluster is contacted.
*/

use std::path::{Path, PathBuf};

use crate::diag::{Code, Diagnostic};
use crate::output::replace::{self, Staging, WriteError, WriteOptions};

/// Refuse DIR when replacing it could lose anything; touches nothing.
pub fn check(dir: &Path, inputs: &[PathBuf]) -> Result<(), Diagnostic> {
    replace::check(dir, inputs).map_err(saving)
}

/// Write `files` (name, text) as DIR's whole content.
pub fn write(dir: &Path, files: &[(String, String)], inputs: &[PathBuf]) -> Result<(), Diagnostic> {
    let opts = WriteOptions {
        inputs,
        cancel: None,
        hook: None,
    };
    let failed = |e: WriteError| match e {
        WriteError::Failed(d) | WriteError::Interrupted(d) => saving(d),
    };
    let mut staging = Staging::begin(dir, opts).map_err(failed)?;
    staging
        .add(
            files
                .iter()
                .map(|(name, text)| (PathBuf::from(name), text.clone()))
                .collect(),
        )
        .map_err(failed)?;
    staging.finish().map_err(failed)?;
    Ok(())
}

/// An output directory's diagnostic, told as `--save-current`'s.
fn saving(mut d: Diagnostic) -> Diagnostic {
    let says = |s: &str| {
        s.replace("--output-dir", "--save-current")
            .replace("output directory", "--save-current directory")
    };
    d.code = Code::LiveSave;
    d.message = says(&d.message);
    d.help = d.help.as_deref().map(says);
    d
}
