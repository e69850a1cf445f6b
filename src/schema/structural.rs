/*! placeholder */
