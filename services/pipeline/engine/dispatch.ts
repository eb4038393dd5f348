import { Errors, type ServiceBroker } from "moleculer";

/** A stage handler (or a job type's `complete`) that runs in the pipeline's own process. */
export type LocalHandler = (params: Record<string, unknown>) => Promise<unknown>;

/**
 * How the engine calls a job type's action: in this process when the pipeline implements it (the article
 * stages), through the broker only to cross services (the ingest stages live in brand-knowledge). Both ways
 * run under the same timeout and end in the same error when it passes, so the engine treats them alike.
 */
export function actionCaller(broker: ServiceBroker, local: Record<string, LocalHandler>) {
  return <T>(action: string, params: Record<string, unknown>, timeoutMs: number): Promise<T> => {
    const handler = local[action];
    if (!handler) return broker.call<T, Record<string, unknown>>(action, params, { timeout: timeoutMs });
    return withTimeout(handler(params) as Promise<T>, timeoutMs, () => new Errors.RequestTimeoutError({ action, nodeID: broker.nodeID }));
  };
}

function withTimeout<T>(work: Promise<T>, ms: number, timedOut: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
    timer.unref();
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}
