//! text/template parse (being written).
