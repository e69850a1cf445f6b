
use builtin;
use str;

set edit:completion:arg-completer[topoplan] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'topoplan'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'topoplan'= {
            cand --diagnostics-format 'How diagnostics are printed on stderr'
            cand --color 'When to colour output'
            cand -q 'Print only errors on stderr: no warnings, no progress bar'
            cand --quiet 'Print only errors on stderr: no warnings, no progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand plan 'Plan every topology Cluster in the input: what would be created, modified or deleted'
            cand diff 'Review a change: plan every Cluster with the OLD inputs, then with the NEW ones against the state the old ones produce; report per Cluster what changes and what rolls out'
            cand validate 'Run Cluster API''s admission rules (defaulting and validation) on ClusterClasses and Clusters'
            cand eval 'Render a template as Cluster API renders valueFrom.template (or replay oracle cases)'
            cand extension 'Runtime extensions: check one against the topology-mutation guidelines'
            cand generate 'Generate objects from a clusterctl provider repository (generate cluster NAME)'
            cand completions 'Print a shell completion script'
            cand schema 'Print the JSON Schema of a document topoplan prints (plan, review, validation)'
            cand version 'Print topoplan''s version and the Cluster API releases and API versions it emulates'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'topoplan;plan'= {
            cand -f 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin'
            cand --filename 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin'
            cand -n 'Namespace for objects that have none'
            cand --namespace 'Namespace for objects that have none'
            cand --env-file 'KEY=VALUE file of variables for --substitute (and --provider-repo''s components)'
            cand --provider-repo 'A clusterctl local repository, DIR/<provider-label>/<version>/'
            cand --config 'clusterctl''s configuration file, whose variables feed substitution'
            cand --env 'An environment variable substitution may read (--substitute, --provider-repo''s components, the clusterctl config''s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read'
            cand --max-input-bytes 'Most bytes read from all inputs together'
            cand --max-yaml-nodes 'Most YAML nodes (scalars, lists, maps) all inputs of the run may hold together'
            cand --max-cluster-objects 'Most objects one Cluster''s plan may generate'
            cand --max-cluster-bytes 'Most bytes (as compact JSON) of the objects one Cluster''s plan may generate; suffixes as for --max-input-bytes'
            cand --max-generated-objects 'Most objects the plans of all Clusters of the run may generate together (diff: both sides)'
            cand --max-generated-bytes 'Most bytes of objects the plans of all Clusters of the run may generate together'
            cand --max-cel-cost 'Most CEL cost (Kubernetes'' cost units) all validation rules of the run may spend together, beyond Kubernetes'' limits per call and per object'
            cand --feature-gates 'Cluster API feature gates, as its controller takes them'
            cand --crds 'CustomResourceDefinitions of provider kinds (files, directories); repeatable'
            cand --extension 'A Runtime extension serving external patches; repeatable'
            cand --allow-extension-url 'Call an ExtensionConfig of the input whose URL starts with PREFIX (e.g. https://127.0.0.1:8443/); repeatable'
            cand --ca-file 'PEM file of the CA(s) that signed the extensions'' serving certificates'
            cand --max-extension-response-bytes 'The largest response body read from an extension, in bytes'
            cand --record-extensions 'Record every call to the extensions and its answer into DIR'
            cand --replay-extensions 'Answer every call to the extensions from a recording in DIR'
            cand --trace-extensions 'Write each call to the extensions as a YAML file in DIR, and summarise it on stderr'
            cand --redact-setting 'Redact the extension setting KEY in traces and recordings; repeatable'
            cand --current 'The management cluster''s objects (files, directories, - or an earlier --output-dir); -f is then the change; repeatable'
            cand --kubeconfig 'The kubeconfig of the live read (implies --live) [default: KUBECONFIG, else ~/.kube/config, as kubectl]'
            cand --context 'The kubeconfig context of the live read (implies --live) [default: its current context]'
            cand --request-timeout 'How long one request of the live read may take, as kubectl''s flag: 1s, 2m, 3h, or seconds; 0: no limit of its own'
            cand --live-deadline 'How long the whole live read may take (1s, 2m, 3h, or seconds)'
            cand --save-current 'Write what the live read read into DIR, as files --current DIR reads back (a CI job then plans without credentials; a bug report carries the state)'
            cand --cluster 'Plan only this Cluster; repeatable'
            cand --output-dir 'Write one YAML file per object under DIR'
            cand --output-directory 'Write one YAML file per object under DIR'
            cand -o 'What to print on stdout'
            cand --output 'What to print on stdout'
            cand --diagnostics-format 'How diagnostics are printed on stderr'
            cand --color 'When to colour output'
            cand --substitute 'Substitute clusterctl-style ${VAR} variables in the input before parsing'
            cand --env-all 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request''s files would print'
            cand --insecure-skip-tls-verify 'Do not verify the extensions'' TLS certificates'
            cand -v 'Print a one-line summary of each call to the extensions on stderr'
            cand --verbose 'Print a one-line summary of each call to the extensions on stderr'
            cand --all-current 'With --current or --live: plan every stored Cluster, not only those the change in -f affects (a drift check: what the topology controller would do now)'
            cand --live 'Read what the plan needs of the management cluster from the live cluster of the kubeconfig''s current context, read-only (get and list only)'
            cand --detailed-exitcode 'Exit with 2 when the plan changes anything (0 when it changes nothing, 1 on error)'
            cand --fail-on-warn 'Exit with 1 when any warning was reported, after printing everything'
            cand --no-objects 'Leave each object out of the JSON/YAML document (verdicts, notes and diffs stay)'
            cand --explain 'Also show what each ClusterClass patch did to each template'
            cand --show-unchanged 'List unchanged objects in the table too (hidden by default, counted in the summary)'
            cand --stat 'Print only how many objects each Cluster creates, modifies and deletes'
            cand -q 'Print only errors on stderr: no warnings, no progress bar'
            cand --quiet 'Print only errors on stderr: no warnings, no progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'topoplan;diff'= {
            cand --base-ref 'Read the old inputs from this git revision (e.g. origin/main) of the repository holding the PATHs, the new ones from the working tree'
            cand -n 'Namespace for objects that have none [default: with --substitute the NAMESPACE variable if set; otherwise "default"]'
            cand --namespace 'Namespace for objects that have none [default: with --substitute the NAMESPACE variable if set; otherwise "default"]'
            cand --env-file 'KEY=VALUE file of variables for --substitute (and --provider-repo''s components); the environment variables --env (or --env-all) lets through override it, it overrides the clusterctl config file'
            cand --provider-repo 'A clusterctl local repository, DIR/<provider-label>/<version>/'
            cand --config 'clusterctl''s configuration file, whose variables feed substitution'
            cand --env 'An environment variable substitution may read (--substitute, --provider-repo''s components, the clusterctl config''s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read'
            cand --max-input-bytes 'Most bytes read from all inputs together'
            cand --max-yaml-nodes 'Most YAML nodes (scalars, lists, maps) all inputs of the run may hold together'
            cand --max-cluster-objects 'Most objects one Cluster''s plan may generate'
            cand --max-cluster-bytes 'Most bytes (as compact JSON) of the objects one Cluster''s plan may generate; suffixes as for --max-input-bytes'
            cand --max-generated-objects 'Most objects the plans of all Clusters of the run may generate together (diff: both sides)'
            cand --max-generated-bytes 'Most bytes of objects the plans of all Clusters of the run may generate together'
            cand --max-cel-cost 'Most CEL cost (Kubernetes'' cost units) all validation rules of the run may spend together, beyond Kubernetes'' limits per call and per object'
            cand --feature-gates 'Cluster API feature gates, as its controller takes them'
            cand --crds 'CustomResourceDefinitions of provider kinds (files, directories); repeatable'
            cand --extension 'A Runtime extension serving external patches; repeatable'
            cand --allow-extension-url 'Call an ExtensionConfig of the input whose URL starts with PREFIX (e.g. https://127.0.0.1:8443/); repeatable'
            cand --ca-file 'PEM file of the CA(s) that signed the extensions'' serving certificates'
            cand --max-extension-response-bytes 'The largest response body read from an extension, in bytes'
            cand --record-extensions 'Record every call to the extensions and its answer into DIR'
            cand --replay-extensions 'Answer every call to the extensions from a recording in DIR'
            cand --trace-extensions 'Write each call to the extensions as a YAML file in DIR, and summarise it on stderr'
            cand --redact-setting 'Redact the extension setting KEY in traces and recordings; repeatable'
            cand --cluster 'Review only this Cluster: NAMESPACE/NAME, or NAME (in -n''s namespace when given, else the one Cluster of that name); repeatable'
            cand --current 'The management cluster''s objects (files, directories or -), as `plan --current` reads them: OLD and NEW are then changes, and each side takes the ClusterClasses, templates and affected Clusters it lacks from here; repeatable'
            cand --kubeconfig 'The kubeconfig of the live read (implies --live) [default: KUBECONFIG, else ~/.kube/config, as kubectl]'
            cand --context 'The kubeconfig context of the live read (implies --live) [default: its current context]'
            cand --request-timeout 'How long one request of the live read may take, as kubectl''s flag: 1s, 2m, 3h, or seconds; 0: no limit of its own'
            cand --live-deadline 'How long the whole live read may take (1s, 2m, 3h, or seconds)'
            cand --save-current 'Write what the live read read into DIR, as files --current DIR reads back (a CI job then plans without credentials; a bug report carries the state)'
            cand -o 'What to print on stdout'
            cand --output 'What to print on stdout'
            cand --diagnostics-format 'How diagnostics are printed on stderr'
            cand --color 'When to colour output'
            cand --substitute 'Substitute clusterctl-style ${VAR} variables in both inputs before parsing'
            cand --env-all 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request''s files would print'
            cand --insecure-skip-tls-verify 'Do not verify the extensions'' TLS certificates'
            cand -v 'Print a one-line summary of each call to the extensions on stderr'
            cand --verbose 'Print a one-line summary of each call to the extensions on stderr'
            cand --live 'Read what the plan needs of the management cluster from the live cluster of the kubeconfig''s current context, read-only (get and list only)'
            cand --stat 'One line per changed Cluster instead of its objects and diffs'
            cand --detailed-exitcode 'Exit with 2 when the change does anything (0 when nothing, 1 on error)'
            cand --fail-on-warn 'Exit with 1 when any warning was reported, after printing everything (as conftest''s flag does): a CI gate that treats warnings as errors'
            cand --no-objects 'Leave each object out of the JSON/YAML document (verdicts, notes and diffs stay): a fleet''s document shrinks to what a reviewer reads'
            cand -q 'Print only errors on stderr: no warnings, no progress bar'
            cand --quiet 'Print only errors on stderr: no warnings, no progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'topoplan;validate'= {
            cand -f 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin'
            cand --filename 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin'
            cand -n 'Namespace for objects that have none'
            cand --namespace 'Namespace for objects that have none'
            cand --env-file 'KEY=VALUE file of variables for --substitute (and --provider-repo''s components)'
            cand --provider-repo 'A clusterctl local repository, DIR/<provider-label>/<version>/'
            cand --config 'clusterctl''s configuration file, whose variables feed substitution'
            cand --env 'An environment variable substitution may read (--substitute, --provider-repo''s components, the clusterctl config''s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read'
            cand --max-input-bytes 'Most bytes read from all inputs together'
            cand --max-yaml-nodes 'Most YAML nodes (scalars, lists, maps) all inputs of the run may hold together'
            cand --max-cluster-objects 'Most objects one Cluster''s plan may generate'
            cand --max-cluster-bytes 'Most bytes (as compact JSON) of the objects one Cluster''s plan may generate; suffixes as for --max-input-bytes'
            cand --max-generated-objects 'Most objects the plans of all Clusters of the run may generate together (diff: both sides)'
            cand --max-generated-bytes 'Most bytes of objects the plans of all Clusters of the run may generate together'
            cand --max-cel-cost 'Most CEL cost (Kubernetes'' cost units) all validation rules of the run may spend together, beyond Kubernetes'' limits per call and per object'
            cand --feature-gates 'Cluster API feature gates, as its controller takes them'
            cand --crds 'CustomResourceDefinitions of provider kinds (files, directories); repeatable'
            cand --extension 'A Runtime extension serving external patches; repeatable'
            cand --allow-extension-url 'Call an ExtensionConfig of the input whose URL starts with PREFIX (e.g. https://127.0.0.1:8443/); repeatable'
            cand --ca-file 'PEM file of the CA(s) that signed the extensions'' serving certificates'
            cand --max-extension-response-bytes 'The largest response body read from an extension, in bytes'
            cand --record-extensions 'Record every call to the extensions and its answer into DIR'
            cand --replay-extensions 'Answer every call to the extensions from a recording in DIR'
            cand --trace-extensions 'Write each call to the extensions as a YAML file in DIR, and summarise it on stderr'
            cand --redact-setting 'Redact the extension setting KEY in traces and recordings; repeatable'
            cand --current 'The objects as they are now (files, directories or -), read as `plan --current` reads them, with the input applied over them as `plan --current` applies it (a Cluster keeps the references and uid only its stored form holds; a template or ClusterClass keeps the fields its file never set): ClusterClasses and Clusters found here are validated as updates, with Cluster API''s update rules, and a Cluster''s version change is refused while the stored ControlPlane, MachineDeployments or MachinePools still roll out the previous one; repeatable'
            cand --kubeconfig 'The kubeconfig of the live read (implies --live) [default: KUBECONFIG, else ~/.kube/config, as kubectl]'
            cand --context 'The kubeconfig context of the live read (implies --live) [default: its current context]'
            cand --request-timeout 'How long one request of the live read may take, as kubectl''s flag: 1s, 2m, 3h, or seconds; 0: no limit of its own'
            cand --live-deadline 'How long the whole live read may take (1s, 2m, 3h, or seconds)'
            cand --save-current 'Write what the live read read into DIR, as files --current DIR reads back (a CI job then plans without credentials; a bug report carries the state)'
            cand --old 'Like --current, but each input object replaces its stored form whole, as `kubectl replace` would: a reference the stored Cluster has and the input lacks is a removal ("cannot be removed"); repeatable'
            cand -o 'What to print on stdout: diagnostics only (text), findings as JSON, or the defaulted objects as YAML'
            cand --output 'What to print on stdout: diagnostics only (text), findings as JSON, or the defaulted objects as YAML'
            cand --exclude 'Leave out the files a directory walk finds that match GLOB; repeatable'
            cand --diagnostics-format 'How diagnostics are printed on stderr'
            cand --color 'When to colour output'
            cand --substitute 'Substitute clusterctl-style ${VAR} variables in the input before parsing'
            cand --env-all 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request''s files would print'
            cand --insecure-skip-tls-verify 'Do not verify the extensions'' TLS certificates'
            cand -v 'Print a one-line summary of each call to the extensions on stderr'
            cand --verbose 'Print a one-line summary of each call to the extensions on stderr'
            cand --live 'Read what the plan needs of the management cluster from the live cluster of the kubeconfig''s current context, read-only (get and list only)'
            cand --fail-on-warn 'Exit with 1 when any warning was reported, after printing everything (as conftest''s flag does): a CI gate that treats warnings as errors'
            cand --strict 'A field the CustomResourceDefinition does not declare (schema::pruned, often a misindented field) is an error, not a warning, as kubectl''s strict field validation'
            cand -q 'Print only errors on stderr: no warnings, no progress bar'
            cand --quiet 'Print only errors on stderr: no warnings, no progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'topoplan;eval'= {
            cand --vars 'YAML or JSON file with the variables (a mapping of name to value), e.g. `{builtin: {cluster: {name: c1}}, replicas: 3}`'
            cand --max-input-bytes 'Most bytes read from all inputs together'
            cand --diagnostics-format 'How diagnostics are printed on stderr'
            cand --color 'When to colour output'
            cand --text 'Print the rendered text instead of the JSON value Cluster API would use'
            cand --jsonl 'Read oracle case lines on stdin (`{"template", "data", "funcs", "missingkey", "yamlToJSON"}`) and write one result line per case (`{"ok", "output", "json", "stage", "error"}`), as the Go oracle does'
            cand -q 'Print only errors on stderr: no warnings, no progress bar'
            cand --quiet 'Print only errors on stderr: no warnings, no progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'topoplan;extension'= {
            cand --diagnostics-format 'How diagnostics are printed on stderr'
            cand --color 'When to colour output'
            cand -q 'Print only errors on stderr: no warnings, no progress bar'
            cand --quiet 'Print only errors on stderr: no warnings, no progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand check 'Check a Runtime extension against the topology-mutation guidelines (deterministic, idempotent, validating its input, stable errors, fast, valid answers and variables), with the requests a plan of the input sends'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'topoplan;extension;check'= {
            cand -f 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin'
            cand --filename 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin'
            cand -n 'Namespace for objects that have none'
            cand --namespace 'Namespace for objects that have none'
            cand --env-file 'KEY=VALUE file of variables for --substitute (and --provider-repo''s components)'
            cand --provider-repo 'A clusterctl local repository, DIR/<provider-label>/<version>/'
            cand --config 'clusterctl''s configuration file, whose variables feed substitution'
            cand --env 'An environment variable substitution may read (--substitute, --provider-repo''s components, the clusterctl config''s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read'
            cand --max-input-bytes 'Most bytes read from all inputs together'
            cand --max-yaml-nodes 'Most YAML nodes (scalars, lists, maps) all inputs of the run may hold together'
            cand --max-cluster-objects 'Most objects one Cluster''s plan may generate'
            cand --max-cluster-bytes 'Most bytes (as compact JSON) of the objects one Cluster''s plan may generate; suffixes as for --max-input-bytes'
            cand --max-generated-objects 'Most objects the plans of all Clusters of the run may generate together (diff: both sides)'
            cand --max-generated-bytes 'Most bytes of objects the plans of all Clusters of the run may generate together'
            cand --max-cel-cost 'Most CEL cost (Kubernetes'' cost units) all validation rules of the run may spend together, beyond Kubernetes'' limits per call and per object'
            cand --feature-gates 'Cluster API feature gates, as its controller takes them'
            cand --crds 'CustomResourceDefinitions of provider kinds (files, directories); repeatable'
            cand --extension 'A Runtime extension serving external patches; repeatable'
            cand --allow-extension-url 'Call an ExtensionConfig of the input whose URL starts with PREFIX (e.g. https://127.0.0.1:8443/); repeatable'
            cand --ca-file 'PEM file of the CA(s) that signed the extensions'' serving certificates'
            cand --max-extension-response-bytes 'The largest response body read from an extension, in bytes'
            cand --record-extensions 'Record every call to the extensions and its answer into DIR'
            cand --replay-extensions 'Answer every call to the extensions from a recording in DIR'
            cand --trace-extensions 'Write each call to the extensions as a YAML file in DIR, and summarise it on stderr'
            cand --redact-setting 'Redact the extension setting KEY in traces and recordings; repeatable'
            cand -o 'What to print on stdout'
            cand --output 'What to print on stdout'
            cand --calls 'Calls per handler for the latency figures (p50, p99)'
            cand --baseline 'The previous version''s DiscoverVariablesResponse (YAML or JSON): report breaking changes of the discovered variables (removed, narrowed, newly required without default)'
            cand --deadline 'Stop after this many seconds (planning and checks together): no call starts later, and the report says which checks ran; the run then fails'
            cand --diagnostics-format 'How diagnostics are printed on stderr'
            cand --color 'When to colour output'
            cand --substitute 'Substitute clusterctl-style ${VAR} variables in the input before parsing'
            cand --env-all 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request''s files would print'
            cand --insecure-skip-tls-verify 'Do not verify the extensions'' TLS certificates'
            cand -v 'Print a one-line summary of each call to the extensions on stderr'
            cand --verbose 'Print a one-line summary of each call to the extensions on stderr'
            cand -q 'Print only errors on stderr: no warnings, no progress bar'
            cand --quiet 'Print only errors on stderr: no warnings, no progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'topoplan;extension;help'= {
            cand check 'Check a Runtime extension against the topology-mutation guidelines (deterministic, idempotent, validating its input, stable errors, fast, valid answers and variables), with the requests a plan of the input sends'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'topoplan;extension;help;check'= {
        }
        &'topoplan;extension;help;help'= {
        }
        &'topoplan;generate'= {
            cand --diagnostics-format 'How diagnostics are printed on stderr'
            cand --color 'When to colour output'
            cand -q 'Print only errors on stderr: no warnings, no progress bar'
            cand --quiet 'Print only errors on stderr: no warnings, no progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand cluster 'Generate a workload cluster''s YAML from an infrastructure provider''s cluster template in a local repository, as `clusterctl generate cluster` does (pipe it into `topoplan plan -f -`)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'topoplan;generate;cluster'= {
            cand -i 'The infrastructure provider to read the cluster template from, NAME[:VERSION] (e.g. docker:v1.12.0) [default: the one infrastructure provider of --provider-repo; its newest release]'
            cand --infrastructure 'The infrastructure provider to read the cluster template from, NAME[:VERSION] (e.g. docker:v1.12.0) [default: the one infrastructure provider of --provider-repo; its newest release]'
            cand --flavor 'The cluster template variant: cluster-template-FLAVOR.yaml [default: cluster-template.yaml]'
            cand --kubernetes-version 'The Kubernetes version (the KUBERNETES_VERSION variable) [default: the variable''s value from the environment, --env-file or the clusterctl config file]'
            cand --control-plane-machine-count 'Control plane machines (CONTROL_PLANE_MACHINE_COUNT) [default: the variable''s value, else 1]'
            cand --worker-machine-count 'Worker machines (WORKER_MACHINE_COUNT) [default: the variable''s value, else 0]'
            cand -n 'The namespace of the workload cluster''s objects (the NAMESPACE variable) [default: default]'
            cand --target-namespace 'The namespace of the workload cluster''s objects (the NAMESPACE variable) [default: default]'
            cand --provider-repo 'A clusterctl local repository, DIR/<provider-label>/<version>/ (e.g. DIR/infrastructure-docker/v1.12.0/cluster-template.yaml)'
            cand --config 'clusterctl''s configuration file: variables (below the environment and --env-file) and providers (file:// URLs name local repositories) [default: $XDG_CONFIG_HOME/cluster-api/clusterctl.yaml, else ~/.cluster-api/clusterctl.yaml, when one exists]'
            cand --env-file 'KEY=VALUE file of variables; the environment variables --env (or --env-all) lets through override it, it overrides the clusterctl config file'
            cand --env 'An environment variable substitution may read (--substitute, --provider-repo''s components, the clusterctl config''s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read'
            cand --max-input-bytes 'Most bytes read from all inputs together'
            cand --diagnostics-format 'How diagnostics are printed on stderr'
            cand --color 'When to colour output'
            cand --list-variables 'Print the variables the template uses (required, then optional with defaults) instead of the YAML'
            cand --env-all 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request''s files would print'
            cand -q 'Print only errors on stderr: no warnings, no progress bar'
            cand --quiet 'Print only errors on stderr: no warnings, no progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'topoplan;generate;help'= {
            cand cluster 'Generate a workload cluster''s YAML from an infrastructure provider''s cluster template in a local repository, as `clusterctl generate cluster` does (pipe it into `topoplan plan -f -`)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'topoplan;generate;help;cluster'= {
        }
        &'topoplan;generate;help;help'= {
        }
        &'topoplan;completions'= {
            cand --diagnostics-format 'How diagnostics are printed on stderr'
            cand --color 'When to colour output'
            cand -q 'Print only errors on stderr: no warnings, no progress bar'
            cand --quiet 'Print only errors on stderr: no warnings, no progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'topoplan;schema'= {
            cand --diagnostics-format 'How diagnostics are printed on stderr'
            cand --color 'When to colour output'
            cand -q 'Print only errors on stderr: no warnings, no progress bar'
            cand --quiet 'Print only errors on stderr: no warnings, no progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'topoplan;version'= {
            cand -o 'What to print: text, or a JSON document for scripts'
            cand --output 'What to print: text, or a JSON document for scripts'
            cand --diagnostics-format 'How diagnostics are printed on stderr'
            cand --color 'When to colour output'
            cand -q 'Print only errors on stderr: no warnings, no progress bar'
            cand --quiet 'Print only errors on stderr: no warnings, no progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'topoplan;help'= {
            cand plan 'Plan every topology Cluster in the input: what would be created, modified or deleted'
            cand diff 'Review a change: plan every Cluster with the OLD inputs, then with the NEW ones against the state the old ones produce; report per Cluster what changes and what rolls out'
            cand validate 'Run Cluster API''s admission rules (defaulting and validation) on ClusterClasses and Clusters'
            cand eval 'Render a template as Cluster API renders valueFrom.template (or replay oracle cases)'
            cand extension 'Runtime extensions: check one against the topology-mutation guidelines'
            cand generate 'Generate objects from a clusterctl provider repository (generate cluster NAME)'
            cand completions 'Print a shell completion script'
            cand schema 'Print the JSON Schema of a document topoplan prints (plan, review, validation)'
            cand version 'Print topoplan''s version and the Cluster API releases and API versions it emulates'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'topoplan;help;plan'= {
        }
        &'topoplan;help;diff'= {
        }
        &'topoplan;help;validate'= {
        }
        &'topoplan;help;eval'= {
        }
        &'topoplan;help;extension'= {
            cand check 'Check a Runtime extension against the topology-mutation guidelines (deterministic, idempotent, validating its input, stable errors, fast, valid answers and variables), with the requests a plan of the input sends'
        }
        &'topoplan;help;extension;check'= {
        }
        &'topoplan;help;generate'= {
            cand cluster 'Generate a workload cluster''s YAML from an infrastructure provider''s cluster template in a local repository, as `clusterctl generate cluster` does (pipe it into `topoplan plan -f -`)'
        }
        &'topoplan;help;generate;cluster'= {
        }
        &'topoplan;help;completions'= {
        }
        &'topoplan;help;schema'= {
        }
        &'topoplan;help;version'= {
        }
        &'topoplan;help;help'= {
        }
    ]
    $completions[$command]
}
