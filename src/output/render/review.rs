/*!
`diff`'s renderers: the review as text (diffs inline, objects only when an external program
shows the diffs, or `--stat`'s lines), the review document in JSON or YAML, the pull-request
comment and JUnit. The Clusters added and removed ([`Membership`]) are known only once both
sides are planned, before the first Cluster is emitted: the renderers read them from the cell
the run fills then.
*/

use std::sync::OnceLock;

use crate::diag::Diagnostic;
use crate::output::document::Show;
use crate::output::stream::Syntax;
use crate::output::{junit, markdown, review};
use crate::plan::ClusterPlan;
use crate::plan::review::{Counts, Membership};

use super::{Gathered, Kind, Piece, Renderer};

const TITLE: &str = "topoplan diff";

/// The end of a diff.
#[derive(Debug, Default)]
pub struct End {
    /// The run's warnings.
    pub warnings: Vec<Diagnostic>,
    /// Added and removed Clusters.
    pub membership: Membership,
    /// Counts over the emitted Clusters.
    pub counts: Counts,
}

/// The renderer of `kind`; `membership` is filled before the first Cluster is rendered.
pub fn renderer<'m>(
    kind: Kind,
    membership: &'m OnceLock<Membership>,
    color: bool,
    detail: review::Detail,
    show: Show,
) -> Box<dyn Renderer<End = End> + 'm> {
    match (kind, kind.syntax()) {
        (_, Some(syntax)) => Box::new(Document {
            syntax,
            show,
            membership,
        }),
        (Kind::Markdown, None) => Box::new(Markdown { membership }),
        (Kind::Junit, None) => Box::new(Junit),
        _ => Box::new(Table {
            membership,
            color,
            detail,
        }),
    }
}

struct Table<'m> {
    membership: &'m OnceLock<Membership>,
    color: bool,
    detail: review::Detail,
}

impl Renderer for Table<'_> {
    type End = End;

    fn cluster(&self, _: usize, c: &ClusterPlan) -> Piece {
        let m = self.membership.get().cloned().unwrap_or_default();
        Piece {
            text: review::cluster(c, &m, self.color, self.detail).into_bytes(),
            ..Piece::default()
        }
    }

    fn failed(&self, _: &[Diagnostic]) -> Option<String> {
        None
    }

    fn tail(&self, end: &End, _: Gathered) -> String {
        review::closing(&end.counts)
    }
}

struct Document<'m> {
    syntax: Syntax,
    show: Show,
    membership: &'m OnceLock<Membership>,
}

impl Renderer for Document<'_> {
    type End = End;

    fn head(&self) -> Option<String> {
        let m = self.membership.get()?;
        Some(review::frame(self.syntax, m, &Default::default(), &[]).head)
    }

    fn cluster(&self, i: usize, c: &ClusterPlan) -> Piece {
        Piece {
            text: match self.syntax {
                Syntax::Json => review::json_cluster(i, c, self.show),
                Syntax::Yaml => review::yaml_cluster(c, self.show),
            },
            ..Piece::default()
        }
    }

    fn failed(&self, diagnostics: &[Diagnostic]) -> Option<String> {
        Some(review::failed(self.syntax, diagnostics))
    }

    fn tail(&self, end: &End, gathered: Gathered) -> String {
        let frame = review::frame(self.syntax, &end.membership, &end.counts, &end.warnings);
        if gathered.emitted == 0 {
            frame.empty
        } else {
            frame.tail
        }
    }
}

struct Markdown<'m> {
    membership: &'m OnceLock<Membership>,
}

impl Renderer for Markdown<'_> {
    type End = End;

    fn cluster(&self, _: usize, c: &ClusterPlan) -> Piece {
        Piece {
            markdown: Some(markdown::piece(c, self.membership.get())),
            ..Piece::default()
        }
    }

    fn failed(&self, diagnostics: &[Diagnostic]) -> Option<String> {
        Some(markdown::failed(TITLE, diagnostics))
    }

    fn tail(&self, end: &End, gathered: Gathered) -> String {
        gathered
            .comment
            .finish(TITLE, &review::closing(&end.counts), &end.warnings)
    }
}

struct Junit;

impl Renderer for Junit {
    type End = End;

    fn cluster(&self, _: usize, c: &ClusterPlan) -> Piece {
        Piece {
            junit: Some(junit::cluster_case(c)),
            ..Piece::default()
        }
    }

    fn failed(&self, diagnostics: &[Diagnostic]) -> Option<String> {
        Some(junit::failed(TITLE, diagnostics))
    }

    fn tail(&self, end: &End, gathered: Gathered) -> String {
        junit::render(TITLE, &gathered.cases, &end.warnings)
    }
}
