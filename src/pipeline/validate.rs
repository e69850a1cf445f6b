/*!
The driver of `topoplan validate`: load the input (and the objects as they are now,
`--current`), connect the extensions that discover variables, and run admission as the API
server would, defaulting the input in place.
*/

use crate::diag::{Diagnostic, Diagnostics};
use crate::load::{self, LoadOptions, Object};
use crate::plan::extensions::{self, Need};
use crate::validate::run::{Mode, Settings, Validation, admit};

/// Resolved options for `topoplan validate`.
#[derive(Debug, Clone)]
pub struct ValidateOptions {
    /// The input.
    pub load: LoadOptions,
    /// The objects as they are now (`--current`): their ClusterClasses and Clusters make
    /// admission an update, and the rest is what a Cluster's version change is checked against.
    pub current: Option<LoadOptions>,
    /// The input replaces the stored objects whole (`--old`) instead of being applied over them
    /// as `plan --current` applies it.
    pub replace: bool,
    /// Feature gates.
    pub gates: crate::validate::Gates,
    /// Runtime extensions (resolved, not yet contacted).
    pub extensions: crate::runtime::ExtensionOptions,
    /// Where to read CustomResourceDefinitions apart from the input (`--crds`).
    pub crds: Option<LoadOptions>,
    /// `--provider-repo`: its providers' CRDs join the input (and are not printed with it).
    pub providers: Option<crate::provider::ProviderOptions>,
}

/// What admission made of the input.
#[derive(Debug)]
pub struct Validated {
    /// What the loader skipped (special files), the input's then the old objects'.
    pub skipped: Vec<Diagnostic>,
    /// The extensions' failures that `failurePolicy: Ignore` forgave.
    pub ignored: Vec<Diagnostic>,
    /// Findings and each class's `status.variables`.
    pub validation: Validation,
    /// The input objects as the API server would store them (Cluster API's defaults applied).
    pub objects: Vec<Object>,
}

/// Validate the input. Errors are what stopped admission from running at all (unreadable
/// input, an extension that cannot be reached); findings are in [`Validated::validation`].
pub fn validate(opts: &ValidateOptions) -> Result<Validated, Diagnostics> {
    let mut inputs = load::load(&opts.load)?;
    super::warm_up_cel(
        opts.crds.is_some() || opts.providers.is_some(),
        &inputs.objects,
    );
    let provider_files =
        super::add_provider_crds(opts.providers.as_ref(), &mut inputs).map_err(Diagnostics)?;
    let mut skipped = std::mem::take(&mut inputs.warnings);
    let old = match opts.current.as_ref().map(super::expand_plan_outputs) {
        Some(o) => {
            let old = load::load(&o).map_err(|Diagnostics(mut d)| {
                d.splice(0..0, skipped.iter().cloned());
                Diagnostics(d)
            })?;
            let paths: Vec<std::path::PathBuf> =
                opts.load.paths.iter().chain(&o.paths).cloned().collect();
            let mut old = super::with_live(&o, old, &inputs.objects, false, &paths)?;
            skipped.append(&mut old.warnings);
            old.objects
        }
        None => Vec::new(),
    };
    let mut lent = None;
    if !opts.replace && !old.is_empty() {
        // As `plan --current`: the user's apply keeps what the file never set.
        let (lists, list_warnings) =
            crate::plan::ssa::ListTypes::builtin().with_crds(&inputs.objects, &old);
        skipped.extend(list_warnings);
        skipped.extend(crate::plan::stored::applied_over_stored(
            &mut inputs.objects,
            &old,
            &lists,
        ));
        // As `plan --current`: ClusterClasses and templates the input lacks come from the
        // store, with the stored Clusters a changed class or template affects; none of them
        // is printed, and what today's rules find wrong with them alone is a warning.
        let affected = crate::plan::affected::find(inputs.objects.iter(), &old, false);
        let change =
            crate::plan::stored::for_change(std::mem::take(&mut inputs.objects), &old, &affected)
                .map_err(|Diagnostics(mut d)| {
                d.splice(0..0, skipped.iter().cloned());
                Diagnostics(d)
            })?;
        inputs.objects = change.objects;
        skipped.extend(change.warnings);
        lent = Some(change.lent);
    }
    let registry = extensions::connect(&inputs.objects, &opts.extensions, Need::Validate).map_err(
        |Diagnostics(mut d)| {
            d.splice(0..0, skipped.iter().cloned());
            d.extend(extensions::finish(&opts.extensions, false));
            Diagnostics(d)
        },
    )?;
    // Before anything can fail: Discovery may have been recorded.
    let extra = super::load_crds(opts.crds.as_ref(), old.iter().chain(&inputs.objects)).map_err(
        |Diagnostics(mut d)| {
            d.splice(0..0, skipped.iter().cloned());
            d.extend(extensions::finish(&opts.extensions, false));
            Diagnostics(d)
        },
    )?;
    let wanted = crate::crd::wanted_by(old.iter().chain(&inputs.objects));
    let wanted = |g: &crate::crd::Gvk| wanted.contains(g);
    let (crds, crd_warnings) = crate::crd::Crds::from_objects_wanted(
        old.iter().chain(extra.iter()).chain(inputs.objects.iter()),
        &wanted,
    );
    skipped.extend(crd_warnings);
    let crds = crds.with_builtin_wanted(&wanted);
    skipped.extend(crds.round_trip_warning());
    let settings = Settings {
        mode: Mode::Validate,
        gates: opts.gates,
        registry: registry.as_ref(),
        crds: &crds,
        stored: None,
    };
    let mut validation = admit(
        &mut inputs.objects,
        &old,
        &inputs.runtime_messages,
        &settings,
    );
    if let Some(lent) = lent {
        skipped.extend(crate::plan::stored::forgive_lent(
            &mut inputs.objects,
            lent,
            &mut validation,
        ));
        // What the store lent was admitted, not given: it is not printed.
        inputs.objects.truncate(lent);
    }
    // The repository's CRDs served admission; they are not part of the input to print.
    let mut objects = inputs.objects;
    if !provider_files.is_empty() {
        objects.retain(|o| {
            !provider_files
                .iter()
                .any(|f| std::sync::Arc::ptr_eq(f, &o.origin.file))
        });
    }
    let finished = extensions::finish(&opts.extensions, true);
    if finished.iter().any(Diagnostic::is_error) {
        return Err(Diagnostics(finished));
    }
    let mut ignored = extensions::ignored(registry.as_ref());
    ignored.extend(finished);
    Ok(Validated {
        skipped,
        ignored,
        validation,
        objects,
    })
}
