{{/*
Names. Objects are named <fullname>-<component>, fullname being the release name unless
fullnameOverride says otherwise; nameOverride changes the app.kubernetes.io/name label. Every
object is named by one helper below, and every name a process is told (a flag, a URL, an RBAC
resourceNames entry) comes from the helper that names the object: ValuesSpaceTest renders the
chart over many value sets and checks that each told name is an object of the render.
*/}}
{{- define "kuik.fullname" -}}
{{- $fullname := .Values.fullnameOverride | default .Release.Name -}}
{{- if gt (len $fullname) 40 -}}
{{- fail (printf "the release name %s is %d characters, and the chart names objects after it (%s-secret-syncer-metrics is a Service, at most 63): install under a name of at most 40 characters, or set fullnameOverride (at most 40)" $fullname (len $fullname) $fullname) -}}
{{- end -}}
{{ $fullname }}
{{- end }}

{{- define "kuik.name" -}}
{{ .Values.nameOverride | default .Chart.Name }}
{{- end }}

{{- define "kuik.syncer.name" -}}
{{ include "kuik.fullname" . }}-secret-syncer
{{- end }}

{{- define "kuik.webhook.name" -}}
{{ include "kuik.fullname" . }}-webhook
{{- end }}

{{/* The ValidatingAdmissionPolicy that bounds the syncer's Secret writes, and its binding. */}}
{{- define "kuik.pullSecretsPolicy.name" -}}
{{ include "kuik.fullname" . }}-pull-secrets
{{- end }}

{{/* The ValidatingAdmissionPolicy that bounds kuik's pod writes (pull secret first), and its binding. */}}
{{- define "kuik.podGatesPolicy.name" -}}
{{ include "kuik.fullname" . }}-pod-gates
{{- end }}

{{/* The ValidatingAdmissionPolicy that bounds the selftest's identity to dry runs, and its binding. */}}
{{- define "kuik.selftestPolicy.name" -}}
{{ include "kuik.fullname" . }}-selftest-dry-run
{{- end }}

{{/*
The syncer's leader-election Lease in the install namespace: one per release, so that two releases
in one namespace elect apart. The syncer creates it; the webhook reads it (pull secret first).
*/}}
{{- define "kuik.syncer.leaseName" -}}
{{ include "kuik.syncer.name" . }}
{{- end }}

{{/* The selftest's ServiceAccount, pod and RBAC (helm test). */}}
{{- define "kuik.selftest.name" -}}
{{ include "kuik.fullname" . }}-selftest
{{- end }}

{{/* A component's metrics Service; pass (dict "root" $ "component" "secret-syncer"). */}}
{{- define "kuik.metricsService.name" -}}
{{ include "kuik.fullname" .root }}-{{ .component }}-metrics
{{- end }}

{{/*
The namespaces kuik never serves, one definition for the webhook configuration and both processes:
the install namespace, kube-system and webhook.excludedNamespaces. As a JSON list.
*/}}
{{- define "kuik.excludedNamespaces" -}}
{{- concat (list .Release.Namespace "kube-system") .Values.webhook.excludedNamespaces | uniq | toJson -}}
{{- end }}

{{/* The ServiceAccount each component runs as: serviceAccount.name, or the component's name. */}}
{{- define "kuik.syncer.serviceAccountName" -}}
{{ .Values.syncer.serviceAccount.name | default (include "kuik.syncer.name" .) }}
{{- end }}

{{- define "kuik.webhook.serviceAccountName" -}}
{{ .Values.webhook.serviceAccount.name | default (include "kuik.webhook.name" .) }}
{{- end }}

{{/*
Who counts as a kuik secret-syncer in the admission policy, as a CEL list of user names: this
release's syncer ServiceAccount, then each of syncer.peers (another release's, by its namespace and
its release name or ServiceAccount name).
*/}}
{{- define "kuik.syncerUsernames" -}}
{{- $names := list (printf "system:serviceaccount:%s:%s" .Release.Namespace (include "kuik.syncer.serviceAccountName" .)) -}}
{{- range .Values.syncer.peers -}}
{{- $names = append $names (printf "system:serviceaccount:%s:%s" .namespace (.serviceAccount | default (printf "%s-secret-syncer" .release))) -}}
{{- end -}}
[{{ range $i, $name := $names }}{{ if $i }}, {{ end }}'{{ $name }}'{{ end }}]
{{- end }}

{{- define "kuik.webhook.tlsSecretName" -}}
{{ include "kuik.fullname" . }}-webhook-tls
{{- end }}

{{- define "kuik.chart" -}}
{{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
commonLabels, for the objects of chart/files (one "key: value" line each, empty when none); the
schema keeps them off the chart's own label keys, so that no key is written twice.
*/}}
{{- define "kuik.commonLabels" -}}
{{- with merge (deepCopy (.Values.commonLabels | default dict)) (dig "commonLabels" dict (.Values.global | default dict)) }}
{{- toYaml . }}
{{- end }}
{{- end }}

{{/* Labels every object of templates/ carries: commonLabels, then the chart's own. */}}
{{- define "kuik.labels" -}}
{{- $labels := dict
  "helm.sh/chart" (include "kuik.chart" .)
  "app.kubernetes.io/name" (include "kuik.name" .)
  "app.kubernetes.io/instance" .Release.Name
  "app.kubernetes.io/version" .Chart.AppVersion
  "app.kubernetes.io/managed-by" .Release.Service -}}
{{- toYaml (merge $labels (include "kuik.commonLabels" . | fromYaml)) }}
{{- end }}

{{/* Selector labels of one component; pass (dict "root" $ "component" "secret-syncer"). */}}
{{- define "kuik.selectorLabels" -}}
app.kubernetes.io/name: {{ include "kuik.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "kuik.componentLabels" -}}
{{- toYaml (merge (dict "app.kubernetes.io/component" .component) (include "kuik.labels" .root | fromYaml)) }}
{{- end }}

{{/*
A component's pod template labels: the selector's labels, then podLabels, then the component's
other labels and commonLabels, the first of a key winning (a podLabel wins over a commonLabel, never
over the selector). Pass (dict "root" $ "component" "webhook" "values" .Values.webhook).
*/}}
{{- define "kuik.podLabels" -}}
{{- $selector := include "kuik.selectorLabels" . | fromYaml -}}
{{- $labels := include "kuik.componentLabels" . | fromYaml -}}
{{- toYaml (merge $selector (.values.podLabels | default dict) $labels) }}
{{- end }}

{{- define "kuik.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}{{ with .Values.image.digest }}@{{ . }}{{ end }}
{{- end }}

{{/*
global.* as cert-manager's chart honours it, for the pods of one component: pass (dict "root" $
"values" .Values.syncer). imagePullSecrets: the chart's, then global's; priorityClassName: the
component's, else global's; nodeSelector: global's under the component's.
*/}}
{{- define "kuik.podPlacement" -}}
{{- $global := .root.Values.global | default dict -}}
{{- $pullSecrets := concat (.root.Values.imagePullSecrets | default list) (dig "imagePullSecrets" list $global) | uniq -}}
{{- with $pullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.priorityClassName | default (dig "priorityClassName" "" $global) }}
priorityClassName: {{ . }}
{{- end }}
{{- with merge (deepCopy (.values.nodeSelector | default dict)) (dig "nodeSelector" dict $global) }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/*
The pod spec fields both components share, for one component: pass (dict "root" $ "component"
"secret-syncer" "values" .Values.syncer). A spread constraint without a labelSelector selects
the component's own pods.
*/}}
{{- define "kuik.topologySpreadConstraints" -}}
{{- $constraints := list -}}
{{- range .values.topologySpreadConstraints -}}
{{- $constraint := deepCopy . -}}
{{- if not (hasKey $constraint "labelSelector") -}}
{{- $_ := set $constraint "labelSelector" (dict "matchLabels" (include "kuik.selectorLabels" (dict "root" $.root "component" $.component) | fromYaml)) -}}
{{- end -}}
{{- $constraints = append $constraints $constraint -}}
{{- end -}}
{{- with $constraints }}
topologySpreadConstraints:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/*
The command line of each component, in one place: a test compares these flags with the CLI's.
Each flag comes from one value; TLS paths are where the webhook Deployment mounts its Secret.
*/}}
{{- define "kuik.syncer.args" -}}
- syncer
- --cluster-resource-namespace={{ .Release.Namespace }}
- --grace-period={{ .Values.syncer.gracePeriod }}
- --resync-period={{ .Values.syncer.resyncPeriod }}
- --resync-share={{ .Values.syncer.resyncShare }}
- --max-applies-in-flight={{ .Values.syncer.maxAppliesInFlight }}
- --debounce={{ .Values.syncer.debounce }}
- --namespaces-by-default={{ .Values.syncer.namespacesByDefault }}
- --api-qps={{ .Values.syncer.api.qps }}
- --api-burst={{ .Values.syncer.api.burst }}
- --leader-elect={{ .Values.syncer.leaderElection.enabled }}
- --health-port={{ .Values.syncer.healthPort }}
- --admission-policy={{ include "kuik.pullSecretsPolicy.name" . }}
- --admission-policy-binding={{ include "kuik.pullSecretsPolicy.name" . }}
- --lease-name={{ include "kuik.syncer.leaseName" . }}
- --excluded-namespaces={{ join "," .Values.webhook.excludedNamespaces }}
- --credential-trial-timeout={{ .Values.syncer.credentialTrialTimeout }}
- --insecure-registries={{ join "," .Values.webhook.insecureRegistries }}
- --log-format={{ .Values.logFormat }}
- --log-level={{ .Values.logLevel }}
- --release-gates={{ .Values.pullSecretFirst.enabled }}
- --provider-config=/kuik/providers/providers.yaml
- --provider-bin-dir={{ .Values.providerCredentials.plugins.directory }}
- --provider-min-validity={{ .Values.providerCredentials.minValidity }}
- --provider-timeout={{ .Values.providerCredentials.timeout }}
- --provider-concurrency={{ .Values.providerCredentials.concurrency }}
{{- if .Values.pullSecretFirst.enabled }}
- --pod-gates-policy={{ include "kuik.podGatesPolicy.name" . }}
- --pod-gates-policy-binding={{ include "kuik.podGatesPolicy.name" . }}
{{- end }}
{{- end }}

{{/*
The kubelet's CredentialProviderConfig of the chart's providers, as the syncer reads it: apiVersion
defaulted to credentialprovider.kubelet.k8s.io/v1 for each provider that does not say.
*/}}
{{- define "kuik.providerConfig" -}}
{{- $providers := list -}}
{{- range .Values.providers -}}
{{- $providers = append $providers (merge (dict) . (dict "apiVersion" "credentialprovider.kubelet.k8s.io/v1")) -}}
{{- end -}}
{{- toYaml (dict "apiVersion" "kubelet.config.k8s.io/v1" "kind" "CredentialProviderConfig" "providers" $providers) }}
{{- end }}

{{- define "kuik.webhook.args" -}}
- webhook
- --cluster-resource-namespace={{ .Release.Namespace }}
- --port={{ .Values.webhook.port }}
- --tls-cert-file=/tls/tls.crt
- --tls-key-file=/tls/tls.key
- --health-port={{ .Values.webhook.healthPort }}
- --probe-timeout={{ .Values.webhook.probeTimeout }}
- --probe-cache-ttl={{ .Values.webhook.probeCacheTtl }}
- --insecure-registries={{ join "," .Values.webhook.insecureRegistries }}
- --shutdown-delay={{ .Values.webhook.shutdownDelay }}
- --log-format={{ .Values.logFormat }}
- --log-level={{ .Values.logLevel }}
- --excluded-namespaces={{ join "," .Values.webhook.excludedNamespaces }}
- --pull-secret-first={{ .Values.pullSecretFirst.enabled }}
- --gate-max-wait={{ .Values.pullSecretFirst.maxWait }}
{{- if .Values.pullSecretFirst.enabled }}
- --syncer-lease={{ include "kuik.syncer.leaseName" . }}
- --pod-gates-policy={{ include "kuik.podGatesPolicy.name" . }}
- --pod-gates-policy-binding={{ include "kuik.podGatesPolicy.name" . }}
{{- end }}
{{- end }}

{{/*
A component's extraArgs, after the chart's flags; pass (dict "root" $ "component" "syncer"). A flag
the chart already sets from a value is refused: kuik refuses a flag given twice, so the pod would
crash at start.
*/}}
{{- define "kuik.extraArgs" -}}
{{- $values := index .root.Values .component -}}
{{- $chartArgs := include (printf "kuik.%s.args" .component) .root | fromYamlArray -}}
{{- range $values.extraArgs -}}
{{- $flag := regexReplaceAll "=.*$" (toString .) "" -}}
{{- range $chartArgs -}}
{{- if hasPrefix (printf "%s=" $flag) . -}}
{{- fail (printf "%s.extraArgs sets %s, which the chart already sets (%s): set its value instead" $.component $flag .) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- with $values.extraArgs }}
{{- toYaml . }}
{{- end }}
{{- end }}

{{/*
The selftest's command line (templates/selftest.yaml): the release, where its components answer
/readyz (their metrics Services, when the chart renders them), and the optional pod check.
*/}}
{{- define "kuik.selftest.args" -}}
- selftest
- --release={{ .Release.Name }}
- --cluster-resource-namespace={{ .Release.Namespace }}
- --admission-policy={{ include "kuik.pullSecretsPolicy.name" . }}
- --admission-policy-binding={{ include "kuik.pullSecretsPolicy.name" . }}
- --syncer-deployment={{ include "kuik.syncer.name" . }}
- --webhook-deployment={{ include "kuik.webhook.name" . }}
{{- if .Values.metrics.service.enabled }}
- --syncer-readyz=http://{{ include "kuik.metricsService.name" (dict "root" . "component" "secret-syncer") }}.{{ .Release.Namespace }}.svc:{{ .Values.syncer.healthPort }}/readyz
- --webhook-readyz=http://{{ include "kuik.metricsService.name" (dict "root" . "component" "webhook") }}.{{ .Release.Namespace }}.svc:{{ .Values.webhook.healthPort }}/readyz
{{- else }}
- --syncer-readyz=none
- --webhook-readyz=none
{{- end }}
{{- with .Values.selftest.podCheck.namespace }}
- --pod-namespace={{ . }}
- --image={{ $.Values.selftest.podCheck.image }}
{{- end }}
{{- end }}

{{/*
A file of chart/files rendered with the release's values. The files hold the RBAC and the
admission policy that the simulator also loads, so the chart includes them verbatim (through tpl)
instead of keeping a second copy. A missing file fails the render: a syncer without its policy
would be allowed to write any Secret anywhere.
*/}}
{{- define "kuik.file" -}}
{{- $text := .root.Files.Get .path -}}
{{- if not $text -}}
{{- fail (printf "chart file %s is missing or empty: the chart cannot be rendered without it" .path) -}}
{{- end -}}
{{ tpl $text .root }}
{{- end }}

{{/*
Where the webhook's certificate comes from: "provided" (webhook.tls, the user's Secret and CA),
"cert-manager" (certManager.enabled), or "generated" by the chart.
*/}}
{{- define "kuik.webhook.tlsSource" -}}
{{- if .Values.webhook.tls.secretName -}}
provided
{{- else if .Values.certManager.enabled -}}
cert-manager
{{- else -}}
generated
{{- end -}}
{{- end }}

{{/* DNS names the webhook's certificate must cover. */}}
{{- define "kuik.webhook.dnsNames" -}}
{{- $svc := include "kuik.webhook.name" . -}}
{{- list $svc (printf "%s.%s" $svc .Release.Namespace) (printf "%s.%s.svc" $svc .Release.Namespace) (printf "%s.%s.svc.cluster.local" $svc .Release.Namespace) | toJson -}}
{{- end }}

{{/*
The container's command: the image's JVM with a component's jvmOptions on its command line, then
the image's classpath and main class (the image's own entrypoint, with other options). Options in
JAVA_TOOL_OPTIONS would make the JVM print "Picked up JAVA_TOOL_OPTIONS: ..." first on stderr, a
line no JSON log collector reads (docs/decisions/0074-jvm-options-on-the-command-line.md).
*/}}
{{- define "kuik.javaCommand" -}}
- java
{{- range (splitList " " (.options | trim)) }}
{{- if . }}
- {{ . | quote }}
{{- end }}
{{- end }}
- -cp
- "@/app/jib-classpath-file"
- io.kuik.cli.Main
{{- end }}
