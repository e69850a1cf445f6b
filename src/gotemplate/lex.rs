//! text/template lex (being written).
