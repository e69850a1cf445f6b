//! clusterctl variable substitution (being written).
