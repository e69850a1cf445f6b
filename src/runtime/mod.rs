/*!
The Runtime SDK client: calling external patch and validation extensions
(`hooks.runtime.cluster.x-k8s.io/v1alpha1`) the way Cluster API's controllers call them.

- [`types`]: the wire types and Go-compatible decoding;
- [`client`]: HTTP mechanics, hook URLs, Discovery;
- [`tls`]: certificate verification (rustls on `ring`);
- [`extension`]: extension sources (flags, ExtensionConfig objects) and the [`Registry`] the
  patch engine calls;
- [`wire`]: the seam every call goes through (live, recorded, replayed, traced), with
  [`recording`] (`--record-extensions`, `--replay-extensions`) and [`trace`]
  (`--trace-extensions`, `-v`);
- [`upgrade_plan`]: the GenerateUpgradePlan hook's types;
- [`error`]: errors in Cluster API's wording.

Only the topology hooks (GeneratePatches, ValidateTopology, DiscoverVariables), GenerateUpgradePlan
and Discovery are ever called; lifecycle hooks are not callable through this API.
*/

pub mod client;
pub mod error;
pub mod extension;
pub mod recording;
pub mod tls;
pub mod trace;
pub mod types;
pub mod upgrade_plan;
pub mod wire;

pub use error::{CallError, Error};
pub use extension::{
    ExtensionOptions, ExtensionSource, Registry, TopologyHook, from_extension_config,
    parse_extension_flag,
};
pub use tls::TlsVerify;
pub use types::{
    DiscoverVariablesRequest, DiscoverVariablesResponse, FailurePolicy, GeneratePatchesRequest,
    GeneratePatchesRequestItem, GeneratePatchesResponse, GeneratePatchesResponseItem,
    HolderReference, PatchType, ResponseStatus, ValidateTopologyRequest,
    ValidateTopologyRequestItem, ValidateTopologyResponse, Variable,
};
pub use upgrade_plan::{GenerateUpgradePlanRequest, GenerateUpgradePlanResponse, UpgradeStep};
pub use wire::{Wire, WireHandle, WireOptions};
