/*!
`plan`'s renderers: the table (or `--stat`'s lines), the plan document in JSON or YAML, the
pull-request comment and JUnit; each Cluster's piece and what closes the output.
*/

use crate::diag::Diagnostic;
use crate::output::document::Show;
use crate::output::stream::Syntax;
use crate::output::{affected, document, junit, markdown, review, table};
use crate::plan::affected::Affected;
use crate::plan::{ClusterPlan, Totals};

use super::{Gathered, Kind, Piece, Renderer};

const TITLE: &str = "topoplan plan";

/// The end of a plan: what every tail may summarise.
#[derive(Debug, Default)]
pub struct End {
    /// The run's warnings.
    pub warnings: Vec<Diagnostic>,
    /// The fleet's totals.
    pub summary: Totals,
    /// Against the management cluster: what the change affects.
    pub affected: Option<Affected>,
}

/// What the table shows.
#[derive(Debug, Clone, Copy, Default)]
pub struct TableOptions {
    /// Colour.
    pub color: bool,
    /// Diffs inline (not when an external diff program shows them).
    pub diffs: bool,
    /// Unchanged objects listed.
    pub show_unchanged: bool,
    /// `--stat`: one line per Cluster.
    pub stat: bool,
    /// `--explain`: each Cluster's patch trace after the table.
    pub explain: bool,
}

/// The renderer of `kind`.
pub fn renderer(kind: Kind, table: TableOptions, show: Show) -> Box<dyn Renderer<End = End>> {
    match (kind, kind.syntax()) {
        (_, Some(syntax)) => Box::new(Document { syntax, show }),
        (Kind::Markdown, None) => Box::new(Markdown),
        (Kind::Junit, None) => Box::new(Junit),
        _ => Box::new(Table(table)),
    }
}

struct Table(TableOptions);

impl Renderer for Table {
    type End = End;

    fn cluster(&self, i: usize, c: &ClusterPlan) -> Piece {
        let o = self.0;
        let text = if o.stat {
            review::cluster(c, &Default::default(), false, review::Detail::Stat)
        } else {
            table::cluster(i, c, o.color, o.diffs, o.show_unchanged)
        };
        Piece {
            text: text.into_bytes(),
            explain: if o.explain {
                crate::patches::explain::render(&format!("{}/{}", c.namespace, c.name), &c.patches)
            } else {
                String::new()
            },
            ..Piece::default()
        }
    }

    fn failed(&self, _: &[Diagnostic]) -> Option<String> {
        None
    }

    fn tail(&self, end: &End, gathered: Gathered) -> String {
        let mut out = String::new();
        // Against the management cluster: what the change affects (before the sum, which
        // counts only the planned Clusters).
        if let Some(a) = &end.affected {
            let sep = if gathered.emitted == 0 { "" } else { "\n" };
            out.push_str(&format!("{sep}{}", affected::text(a)));
        }
        // Several Clusters (or --stat): the fleet summed up, as `diff` ends.
        if end.summary.clusters > 1 || self.0.stat {
            out.push_str(&format!("\n{}", table::totals(&end.summary)));
        }
        // With a plan document, the explanation is part of it.
        if self.0.explain {
            out.push_str(&format!("\n{}", gathered.explained));
        }
        out
    }
}

struct Document {
    syntax: Syntax,
    show: Show,
}

impl Renderer for Document {
    type End = End;

    fn head(&self) -> Option<String> {
        Some(document::frame(self.syntax, &[], None).head)
    }

    fn cluster(&self, i: usize, c: &ClusterPlan) -> Piece {
        Piece {
            text: match self.syntax {
                Syntax::Json => document::json_cluster(i, c, self.show),
                Syntax::Yaml => document::yaml_cluster(c, self.show),
            },
            ..Piece::default()
        }
    }

    fn failed(&self, diagnostics: &[Diagnostic]) -> Option<String> {
        Some(document::failed(self.syntax, diagnostics))
    }

    fn tail(&self, end: &End, gathered: Gathered) -> String {
        let frame = document::frame_affected(
            self.syntax,
            &end.warnings,
            Some(&end.summary),
            end.affected.as_ref(),
        );
        if gathered.emitted == 0 {
            frame.empty
        } else {
            frame.tail
        }
    }
}

struct Markdown;

impl Renderer for Markdown {
    type End = End;

    fn cluster(&self, _: usize, c: &ClusterPlan) -> Piece {
        Piece {
            markdown: Some(markdown::piece(c, None)),
            ..Piece::default()
        }
    }

    fn failed(&self, diagnostics: &[Diagnostic]) -> Option<String> {
        Some(markdown::failed(TITLE, diagnostics))
    }

    fn tail(&self, end: &End, gathered: Gathered) -> String {
        let mut comment = gathered.comment;
        if let Some(a) = &end.affected {
            comment.affected(a);
        }
        comment.finish(TITLE, &table::totals(&end.summary), &end.warnings)
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
        let properties = end
            .affected
            .as_ref()
            .map(affected::properties)
            .unwrap_or_default();
        junit::render_with(TITLE, &gathered.cases, &end.warnings, &properties)
    }
}
