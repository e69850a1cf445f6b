//! plan (work in progress)
