/**
 * Static checks of the deployment files: Dockerfile, .dockerignore,
 * docker-compose.yml and the kustomize tree under k8s/. Nothing is built or
 * deployed; the files are parsed and cross-checked (names, references, probes,
 * hardening, environment variables). Environment values are run through the
 * app's own config loader, so a value the processes would refuse fails here.
 * Both overlays are rendered with `kubectl kustomize` and every object is validated against the
 * Kubernetes API schemas of the version the manifests target (test/support/kubernetes-schemas.ts).
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { loadConfig } from "../../shared/config";
import { KUBERNETES_VERSION, schemaErrors, unknownFieldErrors } from "../support/kubernetes-schemas";

const ROOT = path.resolve(__dirname, "../..");
const K8S = path.join(ROOT, "k8s");
const BASE = path.join(K8S, "base");
const OVERLAYS = ["dev", "prod"];

const SERVICES = ["gateway", "auth", "billing", "articles", "brand-knowledge", "pipeline", "webhooks"];

/** Every variable a deployment may set for the platform processes. */
const KNOWN_ENV = new Set([
  "NODE_ENV", "PORT", "HEALTH_PORT", "BIND_HOST", "SERVICES", "NODE_ID", "NATS_URL", "MONGO_URL", "MONGO_DB_PREFIX",
  "DATA_DIR", "LOG_LEVEL", "LOG_PRETTY", "ADMIN_TOKEN", "MAX_BODY_BYTES", "REQUEST_TIMEOUT_MS", "USAGE_FLUSH_MS",
  "LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL", "EMBEDDINGS_BASE_URL", "EMBEDDINGS_API_KEY", "EMBEDDINGS_MODEL",
  "SEARCH_PROVIDER", "SEARXNG_URL", "TAVILY_API_KEY", "BRAVE_SEARCH_API_KEY", "PIPELINE_CONCURRENCY", "INTEGRATIONS_ENCRYPTION_KEYS",
]);
/** Never in a ConfigMap. */
const SECRET_ENV = new Set(["ADMIN_TOKEN", "LLM_API_KEY", "EMBEDDINGS_API_KEY", "TAVILY_API_KEY", "BRAVE_SEARCH_API_KEY", "INTEGRATIONS_ENCRYPTION_KEYS"]);
/** Set per pod on the Deployment, never shared through the ConfigMap. */
const PER_POD_ENV = new Set(["SERVICES", "NODE_ID"]);
/** What the mongo image reads from the mongodb-credentials Secret. */
const MONGO_INIT_ENV = new Set(["MONGO_INITDB_ROOT_USERNAME", "MONGO_INITDB_ROOT_PASSWORD"]);

const PART_OF = "app.kubernetes.io/part-of";
const NAME = "app.kubernetes.io/name";
const COMPONENT = "app.kubernetes.io/component";

/** A valid admin token for checks that need one (never a real secret). */
const TEST_TOKEN = "t".repeat(32);
/** A well-formed integrations key (the committed Secret holds a placeholder the app refuses, like ADMIN_TOKEN's). */
const TEST_KEYS = `k1:${Buffer.alloc(32, 7).toString("base64")}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = any;
interface Manifest {
  file: string;
  obj: Obj;
}

function rel(file: string): string {
  return path.relative(ROOT, file);
}

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...yamlFiles(full));
    else if (/\.ya?ml$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

/** All documents of a YAML file; throws with the file name on any parse error. */
function parseAll(file: string): Obj[] {
  const docs = YAML.parseAllDocuments(fs.readFileSync(file, "utf8"), { merge: true });
  const list = Array.isArray(docs) ? docs : [docs];
  for (const d of list) {
    if (d.errors.length) throw new Error(`${rel(file)}: ${d.errors.map((e) => e.message).join("; ")}`);
  }
  return list.map((d) => d.toJS()).filter((o) => o !== null && o !== undefined);
}

const k8sFiles = yamlFiles(K8S);
const kustomizationFiles = k8sFiles.filter((f) => path.basename(f) === "kustomization.yaml");
/** Kubernetes objects of the base (what every overlay deploys). */
const baseManifests: Manifest[] = yamlFiles(BASE)
  .filter((f) => path.basename(f) !== "kustomization.yaml")
  .flatMap((file) => parseAll(file).map((obj) => ({ file, obj })));

const ofKind = (kind: string): Obj[] => baseManifests.filter((m) => m.obj.kind === kind).map((m) => m.obj);
const named = (kind: string, name: string): Obj | undefined => ofKind(kind).find((o) => o.metadata?.name === name);

const deployments = ofKind("Deployment");
const statefulSets = ofKind("StatefulSet");
const services = ofKind("Service");
const configMaps = ofKind("ConfigMap");
const secrets = ofKind("Secret");

/** `KEY=value` lines of an env file; commented-out `# KEY=` lines too when asked (to catch typos there). */
function envFileKeys(file: string, includeCommented = false): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const m = (includeCommented ? /^#?\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/ : /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/).exec(line.trim());
    if (m) out.set(m[1], m[2]);
  }
  return out;
}

/** Literal data of a ConfigMap or Secret (stringData, or base64 data decoded). */
function secretOrConfigData(o: Obj): Record<string, string> {
  const out: Record<string, string> = { ...(o.data ?? {}) };
  if (o.kind === "Secret") for (const k of Object.keys(out)) out[k] = Buffer.from(String(out[k]).replace(/\s+/g, ""), "base64").toString("utf8");
  return { ...out, ...(o.stringData ?? {}) };
}

function container(d: Obj): Obj {
  expect(d.spec.template.spec.containers).toHaveLength(1);
  return d.spec.template.spec.containers[0];
}

function envValue(c: Obj, name: string): string | undefined {
  return (c.env ?? []).find((e: Obj) => e.name === name)?.value;
}

/** Resolves a probe's port (name or number) to the container port number. */
function portNumber(c: Obj, port: string | number): number | undefined {
  if (typeof port === "number") return port;
  return (c.ports ?? []).find((p: Obj) => p.name === port)?.containerPort;
}

function podLabelsMatch(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

/** The ConfigMaps and Secrets the service Deployments read through envFrom. */
function appConfigNames(): { configMaps: Set<string>; secrets: Set<string> } {
  const refs = deployments.flatMap((d) => (d.spec.template.spec.containers[0].envFrom ?? []) as Obj[]);
  return {
    configMaps: new Set(refs.filter((r) => r.configMapRef).map((r) => r.configMapRef.name)),
    secrets: new Set(refs.filter((r) => r.secretRef).map((r) => r.secretRef.name)),
  };
}

/** The Secrets the StatefulSets (MongoDB) read through envFrom. */
function mongoSecretNames(): Set<string> {
  return new Set(
    statefulSets.flatMap((s) => s.spec.template.spec.containers.flatMap((c: Obj) => (c.envFrom ?? []).map((r: Obj) => r.secretRef?.name))),
  );
}

/**
 * Compose-style interpolation of ${VAR}, ${VAR:-default} and ${VAR:?error}
 * against `env`, as `docker compose` would do it.
 */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (_m, name: string, op?: string, arg?: string) => {
    const v = env[name];
    const unset = op?.startsWith(":") ? v === undefined || v === "" : v === undefined;
    if (!unset) return v;
    if (op?.endsWith("-")) return arg ?? "";
    if (op?.endsWith("?")) throw new Error(`${name}: ${arg}`);
    return "";
  });
}

describe("k8s manifests: files and kustomize structure", () => {
  it("finds the base, both overlays and their kustomizations", () => {
    expect(kustomizationFiles.map((f) => rel(f))).toEqual(
      expect.arrayContaining(["k8s/base/kustomization.yaml", "k8s/overlays/dev/kustomization.yaml", "k8s/overlays/prod/kustomization.yaml"]),
    );
  });

  it.each(k8sFiles.map((f) => [rel(f), f]))("%s parses, and every document has apiVersion and kind", (_name, file) => {
    const docs = parseAll(file);
    expect(docs.length).toBeGreaterThan(0);
    for (const d of docs) {
      expect(typeof d.apiVersion).toBe("string");
      expect(typeof d.kind).toBe("string");
    }
  });

  it.each(kustomizationFiles.map((f) => [rel(f), f]))("%s: resources, patches and generator sources exist", (_name, file) => {
    const dir = path.dirname(file);
    const k = parseAll(file)[0];
    expect(k.kind).toBe("Kustomization");
    expect(Array.isArray(k.resources) && k.resources.length).toBeTruthy();
    for (const r of k.resources as string[]) {
      const target = path.resolve(dir, r);
      expect({ resource: r, exists: fs.existsSync(target) }).toEqual({ resource: r, exists: true });
      if (fs.statSync(target).isDirectory()) expect(fs.existsSync(path.join(target, "kustomization.yaml"))).toBe(true);
    }
    for (const p of (k.patches ?? []) as Obj[]) {
      if (p.path) expect(fs.existsSync(path.resolve(dir, p.path))).toBe(true);
      else expect(typeof p.patch).toBe("string");
    }
    const ignored = fs.readFileSync(path.join(K8S, ".gitignore"), "utf8");
    for (const g of [...(k.configMapGenerator ?? []), ...(k.secretGenerator ?? [])] as Obj[]) {
      for (const src of [...(g.files ?? []), ...(g.envs ?? [])] as string[]) {
        const full = path.resolve(dir, src.replace(/^[^=]+=/, ""));
        if (fs.existsSync(full) && !["secrets.env", "mongodb.env"].includes(path.basename(full))) continue;
        // Secret sources are git-ignored: an example must exist, and the file must be ignored.
        expect({ src, example: fs.existsSync(`${full}.example`) }).toEqual({ src, example: true });
        expect(ignored).toContain(`overlays/*/${path.basename(full)}`);
      }
    }
  });

  it("lists every base manifest in the base kustomization (no orphan files)", () => {
    const k = parseAll(path.join(BASE, "kustomization.yaml"))[0];
    const listed = new Set((k.resources as string[]).map((r) => path.resolve(BASE, r)));
    const files = new Set(baseManifests.map((m) => m.file));
    expect([...files].filter((f) => !listed.has(f)).map(rel)).toEqual([]);
  });

  it("labels every base object with name, component and part-of", () => {
    for (const { file, obj } of baseManifests) {
      const labels = obj.metadata?.labels ?? {};
      const where = `${rel(file)} ${obj.kind}/${obj.metadata?.name}`;
      expect({ where, name: typeof labels[NAME], component: typeof labels[COMPONENT], partOf: labels[PART_OF] }).toEqual({
        where,
        name: "string",
        component: "string",
        partOf: "article-platform",
      });
    }
  });

  it("keeps the base namespace-agnostic (overlays set the namespace)", () => {
    for (const { obj } of baseManifests) expect(obj.metadata?.namespace).toBeUndefined();
    expect(ofKind("Namespace")).toHaveLength(0);
    for (const o of OVERLAYS) expect(typeof parseAll(path.join(K8S, "overlays", o, "kustomization.yaml"))[0].namespace).toBe("string");
  });
});

describe("k8s manifests: one Deployment per service", () => {
  it("has exactly the seven service Deployments", () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...SERVICES].sort());
  });

  describe.each(SERVICES)("%s", (service) => {
    const d = () => named("Deployment", service);

    it("runs only its own service, labelled as that component", () => {
      const c = container(d());
      expect(envValue(c, "SERVICES")).toBe(service);
      expect(d().metadata.labels[COMPONENT]).toBe(service);
      expect(d().metadata.labels[NAME]).toBe("article-platform");
      const podLabels = d().spec.template.metadata.labels;
      expect(podLabels[COMPONENT]).toBe(service);
      expect(podLabelsMatch(d().spec.selector.matchLabels, podLabels)).toBe(true);
      expect(c.image).toBe("article-platform");
    });

    it("takes its environment from the shared ConfigMap and Secret, and the app accepts it", () => {
      const c = container(d());
      const refs = (c.envFrom ?? []) as Obj[];
      const cmName = refs.find((r) => r.configMapRef)?.configMapRef.name;
      const secretName = refs.find((r) => r.secretRef)?.secretRef.name;
      expect(named("ConfigMap", cmName)).toBeDefined();
      expect(named("Secret", secretName)).toBeDefined();
      // The Secret comes last so that it wins over the ConfigMap on a shared key.
      expect(refs.findIndex((r) => r.secretRef)).toBeGreaterThan(refs.findIndex((r) => r.configMapRef));
      for (const e of c.env ?? []) expect(KNOWN_ENV.has(e.name)).toBe(true);

      const env: Record<string, string> = {
        ...secretOrConfigData(named("ConfigMap", cmName)),
        ...secretOrConfigData(named("Secret", secretName)),
        ADMIN_TOKEN: TEST_TOKEN, // the base holds a placeholder on purpose (see below)
        INTEGRATIONS_ENCRYPTION_KEYS: TEST_KEYS,
        SERVICES: envValue(c, "SERVICES")!,
        NODE_ID: `${service}-7c9d8f6b5-x2x4z`,
      };
      const cfg = loadConfig(env);
      expect(cfg.SERVICES).toEqual([service]);
      expect(cfg.NODE_ENV).toBe("production");
      expect(cfg.HEALTH_PORT).toBe(3001);
      expect(cfg.BIND_HOST).toBe("0.0.0.0"); // the default, loopback, would refuse the Service and the probes
      expect(cfg.embeddedMongo).toBe(false);
      expect(cfg.NATS_URL).toBeDefined();
    });

    it("has readiness (/readyz) and liveness (/healthz) probes on the health port", () => {
      const c = container(d());
      expect(c.readinessProbe?.httpGet?.path).toBe("/readyz");
      expect(c.livenessProbe?.httpGet?.path).toBe("/healthz");
      expect(portNumber(c, c.readinessProbe.httpGet.port)).toBe(3001);
      expect(portNumber(c, c.livenessProbe.httpGet.port)).toBe(3001);
      if (c.startupProbe) expect(c.startupProbe.httpGet?.path).toBe("/healthz");
    });

    it("is scraped for /metrics on the health port (prometheus.io annotations on the pod)", () => {
      const a = d().spec.template.metadata.annotations ?? {};
      expect(a["prometheus.io/scrape"]).toBe("true");
      expect(a["prometheus.io/path"]).toBe("/metrics");
      expect(Number(a["prometheus.io/port"])).toBe(3001);
      expect((container(d()).ports ?? []).map((p: Obj) => p.containerPort)).toContain(3001);
    });

    it("has cpu and memory requests and limits, requests not above limits", () => {
      const r = container(d()).resources;
      for (const kind of ["requests", "limits"]) for (const res of ["cpu", "memory"]) expect(r?.[kind]?.[res]).toBeDefined();
      const cpu = (v: string | number) => (String(v).endsWith("m") ? parseFloat(String(v)) / 1000 : Number(v));
      const mem = (v: string) => parseFloat(v) * ({ Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 }[v.replace(/^[\d.]+/, "")] ?? 1);
      expect(cpu(r.requests.cpu)).toBeLessThanOrEqual(cpu(r.limits.cpu));
      expect(mem(r.requests.memory)).toBeLessThanOrEqual(mem(r.limits.memory));
    });

    it("runs non-root, read-only, without privilege escalation or capabilities", () => {
      const pod = d().spec.template.spec;
      const sc = container(d()).securityContext ?? {};
      expect(sc.runAsNonRoot ?? pod.securityContext?.runAsNonRoot).toBe(true);
      expect(sc.runAsUser ?? pod.securityContext?.runAsUser).toBe(1000);
      expect(sc.readOnlyRootFilesystem).toBe(true);
      expect(sc.allowPrivilegeEscalation).toBe(false);
      expect(sc.capabilities?.drop).toEqual(["ALL"]);
      expect((sc.seccompProfile ?? pod.securityContext?.seccompProfile)?.type).toBe("RuntimeDefault");
      expect(pod.securityContext?.runAsNonRoot).toBe(true);
      expect(pod.automountServiceAccountToken).toBe(false);
    });

    it("mounts a writable emptyDir at /tmp and sets a termination grace period", () => {
      const pod = d().spec.template.spec;
      const mount = (container(d()).volumeMounts ?? []).find((m: Obj) => m.mountPath === "/tmp");
      expect(mount).toBeDefined();
      expect(pod.volumes.find((v: Obj) => v.name === mount.name)?.emptyDir).toBeDefined();
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(30);
    });
  });
});

describe("k8s manifests: gateway exposure, scaling and disruption", () => {
  const gateway = () => named("Deployment", "gateway");

  it("has a Service on port 80 that reaches the gateway's port 3000", () => {
    const svc = services.find((s) => podLabelsMatch(s.spec.selector ?? {}, gateway().spec.template.metadata.labels) && s.spec.selector);
    expect(svc).toBeDefined();
    const port = svc.spec.ports.find((p: Obj) => p.port === 80);
    expect(port).toBeDefined();
    expect(portNumber(container(gateway()), port.targetPort)).toBe(3000);
  });

  it("has an Ingress whose backend is that Service and port", () => {
    const ingresses = ofKind("Ingress");
    expect(ingresses).toHaveLength(1);
    const backend = ingresses[0].spec.rules[0].http.paths[0].backend.service;
    const svc = named("Service", backend.name);
    expect(svc).toBeDefined();
    expect(podLabelsMatch(svc.spec.selector, gateway().spec.template.metadata.labels)).toBe(true);
    const port = svc.spec.ports.find((p: Obj) => p.name === backend.port.name || p.port === backend.port.number);
    expect(port?.port).toBe(80);
  });

  it.each(["gateway", "pipeline"])("has an autoscaling/v2 HPA for the %s Deployment, which leaves replicas to it", (target) => {
    const hpa = ofKind("HorizontalPodAutoscaler").find((h) => h.spec.scaleTargetRef.name === target);
    expect(hpa?.apiVersion).toBe("autoscaling/v2");
    expect(hpa.spec.scaleTargetRef.kind).toBe("Deployment");
    expect(named("Deployment", target)).toBeDefined();
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(1);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
    expect(hpa.spec.metrics.length).toBeGreaterThan(0);
    // a fixed count on the Deployment would be reset to that value on every apply
    expect(named("Deployment", target).spec.replicas).toBeUndefined();
  });

  it("has a PodDisruptionBudget for the gateway pods", () => {
    const pdb = ofKind("PodDisruptionBudget").find((p) => podLabelsMatch(p.spec.selector.matchLabels, gateway().spec.template.metadata.labels));
    expect(pdb?.apiVersion).toBe("policy/v1");
  });
});

describe("k8s manifests: configuration and secrets", () => {
  it("has the app ConfigMap and Secret, and the Secret holds ADMIN_TOKEN and MONGO_URL", () => {
    const { configMaps: cms, secrets: ss } = appConfigNames();
    expect(cms.size).toBe(1);
    expect(ss.size).toBe(1);
    const secret = secretOrConfigData(named("Secret", [...ss][0]));
    expect(Object.keys(secret)).toEqual(expect.arrayContaining(["ADMIN_TOKEN", "MONGO_URL"]));
  });

  it("uses only known variable names in every ConfigMap and Secret, secrets never in a ConfigMap", () => {
    const { configMaps: cms, secrets: ss } = appConfigNames();
    const mongo = mongoSecretNames();
    for (const o of [...configMaps, ...secrets]) {
      const keys = Object.keys(secretOrConfigData(o));
      const id = `${o.kind}/${o.metadata.name}`;
      if (o.kind === "ConfigMap" && cms.has(o.metadata.name)) {
        expect({ id, unknown: keys.filter((k) => !KNOWN_ENV.has(k)) }).toEqual({ id, unknown: [] });
        expect({ id, secret: keys.filter((k) => SECRET_ENV.has(k) || PER_POD_ENV.has(k)) }).toEqual({ id, secret: [] });
      } else if (o.kind === "Secret" && ss.has(o.metadata.name)) {
        expect({ id, unknown: keys.filter((k) => !KNOWN_ENV.has(k)) }).toEqual({ id, unknown: [] });
      } else if (o.kind === "Secret" && mongo.has(o.metadata.name)) {
        expect(keys.sort()).toEqual([...MONGO_INIT_ENV].sort());
      } else {
        throw new Error(`${id} is used by no Deployment or StatefulSet envFrom`);
      }
    }
  });

  it("commits only placeholders, and the base's ADMIN_TOKEN placeholder stops the app at start", () => {
    for (const s of secrets) for (const v of Object.values(secretOrConfigData(s))) expect(v).toMatch(/REPLACE_ME/);
    const { secrets: ss } = appConfigNames();
    const placeholder = secretOrConfigData(named("Secret", [...ss][0]));
    expect(() => loadConfig({ ...placeholder, SERVICES: "gateway" })).toThrow("ADMIN_TOKEN");
  });

  it.each(OVERLAYS)("%s overlay: generators replace the base Secrets and use known keys only", (overlay) => {
    const dir = path.join(K8S, "overlays", overlay);
    const k = parseAll(path.join(dir, "kustomization.yaml"))[0];
    const { configMaps: cms, secrets: ss } = appConfigNames();
    const mongo = mongoSecretNames();
    const gens = [...(k.configMapGenerator ?? []), ...(k.secretGenerator ?? [])] as Obj[];
    for (const name of [...ss, ...mongo]) {
      expect(k.secretGenerator.find((g: Obj) => g.name === name)?.behavior).toBe("replace");
    }
    for (const g of gens) {
      const allowed = mongo.has(g.name) ? MONGO_INIT_ENV : KNOWN_ENV;
      expect(cms.has(g.name) || ss.has(g.name) || mongo.has(g.name)).toBe(true);
      const keys = [
        ...((g.literals ?? []) as string[]).map((l) => l.split("=")[0]),
        ...((g.envs ?? []) as string[]).flatMap((e) => [...envFileKeys(`${path.join(dir, e)}.example`, true).keys()]),
      ];
      expect({ generator: g.name, unknown: keys.filter((key) => !allowed.has(key)) }).toEqual({ generator: g.name, unknown: [] });
      if (cms.has(g.name)) {
        expect(keys.filter((key) => SECRET_ENV.has(key) || PER_POD_ENV.has(key))).toEqual([]);
        const literals = Object.fromEntries(((g.literals ?? []) as string[]).map((l) => l.split(/=(.*)/s).slice(0, 2)));
        const base = secretOrConfigData(named("ConfigMap", g.name));
        expect(() => loadConfig({ ...base, ...literals, ADMIN_TOKEN: TEST_TOKEN })).not.toThrow();
      }
    }
  });
});

describe("k8s manifests: NATS and MongoDB", () => {
  const cm = () => secretOrConfigData(configMaps[0]);

  it("runs NATS as a StatefulSet with JetStream, a headless Service and the client Service NATS_URL names", () => {
    const nats = statefulSets.find((s) => s.metadata.name === "nats");
    expect(nats).toBeDefined();
    const c = nats.spec.template.spec.containers[0];
    expect(c.image).toMatch(/^nats:2/);
    expect([...(c.command ?? []), ...(c.args ?? [])]).toContain("-js");
    expect(nats.spec.volumeClaimTemplates?.length).toBe(1);
    expect(named("Service", nats.spec.serviceName)?.spec.clusterIP).toBe("None");
    const url = new URL(cm().NATS_URL);
    const client = named("Service", url.hostname);
    expect(client).toBeDefined();
    expect(client.spec.ports.map((p: Obj) => p.port)).toContain(Number(url.port));
    expect(podLabelsMatch(client.spec.selector, nats.spec.template.metadata.labels)).toBe(true);
    // The file the configMapGenerator (and docker-compose.yml) use.
    expect(fs.readFileSync(path.join(BASE, "nats", "nats.conf"), "utf8")).toMatch(/jetstream\s*\{/);
  });

  it("runs MongoDB 7 as a single-replica StatefulSet with a PVC and the Service MONGO_URL names", () => {
    const mongo = statefulSets.find((s) => s.metadata.name === "mongodb");
    expect(mongo).toBeDefined();
    expect(mongo.spec.replicas).toBe(1);
    expect(mongo.spec.template.spec.containers[0].image).toBe("mongo:7");
    const claim = mongo.spec.volumeClaimTemplates?.[0];
    expect(claim?.spec.resources.requests.storage).toBeDefined();
    expect(mongo.spec.template.spec.containers[0].volumeMounts.find((m: Obj) => m.name === claim.metadata.name)?.mountPath).toBe("/data/db");
    const svc = named("Service", mongo.spec.serviceName);
    expect(svc).toBeDefined();
    const { secrets: ss } = appConfigNames();
    const host = new URL(secretOrConfigData(named("Secret", [...ss][0])).MONGO_URL).hostname;
    expect(host).toBe(svc.metadata.name);
  });

  it("runs NATS and MongoDB non-root with a read-only root filesystem too", () => {
    for (const s of statefulSets) {
      const pod = s.spec.template.spec;
      expect(pod.securityContext?.runAsNonRoot).toBe(true);
      for (const c of pod.containers) {
        expect(c.securityContext?.readOnlyRootFilesystem).toBe(true);
        expect(c.securityContext?.allowPrivilegeEscalation).toBe(false);
        expect(c.resources?.limits?.memory).toBeDefined();
        expect(c.readinessProbe).toBeDefined();
        expect(c.livenessProbe).toBeDefined();
      }
    }
  });
});

/**
 * An overlay as `kubectl kustomize` renders it (kubectl's bundled kustomize, v5; test/support/ensure-kubectl.sh
 * checks it is there), from a copy of k8s/ with generated secrets, so the git-ignored files never touch the work tree.
 */
function renderOverlay(overlay: string): Obj[] {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "k8s-render-"));
  try {
    fs.cpSync(K8S, path.join(tmp, "k8s"), { recursive: true, filter: (src) => !/(secrets|mongodb)\.env$/.test(src) });
    const dir = path.join(tmp, "k8s", "overlays", overlay);
    execFileSync("sh", [path.join(tmp, "k8s", "gen-secrets.sh"), dir], { stdio: "pipe" });
    const out = execFileSync("kubectl", ["kustomize", dir], { encoding: "utf8" });
    return YAML.parseAllDocuments(out).map((d) => d.toJS());
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

describe("k8s overlays rendered by kubectl kustomize", () => {
  const rendered = new Map<string, Obj[]>();
  const render = (overlay: string) => rendered.get(overlay) ?? rendered.set(overlay, renderOverlay(overlay)).get(overlay)!;

  it("has kubectl with its kustomize (npm test: test/support/ensure-kubectl.sh)", () => {
    const kubectl = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" });
    expect(kubectl.error?.message ?? "").toBe("");
    expect(kubectl.stdout).toMatch(/Kustomize Version: v[5-9]/);
  });

  it.each(OVERLAYS)("%s renders with generated secrets that the app accepts", (overlay) => {
    const objs = render(overlay);
    const ns = objs.find((o) => o.kind === "Namespace").metadata.name;
    for (const o of objs) if (o.kind !== "Namespace") expect(o.metadata.namespace).toBe(ns);

    const deploys = objs.filter((o) => o.kind === "Deployment");
    expect(deploys.map((d) => d.metadata.name).sort()).toEqual([...SERVICES].sort());
    const byName = (kind: string, name: string) => objs.find((o) => o.kind === kind && o.metadata.name === name);
    for (const d of deploys) {
      const c = d.spec.template.spec.containers[0];
      if (overlay === "prod") expect(c.image).not.toMatch(/:latest$|^[^:]+$/);
      const cm = byName("ConfigMap", c.envFrom.find((r: Obj) => r.configMapRef).configMapRef.name);
      const secret = byName("Secret", c.envFrom.find((r: Obj) => r.secretRef).secretRef.name);
      const env = { ...secretOrConfigData(cm), ...secretOrConfigData(secret), SERVICES: envValue(c, "SERVICES")! };
      const cfg = loadConfig(env); // a real token and URL now: must pass as is
      expect(cfg.SERVICES).toEqual([d.metadata.name]);
      expect(cfg.ADMIN_TOKEN!.length).toBeGreaterThanOrEqual(24);
      // MONGO_URL carries the in-cluster root user created from mongodb-credentials.
      const mongoCreds = secretOrConfigData(byName("Secret", "mongodb-credentials"));
      const url = new URL(cfg.MONGO_URL!);
      expect(url.username).toBe(mongoCreds.MONGO_INITDB_ROOT_USERNAME);
      expect(url.password).toBe(mongoCreds.MONGO_INITDB_ROOT_PASSWORD);
    }
    // The NATS pod mounts the generated (hash-suffixed) nats.conf ConfigMap.
    const nats = byName("StatefulSet", "nats");
    const vol = nats.spec.template.spec.volumes.find((v: Obj) => v.configMap);
    expect(byName("ConfigMap", vol.configMap.name)?.data["nats.conf"]).toMatch(/max_payload/);
  });

  it.each(OVERLAYS)(`%s: every object is valid against the Kubernetes v${KUBERNETES_VERSION} API schemas, without unknown fields`, (overlay) => {
    const objs = render(overlay);
    expect(objs.length).toBeGreaterThan(20);
    expect(schemaErrors(objs)).toEqual([]);
    expect(unknownFieldErrors(objs)).toEqual([]);
  });

  it("refuses what the Kubernetes API would: a wrong type, a missing field, an unknown field, a removed API version", () => {
    const objs: Obj[] = JSON.parse(JSON.stringify(render("dev")));
    const deploy = objs.find((o) => o.kind === "Deployment" && o.metadata.name === "gateway");
    deploy.spec.template.spec.containers[0].ports[0].containerPort = "3000";
    const service = objs.find((o) => o.kind === "Service");
    delete service.spec.ports[0].port;
    const pdb = objs.find((o) => o.kind === "PodDisruptionBudget");
    const hpa = objs.find((o) => o.kind === "HorizontalPodAutoscaler");
    const broken = [deploy, service, { ...hpa, apiVersion: "autoscaling/v2beta2" }, { ...pdb, apiVersion: "policy/v1", kind: "PodDisruptionBudgets" }];
    const errors = schemaErrors(broken);
    expect(errors).toEqual([
      expect.stringMatching(/^Deployment\/gateway: .*containerPort must be integer/),
      expect.stringMatching(/^Service\/.+: .*ports\/0 must have required property port$/),
      `HorizontalPodAutoscaler/${hpa.metadata.name}: apiVersion autoscaling/v2beta2 was removed in Kubernetes 1.26 (autoscaling/v2)`,
      `PodDisruptionBudgets/${pdb.metadata.name}: policy/v1 PodDisruptionBudgets is not a kind of Kubernetes ${KUBERNETES_VERSION}`,
    ]);

    const typo = JSON.parse(JSON.stringify(objs.find((o) => o.kind === "Deployment" && o.metadata.name === "auth")));
    typo.spec.template.spec.containers[0].readinessprobe = typo.spec.template.spec.containers[0].readinessProbe;
    expect(unknownFieldErrors([typo])).toEqual([`Deployment/auth: Object literal may only specify known properties, and '"readinessprobe"' does not exist in type 'IContainer'.`]);
  });
});

describe("docker-compose.yml", () => {
  const compose: Obj = parseAll(path.join(ROOT, "docker-compose.yml"))[0];
  const svc = (name: string) => compose.services[name];

  it("runs mongo:7 with a volume and a mongosh ping healthcheck", () => {
    expect(svc("mongo").image).toBe("mongo:7");
    expect(svc("mongo").volumes.some((v: string) => v.endsWith(":/data/db"))).toBe(true);
    expect(svc("mongo").healthcheck.test.join(" ")).toMatch(/mongosh.*ping/);
  });

  it("runs nats 2 with JetStream (-js), a store volume and a /healthz check on 8222", () => {
    expect(svc("nats").image).toMatch(/^nats:2/);
    expect(svc("nats").command).toContain("-js");
    expect(svc("nats").volumes.some((v: string) => /^[\w-]+:\/data$/.test(v))).toBe(true);
    expect(svc("nats").healthcheck.test.join(" ")).toMatch(/:8222\/healthz/);
    const conf = svc("nats").volumes.find((v: string) => v.includes("nats.conf")).split(":")[0];
    expect(fs.existsSync(path.resolve(ROOT, conf))).toBe(true);
  });

  it("has exactly mongo, nats and the seven services", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["mongo", "nats", ...SERVICES].sort());
  });

  describe.each(SERVICES)("%s", (service) => {
    it("is built from the one shared image, hardened, and runs its own SERVICES", () => {
      const s = svc(service);
      expect(s.image).toBe(svc("gateway").image);
      expect(s.build).toEqual(svc("gateway").build);
      expect(s.environment.SERVICES).toBe(service);
      expect(s.environment.HEALTH_PORT).toBe("3001");
      expect(s.environment.BIND_HOST).toBe("0.0.0.0");
      expect(s.user).toBe("1000:1000");
      expect(s.read_only).toBe(true);
      expect(s.tmpfs.some((t: string) => t.startsWith("/tmp"))).toBe(true);
      expect(s.environment.ADMIN_TOKEN).toMatch(/^\$\{ADMIN_TOKEN:\?.+\}$/);
      for (const key of Object.keys(s.environment)) expect(KNOWN_ENV.has(key)).toBe(true);
      if (service === "gateway") expect(s.ports).toEqual([expect.stringMatching(/:3000$/)]);
      else expect(s.ports).toBeUndefined();
    });

    it("checks /readyz and waits for healthy mongo and nats", () => {
      const s = svc(service);
      expect(s.healthcheck.test.join(" ")).toMatch(/\/readyz/);
      expect(s.depends_on).toEqual({ mongo: { condition: "service_healthy" }, nats: { condition: "service_healthy" } });
    });

    it("has an environment the app accepts once interpolated", () => {
      const s = svc(service);
      const env = Object.fromEntries(Object.entries(s.environment).map(([k, v]) => [k, interpolate(String(v), { ADMIN_TOKEN: TEST_TOKEN, INTEGRATIONS_ENCRYPTION_KEYS: TEST_KEYS })]));
      const cfg = loadConfig(env);
      expect(cfg.SERVICES).toEqual([service]);
      expect(cfg.NODE_ENV).toBe("production");
      expect(new URL(cfg.NATS_URL!).hostname).toBe("nats");
      expect(new URL(cfg.MONGO_URL!).hostname).toBe("mongo");
      expect(() => interpolate(String(s.environment.ADMIN_TOKEN), {})).toThrow("ADMIN_TOKEN");
      expect(() => interpolate(String(s.environment.INTEGRATIONS_ENCRYPTION_KEYS), {})).toThrow("INTEGRATIONS_ENCRYPTION_KEYS");
    });
  });
});

describe("Dockerfile and .dockerignore", () => {
  // Instructions with line continuations joined and comments dropped.
  const instructions = fs
    .readFileSync(path.join(ROOT, "Dockerfile"), "utf8")
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(" ") };
    });
  const stages = instructions.reduce<{ from: string; body: { op: string; args: string }[] }[]>((acc, i) => {
    if (i.op === "FROM") acc.push({ from: i.args, body: [] });
    else acc[acc.length - 1]?.body.push(i);
    return acc;
  }, []);
  const final = stages[stages.length - 1];
  const inFinal = (op: string) => final.body.filter((i) => i.op === op).map((i) => i.args);

  it("is multi-stage on node:22-bookworm-slim, building with npm ci, build and prune", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const s of stages) expect(s.from).toMatch(/^node:22-bookworm-slim\b/);
    const runs = stages[0].body.filter((i) => i.op === "RUN").map((i) => i.args).join(" ");
    expect(runs).toMatch(/npm ci/);
    expect(runs).toMatch(/npm run build/);
    expect(runs).toMatch(/npm prune --omit=dev/);
  });

  it("copies only package.json, node_modules and dist into the runtime stage", () => {
    const copied = inFinal("COPY").map((a) => a.split(/\s+/).filter((w) => !w.startsWith("--"))[0]);
    expect(copied.sort()).toEqual(["/app/dist", "/app/node_modules", "/app/package.json"]);
  });

  it("runs as a non-root user, in production, on ports 3000 and 3001, with a healthcheck", () => {
    const user = inFinal("USER").pop();
    expect(user).toBeDefined();
    expect(user!.split(":")[0]).not.toMatch(/^(root|0)$/);
    expect(inFinal("ENV").join(" ")).toMatch(/NODE_ENV=production/);
    expect(inFinal("ENV").join(" ")).toMatch(/HEALTH_PORT=3001/);
    expect(inFinal("ENV").join(" ")).toMatch(/BIND_HOST=0\.0\.0\.0/);
    expect(inFinal("EXPOSE").join(" ").split(/\s+/).sort()).toEqual(["3000", "3001"]);
    expect(inFinal("HEALTHCHECK").join(" ")).toMatch(/\/healthz/);
    expect(JSON.parse(inFinal("CMD").pop()!)).toEqual(["node", "dist/main.js"]);
  });

  it("keeps dependencies, build output, VCS, data and secrets out of the build context", () => {
    const ignored = fs
      .readFileSync(path.join(ROOT, ".dockerignore"), "utf8")
      .split("\n")
      .map((l) => l.trim());
    expect(ignored).toEqual(expect.arrayContaining(["node_modules", "dist", "data", ".git", "coverage", ".env"]));
  });
});
