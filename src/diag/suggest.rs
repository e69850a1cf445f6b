/*!
"Did you mean …?": the known name nearest to a misspelt one, for the help line of an error
about an unknown variable, Cluster, ClusterClass or class of workers. Owns only the choice of
the candidate (edit distance, a cut-off that grows with the name's length); the caller words
the help.
*/

/// Names longer than this are not compared (a hint is for a typo, not for a paste).
const MAX_NAME: usize = 256;

/// The most candidates compared for one name: the work per hint stays bounded whatever the
/// input holds.
const MAX_CANDIDATES: usize = 256;

/// The candidate nearest to `probe` by edit distance, when it is close enough to be a typo (at
/// most 2 edits, or a quarter of its length for longer names) and not `probe` itself. Ties go
/// to the smallest name, so the answer does not depend on the candidates' order.
pub fn nearest<'a>(probe: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if probe.len() > MAX_NAME {
        return None;
    }
    candidates
        .into_iter()
        .take(MAX_CANDIDATES)
        .filter(|c| c.len() <= MAX_NAME)
        .map(|c| (strsim::levenshtein(probe, c), c))
        .filter(|(d, c)| *d > 0 && *d <= 2.max(c.chars().count() / 4))
        .min()
        .map(|(_, c)| c)
}

/// `help` for an unknown name: "did you mean X?" when one is near, else `None`.
pub fn did_you_mean<'a>(
    probe: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    nearest(probe, candidates).map(|c| format!("did you mean {c:?}?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_finds_its_name_and_a_stranger_finds_none() {
        let names = ["imageRepository", "controlPlaneReplicas", "workerCount"];
        assert_eq!(nearest("imageRepositry", names), Some("imageRepository"));
        assert_eq!(nearest("workercount", names), Some("workerCount"));
        assert_eq!(nearest("zzz", names), None);
        assert_eq!(nearest("workerCount", names), None);
    }

    #[test]
    fn ties_go_to_the_first_name_in_order() {
        assert_eq!(nearest("ab", ["ac", "aa"]), Some("aa"));
        assert_eq!(nearest("ab", ["aa", "ac"]), Some("aa"));
    }
}
