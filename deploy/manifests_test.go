// Package deploy checks the deployment descriptions: every Kubernetes manifest decodes
// strictly into the API types it names (an unknown or misspelt field fails), and each
// workload has what production needs (probes, graceful termination, a non-root user).
package deploy

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

func newObject(apiVersion, kind string) any {
	switch apiVersion + "/" + kind {
	case "apps/v1/Deployment":
		return &appsv1.Deployment{}
	case "v1/Service":
		return &corev1.Service{}
	case "v1/ConfigMap":
		return &corev1.ConfigMap{}
	case "v1/Secret":
		return &corev1.Secret{}
	case "policy/v1/PodDisruptionBudget":
		return &policyv1.PodDisruptionBudget{}
	case "autoscaling/v2/HorizontalPodAutoscaler":
		return &autoscalingv2.HorizontalPodAutoscaler{}
	case "batch/v1/Job":
		return &batchv1.Job{}
	case "networking.k8s.io/v1/Ingress":
		return &networkingv1.Ingress{}
	}
	return nil
}

func TestManifests(t *testing.T) {
	files, err := filepath.Glob("k8s/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	kinds := map[string]int{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		r := utilyaml.NewYAMLReader(bufioReader(raw))
		for {
			doc, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err, f)
			if len(bytes.TrimSpace(doc)) == 0 {
				continue
			}
			js, err := yaml.YAMLToJSON(doc)
			require.NoError(t, err, f)
			var meta struct{ APIVersion, Kind string }
			require.NoError(t, json.Unmarshal(js, &meta), f)
			obj := newObject(meta.APIVersion, meta.Kind)
			require.NotNil(t, obj, "%s: unexpected %s %s", f, meta.APIVersion, meta.Kind)
			dec := json.NewDecoder(bytes.NewReader(js))
			dec.DisallowUnknownFields()
			require.NoError(t, dec.Decode(obj), "%s: %s", f, meta.Kind)
			kinds[meta.Kind]++
			if d, ok := obj.(*appsv1.Deployment); ok {
				checkDeployment(t, f, d)
			}
		}
	}
	for _, k := range []string{"Deployment", "Service", "Ingress", "Job", "PodDisruptionBudget", "HorizontalPodAutoscaler"} {
		require.Positive(t, kinds[k], "no %s manifest", k)
	}
}

func checkDeployment(t *testing.T, file string, d *appsv1.Deployment) {
	spec := d.Spec.Template.Spec
	require.NotNil(t, spec.TerminationGracePeriodSeconds, file)
	require.GreaterOrEqual(t, *spec.TerminationGracePeriodSeconds, int64(30), file)
	require.NotNil(t, spec.SecurityContext.RunAsNonRoot, file)
	require.True(t, *spec.SecurityContext.RunAsNonRoot, file)
	require.Equal(t, d.Spec.Selector.MatchLabels, pick(d.Spec.Template.Labels, d.Spec.Selector.MatchLabels), file)
	for _, c := range spec.Containers {
		require.NotNil(t, c.ReadinessProbe, "%s: %s has no readiness probe", file, c.Name)
		require.Equal(t, "/readyz", c.ReadinessProbe.HTTPGet.Path, file)
		require.NotNil(t, c.LivenessProbe, file)
		require.Equal(t, "/healthz", c.LivenessProbe.HTTPGet.Path, file)
	}
}

func pick(labels, keys map[string]string) map[string]string {
	out := map[string]string{}
	for k := range keys {
		out[k] = labels[k]
	}
	return out
}
