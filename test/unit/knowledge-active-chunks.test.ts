import type { Db } from "mongodb";
import { activeChunks } from "../../services/brand-knowledge/retrieval";
import { BRAND_KNOWLEDGE_COLLECTIONS, CHUNKS, SOURCES } from "../../services/brand-knowledge/store";
import { useServiceDatabase } from "../support/test-database";

let db: Db;
useServiceDatabase("brand-knowledge", BRAND_KNOWLEDGE_COLLECTIONS, (opened) => (db = opened));

describe("the chunks retrieval reads for a profile", () => {
  it("come in the order their sources were added, not their ids' order, each document's chunks in order", async () => {
    // Two pasted texts: the first added has the larger id (ids are random), and an inactive generation.
    const sources = [
      { _id: "zz-first", org_id: "org", profile_id: "p", active_generation: "g1", created_at: new Date("2026-11-27T10:00:00Z") },
      { _id: "aa-second", org_id: "org", profile_id: "p", active_generation: "g2", created_at: new Date("2026-11-27T10:05:00Z") },
    ];
    await db.collection(SOURCES).insertMany(sources as never[]);
    const chunk = (source: string, generation: string, ordinal: number) => ({ _id: `${generation}:${source}:${ordinal}`, profile_id: "p", source_id: source, generation, document_url: `https://notes.example/${source}`, ordinal });
    await db.collection(CHUNKS).insertMany([chunk("aa-second", "g2", 1), chunk("zz-first", "g1", 1), chunk("aa-second", "g2", 0), chunk("zz-first", "g1", 0), chunk("zz-first", "g0", 0)] as never[]);
    const order = (await activeChunks(db, "org", "p")).map((c) => c._id);
    expect(order).toEqual(["g1:zz-first:0", "g1:zz-first:1", "g2:aa-second:0", "g2:aa-second:1"]);
  });
});
