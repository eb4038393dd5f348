import type { StageCallParams, StageOutcome } from "../../../shared/schemas/jobs";
import { termFrequencies, indexText } from "../../../shared/text/bm25";
import { buildFactSheet } from "../knowledge/fact-sheet";
import { buildVoiceProfile } from "../knowledge/voice";
import { profiles } from "../profiles";
import { sources } from "../sources";
import { CHUNKS, type ChunkDoc, type SourceDoc } from "../store";
import { activeChunks } from "../retrieval";
import { clearStaging, readStaging } from "./staging";
import type { IngestDeps, StagedChunk } from "./types";

/**
 * index: the new chunks are written under a generation of their own, then the source is switched
 * to it in one update and older generations are deleted. Readers see the old chunks or the new
 * ones, never a mix; a failed ingest never switches, so nothing of it is ever read.
 */
export async function indexChunks(deps: IngestDeps, call: StageCallParams, source: SourceDoc, chunksFence: number): Promise<StageOutcome> {
  const staged = await readStaging<StagedChunk>(deps.db, call.job_id, "chunk", chunksFence);
  const generation = `${call.job_id}:${call.fence}`;
  const col = deps.db.collection<ChunkDoc>(CHUNKS);
  await col.deleteMany({ source_id: source._id, generation });
  const docs: ChunkDoc[] = staged.map(({ data: c }) => {
    if (!c.vector) throw new Error(`chunk ${c.id} has no vector: the embed stage did not finish`);
    const tf = termFrequencies(indexText(c), c.lang);
    return {
      _id: `${generation}:${c.id}`,
      chunk_id: c.id,
      org_id: source.org_id,
      profile_id: source.profile_id,
      source_id: source._id,
      generation,
      source_type: source.type,
      document_url: source.url === null ? null : c.documentUrl,
      document_title: c.documentTitle,
      heading_path: c.headingPath,
      ordinal: c.ordinal,
      text: c.text,
      context: c.context ?? "",
      token_count: c.tokenCount,
      vector: c.vector,
      terms: tf.terms,
      counts: tf.counts,
      length: tf.length,
      lang: c.lang ?? null,
    };
  });
  for (let i = 0; i < docs.length; i += 200) await col.insertMany(docs.slice(i, i + 200), { ordered: false });

  const now = deps.clock.now();
  const pages = Number(call.state.pages ?? 0);
  // A run that lost its lease must not switch back to its own (older) generation.
  const switched = await sources(deps.db).updateOne(
    { _id: source._id, ingest_job_id: call.job_id, $or: [{ active_job: { $ne: call.job_id } }, { active_fence: { $lt: call.fence } }] },
    {
      $set: {
        active_generation: generation,
        active_job: call.job_id,
        active_fence: call.fence,
        status: "ready",
        error: null,
        pages,
        chunks: docs.length,
        ingested_at: now,
        updated_at: now,
      },
    },
  );
  const current = await sources(deps.db).findOne({ _id: source._id }, { projection: { active_generation: 1 } });
  await col.deleteMany({ source_id: source._id, generation: { $ne: current?.active_generation ?? generation } });
  if (switched.modifiedCount) await profiles(deps.db).updateOne({ _id: source.profile_id }, { $inc: { index_version: 1 }, $set: { updated_at: now } });
  return { meta: { chunks: docs.length, generation }, result: { pages, chunks: docs.length } };
}

const VOICE_SAMPLE_CHUNKS = 250;

/** At most `max` items spread evenly over `items`, in order. */
function evenSample<T>(items: T[], max: number): T[] {
  if (items.length <= max) return items;
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * items.length) / max)]);
}

/**
 * refresh: the profile's fact sheet (facts with their source chunk) and voice profile (writing
 * samples first, site text second), from every indexed chunk of the profile. A voice that cannot
 * be derived sets `voice_status: failed` with the reason; it does not fail the ingest.
 */
export async function refreshProfileKnowledge(deps: IngestDeps, call: StageCallParams, source: SourceDoc): Promise<StageOutcome> {
  const chunks = await activeChunks(deps.db, source.org_id, source.profile_id);
  const facts = buildFactSheet(chunks.map((c) => ({ id: c.chunk_id, documentUrl: c.document_url ?? "", text: c.text })));
  // The voice is a style estimate: an even sample of a large profile gives the same answer in bounded time.
  const samples = evenSample(chunks.filter((c) => c.source_type === "writing_sample"), VOICE_SAMPLE_CHUNKS).map((c) => c.text);
  const siteTexts = evenSample(chunks.filter((c) => c.source_type !== "writing_sample"), VOICE_SAMPLE_CHUNKS).map((c) => c.text);
  await new Promise((resolve) => setImmediate(resolve));
  const now = deps.clock.now();
  let voice: { voice_status: "ready" | "failed"; voice_profile: Record<string, unknown> | null; voice_error: string | null };
  try {
    if (!samples.length && !siteTexts.length) throw new Error("the profile has no indexed text to derive a voice from");
    voice = { voice_status: "ready", voice_profile: { ...buildVoiceProfile({ writingSamples: samples, siteTexts }) }, voice_error: null };
  } catch (err) {
    voice = { voice_status: "failed", voice_profile: null, voice_error: (err as Error).message };
  }
  await profiles(deps.db).updateOne(
    { _id: source.profile_id },
    {
      $set: {
        fact_sheet: { facts: facts.map((f) => ({ fact: f.fact, kind: f.kind, chunk_id: f.chunkId, source_url: f.sourceUrl || null })), updated_at: now },
        ...voice,
        updated_at: now,
      },
    },
  );
  await clearStaging(deps.db, call.job_id);
  return {
    meta: { facts: facts.length, voice_status: voice.voice_status, samples: samples.length, site_chunks: siteTexts.length },
    result: { pages: Number(call.state.pages ?? 0), chunks: (await sources(deps.db).findOne({ _id: source._id }))?.chunks ?? 0 },
  };
}

