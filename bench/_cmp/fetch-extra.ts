import fs from "node:fs";
import { startFixtureSite, FIXTURE_PAGES } from "../../test/support/fixture-site";
import { startFakeSearxng, ROUTE_PLANNING_PAGES } from "../../test/support/fake-searxng";
import { startGeneratedSite } from "../../bench/generated-site";

async function main() {
  fs.mkdirSync("/tmp/cmp-extra", { recursive: true });
  const save = async (name: string, url: string) => {
    const r = await fetch(url);
    if (r.ok && (r.headers.get("content-type") ?? "").includes("html")) fs.writeFileSync(`/tmp/cmp-extra/${name.replace(/\W+/g, "_")}.html`, await r.text());
  };
  const fx: any = await startFixtureSite();
  for (const p of FIXTURE_PAGES) await save(`fixture${p.path}`, fx.url + p.path);
  const sx = await startFakeSearxng();
  for (const p of ROUTE_PLANNING_PAGES) await save(`searx${p.path}`, sx.siteUrl + p.path);
  const gs = await startGeneratedSite(10);
  const idx = await (await fetch(gs.url + "/")).text();
  await save("gen-index", gs.url + "/");
  for (const m of idx.matchAll(/href="([^"]+)"/g)) if (m[1].startsWith("/")) await save(`gen${m[1]}`, gs.url + m[1]);
  await fx.close?.(); await sx.close(); await gs.close();
  console.log(fs.readdirSync("/tmp/cmp-extra").length);
  process.exit(0);
}
void main();
