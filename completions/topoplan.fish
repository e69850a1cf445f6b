# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_topoplan_global_optspecs
    string join \n diagnostics-format= color= q/quiet h/help V/version
end

function __fish_topoplan_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_topoplan_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_topoplan_using_subcommand
    set -l cmd (__fish_topoplan_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c topoplan -n "__fish_topoplan_needs_command" -l diagnostics-format -d 'How diagnostics are printed on stderr' -r -f -a "text\t'miette\'s rendering: file:line:col, a snippet, help'
github\t'GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`)'
json\t'One JSON object per diagnostic and line'"
complete -c topoplan -n "__fish_topoplan_needs_command" -l color -d 'When to colour output' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t'Always (for CI logs that render ANSI colours)'
never\t'Never'"
complete -c topoplan -n "__fish_topoplan_needs_command" -s q -l quiet -d 'Print only errors on stderr: no warnings, no progress bar'
complete -c topoplan -n "__fish_topoplan_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c topoplan -n "__fish_topoplan_needs_command" -s V -l version -d 'Print version'
complete -c topoplan -n "__fish_topoplan_needs_command" -f -a "plan" -d 'Plan every topology Cluster in the input: what would be created, modified or deleted'
complete -c topoplan -n "__fish_topoplan_needs_command" -f -a "diff" -d 'Review a change: plan every Cluster with the OLD inputs, then with the NEW ones against the state the old ones produce; report per Cluster what changes and what rolls out'
complete -c topoplan -n "__fish_topoplan_needs_command" -f -a "validate" -d 'Run Cluster API\'s admission rules (defaulting and validation) on ClusterClasses and Clusters'
complete -c topoplan -n "__fish_topoplan_needs_command" -f -a "eval" -d 'Render a template as Cluster API renders valueFrom.template (or replay oracle cases)'
complete -c topoplan -n "__fish_topoplan_needs_command" -f -a "extension" -d 'Runtime extensions: check one against the topology-mutation guidelines'
complete -c topoplan -n "__fish_topoplan_needs_command" -f -a "generate" -d 'Generate objects from a clusterctl provider repository (generate cluster NAME)'
complete -c topoplan -n "__fish_topoplan_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c topoplan -n "__fish_topoplan_needs_command" -f -a "schema" -d 'Print the JSON Schema of a document topoplan prints (plan, review, validation)'
complete -c topoplan -n "__fish_topoplan_needs_command" -f -a "version" -d 'Print topoplan\'s version and the Cluster API releases and API versions it emulates'
complete -c topoplan -n "__fish_topoplan_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -s f -l filename -d 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -s n -l namespace -d 'Namespace for objects that have none' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l env-file -d 'KEY=VALUE file of variables for --substitute (and --provider-repo\'s components)' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l provider-repo -d 'A clusterctl local repository, DIR/<provider-label>/<version>/' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l config -d 'clusterctl\'s configuration file, whose variables feed substitution' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l env -d 'An environment variable substitution may read (--substitute, --provider-repo\'s components, the clusterctl config\'s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l max-input-bytes -d 'Most bytes read from all inputs together' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l max-yaml-nodes -d 'Most YAML nodes (scalars, lists, maps) all inputs of the run may hold together' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l max-cluster-objects -d 'Most objects one Cluster\'s plan may generate' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l max-cluster-bytes -d 'Most bytes (as compact JSON) of the objects one Cluster\'s plan may generate; suffixes as for --max-input-bytes' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l max-generated-objects -d 'Most objects the plans of all Clusters of the run may generate together (diff: both sides)' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l max-generated-bytes -d 'Most bytes of objects the plans of all Clusters of the run may generate together' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l max-cel-cost -d 'Most CEL cost (Kubernetes\' cost units) all validation rules of the run may spend together, beyond Kubernetes\' limits per call and per object' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l feature-gates -d 'Cluster API feature gates, as its controller takes them' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l crds -d 'CustomResourceDefinitions of provider kinds (files, directories); repeatable' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l extension -d 'A Runtime extension serving external patches; repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l allow-extension-url -d 'Call an ExtensionConfig of the input whose URL starts with PREFIX (e.g. https://127.0.0.1:8443/); repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l ca-file -d 'PEM file of the CA(s) that signed the extensions\' serving certificates' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l max-extension-response-bytes -d 'The largest response body read from an extension, in bytes' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l record-extensions -d 'Record every call to the extensions and its answer into DIR' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l replay-extensions -d 'Answer every call to the extensions from a recording in DIR' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l trace-extensions -d 'Write each call to the extensions as a YAML file in DIR, and summarise it on stderr' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l redact-setting -d 'Redact the extension setting KEY in traces and recordings; repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l current -d 'The management cluster\'s objects (files, directories, - or an earlier --output-dir); -f is then the change; repeatable' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l kubeconfig -d 'The kubeconfig of the live read (implies --live) [default: KUBECONFIG, else ~/.kube/config, as kubectl]' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l context -d 'The kubeconfig context of the live read (implies --live) [default: its current context]' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l request-timeout -d 'How long one request of the live read may take, as kubectl\'s flag: 1s, 2m, 3h, or seconds; 0: no limit of its own' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l live-deadline -d 'How long the whole live read may take (1s, 2m, 3h, or seconds)' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l save-current -d 'Write what the live read read into DIR, as files --current DIR reads back (a CI job then plans without credentials; a bug report carries the state)' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l cluster -d 'Plan only this Cluster; repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l output-dir -l output-directory -d 'Write one YAML file per object under DIR' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -s o -l output -d 'What to print on stdout' -r -f -a "table\t'A table per Cluster'
json\t'The plan document as JSON'
yaml\t'The plan document as YAML'
markdown\t'A pull-request comment: the fleet summed up, a table of the Clusters that change, and their diffs (identical changes grouped), within GitHub\'s comment size'
junit\t'JUnit XML: a test case per Cluster planned; a failing run is one failing case'"
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l diagnostics-format -d 'How diagnostics are printed on stderr' -r -f -a "text\t'miette\'s rendering: file:line:col, a snippet, help'
github\t'GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`)'
json\t'One JSON object per diagnostic and line'"
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l color -d 'When to colour output' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t'Always (for CI logs that render ANSI colours)'
never\t'Never'"
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l substitute -d 'Substitute clusterctl-style ${VAR} variables in the input before parsing'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l env-all -d 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request\'s files would print'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l insecure-skip-tls-verify -d 'Do not verify the extensions\' TLS certificates'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -s v -l verbose -d 'Print a one-line summary of each call to the extensions on stderr'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l all-current -d 'With --current or --live: plan every stored Cluster, not only those the change in -f affects (a drift check: what the topology controller would do now)'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l live -d 'Read what the plan needs of the management cluster from the live cluster of the kubeconfig\'s current context, read-only (get and list only)'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l detailed-exitcode -d 'Exit with 2 when the plan changes anything (0 when it changes nothing, 1 on error)'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l fail-on-warn -d 'Exit with 1 when any warning was reported, after printing everything'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l no-objects -d 'Leave each object out of the JSON/YAML document (verdicts, notes and diffs stay)'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l explain -d 'Also show what each ClusterClass patch did to each template'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l show-unchanged -d 'List unchanged objects in the table too (hidden by default, counted in the summary)'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -l stat -d 'Print only how many objects each Cluster creates, modifies and deletes'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -s q -l quiet -d 'Print only errors on stderr: no warnings, no progress bar'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c topoplan -n "__fish_topoplan_using_subcommand plan" -s V -l version -d 'Print version'
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l base-ref -d 'Read the old inputs from this git revision (e.g. origin/main) of the repository holding the PATHs, the new ones from the working tree' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -s n -l namespace -d 'Namespace for objects that have none [default: with --substitute the NAMESPACE variable if set; otherwise "default"]' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l env-file -d 'KEY=VALUE file of variables for --substitute (and --provider-repo\'s components); the environment variables --env (or --env-all) lets through override it, it overrides the clusterctl config file' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l provider-repo -d 'A clusterctl local repository, DIR/<provider-label>/<version>/' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l config -d 'clusterctl\'s configuration file, whose variables feed substitution' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l env -d 'An environment variable substitution may read (--substitute, --provider-repo\'s components, the clusterctl config\'s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l max-input-bytes -d 'Most bytes read from all inputs together' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l max-yaml-nodes -d 'Most YAML nodes (scalars, lists, maps) all inputs of the run may hold together' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l max-cluster-objects -d 'Most objects one Cluster\'s plan may generate' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l max-cluster-bytes -d 'Most bytes (as compact JSON) of the objects one Cluster\'s plan may generate; suffixes as for --max-input-bytes' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l max-generated-objects -d 'Most objects the plans of all Clusters of the run may generate together (diff: both sides)' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l max-generated-bytes -d 'Most bytes of objects the plans of all Clusters of the run may generate together' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l max-cel-cost -d 'Most CEL cost (Kubernetes\' cost units) all validation rules of the run may spend together, beyond Kubernetes\' limits per call and per object' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l feature-gates -d 'Cluster API feature gates, as its controller takes them' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l crds -d 'CustomResourceDefinitions of provider kinds (files, directories); repeatable' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l extension -d 'A Runtime extension serving external patches; repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l allow-extension-url -d 'Call an ExtensionConfig of the input whose URL starts with PREFIX (e.g. https://127.0.0.1:8443/); repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l ca-file -d 'PEM file of the CA(s) that signed the extensions\' serving certificates' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l max-extension-response-bytes -d 'The largest response body read from an extension, in bytes' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l record-extensions -d 'Record every call to the extensions and its answer into DIR' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l replay-extensions -d 'Answer every call to the extensions from a recording in DIR' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l trace-extensions -d 'Write each call to the extensions as a YAML file in DIR, and summarise it on stderr' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l redact-setting -d 'Redact the extension setting KEY in traces and recordings; repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l cluster -d 'Review only this Cluster: NAMESPACE/NAME, or NAME (in -n\'s namespace when given, else the one Cluster of that name); repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l current -d 'The management cluster\'s objects (files, directories or -), as `plan --current` reads them: OLD and NEW are then changes, and each side takes the ClusterClasses, templates and affected Clusters it lacks from here; repeatable' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l kubeconfig -d 'The kubeconfig of the live read (implies --live) [default: KUBECONFIG, else ~/.kube/config, as kubectl]' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l context -d 'The kubeconfig context of the live read (implies --live) [default: its current context]' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l request-timeout -d 'How long one request of the live read may take, as kubectl\'s flag: 1s, 2m, 3h, or seconds; 0: no limit of its own' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l live-deadline -d 'How long the whole live read may take (1s, 2m, 3h, or seconds)' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l save-current -d 'Write what the live read read into DIR, as files --current DIR reads back (a CI job then plans without credentials; a bug report carries the state)' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -s o -l output -d 'What to print on stdout' -r -f -a "table\t'A table per Cluster'
json\t'The plan document as JSON'
yaml\t'The plan document as YAML'
markdown\t'A pull-request comment: the fleet summed up, a table of the Clusters that change, and their diffs (identical changes grouped), within GitHub\'s comment size'
junit\t'JUnit XML: a test case per Cluster planned; a failing run is one failing case'"
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l diagnostics-format -d 'How diagnostics are printed on stderr' -r -f -a "text\t'miette\'s rendering: file:line:col, a snippet, help'
github\t'GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`)'
json\t'One JSON object per diagnostic and line'"
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l color -d 'When to colour output' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t'Always (for CI logs that render ANSI colours)'
never\t'Never'"
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l substitute -d 'Substitute clusterctl-style ${VAR} variables in both inputs before parsing'
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l env-all -d 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request\'s files would print'
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l insecure-skip-tls-verify -d 'Do not verify the extensions\' TLS certificates'
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -s v -l verbose -d 'Print a one-line summary of each call to the extensions on stderr'
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l live -d 'Read what the plan needs of the management cluster from the live cluster of the kubeconfig\'s current context, read-only (get and list only)'
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l stat -d 'One line per changed Cluster instead of its objects and diffs'
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l detailed-exitcode -d 'Exit with 2 when the change does anything (0 when nothing, 1 on error)'
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l fail-on-warn -d 'Exit with 1 when any warning was reported, after printing everything (as conftest\'s flag does): a CI gate that treats warnings as errors'
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -l no-objects -d 'Leave each object out of the JSON/YAML document (verdicts, notes and diffs stay): a fleet\'s document shrinks to what a reviewer reads'
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -s q -l quiet -d 'Print only errors on stderr: no warnings, no progress bar'
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c topoplan -n "__fish_topoplan_using_subcommand diff" -s V -l version -d 'Print version'
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -s f -l filename -d 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -s n -l namespace -d 'Namespace for objects that have none' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l env-file -d 'KEY=VALUE file of variables for --substitute (and --provider-repo\'s components)' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l provider-repo -d 'A clusterctl local repository, DIR/<provider-label>/<version>/' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l config -d 'clusterctl\'s configuration file, whose variables feed substitution' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l env -d 'An environment variable substitution may read (--substitute, --provider-repo\'s components, the clusterctl config\'s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l max-input-bytes -d 'Most bytes read from all inputs together' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l max-yaml-nodes -d 'Most YAML nodes (scalars, lists, maps) all inputs of the run may hold together' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l max-cluster-objects -d 'Most objects one Cluster\'s plan may generate' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l max-cluster-bytes -d 'Most bytes (as compact JSON) of the objects one Cluster\'s plan may generate; suffixes as for --max-input-bytes' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l max-generated-objects -d 'Most objects the plans of all Clusters of the run may generate together (diff: both sides)' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l max-generated-bytes -d 'Most bytes of objects the plans of all Clusters of the run may generate together' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l max-cel-cost -d 'Most CEL cost (Kubernetes\' cost units) all validation rules of the run may spend together, beyond Kubernetes\' limits per call and per object' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l feature-gates -d 'Cluster API feature gates, as its controller takes them' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l crds -d 'CustomResourceDefinitions of provider kinds (files, directories); repeatable' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l extension -d 'A Runtime extension serving external patches; repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l allow-extension-url -d 'Call an ExtensionConfig of the input whose URL starts with PREFIX (e.g. https://127.0.0.1:8443/); repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l ca-file -d 'PEM file of the CA(s) that signed the extensions\' serving certificates' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l max-extension-response-bytes -d 'The largest response body read from an extension, in bytes' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l record-extensions -d 'Record every call to the extensions and its answer into DIR' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l replay-extensions -d 'Answer every call to the extensions from a recording in DIR' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l trace-extensions -d 'Write each call to the extensions as a YAML file in DIR, and summarise it on stderr' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l redact-setting -d 'Redact the extension setting KEY in traces and recordings; repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l current -d 'The objects as they are now (files, directories or -), read as `plan --current` reads them, with the input applied over them as `plan --current` applies it (a Cluster keeps the references and uid only its stored form holds; a template or ClusterClass keeps the fields its file never set): ClusterClasses and Clusters found here are validated as updates, with Cluster API\'s update rules, and a Cluster\'s version change is refused while the stored ControlPlane, MachineDeployments or MachinePools still roll out the previous one; repeatable' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l kubeconfig -d 'The kubeconfig of the live read (implies --live) [default: KUBECONFIG, else ~/.kube/config, as kubectl]' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l context -d 'The kubeconfig context of the live read (implies --live) [default: its current context]' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l request-timeout -d 'How long one request of the live read may take, as kubectl\'s flag: 1s, 2m, 3h, or seconds; 0: no limit of its own' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l live-deadline -d 'How long the whole live read may take (1s, 2m, 3h, or seconds)' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l save-current -d 'Write what the live read read into DIR, as files --current DIR reads back (a CI job then plans without credentials; a bug report carries the state)' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l old -d 'Like --current, but each input object replaces its stored form whole, as `kubectl replace` would: a reference the stored Cluster has and the input lacks is a removal ("cannot be removed"); repeatable' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -s o -l output -d 'What to print on stdout: diagnostics only (text), findings as JSON, or the defaulted objects as YAML' -r -f -a "text\t'Diagnostics on stderr, nothing on stdout'
json\t'A findings document on stdout'
yaml\t'The input objects with Cluster API\'s defaults applied, as a server-side dry-run apply would store them'
junit\t'JUnit XML: a test case per ClusterClass and Cluster, a failure per error'"
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l exclude -d 'Leave out the files a directory walk finds that match GLOB; repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l diagnostics-format -d 'How diagnostics are printed on stderr' -r -f -a "text\t'miette\'s rendering: file:line:col, a snippet, help'
github\t'GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`)'
json\t'One JSON object per diagnostic and line'"
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l color -d 'When to colour output' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t'Always (for CI logs that render ANSI colours)'
never\t'Never'"
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l substitute -d 'Substitute clusterctl-style ${VAR} variables in the input before parsing'
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l env-all -d 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request\'s files would print'
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l insecure-skip-tls-verify -d 'Do not verify the extensions\' TLS certificates'
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -s v -l verbose -d 'Print a one-line summary of each call to the extensions on stderr'
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l live -d 'Read what the plan needs of the management cluster from the live cluster of the kubeconfig\'s current context, read-only (get and list only)'
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l fail-on-warn -d 'Exit with 1 when any warning was reported, after printing everything (as conftest\'s flag does): a CI gate that treats warnings as errors'
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -l strict -d 'A field the CustomResourceDefinition does not declare (schema::pruned, often a misindented field) is an error, not a warning, as kubectl\'s strict field validation'
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -s q -l quiet -d 'Print only errors on stderr: no warnings, no progress bar'
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c topoplan -n "__fish_topoplan_using_subcommand validate" -s V -l version -d 'Print version'
complete -c topoplan -n "__fish_topoplan_using_subcommand eval" -l vars -d 'YAML or JSON file with the variables (a mapping of name to value), e.g. `{builtin: {cluster: {name: c1}}, replicas: 3}`' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand eval" -l max-input-bytes -d 'Most bytes read from all inputs together' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand eval" -l diagnostics-format -d 'How diagnostics are printed on stderr' -r -f -a "text\t'miette\'s rendering: file:line:col, a snippet, help'
github\t'GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`)'
json\t'One JSON object per diagnostic and line'"
complete -c topoplan -n "__fish_topoplan_using_subcommand eval" -l color -d 'When to colour output' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t'Always (for CI logs that render ANSI colours)'
never\t'Never'"
complete -c topoplan -n "__fish_topoplan_using_subcommand eval" -l text -d 'Print the rendered text instead of the JSON value Cluster API would use'
complete -c topoplan -n "__fish_topoplan_using_subcommand eval" -l jsonl -d 'Read oracle case lines on stdin (`{"template", "data", "funcs", "missingkey", "yamlToJSON"}`) and write one result line per case (`{"ok", "output", "json", "stage", "error"}`), as the Go oracle does'
complete -c topoplan -n "__fish_topoplan_using_subcommand eval" -s q -l quiet -d 'Print only errors on stderr: no warnings, no progress bar'
complete -c topoplan -n "__fish_topoplan_using_subcommand eval" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c topoplan -n "__fish_topoplan_using_subcommand eval" -s V -l version -d 'Print version'
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and not __fish_seen_subcommand_from check help" -l diagnostics-format -d 'How diagnostics are printed on stderr' -r -f -a "text\t'miette\'s rendering: file:line:col, a snippet, help'
github\t'GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`)'
json\t'One JSON object per diagnostic and line'"
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and not __fish_seen_subcommand_from check help" -l color -d 'When to colour output' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t'Always (for CI logs that render ANSI colours)'
never\t'Never'"
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and not __fish_seen_subcommand_from check help" -s q -l quiet -d 'Print only errors on stderr: no warnings, no progress bar'
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and not __fish_seen_subcommand_from check help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and not __fish_seen_subcommand_from check help" -s V -l version -d 'Print version'
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and not __fish_seen_subcommand_from check help" -f -a "check" -d 'Check a Runtime extension against the topology-mutation guidelines (deterministic, idempotent, validating its input, stable errors, fast, valid answers and variables), with the requests a plan of the input sends'
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and not __fish_seen_subcommand_from check help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -s f -l filename -d 'Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -s n -l namespace -d 'Namespace for objects that have none' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l env-file -d 'KEY=VALUE file of variables for --substitute (and --provider-repo\'s components)' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l provider-repo -d 'A clusterctl local repository, DIR/<provider-label>/<version>/' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l config -d 'clusterctl\'s configuration file, whose variables feed substitution' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l env -d 'An environment variable substitution may read (--substitute, --provider-repo\'s components, the clusterctl config\'s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l max-input-bytes -d 'Most bytes read from all inputs together' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l max-yaml-nodes -d 'Most YAML nodes (scalars, lists, maps) all inputs of the run may hold together' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l max-cluster-objects -d 'Most objects one Cluster\'s plan may generate' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l max-cluster-bytes -d 'Most bytes (as compact JSON) of the objects one Cluster\'s plan may generate; suffixes as for --max-input-bytes' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l max-generated-objects -d 'Most objects the plans of all Clusters of the run may generate together (diff: both sides)' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l max-generated-bytes -d 'Most bytes of objects the plans of all Clusters of the run may generate together' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l max-cel-cost -d 'Most CEL cost (Kubernetes\' cost units) all validation rules of the run may spend together, beyond Kubernetes\' limits per call and per object' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l feature-gates -d 'Cluster API feature gates, as its controller takes them' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l crds -d 'CustomResourceDefinitions of provider kinds (files, directories); repeatable' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l extension -d 'A Runtime extension serving external patches; repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l allow-extension-url -d 'Call an ExtensionConfig of the input whose URL starts with PREFIX (e.g. https://127.0.0.1:8443/); repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l ca-file -d 'PEM file of the CA(s) that signed the extensions\' serving certificates' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l max-extension-response-bytes -d 'The largest response body read from an extension, in bytes' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l record-extensions -d 'Record every call to the extensions and its answer into DIR' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l replay-extensions -d 'Answer every call to the extensions from a recording in DIR' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l trace-extensions -d 'Write each call to the extensions as a YAML file in DIR, and summarise it on stderr' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l redact-setting -d 'Redact the extension setting KEY in traces and recordings; repeatable' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -s o -l output -d 'What to print on stdout' -r -f -a "table\t'One row per check, then the evidence of each failed check'
json\t'A document with every check: name, passed, status, message, warnings, evidence'"
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l calls -d 'Calls per handler for the latency figures (p50, p99)' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l baseline -d 'The previous version\'s DiscoverVariablesResponse (YAML or JSON): report breaking changes of the discovered variables (removed, narrowed, newly required without default)' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l deadline -d 'Stop after this many seconds (planning and checks together): no call starts later, and the report says which checks ran; the run then fails' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l diagnostics-format -d 'How diagnostics are printed on stderr' -r -f -a "text\t'miette\'s rendering: file:line:col, a snippet, help'
github\t'GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`)'
json\t'One JSON object per diagnostic and line'"
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l color -d 'When to colour output' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t'Always (for CI logs that render ANSI colours)'
never\t'Never'"
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l substitute -d 'Substitute clusterctl-style ${VAR} variables in the input before parsing'
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l env-all -d 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request\'s files would print'
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -l insecure-skip-tls-verify -d 'Do not verify the extensions\' TLS certificates'
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -s v -l verbose -d 'Print a one-line summary of each call to the extensions on stderr'
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -s q -l quiet -d 'Print only errors on stderr: no warnings, no progress bar'
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from check" -s V -l version -d 'Print version'
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from help" -f -a "check" -d 'Check a Runtime extension against the topology-mutation guidelines (deterministic, idempotent, validating its input, stable errors, fast, valid answers and variables), with the requests a plan of the input sends'
complete -c topoplan -n "__fish_topoplan_using_subcommand extension; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and not __fish_seen_subcommand_from cluster help" -l diagnostics-format -d 'How diagnostics are printed on stderr' -r -f -a "text\t'miette\'s rendering: file:line:col, a snippet, help'
github\t'GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`)'
json\t'One JSON object per diagnostic and line'"
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and not __fish_seen_subcommand_from cluster help" -l color -d 'When to colour output' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t'Always (for CI logs that render ANSI colours)'
never\t'Never'"
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and not __fish_seen_subcommand_from cluster help" -s q -l quiet -d 'Print only errors on stderr: no warnings, no progress bar'
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and not __fish_seen_subcommand_from cluster help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and not __fish_seen_subcommand_from cluster help" -s V -l version -d 'Print version'
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and not __fish_seen_subcommand_from cluster help" -f -a "cluster" -d 'Generate a workload cluster\'s YAML from an infrastructure provider\'s cluster template in a local repository, as `clusterctl generate cluster` does (pipe it into `topoplan plan -f -`)'
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and not __fish_seen_subcommand_from cluster help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -s i -l infrastructure -d 'The infrastructure provider to read the cluster template from, NAME[:VERSION] (e.g. docker:v1.12.0) [default: the one infrastructure provider of --provider-repo; its newest release]' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -l flavor -d 'The cluster template variant: cluster-template-FLAVOR.yaml [default: cluster-template.yaml]' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -l kubernetes-version -d 'The Kubernetes version (the KUBERNETES_VERSION variable) [default: the variable\'s value from the environment, --env-file or the clusterctl config file]' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -l control-plane-machine-count -d 'Control plane machines (CONTROL_PLANE_MACHINE_COUNT) [default: the variable\'s value, else 1]' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -l worker-machine-count -d 'Worker machines (WORKER_MACHINE_COUNT) [default: the variable\'s value, else 0]' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -s n -l target-namespace -d 'The namespace of the workload cluster\'s objects (the NAMESPACE variable) [default: default]' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -l provider-repo -d 'A clusterctl local repository, DIR/<provider-label>/<version>/ (e.g. DIR/infrastructure-docker/v1.12.0/cluster-template.yaml)' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -l config -d 'clusterctl\'s configuration file: variables (below the environment and --env-file) and providers (file:// URLs name local repositories) [default: $XDG_CONFIG_HOME/cluster-api/clusterctl.yaml, else ~/.cluster-api/clusterctl.yaml, when one exists]' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -l env-file -d 'KEY=VALUE file of variables; the environment variables --env (or --env-all) lets through override it, it overrides the clusterctl config file' -r -F
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -l env -d 'An environment variable substitution may read (--substitute, --provider-repo\'s components, the clusterctl config\'s provider URLs); repeatable. No other is read unless --env-all is given; --env-file and the clusterctl config file are always read' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -l max-input-bytes -d 'Most bytes read from all inputs together' -r
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -l diagnostics-format -d 'How diagnostics are printed on stderr' -r -f -a "text\t'miette\'s rendering: file:line:col, a snippet, help'
github\t'GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`)'
json\t'One JSON object per diagnostic and line'"
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -l color -d 'When to colour output' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t'Always (for CI logs that render ANSI colours)'
never\t'Never'"
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -l list-variables -d 'Print the variables the template uses (required, then optional with defaults) instead of the YAML'
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -l env-all -d 'Let substitution read the whole environment, as clusterctl does. For local use: in CI the environment holds secrets that a ${VAR} in a pull request\'s files would print'
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -s q -l quiet -d 'Print only errors on stderr: no warnings, no progress bar'
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from cluster" -s V -l version -d 'Print version'
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from help" -f -a "cluster" -d 'Generate a workload cluster\'s YAML from an infrastructure provider\'s cluster template in a local repository, as `clusterctl generate cluster` does (pipe it into `topoplan plan -f -`)'
complete -c topoplan -n "__fish_topoplan_using_subcommand generate; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c topoplan -n "__fish_topoplan_using_subcommand completions" -l diagnostics-format -d 'How diagnostics are printed on stderr' -r -f -a "text\t'miette\'s rendering: file:line:col, a snippet, help'
github\t'GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`)'
json\t'One JSON object per diagnostic and line'"
complete -c topoplan -n "__fish_topoplan_using_subcommand completions" -l color -d 'When to colour output' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t'Always (for CI logs that render ANSI colours)'
never\t'Never'"
complete -c topoplan -n "__fish_topoplan_using_subcommand completions" -s q -l quiet -d 'Print only errors on stderr: no warnings, no progress bar'
complete -c topoplan -n "__fish_topoplan_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c topoplan -n "__fish_topoplan_using_subcommand completions" -s V -l version -d 'Print version'
complete -c topoplan -n "__fish_topoplan_using_subcommand schema" -l diagnostics-format -d 'How diagnostics are printed on stderr' -r -f -a "text\t'miette\'s rendering: file:line:col, a snippet, help'
github\t'GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`)'
json\t'One JSON object per diagnostic and line'"
complete -c topoplan -n "__fish_topoplan_using_subcommand schema" -l color -d 'When to colour output' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t'Always (for CI logs that render ANSI colours)'
never\t'Never'"
complete -c topoplan -n "__fish_topoplan_using_subcommand schema" -s q -l quiet -d 'Print only errors on stderr: no warnings, no progress bar'
complete -c topoplan -n "__fish_topoplan_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c topoplan -n "__fish_topoplan_using_subcommand schema" -s V -l version -d 'Print version'
complete -c topoplan -n "__fish_topoplan_using_subcommand version" -s o -l output -d 'What to print: text, or a JSON document for scripts' -r -f -a "text\t'Lines for people'
json\t'One JSON document'"
complete -c topoplan -n "__fish_topoplan_using_subcommand version" -l diagnostics-format -d 'How diagnostics are printed on stderr' -r -f -a "text\t'miette\'s rendering: file:line:col, a snippet, help'
github\t'GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`)'
json\t'One JSON object per diagnostic and line'"
complete -c topoplan -n "__fish_topoplan_using_subcommand version" -l color -d 'When to colour output' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t'Always (for CI logs that render ANSI colours)'
never\t'Never'"
complete -c topoplan -n "__fish_topoplan_using_subcommand version" -s q -l quiet -d 'Print only errors on stderr: no warnings, no progress bar'
complete -c topoplan -n "__fish_topoplan_using_subcommand version" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c topoplan -n "__fish_topoplan_using_subcommand version" -s V -l version -d 'Print version'
complete -c topoplan -n "__fish_topoplan_using_subcommand help; and not __fish_seen_subcommand_from plan diff validate eval extension generate completions schema version help" -f -a "plan" -d 'Plan every topology Cluster in the input: what would be created, modified or deleted'
complete -c topoplan -n "__fish_topoplan_using_subcommand help; and not __fish_seen_subcommand_from plan diff validate eval extension generate completions schema version help" -f -a "diff" -d 'Review a change: plan every Cluster with the OLD inputs, then with the NEW ones against the state the old ones produce; report per Cluster what changes and what rolls out'
complete -c topoplan -n "__fish_topoplan_using_subcommand help; and not __fish_seen_subcommand_from plan diff validate eval extension generate completions schema version help" -f -a "validate" -d 'Run Cluster API\'s admission rules (defaulting and validation) on ClusterClasses and Clusters'
complete -c topoplan -n "__fish_topoplan_using_subcommand help; and not __fish_seen_subcommand_from plan diff validate eval extension generate completions schema version help" -f -a "eval" -d 'Render a template as Cluster API renders valueFrom.template (or replay oracle cases)'
complete -c topoplan -n "__fish_topoplan_using_subcommand help; and not __fish_seen_subcommand_from plan diff validate eval extension generate completions schema version help" -f -a "extension" -d 'Runtime extensions: check one against the topology-mutation guidelines'
complete -c topoplan -n "__fish_topoplan_using_subcommand help; and not __fish_seen_subcommand_from plan diff validate eval extension generate completions schema version help" -f -a "generate" -d 'Generate objects from a clusterctl provider repository (generate cluster NAME)'
complete -c topoplan -n "__fish_topoplan_using_subcommand help; and not __fish_seen_subcommand_from plan diff validate eval extension generate completions schema version help" -f -a "completions" -d 'Print a shell completion script'
complete -c topoplan -n "__fish_topoplan_using_subcommand help; and not __fish_seen_subcommand_from plan diff validate eval extension generate completions schema version help" -f -a "schema" -d 'Print the JSON Schema of a document topoplan prints (plan, review, validation)'
complete -c topoplan -n "__fish_topoplan_using_subcommand help; and not __fish_seen_subcommand_from plan diff validate eval extension generate completions schema version help" -f -a "version" -d 'Print topoplan\'s version and the Cluster API releases and API versions it emulates'
complete -c topoplan -n "__fish_topoplan_using_subcommand help; and not __fish_seen_subcommand_from plan diff validate eval extension generate completions schema version help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c topoplan -n "__fish_topoplan_using_subcommand help; and __fish_seen_subcommand_from extension" -f -a "check" -d 'Check a Runtime extension against the topology-mutation guidelines (deterministic, idempotent, validating its input, stable errors, fast, valid answers and variables), with the requests a plan of the input sends'
complete -c topoplan -n "__fish_topoplan_using_subcommand help; and __fish_seen_subcommand_from generate" -f -a "cluster" -d 'Generate a workload cluster\'s YAML from an infrastructure provider\'s cluster template in a local repository, as `clusterctl generate cluster` does (pipe it into `topoplan plan -f -`)'
