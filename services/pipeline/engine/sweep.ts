import type { Db } from "mongodb";
import type pino from "pino";
import type { Clock } from "../../../shared/clock";
import { completeFinalization, unfinishedFinalizations, type FinalizationDeps } from "./finish";
import { drainOutbox, type OutboxEvent } from "./outbox";

/** How often interrupted finalizations are looked for, and how old one must be to count as interrupted. */
export const SWEEP_MS = 5000;
/** How often the outbox is handed over. */
export const DRAIN_MS = 250;

export interface SweepDeps {
  db: () => Db;
  finalization: FinalizationDeps;
  /** Whether a webhooks service is reachable: while none is, events wait in the outbox (the partial index keeps that cheap). */
  webhooksAvailable(): boolean;
  recordEvents(events: OutboxEvent[]): Promise<unknown>;
  clock: Clock;
  log: pino.Logger;
}

/** Starts the engine's two background duties; returns what stops them. */
export function startSweeps(deps: SweepDeps): () => void {
  let draining = false;
  const drain = async () => {
    if (draining || !deps.webhooksAvailable()) return;
    draining = true;
    try {
      await handOverEvents(deps);
    } finally {
      draining = false;
    }
  };
  const sweeper = setInterval(() => void sweepFinalizations(deps), SWEEP_MS);
  const drainer = setInterval(() => void drain(), DRAIN_MS);
  sweeper.unref();
  drainer.unref();
  return () => {
    clearInterval(sweeper);
    clearInterval(drainer);
  };
}

/** Hands the outbox's job events to the webhooks service until none is pending. */
async function handOverEvents(deps: SweepDeps): Promise<void> {
  try {
    while ((await drainOutbox(deps.db(), (events) => deps.recordEvents(events), () => deps.clock.now())) > 0);
  } catch (err) {
    deps.log.warn({ err }, "handing job events to webhooks failed; they stay in the outbox");
  }
}

/** Completes finalizations a crash interrupted (refund, then onFinish, then the event). */
async function sweepFinalizations(deps: SweepDeps): Promise<void> {
  try {
    const stale = await unfinishedFinalizations(deps.db(), new Date(deps.clock.now().getTime() - SWEEP_MS));
    for (const job of stale) await completeFinalization(deps.db(), job, deps.finalization, deps.clock);
  } catch (err) {
    deps.log.warn({ err }, "finalization sweep failed");
  }
}
