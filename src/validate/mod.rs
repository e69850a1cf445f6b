/*!
Admission validation: every rule Cluster API's ClusterClass and Cluster webhooks apply, on create
and on update, plus the compatibility checks between an old and a new ClusterClass.
*/

mod hooks;
pub mod run;
pub mod stored;
