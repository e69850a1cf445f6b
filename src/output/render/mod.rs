/*!
One renderer per output format of a streamed command, behind one trait ([`Renderer`]: `head`,
`cluster`, `failed`, `tail`), chosen once by the command line; and the [`Sink`] every renderer
writes through, which owns what all formats share: the held stdout, the head before the first
Cluster, the pull-request comment and JUnit cases gathered from the Clusters' pieces, a write
error kept for the caller, and the failure document that takes the output's place when a run
fails before anything was printed.

`plan`'s renderers are [`plan`]'s, `diff`'s are [`review`]'s; each gets the end of its run (its
own summary type) only at the tail.
*/

use std::io::Write;

use crate::diag::{Code, Diagnostic};
use crate::plan::ClusterPlan;

use super::stream::Held;
use super::{junit, markdown};

pub mod plan;
pub mod review;

/// The output formats of the streamed commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Text for a terminal.
    Table,
    /// A JSON document.
    Json,
    /// A YAML document.
    Yaml,
    /// A pull-request comment.
    Markdown,
    /// JUnit XML.
    Junit,
}

impl Kind {
    /// The document syntax, for the two document formats.
    pub fn syntax(self) -> Option<super::stream::Syntax> {
        match self {
            Kind::Json => Some(super::stream::Syntax::Json),
            Kind::Yaml => Some(super::stream::Syntax::Yaml),
            Kind::Table | Kind::Markdown | Kind::Junit => None,
        }
    }
}

/// What one Cluster becomes, made on a worker thread.
#[derive(Debug, Default)]
pub struct Piece {
    /// Its part of stdout.
    pub text: Vec<u8>,
    /// What the pull-request comment needs of it.
    pub markdown: Option<markdown::Piece>,
    /// Its JUnit test case.
    pub junit: Option<junit::Case>,
    /// Its explanation, printed after the whole table (`plan --explain`).
    pub explain: String,
}

/// What the Clusters' pieces leave for the tail.
#[derive(Debug, Default)]
pub struct Gathered {
    /// The pull-request comment so far.
    pub comment: markdown::Comment,
    /// The JUnit cases so far.
    pub cases: Vec<junit::Case>,
    /// The explanations so far.
    pub explained: String,
    /// How many Clusters were emitted.
    pub emitted: usize,
}

/// One output format of a command whose run ends in an `End`.
pub trait Renderer: Sync {
    /// The end of the run, which the tail summarises.
    type End;

    /// stdout before the first Cluster (a document's head).
    fn head(&self) -> Option<String> {
        None
    }

    /// The `i`-th Cluster's piece (on a worker thread).
    fn cluster(&self, i: usize, c: &ClusterPlan) -> Piece;

    /// What takes the output's place when the run fails before anything was printed.
    fn failed(&self, diagnostics: &[Diagnostic]) -> Option<String>;

    /// stdout after the last Cluster.
    fn tail(&self, end: &Self::End, gathered: Gathered) -> String;
}

/// Where the pieces go, in plan order, on the caller's thread.
pub struct Sink<'r, R: Renderer + ?Sized, W: Write> {
    renderer: &'r R,
    held: Held<W>,
    gathered: Gathered,
    /// A failed write to stdout, kept for the caller's failure.
    error: Option<std::io::Error>,
}

impl<'r, R: Renderer + ?Sized, W: Write> Sink<'r, R, W> {
    /// A sink writing `renderer`'s output to `held`.
    pub fn new(renderer: &'r R, held: Held<W>) -> Self {
        Sink {
            renderer,
            held,
            gathered: Gathered::default(),
            error: None,
        }
    }

    /// Write one Cluster's piece (the head first, before the first).
    pub fn emit(&mut self, piece: Piece) -> Result<(), Diagnostic> {
        if let Some(p) = piece.markdown {
            self.gathered.comment.add(p);
        }
        self.gathered.cases.extend(piece.junit);
        let first = self.gathered.emitted == 0;
        let head = if first { self.renderer.head() } else { None };
        let written = (|| {
            if let Some(h) = head {
                self.held.write(h.as_bytes())?;
            }
            self.held.write(&piece.text)
        })();
        if let Err(e) = written {
            let d = Diagnostic::error(
                Code::OutputWrite,
                format!("cannot write to standard output: {e}"),
            );
            self.error = Some(e);
            return Err(d);
        }
        self.gathered.explained.push_str(&piece.explain);
        self.gathered.emitted += 1;
        Ok(())
    }

    /// The run failed: stdout is given up, for the format's failure document when nothing was
    /// printed yet (once output flows it can only stop short). Returns the write error that
    /// failed the run, if that is what did.
    pub fn fail(self, diagnostics: &[Diagnostic]) -> Option<std::io::Error> {
        if let Some(e) = self.error {
            let _ = self.held.abandon();
            return Some(e);
        }
        let _ = match self.renderer.failed(diagnostics) {
            Some(text) => self.held.abandon_for(text.as_bytes()),
            None => self.held.abandon(),
        };
        None
    }

    /// Give stdout up, printing nothing more (something after the Clusters failed).
    pub fn abandon(self) {
        let _ = self.held.abandon();
    }

    /// The run succeeded: the tail, then everything held goes out.
    pub fn finish(mut self, end: &R::End) -> std::io::Result<()> {
        let tail = self.renderer.tail(end, self.gathered);
        self.held.write(tail.as_bytes())?;
        self.held.finish()
    }
}
