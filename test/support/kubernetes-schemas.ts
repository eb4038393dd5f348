import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";

/**
 * Kubernetes objects checked against the API of the version the manifests target (k8s/README.md):
 * `kubernetes-models` 4.5.1 (pinned exactly) carries the Kubernetes v1.33.0 OpenAPI schemas, compiled
 * into validate functions (ajv, by the package), and TypeScript declarations generated from the same
 * schemas. Two checks, both from that one package:
 * - `validate()` of the object's model (types, required fields, enums, formats), and an object whose
 *   apiVersion/kind v1.33 does not serve is refused;
 * - unknown fields (which the OpenAPI schemas allow and the API server refuses under strict field
 *   validation, kubectl's default): each object as an object literal typed by its model's interface,
 *   whose excess properties TypeScript reports.
 */
export const KUBERNETES_VERSION = "1.33";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = any;

/**
 * API versions no longer served by v1.33 (the Kubernetes deprecated API migration guide). The package
 * keeps models of older versions, so these are refused here.
 */
const REMOVED_API_VERSIONS: Record<string, string> = {
  "extensions/v1beta1": "1.22 (Ingress: networking.k8s.io/v1)",
  "apps/v1beta1": "1.16 (apps/v1)",
  "apps/v1beta2": "1.16 (apps/v1)",
  "networking.k8s.io/v1beta1": "1.22 (networking.k8s.io/v1)",
  "batch/v1beta1": "1.25 (batch/v1)",
  "policy/v1beta1": "1.25 (policy/v1)",
  "autoscaling/v2beta1": "1.25 (autoscaling/v2)",
  "autoscaling/v2beta2": "1.26 (autoscaling/v2)",
  "flowcontrol.apiserver.k8s.io/v1beta1": "1.26",
  "flowcontrol.apiserver.k8s.io/v1beta2": "1.29",
  "flowcontrol.apiserver.k8s.io/v1beta3": "1.32",
  "storage.k8s.io/v1beta1": "1.22 (storage.k8s.io/v1)",
  "rbac.authorization.k8s.io/v1beta1": "1.22 (rbac.authorization.k8s.io/v1)",
  "scheduling.k8s.io/v1beta1": "1.22 (scheduling.k8s.io/v1)",
  "discovery.k8s.io/v1beta1": "1.25 (discovery.k8s.io/v1)",
  "coordination.k8s.io/v1beta1": "1.22 (coordination.k8s.io/v1)",
  "admissionregistration.k8s.io/v1beta1": "1.22 (admissionregistration.k8s.io/v1)",
  "apiextensions.k8s.io/v1beta1": "1.22 (apiextensions.k8s.io/v1)",
  "certificates.k8s.io/v1beta1": "1.22 (certificates.k8s.io/v1)",
  "node.k8s.io/v1beta1": "1.25 (node.k8s.io/v1)",
  "events.k8s.io/v1beta1": "1.25 (events.k8s.io/v1)",
};

/** `apps/v1` → `kubernetes-models/apps/v1`; the core group (`v1`) is `kubernetes-models/v1`. */
const modulePath = (apiVersion: string) => `kubernetes-models/${apiVersion}`;

function modelOf(obj: Obj): { validate(): void } | string {
  const removed = REMOVED_API_VERSIONS[String(obj?.apiVersion)];
  if (removed) return `apiVersion ${obj.apiVersion} was removed in Kubernetes ${removed}`;
  let group: Record<string, unknown>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    group = require(modulePath(String(obj?.apiVersion)));
  } catch {
    return `apiVersion ${obj?.apiVersion} is not served by Kubernetes ${KUBERNETES_VERSION}`;
  }
  const Model = group[String(obj?.kind)] as (new (data: Obj) => { validate(): void }) | undefined;
  if (typeof Model !== "function" || (Model as unknown as { kind?: string }).kind !== obj.kind) return `${obj.apiVersion} ${obj.kind} is not a kind of Kubernetes ${KUBERNETES_VERSION}`;
  return new Model(obj);
}

/**
 * The object as the API server decodes it: a Secret's `data` values are base64, which kustomize wraps at
 * 70 columns (a `|` block) and the server's decoder (Go's encoding/base64) reads across the line breaks,
 * while the schema's `byte` format is one unbroken base64 string.
 */
function asDecoded(obj: Obj): Obj {
  if (obj?.kind !== "Secret" || !obj.data) return obj;
  return { ...obj, data: Object.fromEntries(Object.entries(obj.data).map(([k, v]) => [k, typeof v === "string" ? v.replace(/[\r\n]/g, "") : v])) };
}

const nameOf = (obj: Obj) => `${obj?.kind}/${obj?.metadata?.name}`;

/** Schema errors of each object, `Kind/name: …`; empty when all are valid. */
export function schemaErrors(objs: Obj[]): string[] {
  const errors: string[] = [];
  for (const obj of objs) {
    const model = modelOf(asDecoded(obj));
    if (typeof model === "string") {
      errors.push(`${nameOf(obj)}: ${model}`);
      continue;
    }
    try {
      model.validate();
    } catch (err) {
      errors.push(`${nameOf(obj)}: ${(err as Error).message}`);
    }
  }
  return errors;
}

/** Fields no schema of Kubernetes v1.33 has, `Kind/name: …`; empty when there are none. */
export function unknownFieldErrors(objs: Obj[]): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "k8s-fields-"));
  try {
    const file = path.join(dir, "objects.ts");
    const lines = objs.map((obj, i) => {
      const type = `import("${modulePath(obj.apiVersion)}").I${obj.kind}`;
      return `// ${nameOf(obj)}\nexport const o${i}: ${type} = ${JSON.stringify(obj, null, 1)};`;
    });
    fs.writeFileSync(file, lines.join("\n"));
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      target: ts.ScriptTarget.ES2022,
      types: [],
      typeRoots: [],
      baseUrl: process.cwd(),
      paths: { "*": [path.join(__dirname, "../../node_modules/*")] },
    });
    const starts = lines.reduce<number[]>((acc, line, i) => [...acc, (acc[i] ?? 0) + line.length + 1], [0]);
    return ts.getPreEmitDiagnostics(program).map((d) => {
      const index = d.start === undefined ? -1 : starts.findIndex((start, i) => d.start! >= start && d.start! < (starts[i + 1] ?? Infinity));
      return `${index >= 0 ? nameOf(objs[index]) : "objects"}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
