//! text/template exec (being written).
