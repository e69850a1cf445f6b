/*!
The result of `topoplan extension check`: one [`Check`] per guideline, and its two renderings,
a table for people and a JSON document (`kind: ExtensionCheck`) for machines.

Both renderings are deterministic for the same answers: checks come in a fixed order, evidence
objects keep their keys sorted. Latencies are the only figures that vary from run to run; the
table prints them in the timeouts check's message and nowhere else.
*/

use serde_json::{Map, Value, json};

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The extension follows the guideline (as far as these requests show).
    Passed,
    /// It does not: the evidence shows how.
    Failed,
    /// The input gives no way to judge it; the message says why.
    Skipped,
}

impl Status {
    /// `passed`, `failed` or `skipped`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Skipped => "skipped",
        }
    }
}

/// One guideline judged.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// The stable name (`deterministic-results`).
    pub name: &'static str,
    /// How it came out.
    pub status: Status,
    /// One line: what was found.
    pub message: String,
    /// What people should know even when it passed (generic variable names, …).
    pub warnings: Vec<String>,
    /// The requests, answers, templates and timings behind the verdict (a JSON object).
    pub evidence: Map<String, Value>,
}

impl Check {
    /// A check with no warnings and no evidence yet.
    pub fn new(name: &'static str, status: Status, message: impl Into<String>) -> Check {
        Check {
            name,
            status,
            message: message.into(),
            warnings: Vec::new(),
            evidence: Map::new(),
        }
    }

    /// A skipped check.
    pub fn skipped(name: &'static str, why: impl Into<String>) -> Check {
        Check::new(name, Status::Skipped, why)
    }

    /// Add evidence under `key`.
    pub fn with(mut self, key: &str, value: Value) -> Check {
        self.evidence.insert(key.to_string(), value);
        self
    }
}

/// Every check of a run.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The extensions checked, by name, with their URLs.
    pub extensions: Vec<(String, String)>,
    /// The checks, in a fixed order.
    pub checks: Vec<Check>,
}

impl Report {
    /// Whether no check failed.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.status != Status::Failed)
    }

    /// The names of the failed checks.
    pub fn failed(&self) -> Vec<&'static str> {
        self.checks
            .iter()
            .filter(|c| c.status == Status::Failed)
            .map(|c| c.name)
            .collect()
    }

    /// The JSON document.
    pub fn to_json(&self) -> Value {
        json!({
            "apiVersion": crate::output::document::API_VERSION,
            "kind": "ExtensionCheck",
            "extensions": self.extensions.iter().map(|(n, u)| json!({"name": n, "url": u})).collect::<Vec<_>>(),
            "passed": self.passed(),
            "checks": self.checks.iter().map(|c| json!({
                "name": c.name,
                "passed": c.status != Status::Failed,
                "status": c.status.as_str(),
                "message": c.message,
                "warnings": c.warnings,
                "evidence": Value::Object(c.evidence.clone()),
            })).collect::<Vec<_>>(),
        })
    }

    /// The table: one row per check, then, for each failed check, an excerpt of its evidence,
    /// and every warning.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        for (n, u) in &self.extensions {
            out.push_str(&format!("Extension {n} at {u}\n"));
        }
        out.push('\n');
        let width = self
            .checks
            .iter()
            .map(|c| c.name.len())
            .max()
            .unwrap_or(5)
            .max(5);
        out.push_str(&format!("{:<width$}  {:<7}  MESSAGE\n", "CHECK", "RESULT"));
        for c in &self.checks {
            out.push_str(&format!(
                "{:<width$}  {:<7}  {}\n",
                c.name,
                c.status.as_str(),
                crate::escape::escape_line(&c.message)
            ));
        }
        for c in &self.checks {
            for w in &c.warnings {
                out.push_str(&format!(
                    "\nwarning: {}: {}\n",
                    c.name,
                    crate::escape::escape_line(w)
                ));
            }
        }
        for c in self.checks.iter().filter(|c| c.status == Status::Failed) {
            out.push_str(&format!("\n{} failed:\n", c.name));
            for (k, v) in &c.evidence {
                out.push_str(&format!("  {k}: {}\n", excerpt(v)));
            }
        }
        let failed = self.failed();
        out.push('\n');
        if failed.is_empty() {
            let skipped = self
                .checks
                .iter()
                .filter(|c| c.status == Status::Skipped)
                .count();
            out.push_str(&format!(
                "{} checks passed, {skipped} skipped\n",
                self.checks.len() - skipped
            ));
        } else {
            out.push_str(&format!(
                "{} of {} checks failed: {}\n",
                failed.len(),
                self.checks.len(),
                failed.join(", ")
            ));
        }
        out
    }
}

/// The most characters of one evidence value the table prints (`-o json` has it whole).
const EXCERPT: usize = 300;

fn excerpt(v: &Value) -> String {
    let text = match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let text = crate::escape::escape_line(&text).into_owned();
    if text.chars().count() > EXCERPT {
        let cut: String = text.chars().take(EXCERPT).collect();
        format!("{cut}… (-o json shows it whole)")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_checks_fail_the_report_and_show_evidence() {
        let r = Report {
            extensions: vec![("e".into(), "http://h".into())],
            checks: vec![
                Check::new("a", Status::Passed, "ok"),
                Check::new("b", Status::Failed, "bad").with("uid", json!("u1")),
                Check::skipped("c", "nothing to judge"),
            ],
        };
        assert!(!r.passed());
        assert_eq!(r.failed(), ["b"]);
        let t = r.to_table();
        assert!(t.contains("b failed:\n  uid: u1\n"), "{t}");
        assert!(t.ends_with("1 of 3 checks failed: b\n"), "{t}");
        assert_eq!(r.to_json()["checks"][1]["passed"], json!(false));
        assert_eq!(r.to_json()["checks"][2]["status"], json!("skipped"));
    }
}
