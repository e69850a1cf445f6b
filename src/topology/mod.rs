//! topology (work in progress)
