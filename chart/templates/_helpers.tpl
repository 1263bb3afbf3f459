{{/*
Names. Every object is named after the release, never after a nameOverride: the files under
chart/files (RBAC, admission policy) name the ServiceAccounts "<release>-secret-syncer" and
"<release>-webhook" with nothing but .Release.Name, so the templates must agree with them.
*/}}
{{- define "kuik.syncer.name" -}}
{{ .Release.Name }}-secret-syncer
{{- end }}

{{- define "kuik.webhook.name" -}}
{{ .Release.Name }}-webhook
{{- end }}

{{- define "kuik.webhook.tlsSecretName" -}}
{{ .Release.Name }}-webhook-tls
{{- end }}

{{- define "kuik.chart" -}}
{{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels every object carries. */}}
{{- define "kuik.labels" -}}
helm.sh/chart: {{ include "kuik.chart" . }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector labels of one component; pass (dict "root" $ "component" "secret-syncer"). */}}
{{- define "kuik.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "kuik.componentLabels" -}}
{{ include "kuik.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "kuik.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
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
- --debounce={{ .Values.syncer.debounce }}
- --namespaces-by-default={{ .Values.syncer.namespacesByDefault }}
- --api-qps={{ .Values.syncer.api.qps }}
- --api-burst={{ .Values.syncer.api.burst }}
- --leader-elect={{ .Values.syncer.leaderElection.enabled }}
- --health-port={{ .Values.syncer.healthPort }}
- --log-format={{ .Values.logFormat }}
- --log-level={{ .Values.logLevel }}
{{- end }}

{{- define "kuik.webhook.args" -}}
- webhook
- --cluster-resource-namespace={{ .Release.Namespace }}
- --port={{ .Values.webhook.port }}
- --tls-cert-file=/tls/tls.crt
- --tls-key-file=/tls/tls.key
- --health-port={{ .Values.webhook.healthPort }}
- --probe-timeout={{ .Values.webhook.probeTimeout }}
- --log-format={{ .Values.logFormat }}
- --log-level={{ .Values.logLevel }}
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

{{/* DNS names the webhook's certificate must cover. */}}
{{- define "kuik.webhook.dnsNames" -}}
{{- $svc := include "kuik.webhook.name" . -}}
{{- list $svc (printf "%s.%s" $svc .Release.Namespace) (printf "%s.%s.svc" $svc .Release.Namespace) (printf "%s.%s.svc.cluster.local" $svc .Release.Namespace) | toJson -}}
{{- end }}
