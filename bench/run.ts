import fs from "node:fs";
import path from "node:path";
import { benchArticlePipeline } from "./article-pipeline";
import { benchArticleQuality } from "./article-quality";
import { benchGatewayAuth } from "./gateway-auth";
import { benchHeldOut } from "./held-out";
import { benchIngest } from "./ingest";
import { benchModelPath } from "./model-path";
import { benchRelevance } from "./relevance";
import { benchWebhooksFanout } from "./webhooks-fanout";

const BENCHES: Record<string, () => Promise<Record<string, unknown>>> = {
  "article-pipeline": benchArticlePipeline,
  "article-quality": () => benchArticleQuality(),
  "article-quality-model": () => benchArticleQuality({ model: true }),
  "gateway-auth": benchGatewayAuth,
  "held-out": benchHeldOut,
  ingest: benchIngest,
  "model-path": benchModelPath,
  relevance: benchRelevance,
  "webhooks-fanout": benchWebhooksFanout,
};

/** `npm run bench [name…]`: runs the named benchmarks (all by default) and prints their numbers. */
async function main(): Promise<void> {
  const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(BENCHES);
  const outDir = path.resolve(__dirname, "../../bench/results");
  fs.mkdirSync(outDir, { recursive: true });
  for (const name of names) {
    const bench = BENCHES[name];
    if (!bench) throw new Error(`unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(", ")}`);
    const result = { bench: name, at: new Date().toISOString(), ...(await bench()) };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    fs.writeFileSync(path.join(outDir, `${name}.json`), JSON.stringify(result, null, 2));
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
