/*!
What the engine sent to Runtime extensions, kept for a caller that wants to send it again
(`topoplan extension check`): each external patch's GeneratePatches request as the engine built
it for a Cluster (wire form, and the engine's own request with the templates' roles), and each
ValidateTopology request.

Capturing is off unless a [`Capture`] is handed to the engine in its
[`super::PatchContext`]; a plan never keeps requests. At most [`MAX_CAPTURED`] requests are
kept: past it they are only counted.
*/

use std::sync::Mutex;

use super::request::Request;
use crate::runtime::{GeneratePatchesRequest, ValidateTopologyRequest};

/// The most requests a [`Capture`] keeps (each holds a copy of every template of a Cluster).
pub const MAX_CAPTURED: usize = 64;

/// Which hook a captured request is for.
#[derive(Debug, Clone)]
pub enum Captured {
    /// A GeneratePatches request, before the patch's answer was applied.
    Generate {
        /// The wire request (settings of the patch, variables the patch may see).
        wire: GeneratePatchesRequest,
        /// The engine's request it was built from (item roles, for applying answers).
        request: Request,
    },
    /// A ValidateTopology request, after every patch applied.
    Validate {
        /// The wire request.
        wire: ValidateTopologyRequest,
    },
}

/// One request the engine sent.
#[derive(Debug, Clone)]
pub struct Call {
    /// `namespace/name` of the Cluster.
    pub cluster: String,
    /// `namespace/name` of its ClusterClass.
    pub class: String,
    /// The patch's index in `spec.patches`.
    pub patch_index: usize,
    /// The patch's name.
    pub patch: String,
    /// The handler called (`<handler>.<extension>`).
    pub handler: String,
    /// The request.
    pub captured: Captured,
}

/// Requests the engine sent, in the order it sent them.
#[derive(Debug, Default)]
pub struct Capture {
    calls: Mutex<(Vec<Call>, usize)>,
}

impl Capture {
    /// Keep `call`, unless [`MAX_CAPTURED`] are kept already.
    pub fn push(&self, call: Call) {
        if let Ok(mut g) = self.calls.lock() {
            g.1 += 1;
            if g.0.len() < MAX_CAPTURED {
                g.0.push(call);
            }
        }
    }

    /// The kept requests, and how many were sent in all.
    pub fn take(&self) -> (Vec<Call>, usize) {
        self.calls
            .lock()
            .map(|mut g| (std::mem::take(&mut g.0), std::mem::take(&mut g.1)))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_at_most_max_captured_and_counts_the_rest() {
        let c = Capture::default();
        for i in 0..MAX_CAPTURED + 3 {
            c.push(Call {
                cluster: format!("ns/c{i}"),
                class: "ns/cc".into(),
                patch_index: 0,
                patch: "p".into(),
                handler: "h.e".into(),
                captured: Captured::Validate {
                    wire: ValidateTopologyRequest::default(),
                },
            });
        }
        let (kept, sent) = c.take();
        assert_eq!((kept.len(), sent), (MAX_CAPTURED, MAX_CAPTURED + 3));
        assert_eq!(kept[0].cluster, "ns/c0");
        assert_eq!(c.take().1, 0);
    }
}
