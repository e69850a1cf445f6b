/*!
Serve the test Runtime extension (the one the tests use, built on Cluster API's `test/extension`
topology-mutation handlers) on 127.0.0.1, so `topoplan plan --extension` and
`topoplan extension check` can be tried by hand, e.g. against `testdata/examples/runtime-sdk`:

```text
cargo run --example test-extension -- [--port N] [--tls [--ca-out FILE]] [--delay-ms N]
    [--misbehave KIND] [--quiet]
```

It prints one line, `listening on http://127.0.0.1:PORT` (or `https://`), then serves until it is
killed (Ctrl-C). With `--tls` the serving certificate is signed by a CA generated at start, written
as PEM to `--ca-out` (or to stderr). Each request is logged to stderr unless `--quiet`.
`--delay-ms` makes every call wait that long first (a remote extension's latency).

Besides the topology-mutation hooks it answers GenerateUpgradePlan (`generate-upgrade-plan`):
one control-plane step per minor (`v1.<minor>.0`) up to the target version, which ends the
plan; the workers plan is left to Cluster API's defaulting. Name it in a ClusterClass with
`spec.upgrade.external.generateUpgradePlanExtension: generate-upgrade-plan.NAME`.

`--misbehave KIND` breaks one guideline of the topology-mutation hooks at a time, for
`topoplan extension check` to catch:

- `none` (the default): follows every guideline: upstream's patches, with list entries added only
  when the template lacks them, and its variables validated (`imageRepository` required, each
  variable of its declared type);
- `upstream`: Cluster API's test extension exactly, which appends to lists on every call and
  does not refuse a request without its required variable (fails idempotence and input
  validation);
- `nondeterministic`: stamps each template with a per-call annotation (deterministic results);
- `non-idempotent`: appends a command to the control plane's `preKubeadmCommands` every call;
- `unstable-errors`: ends every error message with the call's number (error messages);
- `slow`: waits 250 ms before answering each hook call (timeouts);
- `touches-status`: patches write the template's `status` too (response validity).
*/

#[path = "../tests/extension_server/mod.rs"]
mod extension_server;

use std::io::Write;
use std::process::ExitCode;

use extension_server::misbehave::Misbehaviour;
use extension_server::{ExtensionServer, Mode, try_test_pki};

const USAGE: &str = "usage: test-extension [--port N] [--tls [--ca-out FILE]] [--delay-ms N] \
     [--misbehave none|upstream|nondeterministic|non-idempotent|unstable-errors|slow|touches-status] [--quiet]";

struct Args {
    port: u16,
    tls: bool,
    ca_out: Option<String>,
    /// Wait this long before answering each hook call (a remote extension's latency).
    delay_ms: u64,
    /// Which guideline to break.
    misbehave: Misbehaviour,
    quiet: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        port: 0,
        tls: false,
        ca_out: None,
        delay_ms: 0,
        misbehave: Misbehaviour::Conforming,
        quiet: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) => (f.to_string(), Some(v.to_string())),
            None => (a.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
        };
        match flag.as_str() {
            "--port" => {
                let v = value("--port")?;
                args.port = v
                    .parse()
                    .map_err(|_| format!("--port: not a port number: {v:?}"))?;
            }
            "--ca-out" => args.ca_out = Some(value("--ca-out")?),
            "--delay-ms" => {
                let v = value("--delay-ms")?;
                args.delay_ms = v
                    .parse()
                    .map_err(|_| format!("--delay-ms: not a number of milliseconds: {v:?}"))?;
            }
            "--misbehave" => {
                let v = value("--misbehave")?;
                args.misbehave = Misbehaviour::parse(&v)
                    .ok_or_else(|| format!("--misbehave: unknown kind {v:?}\n{USAGE}"))?;
            }
            "--tls" => args.tls = true,
            "--quiet" | "-q" => args.quiet = true,
            "--help" | "-h" => return Err(USAGE.to_string()),
            _ => return Err(format!("unknown argument {a:?}\n{USAGE}")),
        }
    }
    if args.ca_out.is_some() && !args.tls {
        return Err(format!("--ca-out needs --tls\n{USAGE}"));
    }
    Ok(args)
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    let pki = if args.tls {
        Some(try_test_pki()?)
    } else {
        None
    };
    let server = ExtensionServer::bind(args.port, pki)?;
    server.set_log(!args.quiet);
    server.set_misbehaviour(args.misbehave);
    if args.delay_ms > 0 {
        server.set_mode(Mode::Delay(std::time::Duration::from_millis(args.delay_ms)));
    }
    if let Some(ca) = &server.ca_pem {
        match &args.ca_out {
            Some(path) => std::fs::write(path, ca)
                .map_err(|e| format!("cannot write the CA to {path}: {e}"))?,
            None => eprint!("CA certificate (pass it to topoplan as the CA bundle):\n{ca}"),
        }
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "listening on {}", server.url)
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to stdout: {e}"))?;
    drop(out);
    // The server runs on its own threads; this one only keeps the process alive.
    loop {
        std::thread::park();
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("test-extension: {e}");
            ExitCode::from(2)
        }
    }
}
