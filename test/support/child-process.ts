import type { ChildProcess } from "node:child_process";

/** Stops a helper process (SIGTERM) and resolves once it has exited; at once when it already has. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
