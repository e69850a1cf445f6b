
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'topoplan' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'topoplan'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'topoplan' {
            [CompletionResult]::new('--diagnostics-format', '--diagnostics-format', [CompletionResultType]::ParameterName, 'How diagnostics are printed on stderr')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Plan every topology Cluster in the input: what would be created, modified or deleted')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Review a change: plan every Cluster with the OLD inputs, then with the NEW ones against the state the old ones produce; report per Cluster what changes and what rolls out')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Run Cluster API''s admission rules (defaulting and validation) on ClusterClasses and Clusters')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Render a template as Cluster API renders valueFrom.template (or replay oracle cases)')
            [CompletionResult]::new('extension', 'extension', [CompletionResultType]::ParameterValue, 'Runtime extensions: check one against the topology-mutation guidelines')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Generate objects from a clusterctl provider repository (generate cluster NAME)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema of a document topoplan prints (plan, review, validation)')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print topoplan''s version and the Cluster API releases and API versions it emulates')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'topoplan;plan' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for objects that have none')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for objects that have none')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'KEY=VALUE file of variables for --substitute (and --provider-repo''s components)')
            [CompletionResult]::new('--provider-repo', '--provider-repo', [CompletionResultType]::ParameterName, 'A clusterctl local repository, DIR/<provider-label>/<version>/')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'clusterctl''s configuration file, whose variables feed substitution')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'An environment variable substitution may read (--substitute, --provider-repo''s components, the clusterctl config''s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read')
            [CompletionResult]::new('--max-input-bytes', '--max-input-bytes', [CompletionResultType]::ParameterName, 'Most bytes read from all inputs together')
            [CompletionResult]::new('--max-yaml-nodes', '--max-yaml-nodes', [CompletionResultType]::ParameterName, 'Most YAML nodes (scalars, lists, maps) all inputs of the run may hold together')
            [CompletionResult]::new('--max-cluster-objects', '--max-cluster-objects', [CompletionResultType]::ParameterName, 'Most objects one Cluster''s plan may generate')
            [CompletionResult]::new('--max-cluster-bytes', '--max-cluster-bytes', [CompletionResultType]::ParameterName, 'Most bytes (as compact JSON) of the objects one Cluster''s plan may generate; suffixes as for --max-input-bytes')
            [CompletionResult]::new('--max-generated-objects', '--max-generated-objects', [CompletionResultType]::ParameterName, 'Most objects the plans of all Clusters of the run may generate together (diff: both sides)')
            [CompletionResult]::new('--max-generated-bytes', '--max-generated-bytes', [CompletionResultType]::ParameterName, 'Most bytes of objects the plans of all Clusters of the run may generate together')
            [CompletionResult]::new('--max-cel-cost', '--max-cel-cost', [CompletionResultType]::ParameterName, 'Most CEL cost (Kubernetes'' cost units) all validation rules of the run may spend together, beyond Kubernetes'' limits per call and per object')
            [CompletionResult]::new('--feature-gates', '--feature-gates', [CompletionResultType]::ParameterName, 'Cluster API feature gates, as its controller takes them')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'CustomResourceDefinitions of provider kinds (files, directories); repeatable')
            [CompletionResult]::new('--extension', '--extension', [CompletionResultType]::ParameterName, 'A Runtime extension serving external patches; repeatable')
            [CompletionResult]::new('--allow-extension-url', '--allow-extension-url', [CompletionResultType]::ParameterName, 'Call an ExtensionConfig of the input whose URL starts with PREFIX (e.g. https://127.0.0.1:8443/); repeatable')
            [CompletionResult]::new('--ca-file', '--ca-file', [CompletionResultType]::ParameterName, 'PEM file of the CA(s) that signed the extensions'' serving certificates')
            [CompletionResult]::new('--max-extension-response-bytes', '--max-extension-response-bytes', [CompletionResultType]::ParameterName, 'The largest response body read from an extension, in bytes')
            [CompletionResult]::new('--record-extensions', '--record-extensions', [CompletionResultType]::ParameterName, 'Record every call to the extensions and its answer into DIR')
            [CompletionResult]::new('--replay-extensions', '--replay-extensions', [CompletionResultType]::ParameterName, 'Answer every call to the extensions from a recording in DIR')
            [CompletionResult]::new('--trace-extensions', '--trace-extensions', [CompletionResultType]::ParameterName, 'Write each call to the extensions as a YAML file in DIR, and summarise it on stderr')
            [CompletionResult]::new('--redact-setting', '--redact-setting', [CompletionResultType]::ParameterName, 'Redact the extension setting KEY in traces and recordings; repeatable')
            [CompletionResult]::new('--current', '--current', [CompletionResultType]::ParameterName, 'The management cluster''s objects (files, directories, - or an earlier --output-dir); -f is then the change; repeatable')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'The kubeconfig of the live read (implies --live) [default: KUBECONFIG, else ~/.kube/config, as kubectl]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context of the live read (implies --live) [default: its current context]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'How long one request of the live read may take, as kubectl''s flag: 1s, 2m, 3h, or seconds; 0: no limit of its own')
            [CompletionResult]::new('--live-deadline', '--live-deadline', [CompletionResultType]::ParameterName, 'How long the whole live read may take (1s, 2m, 3h, or seconds)')
            [CompletionResult]::new('--save-current', '--save-current', [CompletionResultType]::ParameterName, 'Write what the live read read into DIR, as files --current DIR reads back (a CI job then plans without credentials; a bug report carries the state)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'Plan only this Cluster; repeatable')
            [CompletionResult]::new('--output-dir', '--output-dir', [CompletionResultType]::ParameterName, 'Write one YAML file per object under DIR')
            [CompletionResult]::new('--output-directory', '--output-directory', [CompletionResultType]::ParameterName, 'Write one YAML file per object under DIR')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'What to print on stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'What to print on stdout')
            [CompletionResult]::new('--diagnostics-format', '--diagnostics-format', [CompletionResultType]::ParameterName, 'How diagnostics are printed on stderr')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('--substitute', '--substitute', [CompletionResultType]::ParameterName, 'Substitute clusterctl-style ${VAR} variables in the input before parsing')
            [CompletionResult]::new('--env-all', '--env-all', [CompletionResultType]::ParameterName, 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request''s files would print')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the extensions'' TLS certificates')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print a one-line summary of each call to the extensions on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print a one-line summary of each call to the extensions on stderr')
            [CompletionResult]::new('--all-current', '--all-current', [CompletionResultType]::ParameterName, 'With --current or --live: plan every stored Cluster, not only those the change in -f affects (a drift check: what the topology controller would do now)')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'Read what the plan needs of the management cluster from the live cluster of the kubeconfig''s current context, read-only (get and list only)')
            [CompletionResult]::new('--detailed-exitcode', '--detailed-exitcode', [CompletionResultType]::ParameterName, 'Exit with 2 when the plan changes anything (0 when it changes nothing, 1 on error)')
            [CompletionResult]::new('--fail-on-warn', '--fail-on-warn', [CompletionResultType]::ParameterName, 'Exit with 1 when any warning was reported, after printing everything')
            [CompletionResult]::new('--no-objects', '--no-objects', [CompletionResultType]::ParameterName, 'Leave each object out of the JSON/YAML document (verdicts, notes and diffs stay)')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Also show what each ClusterClass patch did to each template')
            [CompletionResult]::new('--show-unchanged', '--show-unchanged', [CompletionResultType]::ParameterName, 'List unchanged objects in the table too (hidden by default, counted in the summary)')
            [CompletionResult]::new('--stat', '--stat', [CompletionResultType]::ParameterName, 'Print only how many objects each Cluster creates, modifies and deletes')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'topoplan;diff' {
            [CompletionResult]::new('--base-ref', '--base-ref', [CompletionResultType]::ParameterName, 'Read the old inputs from this git revision (e.g. origin/main) of the repository holding the PATHs, the new ones from the working tree')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for objects that have none [default: with --substitute the NAMESPACE variable if set; otherwise "default"]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for objects that have none [default: with --substitute the NAMESPACE variable if set; otherwise "default"]')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'KEY=VALUE file of variables for --substitute (and --provider-repo''s components); the environment variables --env (or --env-all) lets through override it, it overrides the clusterctl config file')
            [CompletionResult]::new('--provider-repo', '--provider-repo', [CompletionResultType]::ParameterName, 'A clusterctl local repository, DIR/<provider-label>/<version>/')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'clusterctl''s configuration file, whose variables feed substitution')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'An environment variable substitution may read (--substitute, --provider-repo''s components, the clusterctl config''s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read')
            [CompletionResult]::new('--max-input-bytes', '--max-input-bytes', [CompletionResultType]::ParameterName, 'Most bytes read from all inputs together')
            [CompletionResult]::new('--max-yaml-nodes', '--max-yaml-nodes', [CompletionResultType]::ParameterName, 'Most YAML nodes (scalars, lists, maps) all inputs of the run may hold together')
            [CompletionResult]::new('--max-cluster-objects', '--max-cluster-objects', [CompletionResultType]::ParameterName, 'Most objects one Cluster''s plan may generate')
            [CompletionResult]::new('--max-cluster-bytes', '--max-cluster-bytes', [CompletionResultType]::ParameterName, 'Most bytes (as compact JSON) of the objects one Cluster''s plan may generate; suffixes as for --max-input-bytes')
            [CompletionResult]::new('--max-generated-objects', '--max-generated-objects', [CompletionResultType]::ParameterName, 'Most objects the plans of all Clusters of the run may generate together (diff: both sides)')
            [CompletionResult]::new('--max-generated-bytes', '--max-generated-bytes', [CompletionResultType]::ParameterName, 'Most bytes of objects the plans of all Clusters of the run may generate together')
            [CompletionResult]::new('--max-cel-cost', '--max-cel-cost', [CompletionResultType]::ParameterName, 'Most CEL cost (Kubernetes'' cost units) all validation rules of the run may spend together, beyond Kubernetes'' limits per call and per object')
            [CompletionResult]::new('--feature-gates', '--feature-gates', [CompletionResultType]::ParameterName, 'Cluster API feature gates, as its controller takes them')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'CustomResourceDefinitions of provider kinds (files, directories); repeatable')
            [CompletionResult]::new('--extension', '--extension', [CompletionResultType]::ParameterName, 'A Runtime extension serving external patches; repeatable')
            [CompletionResult]::new('--allow-extension-url', '--allow-extension-url', [CompletionResultType]::ParameterName, 'Call an ExtensionConfig of the input whose URL starts with PREFIX (e.g. https://127.0.0.1:8443/); repeatable')
            [CompletionResult]::new('--ca-file', '--ca-file', [CompletionResultType]::ParameterName, 'PEM file of the CA(s) that signed the extensions'' serving certificates')
            [CompletionResult]::new('--max-extension-response-bytes', '--max-extension-response-bytes', [CompletionResultType]::ParameterName, 'The largest response body read from an extension, in bytes')
            [CompletionResult]::new('--record-extensions', '--record-extensions', [CompletionResultType]::ParameterName, 'Record every call to the extensions and its answer into DIR')
            [CompletionResult]::new('--replay-extensions', '--replay-extensions', [CompletionResultType]::ParameterName, 'Answer every call to the extensions from a recording in DIR')
            [CompletionResult]::new('--trace-extensions', '--trace-extensions', [CompletionResultType]::ParameterName, 'Write each call to the extensions as a YAML file in DIR, and summarise it on stderr')
            [CompletionResult]::new('--redact-setting', '--redact-setting', [CompletionResultType]::ParameterName, 'Redact the extension setting KEY in traces and recordings; repeatable')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'Review only this Cluster: NAMESPACE/NAME, or NAME (in -n''s namespace when given, else the one Cluster of that name); repeatable')
            [CompletionResult]::new('--current', '--current', [CompletionResultType]::ParameterName, 'The management cluster''s objects (files, directories or -), as `plan --current` reads them: OLD and NEW are then changes, and each side takes the ClusterClasses, templates and affected Clusters it lacks from here; repeatable')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'The kubeconfig of the live read (implies --live) [default: KUBECONFIG, else ~/.kube/config, as kubectl]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context of the live read (implies --live) [default: its current context]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'How long one request of the live read may take, as kubectl''s flag: 1s, 2m, 3h, or seconds; 0: no limit of its own')
            [CompletionResult]::new('--live-deadline', '--live-deadline', [CompletionResultType]::ParameterName, 'How long the whole live read may take (1s, 2m, 3h, or seconds)')
            [CompletionResult]::new('--save-current', '--save-current', [CompletionResultType]::ParameterName, 'Write what the live read read into DIR, as files --current DIR reads back (a CI job then plans without credentials; a bug report carries the state)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'What to print on stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'What to print on stdout')
            [CompletionResult]::new('--diagnostics-format', '--diagnostics-format', [CompletionResultType]::ParameterName, 'How diagnostics are printed on stderr')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('--substitute', '--substitute', [CompletionResultType]::ParameterName, 'Substitute clusterctl-style ${VAR} variables in both inputs before parsing')
            [CompletionResult]::new('--env-all', '--env-all', [CompletionResultType]::ParameterName, 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request''s files would print')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the extensions'' TLS certificates')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print a one-line summary of each call to the extensions on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print a one-line summary of each call to the extensions on stderr')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'Read what the plan needs of the management cluster from the live cluster of the kubeconfig''s current context, read-only (get and list only)')
            [CompletionResult]::new('--stat', '--stat', [CompletionResultType]::ParameterName, 'One line per changed Cluster instead of its objects and diffs')
            [CompletionResult]::new('--detailed-exitcode', '--detailed-exitcode', [CompletionResultType]::ParameterName, 'Exit with 2 when the change does anything (0 when nothing, 1 on error)')
            [CompletionResult]::new('--fail-on-warn', '--fail-on-warn', [CompletionResultType]::ParameterName, 'Exit with 1 when any warning was reported, after printing everything (as conftest''s flag does): a CI gate that treats warnings as errors')
            [CompletionResult]::new('--no-objects', '--no-objects', [CompletionResultType]::ParameterName, 'Leave each object out of the JSON/YAML document (verdicts, notes and diffs stay): a fleet''s document shrinks to what a reviewer reads')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'topoplan;validate' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for objects that have none')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for objects that have none')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'KEY=VALUE file of variables for --substitute (and --provider-repo''s components)')
            [CompletionResult]::new('--provider-repo', '--provider-repo', [CompletionResultType]::ParameterName, 'A clusterctl local repository, DIR/<provider-label>/<version>/')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'clusterctl''s configuration file, whose variables feed substitution')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'An environment variable substitution may read (--substitute, --provider-repo''s components, the clusterctl config''s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read')
            [CompletionResult]::new('--max-input-bytes', '--max-input-bytes', [CompletionResultType]::ParameterName, 'Most bytes read from all inputs together')
            [CompletionResult]::new('--max-yaml-nodes', '--max-yaml-nodes', [CompletionResultType]::ParameterName, 'Most YAML nodes (scalars, lists, maps) all inputs of the run may hold together')
            [CompletionResult]::new('--max-cluster-objects', '--max-cluster-objects', [CompletionResultType]::ParameterName, 'Most objects one Cluster''s plan may generate')
            [CompletionResult]::new('--max-cluster-bytes', '--max-cluster-bytes', [CompletionResultType]::ParameterName, 'Most bytes (as compact JSON) of the objects one Cluster''s plan may generate; suffixes as for --max-input-bytes')
            [CompletionResult]::new('--max-generated-objects', '--max-generated-objects', [CompletionResultType]::ParameterName, 'Most objects the plans of all Clusters of the run may generate together (diff: both sides)')
            [CompletionResult]::new('--max-generated-bytes', '--max-generated-bytes', [CompletionResultType]::ParameterName, 'Most bytes of objects the plans of all Clusters of the run may generate together')
            [CompletionResult]::new('--max-cel-cost', '--max-cel-cost', [CompletionResultType]::ParameterName, 'Most CEL cost (Kubernetes'' cost units) all validation rules of the run may spend together, beyond Kubernetes'' limits per call and per object')
            [CompletionResult]::new('--feature-gates', '--feature-gates', [CompletionResultType]::ParameterName, 'Cluster API feature gates, as its controller takes them')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'CustomResourceDefinitions of provider kinds (files, directories); repeatable')
            [CompletionResult]::new('--extension', '--extension', [CompletionResultType]::ParameterName, 'A Runtime extension serving external patches; repeatable')
            [CompletionResult]::new('--allow-extension-url', '--allow-extension-url', [CompletionResultType]::ParameterName, 'Call an ExtensionConfig of the input whose URL starts with PREFIX (e.g. https://127.0.0.1:8443/); repeatable')
            [CompletionResult]::new('--ca-file', '--ca-file', [CompletionResultType]::ParameterName, 'PEM file of the CA(s) that signed the extensions'' serving certificates')
            [CompletionResult]::new('--max-extension-response-bytes', '--max-extension-response-bytes', [CompletionResultType]::ParameterName, 'The largest response body read from an extension, in bytes')
            [CompletionResult]::new('--record-extensions', '--record-extensions', [CompletionResultType]::ParameterName, 'Record every call to the extensions and its answer into DIR')
            [CompletionResult]::new('--replay-extensions', '--replay-extensions', [CompletionResultType]::ParameterName, 'Answer every call to the extensions from a recording in DIR')
            [CompletionResult]::new('--trace-extensions', '--trace-extensions', [CompletionResultType]::ParameterName, 'Write each call to the extensions as a YAML file in DIR, and summarise it on stderr')
            [CompletionResult]::new('--redact-setting', '--redact-setting', [CompletionResultType]::ParameterName, 'Redact the extension setting KEY in traces and recordings; repeatable')
            [CompletionResult]::new('--current', '--current', [CompletionResultType]::ParameterName, 'The objects as they are now (files, directories or -), read as `plan --current` reads them, with the input applied over them as `plan --current` applies it (a Cluster keeps the references and uid only its stored form holds; a template or ClusterClass keeps the fields its file never set): ClusterClasses and Clusters found here are validated as updates, with Cluster API''s update rules, and a Cluster''s version change is refused while the stored ControlPlane, MachineDeployments or MachinePools still roll out the previous one; repeatable')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'The kubeconfig of the live read (implies --live) [default: KUBECONFIG, else ~/.kube/config, as kubectl]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context of the live read (implies --live) [default: its current context]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'How long one request of the live read may take, as kubectl''s flag: 1s, 2m, 3h, or seconds; 0: no limit of its own')
            [CompletionResult]::new('--live-deadline', '--live-deadline', [CompletionResultType]::ParameterName, 'How long the whole live read may take (1s, 2m, 3h, or seconds)')
            [CompletionResult]::new('--save-current', '--save-current', [CompletionResultType]::ParameterName, 'Write what the live read read into DIR, as files --current DIR reads back (a CI job then plans without credentials; a bug report carries the state)')
            [CompletionResult]::new('--old', '--old', [CompletionResultType]::ParameterName, 'Like --current, but each input object replaces its stored form whole, as `kubectl replace` would: a reference the stored Cluster has and the input lacks is a removal ("cannot be removed"); repeatable')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'What to print on stdout: diagnostics only (text), findings as JSON, or the defaulted objects as YAML')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'What to print on stdout: diagnostics only (text), findings as JSON, or the defaulted objects as YAML')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out the files a directory walk finds that match GLOB; repeatable')
            [CompletionResult]::new('--diagnostics-format', '--diagnostics-format', [CompletionResultType]::ParameterName, 'How diagnostics are printed on stderr')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('--substitute', '--substitute', [CompletionResultType]::ParameterName, 'Substitute clusterctl-style ${VAR} variables in the input before parsing')
            [CompletionResult]::new('--env-all', '--env-all', [CompletionResultType]::ParameterName, 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request''s files would print')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the extensions'' TLS certificates')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print a one-line summary of each call to the extensions on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print a one-line summary of each call to the extensions on stderr')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'Read what the plan needs of the management cluster from the live cluster of the kubeconfig''s current context, read-only (get and list only)')
            [CompletionResult]::new('--fail-on-warn', '--fail-on-warn', [CompletionResultType]::ParameterName, 'Exit with 1 when any warning was reported, after printing everything (as conftest''s flag does): a CI gate that treats warnings as errors')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'A field the CustomResourceDefinition does not declare (schema::pruned, often a misindented field) is an error, not a warning, as kubectl''s strict field validation')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'topoplan;eval' {
            [CompletionResult]::new('--vars', '--vars', [CompletionResultType]::ParameterName, 'YAML or JSON file with the variables (a mapping of name to value), e.g. `{builtin: {cluster: {name: c1}}, replicas: 3}`')
            [CompletionResult]::new('--max-input-bytes', '--max-input-bytes', [CompletionResultType]::ParameterName, 'Most bytes read from all inputs together')
            [CompletionResult]::new('--diagnostics-format', '--diagnostics-format', [CompletionResultType]::ParameterName, 'How diagnostics are printed on stderr')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print the rendered text instead of the JSON value Cluster API would use')
            [CompletionResult]::new('--jsonl', '--jsonl', [CompletionResultType]::ParameterName, 'Read oracle case lines on stdin (`{"template", "data", "funcs", "missingkey", "yamlToJSON"}`) and write one result line per case (`{"ok", "output", "json", "stage", "error"}`), as the Go oracle does')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'topoplan;extension' {
            [CompletionResult]::new('--diagnostics-format', '--diagnostics-format', [CompletionResultType]::ParameterName, 'How diagnostics are printed on stderr')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check a Runtime extension against the topology-mutation guidelines (deterministic, idempotent, validating its input, stable errors, fast, valid answers and variables), with the requests a plan of the input sends')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'topoplan;extension;check' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for objects that have none')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for objects that have none')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'KEY=VALUE file of variables for --substitute (and --provider-repo''s components)')
            [CompletionResult]::new('--provider-repo', '--provider-repo', [CompletionResultType]::ParameterName, 'A clusterctl local repository, DIR/<provider-label>/<version>/')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'clusterctl''s configuration file, whose variables feed substitution')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'An environment variable substitution may read (--substitute, --provider-repo''s components, the clusterctl config''s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read')
            [CompletionResult]::new('--max-input-bytes', '--max-input-bytes', [CompletionResultType]::ParameterName, 'Most bytes read from all inputs together')
            [CompletionResult]::new('--max-yaml-nodes', '--max-yaml-nodes', [CompletionResultType]::ParameterName, 'Most YAML nodes (scalars, lists, maps) all inputs of the run may hold together')
            [CompletionResult]::new('--max-cluster-objects', '--max-cluster-objects', [CompletionResultType]::ParameterName, 'Most objects one Cluster''s plan may generate')
            [CompletionResult]::new('--max-cluster-bytes', '--max-cluster-bytes', [CompletionResultType]::ParameterName, 'Most bytes (as compact JSON) of the objects one Cluster''s plan may generate; suffixes as for --max-input-bytes')
            [CompletionResult]::new('--max-generated-objects', '--max-generated-objects', [CompletionResultType]::ParameterName, 'Most objects the plans of all Clusters of the run may generate together (diff: both sides)')
            [CompletionResult]::new('--max-generated-bytes', '--max-generated-bytes', [CompletionResultType]::ParameterName, 'Most bytes of objects the plans of all Clusters of the run may generate together')
            [CompletionResult]::new('--max-cel-cost', '--max-cel-cost', [CompletionResultType]::ParameterName, 'Most CEL cost (Kubernetes'' cost units) all validation rules of the run may spend together, beyond Kubernetes'' limits per call and per object')
            [CompletionResult]::new('--feature-gates', '--feature-gates', [CompletionResultType]::ParameterName, 'Cluster API feature gates, as its controller takes them')
            [CompletionResult]::new('--crds', '--crds', [CompletionResultType]::ParameterName, 'CustomResourceDefinitions of provider kinds (files, directories); repeatable')
            [CompletionResult]::new('--extension', '--extension', [CompletionResultType]::ParameterName, 'A Runtime extension serving external patches; repeatable')
            [CompletionResult]::new('--allow-extension-url', '--allow-extension-url', [CompletionResultType]::ParameterName, 'Call an ExtensionConfig of the input whose URL starts with PREFIX (e.g. https://127.0.0.1:8443/); repeatable')
            [CompletionResult]::new('--ca-file', '--ca-file', [CompletionResultType]::ParameterName, 'PEM file of the CA(s) that signed the extensions'' serving certificates')
            [CompletionResult]::new('--max-extension-response-bytes', '--max-extension-response-bytes', [CompletionResultType]::ParameterName, 'The largest response body read from an extension, in bytes')
            [CompletionResult]::new('--record-extensions', '--record-extensions', [CompletionResultType]::ParameterName, 'Record every call to the extensions and its answer into DIR')
            [CompletionResult]::new('--replay-extensions', '--replay-extensions', [CompletionResultType]::ParameterName, 'Answer every call to the extensions from a recording in DIR')
            [CompletionResult]::new('--trace-extensions', '--trace-extensions', [CompletionResultType]::ParameterName, 'Write each call to the extensions as a YAML file in DIR, and summarise it on stderr')
            [CompletionResult]::new('--redact-setting', '--redact-setting', [CompletionResultType]::ParameterName, 'Redact the extension setting KEY in traces and recordings; repeatable')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'What to print on stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'What to print on stdout')
            [CompletionResult]::new('--calls', '--calls', [CompletionResultType]::ParameterName, 'Calls per handler for the latency figures (p50, p99)')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'The previous version''s DiscoverVariablesResponse (YAML or JSON): report breaking changes of the discovered variables (removed, narrowed, newly required without default)')
            [CompletionResult]::new('--deadline', '--deadline', [CompletionResultType]::ParameterName, 'Stop after this many seconds (planning and checks together): no call starts later, and the report says which checks ran; the run then fails')
            [CompletionResult]::new('--diagnostics-format', '--diagnostics-format', [CompletionResultType]::ParameterName, 'How diagnostics are printed on stderr')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('--substitute', '--substitute', [CompletionResultType]::ParameterName, 'Substitute clusterctl-style ${VAR} variables in the input before parsing')
            [CompletionResult]::new('--env-all', '--env-all', [CompletionResultType]::ParameterName, 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request''s files would print')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the extensions'' TLS certificates')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print a one-line summary of each call to the extensions on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print a one-line summary of each call to the extensions on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'topoplan;extension;help' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check a Runtime extension against the topology-mutation guidelines (deterministic, idempotent, validating its input, stable errors, fast, valid answers and variables), with the requests a plan of the input sends')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'topoplan;extension;help;check' {
            break
        }
        'topoplan;extension;help;help' {
            break
        }
        'topoplan;generate' {
            [CompletionResult]::new('--diagnostics-format', '--diagnostics-format', [CompletionResultType]::ParameterName, 'How diagnostics are printed on stderr')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('cluster', 'cluster', [CompletionResultType]::ParameterValue, 'Generate a workload cluster''s YAML from an infrastructure provider''s cluster template in a local repository, as `clusterctl generate cluster` does (pipe it into `topoplan plan -f -`)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'topoplan;generate;cluster' {
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'The infrastructure provider to read the cluster template from, NAME[:VERSION] (e.g. docker:v1.12.0) [default: the one infrastructure provider of --provider-repo; its newest release]')
            [CompletionResult]::new('--infrastructure', '--infrastructure', [CompletionResultType]::ParameterName, 'The infrastructure provider to read the cluster template from, NAME[:VERSION] (e.g. docker:v1.12.0) [default: the one infrastructure provider of --provider-repo; its newest release]')
            [CompletionResult]::new('--flavor', '--flavor', [CompletionResultType]::ParameterName, 'The cluster template variant: cluster-template-FLAVOR.yaml [default: cluster-template.yaml]')
            [CompletionResult]::new('--kubernetes-version', '--kubernetes-version', [CompletionResultType]::ParameterName, 'The Kubernetes version (the KUBERNETES_VERSION variable) [default: the variable''s value from the environment, --env-file or the clusterctl config file]')
            [CompletionResult]::new('--control-plane-machine-count', '--control-plane-machine-count', [CompletionResultType]::ParameterName, 'Control plane machines (CONTROL_PLANE_MACHINE_COUNT) [default: the variable''s value, else 1]')
            [CompletionResult]::new('--worker-machine-count', '--worker-machine-count', [CompletionResultType]::ParameterName, 'Worker machines (WORKER_MACHINE_COUNT) [default: the variable''s value, else 0]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the workload cluster''s objects (the NAMESPACE variable) [default: default]')
            [CompletionResult]::new('--target-namespace', '--target-namespace', [CompletionResultType]::ParameterName, 'The namespace of the workload cluster''s objects (the NAMESPACE variable) [default: default]')
            [CompletionResult]::new('--provider-repo', '--provider-repo', [CompletionResultType]::ParameterName, 'A clusterctl local repository, DIR/<provider-label>/<version>/ (e.g. DIR/infrastructure-docker/v1.12.0/cluster-template.yaml)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'clusterctl''s configuration file: variables (below the environment and --env-file) and providers (file:// URLs name local repositories) [default: $XDG_CONFIG_HOME/cluster-api/clusterctl.yaml, else ~/.cluster-api/clusterctl.yaml, when one exists]')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'KEY=VALUE file of variables; the environment variables --env (or --env-all) lets through override it, it overrides the clusterctl config file')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'An environment variable substitution may read (--substitute, --provider-repo''s components, the clusterctl config''s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read')
            [CompletionResult]::new('--max-input-bytes', '--max-input-bytes', [CompletionResultType]::ParameterName, 'Most bytes read from all inputs together')
            [CompletionResult]::new('--diagnostics-format', '--diagnostics-format', [CompletionResultType]::ParameterName, 'How diagnostics are printed on stderr')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('--list-variables', '--list-variables', [CompletionResultType]::ParameterName, 'Print the variables the template uses (required, then optional with defaults) instead of the YAML')
            [CompletionResult]::new('--env-all', '--env-all', [CompletionResultType]::ParameterName, 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request''s files would print')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'topoplan;generate;help' {
            [CompletionResult]::new('cluster', 'cluster', [CompletionResultType]::ParameterValue, 'Generate a workload cluster''s YAML from an infrastructure provider''s cluster template in a local repository, as `clusterctl generate cluster` does (pipe it into `topoplan plan -f -`)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'topoplan;generate;help;cluster' {
            break
        }
        'topoplan;generate;help;help' {
            break
        }
        'topoplan;completions' {
            [CompletionResult]::new('--diagnostics-format', '--diagnostics-format', [CompletionResultType]::ParameterName, 'How diagnostics are printed on stderr')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'topoplan;schema' {
            [CompletionResult]::new('--diagnostics-format', '--diagnostics-format', [CompletionResultType]::ParameterName, 'How diagnostics are printed on stderr')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'topoplan;version' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'What to print: text, or a JSON document for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'What to print: text, or a JSON document for scripts')
            [CompletionResult]::new('--diagnostics-format', '--diagnostics-format', [CompletionResultType]::ParameterName, 'How diagnostics are printed on stderr')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors on stderr: no warnings, no progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'topoplan;help' {
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Plan every topology Cluster in the input: what would be created, modified or deleted')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Review a change: plan every Cluster with the OLD inputs, then with the NEW ones against the state the old ones produce; report per Cluster what changes and what rolls out')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Run Cluster API''s admission rules (defaulting and validation) on ClusterClasses and Clusters')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Render a template as Cluster API renders valueFrom.template (or replay oracle cases)')
            [CompletionResult]::new('extension', 'extension', [CompletionResultType]::ParameterValue, 'Runtime extensions: check one against the topology-mutation guidelines')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Generate objects from a clusterctl provider repository (generate cluster NAME)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema of a document topoplan prints (plan, review, validation)')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print topoplan''s version and the Cluster API releases and API versions it emulates')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'topoplan;help;plan' {
            break
        }
        'topoplan;help;diff' {
            break
        }
        'topoplan;help;validate' {
            break
        }
        'topoplan;help;eval' {
            break
        }
        'topoplan;help;extension' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check a Runtime extension against the topology-mutation guidelines (deterministic, idempotent, validating its input, stable errors, fast, valid answers and variables), with the requests a plan of the input sends')
            break
        }
        'topoplan;help;extension;check' {
            break
        }
        'topoplan;help;generate' {
            [CompletionResult]::new('cluster', 'cluster', [CompletionResultType]::ParameterValue, 'Generate a workload cluster''s YAML from an infrastructure provider''s cluster template in a local repository, as `clusterctl generate cluster` does (pipe it into `topoplan plan -f -`)')
            break
        }
        'topoplan;help;generate;cluster' {
            break
        }
        'topoplan;help;completions' {
            break
        }
        'topoplan;help;schema' {
            break
        }
        'topoplan;help;version' {
            break
        }
        'topoplan;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
