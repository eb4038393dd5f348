/** A benchmark's numeric setting from the environment (`BENCH_…`), else its default. */
export function numberOption(name: string, fallback: number): number {
  return Number(process.env[name] ?? fallback);
}

/** `<name>=<dir>`: node flags that write a CPU profile of a spawned process into <dir> when it stops; none when unset. */
export function cpuProfileArgs(name: string): string[] {
  const dir = process.env[name];
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [];
}
