//! YAML parsing and emitting (being written).
